"""PIJit's public report: counters, graph-break records and guard failures (asserted by tests)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class BreakRecord:
    reason: str
    filename: str
    lineno: int
    source: str
    count: int = 0

    def __str__(self) -> str:
        return f"{self.filename}:{self.lineno}: {self.reason} (x{self.count})\n    {self.source.strip()}"


@dataclass
class GuardFailure:
    function: str
    guard: str
    filename: str
    lineno: int
    count: int = 0

    def __str__(self) -> str:
        return f"{self.function} ({self.filename}:{self.lineno}): guard failed: {self.guard} (x{self.count})"


@dataclass
class Report:
    """Counters and records of PIJit activity (public API, asserted by tests)."""

    captures: int = 0          # symbolic executions (one per new entry)
    compiles: int = 0          # graphs compiled (segments with tensor work)
    hits: int = 0              # calls / resumes that found a matching entry
    misses: int = 0            # lookups that found no matching entry
    evictions: int = 0         # entries dropped by the LRU
    python_steps: int = 0      # instructions run as Python between segments
    breaks: dict = field(default_factory=dict)          # (file, line, reason) -> BreakRecord
    guard_failures: dict = field(default_factory=dict)  # (function, guard) -> GuardFailure

    @property
    def graph_breaks(self) -> list:
        return list(self.breaks.values())

    @property
    def n_breaks(self) -> int:
        return sum(b.count for b in self.breaks.values())

    def text(self) -> str:
        lines = [f"PIJit: {self.captures} captures, {self.compiles} compiles, {self.hits} hits, {self.misses} misses, "
                 f"{self.evictions} evictions, {self.python_steps} Python steps"]
        lines += ["graph break: " + str(b) for b in self.breaks.values()]
        lines += [str(g) for g in self.guard_failures.values()]
        return "\n".join(lines)

    __str__ = text
