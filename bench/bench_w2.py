"""W2 (small eager ops) micro-benchmark: sprout's per-op cost against hand-written NumPy and the floor of a Python
tensor class. Run: python bench/bench_w2.py [--rounds 15] [--floor]

Each round times the W2 loop (500 x ``y = y * c; y = y + d`` on 3x3 float32) as NumPy, as sprout eager and (with
``--floor``) as the thinnest Python tensor class (``__slots__``, an operator that calls the same ufunc and wraps
the result in a new object), in turn, so the contestants share the machine's load; medians of per-op wall time
(``time.perf_counter``) and process CPU time over the rounds, and the median of the per-round ratios. The sprout
imported is the first on ``sys.path``: ``PYTHONPATH=<a checkout> python bench/bench_w2.py`` measures that
checkout (how a bisect runs it at older commits)."""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # after PYTHONPATH: see above

import sprout as ms  # noqa: E402

PAIRS = 500


def data():
    """The same operands as bench/numpy_ref.w2_data (kept here so older checkouts can be measured)."""
    rng = np.random.default_rng([20240601, 2])
    x = np.ones((3, 3), np.float32)
    c = (0.5 + 0.4 * rng.random((3, 3), dtype=np.float32)).astype(np.float32)
    d = rng.random((3, 3), dtype=np.float32)
    return x, c, d


class Thin:
    """The floor: a Python tensor class whose operators only call NumPy and wrap the result."""

    __slots__ = ("_data",)

    def __mul__(self, other):
        t = object.__new__(Thin)
        t._data = np.multiply(self._data, other._data)
        return t

    def __add__(self, other):
        t = object.__new__(Thin)
        t._data = np.add(self._data, other._data)
        return t


def thin(a, cls=Thin):
    t = object.__new__(cls)
    t._data = a
    return t


# --breakdown: the floor with sprout's fast-path checks added one at a time (each line is what
# ops/_binary_call.py does per call); the difference between consecutive rows is what that check costs.
STEPS = [  # (label, where in TEMPLATE, lines)
    ("floor, as generated", "pre", []),
    ("+ __weakref__ slot", "pre", []),
    ("+ operand class tests", "pre", ["ic = self.__class__",
                                      "if ic is not Cls and ic is not Sub: return NotImplemented",
                                      "oc = other.__class__",
                                      "if oc is not Cls and oc is not Sub: return NotImplemented"]),
    ("+ same-dtype test", "mid", ["if a.dtype is not b.dtype: return NotImplemented"]),
    ("+ eager flag read", "mid", ["if flags.checked: return NotImplemented"]),
    ("+ 0-d result test", "post", ["if out.__class__ is not ndarray: out = asarray(out)"]),
]
TEMPLATE = """
def op(self, other):
    {pre}
    a, b = self._data, other._data
    {mid}
    out = uf(a, b)
    {post}
    t = new(Cls)
    t._data = out
    return t
"""


def breakdown_classes() -> list[tuple[str, type]]:
    """One class per row of STEPS, each with the checks of the rows above it."""
    import types

    out = []
    parts: dict[str, list[str]] = {"pre": [], "mid": [], "post": []}
    flags = types.ModuleType("flags")  # read as sprout reads dispatch._checked: a module attribute
    flags.checked = False
    for k, (label, where, extra) in enumerate(STEPS):
        parts[where] = parts[where] + extra
        cls = type(f"Step{k}", (), {"__slots__": ("_data", "__weakref__") if k else ("_data",)})
        for name, uf in (("__mul__", np.multiply), ("__add__", np.add)):
            env = {"Cls": cls, "Sub": types.SimpleNamespace, "flags": flags, "uf": uf, "ndarray": np.ndarray,
                   "asarray": np.asarray, "new": object.__new__}
            text = {w: "\n    ".join(v) or "pass" for w, v in parts.items()}
            exec(TEMPLATE.format(**text), env)  # noqa: S102 - generated from the constant template above
            setattr(cls, name, env["op"])
        out.append((label, cls))
    return out


