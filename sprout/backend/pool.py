"""The executor's second stream: one persistent worker thread, a lock hand-off per task, help-first joins, and
the BLAS thread count coordinated with it (docs/performance.md)."""
from __future__ import annotations

import _thread
import collections
import functools
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import context


class Task:
    """One call handed to the worker. Whoever takes ``claim`` first runs it: the worker when it wakes, or the
    joining thread itself when the worker has not started it (a busy machine that does not schedule the
    worker then costs one lock, not a wait)."""

    __slots__ = ("fn", "args", "claim", "done", "result", "error", "queued", "off_cpu")

    def __init__(self, fn: Callable, args: tuple):
        self.fn, self.args = fn, args
        self.claim = _thread.allocate_lock()
        self.done = _thread.allocate_lock()
        self.done.acquire()
        self.result: Any = None
        self.error: BaseException | None = None
        self.queued = False
        self.off_cpu = 0.0  # seconds of the worker's run of it spent not running (descheduled, or waiting for the GIL)


_queue: collections.deque = collections.deque()
_running = False  # the worker is running a task
_wake = _thread.allocate_lock()   # released = work may be queued; the worker sleeps acquiring it
_wake.acquire()
_start_lock = threading.Lock()
_worker: threading.Thread | None = None
STATS = {"submitted": 0, "run_by_worker": 0, "run_by_caller": 0, "run_inline": 0, "stalled": 0}
# When the worker lost the race for MISSES tasks in a row (the machine did not schedule it before the caller
# finished its own half: no free core), the next BACKOFF tasks are not queued at all: they run inline at their
# join, for the price of one object, and then the worker is tried again. A task the worker did take counts as lost
# too when its join waited more than STALL seconds and the worker spent more than half of that wait off the CPU
# (wall minus thread CPU time of its run): the worker was descheduled mid-task, so the caller waited for a core, not
# for work (under load 11 such waits made W4's two-stream step 8x slower than one stream, docs/performance.md).
MISSES, BACKOFF = 3, 256
STALL = 3e-4
_misses = 0
_skip = 0


def _loop() -> None:
    global _running
    pop, queue, wall, cpu = _queue.popleft, _queue, time.perf_counter, time.thread_time
    while True:
        _wake.acquire()
        while queue:
            try:
                t = pop()
            except IndexError:
                break
            if not t.claim.acquire(False):
                continue  # its caller already ran it
            STATS["run_by_worker"] += 1
            _running = True
            w, c = wall(), cpu()
            try:
                t.result = t.fn(*t.args)
            except BaseException as exc:  # noqa: BLE001 - handed to the joining thread, which raises it
                t.error = exc
            t.off_cpu = (wall() - w) - (cpu() - c)
            _running = False
            t.done.release()


def _ensure_worker() -> None:
    global _worker
    with _start_lock:
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_loop, name="sprout-stream1", daemon=True)
            _worker.start()


def _after_fork_in_child() -> None:
    """A forked child (a dataset worker process) has no worker thread: start afresh, with an empty queue."""
    global _worker, _wake, _misses, _skip, _start_lock, _running
    _queue.clear()
    _worker, _misses, _skip, _running = None, 0, 0, False
    _start_lock = threading.Lock()
    _wake = _thread.allocate_lock()
    _wake.acquire()


os.register_at_fork(after_in_child=_after_fork_in_child)


def submit(fn: Callable, *args: Any) -> Task:
    """Queue ``fn(*args)`` for the worker thread; ``join`` the task before using what it computes or writes."""
    global _skip
    t = Task(fn, args)
    if _skip:
        _skip -= 1
        STATS["run_inline"] += 1
        return t  # never queued: its join runs it
    if _worker is None:
        _ensure_worker()
    STATS["submitted"] += 1
    t.queued = True
    _queue.append(t)
    try:
        _wake.release()
    except RuntimeError:  # already released: the worker has a wake-up pending and will see this task
        pass
    return t


