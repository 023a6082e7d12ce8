"""The MPI engine (mpi4py over MPICH): launcher detection, the MPI backend, and the excepthook that turns
one rank's uncaught exception into the end of the whole job."""
from __future__ import annotations

import os
import sys
import threading
import time
import traceback
import zlib

import numpy as np

from .backend import Backend, finish_avg, reduce_in_order, split_rows
from .state import BACKEND_NAMES, CommError, CommState, Group, MCCL_WORLD_COMM_GROUP

_MPI = None


def _mpi():
    global _MPI
    if _MPI is None:
        try:
            import mpi4py
        except ImportError:
            raise RuntimeError("this job was started by an MPI launcher, but mpi4py is not installed: install "
                               "sprout's 'dist' extra (mpi4py and the MPICH wheel)") from None
        mpi4py.rc.thread_level = "multiple"  # "single" makes large in-place allreduces ~4x slower with MPICH
        from mpi4py import MPI
        _MPI = MPI
    return _MPI


# ---- launcher detection ------------------------------------------------------------------------------
def detect_launch(env) -> dict | None:
    """Who started this process: sprout-msrun / MPICH hydra (PMI_*), Open MPI (OMPI_*), Slurm's srun
    (SLURM_*); None without a launcher. Raises for launchers sprout cannot join."""
    def num(name):
        v = env.get(name)
        return int(v) if v not in (None, "") else None

    if env.get("MS_SCHED_HOST") and num("PMI_RANK") is None and num("OMPI_COMM_WORLD_RANK") is None:
        raise RuntimeError("init: this process was started by MindSpore's msrun (MS_SCHED_HOST is set); sprout "
                           "cannot join MindSpore's scheduler. Start the script with sprout's launcher instead: "
                           "python -m sprout.msrun --worker_num N --local_worker_num N script.py")
    for kind, rank, size in (("mpiexec", "PMI_RANK", "PMI_SIZE"),
                             ("openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
                             ("openmpi", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE"),
                             ("srun", "SLURM_PROCID", "SLURM_NTASKS")):
        r, n = num(rank), num(size)
        if r is not None and n is not None:
            if env.get("MS_WORKER_NUM") and kind == "mpiexec":
                kind = "sprout-msrun"
            return {"kind": kind, "rank": r, "size": n}
    rank_size = num("RANK_SIZE")
    if rank_size is not None and rank_size > 1:
        raise RuntimeError(f"init: RANK_SIZE={rank_size} is set but no launcher started this process (no PMI_*, "
                           "OMPI_* or SLURM_* variables): start it with python -m sprout.msrun or mpiexec -n N")
    return None


# ---- backend ---------------------------------------------------------------------------------------------
def _bytes(a: np.ndarray) -> np.ndarray:
    return a.reshape(-1).view(np.uint8)


def _offsets(counts: list) -> list:
    out, total = [], 0
    for c in counts:
        out.append(total)
        total += c
    return out


class MPIBackend(Backend):
    """A group as an MPI communicator. Reductions are bitwise equal to the simulated mesh: MPI's own
    reduction where the order cannot matter (two ranks with a commutative op, or integers), otherwise an
    all-to-all of chunks, a rank-ordered NumPy reduction of each chunk, and an all-gather."""

    kind = "mpi"

    def __init__(self, comm, world_ranks: tuple):
        super().__init__(comm.Get_rank(), comm.Get_size(), world_ranks)
        self.comm = comm
        MPI = _mpi()
        node = comm.Split_type(MPI.COMM_TYPE_SHARED)
        self._local = (node.Get_rank(), node.Get_size())
        node.Free()

    def _native(self, op: str, dtype: np.dtype):
        MPI = _mpi()
        kind = dtype.kind
        if kind not in "iuf":
            return None
        if kind == "f" and not (self.size == 2 and op in ("sum", "avg", "prod")):
            return None
        mtype = MPI._typedict.get(dtype.char)  # the predefined type (reductions need one, not a duplicate)
        if mtype is None or dtype.byteorder == ">":
            return None
        mop = {"sum": MPI.SUM, "avg": MPI.SUM, "prod": MPI.PROD, "max": MPI.MAX, "min": MPI.MIN}[op]
        return mtype, mop

    def allreduce(self, x, op):
        MPI = _mpi()
        native = self._native(op, x.dtype)
        if native is not None:
            self.comm.Allreduce(MPI.IN_PLACE, [x, native[0]], native[1])
            return finish_avg(x, self.size) if op == "avg" else x
        flat = x.reshape(-1)
        spans = split_rows(flat.size, self.size)
        item = x.itemsize
        counts = [(b - a) * item for a, b in spans]
        displs = [a * item for a, _ in spans]
        m = spans[self.rank][1] - spans[self.rank][0]
        rows = np.empty((self.size, m), x.dtype)
        self.comm.Alltoallv([_bytes(flat), (counts, displs), MPI.BYTE],
                            [_bytes(rows), ([m * item] * self.size, [i * m * item for i in range(self.size)]),
                             MPI.BYTE])
        mine = reduce_in_order(list(rows), op)
        self.comm.Allgatherv([_bytes(mine), MPI.BYTE], [_bytes(flat), (counts, displs), MPI.BYTE])
        return x

    def allgather(self, x):
        MPI = _mpi()
        out = np.empty((self.size * x.shape[0],) + x.shape[1:], x.dtype)
        self.comm.Allgather([_bytes(x), MPI.BYTE], [_bytes(out), MPI.BYTE])
        return out

    def reduce_scatter(self, x, op):
        MPI = _mpi()
        m = x.shape[0] // self.size
        out = np.empty((m,) + x.shape[1:], x.dtype)
        native = self._native(op, x.dtype)
        if native is not None:
            self.comm.Reduce_scatter_block([x, native[0]], [out, native[0]], native[1])
            return finish_avg(out, self.size) if op == "avg" else out
        rows = np.empty((self.size,) + out.shape, x.dtype)
        self.comm.Alltoall([_bytes(x), MPI.BYTE], [_bytes(rows), MPI.BYTE])
        return reduce_in_order(list(rows), op)

    def broadcast(self, x, root):
        self.comm.Bcast([_bytes(x), _mpi().BYTE], root=root)
        return x

    def alltoall(self, chunks, recv_shapes=None):
        MPI = _mpi()
        dtype = chunks[0].dtype
        shapes = [tuple(s) for s in (recv_shapes or [c.shape for c in chunks])]
        send = [_bytes(np.ascontiguousarray(c)) for c in chunks]
        scounts = [b.size for b in send]
        rcounts = [int(np.prod(s)) * dtype.itemsize for s in shapes]
        recv = np.empty(sum(rcounts), np.uint8)
        self.comm.Alltoallv([np.concatenate(send) if send else recv[:0], (scounts, _offsets(scounts)), MPI.BYTE],
                            [recv, (rcounts, _offsets(rcounts)), MPI.BYTE])
        out, start = [], 0
        for shape, count in zip(shapes, rcounts):
            out.append(recv[start:start + count].view(dtype).reshape(shape).copy())
            start += count
        return out

    def reduce(self, x, op, root):
        every = self.gather(x, root)
        return reduce_in_order(every, op) if every is not None else None

    def gather(self, x, root):
        MPI = _mpi()
        buf = np.empty((self.size,) + x.shape, x.dtype) if self.rank == root else None
        self.comm.Gather([_bytes(x), MPI.BYTE], [_bytes(buf), MPI.BYTE] if buf is not None else None, root=root)
        return list(buf) if buf is not None else None

    def scatter(self, chunks, root, shape, dtype):
        MPI = _mpi()
        out = np.empty(shape, dtype)
        send = np.concatenate([_bytes(c) for c in chunks]) if self.rank == root else None
        self.comm.Scatter([send, MPI.BYTE] if send is not None else None, [_bytes(out), MPI.BYTE], root=root)
        return out

    def barrier(self):
        self.comm.Barrier()

    def send(self, x, dest, tag):
        self.comm.ssend((x.dtype.str, x.shape), dest=dest, tag=2 * tag)
        self.comm.Ssend([_bytes(x), _mpi().BYTE], dest=dest, tag=2 * tag + 1)

    def recv(self, shape, dtype, src, tag, what):
        dt, got_shape = self.comm.recv(source=src, tag=2 * tag)
        if tuple(got_shape) != tuple(shape) or np.dtype(dt) != np.dtype(dtype):
            raise ValueError(f"{what}: expected {np.dtype(dtype).name}{list(shape)} from rank {src}, but it sent "
                             f"{np.dtype(dt).name}{list(got_shape)}")
        out = np.empty(shape, dtype)
        self.comm.Recv([_bytes(out), _mpi().BYTE], source=src, tag=2 * tag + 1)
        return out

    def isend(self, x, dest, tag):
        reqs = [self.comm.isend((x.dtype.str, x.shape), dest=dest, tag=2 * tag),
                self.comm.Isend([_bytes(x), _mpi().BYTE], dest=dest, tag=2 * tag + 1)]

        def wait(keep=x):  # the default argument keeps the buffer alive until the send completed
            reqs[0].wait()
            reqs[1].Wait()

        return wait

    def irecv(self, shape, dtype, src, tag, what):
        return lambda: self.recv(shape, dtype, src, tag, what)

    def signatures(self, sig):
        out = np.empty((self.size, sig.size), np.int64)
        self.comm.Allgather(sig, out)
        return out

    def allgather_object(self, obj):
        return self.comm.allgather(obj)

    def broadcast_object(self, obj, root):
        return self.comm.bcast(obj, root=root)

    def subgroup(self, name, world_ranks):
        mine = [self.world_ranks.index(r) for r in world_ranks]
        grp = self.comm.Get_group().Incl(mine)
        comm = self.comm.Create_group(grp, tag=zlib.crc32(name.encode()) % (1 << 20))
        grp.Free()
        comm.Set_name(name)
        return MPIBackend(comm, tuple(world_ranks))

    def local_rank_size(self):
        return self._local

    def comm_name(self, name):
        return f"mpi:{self.comm.Get_name()}"

    def free(self) -> None:
        MPI = _mpi()
        if self.comm not in (MPI.COMM_WORLD, MPI.COMM_SELF):
            self.comm.Free()


# ---- init --------------------------------------------------------------------------------------------
def init_mpi(st: CommState, launch: dict) -> None:
    """Join the MPI job: the world group, local rank/size, the excepthook and the collective watchdog."""
    limit = st.getenv("MS_TOPO_TIMEOUT")  # msrun's --cluster_time_out: every rank reaches init() by then
    timer = threading.Timer(float(limit), _init_timed_out, (launch["rank"], limit)) if limit else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        _join(st, launch)
    finally:
        if timer is not None:
            timer.cancel()


def _init_timed_out(rank: int, limit: str) -> None:
    sys.stderr.write(f"[rank {rank}] init: not every rank reached init() within --cluster_time_out {limit}s "
                     "(MS_TOPO_TIMEOUT); this rank exits\n")
    sys.stderr.flush()
    os._exit(4)  # MPI is not up, so the others cannot be aborted: the late ranks fail when they reach init()


def _join(st: CommState, launch: dict) -> None:
    MPI = _mpi()
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    if size != launch["size"]:
        hint = " (srun needs --mpi=pmi2 or pmix for MPICH)" if launch["kind"] == "srun" else ""
        raise RuntimeError(f"init: the launcher ({launch['kind']}) started {launch['size']} processes but MPI sees a "
                           f"world of {size}{hint}")
    expected = st.getenv("RANK_ID")
    if launch["kind"] == "sprout-msrun" and expected is not None and int(expected) != rank:
        raise RuntimeError(f"init: RANK_ID={expected} from the launcher differs from the MPI rank {rank}")
    world = MPIBackend(comm, tuple(range(size)))
    st.rank, st.size = rank, size
    st.local_rank, st.local_size = world.local_rank_size()
    from .blas import cap_for_local_ranks
    cap_for_local_ranks(os.environ, st.local_size)  # plain mpiexec: the launcher did not cap the BLAS threads
    st.groups[MCCL_WORLD_COMM_GROUP] = Group(MCCL_WORLD_COMM_GROUP, tuple(range(size)), world)
    st.kind = "mpi"
    st.extra["launch"] = launch["kind"]
    _install_excepthook(rank)
    from .watchdog import Watchdog
    st.extra["watchdog"] = Watchdog(comm, st)
    comm.Barrier()  # every rank has reached init()


def _install_excepthook(rank: int) -> None:
    if getattr(sys.excepthook, "_sprout_rank", None) is not None:
        return
    original = sys.excepthook

    def hook(etype, value, tb):
        text = "".join(traceback.format_exception(etype, value, tb))
        sys.stderr.write("".join(f"[rank {rank}] {line}\n" for line in text.rstrip("\n").split("\n")))
        sys.stderr.write(f"[rank {rank}] uncaught {etype.__name__}: ending the whole job (MPI_Abort)\n")
        sys.stderr.flush()
        sys.stdout.flush()
        chain, e = [], value
        while e is not None and len(chain) < 8:
            chain.append(e)
            e = e.__cause__ or e.__context__
        if any(isinstance(c, CommError) for c in chain):
            time.sleep(0.3)  # every rank raises a collective error: let the others print theirs first
        try:
            _mpi().COMM_WORLD.Abort(1)
        except Exception:  # noqa: BLE001 - MPI already gone: fall back to Python's own report
            original(etype, value, tb)

    hook._sprout_rank = rank
    sys.excepthook = hook


__all__ = ["detect_launch", "init_mpi", "MPIBackend", "BACKEND_NAMES"]
