"""Shape primitives: reshape, transpose, broadcast, expand/squeeze, concat/stack, indexing, fills."""
from __future__ import annotations

import numpy as np

from ..core.op import FuseSpec, Op, OpError, register
from ..core.types import TensorType
from ._infer import check_alloc, check_axis, check_dims, fmt_shape


def _prod(shape) -> int | None:
    n = 1
    for d in shape:
        if d is None:
            return None
        n *= d
    return n


# ---- reshape --------------------------------------------------------------------------------
def _reshape_infer(x, shape):
    shape = tuple(shape)
    check_dims("Reshape", shape, unknown=True)
    if sum(1 for d in shape if d == -1) > 1:
        raise OpError(f"Reshape: at most one -1 allowed in the target shape {list(shape)} (input shape "
                      f"{fmt_shape(x.shape)})")
    total = _prod(x.shape)
    known = _prod([d for d in shape if d != -1])
    if -1 in shape:
        if total is None or known is None:
            return TensorType(tuple(None if d == -1 else d for d in shape), x.dtype)
        if known == 0 or total % known:
            raise OpError(f"Reshape: cannot reshape a tensor of shape {fmt_shape(x.shape)} ({total} elements) "
                          f"into {list(shape)}")
        shape = tuple(total // known if d == -1 else d for d in shape)
    elif total is not None and known is not None and total != known:
        raise OpError(f"Reshape: cannot reshape a tensor of shape {fmt_shape(x.shape)} ({total} elements) "
                      f"into {list(shape)} ({known} elements)")
    return TensorType(shape, x.dtype)


def _reshape_impl(x, shape):
    try:  # the method: np.reshape's Python wrapper costs more than the reshape of a small array
        return x.reshape(shape) if x.__class__ is np.ndarray else np.reshape(x, shape)
    except TypeError:  # a None (symbolic) target dim i is the size of x's axis i at run time
        return np.reshape(x, tuple(x.shape[i] if d is None else d for i, d in enumerate(shape)))


def _reshape_emit(ctx, node, args):
    shape = node.attrs.get("shape")
    if set(node.attrs) != {"shape"} or not ctx.is_var(node.inputs[0]) or None in shape:
        return None
    return f"{args[0]}.reshape({ctx.literal(tuple(shape))})", None


RESHAPE = register(Op("Reshape", _reshape_impl, _reshape_infer,
                      lambda x, out, d, shape: (F.reshape(d, x.shape),), "shape", emit=_reshape_emit, view=True))
RESHAPE.extra["symbolic_attrs"] = True  # a None target dim i is x's axis i at run time


# ---- transpose ------------------------------------------------------------------------------
def _transpose_infer(x, perm):
    perm = tuple(perm)
    if sorted(perm) != list(range(x.ndim)):
        raise OpError(f"Transpose: perm {list(perm)} is not a permutation of the {x.ndim} axes of a tensor "
                      f"of shape {fmt_shape(x.shape)}")
    return TensorType(tuple(x.shape[p] for p in perm), x.dtype)


def _transpose_bprop(x, out, d, perm):
    return (F.transpose(d, tuple(int(i) for i in np.argsort(perm))),)


def _transpose_emit(ctx, node, args):
    if set(node.attrs) != {"perm"} or not ctx.is_var(node.inputs[0]):
        return None
    return f"{args[0]}.transpose({ctx.literal(tuple(node.attrs['perm']))})", None


def _transpose_impl(x, perm):
    return x.transpose(perm) if x.__class__ is np.ndarray else np.transpose(x, perm)  # as in _reshape_impl


TRANSPOSE = register(Op("Transpose", _transpose_impl, _transpose_infer, _transpose_bprop, "shape",
                        emit=_transpose_emit, view=True))


# ---- broadcast_to ---------------------------------------------------------------------------
def _broadcast_to_infer(x, shape):
    shape = tuple(shape)
    lead = len(shape) - x.ndim
    if lead < 0:
        raise OpError(f"BroadcastTo: cannot broadcast shape {fmt_shape(x.shape)} to the lower-rank {list(shape)}")
    out = []
    for i, s in enumerate(shape):
        d = x.shape[i - lead] if i >= lead else 1
        if s == -1:
            s = d
        if d not in (1, s) and d is not None and s is not None:
            raise OpError(f"BroadcastTo: cannot broadcast shape {fmt_shape(x.shape)} to {list(shape)}")
        out.append(s)
    return TensorType(tuple(out), x.dtype)


def _broadcast_to_impl(x, shape):
    if -1 in shape:
        lead = len(shape) - x.ndim
        shape = tuple(x.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    return np.broadcast_to(x, shape)


BROADCAST_TO = register(Op("BroadcastTo", _broadcast_to_impl, _broadcast_to_infer,
                           lambda x, out, d, shape: (F.sum_to(d, x.shape),), "shape", view=True))


def _broadcast_like_infer(x, like):
    lead = like.ndim - x.ndim
    if lead < 0:
        raise OpError(f"BroadcastLike: cannot broadcast shape {fmt_shape(x.shape)} to the lower-rank "
                      f"{fmt_shape(like.shape)}")
    out = []
    for i, s in enumerate(like.shape):
        d = x.shape[i - lead] if i >= lead else 1
        if d not in (1, s) and d is not None and s is not None:
            raise OpError(f"BroadcastLike: cannot broadcast shape {fmt_shape(x.shape)} to {fmt_shape(like.shape)}")
        out.append(d if s is None and d != 1 else s)
    return TensorType(tuple(out), x.dtype)


# broadcast x to the shape ``like`` has at run time (its values are not read): broadcast_to for a
# target shape that holds symbolic dimensions
BROADCAST_LIKE = register(Op("BroadcastLike", lambda x, like: np.broadcast_to(x, like.shape), _broadcast_like_infer,
                             lambda x, like, out, d: (F.sum_to(d, x.shape), None), "shape"))


# ---- expand_dims / squeeze ------------------------------------------------------------------
def _expand_infer(x, axis):
    axis = check_axis("ExpandDims", axis, x.ndim + 1)
    shape = list(x.shape)
    shape.insert(axis, 1)
    return TensorType(tuple(shape), x.dtype)


EXPAND_DIMS = register(Op("ExpandDims", lambda x, axis: np.expand_dims(x, axis), _expand_infer,
                          lambda x, out, d, axis: (F.reshape(d, x.shape),), "shape", view=True))


def _squeeze_axes(op, shape, axis) -> tuple:
    if axis is None or axis == ():
        return tuple(i for i, d in enumerate(shape) if d == 1)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    norm = tuple(sorted(check_axis(op, a, len(shape)) for a in axes))
    for a in norm:
        if shape[a] != 1:
            raise OpError(f"Squeeze: cannot squeeze axis {a} of shape {fmt_shape(shape)}: its size is not 1")
    return norm


def _squeeze_infer(x, axis=()):
    axes = _squeeze_axes("Squeeze", x.shape, axis)
    return TensorType(tuple(d for i, d in enumerate(x.shape) if i not in axes), x.dtype)


def _squeeze_impl(x, axis=()):
    return np.squeeze(x, axis=_squeeze_axes("Squeeze", x.shape, axis))


SQUEEZE = register(Op("Squeeze", _squeeze_impl, _squeeze_infer,
                      lambda x, out, d, axis=(): (F.reshape(d, x.shape),), "shape", view=True))


# ---- concat / stack / split -----------------------------------------------------------------
def _concat_infer(*xs, axis=0):
    if not xs:
        raise OpError("Concat: needs at least one tensor")
    first = xs[0]
    axis = check_axis("Concat", axis, first.ndim)
    total = 0
    for x in xs:
        if x.ndim != first.ndim or x.dtype is not first.dtype or any(
                a != b for i, (a, b) in enumerate(zip(x.shape, first.shape)) if i != axis):
            raise OpError(f"Concat: inputs {', '.join(f'{t.dtype}{fmt_shape(t.shape)}' for t in xs)} differ "
                          f"outside axis {axis}")
        total = None if total is None or x.shape[axis] is None else total + x.shape[axis]
    shape = list(first.shape)
    shape[axis] = total
    return TensorType(tuple(shape), first.dtype)


def _concat_bprop(*args, axis=0):
    xs, d = args[:-2], args[-1]
    sizes = [x.shape[axis] for x in xs]
    return tuple(F.split_sizes(d, sizes, axis))


def _concat_emit(ctx, node, args):
    axis = node.attrs.get("axis")
    if set(node.attrs) != {"axis"} or type(axis) is not int or len(args) < 2 or not ctx.static_float(node.inputs[0]):
        return None
    return f"_np.concatenate(({', '.join(args)}), axis={axis})", None


CONCAT = register(Op("Concat", lambda *xs, axis=0: np.concatenate(xs, axis=axis), _concat_infer, _concat_bprop,
                     "shape", emit=_concat_emit, fresh_output=True))  # np.concatenate always allocates


def _stack_infer(*xs, axis=0):
    if not xs:
        raise OpError("Stack: needs at least one tensor")
    first = xs[0]
    for x in xs:
        if tuple(x.shape) != tuple(first.shape) or x.dtype is not first.dtype:
            raise OpError(f"Stack: all inputs need one shape and dtype, got "
                          f"{', '.join(f'{t.dtype}{fmt_shape(t.shape)}' for t in xs)}")
    axis = check_axis("Stack", axis, first.ndim + 1)
    shape = list(first.shape)
    shape.insert(axis, len(xs))
    return TensorType(tuple(shape), first.dtype)


def _stack_bprop(*args, axis=0):
    xs, d = args[:-2], args[-1]
    parts = F.split_sizes(d, [1] * len(xs), axis)
    return tuple(F.squeeze(p, axis) for p in parts)


STACK = register(Op("Stack", lambda *xs, axis=0: np.stack(xs, axis=axis), _stack_infer, _stack_bprop, "shape"))


def _split_infer(x, sizes, axis):
    axis = check_axis("SplitV", axis, x.ndim)
    if x.shape[axis] is not None and sum(sizes) != x.shape[axis]:
        raise OpError(f"Split: sizes {list(sizes)} do not add up to {x.shape[axis]} (axis {axis} of "
                      f"{fmt_shape(x.shape)})")
    out = []
    for s in sizes:
        shape = list(x.shape)
        shape[axis] = s
        out.append(TensorType(tuple(shape), x.dtype))
    return tuple(out)


def _split_impl(x, sizes, axis):
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=axis))


