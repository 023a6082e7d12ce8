"""Small fused groups as one serial numba kernel over static shapes, loaded once the group has run often enough."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..ir.graph import Const, Graph, Var
from .kernels import COUNTERS, load_kernel, numba_available, scalar_lines

# A group of tiny arrays costs one NumPy dispatch (~0.3-1 us) per op; one numba call costs about one dispatch.
# Loading a kernel costs (CPU, measured for W7b's 200-op chain, load 11): 0.5 s in a process that has not imported
# numba yet with the kernel in the disk cache (import + LLVM start-up), 1.0 s when it must also be compiled; a
# kernel compiled in a process that already runs numba costs ~0.1-0.5 s, loaded from the cache ~10 ms. So a
# group runs as plain NumPy (the code O0 generates) for its first TIER_UP_CALLS calls and only then loads its
# kernel: a graph called that often is a training or inference loop that repays the one-off cost (W7b saves
# ~130 us per call), and a script calling a graph a few hundred times never imports numba for it. The same
# threshold as the optimizer's numba loops (ops/_lazy_numba.py IMPORT_AFTER). A group of many ops saves more per
# call, so it tiers up once its calls have made TIER_UP_DISPATCHES NumPy dispatches, if that comes first (W7b's
# 200-op chain after 100 calls, ~14 ms of plain calls; W1's 6-op cell after 1000).
TIER_UP_CALLS = 1000
TIER_UP_DISPATCHES = 20000

_FLOATS = (np.float32, np.float64)


def node_ok(node) -> bool:
    """A node a small kernel can compute: float output, a non-transcendental scalar form, numeric constants."""
    spec = node.op.fuse
    if not spec or spec.scalar is None or spec.transcendental or node.outputs[0].type.dtype.np not in _FLOATS:
        return False
    return not any(isinstance(x, Const) and (isinstance(x.value, bool) or not isinstance(x.value, (int, float)))
                   for x in node.inputs)


def eligible(sub: Graph) -> bool:
    """Every value a float32/float64 array of static shape with at least one axis, every input broadcastable
    to the group's shape, every op with a scalar form (``FuseSpec.scalar``), no transcendental (numba's
    scalar libm calls lose to NumPy's SIMD ones), numeric constants only."""
    if not sub.outputs or not sub.nodes or any(not isinstance(o, Var) for o in sub.outputs):
        return False
    shape = sub.outputs[0].type.shape
    if shape is None or len(shape) == 0 or None in shape:
        return False
    for v in list(sub.inputs) + [n.outputs[0] for n in sub.nodes]:
        t = v.type
        if getattr(t, "shape", None) is None or None in t.shape or t.dtype.np not in _FLOATS:
            return False
    if any(tuple(n.outputs[0].type.shape) != tuple(shape) for n in sub.nodes):
        return False
    for v in sub.inputs:
        s = tuple(v.type.shape)
        if not 1 <= len(s) <= len(shape) or any(a not in (1, b) for a, b in zip(s, shape[len(shape) - len(s):])):
            return False
    return all(node_ok(node) for node in sub.nodes)


def source(sub: Graph) -> str:
    """``kern(i0, i1, ...) -> (o0, ...)``: nested loops over the static output shape; an input broadcast along an
    axis is read at index 0 there."""
    shape = tuple(sub.outputs[0].type.shape)
    nd = len(shape)
    idx = [f"p{k}" for k in range(nd)]
    pad = "    " * (nd + 1)
    body = []
    for k, v in enumerate(sub.inputs):
        s = tuple(v.type.shape)
        sel = [idx[nd - len(s) + m] if s[m] != 1 or shape[nd - len(s) + m] == 1 else "0" for m in range(len(s))]
        body.append(f"{pad}a{k} = i{k}[{', '.join(sel)}]")
    lines, consts = scalar_lines(sub, pad, ", ".join(idx))
    body += lines
    dt0 = sub.outputs[0].type.dtype.np.name
    head = ["import numpy as np", "import numba", "from numba import types", "", f"_z = np.{dt0}(0)"]
    head += [f"{name} = np.{dt}({val!r})" for (dt, val), name in consts.items()]
    # inputs typed read-only: such a signature takes writeable arrays too, at the same speed, and a read-only one
    # (a broadcast_to view, a constant) no longer misses it: W6's backward passed a BroadcastTo view each step, the
    # failed dispatch raised TypeError and the plain code ran, ~300 us per call instead of ~2 us
    sig = ", ".join(f"types.Array(types.{v.type.dtype.np.name}, {len(v.type.shape)}, 'A', readonly=True)"
                    for v in sub.inputs)
    params = ", ".join(f"i{k}" for k in range(len(sub.inputs)))
    lines = ["", "", f"@numba.njit(({sig},), cache=True, error_model='numpy')", f"def kern({params}):"]
    lines += [f"    o{k} = np.empty({shape!r}, np.{o.type.dtype.np.name})" for k, o in enumerate(sub.outputs)]
    lines += ["    " * (k + 1) + f"for p{k} in range({d}):" for k, d in enumerate(shape)]
    lines += body
    lines.append(f"    return ({''.join(f'o{k}, ' for k in range(len(sub.outputs)))})")
    return "\n".join(head + lines) + "\n"


class SmallKernel:
    """Runs the group as plain generated NumPy, then (after ``TIER_UP_CALLS`` calls, when the group is
    ``eligible`` and numba is installed) as one compiled kernel. Both give the same floats: the scalar forms
    are the ufuncs' own IEEE operations, no fast-math. A call whose argument types the kernel was not compiled
    for (which the graph's types rule out) runs the plain code."""

    def __init__(self, sub: Graph):
        from .pycodegen import generate

        self.sub = sub
        self.plain = generate(sub).function("graph_fn")
        self.calls = 0
        self.fast: Callable | None = None
        self.source = source(sub) if eligible(sub) else None
        self.tier_up = min(TIER_UP_CALLS, max(1, TIER_UP_DISPATCHES // len(sub.nodes)))

    def __call__(self, *args):
        fast = self.fast
        if fast is not None:
            try:
                return fast(*args)
            except TypeError:  # argument types outside the compiled signature
                return self.plain(*args)
        if self.source is not None:
            self.calls += 1
            if self.calls > self.tier_up:
                self.load()
                if self.fast is not None:
                    return self(*args)
        return self.plain(*args)

    def load(self) -> None:
        """Compile (or load from the disk cache) the kernel now; without numba the plain code stays."""
        if self.source is None or self.fast is not None:
            return
        if not numba_available():
            self.source = None
            return
        import time

        t = time.perf_counter()
        try:
            self.fast = load_kernel("s", self.source)[1]
        except Exception:  # noqa: BLE001 - e.g. an unreadable disk cache: the plain code is as correct, keep it
            self.source = None
            COUNTERS["numba_failures"] = COUNTERS.get("numba_failures", 0) + 1
            return
        COUNTERS["numba_compiles"] += 1
        COUNTERS["numba_seconds"] += time.perf_counter() - t
