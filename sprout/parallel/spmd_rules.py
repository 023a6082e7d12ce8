"""Per-op SPMD rules: given a node of the global graph, its inputs' local values and layouts (and the node's
``Primitive.shard`` strategy, if any), emit the rank's local computation and say the outputs' layouts."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.dispatch import bind
from ..core.types import TensorType
from ..ir.effects import is_io_op, node_writes
from ..ops import functional as F
from ..ops.comm_ops import all_reduce
from .spmd_layout import Mesh, ShardError, TensorLayout, layouts_of_device_matrix, redistribute


@dataclass
class Val:
    """One value on this rank: its local tensor (or a Python constant), its layout and its global type."""

    local: Any
    layout: TensorLayout | None
    type: Any
    param: Any = None  # the Parameter this value is (before any op)

    @property
    def is_tensor(self) -> bool:
        return isinstance(self.type, TensorType)


def _what(node, strategy) -> str:
    return f"{node.op.name}" + (f" with strategy {strategy}" if strategy is not None else "")


def _resolved(mesh: Mesh, v: Val) -> Val:
    if v.is_tensor and v.layout.partial:
        return Val(redistribute(mesh, v.local, v.layout, v.layout.without_partial()), v.layout.without_partial(),
                   v.type)
    return v


def _to(mesh: Mesh, v: Val, dst: TensorLayout) -> Any:
    if v.param is not None and id(v.param) not in mesh.param_used:  # a parameter's layout: where it is first used
        mesh.param_used[id(v.param)] = dst.without_partial()
    return redistribute(mesh, v.local, v.layout, dst) if v.is_tensor else v.local


def _locals_replicated(mesh: Mesh, ins: list) -> list:
    return [_to(mesh, v, TensorLayout.replicated(len(v.type.shape))) if v.is_tensor else v.local for v in ins]


def _emit(node, args: list, attrs: dict | None = None) -> list:
    out = bind(node.op, tuple(args), node.attrs if attrs is None else attrs)
    return list(out) if node.op.n_out != 1 else [out]


# ---- the rules -------------------------------------------------------------------------------------------------
def replicated_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """Every input gathered; the op runs on whole tensors on every rank (correct for any op, no speed-up)."""
    if strategy is not None and any(k != 1 for s in strategy for k in s):
        raise ShardError(f"shard: {_what(node, strategy)} is not supported by sprout's SPMD pass (the op has no "
                         "sharding rule; it can only run unsplit: give a strategy of all 1s or none)")
    outs = _emit(node, _locals_replicated(mesh, ins))
    return [(o, TensorLayout.replicated(len(v.type.shape)) if isinstance(v.type, TensorType) else None)
            for o, v in zip(outs, node.outputs)]


def elementwise_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    out_shape = node.outputs[0].type.shape
    nd = len(out_shape)
    tensors = [v for v in ins if v.is_tensor]
    if strategy is not None:
        if len(strategy) != len(tensors):
            raise ShardError(f"shard: {_what(node, strategy)}: {len(strategy)} strategies for {len(tensors)} inputs")
        entries = [[nd - len(v.type.shape) + d if v.type.shape[d] == out_shape[nd - len(v.type.shape) + d] else -1
                    for d in range(len(v.type.shape))] for v in tensors]
        layouts = layouts_of_device_matrix(mesh, list(strategy), entries, [v.type.shape for v in tensors],
                                           f"shard: {node.op.name}")
        out_dims = [()] * nd
        for lay, ents in zip(layouts, entries):
            for axes, e in zip(lay.dims, ents):
                if e >= 0 and axes:
                    out_dims[e] = axes
    else:
        out_dims, used = [()] * nd, set()
        for v in tensors:
            off = nd - len(v.type.shape)
            for d, axes in enumerate(v.layout.dims):
                if axes and not out_dims[off + d] and v.type.shape[d] == out_shape[off + d] and not used & set(axes):
                    out_dims[off + d] = axes
                    used |= set(axes)
    out = TensorLayout(tuple(out_dims))
    args = []
    for v in ins:
        if not v.is_tensor:
            args.append(v.local)
            continue
        off = nd - len(v.type.shape)
        dst = TensorLayout(tuple(out_dims[off + d] if v.type.shape[d] == out_shape[off + d] else ()
                                 for d in range(len(v.type.shape))))
        args.append(_to(mesh, v, dst))
    return [(o, out) for o in _emit(node, args)]


def matmul_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    a, b = ins
    if not (a.is_tensor and b.is_tensor) or len(a.type.shape) < 2 or len(b.type.shape) < 2 or \
            len(b.type.shape) not in (2, len(a.type.shape)):
        return replicated_rule(mesh, node, ins, strategy)
    ta, tb = node.attrs.get("transpose_a", False), node.attrs.get("transpose_b", False)
    nb = len(a.type.shape) - 2
    m_e, k_e, n_e = nb, nb + 1, nb + 2
    ea = list(range(nb)) + ([k_e, m_e] if ta else [m_e, k_e])
    eb = (list(range(nb)) if len(b.type.shape) > 2 else []) + ([n_e, k_e] if tb else [k_e, n_e])
    pos_a = {e: d for d, e in enumerate(ea)}
    pos_b = {e: d for d, e in enumerate(eb)}
    if strategy is not None:
        if len(strategy) != 2:
            raise ShardError(f"shard: {_what(node, strategy)}: MatMul takes one strategy per input (two)")
        la, lb = layouts_of_device_matrix(mesh, list(strategy), [ea, eb], [a.type.shape, b.type.shape],
                                          f"shard: {node.op.name}")
    else:
        ra, rb = a.layout.without_partial(), b.layout.without_partial()
        batch = [ra.dims[d] for d in range(nb)]
        m_axes, k_axes = ra.dims[pos_a[m_e]], ra.dims[pos_a[k_e]]
        used = {x for axes in batch for x in axes} | set(m_axes) | set(k_axes)
        if not k_axes and rb.dims[pos_b[k_e]] and not used & set(rb.dims[pos_b[k_e]]):
            k_axes = rb.dims[pos_b[k_e]]
            used |= set(k_axes)
        n_axes = rb.dims[pos_b[n_e]]
        if used & set(n_axes):
            n_axes = ()
        axes_of = {m_e: m_axes, k_e: k_axes, n_e: n_axes, **{i: batch[i] for i in range(nb)}}
        la = TensorLayout(tuple(axes_of[e] for e in ea))
        lb = TensorLayout(tuple(axes_of[e] for e in eb))
    k_axes = la.dims[pos_a[k_e]]
    if lb.dims[pos_b[k_e]] != k_axes:
        raise ShardError(f"shard: {_what(node, strategy)}: the contracting dimension is split differently in the "
                         "two inputs")
    out = TensorLayout(tuple(la.dims[pos_a[e]] for e in range(nb)) + (la.dims[pos_a[m_e]], lb.dims[pos_b[n_e]]),
                       tuple(sorted(k_axes)))
    (o,) = _emit(node, [_to(mesh, a, la), _to(mesh, b, lb)])
    return [(o, out)]


def _norm_axes(axis, ndim: int) -> tuple:
    if axis is None or axis == ():
        return tuple(range(ndim))
    axis = axis if isinstance(axis, (tuple, list)) else (axis,)
    return tuple(sorted(a % ndim for a in axis))


def reduce_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    name = node.op.name
    x = ins[0]
    if name not in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "Argmax", "Argmin"):
        return replicated_rule(mesh, node, ins, strategy)
    ndim = len(x.type.shape)
    if strategy is not None:
        if len(strategy) != 1:
            raise ShardError(f"shard: {_what(node, strategy)}: one strategy (for the input) expected")
        lx = layouts_of_device_matrix(mesh, [strategy[0]], [list(range(ndim))], [x.type.shape],
                                      f"shard: {name}")[0]
    else:
        lx = x.layout.without_partial()
    axes = _norm_axes(node.attrs.get("axis", ()), ndim)
    split = tuple(sorted(a for d in axes for a in lx.dims[d]))
    if split and name in ("ReduceProd", "Argmax", "Argmin"):
        raise ShardError(f"shard: {_what(node, strategy)}: reducing over a split dimension is not supported for "
                         f"{name} (split dims {[d for d in axes if lx.dims[d]]})")
    keep = node.attrs.get("keep_dims", False)
    out_dims = tuple((() if d in axes else lx.dims[d]) for d in range(ndim) if keep or d not in axes)
    (o,) = _emit(node, [_to(mesh, x, lx)] + [v.local for v in ins[1:]])
    if not split:
        return [(o, TensorLayout(out_dims))]
    if name == "ReduceSum":
        return [(o, TensorLayout(out_dims, split))]
    if name == "ReduceMean":
        return [(o * (1.0 / mesh.size(split)), TensorLayout(out_dims, split))]
    return [(all_reduce(o, "max" if name == "ReduceMax" else "min", mesh.group(split)), TensorLayout(out_dims))]


def transpose_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    if strategy is not None:
        return replicated_rule(mesh, node, ins, strategy)
    x = _resolved(mesh, ins[0])
    perm = node.attrs["perm"]
    (o,) = _emit(node, [x.local])
    return [(o, TensorLayout(tuple(x.layout.dims[p] for p in perm)))]


def expand_dims_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    if strategy is not None:
        return replicated_rule(mesh, node, ins, strategy)
    x = _resolved(mesh, ins[0])
    out_nd = len(node.outputs[0].type.shape)
    axis = node.attrs["axis"] % out_nd
    dims = list(x.layout.dims)
    dims.insert(axis, ())
    (o,) = _emit(node, [x.local])
    return [(o, TensorLayout(tuple(dims)))]


def squeeze_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    if strategy is not None:
        return replicated_rule(mesh, node, ins, strategy)
    x = _resolved(mesh, ins[0])
    shape = x.type.shape
    axis = node.attrs.get("axis", ())
    axis = (axis,) if isinstance(axis, int) else tuple(axis)
    gone = {a % len(shape) for a in axis} if axis else {d for d, s in enumerate(shape) if s == 1}
    (o,) = _emit(node, [x.local])
    return [(o, TensorLayout(tuple(a for d, a in enumerate(x.layout.dims) if d not in gone)))]


def gather_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """Gather(params, indices, axis): the gathered dim of params whole, its other dims and every dim of the indices
    keep their splits (an embedding lookup with batch-split ids and a replicated or hidden-split table)."""
    params, indices = ins[0], ins[1]
    if strategy is not None or node.attrs.get("batch_dims", 0) or not (params.is_tensor and indices.is_tensor):
        return replicated_rule(mesh, node, ins, strategy)
    axis = node.attrs.get("axis", 0) % len(params.type.shape)
    lp, li = params.layout.without_partial(), indices.layout.without_partial()
    used = li.used()
    pdims = tuple(() if d == axis or used & set(a) else a for d, a in enumerate(lp.dims))
    lp = TensorLayout(pdims)
    (o,) = _emit(node, [_to(mesh, params, lp), _to(mesh, indices, li)] + [v.local for v in ins[2:]])
    return [(o, TensorLayout(pdims[:axis] + li.dims + pdims[axis + 1:]))]


def conv2d_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """Conv2D (NCHW): batch split, output channels split by the weight (no communication), input channels split
    (groups == 1: partial sums, as a contracting split); spatial dims whole."""
    x, w = ins[0], ins[1]
    groups = node.attrs.get("groups", 1)
    ex, ew = [0, 1, -1, -1], [2, 1, -1, -1]
    if strategy is not None:
        if len(strategy) != 2:
            raise ShardError(f"shard: {_what(node, strategy)}: Conv2D takes one strategy per input (two)")
        if groups != 1 and (strategy[0][1] != 1 or strategy[1][0] != 1):
            raise ShardError(f"shard: {_what(node, strategy)}: channels of a grouped convolution cannot be split")
        lx, lw = layouts_of_device_matrix(mesh, list(strategy), [ex, ew], [x.type.shape, w.type.shape],
                                          f"shard: {_what(node, strategy)} (spatial dims cannot be split)")
    else:
        rx, rw = x.layout.without_partial(), w.layout.without_partial()
        b, ci = rx.dims[0], (rx.dims[1] if groups == 1 else ())
        used = set(b) | set(ci)
        co = rw.dims[0] if groups == 1 and not used & set(rw.dims[0]) else ()
        lx, lw = TensorLayout((b, ci, (), ())), TensorLayout((co, ci, (), ()))
    out = TensorLayout((lx.dims[0], lw.dims[0], (), ()), tuple(sorted(lx.dims[1])))
    (o,) = _emit(node, [_to(mesh, x, lx), _to(mesh, w, lw)])
    return [(o, out)]


def pool_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    """MaxPool / AvgPool (NCHW): batch and channel splits kept, spatial dims whole."""
    x = ins[0]
    if strategy is not None:
        if len(strategy) != 1:
            raise ShardError(f"shard: {_what(node, strategy)}: one strategy (for the input) expected")
        lx = layouts_of_device_matrix(mesh, [strategy[0]], [[0, 1, -1, -1]], [x.type.shape],
                                      f"shard: {_what(node, strategy)} (spatial dims cannot be split)")[0]
    else:
        r = x.layout.without_partial()
        lx = TensorLayout((r.dims[0], r.dims[1], (), ()))
    (o,) = _emit(node, [_to(mesh, x, lx)] + [v.local for v in ins[1:]])
    return [(o, lx)]


def reshape_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    if strategy is not None:
        return replicated_rule(mesh, node, ins, strategy)
    x = _resolved(mesh, ins[0])
    src, dst = tuple(x.type.shape), tuple(node.outputs[0].type.shape)
    if None in src or None in dst:
        return replicated_rule(mesh, node, ins, strategy)
    keep_in, out_dims = list(x.layout.dims), [()] * len(dst)
    for d, axes in enumerate(x.layout.dims):
        if not axes:
            continue
        parts, target = mesh.size(axes), _reshape_target(src, dst, d)
        if target is None or dst[target] % parts:
            keep_in[d] = ()
        else:
            out_dims[target] = axes
    local = _to(mesh, x, TensorLayout(tuple(keep_in)))
    shape = tuple(s // mesh.size(a) for s, a in zip(dst, out_dims))
    (o,) = _emit(node, [local], {**node.attrs, "shape": shape})
    return [(o, TensorLayout(tuple(out_dims)))]


def _reshape_target(src: tuple, dst: tuple, d: int) -> int | None:
    """The output dim whose leading block is input dim ``d``'s block (row-major), or None."""
    before = math.prod(src[:d])
    acc = 1
    for t in range(len(dst) + 1):
        if acc == before:
            if t == len(dst):
                return None
            if dst[t] >= src[d]:  # merge: dst[t] = src[d] * src[d+1] * ... * src[e-1]
                rest = src[d]
                for e in range(d + 1, len(src) + 1):
                    if rest == dst[t]:
                        return t
                    if e == len(src):
                        return None
                    rest *= src[e]
                return None
            rest = dst[t]  # split: src[d] = dst[t] * dst[t+1] * ... (the block stays in the leading part)
            for e in range(t + 1, len(dst) + 1):
                if rest == src[d]:
                    return t
                if e == len(dst):
                    return None
                rest *= dst[e]
            return None
        if t == len(dst) or acc > before:
            return None
        acc *= dst[t]
    return None


