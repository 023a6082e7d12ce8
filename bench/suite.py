"""The peer benchmark suite: one command, one markdown report. Run: python bench/suite.py
(--quick for a ~1 minute smoke run; --only W1,W3 to pick workloads; --help for the rest).

Every workload runs as hand-written NumPy (the baseline), sprout eager and sprout jit (each level),
and, when installed, PyTorch eager / torch.compile, JAX eager / jax.jit, and MindSpore PyNative / jit
(in its own virtualenv, through a subprocess that prints JSON). Reported: medians of repeated runs
with ratios to NumPy from this run, first-call time, peak memory (NumPy/sprout), a result check."""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import models  # noqa: E402
from common import Measurement, Options, compare, fmt_bytes, fmt_time, have, measure_group  # noqa: E402
import numpy_ref as ref  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

DESCRIPTION = {
    "W1": "W1 seed Test cell, ones(3,3), per call (jit: whole cell)",
    "W1s": "W1s seed as written: Add, jitted Mul, Add",
    "W2": "W2 1000 small eager ops, per op",
    "W3": "W3 16-op elementwise chain, 4M f32",
    "W4": "W4 MLP 784-512-512-10 train step, b64, SGD",
    "W5": "W5 LeNet-5 train step, 1x32x32, b32, SGD",
    "W6": "W6 tanh RNN 50 steps, b16 h128, fwd+bwd",
    "W7a": "W7a first call of W4's step (compile)",
    "W7b": "W7b chain of 200 small ops: first call",
    "W7b steady": "W7b chain of 200 small ops: steady call",
}
# (rtol, atol as a fraction of max|reference|) for allclose against the NumPy outputs
TOLERANCE = {"W1": (1e-6, 0.0), "W1s": (1e-6, 0.0), "W2": (1e-5, 1e-6), "W3": (1e-3, 1e-5), "W4": (1e-4, 1e-5),
             "W5": (1e-4, 1e-5), "W6": (1e-3, 1e-5), "W7b": (1e-5, 1e-6),
             "M1": (1e-3, 5e-4), "M2": (1e-3, 1e-5), "M3": (1e-3, 1e-5)}
# M1's atol: BatchNorm's training-mode backward cancels (dy - mean(dy) - xhat * mean(dy * xhat)), so float32
# rounding of its sums lands in the conv-weight gradients; torch eager needs 1.9e-4 of the array's scale against a
# float64 step of the same model (sprout eager and jax eager: < 1e-8), MindSpore's worst error equals torch eager's
MODELS = ["M1", "M2", "M3"]      # no hand-written NumPy version: ratios and the check are against sprout eager
ALL = ["W1", "W1s", "W2", "W3", "W4", "W5", "W6", "W7b"] + MODELS
COLUMNS = ["numpy", "sprout eager", "sprout jit O0", "sprout jit O1", "torch eager", "torch.compile", "jax eager",
           "jax.jit", "mindspore pynative", "mindspore jit"]


class Notes:
    """Numbered footnotes, one per distinct message."""

    def __init__(self):
        self.items: list[str] = []
        self.mismatches: list[str] = []

    def ref(self, text: str) -> str:
        if text not in self.items:
            self.items.append(text)
        return f"[{self.items.index(text) + 1}]"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def pick_workloads(only: str | None) -> list[str]:
    if not only:
        return list(ALL)
    want = {w.strip() for w in only.split(",") if w.strip()}
    unknown = want - set(ALL) - {"W7", "W7a"}
    if unknown:
        raise SystemExit(f"unknown workloads {sorted(unknown)}; choose from W1..W7, M1..M3")
    if "W1" in want:
        want.add("W1s")
    if want & {"W7", "W7a"}:
        want |= {"W4", "W7b"}
    return [w for w in ALL if w in want]


def skipped(name: str, skip: list[str]) -> bool:
    return any(name.startswith(s) for s in skip)


