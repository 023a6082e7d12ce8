"""``sprout.Profiler`` (MindSpore's Profiler): eager ops, compiled-graph calls and compiles as a
Chrome-trace JSON (``trace_view.json``) and a per-op summary table."""
from __future__ import annotations

import csv
import json
import logging
import os
import time
import warnings

from .debug import hooks as _hooks

__all__ = ["Profiler"]

logger = logging.getLogger("sprout")


class Profiler:
    """``Profiler(output_path="./data", start_profile=True, **kwargs)``; ``start()``, ``stop()``, ``analyse()``
    and ``with Profiler(...) as prof:``. Other MindSpore options (profile_memory, profiler_level, ...) are
    accepted and ignored: sprout records host wall time only."""

    def __init__(self, output_path: str = "./data", start_profile: bool = True, **kwargs):
        if not isinstance(output_path, str):
            raise TypeError(f"Profiler: output_path must be a str, got {type(output_path).__name__}")
        if not isinstance(start_profile, bool):
            raise TypeError(f"Profiler: start_profile must be a bool, got {start_profile!r}")
        self.output_path = os.path.abspath(output_path)
        self.options = dict(kwargs)
        self.records: list[tuple[str, str, int, int]] = []  # (name, category, t0_ns, t1_ns)
        self._origin = time.perf_counter_ns()
        self._running = False
        if start_profile:
            self.start()

    # ---- collection ----------------------------------------------------------------------------
    def record(self, name: str, category: str, t0: int, t1: int) -> None:
        """Called through ``sprout.debug.hooks`` (a dispatch observer and a jit compile listener)."""
        self.records.append((name, category, t0, t1))

    def start(self) -> None:
        if self._running:
            warnings.warn("Profiler.start: the profiler is already running", RuntimeWarning, stacklevel=2)
            return
        _hooks.add_sink(self)
        self._running = True

    def stop(self) -> None:
        if not self._running:
            warnings.warn("Profiler.stop: the profiler is not running", RuntimeWarning, stacklevel=2)
            return
        _hooks.remove_sink(self)
        self._running = False

    def __enter__(self) -> Profiler:
        if not self._running:
            self.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._running:
            self.stop()

    def __del__(self):
        if getattr(self, "_running", False):
            try:
                self.stop()
            except Exception:  # noqa: BLE001 - interpreter shutdown
                pass

    # ---- results --------------------------------------------------------------------------------
    def summary(self) -> list[dict]:
        """One row per (name, category), biggest total first: calls, total ms, mean us, % of time
        (the share of all recorded op and graph time; compiles are listed but not counted in %)."""
        acc: dict[tuple[str, str], list] = {}
        for name, cat, t0, t1 in self.records:
            row = acc.setdefault((name, cat), [0, 0])
            row[0] += 1
            row[1] += t1 - t0
        total = sum(ns for (_, cat), (_, ns) in acc.items() if cat != "compile") or 1
        rows = []
        for (name, cat), (calls, ns) in acc.items():
            rows.append({"name": name, "type": cat, "calls": calls, "total_ms": ns / 1e6, "mean_us": ns / calls / 1e3,
                         "percent": 0.0 if cat == "compile" else 100.0 * ns / total})
        rows.sort(key=lambda r: (r["type"] == "compile", -r["total_ms"]))
        return rows

    def table(self) -> str:
        rows = self.summary()
        width = max([len("op name")] + [len(r["name"]) for r in rows])
        head = f"{'op name':<{width}}  {'type':<7}  {'calls':>7}  {'total ms':>10}  {'mean us':>10}  {'% time':>7}"
        lines = [head, "-" * len(head)]
        for r in rows:
            pct = "-" if r["type"] == "compile" else f"{r['percent']:.1f}"
            lines.append(f"{r['name']:<{width}}  {r['type']:<7}  {r['calls']:>7}  {r['total_ms']:>10.3f}  "
                         f"{r['mean_us']:>10.1f}  {pct:>7}")
        return "\n".join(lines) + "\n"

    def trace(self) -> dict:
        """The Chrome trace-event document (chrome://tracing, https://ui.perfetto.dev)."""
        pid = os.getpid()
        ev: list[dict] = [{"name": "process_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": "sprout"}},
                          {"name": "thread_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": "host"}}]
        for name, cat, t0, t1 in self.records:
            ev.append({"name": name, "cat": cat, "ph": "X", "pid": pid, "tid": 0,
                       "ts": (t0 - self._origin) / 1e3, "dur": max(t1 - t0, 0) / 1e3})
        return {"traceEvents": ev, "displayTimeUnit": "ms"}

    @property
    def trace_path(self) -> str:
        return os.path.join(self.output_path, "trace_view.json")

    def analyse(self, offline_path=None, pretty: bool = False, **kwargs) -> None:
        """Write ``trace_view.json``, ``op_summary.csv`` and ``op_summary.txt`` under ``output_path``
        and print the summary table."""
        if self._running:
            self.stop()
        out = offline_path or self.output_path
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "trace_view.json"), "w") as f:
            json.dump(self.trace(), f, indent=1 if pretty else None)
        rows = self.summary()
        with open(os.path.join(out, "op_summary.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["op name", "type", "calls", "total ms", "mean us", "% time"])
            for r in rows:
                w.writerow([r["name"], r["type"], r["calls"], f"{r['total_ms']:.3f}", f"{r['mean_us']:.1f}",
                            f"{r['percent']:.2f}"])
        text = self.table()
        with open(os.path.join(out, "op_summary.txt"), "w") as f:
            f.write(text)
        print(text, end="")