def softmax_rule(mesh: Mesh, node, ins: list, strategy) -> list:
    x = ins[0]
    ndim = len(x.type.shape)
    axes = _norm_axes(node.attrs.get("axis", (-1,)), ndim)
    if strategy is not None:
        if len(strategy) != 1:
            raise ShardError(f"shard: {_what(node, strategy)}: one strategy (for the input) expected")
        if any(strategy[0][d] != 1 for d in axes):
            raise ShardError(f"shard: {_what(node, strategy)}: the softmax axis {axes} cannot be split")
        lx = layouts_of_device_matrix(mesh, [strategy[0]], [list(range(ndim))], [x.type.shape],
                                      f"shard: {node.op.name}")[0]
    else:
        lx = x.layout.without_partial()
        lx = TensorLayout(tuple(() if d in axes else a for d, a in enumerate(lx.dims)))
    (o,) = _emit(node, [_to(mesh, x, lx)])
    return [(o, lx)]


RULES = {"MatMul": matmul_rule, "Transpose": transpose_rule, "ExpandDims": expand_dims_rule,
         "Squeeze": squeeze_rule, "Gather": gather_rule, "Reshape": reshape_rule, "Softmax": softmax_rule,
         "LogSoftmax": softmax_rule, "Conv2D": conv2d_rule, "MaxPool": pool_rule, "AvgPool": pool_rule}


def apply(mesh: Mesh, node, ins: list, strategy) -> list:
    """The local outputs of ``node`` and their layouts (one pair per output)."""
    op = node.op
    if op.kind in ("control", "random", "effect", "collective") or is_io_op(op) or node_writes(node):
        raise ShardError(f"shard: {_what(node, strategy)} ({op.kind} op) is not supported inside a sharded function "
                         "by sprout's SPMD pass")
    rule = RULES.get(op.name)
    if rule is None:
        rule = {"elementwise": elementwise_rule, "reduce": reduce_rule}.get(op.kind, replicated_rule)
    return rule(mesh, node, ins, strategy)


def partial_free(mesh: Mesh, v: Val) -> Val:
    return _resolved(mesh, v)


__all__ = ["Val", "apply", "RULES", "partial_free", "F"]