# ---- running --------------------------------------------------------------------------------------
def run_in_process(workloads: list[str], opts: Options, skip: list[str]) -> dict:
    """NumPy, sprout and the installed peers; per workload, samples are taken round-robin."""
    import workloads as wl
    import peers

    names = {name for w in workloads for _, name, _ in wl.contestants([w]) + peers.contestants([w])}
    for name in sorted(n for n in names if not skipped(n, skip)):
        warm_up(name, wl, peers)
    results: dict = {}
    for w in workloads:
        todo = []
        if w in ref.PREPARE:
            todo.append(("numpy", ref.PREPARE[w], True))
        todo += [(name, prep, True) for _, name, prep in wl.contestants([w])]
        if w != "W1s":
            todo += [(name, prep, False) for _, name, prep in peers.contestants([w])]
        todo = [t for t in todo if not skipped(t[0], skip)]
        results[w] = measure_group(todo, opts, log=lambda name, w=w: log(f"{w}: {name}"))
    return results


def warm_up(name: str, wl, peers) -> None:
    """Compile one trivial function per compiler first, so first-call times exclude one-time imports
    and initialisation of the framework (what every process pays once, whatever it compiles)."""
    try:
        if name.startswith("sprout jit"):
            wl.warm_up(name.rsplit(" ", 1)[-1])
        elif name in ("torch.compile", "jax.jit", "jax eager"):
            peers.warm_up(name)
    except Exception as exc:  # the contestant itself will report the failure
        log(f"warm-up of {name} failed: {exc!r}")


def fresh_first_calls(results: dict, workloads: list[str], skip: list[str]) -> None:
    """W7: time sprout jit's first step of W4 and W7b in a fresh process per level, so one level does
    not reuse what another level's compile left in in-process caches."""
    import workloads as wl
    from workloads import JSON_MARKER
    for w in ("W4", "W7b"):
        if w not in workloads:
            continue
        for suffix, level in wl.variants():
            name = f"sprout {suffix}"
            m = results.get(w, {}).get(name)
            if level is None or skipped(name, skip) or m is None or m.error:
                continue
            log(f"{w}: {name}, first call in a fresh process")
            cmd = [sys.executable, os.path.join(HERE, "workloads.py"), "--first-call", w, "--level", level]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
                if JSON_MARKER in proc.stdout:
                    doc = json.loads(proc.stdout.split(JSON_MARKER)[-1])
                else:
                    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
                    doc = {"error": f"fresh process exited {proc.returncode}: {tail[:200]}"}
            except (subprocess.SubprocessError, ValueError) as exc:
                doc = {"error": f"fresh-process first call failed: {exc!r}"[:200]}
            m.extra["fresh_first"] = doc.get("first")
            m.extra["fresh_error"] = doc.get("error")


def run_mindspore(python: str, workloads: list[str], quick: bool, timeout: float) -> tuple[dict, str | None, str]:
    """MindSpore's contestants in its own interpreter; returns (results, error, version)."""
    arrays = tempfile.mkdtemp(prefix="bench_ms_")
    cmd = [python, os.path.join(HERE, "workloads.py"), "--framework", "mindspore", "--json",
           "--only", ",".join(workloads), "--arrays", arrays] + (["--quick"] if quick else [])
    log("mindspore: " + " ".join(cmd))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore"))
    except subprocess.TimeoutExpired:
        return {}, f"MindSpore run exceeded {timeout:.0f} s", ""
    from workloads import JSON_MARKER
    if JSON_MARKER not in proc.stdout:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {}, f"MindSpore run failed (exit {proc.returncode}): {tail[:200]}", ""
    doc = json.loads(proc.stdout.split(JSON_MARKER)[-1])
    out: dict = {}
    for w, row in doc["results"].items():
        for name, r in row.items():
            arr = None
            if r["arrays"]:
                with np.load(r["arrays"]) as z:
                    arr = [z[f"arr_{i}"] for i in range(len(z.files))]
            out.setdefault(w, {})[name] = Measurement(r["median"], r["first"], r["peak"], arr, r["error"])
    shutil.rmtree(arrays, ignore_errors=True)
    return out, None, doc.get("version", "?")


