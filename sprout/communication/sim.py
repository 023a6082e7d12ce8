"""The simulated mesh: N ranks as N threads of one process, run one at a time (a baton passed at every
collective, in rank order), so runs are fast and deterministic and a deadlock is detected at once."""
from __future__ import annotations

import threading
import time
from typing import Any
from collections.abc import Callable

import numpy as np

from .. import _seed, context
from ..core import dispatch
from .backend import Backend, reduce_in_order
from .state import CollectiveTimeoutError, CommState, current, set_thread_state

SHARED_CACHE_NOTE = ("(under the simulated mesh all ranks share one process's compiled graphs: a jitted function "
                     "whose graph depends on get_rank() must be created per rank, or run under mpiexec)")


class _RankFailed(BaseException):
    """Raised in a waiting rank when the world was stopped (a deadlock or another rank's failure); a
    BaseException so that user code catching Exception does not swallow it."""


def _save_globals() -> tuple:
    """The per-process state a real rank has to itself: dispatch stacks, the random seed and the context flags
    (``set_context``, ``set_auto_parallel_context``, ``set_algo_parameters``)."""
    return (list(dispatch._tapes), list(dispatch._builders), list(dispatch._observers), _seed._seed, _seed._rng,
            _seed._default, dict(context._flags), dict(context._auto_parallel), set(context._auto_parallel_set),
            dict(context._algo))


def _restore_globals(saved: tuple) -> None:
    tapes, builders, observers, seed, rng, default, flags, auto, auto_set, algo = saved
    dispatch._tapes[:] = tapes
    dispatch._builders[:] = builders
    dispatch._observers[:] = observers
    dispatch._refresh()
    _seed._seed, _seed._rng, _seed._default = seed, rng, default
    for live, value in ((context._flags, flags), (context._auto_parallel, auto), (context._auto_parallel_set, auto_set),
                        (context._algo, algo)):
        live.clear()  # in place: other modules hold these objects
        live.update(value)


