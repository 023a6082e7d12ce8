"""Array primitives: gather (+ scatter-add gradients), tile, cumsum, sort/topk, flip, pad, one_hot, range."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import KernelError, Op, OpError, register
from ..core.types import TensorType
from ._infer import check_alloc, check_axis, fmt_shape


def _no_grad(*args, **attrs):
    return tuple(None for _ in args[:-2])


def _check_int(op, t, what="indices"):
    if not t.dtype.is_int:
        raise OpError(f"{op}: {what} must be an integer tensor, got {t.dtype}{fmt_shape(t.shape)}")


def _check_range(op, idx: np.ndarray, size: int):
    if idx.size and (idx.min() < -size or idx.max() >= size):
        bad = idx.max() if idx.max() >= size else idx.min()
        raise IndexError(f"{op}: index {bad} is out of range for an axis of size {size}")


# ---- Gather (ops.gather) and its gradient -----------------------------------------------------------
def _gather_infer(params, indices, axis=0, batch_dims=0):
    _check_int("Gather", indices)
    axis = check_axis("Gather", axis, params.ndim)
    if not 0 <= batch_dims <= min(axis, indices.ndim):
        raise OpError(f"Gather: batch_dims {batch_dims} must be in [0, min(axis={axis}, rank of indices "
                      f"{indices.ndim})]")
    if tuple(params.shape[:batch_dims]) != tuple(indices.shape[:batch_dims]):
        raise OpError(f"Gather: batch dims of params {fmt_shape(params.shape)} and indices "
                      f"{fmt_shape(indices.shape)} differ")
    shape = tuple(params.shape[:axis]) + tuple(indices.shape[batch_dims:]) + tuple(params.shape[axis + 1:])
    return TensorType(shape, params.dtype)


def _gather_impl(params, indices, axis=0, batch_dims=0):
    axis = axis % params.ndim
    _check_range("Gather", indices, params.shape[axis])
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    nb = int(np.prod(params.shape[:batch_dims]))
    p = params.reshape((nb,) + params.shape[batch_dims:])
    ix = indices.reshape((nb,) + indices.shape[batch_dims:])
    parts = [np.take(p[b], ix[b], axis=axis - batch_dims) for b in range(nb)]
    out = np.stack(parts) if parts else np.zeros((0,), params.dtype)
    return out.reshape(params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:])


def _gather_bprop(params, indices, out, dout, axis=0, batch_dims=0):
    return F.gather_grad(dout, indices, params.shape, axis, batch_dims), None


GATHER = register(Op("Gather", _gather_impl, _gather_infer, _gather_bprop, "opaque"))


def _gather_grad_infer(dout, indices, shape, axis=0, batch_dims=0):
    return TensorType(tuple(shape), dout.dtype)


def _gather_grad_impl(dout, indices, shape, axis=0, batch_dims=0):
    """Scatter-add ``dout`` back to a zero tensor of the params' shape (repeated indices accumulate)."""
    axis = axis % len(shape)
    out = np.zeros(shape, dout.dtype)
    if batch_dims:
        nb = int(np.prod(shape[:batch_dims]))
        o = out.reshape((nb,) + tuple(shape[batch_dims:]))
        ix = indices.reshape((nb,) + indices.shape[batch_dims:])
        d = dout.reshape((nb,) + dout.shape[batch_dims:])
        for b in range(nb):
            o[b] = _gather_grad_impl(d[b], ix[b], o.shape[1:], axis - batch_dims)
        return out
    k = indices.ndim
    # bring the indexed axis of ``out`` and the index dims of ``dout`` to the front, then add.at
    moved = np.moveaxis(out, axis, 0)
    d = np.moveaxis(dout, tuple(range(axis, axis + k)), tuple(range(k)))
    np.add.at(moved, indices.reshape(-1) % shape[axis], d.reshape((-1,) + moved.shape[1:]))
    return out


def _gather_grad_bprop(dout, indices, out, g, shape, axis=0, batch_dims=0):
    return F.gather(g, indices, axis, batch_dims), None


GATHER_GRAD = register(Op("GatherGrad", _gather_grad_impl, _gather_grad_infer, _gather_grad_bprop, "opaque"))


# ---- GatherD (ops.gather_elements) and its gradient -------------------------------------------------
def _gather_d_infer(x, index, dim=0):
    _check_int("GatherD", index, "index")
    dim = check_axis("GatherD", dim, x.ndim)
    if index.ndim != x.ndim:
        raise OpError(f"GatherD: index {fmt_shape(index.shape)} must have the rank of input {fmt_shape(x.shape)}")
    return TensorType(tuple(index.shape), x.dtype)


def _gather_d_impl(x, index, dim=0):
    _check_range("GatherD", index, x.shape[dim])
    return np.take_along_axis(x, index.astype(np.intp, copy=False), axis=dim)


def _gather_d_bprop(x, index, out, dout, dim=0):
    return F.gather_d_grad(dout, index, x.shape, dim), None


GATHER_D = register(Op("GatherD", _gather_d_impl, _gather_d_infer, _gather_d_bprop, "opaque"))