# ---- reporting ------------------------------------------------------------------------------------
def check_row(w: str, row: dict, notes: Notes, base: Measurement | None) -> str:
    if base is None or base.arrays is None:
        return "-"
    rtol, atol = TOLERANCE[w]
    bad, n = [], 0
    for name, m in row.items():
        if m is base or m.arrays is None:
            continue
        ok, detail = compare(base.arrays, m.arrays, rtol, atol)
        n += 1
        if not ok:
            bad.append(name + " " + notes.ref(f"{w} {name} differs from {baseline(w)}: {detail}"))
            notes.mismatches.append(f"{w} {name}")
    if bad:
        return "MISMATCH: " + ", ".join(bad)
    return f"OK ({n}/{n})"


def cell(m: Measurement | None, value: float | None, base: float | None, notes: Notes, w: str, name: str) -> str:
    """A time, with its ratio to ``base`` when given; '-' and a note when the contestant failed."""
    if m is None:
        return ""
    if value is None:
        return "- " + notes.ref(f"{name} ({w}): {m.error}") if m.error else "-"
    if base and name != baseline(w):
        return f"{fmt_time(value)} ({value / base:.2f}x)"
    return fmt_time(value)


def first_cell(m: Measurement | None, notes: Notes, w: str, name: str) -> str:
    """W7 cells: sprout jit's first call from a fresh process when measured, else the in-process one."""
    if m is not None and "fresh_first" in m.extra:
        if m.extra["fresh_first"] is not None:
            return fmt_time(m.extra["fresh_first"])
        return "- " + notes.ref(f"{name} ({w}, fresh process): {m.extra['fresh_error']}")
    return cell(m, getattr(m, "first", None), None, notes, w, name)


def baseline(w: str) -> str:
    return "sprout eager" if w in MODELS else "numpy"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def report(results: dict, workloads: list[str], limits: dict | None, notes: Notes) -> str:
    cols = [c for c in COLUMNS if any(c in results.get(w, {}) for w in workloads)]
    rows, first_rows, mem_rows = [], [], []
    for w in workloads:
        row = results.get(w, {})
        base = results.get("W1" if w == "W1s" else w, {}).get(baseline(w))   # W1s computes what W1 does
        med = base.median if base else None
        label = models.describe(w) if w in MODELS else DESCRIPTION[w if w != "W7b" else "W7b steady"]
        rows.append([label] + [cell(row.get(c), getattr(row.get(c), "median", None), med, notes, w, c)
                               for c in cols] + [check_row(w, row, notes, base)])
        first_rows.append([w] + [cell(row.get(c), getattr(row.get(c), "first", None), None, notes, w, c)
                                 for c in cols])
        if any(getattr(row.get(c), "peak", None) is not None for c in cols):
            mem_rows.append([w] + [fmt_bytes(row[c].peak) if c in row and row[c].peak is not None else ""
                                   for c in cols[:4]])
    for key, src in (("W7a", "W4"), ("W7b", "W7b")):
        if src in workloads:
            row = results.get(src, {})
            rows.append([DESCRIPTION[key]] + [first_cell(row.get(c), notes, src, c) for c in cols] + [""])
    out = ["### Median time per step (ratio to NumPy from this run; M1-M3: to sprout eager)", "",
           table(["workload"] + cols + ["check"], rows), "",
           "### First call on fresh state (includes capture and compilation)", "",
           table(["workload"] + cols, first_rows)]
    if mem_rows:
        out += ["", "### Peak memory above the live set during one steady step (tracemalloc)", "",
                table(["workload"] + cols[:4], mem_rows)]
    if limits:
        bw, gf, fl, fo = limits["bandwidth"], limits["sgemm_gflops"], limits["flops"], limits["floors"]
        out += ["", "### Physical limits (NumPy on this machine)", "",
                f"- memory bandwidth: {bw['copy']:.1f} GB/s (np.copyto, 128 MiB), {bw['add']:.1f} GB/s "
                f"(np.add out=, 3 x 128 MiB)",
                f"- BLAS: {gf:.1f} GFLOP/s (2048^3 sgemm); each rate is the best of several runs",
                f"- W3 moves >= {ref.np.prod(ref.W3_SHAPE) * 12 / 2**20:.0f} MiB: floor {fmt_time(fo['W3'])} at the "
                f"best bandwidth; plain NumPy expression {fmt_time(limits['w3_plain'])}, NumPy with out= in "
                f"64K-element blocks {fmt_time(limits['w3_blocked'])}"]
        for w in ("W4", "W5", "W6") + tuple(m for m in MODELS if m in workloads):
            out.append(f"- {w}: {fl[w] / 1e6:.1f} MFLOP of matmul/conv per step: floor {fmt_time(fo[w])} at "
                       f"big-sgemm speed" + gap(results.get(w, {}), fo[w]))
        under = [f"{w} {name}" for w in ("W4", "W5", "W6") + tuple(MODELS) if w in fo
                 for name, m in results.get(w, {}).items() if m.median and m.median < fo[w]]
        if under:
            out.append(f"- below 1x ({', '.join(under)}): faster than NumPy's BLAS at its best 2048^3 sgemm here, "
                       "so the floor is NumPy's rate, not the machine's peak")
    tol = ", ".join(f"{w} rtol {r:g} atol {a:g}" for w, (r, a) in TOLERANCE.items() if w in workloads)
    out += ["", "Check (M1-M3: against sprout eager): "
            f"allclose(contestant, NumPy, rtol, atol x max|NumPy|) over every output of the first "
            f"step on identical inputs and initial parameters (training steps: loss and updated parameters; "
            f"W6: loss and gradients) -- {tol}."]
    if notes.items:
        out += ["", "Notes:"] + [f"[{i + 1}] {t}" for i, t in enumerate(notes.items)]
    return "\n".join(out)


