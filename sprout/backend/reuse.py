"""Values generated code makes once per call and reads several times: a transposed copy of a matrix many small
GEMMs multiply by, and a residual one op's kernel hands to a later op (a convolution's im2col columns)."""
from __future__ import annotations

import numpy as np

from ..ir.graph import Graph, Node, Var
from ..ops._scratch import Kept
from ..ops.linalg import MATMUL


def static(t) -> bool:
    return getattr(t, "shape", None) is not None and None not in t.shape


# A matrix that is the transposed right operand (``a @ x.T``) of many GEMMs whose ``a`` has few rows is copied once
# into a C-contiguous ``x.T``: OpenBLAS's NT kernels cost about twice its NN ones there (one thread, AVX-512:
# (16,128)@(128,128) 15.7 us NT against 7.0 NN, (32,400)@(400,120) 64.5 against 41.5; from 128 rows on within 10%)
# and the copy of a 128x128 transpose costs 13 us. W6's backward multiplies by wh.T 49 times per call.
_HOIST_T_USES = 4
_HOIST_T_ROWS = 64


def transposed_copies(graph: Graph, skip: set) -> tuple[dict, set]:
    """({index of the node first using it: [x, ...]}, ids of the MatMul nodes reading the copies) for the matrices
    worth one transposed copy per call; nodes in ``skip`` (fused into an update, or on the worker stream) are left
    as they are."""
    uses: dict[int, list] = {}
    for i, node in enumerate(graph.nodes):
        attrs = node.attrs
        if node.op is not MATMUL or id(node) in skip or not attrs.get("transpose_b") or \
                set(attrs) - {"transpose_a", "transpose_b"}:
            continue
        a, b = node.inputs
        if not (isinstance(a, Var) and isinstance(b, Var) and static(a.type) and static(b.type)):
            continue
        if len(a.type.shape) != 2 or len(b.type.shape) != 2 or b.type.dtype.np not in (np.float32, np.float64):
            continue
        if a.type.shape[1 if attrs.get("transpose_a") else 0] <= _HOIST_T_ROWS:
            uses.setdefault(b.uid, [i, b, []])[2].append(id(node))
    at: dict[int, list] = {}
    users: set[int] = set()
    for i, b, nodes in uses.values():
        if len(nodes) >= _HOIST_T_USES:
            at.setdefault(i, []).append(b)
            users.update(nodes)
    return at, users


# Residuals: an op record may offer a value its kernel makes anyway to a later node of another op that would
# recompute it, ``extra["residual"] = {"consumer": Op, "shared": index of the consumer's input that is the
# producer's, "pair": f(producer, consumer) -> bytes kept or None, "produce": f(*inputs, keep, **attrs) ->
# (output, residual), "consume": f(*other inputs, residual, keep, **attrs)}`` with ``keep`` a ``Kept`` buffer
# reused across calls. Conv2D keeps its im2col columns for the filter gradient of the same input (LeNet's conv2:
# 1.9 MB, saving a ~290 us copy per step). Memory: the residual lives from the forward to the backward.
_KEEP_MAX_BYTES = 16 << 20   # per residual
_KEEP_TOTAL_BYTES = 64 << 20  # per graph


def residual_pairs(graph: Graph, skip: set) -> tuple[dict, dict]:
    """({id of producer node: its spec}, {id of consumer node: producer node}) for the residuals worth keeping
    (no node in ``skip``: the worker stream's)."""
    prods: dict[int, dict] = {}
    cons: dict[int, Node] = {}
    total = 0
    nodes = graph.nodes
    for i, p in enumerate(nodes):
        spec = p.op.extra.get("residual")
        if spec is None or len(p.outputs) != 1 or id(p) in skip:
            continue
        for q in nodes[i + 1:]:
            if q.op is not spec["consumer"] or id(q) in cons or len(q.outputs) != 1 or id(q) in skip:
                continue
            nbytes = spec["pair"](p, q)
            if nbytes is None or nbytes > _KEEP_MAX_BYTES or total + nbytes > _KEEP_TOTAL_BYTES:
                continue
            total += nbytes
            prods[id(p)], cons[id(q)] = spec, p
            break
    return prods, cons


def residual_call(em, node: Node, prods: dict, cons: dict, kept: dict) -> tuple[str, str]:
    """(call, extra names after the output on the left-hand side) of a residual's producer or consumer."""
    attrs = "".join(f", {k}={em.literal(v)}" for k, v in node.attrs.items())
    if id(node) in prods:
        spec = prods[id(node)]
        name, keep = f"k{em.n_var}", em.bind("_kept", Kept())
        em.n_var += 1
        kept[id(node)] = (name, keep)
        args = ", ".join(em.ref(x) for x in node.inputs)
        return f"{em.bind('_produce', spec['produce'])}({args}, {keep}{attrs})", f", {name}"
    p = cons[id(node)]
    spec = p.op.extra["residual"]
    name, keep = kept[id(p)]
    args = "".join(f"{em.ref(x)}, " for k, x in enumerate(node.inputs) if k != spec["shared"])
    return f"{em.bind('_consume', spec['consume'])}({args}{name}, {keep}{attrs})", ""
