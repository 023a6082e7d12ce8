"""Timing helpers shared by the benchmark scripts: medians of repeated runs, first calls, peak memory,
result checks and markdown tables. Runs under both interpreters (NumPy 2 here, NumPy 1.26 in the
MindSpore virtualenv), so it imports nothing but the standard library and NumPy."""
from __future__ import annotations

import gc
import importlib.util
import statistics
import time
import tracemalloc
import traceback
from dataclasses import dataclass, field
from collections.abc import Callable
from typing import Any

import numpy as np


def median_time(fn: Callable[[], object], *, repeat: int = 7, min_time: float = 0.05,
                budget: float | None = None) -> float:
    """Median seconds per call: calibrate a loop count so one sample lasts ~min_time, then repeat.
    With ``budget`` (seconds), fewer samples (at least 3) are taken when one sample is slow."""
    start = time.perf_counter()
    fn()
    warm = time.perf_counter() - start
    number = 1
    elapsed = warm
    if warm < min_time:
        while True:
            start = time.perf_counter()
            for _ in range(number):
                fn()
            elapsed = time.perf_counter() - start
            if elapsed >= min_time or number >= 1 << 20:
                break
            number *= 2 if elapsed == 0 else max(2, int(min_time / elapsed) + 1)
    if budget is not None and elapsed > 0:
        repeat = max(3, min(repeat, int(budget / elapsed)))
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def have(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_bytes(n: float | None) -> str:
    if n is None:
        return "-"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n / (1024 * 1024):.2f} MiB"


def print_table(title: str, rows: list[tuple[str, dict[str, float | None]]], baseline: str) -> None:
    """rows: (workload, {contestant: seconds}); ratios are against ``baseline`` from the same run."""
    contestants: list[str] = []
    for _, timings in rows:
        for name in timings:
            if name not in contestants:
                contestants.append(name)
    print(f"\n## {title}\n")
    print("| workload | " + " | ".join(contestants) + " |")
    print("|---|" + "---|" * len(contestants))
    for workload, timings in rows:
        base = timings.get(baseline)
        cells = []
        for name in contestants:
            t = timings.get(name)
            if t is None:
                cells.append("-")
            elif base and name != baseline:
                cells.append(f"{fmt_time(t)} ({t / base:.2f}x)")
            else:
                cells.append(fmt_time(t))
        print(f"| {workload} | " + " | ".join(cells) + " |")


# ---- one contestant: prepare, first call, steady-state median, peak memory ----------------------
@dataclass
class Prepared:
    """What a contestant hands the harness for one workload.

    ``step()`` runs one iteration (one call, one training step, one batch of ``per`` ops) and returns
    the framework's outputs; ``to_numpy(out)`` turns them into a list of arrays; ``state()`` (optional)
    returns further arrays to check after the first step (updated parameters); ``sync(out)`` blocks
    until asynchronous work is done (JAX, MindSpore)."""

    step: Callable[[], Any]
    to_numpy: Callable[[Any], list] = lambda out: [np.asarray(out)]
    state: Callable[[], list] | None = None
    sync: Callable[[Any], Any] | None = None
    per: int = 1


@dataclass
class Measurement:
    median: float | None = None      # seconds per step (divided by Prepared.per)
    first: float | None = None       # seconds of the first step on fresh state (includes compilation)
    peak: float | None = None        # bytes allocated above the live set during one steady step
    arrays: list | None = None       # outputs of the first step (+ state after it), for the check
    error: str | None = None         # why there is no number
    extra: dict = field(default_factory=dict)


@dataclass
class Options:
    repeat: int = 7
    min_time: float = 0.05
    budget: float = 3.0              # seconds of timed samples per contestant (at least 3 samples)
    memory: bool = False             # trace peak memory with tracemalloc (NumPy/sprout only)
    clock: Callable[[], float] = time.perf_counter   # samples' clock (suite --cpu-time: time.process_time)