def join(t: Task) -> Any:
    """``t``'s result (its exception raised here); runs it on this thread if the worker has not started it."""
    global _misses, _skip
    if t.claim.acquire(False):
        if t.queued:  # the worker did not get to it
            STATS["run_by_caller"] += 1
            _misses += 1
            if _misses >= MISSES:
                _misses, _skip = 0, BACKOFF
        return t.fn(*t.args)
    w = time.perf_counter()
    t.done.acquire()
    waited = time.perf_counter() - w
    if waited > STALL and t.off_cpu > waited / 2:  # the worker had the task but no core: a lost race too
        STATS["stalled"] += 1
        _misses += 1
        if _misses >= MISSES:
            _misses, _skip = 0, BACKOFF
    else:
        _misses = 0
    if t.error is not None:
        raise t.error
    return t.result


def both(lo: Callable, hi: Callable, *args: Any) -> tuple:
    """``(lo(*args), hi(*args))`` with ``hi`` on the worker: the API a kernel calls to split its own work (the two
    halves of a batch) over the two streams. Callers decide by size; this does not look at the flag."""
    global _skip
    if _skip:
        _skip -= 1
        return lo(*args), hi(*args)
    t = submit(hi, *args)
    try:
        a = lo(*args)
    finally:
        b = join(t)
    return a, b


def matmul_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for 2-D operands of one float dtype in two halves, one per stream: the rows of the result when
    ``a`` is the larger operand, else its columns (each call packs the other operand again: the smaller one is
    packed twice). Each element is the same dot product over K as in one call: bitwise equal results. While the
    worker is backed off (no free core), one call."""
    global _skip
    if _skip:
        _skip -= 1
        return a @ b
    out = np.empty((a.shape[0], b.shape[1]), a.dtype)
    if a.shape[0] >= b.shape[1]:
        h = a.shape[0] // 2
        t = submit(np.matmul, a[h:], b, out[h:])
        try:
            np.matmul(a[:h], b, out=out[:h])
        finally:
            join(t)
    else:
        h = b.shape[1] // 2
        t = submit(np.matmul, a, b[:, h:], out[:, h:])
        try:
            np.matmul(a, b[:, :h], out=out[:, :h])
        finally:
            join(t)
    return out


# ---- the flag and BLAS threads --------------------------------------------------------------------------------
_saved_blas: int | None = None


def streams() -> int:
    """Streams compiled graphs are scheduled on: 2 when ``inter_op_parallel_num`` >= 2 and two cores are there."""
    n = context.get_context("inter_op_parallel_num") or 1
    return 2 if n >= 2 and _cores() >= 2 else 1


@functools.cache
def _cores() -> int:
    from ..communication.blas import cores

    return cores()


def coordinate_blas() -> None:
    """Two streams: each BLAS call gets ``cores // 2`` threads (the worker and OpenBLAS's own threads would
    otherwise oversubscribe the cores; on 2 cores a 2-thread OpenBLAS beside a second stream spins); back to one
    stream: the count it had before."""
    global _saved_blas
    from ..communication.blas import _openblas

    fns = _openblas()
    if fns is None:
        return
    if streams() == 2:
        want = max(1, _cores() // 2)
        have = int(fns[1]())
        if have > want:
            if _saved_blas is None:
                _saved_blas = have
            fns[0](want)
    elif _saved_blas is not None:
        fns[0](_saved_blas)
        _saved_blas = None


def _on_change(key: str) -> None:
    if key in ("inter_op_parallel_num", ""):  # "": reset_context
        coordinate_blas()


context.on_change(_on_change)


def _kernel_may_split() -> bool:
    """Kernels split their batch (ops/_parallel.py) on two streams while the worker is idle: not on the worker
    itself, nor beside a task of the schedule (a half queued behind it would run on the caller and count as a race
    the worker lost)."""
    return streams() == 2 and not _queue and not _running and \
        (_worker is None or _thread.get_ident() != _worker.ident)


from ..ops import _parallel  # noqa: E402

_parallel.install(_kernel_may_split, both)
