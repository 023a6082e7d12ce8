"""PIJit figures (medians, one run so the ratios share the machine's load): per-call cost of a function with
no break vs eager and AST capture, one guard check, a one-break function vs eager, first-call capture+compile
vs AST capture. Run: ``python bench/bench_pijit.py`` (``--quick`` for fewer repeats)."""
import os
import statistics
import sys
import time

# one BLAS thread unless told otherwise: on the shared 2-core machine, idle BLAS threads waking up under load
# cost tens of ms at random and drown the ratios measured here (set BENCH_THREADS to change)
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, os.environ.get("BENCH_THREADS", "1"))

import numpy as np  # noqa: E402

import sprout as ms  # noqa: E402
from sprout import ops  # noqa: E402
from sprout.capture.bytecode import compile_bytecode  # noqa: E402
from sprout.capture.bytecode import runtime as rt_mod  # noqa: E402


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


def no_break_twin(x, w):
    """``one_break`` with the host value computed by tensor ops: what AST capture compiles."""
    h = ops.tanh(ops.matmul(x, w))
    for _ in range(4):
        h = ops.tanh(ops.matmul(h, w)) + h
    scale = ops.abs(h).max()
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


def interleaved(fns: dict, args, number: int, repeat: int) -> dict:
    """Medians of several callables measured in alternation (load changes hit them alike)."""
    times = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            for _ in range(number):
                fn(*args)
            times[k].append((time.perf_counter() - t0) / number)
    return {k: statistics.median(v) * 1e6 for k, v in times.items()}


def first_call(make, args, repeat=7) -> float:
    times = []
    for _ in range(repeat):
        rt_mod._RUNTIMES.clear()
        f = make()
        t0 = time.process_time()  # CPU time of this process: other processes' load does not count
        f(*args)
        times.append(time.process_time() - t0)
    return statistics.median(times) * 1e3


def first_calls(fn, args, repeat=7, ast=True) -> dict:
    """First call (capture + compile) under AST capture and PIJit, alternated."""
    out = {"ast": [], "pijit": []} if ast else {"pijit": []}
    for _ in range(repeat):
        if ast:
            out["ast"].append(first_call(lambda: ms.jit(fn), args, 1))
        out["pijit"].append(first_call(lambda: compile_bytecode(fn), args, 1))
    return {k: statistics.median(v) for k, v in out.items()}


def main(quick: bool = False) -> None:
    rep = 3 if quick else 9
    x, y, z = ops.ones((2, 3)), ops.ones((3, 4)), ops.ones((2, 4))
    cell = compile_bytecode(seed_cell)
    ast_cell = ms.jit(seed_cell)
    cell(x, y, z)
    ast_cell(x, y, z)
    seed = interleaved({"eager": seed_cell, "ast": ast_cell, "pijit": cell}, (x, y, z), 2000, rep)
    tc, ast_tc = compile_bytecode(seed_tensor_cal), ms.jit(seed_tensor_cal)
    tc()
    ast_tc()
    consts = interleaved({"ast": ast_tc, "pijit": tc}, (), 2000, rep)
    entry = cell.rt.first[0]
    guard = per_call(entry.check, ([x, y, z], []), number=20000, repeat=rep)

    xb = ms.Tensor(np.random.default_rng(0).standard_normal((64, 128)).astype(np.float32) * 0.1)
    wb = ms.Tensor(np.random.default_rng(1).standard_normal((128, 128)).astype(np.float32) * 0.1)
    ob = compile_bytecode(one_break)
    ob(xb, wb)
    ast_twin = ms.jit(no_break_twin)
    ast_twin(xb, wb)
    brk = interleaved({"eager": one_break, "pijit": ob, "ast (no-break twin)": ast_twin}, (xb, wb), 100, rep)
    fc_seed = first_calls(seed_cell, (x, y, z), rep)
    fc_brk = first_calls(one_break, (xb, wb), rep, ast=False)
    fc_twin = first_calls(no_break_twin, (xb, wb), rep)

    print("per call (us)")
    for k, v in seed.items():
        print(f"  seed cell matmul(x,y)+z, {k:<24} {v:9.2f}")
    print(f"  -> PIJit / AST = {seed['pijit'] / seed['ast']:.2f} (target <= 1.5; seed cell <= 12 us)")
    for k, v in consts.items():
        print(f"  seed tensor_cal (constants), {k:<20} {v:9.2f}")
    print(f"  one guard check (3 tensors + 1 global)          {guard:9.2f}   (target <= 2 us)")
    for k, v in brk.items():
        print(f"  one-break fn (64x128, 18 ops), {k:<18} {v:9.2f}")
    print(f"  -> PIJit / eager = {brk['pijit'] / brk['eager']:.2f} (target <= 1.0)")
    print("first call, capture + compile (ms)")
    for name, fc in (("seed cell", fc_seed), ("no-break twin", fc_twin)):
        print(f"  {name:<18} AST {fc['ast']:8.2f}   PIJit {fc['pijit']:8.2f}   ratio {fc['pijit'] / fc['ast']:.2f}")
    print(f"  one-break fn       AST  refused   PIJit {fc_brk['pijit']:8.2f}")
    print(f"  -> one-break fn under PIJit / its twin under AST = {fc_brk['pijit'] / fc_twin['ast']:.2f} "
          "(target <= 2)")


if __name__ == "__main__":
    main("--quick" in sys.argv)
