"""Compile events (time per stage, miss reason, JitWarnings, fused groups, graph breaks) and live logging."""
from __future__ import annotations

import logging
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

from .. import context

logger = logging.getLogger("sprout")

__all__ = ["CompileEvent", "WarningEvent", "install", "uninstall", "installed", "events", "warnings_seen",
           "clear", "add_listener", "remove_listener", "notes"]


@dataclass
class CompileEvent:
    """One jit compile: which function, why, and how long each stage took (milliseconds)."""

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
_listeners: list = []
_notes: list[str] = []
_saved: dict[str, Any] = {}
_current: list[CompileEvent] = []  # the compile in progress (nested compiles push)


def events() -> list[CompileEvent]:
    return list(_events)


def warnings_seen() -> list[WarningEvent]:
    return [w for e in _events for w in e.warnings]


def notes() -> list[str]:
    return list(_notes)


def clear() -> None:
    _events.clear()


def add_listener(fn) -> None:
    """``fn(event)`` is called after every compile (the profiler uses it)."""
    if fn not in _listeners:
        _listeners.append(fn)


def remove_listener(fn) -> None:
    if fn in _listeners:
        _listeners.remove(fn)


def _log(msg: str, *args: Any) -> None:
    if context.get_context("jit_log"):
        logger.warning(msg, *args)
    else:
        logger.debug(msg, *args)


def _stage(name: str, ms: float) -> None:
    if _current:
        _current[-1].stages.append((name, ms))


# ---- wrappers (installed on the jit's module / class; see docs/debugging.md for the proposed hook) ------
def _timed_trace(*args, **kwargs):
    t0 = time.perf_counter()
    try:
        return _saved["trace"](*args, **kwargs)
    finally:
        _stage("trace", (time.perf_counter() - t0) * 1e3)


def _timed_pipeline(graph, *args, **kwargs):
    from ..passes import pipeline

    timings = getattr(pipeline, "LAST_TIMINGS", None)
    if isinstance(timings, dict):  # the pipeline times its own passes
        try:
            return _saved["run_pipeline"](graph, *args, **kwargs)
        finally:
            for name, sec in timings.items():
                _stage(f"pass:{name}", sec * 1e3)
    t0 = time.perf_counter()
    try:
        return _saved["run_pipeline"](graph, *args, **kwargs)
    finally:
        _stage("passes", (time.perf_counter() - t0) * 1e3)


def _compile(self, instance, st, leaves, args, kwargs):
    from .viz import fused_groups

    rec = self.stats_record
    if not self.entries:
        reason = "first call"
    else:
        reason = rec.miss_reasons[-1] if rec.miss_reasons else "new input types"
    ev = CompileEvent(self.fn.__qualname__, self.where, reason, start=time.perf_counter())
    _current.append(ev)
    caught: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if getattr(self, "_target", None) is None and hasattr(self, "target"):
                t0 = time.perf_counter()
                self.target()
                ev.stages.append(("ast_convert", (time.perf_counter() - t0) * 1e3))
            before = sum(ms for _, ms in ev.stages)
            t0 = time.perf_counter()
            ex = _saved["compile"](self, instance, st, leaves, args, kwargs)
            rest = (time.perf_counter() - t0) * 1e3 - (sum(ms for _, ms in ev.stages) - before)
            ev.stages.append(("codegen", max(rest, 0.0)))
    except BaseException as exc:
        ev.failed = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        raise
    finally:
        _current.pop()
        ev.total_ms = (time.perf_counter() - ev.start) * 1e3
        _finish(ev, caught)
    graph = ex.graph
    ev.nodes = len(graph.nodes)
    ev.fused = fused_groups(graph)
    stages = ", ".join(f"{k} {v:.1f}" for k, v in ev.stages)
    _log("sprout: compiled %s (%s) in %.1f ms [%s]: %s; %d nodes", ev.function, ev.where, ev.total_ms, stages,
         ev.reason, ev.nodes)
    for g in ev.fused:
        _log("sprout: fused %s = %s (%s)", g["kernel"], "+".join(g["ops"]), g["where"])
    for fn in list(_listeners):
        fn(ev)
    return ex


def _finish(ev: CompileEvent, caught: list) -> None:
    from ..capture.errors import JitWarning

    _events.append(ev)
    for w in caught:  # re-issue so the user's filters (and pytest.warns) still see them
        if issubclass(w.category, JitWarning):
            ev.warnings.append(WarningEvent(ev.function, str(w.message), w.filename, w.lineno))
            _log("sprout: side effect dropped in %s: %s", ev.function, str(w.message).splitlines()[0])
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
    if ev.failed:
        _log("sprout: compile of %s (%s) failed: %s", ev.function, ev.where, ev.failed)


def _record_break(self, b) -> None:
    n = len(self.report.breaks)
    _saved["record_break"](self, b)
    if len(self.report.breaks) != n:
        rec = list(self.report.breaks.values())[-1]
        _log("sprout: graph break at %s:%d: %s", rec.filename, rec.lineno, rec.reason)


def installed() -> bool:
    return bool(_saved)


def install() -> None:
    """Wrap the jit's compile (timing each stage) and PIJit's break recorder. Idempotent."""
    if _saved:
        return
    _notes.clear()
    try:
        from ..jit import api
    except ImportError as exc:  # pragma: no cover - the jit is part of the package
        _notes.append(f"jit not importable: {exc}")
        return
    if not all(hasattr(api, n) for n in ("trace", "run_pipeline")) or not hasattr(api.JitFunction, "compile"):
        _notes.append("stage times unavailable: sprout.jit.api no longer has trace/run_pipeline/JitFunction.compile")
        return
    _saved.update(compile=api.JitFunction.compile, trace=api.trace, run_pipeline=api.run_pipeline)
    api.JitFunction.compile = _compile
    api.trace = _timed_trace
    api.run_pipeline = _timed_pipeline
    try:
        from ..capture.bytecode.runtime import CodeRuntime
    except ImportError:
        _notes.append("graph breaks: bytecode capture (PIJit) is not available")
    else:
        _saved["record_break"] = CodeRuntime._record_break
        CodeRuntime._record_break = _record_break


def uninstall() -> None:
    """Undo ``install`` (tests use it so other test modules run the jit unwrapped)."""
    if not _saved:
        return
    from ..jit import api

    api.JitFunction.compile = _saved["compile"]
    api.trace = _saved["trace"]
    api.run_pipeline = _saved["run_pipeline"]
    if "record_break" in _saved:
        from ..capture.bytecode.runtime import CodeRuntime

        CodeRuntime._record_break = _saved["record_break"]
    _saved.clear()
