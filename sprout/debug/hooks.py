"""Timing hooks for the profiler: eager ops via ``dispatch.run_eager`` and compiled-graph calls via
``Executable.run`` -- installed only while a profiler runs, so the eager fast path is untouched otherwise."""
from __future__ import annotations

import time
from typing import Any

from ..core import dispatch as _d

__all__ = ["add_sink", "remove_sink", "active"]

_sinks: list = []          # objects with .record(name, category, t0_ns, t1_ns)
_saved: dict[str, Any] = {}
_clock = time.perf_counter_ns


def _emit(name: str, cat: str, t0: int, t1: int) -> None:
    for s in _sinks:
        s.record(name, cat, t0, t1)


def _run_eager(op, args, attrs):
    t0 = _clock()
    try:
        return _saved["run_eager"](op, args, attrs)
    finally:
        _emit(op.name, "op", t0, _clock())


def _refresh() -> None:
    # while profiling every op takes dispatch's slow path, which calls run_eager (builders still win)
    _d._slow = bool(_d._tapes or _d._builders or _sinks)


def _graph_name(ex) -> str:
    return f"Graph[{ex.graph.name}]"


def _ex_run(self, leaves):
    t0 = _clock()
    try:
        return _saved["ex_run"](self, leaves)
    finally:
        _emit(_graph_name(self), "graph", t0, _clock())


def _ex_run_diff(self, leaves):
    t0 = _clock()
    try:
        return _saved["ex_run_diff"](self, leaves)
    finally:
        _emit(_graph_name(self), "graph", t0, _clock())


def _install() -> None:
    from ..jit.executable import Executable

    _saved.update(run_eager=_d.run_eager, refresh=_d._refresh, ex_run=Executable.run,
                  ex_run_diff=Executable.run_differentiable)
    _d.run_eager = _run_eager
    _d._refresh = _refresh
    Executable.run = _ex_run
    Executable.run_differentiable = _ex_run_diff
    _refresh()


def _uninstall() -> None:
    from ..jit.executable import Executable

    _d.run_eager = _saved["run_eager"]
    _d._refresh = _saved["refresh"]
    Executable.run = _saved["ex_run"]
    Executable.run_differentiable = _saved["ex_run_diff"]
    _saved.clear()
    _d._refresh()


def add_sink(sink) -> None:
    """Start sending (name, category, t0_ns, t1_ns) of every eager op and compiled-graph call to ``sink``."""
    if sink in _sinks:
        return
    if not _sinks:
        _install()
    _sinks.append(sink)
    _refresh()


def remove_sink(sink) -> None:
    if sink not in _sinks:
        return
    _sinks.remove(sink)
    if not _sinks:
        _uninstall()


def active() -> bool:
    return bool(_sinks)