def loop(x, c, d):
    y = x
    for _ in range(PAIRS):
        y = y * c
        y = y + d
    return y


def timed(fn, args, number):
    w0, c0 = time.perf_counter(), time.process_time()
    for _ in range(number):
        fn(*args)
    w1, c1 = time.perf_counter(), time.process_time()
    per = number * 2 * PAIRS
    return (w1 - w0) / per, (c1 - c0) / per


def count(args_) -> tuple[float, float, float]:
    """Per op: Python function calls, C function calls and bytecode instructions executed (deterministic, unlike
    a timing: what a bisect over commits compares when the machine is too noisy for medians)."""
    calls = {"call": 0, "c_call": 0, "opcode": 0}

    def prof(frame, event, arg):
        if event in calls:
            calls[event] += 1

    def trace(frame, event, arg):
        frame.f_trace_opcodes = True
        if event == "opcode":
            calls["opcode"] += 1
        return trace

    sys.setprofile(prof)
    try:
        loop(*args_)
    finally:
        sys.setprofile(None)
    sys.settrace(trace)
    try:
        loop(*args_)
    finally:
        sys.settrace(None)
    n = 2 * PAIRS
    return calls["call"] / n, calls["c_call"] / n, calls["opcode"] / n


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--number", type=int, default=40, help="W2 loops per sample (1000 ops each)")
    p.add_argument("--floor", action="store_true", help="also time the thinnest Python tensor class")
    p.add_argument("--breakdown", action="store_true", help="also time the floor plus each fast-path check")
    p.add_argument("--count", action="store_true", help="only count Python calls and bytecodes per op")
    args = p.parse_args(argv)
    x, c, d = data()
    contestants = {"numpy": (x, c, d), "sprout": tuple(ms.Tensor(a) for a in (x, c, d))}
    if args.floor:
        contestants["floor"] = tuple(thin(a) for a in (x, c, d))
    if args.breakdown:
        for label, cls in breakdown_classes():
            contestants[label] = tuple(thin(a, cls) for a in (x, c, d))
    got = np.asarray(loop(*contestants["sprout"]).asnumpy())
    assert np.allclose(got, loop(x, c, d), rtol=1e-5), "sprout's W2 result differs from NumPy's"
    if args.count:
        for k, v in contestants.items():
            py, cc, ops = count(v)
            print(f"  {k:28s} per op: {py:.2f} Python calls, {cc:.2f} C calls, {ops:.1f} bytecodes")
        return
    for v in contestants.values():  # warm up
        timed(loop, v, 2)
    wall = {k: [] for k in contestants}
    cpu = {k: [] for k in contestants}
    for r in range(args.rounds):
        names = list(contestants)
        if r % 2:
            names.reverse()
        for k in names:
            w, cp = timed(loop, contestants[k], args.number)
            wall[k].append(w)
            cpu[k].append(cp)
    load = os.getloadavg()[0]
    print(f"W2 per op, {args.rounds} rounds x {args.number} x 1000 ops, load {load:.2f}")
    for k in contestants:
        ratio_w = statistics.median(a / b for a, b in zip(wall[k], wall["numpy"]))
        ratio_c = statistics.median(a / b for a, b in zip(cpu[k], cpu["numpy"]))
        ratio_min = min(cpu[k]) / min(cpu["numpy"])
        print(f"  {k:28s} wall {statistics.median(wall[k]) * 1e9:7.1f} ns  cpu {statistics.median(cpu[k]) * 1e9:7.1f}"
              f" ns (min {min(cpu[k]) * 1e9:6.1f})  ratio wall {ratio_w:.3f}x  cpu {ratio_c:.3f}x"
              f"  min cpu {ratio_min:.3f}x")


if __name__ == "__main__":
    main()
