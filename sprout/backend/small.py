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
    """A node a small kernel can compute: float output, a scalar form that is not a libm call (a float32
    transcendental with a ``fastmath`` polynomial form qualifies), numeric constants."""
    spec = node.op.fuse
    dt = node.outputs[0].type.dtype.np
    if not spec or dt not in _FLOATS:
        return False
    if spec.transcendental:  # only through its polynomial (sigmoid has no scalar form besides)
        if spec.poly is None or dt != np.float32:
            return False
    elif spec.scalar is None:
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


def source(sub: Graph, into: bool = False) -> str:
    """``kern(i0, i1, ...) -> (o0, ...)``: nested loops over the static output shape; an input broadcast along an
    axis is read at index 0 there. ``into``: ``kern(i0, ..., o0, ...)`` writes arrays the caller passes."""
    shape = tuple(sub.outputs[0].type.shape)
    nd = len(shape)
    idx = [f"p{k}" for k in range(nd)]
    pad = "    " * (nd + 1)
    body = []
    for k, v in enumerate(sub.inputs):
        s = tuple(v.type.shape)
        sel = [idx[nd - len(s) + m] if s[m] != 1 or shape[nd - len(s) + m] == 1 else "0" for m in range(len(s))]
        body.append(f"{pad}a{k} = i{k}[{', '.join(sel)}]")
    lines, consts = scalar_lines(sub, pad, ", ".join(idx), poly=True)
    body += lines
    dt0 = sub.outputs[0].type.dtype.np.name
    head = ["import numpy as np", "import numba", "from numba import types", "", f"_z = np.{dt0}(0)"]
    if any(n.op.fuse.transcendental for n in sub.nodes):
        from .fastmath import helpers_source

        head.append(helpers_source())
    head += [f"{name} = np.{dt}({val!r})" for (dt, val), name in consts.items()]
    # inputs typed read-only: such a signature takes writeable arrays too, at the same speed, and a read-only one
    # (a broadcast_to view, a constant) no longer misses it: W6's backward passed a BroadcastTo view each step, the
    # failed dispatch raised TypeError and the plain code ran, ~300 us per call instead of ~2 us
    # The C-contiguous signature comes first: unit strides let LLVM vectorise the loop (W6's add+add+tanh
    # group, (16, 128) float32: 17.5 us per call typed 'A' only, 2.3 us typed 'C'; NumPy's three calls 3.3-4.9 us).
    def arr(v, layout, ro):
        ro = ", readonly=True" if ro else ""
        return f"types.Array(types.{v.type.dtype.np.name}, {len(v.type.shape)}, '{layout}'{ro})"

    outs = list(sub.outputs) if into else []
    sigs = ["(" + "".join(f"{arr(v, layout, ro)}, " for v in sub.inputs) + "".join(f"{arr(v, layout, False)}, "
                                                                                 for v in outs) + ")"
            for layout, ro in (("C", False), ("A", True))]
    params = ", ".join([f"i{k}" for k in range(len(sub.inputs))] + [f"o{k}" for k in range(len(outs))])
    lines = ["", "", f"@numba.njit([{', '.join(sigs)}], cache=True, error_model='numpy')", f"def kern({params}):"]
    if not into:
        lines += [f"    o{k} = np.empty({shape!r}, np.{o.type.dtype.np.name})" for k, o in enumerate(sub.outputs)]
    lines += ["    " * (k + 1) + f"for p{k} in range({d}):" for k, d in enumerate(shape)]
    lines += body
    if not into:
        lines.append(f"    return ({''.join(f'o{k}, ' for k in range(len(sub.outputs)))})")
    return "\n".join(head + lines) + "\n"


class SmallKernel:
    """Runs the group as plain generated NumPy, then (after ``TIER_UP_CALLS`` calls, when the group is
    ``eligible`` and numba is installed) as one compiled kernel. Both give the same floats for arithmetic: the
    scalar forms are the ufuncs' own IEEE operations, no fast-math. A float32 exp/tanh/sigmoid in the kernel is
    ``fastmath``'s polynomial (<= 1.34 ulp from NumPy's), so from the tier-up on such a group's results may differ
    from the plain code's in the last bits. A call whose argument types the kernel was not compiled for (which the
    graph's types rule out) runs the plain code."""

    def __init__(self, sub: Graph):
        from .pycodegen import generate

        self.sub = sub
        self.plain = generate(sub).function("graph_fn")
        self.calls = 0
        self.fast: Callable | None = None
        self.fast_into: Callable | None | bool = None   # False: failed to load
        self.out_types = [o.type for o in sub.outputs]
        self.source = source(sub) if eligible(sub) else None
        self.tier_up = min(TIER_UP_CALLS, max(1, TIER_UP_DISPATCHES // len(sub.nodes)))

    def into(self, dests: tuple, *args) -> tuple:
        """The outputs, written into ``dests`` (one array or None per output; None: a new array): a concatenation
        the code generator allocated holds the pieces (``backend/concat_dest.py``)."""
        if self.fast is not None and self.source is not None:
            if self.fast_into is None:
                self._load_into()
            outs = tuple(np.empty(t.shape, t.dtype.np) if d is None else d for d, t in zip(dests, self.out_types))
            fast = self.fast_into
            if fast:
                try:
                    fast(*args, *outs)
                    return outs
                except TypeError:  # argument types outside the compiled signatures
                    pass
        res = self(*args)
        for d, r in zip(dests, res):
            if d is not None:
                np.copyto(d, r)
        return tuple(r if d is None else d for d, r in zip(dests, res))

    def _load_into(self) -> None:
        try:
            self.fast_into = load_kernel("s", source(self.sub, into=True))[1]
        except Exception:  # noqa: BLE001 - as in load: the copying path is as correct
            self.fast_into = False
            COUNTERS["numba_failures"] = COUNTERS.get("numba_failures", 0) + 1

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