def short_error(exc: BaseException) -> str:
    """One line naming the exception and the innermost frame of the benchmark or sprout code."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = ""
    for fr in reversed(frames):
        if "/sprout/" in fr.filename or "/bench/" in fr.filename:
            where = f" [{fr.filename.rsplit('/', 2)[-2]}/{fr.filename.rsplit('/', 1)[-1]}:{fr.lineno}]"
            break
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {msg[:160]}{where}"


class _Runner:
    """One contestant inside a group: first call on fresh state, then calibrated timing samples."""

    def __init__(self, prepare: Callable[[], Prepared], opts: Options):
        self.prepare, self.opts = prepare, opts
        self.m = Measurement()
        self.prep: Prepared | None = None
        self.number = 1
        self.samples: list[float] = []
        self.spent = 0.0

    def fail(self, exc: BaseException) -> None:
        self.m.error = short_error(exc)
        self.prep = None

    def call(self):
        return self.sync(self.prep.step())

    def sync(self, out):
        return self.prep.sync(out) if self.prep.sync is not None else out

    def first(self) -> None:
        try:
            self.prep = prep = self.prepare()
            gc.collect()
            start = time.perf_counter()
            out = self.sync(prep.step())
            self.m.first = (time.perf_counter() - start) / prep.per
            arrays = [np.array(a, copy=True) for a in prep.to_numpy(out)]
            if prep.state is not None:
                arrays += [np.array(a, copy=True) for a in prep.state()]
            self.m.arrays = arrays
        except Exception as exc:  # a missing op or a partial jit must not stop the suite
            self.fail(exc)

    def calibrate(self) -> None:
        """Loop count so that one sample lasts about ``min_time`` (one warm call first)."""
        try:
            start = self.opts.clock()
            self.call()
            elapsed = self.opts.clock() - start
            number = 1
            while elapsed < self.opts.min_time and number < 1 << 20:
                number *= 2 if elapsed == 0 else max(2, int(self.opts.min_time / elapsed) + 1)
                start = self.opts.clock()
                for _ in range(number):
                    self.call()
                elapsed = self.opts.clock() - start
            self.number = number
        except Exception as exc:
            self.fail(exc)

    def wants_sample(self) -> bool:
        if self.prep is None or len(self.samples) >= self.opts.repeat:
            return False
        if len(self.samples) < 3:
            return True
        return self.spent + self.spent / len(self.samples) <= self.opts.budget

    def sample(self) -> None:
        try:
            start = self.opts.clock()
            for _ in range(self.number):
                self.call()
            elapsed = self.opts.clock() - start
        except Exception as exc:
            self.fail(exc)
            return
        self.spent += elapsed
        self.samples.append(elapsed / self.number / self.prep.per)

    def finish(self, memory: bool) -> Measurement:
        if self.prep is not None and self.samples:
            self.m.median = statistics.median(self.samples)
            if memory:
                try:
                    self.m.peak = peak_memory(self.call)
                except Exception as exc:
                    self.fail(exc)
        self.prep = None
        return self.m


def measure_group(contestants: list[tuple[str, Callable[[], Prepared], bool]], opts: Options,
                  log: Callable[[str], None] | None = None) -> dict[str, Measurement]:
    """Measure contestants of one workload together: first calls (in order), then timing samples taken
    round-robin so that load changes on a shared machine hit every contestant alike. ``contestants``:
    (name, prepare, trace memory)."""
    runners = {}
    for name, prepare, _ in contestants:
        if log:
            log(name)
        r = runners[name] = _Runner(prepare, opts)
        r.first()
        if r.prep is not None:
            r.calibrate()
    while True:
        active = [r for r in runners.values() if r.wants_sample()]
        if not active:
            break
        for r in active:
            r.sample()
    return {name: runners[name].finish(opts.memory and traced) for name, _, traced in contestants}


def measure(prepare: Callable[[], Prepared], opts: Options) -> Measurement:
    """One contestant: first step on fresh state (compile included; its outputs kept for the check),
    then the median of repeated steps, and optionally the peak memory."""
    return measure_group([("_", prepare, True)], opts)["_"]


def peak_memory(fn: Callable[[], object]) -> float:
    """Bytes allocated (via Python's allocators, which NumPy reports to tracemalloc) above the live
    set during one call of an already-warm ``fn``; the call's result is counted while alive."""
    gc.collect()
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        out = fn()
        _, peak = tracemalloc.get_traced_memory()
        del out
    finally:
        tracemalloc.stop()
    return float(peak - base)


# ---- result checks ------------------------------------------------------------------------------
def compare(ref: list, got: list, rtol: float, atol: float) -> tuple[bool, str]:
    """allclose(got, ref, rtol, atol * max|ref|) on every array (atol is relative to the array's scale);
    returns (ok, detail with the worst absolute and relative error)."""
    if len(ref) != len(got):
        return False, f"{len(got)} outputs, expected {len(ref)}"
    worst_abs = worst_rel = 0.0
    ok = True
    for i, (a, b) in enumerate(zip(ref, got)):
        a = np.asarray(a, dtype=np.float64)
        b = np.asarray(b, dtype=np.float64)
        if a.size == b.size and a.shape != b.shape:
            b = b.reshape(a.shape)
        if a.shape != b.shape:
            return False, f"output {i}: shape {b.shape}, expected {a.shape}"
        if not np.all(np.isfinite(b)):
            return False, f"output {i}: non-finite values"
        diff = np.abs(a - b)
        worst_abs = max(worst_abs, float(diff.max(initial=0.0)))
        worst_rel = max(worst_rel, float((diff / np.maximum(np.abs(a), 1e-30)).max(initial=0.0)))
        scale = float(np.abs(a).max(initial=0.0))
        ok = ok and bool(np.allclose(b, a, rtol=rtol, atol=atol * scale))
    return ok, f"max abs err {worst_abs:.1e}, max rel err {worst_rel:.1e}"
