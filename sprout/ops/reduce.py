"""Reduction primitives (sum, mean, max, min, prod, argmax/argmin, sum_to) with their rules."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import norm_axes, reduce_shape


def _reduce_infer(name: str, int_to: mstype.Type | None = None):
    def infer(x, axis=(), keep_dims=False):
        axes = norm_axes(name, axis, x.ndim)
        dt = x.dtype
        if int_to is not None and not dt.is_float:
            dt = int_to
        return TensorType(reduce_shape(x.shape, axes, keep_dims), dt)

    return infer


def _axes_of(x, axis):
    return tuple(range(x.ndim)) if axis == () or axis is None else axis


def _sum_impl(x, axis=(), keep_dims=False):
    return np.sum(x, axis=_axes_of(x, axis), keepdims=keep_dims, dtype=x.dtype if x.dtype != np.bool_ else np.int64)


def _restore(d, x, axis, keep_dims):
    """Broadcast a reduced gradient back to x's shape."""
    if not keep_dims:
        axes = norm_axes("grad", axis, x.ndim)
        shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        d = F.reshape(d, shape)
    return F.broadcast_to(d, x.shape)


def _sum_bprop(x, out, d, axis=(), keep_dims=False):
    return (_restore(d, x, axis, keep_dims),)


REDUCE_SUM = register(Op("ReduceSum", _sum_impl, _reduce_infer("ReduceSum"), _sum_bprop, "reduce", fuse="sum"))


def _mean_impl(x, axis=(), keep_dims=False):
    out = np.mean(x, axis=_axes_of(x, axis), keepdims=keep_dims)
    return out.astype(x.dtype, copy=False) if x.dtype.kind == "f" else out.astype(np.float32)


def _count(x, axis) -> int:
    n = 1
    for a in norm_axes("mean", axis, x.ndim):
        n *= x.shape[a]
    return n


def _mean_bprop(x, out, d, axis=(), keep_dims=False):
    return (F.div(_restore(d, x, axis, keep_dims), _count(x, axis)),)


REDUCE_MEAN = register(Op("ReduceMean", _mean_impl, _reduce_infer("ReduceMean", mstype.float32), _mean_bprop,
                          "reduce", fuse="mean"))


def _extreme_bprop(x, out, d, axis=(), keep_dims=False):
    full_out = _restore(out, x, axis, keep_dims)
    mask = F.cast(F.equal(x, full_out), d.dtype)
    # ties share the gradient equally, as MindSpore does
    count = _restore(F.reduce_sum(mask, axis, keep_dims), x, axis, keep_dims)
    return (F.div(F.mul(_restore(d, x, axis, keep_dims), mask), count),)


def _max_impl(x, axis=(), keep_dims=False):
    if x.size == 0:
        raise OpError(f"ReduceMax: cannot reduce an empty tensor of shape {list(x.shape)}")
    return np.max(x, axis=_axes_of(x, axis), keepdims=keep_dims)


def _min_impl(x, axis=(), keep_dims=False):
    if x.size == 0:
        raise OpError(f"ReduceMin: cannot reduce an empty tensor of shape {list(x.shape)}")
    return np.min(x, axis=_axes_of(x, axis), keepdims=keep_dims)


REDUCE_MAX = register(Op("ReduceMax", _max_impl, _reduce_infer("ReduceMax"), _extreme_bprop, "reduce", fuse="max"))
REDUCE_MIN = register(Op("ReduceMin", _min_impl, _reduce_infer("ReduceMin"), _extreme_bprop, "reduce", fuse="min"))


def _prod_impl(x, axis=(), keep_dims=False):
    return np.prod(x, axis=_axes_of(x, axis), keepdims=keep_dims).astype(x.dtype, copy=False)


def _prod_bprop(x, out, d, axis=(), keep_dims=False):
    # d(prod)/dx_i = prod / x_i where x_i != 0; exact for inputs without zeros
    full_out = _restore(out, x, axis, keep_dims)
    return (F.div(F.mul(_restore(d, x, axis, keep_dims), full_out), x),)


REDUCE_PROD = register(Op("ReduceProd", _prod_impl, _reduce_infer("ReduceProd"), _prod_bprop, "reduce"))


def _arg_infer(name):
    def infer(x, axis=-1, keep_dims=False):
        axes = norm_axes(name, axis, x.ndim) if x.ndim else ()
        return TensorType(reduce_shape(x.shape, axes, keep_dims), mstype.int32)

    return infer


def _argmax_impl(x, axis=-1, keep_dims=False):
    return np.argmax(x, axis=axis, keepdims=keep_dims).astype(np.int32)


def _argmin_impl(x, axis=-1, keep_dims=False):
    return np.argmin(x, axis=axis, keepdims=keep_dims).astype(np.int32)


def _no_grad(x, out, d, **attrs):
    return (None,)


ARGMAX = register(Op("Argmax", _argmax_impl, _arg_infer("Argmax"), _no_grad, "reduce"))
ARGMIN = register(Op("Argmin", _argmin_impl, _arg_infer("Argmin"), _no_grad, "reduce"))


def _sum_to_infer(x, shape):
    shape = tuple(shape)
    lead = x.ndim - len(shape)
    if lead < 0 or any(s not in (1, d) and s is not None and d is not None
                       for s, d in zip(shape, x.shape[lead:])):
        raise OpError(f"SumTo: cannot sum a tensor of shape {list(x.shape)} down to {list(shape)}")
    return TensorType(shape, x.dtype)


def _sum_to_impl(x, shape):
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and x.shape[lead + i] != 1)
    out = np.sum(x, axis=axes, keepdims=True, dtype=x.dtype) if axes else x
    return out.reshape(shape)


def _sum_to_bprop(x, out, d, shape):
    return (F.broadcast_to(d, x.shape),)


SUM_TO = register(Op("SumTo", _sum_to_impl, _sum_to_infer, _sum_to_bprop, "reduce"))

from . import functional as F  # noqa: E402