def _along_axis_index(index: np.ndarray, dim: int) -> tuple:
    grids = list(np.ogrid[tuple(slice(0, s) for s in index.shape)])
    grids[dim] = index
    return tuple(grids)


def _gather_d_grad_impl(dout, index, shape, dim=0):
    out = np.zeros(shape, dout.dtype)
    np.add.at(out, _along_axis_index(index % shape[dim], dim), dout)
    return out


def _gather_d_grad_bprop(dout, index, out, g, shape, dim=0):
    return F.gather_elements(g, dim, index), None


GATHER_D_GRAD = register(Op("GatherDGrad", _gather_d_grad_impl,
                            lambda dout, index, shape, dim=0: TensorType(tuple(shape), dout.dtype),
                            _gather_d_grad_bprop, "opaque"))


# ---- Tile -------------------------------------------------------------------------------------------
def _tile_infer(x, multiples):
    if any(not isinstance(m, int) or m < 0 for m in multiples):
        raise OpError(f"Tile: multiples must be non-negative ints, got {multiples}")
    lead = len(multiples) - x.ndim
    shape = (1,) * lead + tuple(x.shape) if lead > 0 else tuple(x.shape)
    mult = (1,) * (-lead) + tuple(multiples) if lead < 0 else tuple(multiples)
    out = tuple(None if d is None else d * m for d, m in zip(shape, mult))
    check_alloc("Tile", out, x.dtype)
    return TensorType(out, x.dtype)


def _tile_bprop(x, out, dout, multiples):
    lead = len(multiples) - x.ndim
    shape = (1,) * lead + tuple(x.shape) if lead > 0 else tuple(x.shape)
    mult = (1,) * (-lead) + tuple(multiples) if lead < 0 else tuple(multiples)
    split = []
    for m, d in zip(mult, shape):
        split += [m, d]
    g = F.reduce_sum(F.reshape(dout, tuple(split)), tuple(range(0, 2 * len(shape), 2)))
    return (F.reshape(g, x.shape),)


TILE = register(Op("Tile", lambda x, multiples: np.tile(x, multiples), _tile_infer, _tile_bprop, "shape"))


# ---- CumSum, ReverseV2 (flip) -----------------------------------------------------------------------
def _cumsum_infer(x, axis=0, exclusive=False, reverse=False):
    check_axis("CumSum", axis, x.ndim)
    if x.dtype is mstype.bool_:
        raise OpError("CumSum: a Bool tensor cannot be summed cumulatively; cast it to an int type first")
    return TensorType(tuple(x.shape), x.dtype)


def _cumsum_impl(x, axis=0, exclusive=False, reverse=False):
    if reverse:
        x = np.flip(x, axis)
    out = np.cumsum(x, axis=axis, dtype=x.dtype)
    if exclusive:
        out = np.concatenate([np.zeros_like(np.take(out, [0], axis)), np.delete(out, -1, axis)], axis)
    return np.flip(out, axis) if reverse else out


def _cumsum_bprop(x, out, dout, axis=0, exclusive=False, reverse=False):
    return (F.cumsum_raw(dout, axis, exclusive, not reverse),)


CUMSUM = register(Op("CumSum", _cumsum_impl, _cumsum_infer, _cumsum_bprop, "opaque"))
CUMSUM.extra["complex_grad"] = True  # linear


def _flip_infer(x, dims):
    for d in dims:
        check_axis("ReverseV2", d, x.ndim)
    return TensorType(tuple(x.shape), x.dtype)


FLIP = register(Op("ReverseV2", lambda x, dims: np.flip(x, dims), _flip_infer,
                   lambda x, out, dout, dims: (F.flip(dout, dims),), "shape"))


# ---- Sort and TopK (values differentiable through a scatter of the indices) ------------------------
def _sort_infer(x, axis=-1, descending=False):
    check_axis("Sort", axis, x.ndim)
    return TensorType(tuple(x.shape), x.dtype), TensorType(tuple(x.shape), mstype.int32)


def _descending_key(x):
    if x.dtype.kind == "b":
        return ~x
    if x.dtype.kind == "u":
        return np.iinfo(x.dtype).max - x
    return -x.astype(np.float64) if x.dtype.kind == "i" else -x


def _sort_impl(x, axis=-1, descending=False):
    idx = np.argsort(_descending_key(x) if descending else x, axis=axis, kind="stable")
    return np.take_along_axis(x, idx, axis), idx.astype(np.int32)


def _sort_bprop(x, out, dout, axis=-1, descending=False):
    return (F.gather_d_grad(dout[0], out[1], x.shape, axis % x.ndim),)


SORT = register(Op("Sort", _sort_impl, _sort_infer, _sort_bprop, "opaque", n_out=2))


def check_topk(x, k, axis) -> int:
    """TopK's k: an int in [1, size of the axis] (MindSpore refuses k <= 0); returns the axis, normalised."""
    axis = check_axis("TopK", axis, x.ndim)
    size = x.shape[axis]
    if isinstance(k, bool) or not isinstance(k, int) or k <= 0 or (size is not None and k > size):
        raise OpError(f"TopK: k={k!r} must be an int in [1, {size}] for input {fmt_shape(x.shape)} along axis {axis}")
    return axis


