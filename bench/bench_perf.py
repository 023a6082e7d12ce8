"""Performance targets of issues 2-4 in one process (same BLAS threads for every contestant): eager per-op,
seed cell, MLP/LeNet/RNN steps eager and jitted vs hand-written NumPy, first-call times.
Run: python bench/bench_perf.py [--only per_op,seed,mlp,lenet,rnn,first]"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))
sys.path.insert(0, _HERE)

import sprout as ms  # noqa: E402
import numpy_ref as ref  # noqa: E402
import workloads  # noqa: E402
from common import print_table  # noqa: E402


def _interleaved(steps: dict, min_time: float, rounds: int = 9) -> dict:
    """Median seconds per call of each contestant, sampled round-robin (a shared machine's load drifts:
    interleaving keeps the ratios honest)."""
    loops = {}
    for name, fn in steps.items():
        fn()
        n, t = 1, 0.0
        while True:
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            t = time.perf_counter() - t0
            if t >= min_time / rounds or n > 1 << 16:
                break
            n *= 2
        loops[name] = n
    samples = {name: [] for name in steps}
    for _ in range(rounds):
        for name, fn in steps.items():
            t0 = time.perf_counter()
            for _ in range(loops[name]):
                fn()
            samples[name].append((time.perf_counter() - t0) / loops[name])
    return {name: statistics.median(v) for name, v in samples.items()}


def _row(w, ref_prep, levels=(None, "O0", "O1"), min_time=0.2):
    steps = {"numpy": ref_prep().step}
    for lv in levels:
        name = "eager" if lv is None else f"jit {lv}"
        try:
            steps[name] = workloads.WORKLOADS[w](lv).step
        except Exception as exc:  # noqa: BLE001
            print(f"{w} {name}: {type(exc).__name__}: {exc}")
    return _interleaved(steps, min_time * 3)


def per_op():
    a = np.ones((3, 3), np.float32)
    x = ms.Tensor(a)
    return _interleaved({"numpy": lambda: np.add(a, a), "eager": lambda: x + x}, 0.3)


def first_call(w, level):
    code = (f"import sys, json; sys.path.insert(0, {_HERE!r}); import workloads; "
            f"print(json.dumps(workloads.first_call({w!r}, {level!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=_HERE)
    try:
        return float(out.stdout.strip().splitlines()[-1].split(":")[1].strip(" }"))
    except Exception:  # noqa: BLE001
        print(out.stderr[-2000:])
        return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--only", default="per_op,seed,mlp,lenet,rnn,first")
    p.add_argument("--min-time", type=float, default=0.2)
    args = p.parse_args()
    only = args.only.split(",")
    rows = []
    if "per_op" in only:
        rows.append(("per-op add 3x3", per_op()))
    if "seed" in only:
        rows.append(("W1 seed cell", _row("W1", ref.w1_prepare, min_time=0.05)))
    if "mlp" in only:
        rows.append(("W4 MLP step", _row("W4", ref.mlp_prepare, min_time=args.min_time)))
    if "lenet" in only:
        rows.append(("W5 LeNet step", _row("W5", ref.lenet_prepare, min_time=args.min_time)))
    if "rnn" in only:
        rows.append(("W6 RNN fwd+bwd", _row("W6", ref.rnn_prepare, min_time=args.min_time)))
    print_table("sprout vs hand-written NumPy (median; ratio vs numpy, same process)", rows, "numpy")
    if "first" in only:
        frows = [("W4 first call", {"jit O0": first_call("W4", "O0"), "jit O1": first_call("W4", "O1")}),
                 ("W7b 200-op chain first call", {"jit O0": first_call("W7b", "O0"),
                                                  "jit O1": first_call("W7b", "O1")})]
        print_table("first call (fresh process)", frows, "none")


if __name__ == "__main__":
    main()
