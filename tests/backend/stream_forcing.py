"""Forcing two executor streams in tests: every GEMM/convolution scheduled however small, and joins that wait for
the worker to take each task (on a loaded machine the caller would otherwise run most tasks itself, and the
concurrent path would go untested). Used by test_streams.py, ``python -m tests.fuzz --streams`` and
``PYTHONPATH=.:tests/backend pytest -p stream_forcing`` (e.g. the whole op table on two streams)."""
from __future__ import annotations

import time

import sprout as ms
from sprout.backend import pool, schedule


def patient_join(t, _real=pool.join):
    deadline = time.monotonic() + 5
    while t.queued and not t.claim.locked() and time.monotonic() < deadline:
        time.sleep(0.0002)
    return _real(t)


def force(every_node: bool = True) -> dict:
    """Two streams from now on (also after ``reset_context``); returns what to restore with ``restore``."""
    saved = {"join": pool.join, "HEAVY": schedule.HEAVY, "OVERLAP": schedule.OVERLAP,
             "default": ms.context._DEFAULTS["inter_op_parallel_num"]}
    pool.join = patient_join
    pool._skip = pool._misses = 0
    if every_node:
        schedule.HEAVY, schedule.OVERLAP = 1, 0.0
    ms.context.set_default(inter_op_parallel_num=2)
    return saved


def restore(saved: dict) -> None:
    pool.join = saved["join"]
    schedule.HEAVY, schedule.OVERLAP = saved["HEAVY"], saved["OVERLAP"]
    ms.context.set_default(inter_op_parallel_num=saved["default"])


def pytest_configure(config):
    force()
