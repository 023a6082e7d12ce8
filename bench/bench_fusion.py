"""W3 (16-op elementwise chain, 4M float32): sprout jit O1 (fused) vs O0 vs eager vs plain NumPy, and bandwidth."""
from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sprout as ms  # noqa: E402
from sprout import context, ops  # noqa: E402
from sprout.jit.api import jit  # noqa: E402
from sprout.passes import fuse, pipeline  # noqa: E402

N = 1 << 22


def expr16(x, y):
    a = x * y
    b = a + x
    c = b - y
    d = ops.abs(y)
    e = d + 1.0
    f = c / e
    g = ops.tanh(f)
    h = g * 0.5
    i = ops.exp(h)
    j = i - 1.0
    k = ops.maximum(j, 0.0)
    m = ops.sqrt(ops.abs(f))
    n = k * m
    o = n + g
    return o * y


def numpy16(x, y):
    a = x * y
    c = a + x - y
    f = c / (np.abs(y) + 1.0)
    g = np.tanh(f)
    k = np.maximum(np.exp(g * 0.5) - 1.0, 0.0)
    return (k * np.sqrt(np.abs(f)) + g) * y


def median_ms(fn, reps: int = 15) -> float:
    fn()
    ts = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return float(np.median(ts)) * 1e3


def main() -> None:
    rng = np.random.default_rng(3)
    xa, ya = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    x, y = ms.Tensor(xa), ms.Tensor(ya)
    rows = {}
    src = np.ones(16 << 20, np.float32)
    dst = np.empty_like(src)
    rows["memory bandwidth: np.copyto 64 MB"] = median_ms(lambda: np.copyto(dst, src))
    rows["numpy (plain)"] = median_ms(lambda: numpy16(xa, ya))
    rows["sprout eager"] = median_ms(lambda: expr16(x, y))
    results = {}
    for level in ("O0", "O1"):
        context.set_context(jit_level=level)
        f = jit(expr16)
        t = time.perf_counter()
        results[level] = f(x, y).asnumpy()
        first = (time.perf_counter() - t) * 1e3
        rows[f"sprout jit {level}"] = median_ms(lambda f=f: f(x, y))
        rows[f"sprout jit {level} first call"] = first
        if level == "O1":
            print("fusion:", fuse.stats(), "stage seconds:", {k: round(v, 4) for k, v in pipeline.LAST_TIMINGS.items()})
    ref = numpy16(xa, ya)
    for level, r in results.items():
        assert np.allclose(r, ref, rtol=1e-5, atol=1e-6), level
    bw = rows["memory bandwidth: np.copyto 64 MB"]
    print(f"copy bandwidth: {2 * 64 / 1.024 / bw:.1f} GB/s; W3 moves 48 MB -> floor {48 / 128 * bw:.1f} ms")
    base = rows["numpy (plain)"]
    for name, ms_ in rows.items():
        print(f"{name:40s} {ms_:9.2f} ms   x{base / ms_:5.2f} vs numpy")


if __name__ == "__main__":
    main()