class SimWorld:
    """The shared scheduler of one simulated run: who holds the baton, what each rank waits for, the
    rendezvous slots of pending collectives and point-to-point messages."""

    def __init__(self, size: int, timeout: float | None):
        self.size = size
        self.timeout = timeout
        self.cv = threading.Condition()
        self.turn = 0
        self.status: list = ["ready"] * size   # ready | ("blocked", what, key) | "done" | ("failed", exc)
        self.slots: dict = {}
        self.failure: BaseException | None = None
        self.saved: list = [None] * size
        self.last_switch = time.monotonic()
        self.start_state: tuple = ()

    # ---- baton ---------------------------------------------------------------------------------------
    def _runnable(self, r: int) -> bool:
        return self.status[r] == "ready"

    def pass_baton(self, me: int) -> None:
        """Give the turn to the next runnable rank after ``me`` (``me`` itself last); none runnable while some
        rank still waits is a deadlock, reported to every waiting rank."""
        for step in range(1, self.size + 1):
            r = (me + step) % self.size
            if self._runnable(r):
                self.turn = r
                self.last_switch = time.monotonic()
                self.cv.notify_all()
                return
        self.turn = -1
        if any(isinstance(s, tuple) and s[0] == "blocked" for s in self.status) and self.failure is None:
            self.failure = CollectiveTimeoutError(self.describe_deadlock())
        self.cv.notify_all()

    def wait_turn(self, me: int) -> None:
        """Block until ``me`` holds the baton (or the world failed); restores ``me``'s per-process globals."""
        limit = self.timeout
        while self.turn != me and self.failure is None:
            self.cv.wait(0.5 if limit is None else min(0.5, limit))
            if (limit is not None and self.turn != me and self.failure is None and self.turn >= 0
                    and time.monotonic() - self.last_switch > limit):
                holder = self.turn
                self.failure = CollectiveTimeoutError(
                    f"simulated rank {holder} ran for more than the collective timeout ({limit:g} s) without "
                    f"reaching a collective; waiting: {self._waiting_text()}")
                self.cv.notify_all()
        if self.failure is not None and self.turn != me:
            raise _RankFailed() from None
        _restore_globals(self.saved[me])

    def _waiting_text(self) -> str:
        parts = []
        for r, s in enumerate(self.status):
            if isinstance(s, tuple) and s[0] == "blocked":
                parts.append(f"rank {r} in {s[1]}")
        return ", ".join(parts) or "none"

    def _state_of(self, r: int) -> str:
        s = self.status[r]
        if s == "done":
            return "finished"
        if isinstance(s, tuple) and s[0] == "failed":
            return f"failed ({type(s[1]).__name__}: {s[1]})"
        if isinstance(s, tuple):
            return f"waiting in {s[1]}"
        return "running"

    def describe_deadlock(self) -> str:
        lines = []
        for r, s in enumerate(self.status):
            if not (isinstance(s, tuple) and s[0] == "blocked"):
                continue
            _, what, key = s
            slot = self.slots.get(key)
            members = slot["members"] if slot else ()
            missing = [m for m in members if m not in slot["items"]] if slot else []
            seen = "; ".join(f"rank {m} {self._state_of(m)}" for m in missing)
            lines.append(f"rank {r} waits in {what}; ranks not yet in it: {missing} ({seen})")
        return "deadlock in the simulated mesh: " + " | ".join(lines) + " " + SHARED_CACHE_NOTE

    # ---- rendezvous ------------------------------------------------------------------------------------
    def exchange(self, me: int, key: tuple, members: tuple, what: str, payload: Any) -> list:
        """Deposit ``payload`` in the slot ``key`` shared by ``members`` (world ranks) and return every member's
        payload in ``members`` order once all have arrived."""
        with self.cv:
            self.saved[me] = _save_globals()
            slot = self.slots.get(key)
            if slot is None:
                slot = self.slots[key] = {"items": {}, "members": members, "taken": 0}
            slot["items"][me] = payload
            if len(slot["items"]) == len(members):
                self._wake(key, members)
                self.status[me] = "ready"
            else:
                self.status[me] = ("blocked", what, key)
            self.pass_baton(me)
            self.wait_turn(me)
            slot["taken"] += 1
            if slot["taken"] == len(members):
                del self.slots[key]
            return [slot["items"][m] for m in members]

    def _wake(self, key: tuple, members: tuple) -> None:
        for m in members:
            s = self.status[m]
            if isinstance(s, tuple) and s[0] == "blocked" and s[2] == key:
                self.status[m] = "ready"

    def post(self, me: int, key: tuple, members: tuple, payload: Any) -> None:
        """Deposit ``payload`` without waiting (a buffered send); the other member completes the slot."""
        with self.cv:
            slot = self.slots.get(key)
            if slot is None:
                slot = self.slots[key] = {"items": {}, "members": members, "taken": 0}
            slot["items"][me] = payload
            slot["taken"] += 1  # the sender never comes back for it
            if len(slot["items"]) == len(members):
                self._wake(key, members)

    # ---- running ranks ---------------------------------------------------------------------------------
    def run_rank(self, me: int, state: CommState, fn: Callable, args: tuple, results: list) -> None:
        set_thread_state(state)
        with self.cv:
            fresh = (None, np.random.default_rng(), _seed.GenState(_seed.fresh_seed()))
            self.saved[me] = self.start_state[:3] + fresh + self.start_state[6:]
            try:
                self.wait_turn(me)
            except _RankFailed:
                self.status[me] = "done"
                return
        try:
            results[me] = ("ok", fn(*args))
            outcome = "done"
        except _RankFailed:
            outcome = "done"
            results[me] = ("stopped", None)
        except BaseException as exc:  # noqa: BLE001 - reported by simulate() with the rank
            results[me] = ("error", exc)
            outcome = ("failed", exc)
        with self.cv:
            self.status[me] = outcome
            if self.turn == me or self.turn == -1:
                self.pass_baton(me)
            self.cv.notify_all()


