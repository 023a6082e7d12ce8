"""Physical limits of this machine, measured with NumPy: memory bandwidth (large copy / add) and BLAS
throughput (a big sgemm), each the best of several runs (a peak: on a shared machine the median reports the
load), and the floors they put under W3 (bytes moved) and W4-W6, M1-M3 (matmul/conv FLOPs)."""
from __future__ import annotations

import time

import numpy as np

import models
import numpy_ref as ref
from common import median_time


def best_time(fn, repeat: int) -> float:
    """Seconds of the fastest of ``repeat`` calls, after one warm call."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bandwidth(n_floats: int = 1 << 25, repeat: int = 5) -> dict:
    """GB/s of np.copyto (reads 1, writes 1 array) and np.add(out=) (reads 2, writes 1), 128 MiB arrays."""
    a = np.ones(n_floats, np.float32)
    b = np.ones(n_floats, np.float32)
    c = np.empty(n_floats, np.float32)
    nbytes = a.nbytes
    t_copy = best_time(lambda: np.copyto(c, a), repeat)
    t_add = best_time(lambda: np.add(a, b, out=c), repeat)
    return {"copy": 2 * nbytes / t_copy / 1e9, "add": 3 * nbytes / t_add / 1e9}


def sgemm(n: int = 2048, repeat: int = 5) -> float:
    """GFLOP/s of an n x n x n float32 matmul (BLAS, all cores)."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    c = np.empty((n, n), np.float32)
    t = best_time(lambda: np.matmul(a, b, out=c), repeat)
    return 2 * n ** 3 / t / 1e9


def _dense_flops(batch: int, sizes, input_grad_first: bool = False) -> int:
    """Forward, weight-gradient and input-gradient matmul FLOPs of a Dense stack (no input grad for layer 1)."""
    layers = [i * o for i, o in zip(sizes[:-1], sizes[1:])]
    fwd = 2 * batch * sum(layers)
    dx = 2 * batch * (sum(layers) if input_grad_first else sum(layers[1:]))
    return 2 * fwd + dx


def flops() -> dict:
    """Matmul/convolution FLOPs per step of W4, W5, W6 (elementwise work not counted)."""
    mlp = _dense_flops(ref.MLP_BATCH, ref.MLP_SIZES)
    n = ref.LENET_BATCH
    conv1 = 2 * n * 28 * 28 * 6 * 25
    conv2 = 2 * n * 10 * 10 * 16 * 150
    lenet = 2 * conv1 + 3 * conv2 + _dense_flops(n, (400, 120, 84, 10), input_grad_first=True)
    t, b, i, h = ref.RNN_T, ref.RNN_B, ref.RNN_I, ref.RNN_H
    rnn = 2 * (2 * t * b * (i * h + h * h)) + 2 * (t - 1) * b * h * h
    return {"W4": mlp, "W5": lenet, "W6": rnn}


def w3_bytes() -> int:
    """Bytes W3 must move at least: read x and y, write the result."""
    return 3 * int(np.prod(ref.W3_SHAPE)) * 4


def w3_blocked_time(repeat: int = 5) -> float:
    x, y = ref.w3_data()
    return median_time(lambda: ref.w3_blocked(x, y), repeat=repeat, min_time=0.0)


def w3_plain_time(repeat: int = 5) -> float:
    x, y = ref.w3_data()
    return median_time(lambda: ref.w3_plain(x, y), repeat=repeat, min_time=0.0)


def measure_all(quick: bool = False, models_: tuple = ()) -> dict:
    """Bandwidth, sgemm rate, FLOPs and floors of W3-W6 and of the model workloads ``models_``."""
    rep = 3 if quick else 5
    bw = bandwidth(repeat=rep)
    gf = sgemm(repeat=rep)
    fl = flops() | {w: models.flops(w) for w in models_}
    best_bw = max(bw.values())
    return {"bandwidth": bw, "sgemm_gflops": gf, "flops": fl,
            "floors": {"W3": w3_bytes() / (best_bw * 1e9), **{w: f / (gf * 1e9) for w, f in fl.items()}},
            "w3_plain": w3_plain_time(rep), "w3_blocked": w3_blocked_time(rep)}