def _topk_infer(x, k, axis=-1, largest=True, sorted=True):  # noqa: A002 - MindSpore's name
    axis = check_topk(x, k, axis)
    shape = list(x.shape)
    shape[axis] = k
    return TensorType(tuple(shape), x.dtype), TensorType(tuple(shape), mstype.int32)


def _topk_impl(x, k, axis=-1, largest=True, sorted=True):  # noqa: A002
    idx = np.argsort(_descending_key(x) if largest else x, axis=axis, kind="stable")
    idx = np.take(idx, np.arange(k), axis=axis)
    return np.take_along_axis(x, idx, axis), idx.astype(np.int32)


def _topk_bprop(x, out, dout, k, axis=-1, largest=True, sorted=True):  # noqa: A002
    return (F.gather_d_grad(dout[0], out[1], x.shape, axis % x.ndim),)


TOPK = register(Op("TopK", _topk_impl, _topk_infer, _topk_bprop, "opaque", n_out=2))


# ---- Pad (constant) ---------------------------------------------------------------------------------
def _pad_infer(x, paddings, value=0):
    if len(paddings) != x.ndim or any(len(p) != 2 for p in paddings):
        raise OpError(f"Pad: paddings {paddings} must hold one (before, after) pair per axis of {fmt_shape(x.shape)}")
    shape = []
    for d, (lo, hi) in zip(x.shape, paddings):
        n = None if d is None else d + lo + hi
        if n is not None and n < 0:
            raise OpError(f"Pad: paddings {paddings} crop more than the shape {fmt_shape(x.shape)}")
        shape.append(n)
    return TensorType(tuple(shape), x.dtype)


def _pad_impl(x, paddings, value=0):
    pos = tuple((max(lo, 0), max(hi, 0)) for lo, hi in paddings)
    out = np.pad(x, pos, constant_values=value) if any(p != (0, 0) for p in pos) else x
    if any(lo < 0 or hi < 0 for lo, hi in paddings):  # negative padding crops
        out = out[tuple(slice(-min(lo, 0), out.shape[i] + min(hi, 0)) for i, (lo, hi) in enumerate(paddings))]
    return out


def _pad_bprop(x, out, dout, paddings, value=0):
    return (F.pad_raw(dout, tuple((-lo, -hi) for lo, hi in paddings), 0),)


PAD = register(Op("Pad", _pad_impl, _pad_infer, _pad_bprop, "shape"))


# ---- OneHot, Range, LinSpace (no gradient) ------------------------------------------------------------
def check_depth(depth) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise OpError(f"OneHot: depth must be a non-negative int, got {depth!r}")


def _one_hot_infer(indices, depth, on_value, off_value, axis=-1, dtype=mstype.int64, labels_of=None):
    _check_int("OneHot", indices)
    check_depth(depth)
    axis = check_axis("OneHot", axis, indices.ndim + 1)
    shape = list(indices.shape)
    shape.insert(axis, depth)
    return TensorType(tuple(shape), dtype)


def _one_hot_impl(indices, depth, on_value, off_value, axis=-1, dtype=mstype.int64, labels_of=None):
    """``labels_of``: the loss these are class labels of; then a label outside [0, depth) is an error (a plain
    one_hot gives an all-off row)."""
    if labels_of and indices.size and (indices.min() < 0 or indices.max() >= depth):
        bad = indices[(indices < 0) | (indices >= depth)].reshape(-1)[0]
        raise LabelError(f"{labels_of}: target label {int(bad)} is out of range [0, {depth}) for {depth} classes")
    hot = indices[..., None] == np.arange(depth)
    out = np.where(hot, np.asarray(on_value, dtype.np), np.asarray(off_value, dtype.np))
    return np.moveaxis(out, -1, axis % (indices.ndim + 1))


class LabelError(KernelError, RuntimeError):
    """A class label outside the classes (MindSpore raises RuntimeError from its loss kernels)."""


ONE_HOT = register(Op("OneHot", _one_hot_impl, _one_hot_infer, _no_grad, "opaque"))


def _range_len(start, end, step) -> int:
    if step == 0:
        raise OpError("Range: step must not be zero")
    return max(int(np.ceil((end - start) / step)), 0)


def _range_infer(start, end, step, dtype):
    return TensorType((_range_len(start, end, step),), dtype)


def _range_impl(start, end, step, dtype):
    return np.arange(start, end, step).astype(dtype.np, copy=False)


RANGE = register(Op("Range", _range_impl, _range_infer, None, "opaque"))


def _linspace_infer(start, end, steps, dtype=mstype.float32):
    if not isinstance(steps, int) or steps < 0:
        raise OpError(f"LinSpace: steps must be a non-negative int, got {steps!r}")
    return TensorType((steps,), dtype)


LINSPACE = register(Op("LinSpace", lambda start, end, steps, dtype=mstype.float32: np.linspace(
    start, end, steps).astype(dtype.np), _linspace_infer, None, "opaque"))

from . import functional as F  # noqa: E402
