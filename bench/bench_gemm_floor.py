"""The GEMM floors of W4 and W6 (issue 13): each step's GEMMs alone, at their exact shapes, against hand-written
NumPy's step, with OpenBLAS at 1 thread and at the count it started with; interleaved rounds, medians of wall and
process CPU, the load printed. After lowering the thread count it waits 0.3 s: OpenBLAS's idle helper spins for
about 2^28 cycles after its last multi-thread call (docs/performance.md).
Run: python bench/bench_gemm_floor.py [--rounds 9]"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))
sys.path.insert(0, _HERE)

import numpy_ref as ref  # noqa: E402
from sprout.communication.blas import _openblas  # noqa: E402


def _gemms():
    rng = np.random.default_rng(0)

    def r(*shape):
        return rng.standard_normal(shape).astype(np.float32)

    x, w1, w2, w3 = r(64, 784), r(784, 512), r(512, 512), r(512, 10)
    h1, h2, g, d2, d1 = r(64, 512), r(64, 512), r(64, 10), r(64, 512), r(64, 512)
    w2t, w3t = np.ascontiguousarray(w2.T), np.ascontiguousarray(w3.T)

    def w4():  # forward, then dW3, dh2, dW2, dh1, dW1 (no data gradient of the first layer)
        x @ w1, h1 @ w2, h2 @ w3
        h2.T @ g, g @ w3t, h1.T @ d2, d2 @ w2t, x.T @ d1

    xs, h, wx, wh, da = r(800, 128), r(16, 128), r(128, 128), r(128, 128), r(800, 128)
    wht = np.ascontiguousarray(wh.T)

    def w6():  # input projection, 50 forward steps, 49 backward steps, the two weight gradients
        xs @ wx
        for _ in range(50):
            h @ wh
        for _ in range(49):
            h @ wht
        xs.T @ da, xs.T @ da

    return {"W4 GEMMs": w4, "W4 NumPy step": ref.mlp_prepare().step,
            "W6 GEMMs": w6, "W6 NumPy step": ref.rnn_prepare().step}


def _sample(fn, n: int) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    for _ in range(n):
        fn()
    return (time.perf_counter() - w) / n, (time.process_time() - c) / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    fns = _openblas()
    if fns is None:
        raise SystemExit("OpenBLAS not found in this process: its thread count cannot be set")
    start = int(fns[1]())
    print(f"load before {os.getloadavg()}, cores {os.cpu_count()}, OpenBLAS started with {start} threads")
    todo = _gemms()
    res: dict = {}
    for _ in range(args.rounds):
        for threads in sorted({1, start}):
            fns[0](threads)
            if threads < start:
                time.sleep(0.3)
            for name, fn in todo.items():
                res.setdefault((name, threads), []).append(_sample(fn, 10))
    fns[0](start)
    for (name, threads), v in sorted(res.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        wall, cpu = (statistics.median(x[k] for x in v) * 1e3 for k in (0, 1))
        print(f"  {name:<14} BLAS {threads}  wall {wall:8.3f} ms  cpu {cpu:8.3f} ms")
    for threads in sorted({1, start}):
        for w in ("W4", "W6"):
            g, s = (statistics.median(x[1] for x in res[(f"{w} {k}", threads)]) for k in ("GEMMs", "NumPy step"))
            print(f"  {w} BLAS {threads}: GEMMs alone = {g / s:.2f}x of NumPy's step (process CPU)")
    print(f"load after {os.getloadavg()}")


if __name__ == "__main__":
    main()
