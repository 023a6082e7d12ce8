"""Feeds a profiler-style sink from the public hooks: ``sink.record(name, category, t0_ns, t1_ns)`` for every
eager op and compiled-graph call (a ``dispatch`` observer) and every compile (a jit compile listener)."""
from __future__ import annotations

from ..core import dispatch as _d
from ..jit import events as _jit_events

__all__ = ["add_sink", "remove_sink", "active"]


class _SinkObserver(_d.Observer):
    def __init__(self, sink):
        self.sink = sink

    def on_op(self, op, t0_ns: int, t1_ns: int) -> None:
        self.sink.record(op.name, "op", t0_ns, t1_ns)

    def on_graph(self, executable, t0_ns: int, t1_ns: int) -> None:
        self.sink.record(f"Graph[{executable.graph.name}]", "graph", t0_ns, t1_ns)

    def on_compile(self, ev) -> None:
        self.sink.record(f"Compile[{ev.function}]", "compile", ev.t0_ns, ev.t1_ns)


_observers: dict[int, _SinkObserver] = {}  # id(sink) -> its observer


def add_sink(sink) -> None:
    """Start sending every eager op, compiled-graph call and compile to ``sink``."""
    if id(sink) in _observers:
        return
    obs = _observers[id(sink)] = _SinkObserver(sink)
    _d.push_observer(obs)
    _jit_events.add_compile_listener(obs.on_compile)


def remove_sink(sink) -> None:
    obs = _observers.pop(id(sink), None)
    if obs is None:
        return
    _jit_events.remove_compile_listener(obs.on_compile)
    _d.pop_observer(obs)


def active() -> bool:
    return bool(_observers)
