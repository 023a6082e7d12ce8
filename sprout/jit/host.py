"""JIT Fallback (``jit_syntax_level=LAX``): a cache entry whose AST capture was refused runs as host
segments -- compiled graph segments linked by Python -- through PIJit's segment/resume machinery."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.errors import JitAttributeError, JitSyntaxError
from ..ir.graph import Graph


@dataclass
class HostRecord:
    """Why a jitted function runs with host segments: the refused construct's file:line and the reason."""

    function: str
    where: str        # "file.py:line" of the function's definition
    reason: str       # first line of the refusal
    filename: str     # where the refused construct is
    lineno: int
    source: str
    count: int = 0    # cache entries that fell back for this reason

    def as_dict(self) -> dict:
        return {"function": self.function, "where": self.where, "reason": self.reason, "file": self.filename,
                "line": self.lineno, "source": self.source.strip(), "count": self.count}

    def __str__(self) -> str:
        return f"{self.function} ({self.where}) runs with host segments: {self.reason} at {self.filename}:{self.lineno}"


_records: dict = {}


def records() -> list[HostRecord]:
    """Every fallback seen since the last ``reset`` (process-wide; ``sprout.debug.report`` lists them)."""
    return list(_records.values())


def reset() -> None:
    _records.clear()


def can_fall_back(exc: BaseException) -> bool:
    """A refusal that Python can run instead: every located jit refusal (``JitSyntaxError`` family) unless
    it says otherwise (``host_ok = False``: hooks inside graphs are refused in every mode), and a
    recursion that tracing cannot end (its depth depends on a tensor value)."""
    if isinstance(exc, JitSyntaxError):
        return getattr(exc, "host_ok", True)
    return isinstance(exc, RecursionError)


def _plain(fn) -> bool:
    from ..capture.bytecode import py311

    return py311.is_plain_function_code(fn.__code__)


def note(jf, exc: BaseException) -> HostRecord:
    """Record (and count) that ``jf`` falls back because of ``exc``."""
    loc = getattr(exc, "loc", None)
    text = getattr(exc, "message", None) or str(exc)
    reason = f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"
    filename = loc.filename if loc is not None else jf.fn.__code__.co_filename
    lineno = loc.lineno if loc is not None else jf.fn.__code__.co_firstlineno
    source = loc.source_line if loc is not None else ""
    key = (jf.where, jf.fn.__qualname__, filename, lineno, reason)
    rec = _records.get(key)
    if rec is None:
        rec = _records[key] = HostRecord(jf.fn.__qualname__, jf.where, reason, filename, lineno, source)
    rec.count += 1
    jf.stats_record.host_fallbacks += 1
    return rec


class HostExecutable:
    """A cache entry that runs the function through PIJit: what a graph can express runs as compiled
    segments, the rest (the refused construct and whatever depends on it) as Python between them."""

    host = True
    static_fallback = False

    def __init__(self, fn, record: HostRecord, error: BaseException, jit_level: str = ""):
        from ..capture.bytecode import compile_bytecode
        from ..capture.bytecode.runtime import can_run

        self.fn = fn
        # a function PIJit cannot step through (a ``match`` statement, ``except*``) runs as plain Python;
        # segments compile at the entry's resolved level (its cache key)
        self.bytecode = compile_bytecode(fn, jit_level=jit_level) if can_run(fn.__code__) else fn
        self.record = record
        self.error = error
        self.graph = Graph(f"{fn.__name__} (host segments)", [], [], [])
        self.stages: list = []

    @property
    def source(self) -> str:
        return ""

    @property
    def segments(self) -> list:
        """The IR of the compiled segments PIJit made so far."""
        return self.bytecode.graphs() if self.bytecode is not self.fn else []

    def call(self, instance, args: tuple, kwargs: dict) -> Any:
        if instance is not None:
            return self.bytecode(instance, *args, **kwargs)
        return self.bytecode(*args, **kwargs)

    def fast_entry(self, args: tuple, iref=None) -> HostFastEntry:
        return HostFastEntry(self, iref)

    def __repr__(self) -> str:
        return f"<host segments of {self.fn.__qualname__}: {self.record.reason}>"


class HostFastEntry:
    """The per-call path of a host entry: straight to PIJit (which keeps its own guards)."""

    __slots__ = ("ex", "run")

    def __init__(self, ex: HostExecutable, iref):
        self.ex = ex
        bc = ex.bytecode
        if iref is None:
            self.run = lambda args: bc(*args)
        else:  # the bound instance, held weakly (the fast table must not keep it alive)
            self.run = lambda args: bc(iref.ref(), *args)


def standing(exc: BaseException) -> BaseException:
    """The error a refusal that stands (STRICT/COMPATIBLE, or no host fallback) is reported as: a tensor attribute
    graph mode lacks (``asnumpy``/``tolist``) is MindSpore's AttributeError, with the same located message."""
    if not getattr(exc, "graph_attribute", False) or not isinstance(exc, JitSyntaxError):
        return exc
    return JitAttributeError(exc.message, exc.loc, exc.hint)


def fallback(jf, exc: BaseException) -> HostExecutable | None:
    """The host entry replacing a refused AST capture of ``jf`` (None: the refusal stands)."""
    if jf.syntax_level != "LAX" or jf.opts["capture_mode"] != "ast" or not can_fall_back(exc):
        return None
    if not _plain(jf.fn):
        return None
    flags = jf._compiling or jf.flags()
    return HostExecutable(jf.fn, note(jf, exc), exc, flags.jit_level)

