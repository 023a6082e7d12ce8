"""PIJit figures (medians): seed cell per call, one guard check, a one-break function vs eager,
first-call capture time. Run: ``python bench/bench_pijit.py``."""
import statistics
import time

import numpy as np

import sprout as ms
from sprout import ops
from sprout.capture.bytecode import compile_bytecode
from sprout.capture.bytecode import runtime as rt_mod


def seed_cell(x, y, z):
    return ops.matmul(x, y) + z


def seed_tensor_cal():
    return ops.matmul(ops.ones((2, 3)), ops.ones((3, 4))) + ops.ones((2, 4))


def one_break(x, w):
    h = ops.tanh(ops.matmul(x, w))
    for _ in range(4):
        h = ops.tanh(ops.matmul(h, w)) + h
    scale = float(np.abs(h.asnumpy()).max())   # graph break: host value
    h = h / scale
    for _ in range(4):
        h = ops.tanh(ops.matmul(h, w)) * 0.5 + h
    return h.sum()


def per_call(fn, args, number=2000, repeat=7) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn(*args)
        times.append((time.perf_counter() - t0) / number)
    return statistics.median(times) * 1e6


def first_call(fn, args, repeat=7) -> float:
    times = []
    for _ in range(repeat):
        rt_mod._RUNTIMES.clear()
        f = compile_bytecode(fn)
        t0 = time.perf_counter()
        f(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def main() -> None:
    x, y, z = ops.ones((2, 3)), ops.ones((3, 4)), ops.ones((2, 4))
    cell = compile_bytecode(seed_cell)
    cell(x, y, z)
    tc = compile_bytecode(seed_tensor_cal)
    tc()
    entry = cell.rt.first[0]
    L = [x, y, z]
    rows = [
        ("seed cell matmul(x,y)+z, eager", per_call(seed_cell, (x, y, z))),
        ("seed cell, PIJit (per call)", per_call(cell, (x, y, z))),
        ("seed tensor_cal (all constants), PIJit", per_call(tc, ())),
        ("one guard check (3 tensors + 1 global)", per_call(entry.check, (L, []), number=20000)),
    ]
    xb = ms.Tensor(np.random.default_rng(0).standard_normal((64, 128)).astype(np.float32) * 0.1)
    wb = ms.Tensor(np.random.default_rng(1).standard_normal((128, 128)).astype(np.float32) * 0.1)
    ob = compile_bytecode(one_break)
    ob(xb, wb)
    rows += [
        ("one-break function (64x128, 18 ops), eager", per_call(one_break, (xb, wb), number=200)),
        ("one-break function, PIJit", per_call(ob, (xb, wb), number=200)),
    ]
    firsts = [
        ("first call (capture+compile), seed cell", first_call(seed_cell, (x, y, z))),
        ("first call (capture+compile), one-break function", first_call(one_break, (xb, wb))),
    ]
    for name, us in rows:
        print(f"{name:<48} {us:9.2f} us")
    for name, ms_ in firsts:
        print(f"{name:<48} {ms_:9.2f} ms")


if __name__ == "__main__":
    main()