class SimBackend(Backend):
    """One simulated rank's view of one group: collectives are rendezvous in the shared SimWorld."""

    kind = "sim"

    def __init__(self, world: SimWorld, name: str, world_ranks: tuple, me: int):
        super().__init__(world_ranks.index(me), len(world_ranks), world_ranks)
        self.world, self.name, self.me = world, name, me
        self.calls = 0
        self.p2p: dict = {}

    def _all(self, what: str, payload: Any) -> list:
        key = ("coll", self.name, self.world_ranks, self.calls)
        self.calls += 1
        return self.world.exchange(self.me, key, self.world_ranks, what, payload)

    def allreduce(self, x, op):
        return reduce_in_order(self._all("AllReduce", x), op)

    def allgather(self, x):
        return np.concatenate(self._all("AllGather", x), axis=0)

    def reduce_scatter(self, x, op):
        total = reduce_in_order(self._all("ReduceScatter", x), op)
        m = total.shape[0] // self.size
        return np.array(total[self.rank * m:(self.rank + 1) * m], copy=True)

    def broadcast(self, x, root):
        return np.array(self._all("Broadcast", x)[root], copy=True)

    def alltoall(self, chunks, recv_shapes=None):
        every = self._all("AlltoAll", list(chunks))
        out = [np.array(every[j][self.rank], copy=True) for j in range(self.size)]
        for j, (got, shape) in enumerate(zip(out, recv_shapes or [c.shape for c in chunks])):
            if tuple(got.shape) != tuple(shape):
                raise ValueError(f"AlltoAll: rank {self.world_ranks[j]} sent {got.dtype.name}{list(got.shape)} to rank "
                                 f"{self.me}, which expected {list(shape)}")
        return out

    def reduce(self, x, op, root):
        every = self._all("Reduce", x)
        return reduce_in_order(every, op) if self.rank == root else None

    def gather(self, x, root):
        every = self._all("Gather", x)
        return [np.array(a, copy=True) for a in every] if self.rank == root else None

    def scatter(self, chunks, root, shape, dtype):
        every = self._all("Scatter", chunks)
        return np.array(every[root][self.rank], copy=True)

    def barrier(self):
        self._all("Barrier", None)

    def _p2p_key(self, src: int, dst: int, tag: int) -> tuple:
        k = (src, dst, tag)
        n = self.p2p.get(k, 0)
        self.p2p[k] = n + 1
        return ("p2p", self.name, src, dst, tag, n), (self.world_ranks[src], self.world_ranks[dst])

    def _p2p(self, src: int, dst: int, tag: int, what: str, payload: Any) -> list:
        key, pair = self._p2p_key(src, dst, tag)
        return self.world.exchange(self.me, key, pair, what, payload)

    def send(self, x, dest, tag):
        self._p2p(self.rank, dest, tag, f"Send(to rank {dest}, tag {tag})", np.array(x, copy=True))

    def recv(self, shape, dtype, src, tag, what):
        got = self._p2p(src, self.rank, tag, f"{what}(from rank {src}, tag {tag})", None)[0]
        check_received(got, shape, dtype, src, what)
        return got

    def isend(self, x, dest, tag):
        # buffered: the message waits in its slot for the receive; the sender goes on at once
        key, pair = self._p2p_key(self.rank, dest, tag)
        self.world.post(self.me, key, pair, np.array(x, copy=True))
        return lambda: None

    def irecv(self, shape, dtype, src, tag, what):
        return lambda: self.recv(shape, dtype, src, tag, what)

    def signatures(self, sig):
        return np.stack(self._all("signature check", sig))

    def allgather_object(self, obj):
        return list(self._all("allgather_object", obj))

    def broadcast_object(self, obj, root):
        return self._all("broadcast_object", obj)[root]

    def subgroup(self, name, world_ranks):
        return SimBackend(self.world, name, tuple(world_ranks), self.me)

    def local_rank_size(self):
        return self.rank, self.size  # one simulated host


def check_received(got: np.ndarray, shape: tuple, dtype, src: int, what: str) -> None:
    if tuple(got.shape) != tuple(shape) or got.dtype != np.dtype(dtype):
        raise ValueError(f"{what}: expected {np.dtype(dtype).name}{list(shape)} from rank {src}, but it sent "
                         f"{got.dtype.name}{list(got.shape)}")


def simulate(fn: Callable, world_size: int, *args, timeout: float | None = None) -> list:
    """Run ``fn(*args)`` as ``world_size`` ranks of a simulated mesh (threads of this process, one running at a
    time) and return each rank's result in rank order. Inside, ``init()`` sets up the mesh as the world (as a
    launcher's environment would) and every collective, eager or compiled, goes through it. A rank that raises
    stops the run: the error is re-raised here naming the rank (the others stop at their next collective).
    ``timeout`` (default: the ``comm_timeout`` context flag) bounds how long a rank may run without reaching a
    collective while others wait. Results are bitwise equal to a real ``mpiexec`` run of the same program."""
    if not isinstance(world_size, int) or isinstance(world_size, bool) or world_size < 1:
        raise ValueError(f"simulate: world_size must be a positive int, got {world_size!r}")
    if getattr(current(), "extra", {}).get("sim") is not None:
        raise RuntimeError("simulate: cannot start a simulated mesh inside a simulated rank")
    limit = context.get_context("comm_timeout") if timeout is None else timeout
    world = SimWorld(world_size, limit)
    results: list = [None] * world_size
    outer = _save_globals()
    world.start_state = ([], [], outer[2]) + outer[3:]  # each rank starts with the caller's context, no tapes
    threads = []
    for r in range(world_size):
        env = {"RANK_ID": str(r), "RANK_SIZE": str(world_size), "LOCAL_RANK": str(r),
               "LOCAL_RANK_SIZE": str(world_size), "DEVICE_ID": str(r), "MS_WORKER_NUM": str(world_size)}
        state = CommState(env=env, rank=r, size=world_size, extra={"sim": world})
        t = threading.Thread(target=world.run_rank, args=(r, state, fn, args, results), name=f"sim-rank-{r}",
                             daemon=True)
        threads.append(t)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        _restore_globals(outer)
    errors = [(r, res[1]) for r, res in enumerate(results) if res is not None and res[0] == "error"]
    primary = [(r, e) for r, e in errors if not isinstance(e, CollectiveTimeoutError)] or errors
    if primary:
        r, exc = primary[0]
        exc.add_note(f"(raised on simulated rank {r} of {world_size})")
        raise exc
    if world.failure is not None:
        raise world.failure
    return [res[1] for res in results]
