"""The backend protocol every engine implements (world of one, simulated mesh, MPI) and the shared
reduction arithmetic: every backend reduces in group-rank order, so all of them give bitwise equal results."""
from __future__ import annotations

from typing import Any

import numpy as np

REDUCE_OPS = ("sum", "max", "min", "prod", "avg")
_UFUNCS = {"sum": np.add, "avg": np.add, "max": np.maximum, "min": np.minimum, "prod": np.multiply}


def reduce_in_order(arrays: list, op: str) -> np.ndarray:
    """``((a0 op a1) op a2) ...`` in group-rank order, into a fresh array (``avg``: the sum divided by n)."""
    out = np.array(arrays[0], copy=True)
    ufunc = _UFUNCS[op]
    for a in arrays[1:]:
        ufunc(out, a, out=out)
    return finish_avg(out, len(arrays)) if op == "avg" else out


def finish_avg(total: np.ndarray, n: int) -> np.ndarray:
    np.divide(total, n, out=total, casting="unsafe")
    return total


def split_rows(n_rows: int, parts: int) -> list[tuple[int, int]]:
    """(start, stop) of ``parts`` near-equal slices of ``n_rows`` (the first ones one longer)."""
    base, extra = divmod(n_rows, parts)
    out, start = [], 0
    for i in range(parts):
        stop = start + base + (1 if i < extra else 0)
        out.append((start, stop))
        start = stop
    return out


class Backend:
    """One rank's view of one communication group. Arrays are NumPy, C-contiguous; ``rank``/``size`` are the
    group rank and size; ``world_ranks[i]`` is the world rank of group rank i. Every method is collective over
    the group (called by every member in the same order) except ``send``/``recv``."""

    kind = "abstract"

    def __init__(self, rank: int, size: int, world_ranks: tuple):
        self.rank, self.size, self.world_ranks = rank, size, tuple(world_ranks)

    # ---- data collectives (the input array is owned by the callee: it may be overwritten) -----------------
    def allreduce(self, x: np.ndarray, op: str) -> np.ndarray:
        raise NotImplementedError

    def allgather(self, x: np.ndarray) -> np.ndarray:
        """Every rank's ``x`` concatenated along axis 0 in group-rank order."""
        raise NotImplementedError

    def reduce_scatter(self, x: np.ndarray, op: str) -> np.ndarray:
        """Reduce, then keep this rank's block of ``x.shape[0] // size`` rows."""
        raise NotImplementedError

    def broadcast(self, x: np.ndarray, root: int) -> np.ndarray:
        raise NotImplementedError

    def alltoall(self, chunks: list, recv_shapes: list | None = None) -> list:
        """``chunks[j]`` goes to group rank j; returns the chunk received from each rank, in rank order, of shape
        ``recv_shapes[i]`` (default: the shape of ``chunks[i]``, the even case) and the chunks' dtype."""
        raise NotImplementedError

    def reduce(self, x: np.ndarray, op: str, root: int) -> np.ndarray | None:
        """The reduction on ``root``; None elsewhere."""
        raise NotImplementedError

    def gather(self, x: np.ndarray, root: int) -> list | None:
        raise NotImplementedError

    def scatter(self, chunks: list | None, root: int, shape: tuple, dtype) -> np.ndarray:
        raise NotImplementedError

    def barrier(self) -> None:
        raise NotImplementedError

    # ---- point to point (synchronous: a send completes when the matching receive has started) -------------
    def send(self, x: np.ndarray, dest: int, tag: int) -> None:
        raise NotImplementedError

    def recv(self, shape: tuple, dtype, src: int, tag: int, what: str) -> np.ndarray:
        raise NotImplementedError

    def isend(self, x: np.ndarray, dest: int, tag: int):
        """Start sending ``x``; returns ``wait()`` (a callable) that completes it."""
        raise NotImplementedError

    def irecv(self, shape: tuple, dtype, src: int, tag: int, what: str):
        """Start a receive; returns ``wait()`` (a callable) that completes it and returns the array."""
        raise NotImplementedError

    # ---- small control messages ------------------------------------------------------------------------
    def signatures(self, sig: np.ndarray) -> np.ndarray:
        """All ranks' signature rows (int64), stacked in group-rank order."""
        raise NotImplementedError

    def allgather_object(self, obj: Any) -> list:
        raise NotImplementedError

    def broadcast_object(self, obj: Any, root: int) -> Any:
        raise NotImplementedError

    # ---- groups ----------------------------------------------------------------------------------------
    def subgroup(self, name: str, world_ranks: tuple) -> Backend | None:
        """The backend of a new group over ``world_ranks`` (sorted) for a member; called by the members only."""
        raise NotImplementedError

    def local_rank_size(self) -> tuple[int, int]:
        """(rank, size) among the group's members on this host."""
        raise NotImplementedError

    def comm_name(self, name: str) -> str:
        return f"{self.kind}:{name}"


class SingleBackend(Backend):
    """A world of one: every collective is the operation over one rank."""

    kind = "single"

    def __init__(self):
        super().__init__(0, 1, (0,))

    def allreduce(self, x, op):
        return x  # sum/max/min/prod/avg over one rank is the value itself

    def allgather(self, x):
        return x

    def reduce_scatter(self, x, op):
        return x

    def broadcast(self, x, root):
        return x

    def alltoall(self, chunks, recv_shapes=None):
        return list(chunks)

    def reduce(self, x, op, root):
        return x

    def gather(self, x, root):
        return [x]

    def scatter(self, chunks, root, shape, dtype):
        return np.array(chunks[0], copy=True)

    def barrier(self):
        return None

    def send(self, x, dest, tag):
        raise RuntimeError("Send: a world of one has no other rank to send to")

    def recv(self, shape, dtype, src, tag, what):
        raise RuntimeError(f"{what}: a world of one has no other rank to receive from")

    def isend(self, x, dest, tag):
        raise RuntimeError("isend: a world of one has no other rank to send to")

    def irecv(self, shape, dtype, src, tag, what):
        raise RuntimeError(f"{what}: a world of one has no other rank to receive from")

    def signatures(self, sig):
        return sig[None, :]

    def allgather_object(self, obj):
        return [obj]

    def broadcast_object(self, obj, root):
        return obj

    def subgroup(self, name, world_ranks):
        return SingleBackend()

    def local_rank_size(self):
        return 0, 1