def gap(row: dict, floor: float) -> str:
    """How far each timed contestant of a row is above its FLOP floor."""
    parts = [f"{name} {m.median / floor:.1f}x" for name, m in row.items() if m.median]
    return ("; time / floor: " + ", ".join(parts)) if parts else ""


def busy_warning(load_start: float) -> str:
    load_end = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    cpus = os.cpu_count() or 1
    if max(load_start, load_end) < cpus - 0.5:  # the suite itself keeps about one core busy
        return ""
    return (f"**Busy machine** (load average {load_start:.1f} at start, {load_end:.1f} at end, {cpus} CPUs): "
            "other processes compete for the cores, and multi-threaded BLAS/OpenMP (NumPy, PyTorch) suffers "
            "most; times are inflated and ratios skewed. Rerun when idle, or with --threads 1 for steadier "
            "single-thread numbers.\n")


def versions(ms_version: str | None) -> str:
    parts = [f"Python {platform.python_version()}", f"NumPy {np.__version__}"]
    for mod in ("torch", "jax"):
        if have(mod):
            parts.append(f"{mod} {__import__(mod).__version__}")
    if ms_version:
        parts.append(f"MindSpore {ms_version}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    threads = f", threads limited to {os.environ['BENCH_THREADS']}" if os.environ.get("BENCH_THREADS") else ""
    return f"{os.cpu_count()} CPUs{threads}, load average {load:.1f} at start; " + ", ".join(parts)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="few repeats; skips torch.compile and MindSpore "
                   "unless --all-peers")
    p.add_argument("--only", default=None, help="comma-separated workloads, e.g. W1,W3 (W7 implies W4)")
    p.add_argument("--skip", default="", help="comma-separated contestant name prefixes to skip, e.g. "
                   "'torch.compile,mindspore'")
    p.add_argument("--all-peers", action="store_true", help="with --quick: keep torch.compile and MindSpore")
    p.add_argument("--mindspore-python", default="/work/msvenv/bin/python",
                   help="interpreter with MindSpore installed (skipped when missing)")
    p.add_argument("--no-memory", action="store_true", help="skip the tracemalloc peak-memory pass")
    p.add_argument("--no-limits", action="store_true", help="skip bandwidth/BLAS measurements")
    p.add_argument("--strict", action="store_true", help="exit 1 also when a sprout contestant fails to run "
                   "(by default only a sprout result MISMATCH makes the exit status 1)")
    p.add_argument("--save", default=None, help="also write the raw numbers as JSON here")
    p.add_argument("--threads", type=int, default=None,
                   help="limit BLAS/OpenMP/XLA threads (re-executes with OMP/OPENBLAS/MKL_NUM_THREADS set); "
                        "default: each library's own choice")
    p.add_argument("--cpu-time", action="store_true",
                   help="time the samples by the process's CPU time (time.process_time), not wall time: steady on a "
                        "loaded machine for single-threaded work (use with --threads 1); a contestant that runs two "
                        "threads is charged both threads' CPU. First calls and MindSpore stay wall time")
    args = p.parse_args(argv)
    if args.threads and os.environ.get("BENCH_THREADS") != str(args.threads):
        limit_threads(args.threads)

    start = time.perf_counter()
    load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    workloads = pick_workloads(args.only)
    skip = [s.strip() for s in args.skip.split(",") if s.strip()]
    if args.quick and not args.all_peers:
        skip += ["torch.compile", "mindspore"]
    opts = Options(repeat=3, min_time=0.01, budget=0.5) if args.quick else Options(repeat=7, min_time=0.05, budget=3.0)
    opts.memory = not args.no_memory
    if args.cpu_time:
        opts.clock = time.process_time
    notes = Notes()
    limits = None
    if not args.no_limits:
        log("limits: bandwidth, sgemm")
        limits = ref_limits(args.quick, workloads)
    results = run_in_process(workloads, opts, skip)
    fresh_first_calls(results, workloads, skip)
    ms_version = None
    if not skipped("mindspore", skip):
        if os.path.exists(args.mindspore_python):
            ms_results, err, ms_version = run_mindspore(args.mindspore_python, workloads, args.quick,
                                            timeout=150 if args.quick else 420)
            for w, row in ms_results.items():
                results.setdefault(w, {}).update(row)
            if err:
                for w in workloads:
                    results.setdefault(w, {})["mindspore pynative"] = Measurement(error=err)
        else:
            log(f"no MindSpore interpreter at {args.mindspore_python}: skipped")
    text = report(results, workloads, limits, notes)
    print(f"## sprout benchmark suite{' (quick)' if args.quick else ''}\n")
    print(versions(ms_version) + f"; total run {time.perf_counter() - start:.0f} s"
          + ("; medians are process CPU time (--cpu-time)" if args.cpu_time else "") + ".\n")
    print(busy_warning(load_start))
    print(text)
    failed = [f"{w} {n}" for w, row in results.items() for n, m in row.items()
              if n.startswith("sprout") and m.error] if args.strict else []
    if args.save:
        with open(args.save, "w") as f:
            json.dump({w: {n: {"median": m.median, "first": m.first, "peak": m.peak, "error": m.error}
                           for n, m in row.items()} for w, row in results.items()} | {"limits": limits}, f, indent=1)
    problems = [f"{m} MISMATCH" for m in notes.mismatches if " sprout " in f" {m} "]
    problems += [f"{f} did not run" for f in failed]
    if problems:  # exit status for smoke checks: sprout computed something else than NumPy (or, --strict, failed)
        print("\nFAILED: " + ", ".join(problems), file=sys.stderr)
        return 1
    return 0


def limit_threads(n: int) -> None:
    """Set the thread-count variables every library reads at import, then restart this process."""
    env = dict(os.environ, BENCH_THREADS=str(n), OMP_NUM_THREADS=str(n), OPENBLAS_NUM_THREADS=str(n),
               MKL_NUM_THREADS=str(n))
    if n == 1:
        env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") + " --xla_cpu_multi_thread_eigen=false "
                            "intra_op_parallelism_threads=1").strip()
    sys.stdout.flush()
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)


def ref_limits(quick: bool, workloads: list[str]) -> dict:
    import limits
    return limits.measure_all(quick, [w for w in MODELS if w in workloads])


if __name__ == "__main__":
    sys.exit(main())
