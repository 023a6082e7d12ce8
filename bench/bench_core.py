"""Eager (PyNative) overhead: per-op cost, the seed Test cell, an MLP training step — vs raw NumPy
(and PyTorch eager when installed). Run: python bench/bench_core.py (the full peer suite: bench/suite.py)"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import sprout as ms  # noqa: E402
import numpy_ref  # noqa: E402
import workloads  # noqa: E402
from common import have, median_time, print_table  # noqa: E402


def per_op():
    a = np.ones((3, 3), np.float32)
    x = ms.Tensor(a)
    row = {"numpy": median_time(lambda: np.add(a, a)), "sprout eager": median_time(lambda: x + x)}
    if have("torch"):
        import torch

        t = torch.ones(3, 3)
        row["torch eager"] = median_time(lambda: t + t)
    return row


def seed_cell():
    """W1: the seed Test cell eager (workloads.w1) vs the same six NumPy ops (numpy_ref.w1_prepare)."""
    ref, net = numpy_ref.w1_prepare(), workloads.w1(None)
    assert np.allclose(net.step().asnumpy(), ref.step())
    return {"numpy": median_time(ref.step), "sprout eager": median_time(net.step)}


def mlp_step():
    """The W4 step: hand-written NumPy (numpy_ref) vs sprout eager/jit (workloads.w4), same inputs."""
    row = {"numpy": median_time(numpy_ref.mlp_prepare().step, min_time=0.2)}
    for name, level in (("sprout eager", None), ("sprout jit", "O0")):
        try:
            row[name] = median_time(workloads.w4(level).step, min_time=0.2)
        except Exception as exc:  # a partial sprout must not stop the bench
            print(f"{name}: {type(exc).__name__}: {exc}")
    if have("torch"):
        import peers

        row["torch eager"] = median_time(peers.torch_prepare("W4", False).step, min_time=0.2)
    return row


def main():
    rows = [("per-op add, 3x3 f32", per_op()), ("seed Test cell, ones(3,3)", seed_cell()),
            ("MLP 784-512-512-10 step, batch 64, SGD", mlp_step())]
    print_table("sprout eager vs raw NumPy (median per call; ratio to NumPy from this run)", rows, "numpy")


if __name__ == "__main__":
    main()
