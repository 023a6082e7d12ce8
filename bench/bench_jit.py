"""@jit per-call and compile cost: the seed Test cell, a 200-op chain and an MLP training step,
against raw NumPy and sprout eager. Run: python bench/bench_jit.py"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import sprout as ms  # noqa: E402
from sprout import nn, ops  # noqa: E402
from common import median_time, print_table  # noqa: E402


class Test(nn.Cell):
    """The seed's Add -> Mul -> Add (six elementwise ops on a 3x3 tensor), as one cell."""

    def construct(self, x):
        x = x + x
        x = x + x
        x = x * x
        x = x * x
        x = x + x
        x = x + x
        return x


class JitTest(Test):
    construct = ms.jit(Test.construct)


def raw_test(a):
    a = a + a
    a = a + a
    a = a * a
    a = a * a
    a = a + a
    return a + a


def seed_cell():
    a = np.ones((3, 3), np.float32)
    x = ms.Tensor(a)
    eager, jitted = Test(), JitTest()
    jitted(x)
    jf = ms.jit(lambda x: Test.construct(None, x))
    jf(x)
    return {"numpy": median_time(lambda: raw_test(a)), "sprout eager": median_time(lambda: eager(x)),
            "sprout jit (cell)": median_time(lambda: jitted(x)), "sprout jit (function)": median_time(lambda: jf(x))}


def chain(x):
    for _i in range(50):
        x = x * 1.0001 + 0.5
        x = ops.tanh(x) - 0.25
    return x


def raw_chain(a):
    for _i in range(50):
        a = a * np.float32(1.0001) + np.float32(0.5)
        a = np.tanh(a) - np.float32(0.25)
    return a


def op_chain():
    a = np.ones((16,), np.float32)
    x = ms.Tensor(a)
    jf = ms.jit(chain)
    start = time.perf_counter()
    jf(x)
    first = time.perf_counter() - start
    return {"numpy": median_time(lambda: raw_chain(a)), "sprout eager": median_time(lambda: chain(x)),
            "sprout jit": median_time(lambda: jf(x)), "sprout jit first call": first}


def mlp_step():
    rng = np.random.default_rng(0)
    sizes = [(784, 512), (512, 512), (512, 10)]
    ws = [ms.Parameter((rng.standard_normal(s) * 0.05).astype(np.float32), name=f"w{i}") for i, s in enumerate(sizes)]
    bs = [ms.Parameter(np.zeros(s[1], np.float32), name=f"b{i}") for i, s in enumerate(sizes)]
    x = ms.Tensor(rng.standard_normal((64, 784)).astype(np.float32))
    y = ms.Tensor(rng.standard_normal((64, 10)).astype(np.float32))
    params = ws + bs

    def loss_fn(x, y):
        h = x
        for i, (w, b) in enumerate(zip(ws, bs)):
            h = ops.matmul(h, w) + b
            if i < len(ws) - 1:
                h = ops.relu(h)
        return ops.mean((h - y) ** 2)

    grad_fn = ms.value_and_grad(loss_fn, None, params)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        return loss, grads

    jstep = ms.jit(step)
    start = time.perf_counter()
    jstep(x, y)
    first = time.perf_counter() - start
    return {"sprout eager": median_time(lambda: step(x, y), min_time=0.2),
            "sprout jit": median_time(lambda: jstep(x, y), min_time=0.2), "sprout jit first call": first}


def main():
    rows = [("seed Test cell (3x3, 6 ops)", seed_cell()), ("chain of 200 small ops", op_chain())]
    print_table("jit per call (median)", rows, "numpy")
    print_table("MLP 784-512-512-10 loss+grads, batch 64", [("step", mlp_step())], "sprout eager")


if __name__ == "__main__":
    main()