def _split_bprop(x, out, d, sizes, axis):
    return (F.concat(d, axis),)


def _split_emit(ctx, node, args):
    """Basic slices of the input (views, as np.split gives) inline: a generic call cost ~20 us per split in an LSTM
    step's gates, the slices ~1 us."""
    x = node.inputs[0]
    nd = len(getattr(x.type, "shape", None) or ())
    axis, sizes = node.attrs.get("axis"), node.attrs.get("sizes")
    if not (ctx.is_var(x) and nd and type(axis) is int and -nd <= axis < nd and isinstance(sizes, (tuple, list))
            and all(type(k) is int and k >= 0 for k in sizes)):
        return None
    lead = ":, " * (axis % nd)
    # Split on an inner axis of a small array: contiguous copies. Its parts feed small fused kernels, whose
    # vectorised loop is compiled for C-contiguous inputs; a strided part ran the any-layout loop (an LSTM step's
    # gates: ~28 us per kernel against ~5; a (16, 128) float32 copy costs ~1 us). The IR is functional, so a copy
    # computes what the view does.
    shape = x.type.shape
    small = axis % nd and None not in shape and int(np.prod(shape)) < (1 << 14)
    parts, start = [], 0
    for k in sizes:
        part = f"{args[0]}[{lead}{start}:{start + k}]"
        parts.append(f"{part}.copy()" if small else part)
        start += k
    return ", ".join(parts) + ("," if len(parts) == 1 else ""), None


