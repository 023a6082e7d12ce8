"""Compile records (stage times, miss reason, JitWarnings, fused groups) and live logging, fed by the
public hooks ``sprout.jit.events.compile_listeners`` and ``sprout.capture.bytecode.break_listeners``."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from .. import context
from ..jit import events as _jit_events

logger = logging.getLogger("sprout")

__all__ = ["CompileEvent", "WarningEvent", "install", "uninstall", "installed", "events", "warnings_seen",
           "clear", "notes"]


@dataclass
class CompileEvent:
    """One jit compile as recorded for the report: which function, why, and ms per stage."""

    function: str
    where: str
    reason: str
    stages: list = field(default_factory=list)    # [(stage, ms)] in order
    total_ms: float = 0.0
    nodes: int = 0
    fused: list = field(default_factory=list)     # fused_groups(graph)
    warnings: list = field(default_factory=list)  # WarningEvent
    start: float = 0.0                             # time.perf_counter() at start
    failed: str = ""

    def as_dict(self) -> dict:
        return {"function": self.function, "where": self.where, "reason": self.reason,
                "total_ms": round(self.total_ms, 3), "stages": {k: round(v, 3) for k, v in self.stages},
                "nodes": self.nodes, "fused_groups": list(self.fused),
                "warnings": [w.as_dict() for w in self.warnings], "failed": self.failed}


@dataclass
class WarningEvent:
    """A JitWarning raised while compiling (usually a side effect graph mode drops)."""

    function: str
    message: str
    filename: str
    lineno: int

    def as_dict(self) -> dict:
        return {"function": self.function, "message": self.message, "file": self.filename, "line": self.lineno}


_events: list[CompileEvent] = []
_notes: list[str] = []


def events() -> list[CompileEvent]:
    return list(_events)


def warnings_seen() -> list[WarningEvent]:
    return [w for e in _events for w in e.warnings]


def notes() -> list[str]:
    return list(_notes)


def clear() -> None:
    _events.clear()


def _log(msg: str, *args) -> None:
    if context.get_context("jit_log"):
        logger.warning(msg, *args)
    else:
        logger.debug(msg, *args)


def _on_compile(jev: _jit_events.CompileEvent) -> None:
    """The compile listener: keep a plain record (not the executable) and log it."""
    from .viz import fused_groups

    ev = CompileEvent(jev.function, jev.where, jev.reason, stages=list(jev.stages), total_ms=jev.total_ms,
                      nodes=jev.nodes, start=jev.t0_ns / 1e9)
    if jev.error is not None:
        exc = jev.error
        ev.failed = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    ev.warnings = [WarningEvent(ev.function, str(w.message), w.filename, w.lineno) for w in jev.warnings]
    if jev.executable is not None:
        ev.fused = fused_groups(jev.executable.graph)
    _events.append(ev)
    for w in ev.warnings:
        _log("sprout: side effect dropped in %s: %s", ev.function, w.message.splitlines()[0])
    if ev.failed:
        _log("sprout: compile of %s (%s) failed: %s", ev.function, ev.where, ev.failed)
        return
    stages = ", ".join(f"{k} {v:.1f}" for k, v in ev.stages)
    _log("sprout: compiled %s (%s) in %.1f ms [%s]: %s; %d nodes", ev.function, ev.where, ev.total_ms, stages,
         ev.reason, ev.nodes)
    for g in ev.fused:
        _log("sprout: fused %s = %s (%s)", g["kernel"], "+".join(g["ops"]), g["where"])


def _on_break(rec) -> None:
    """The graph-break listener: log a break the first time it is seen."""
    if rec.count == 1:
        _log("sprout: graph break at %s:%d: %s", rec.filename, rec.lineno, rec.reason)


def _break_listeners() -> list | None:
    try:
        from ..capture.bytecode import runtime
    except ImportError:
        return None
    return runtime.break_listeners


def installed() -> bool:
    return _on_compile in _jit_events.compile_listeners


def install() -> None:
    """Subscribe the recorder to the compile and graph-break hooks (``import sprout`` does). Idempotent."""
    _jit_events.add_compile_listener(_on_compile)
    _notes.clear()
    listeners = _break_listeners()
    if listeners is None:
        _notes.append("graph breaks: bytecode capture (PIJit) is not available")
    elif _on_break not in listeners:
        listeners.append(_on_break)


def uninstall() -> None:
    """Unsubscribe (compiles are then no longer recorded or logged)."""
    _jit_events.remove_compile_listener(_on_compile)
    listeners = _break_listeners()
    if listeners is not None and _on_break in listeners:
        listeners.remove(_on_break)
