"""Ordered parallel map for pipeline nodes: worker threads or forked worker processes, results in input order."""
from __future__ import annotations

import collections
import concurrent.futures as cf
import itertools
import logging
import multiprocessing
import sys
import threading
import time

import numpy as np

from . import config

logger = logging.getLogger("sprout.dataset")

_worker_fn = None  # the function a worker process applies (set by fork, so closures and lambdas work)
_row = threading.local()
_CHUNK = 4


def row_rng():
    """The random stream of the row a map is processing in this thread (None outside a map)."""
    return getattr(_row, "rng", None)


def with_row_rng(fn, seed: list):
    """``fn`` applied to (n, item) with the random stream of row n (from ``seed`` + [n]) in force: random
    transforms then draw the same values whichever worker runs the row."""
    def call(numbered):
        n, item = numbered
        _row.rng = np.random.default_rng(seed + [n])
        try:
            return fn(item)
        finally:
            _row.rng = None
    return call


def _init_worker(fn, counter):
    global _worker_fn
    _worker_fn = fn
    with counter.get_lock():
        counter.value += 1
        config._state["worker_id"] = counter.value


def _call_in_worker(chunk):
    """Apply the worker's function to a chunk of items: [(True, result) ...], stopping at a failure
    (False, exception), so one round trip carries several rows."""
    out = []
    for item in chunk:
        try:
            out.append((True, _worker_fn(item)))
        except Exception as exc:  # noqa: BLE001 - re-raised in the consumer, in row order
            out.append((False, exc))
            break
    return out


def workers_for(op: str, num_parallel_workers) -> int:
    """The worker count a node uses: its own argument, else ``ds.config.set_num_parallel_workers`` if the user
    set it, else 1 (one thread). ``ds.config.set_debug_mode(True)`` forces 1."""
    if config.get_debug_mode():
        return 1
    if num_parallel_workers is None:
        return config._state["user_workers"] or 1
    return int(num_parallel_workers)


class _Serial:
    def __init__(self, fn):
        self.fn = fn

    def submit(self, item):
        return self.fn(item)


def ordered_map(fn, items, workers: int, processes: bool, op: str):
    """Yield ``fn(item)`` for each item, computed by ``workers`` threads (or processes), in input order.
    At most ``max(prefetch_size, 2 * workers)`` items are in flight. A failing item raises its exception
    when its turn comes; a dead worker process raises RuntimeError instead of hanging."""
    if workers <= 1:
        for item in items:
            yield fn(item)
        return
    if processes:
        method = "fork" if sys.platform.startswith("linux") else "spawn"
        ctx = multiprocessing.get_context(method)
        pool = cf.ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker,
                                      initargs=(fn, ctx.Value("i", 0)))
        chunk = _CHUNK  # rows per round trip: the pipe and pickling cost per task is the processes' overhead
    else:
        pool = cf.ThreadPoolExecutor(workers, thread_name_prefix=f"sprout-{op}")
        chunk = 1
    window = max(config.get_prefetch_size(), 2 * workers * chunk)
    pending = collections.deque()
    source = iter(items)
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) * chunk < window:
                group = list(itertools.islice(source, chunk))
                if not group:
                    exhausted = True
                    break
                pending.append(pool.submit(_call_in_worker, group) if processes else pool.submit(fn, group[0]))
            if not pending:
                return
            result = _result(pending.popleft(), op, workers, processes)
            if not processes:
                yield result
                continue
            for ok, value in result:
                if not ok:
                    raise value
                yield value
    except cf.BrokenExecutor as exc:  # BrokenProcessPool; cf.process is only loaded once a process pool exists
        raise RuntimeError(f"{op}: a worker process died (killed or crashed) while processing a row; run with "
                           "python_multiprocessing=False or num_parallel_workers=1 to see the error") from exc
    finally:
        for fut in pending:
            fut.cancel()
        pool.shutdown(wait=False, cancel_futures=True)


def _result(fut, op, workers, processes):
    interval = config.get_multiprocessing_timeout_interval()
    start = time.monotonic()
    while True:
        try:
            return fut.result(timeout=interval)
        except cf.TimeoutError:
            logger.warning("%s: still waiting for a result from its %d worker %s after %.0f s; a user function may "
                           "be stuck", op, workers, "processes" if processes else "threads", time.monotonic() - start)