# n_out=-1: as many outputs as sizes
SPLIT = register(Op("SplitV", _split_impl, _split_infer, _split_bprop, "shape", n_out=-1, view=True,
                    emit=_split_emit))


# ---- fills ----------------------------------------------------------------------------------
def _fill_infer(shape, value, dtype):
    check_dims("Fill", tuple(shape))
    check_alloc("Fill", tuple(shape), dtype)
    return TensorType(tuple(shape), dtype)


FILL = register(Op("Fill", lambda shape, value, dtype: np.full(shape, value, dtype.np), _fill_infer, None, "opaque"))


_COPY = FuseSpec(lines=("_np.copyto({out}, {0})",), nin=1)  # identity in a fused kernel: a copy into its buffer


def _like_infer(x):
    return TensorType(x.shape, x.dtype)


ZEROS_LIKE = register(Op("ZerosLike", np.zeros_like, _like_infer, lambda x, out, d: (None,), "elementwise",
                         fuse=FuseSpec(lines=("{out}.fill(0)",), nin=1)))
ONES_LIKE = register(Op("OnesLike", np.ones_like, _like_infer, lambda x, out, d: (None,), "elementwise",
                        fuse=FuseSpec(lines=("{out}.fill(1)",), nin=1)))


def _stop_gradient_impl(x):
    return x


STOP_GRADIENT = register(Op("StopGradient", _stop_gradient_impl, _like_infer, lambda x, out, d: (None,),
                            "elementwise", fuse=_COPY))
# a copy, as in MindSpore (and as its fused form above): an alias would follow later in-place writes to the input
IDENTITY = register(Op("Identity", lambda x: np.array(x, copy=True), _like_infer, lambda x, out, d: (d,), "elementwise",
                       fuse=_COPY))

from . import functional as F  # noqa: E402
from . import indexing  # noqa: E402,F401  (GetItem / SetItem primitives)

