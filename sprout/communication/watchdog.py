"""The collective watchdog (MPI engine): a progress board in an MPI shared-memory window that every rank of a
host writes on entering a collective, and a daemon thread that, when this rank has waited longer than the
``comm_timeout`` context flag (or a peer has exited), names the missing ranks and ends the job."""
from __future__ import annotations

import atexit
import sys
import threading
import time
import zlib

import numpy as np

from .. import context

_SLOTS = 16          # per-group progress slots per rank (hashed by group)
_F_LAST = 0          # fields of the "last entered" record: group id, seq, kind id, state
_IN, _OUT, _EXITED = 1, 2, 3
_WIDTH = 4 + 2 * _SLOTS


_IDS: dict = {}  # group name -> its 31-bit hash (looked up for every collective)


def _gid(name: str) -> int:
    gid = _IDS.get(name)
    if gid is None:
        gid = _IDS[name] = zlib.crc32(name.encode()) & 0x7FFFFFFF
    return gid


class Watchdog:
    def __init__(self, comm, st):
        from .mpi import _mpi
        MPI = _mpi()
        self.st = st
        node = comm.Split_type(MPI.COMM_TYPE_SHARED)
        self.node = node
        self.node_world = node.allgather(comm.Get_rank())   # world rank of each node rank
        nbytes = 8 * _WIDTH * node.Get_size() if node.Get_rank() == 0 else 0
        self.win = MPI.Win.Allocate_shared(nbytes, 8, comm=node)
        buf, _ = self.win.Shared_query(0)
        self.board = np.ndarray((node.Get_size(), _WIDTH), np.int64, buffer=buf)
        if node.Get_rank() == 0:
            self.board[:] = 0
        node.Barrier()
        self.me = node.Get_rank()
        self.kinds: list[str] = []
        self.kind_ids: dict = {}  # collective kind -> the hash of its base name (looked up for every collective)
        self.current = None
        self.abort = MPI.COMM_WORLD.Abort
        atexit.register(self._exiting)
        threading.Thread(target=self._loop, name="sprout-comm-watchdog", daemon=True).start()

    def _kind_id(self, kind: str) -> int:
        kid = self.kind_ids.get(kind)
        if kid is None:
            base = kind.split("(")[0]
            if base not in self.kinds:
                self.kinds.append(base)
            kid = self.kind_ids[kind] = zlib.crc32(base.encode()) & 0x7FFFFFFF
        return kid

    def enter(self, g, kind: str, x) -> None:
        gid = _gid(g.name)
        row = self.board[self.me]
        row[0], row[1], row[2], row[3] = gid, g.seq, self._kind_id(kind), _IN
        slot = 4 + 2 * (gid % _SLOTS)
        row[slot], row[slot + 1] = gid, g.seq
        # what is only needed for a report is kept as it is and formatted then (this runs for every collective)
        self.current = (g, g.seq, kind, None if x is None else (x.dtype, x.shape), time.monotonic())

    def leave(self) -> None:
        self.board[self.me, 3] = _OUT
        self.current = None

    def _exiting(self) -> None:
        try:
            self.board[self.me, 3] = _EXITED
        except Exception:  # noqa: BLE001 - the window may already be gone at interpreter exit
            pass

    def _arrived(self, node_rank: int, gid: int, seq: int) -> bool:
        row = self.board[node_rank]
        slot = 4 + 2 * (gid % _SLOTS)
        return bool(row[slot] == gid and row[slot + 1] >= seq)

    def _last_seen(self, node_rank: int) -> str:
        row = self.board[node_rank]
        if row[1] == 0:
            return "no collective yet"
        kinds = {zlib.crc32(k.encode()) & 0x7FFFFFFF: k for k in self.kinds}
        groups = {_gid(n): n for n in self.st.groups}
        what = f"{kinds.get(int(row[2]), 'a collective')} #{int(row[1])} of group {groups.get(int(row[0]), '?')!r}"
        state = {_IN: "waiting in", _OUT: "last in", _EXITED: "exited after"}.get(int(row[3]), "last in")
        return f"{state} {what}"

    def _loop(self) -> None:
        while True:
            time.sleep(0.1)
            cur = self.current
            if cur is None:
                continue
            g, seq, kind, x, t0 = cur
            data = "" if x is None else f" {x[0].name}{list(x[1])}"
            gid = _gid(g.name)
            waited = time.monotonic() - t0
            missing, exited, remote = [], [], []
            for r in g.ranks:
                if r not in self.node_world:
                    remote.append(r)
                    continue
                nr = self.node_world.index(r)
                if nr == self.me or self._arrived(nr, gid, seq):
                    continue
                missing.append(r)
                if self.board[nr, 3] == _EXITED:
                    exited.append(r)
            limit = context.get_context("comm_timeout")
            if exited or (limit is not None and waited > limit):
                if self.current is not cur:
                    continue
                self._report(g, seq, kind, data, waited, limit, missing, exited, remote)

    def _report(self, g, seq, kind, data, waited, limit, missing, exited, remote) -> None:
        rank = self.st.rank
        seen = "; ".join(f"rank {r}: {self._last_seen(self.node_world.index(r))}" for r in missing)
        if exited:
            head = f"ranks {exited} exited while this rank waits in {kind} #{seq}"
        else:
            head = f"{kind} #{seq} waited {waited:.1f}s (comm_timeout {limit:g}s)"
        msg = (f"[rank {rank}] {head} (group {g.name!r}{',' if data else ''}{data}); ranks not yet in it: "
               f"{missing}" + (f" ({seen})" if seen else ""))
        if remote:
            msg += f"; ranks on other hosts (not visible from here): {remote}"
        sys.stderr.write(f"{msg}\n[rank {rank}] ending the whole job (MPI_Abort)\n")
        sys.stderr.flush()
        time.sleep(0.3)  # let the launcher forward this before the job is killed
        self.abort(3)
