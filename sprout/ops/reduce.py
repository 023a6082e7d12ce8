"""Reduction primitives (sum, mean, max, min, prod, argmax/argmin, sum_to) with their rules."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import norm_axes, reduce_shape
from ._quiet import quiet
from .elementwise import _cj


def _reduce_infer(name: str):
    def infer(x, axis=(), keep_dims=False):
        axes = norm_axes(name, axis, x.ndim)
        return TensorType(reduce_shape(x.shape, axes, keep_dims), x.dtype)

    return infer


def _axes_of(axis):
    return None if axis == () or axis is None else axis  # None: every axis (the ufuncs' fastest form)


# The kernels call the ufuncs' ``reduce`` directly: np.sum / np.mean / np.max add several
# microseconds of Python-level argument handling, which dominates on small tensors.
_add_reduce, _mul_reduce = np.add.reduce, np.multiply.reduce
_max_reduce, _min_reduce = np.maximum.reduce, np.minimum.reduce


def _sum_impl(x, axis=(), keep_dims=False):
    if x.dtype.kind == "f":  # ints need the dtype: NumPy would widen int32 sums to int64
        return _add_reduce(x, axis=_axes_of(axis), keepdims=keep_dims)
    return _add_reduce(x, axis=_axes_of(axis), keepdims=keep_dims,
                       dtype=x.dtype if x.dtype != np.bool_ else np.int64)


def _restore(d, x, axis, keep_dims):
    """Broadcast a reduced gradient back to x's shape (x's own shape at run time when it is symbolic)."""
    if not keep_dims:
        axes = norm_axes("grad", axis, x.ndim)
        shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        d = F.reshape(d, shape)
    return F.broadcast_like(d, x)


def _sum_bprop(x, out, d, axis=(), keep_dims=False):
    return (_restore(d, x, axis, keep_dims),)


REDUCE_SUM = register(Op("ReduceSum", _sum_impl, _reduce_infer("ReduceSum"), _sum_bprop, "reduce"))
REDUCE_SUM.extra["complex_grad"] = True  # linear: the cotangent broadcast back (right for complex values)


_quiet_divide = quiet(np.true_divide, invalid="ignore", divide="ignore")  # an empty mean is NaN, no warning


def _mean_impl(x, axis=(), keep_dims=False):
    axes = _axes_of(axis)
    count = x.size
    if axes is not None:
        count = 1
        for a in axes:
            count *= x.shape[a]
    if x.dtype.kind in "fc":
        acc = np.float32 if x.dtype == np.float16 else x.dtype  # float16 accumulates in float32, as np.mean
        out = _add_reduce(x, axis=axes, keepdims=keep_dims, dtype=acc)
        return _quiet_divide(out, count, dtype=acc).astype(x.dtype, copy=False)
    out = _add_reduce(x, axis=axes, keepdims=keep_dims, dtype=np.float64) / count
    return np.trunc(out).astype(x.dtype)  # MindSpore: the mean of an int tensor is an int (truncated)


def _mean_bprop(x, out, d, axis=(), keep_dims=False):
    # the element count is a Python int for concrete shapes and a run-time AxesSize for symbolic ones
    return (F.div(_restore(d, x, axis, keep_dims), F.axes_size(x, axis, d.dtype)),)


REDUCE_MEAN = register(Op("ReduceMean", _mean_impl, _reduce_infer("ReduceMean"), _mean_bprop,
                          "reduce"))
REDUCE_MEAN.extra["complex_grad"] = True  # linear (right for complex values)


def _extreme_bprop(x, out, d, axis=(), keep_dims=False):
    full_out = _restore(out, x, axis, keep_dims)
    mask = F.cast(F.equal(x, full_out), d.dtype)
    # ties share the gradient equally, as MindSpore does
    count = _restore(F.reduce_sum(mask, axis, keep_dims), x, axis, keep_dims)
    return (F.div(F.mul(_restore(d, x, axis, keep_dims), mask), count),)


def _max_impl(x, axis=(), keep_dims=False):
    if x.size == 0:
        raise OpError(f"ReduceMax: cannot reduce an empty tensor of shape {list(x.shape)}")
    return _max_reduce(x, axis=_axes_of(axis), keepdims=keep_dims)


def _min_impl(x, axis=(), keep_dims=False):
    if x.size == 0:
        raise OpError(f"ReduceMin: cannot reduce an empty tensor of shape {list(x.shape)}")
    return _min_reduce(x, axis=_axes_of(axis), keepdims=keep_dims)


REDUCE_MAX = register(Op("ReduceMax", _max_impl, _reduce_infer("ReduceMax"), _extreme_bprop, "reduce"))
REDUCE_MIN = register(Op("ReduceMin", _min_impl, _reduce_infer("ReduceMin"), _extreme_bprop, "reduce"))


def _prod_impl(x, axis=(), keep_dims=False):
    return _mul_reduce(x, axis=_axes_of(axis), keepdims=keep_dims, dtype=x.dtype)


def _prod_bprop(x, out, d, axis=(), keep_dims=False):
    # d(prod)/dx_i = prod / x_i where x_i != 0; exact for inputs without zeros
    # (conjugated for complex values: the op is holomorphic in each x_i)
    full_out = _restore(out, x, axis, keep_dims)
    return (F.div(F.mul(_restore(d, x, axis, keep_dims), _cj(full_out)), _cj(x)),)


REDUCE_PROD = register(Op("ReduceProd", _prod_impl, _reduce_infer("ReduceProd"), _prod_bprop, "reduce"))
REDUCE_PROD.extra["complex_grad"] = True


def _arg_infer(name):
    def infer(x, axis=-1, keep_dims=False, output_type=mstype.int32):
        axes = norm_axes(name, axis, x.ndim) if x.ndim else ()
        if output_type not in (mstype.int32, mstype.int64):
            raise OpError(f"{name}: output_type must be int32 or int64, got {output_type}")
        return TensorType(reduce_shape(x.shape, axes, keep_dims), output_type)

    return infer


def _argmax_impl(x, axis=-1, keep_dims=False, output_type=mstype.int32):
    if x.size == 0:
        raise OpError(f"Argmax: cannot take the argmax of an empty tensor of shape {list(x.shape)}")
    return np.argmax(x, axis=axis, keepdims=keep_dims).astype(output_type.np)


def _argmin_impl(x, axis=-1, keep_dims=False, output_type=mstype.int32):
    if x.size == 0:
        raise OpError(f"Argmin: cannot take the argmin of an empty tensor of shape {list(x.shape)}")
    return np.argmin(x, axis=axis, keepdims=keep_dims).astype(output_type.np)


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
    out = _add_reduce(x, axis=axes, keepdims=True, dtype=x.dtype) if axes else x
    try:
        return out.reshape(shape)
    except TypeError:  # a None (symbolic) target dim keeps x's aligned dim: only summed axes changed
        return out.reshape(out.shape[lead:])


def _sum_to_bprop(x, out, d, shape):
    return (F.broadcast_like(d, x),)


def _sum_to_emit(ctx, node, args):
    """One ``add.reduce`` over the broadcast axes when both shapes are static and x is a float."""
    x, out_t = node.inputs[0], node.outputs[0].type
    if not ctx.static_float(x) or not ctx.static(out_t):
        return None
    shape, xs = tuple(node.attrs["shape"]), tuple(x.type.shape)
    lead = len(xs) - len(shape)
    if lead < 0:
        return None
    axes = tuple(range(lead)) + tuple(lead + k for k, d in enumerate(shape) if d == 1 and xs[lead + k] != 1)
    if not axes:
        return None
    rest = tuple(d for k, d in enumerate(xs) if k not in axes)
    if rest == shape:
        return f"_np.add.reduce({args[0]}, axis={axes!r})", None
    return f"_np.add.reduce({args[0]}, axis={axes!r}, keepdims=True).reshape({shape!r})", None


SUM_TO = register(Op("SumTo", _sum_to_impl, _sum_to_infer, _sum_to_bprop, "reduce", emit=_sum_to_emit))
SUM_TO.extra["complex_grad"] = True  # linear (right for complex values)
SUM_TO.extra["symbolic_attrs"] = True  # a None target dim keeps x's aligned dim


# ---- sizes known only at run time (symbolic dimensions) ---------------------------------------
def _axes_size_infer(x, axis=(), dtype=mstype.float32):
    norm_axes("AxesSize", axis, x.ndim)
    return TensorType((), dtype)


def _axes_size_impl(x, axis=(), dtype=mstype.float32):
    shape = x.shape
    n = 1
    for a in (axis if axis else range(len(shape))):
        n *= shape[a]
    return np.asarray(n, dtype.np)


# the number of elements of x over ``axis`` (every axis for ()) as a 0-d tensor: the divisor of a
# mean's gradient when the reduced axes are symbolic
AXES_SIZE = register(Op("AxesSize", _axes_size_impl, _axes_size_infer, _no_grad, "opaque"))

from . import functional as F  # noqa: E402
