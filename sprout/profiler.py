"""``sprout.Profiler`` (MindSpore's Profiler): eager ops, compiled-graph calls and compiles as a
Chrome-trace JSON (``trace_view.json``) and a per-op summary table."""
from __future__ import annotations

import csv
import json
import logging
import os
import sys
import time
import tracemalloc
import warnings

from .debug import hooks as _hooks
from .profiler_options import AicoreMetrics, ExportType, ProfilerActivity, ProfilerLevel, check_options

__all__ = ["Profiler", "ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType"]
_PKG = os.path.dirname(os.path.abspath(__file__))

logger = logging.getLogger("sprout")


class Profiler:
    """``Profiler(output_path="./data", start_profile=True, **options)``; ``start()``, ``stop()``, ``analyse()``
    and ``with Profiler(...) as prof:``. ``profile_memory`` records the host memory after each event
    (tracemalloc), ``with_stack`` the Python call stack of each event; the other MindSpore options are checked by
    ``profiler_options.check_options`` (kept when they change nothing on the host, refused otherwise)."""

    def __init__(self, output_path: str = "./data", start_profile: bool = True, **kwargs):
        if not isinstance(output_path, str):
            raise TypeError(f"Profiler: output_path must be a str, got {type(output_path).__name__}")
        if not isinstance(start_profile, bool):
            raise TypeError(f"Profiler: start_profile must be a bool, got {start_profile!r}")
        self.output_path = os.path.abspath(output_path)
        self.options = check_options(kwargs)
        self.profile_memory: bool = self.options["profile_memory"]
        self.with_stack: bool = self.options["with_stack"]
        self.records: list[tuple[str, str, int, int]] = []  # (name, category, t0_ns, t1_ns)
        self.memory: list[tuple[int, int]] = []  # per record with profile_memory: (allocated bytes, peak bytes)
        self.stacks: list[list[str]] = []  # per record with with_stack: "file:line(function)", innermost first
        self._own_tracemalloc = False
        self._origin = time.perf_counter_ns()
        self._running = False
        if start_profile:
            self.start()

    # ---- collection ----------------------------------------------------------------------------
    def record(self, name: str, category: str, t0: int, t1: int) -> None:
        """Called through ``sprout.debug.hooks`` (a dispatch observer and a jit compile listener)."""
        self.records.append((name, category, t0, t1))
        if self.profile_memory:  # held now, and the peak since the previous event (this event's transient)
            self.memory.append(tracemalloc.get_traced_memory())
            tracemalloc.reset_peak()
        if self.with_stack:
            self.stacks.append(_user_stack(sys._getframe(1)))

    def start(self) -> None:
        if self._running:
            warnings.warn("Profiler.start: the profiler is already running", RuntimeWarning, stacklevel=2)
            return
        if self.profile_memory and not tracemalloc.is_tracing():
            tracemalloc.start()
            self._own_tracemalloc = True
        if self.profile_memory:
            tracemalloc.reset_peak()
        _hooks.add_sink(self)
        self._running = True

    def stop(self) -> None:
        if not self._running:
            warnings.warn("Profiler.stop: the profiler is not running", RuntimeWarning, stacklevel=2)
            return
        _hooks.remove_sink(self)
        self._running = False
        if self._own_tracemalloc:
            tracemalloc.stop()
            self._own_tracemalloc = False

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
        for k, (name, cat, t0, t1) in enumerate(self.records):
            e = {"name": name, "cat": cat, "ph": "X", "pid": pid, "tid": 0,
                 "ts": (t0 - self._origin) / 1e3, "dur": max(t1 - t0, 0) / 1e3}
            if self.with_stack:
                e["args"] = {"stack": self.stacks[k]}
            ev.append(e)
            if self.profile_memory:
                held, peak = self.memory[k]
                e.setdefault("args", {})["peak KB"] = peak / 1024
                ev.append({"name": "host memory", "ph": "C", "pid": pid, "tid": 0, "ts": (t1 - self._origin) / 1e3,
                           "args": {"allocated KB": held / 1024}})
        return {"traceEvents": ev, "displayTimeUnit": "ms"}

    @property
    def trace_path(self) -> str:
        return os.path.join(self.output_path, "trace_view.json")

    def analyse(self, offline_path=None, pretty: bool = False, step_list=None, mode: str = "sync") -> None:
        """Write ``trace_view.json``, ``op_summary.csv``, ``op_summary.txt``, ``profiler_info.json`` (the options)
        and with ``profile_memory`` ``memory_record.csv`` under ``output_path``; print the summary table.
        ``mode`` ('sync' or 'async': when MindSpore parses) writes the same files; ``step_list`` needs a schedule,
        which sprout does not support."""
        if mode not in ("sync", "async"):
            raise ValueError(f"Profiler.analyse: mode must be 'sync' or 'async', got {mode!r}")
        if step_list is not None:
            raise NotImplementedError("Profiler.analyse: step_list selects steps of a schedule; sprout's Profiler has "
                                      "no schedule and records every step")
        if self._running:
            self.stop()
        out = offline_path or self.output_path
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "profiler_info.json"), "w") as f:
            json.dump({k: getattr(v, "value", v) if not isinstance(v, list) else [getattr(i, "value", i) for i in v]
                       for k, v in self.options.items()}, f, indent=1)
        if self.profile_memory:
            with open(os.path.join(out, "memory_record.csv"), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["name", "type", "end us", "allocated bytes", "peak bytes"])
                for (name, cat, _, t1), (held, peak) in zip(self.records, self.memory):
                    w.writerow([name, cat, f"{(t1 - self._origin) / 1e3:.1f}", held, peak])
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


def _user_stack(frame, limit: int = 32) -> list[str]:
    """The Python frames outside sprout that led to an event, innermost first."""
    out = []
    while frame is not None and len(out) < limit:
        path = frame.f_code.co_filename
        if not os.path.abspath(path).startswith(_PKG + os.sep):
            out.append(f"{path}:{frame.f_lineno}({frame.f_code.co_name})")
        frame = frame.f_back
    return out
