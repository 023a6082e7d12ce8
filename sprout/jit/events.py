"""Public compile hook of the jit: ``compile_listeners`` see every compile with its reason and stage times."""
from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CompileEvent", "compile_listeners", "add_compile_listener", "remove_compile_listener"]

# fn(event: CompileEvent), called after every JitFunction compile, failed ones included (event.error set).
# Compiles check this list once; with no listener they pay nothing extra.
compile_listeners: list = []


@dataclass
class CompileEvent:
    """One jit compile: which function, why, how long each stage took (milliseconds), what it produced."""

    function: str                                 # the function's __qualname__
    where: str                                    # "file.py:line" of its definition
    reason: str                                   # "first call" or the cache-miss reason
    t0_ns: int = 0                                # time.perf_counter_ns() at start and end
    t1_ns: int = 0
    stages: list = field(default_factory=list)    # [(stage, ms)]: ast_convert (first compile only),
    #                                               trace, pass:<name> per pipeline pass, codegen (the rest)
    nodes: int = 0                                # nodes of the optimized graph
    executable: Any = None                        # the Executable (None when the compile failed)
    warnings: list = field(default_factory=list)  # warnings.WarningMessage of the JitWarnings raised
    error: BaseException | None = None            # what the compile raised (it is re-raised after listeners)

    @property
    def total_ms(self) -> float:
        return (self.t1_ns - self.t0_ns) / 1e6


def add_compile_listener(fn) -> None:
    if fn not in compile_listeners:
        compile_listeners.append(fn)


def remove_compile_listener(fn) -> None:
    if fn in compile_listeners:
        compile_listeners.remove(fn)


def observe_compile(jf: Any, compile_fn, args: tuple) -> Any:
    """Run ``compile_fn(*args, stages)`` for jitted ``jf`` and report one CompileEvent to the listeners.
    Warnings raised while compiling are captured (JitWarnings go on the event) and re-issued, so the
    user's filters (and ``pytest.warns``) still see them."""
    from ..core.errors import JitWarning

    rec = jf.stats_record
    reason = "first call" if not jf.entries else (rec.miss_reasons[-1] if rec.miss_reasons else "new input types")
    ev = CompileEvent(jf.fn.__qualname__, jf.where, reason, t0_ns=time.perf_counter_ns())
    caught: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ev.executable = compile_fn(*args, ev.stages)
        ev.nodes = len(ev.executable.graph.nodes)
        return ev.executable
    except BaseException as exc:
        ev.error = exc
        raise
    finally:
        ev.t1_ns = time.perf_counter_ns()
        ev.warnings = [w for w in caught if issubclass(w.category, JitWarning)]
        for fn in tuple(compile_listeners):
            fn(ev)
        for w in caught:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
