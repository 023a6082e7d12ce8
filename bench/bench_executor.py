"""Executor levers of issue 13, measured before building them: (a) inter-op threading of independent graph
nodes (W4's backward: each layer's data- and weight-gradient GEMMs; W6's per-step GEMM pair) on a second
thread, with BLAS at 1 thread and at its default; (b) buffers kept across calls for intermediates that
do not escape (W4's jitted step with its GEMM / sign results written into persistent buffers, and a 4M
float32 chain whose first result is kept). Medians sampled round-robin in one process, with the load.
Run: python bench/bench_executor.py [--only interop,buffers] [--min-time 0.3]"""
from __future__ import annotations

import argparse
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))
sys.path.insert(0, _HERE)

import sprout as ms  # noqa: E402
import numpy_ref as ref  # noqa: E402
import workloads  # noqa: E402
from bench_perf import _interleaved  # noqa: E402


def _blas_limit(n):
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(n, "blas")


def _report(title: str, times: dict, base: str) -> None:
    print(f"\n{title}")
    for name, t in times.items():
        print(f"  {name:<44} {t * 1e6:10.1f} us   x{t / times[base]:.3f}")


# ---- (a) inter-op threading -------------------------------------------------------------------------
def _gemm_pairs(shapes: list) -> tuple:
    """(sequential, two-thread) runners of dx = d @ w and dw = d.T @ a for each (batch, in, out)."""
    rng = np.random.default_rng(0)
    data = [(rng.standard_normal((b, i), dtype=np.float32), rng.standard_normal((o, i), dtype=np.float32),
             rng.standard_normal((b, o), dtype=np.float32)) for b, i, o in shapes]
    pool = ThreadPoolExecutor(1)

    def seq():
        for a, w, d in data:
            d @ w
            d.T @ a

    def par():
        for a, w, d in data:
            f = pool.submit(np.matmul, d.T, a)
            d @ w
            f.result()

    return seq, par


def interop(min_time: float) -> None:
    for title, shapes in (("W4 backward GEMM pairs (b64, 784-512-512-10)", [(64, 784, 512), (64, 512, 512),
                                                                            (64, 512, 10)]),
                          ("W6 step GEMM pair x50 (b16, h128)", [(16, 128, 128)] * 50)):
        seq, par = _gemm_pairs(shapes)
        steps = {"sequential, BLAS default threads": seq}
        times = _interleaved(steps, min_time)
        lim = _blas_limit(1)
        if lim is None:
            print("threadpoolctl is not installed: BLAS threads cannot be limited in-process")
        else:
            with lim:
                times.update(_interleaved({"sequential, BLAS 1 thread": seq, "two threads, BLAS 1 thread": par},
                                          min_time))
        _report(title, times, "sequential, BLAS default threads")


# ---- (b) buffers kept across calls ------------------------------------------------------------------------
def _kept_buffers(gen) -> tuple:
    """The generated W4 entry rewritten so each GEMM and sign result goes into a buffer made by the first
    call and reused by later ones (none of them escapes: the step returns only the loss)."""
    ns = dict(gen.namespace)
    lines, k = [], 0
    for ln in gen.source.splitlines():
        m = re.match(r"(\s+)(v\d+) = (\w+) @ (\S+)", ln) or re.match(r"(\s+)(v\d+) = _np\.(sign)\((\w+)\)", ln)
        if m:
            ind, v, a, b = m.groups()
            call = f"_np.sign({b}" if a == "sign" else f"_np.matmul({a}, {b}"
            lines.append(f"{ind}{v} = {call}, out=_B[{k}]) if _B[{k}] is not None else {call})")
            lines.append(f"{ind}_B[{k}] = {v}")
            k += 1
        elif not ln.strip().startswith("del "):
            lines.append(ln)
    ns["_B"] = [None] * k
    exec(compile("\n".join(lines).replace("def entry", "def kept"), "<kept>", "exec"), ns)  # noqa: S102
    return ns["kept"], k


def buffers(min_time: float) -> None:
    x, y, params = ref.mlp_data()
    net = workloads.mlp_net()
    step = workloads._train_step(net, params, "O1")
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    step(xt, yt)
    gen = step.explain(xt, yt).executable.gen
    plain = gen.function("entry")
    kept, k = _kept_buffers(gen)
    runs = {"generated entry": lambda: plain(xt, yt), f"{k} intermediates kept across calls": lambda: kept(xt, yt)}
    lim = _blas_limit(1)
    if lim is not None:
        with lim:
            _report("W4 jitted step (BLAS 1 thread)", _interleaved(runs, min_time), "generated entry")
    else:
        _report("W4 jitted step", _interleaved(runs, min_time), "generated entry")

    a = np.random.default_rng(0).random(4 << 20, dtype=np.float32)
    b = a.copy()
    keep = np.empty_like(a)

    def today():  # what codegen emits for an unfused chain: a fresh first result, then out= into it
        v = a * b
        for _ in range(6):
            v = np.multiply(v, b, out=v)

    def kept_first():
        v = np.multiply(a, b, out=keep)
        for _ in range(6):
            v = np.multiply(v, b, out=v)

    _report("7-op chain, 4M float32", _interleaved({"generated (fresh first result)": today,
                                                     "first result kept across calls": kept_first}, min_time),
            "generated (fresh first result)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="interop,buffers")
    p.add_argument("--min-time", type=float, default=0.3)
    opts = p.parse_args()
    print("load:", os.getloadavg(), "cores:", os.cpu_count())
    for name in opts.only.split(","):
        {"interop": interop, "buffers": buffers}[name](opts.min_time)
    print("\nload:", os.getloadavg())


if __name__ == "__main__":
    main()
