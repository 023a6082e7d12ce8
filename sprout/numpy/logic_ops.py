"""mindspore.numpy comparisons, logical functions, floating-point class tests, closeness, membership and set
functions, and the dtype helpers (promote_types, result_type, isscalar)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ._utils import apply_dtype, const_value, to_tensor
from .math_ops import _axes, _binary

__all__ = ["equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "logical_and", "logical_or",
           "logical_xor", "logical_not", "isfinite", "isnan", "isinf", "isneginf", "isposinf", "isclose",
           "array_equal", "array_equiv", "in1d", "isin", "setdiff1d", "intersect1d", "sometrue", "isscalar",
           "promote_types", "result_type"]

equal = _binary("equal", ops.equal)
not_equal = _binary("not_equal", ops.not_equal)
greater = _binary("greater", ops.greater)
greater_equal = _binary("greater_equal", ops.greater_equal)
less = _binary("less", ops.less)
less_equal = _binary("less_equal", ops.less_equal)


def _bool(x, op):
    x = to_tensor(x, op)
    return x if x.dtype is mstype.bool_ else ops.cast(x, mstype.bool_)


def _logical(name, fn):
    op = f"mindspore.numpy.{name}"

    def f(x1, x2, dtype=None):
        return apply_dtype(fn(_bool(x1, op), _bool(x2, op)), dtype)

    f.__name__ = f.__qualname__ = name
    return f


logical_and = _logical("logical_and", ops.logical_and)
logical_or = _logical("logical_or", ops.logical_or)
logical_xor = _logical("logical_xor", ops.logical_xor)


def logical_not(a, dtype=None):
    return apply_dtype(ops.logical_not(_bool(a, "mindspore.numpy.logical_not")), dtype)


def _float_test(name, fn):
    op = f"mindspore.numpy.{name}"

    def f(x, dtype=None):
        x = to_tensor(x, op)
        if not x.dtype.is_float:
            return apply_dtype(ops.fill(mstype.bool_, x.shape, name == "isfinite"), dtype)
        return apply_dtype(fn(x), dtype)

    f.__name__ = f.__qualname__ = name
    return f


isfinite = _float_test("isfinite", ops.isfinite)
isnan = _float_test("isnan", ops.isnan)
isinf = _float_test("isinf", ops.isinf)


def isneginf(x):
    return _float_test("isneginf", lambda t: ops.logical_and(ops.isinf(t), ops.less(t, 0)))(x)


def isposinf(x):
    return _float_test("isposinf", lambda t: ops.logical_and(ops.isinf(t), ops.greater(t, 0)))(x)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    op = "mindspore.numpy.isclose"
    a, b = to_tensor(a, op), to_tensor(b, op)
    return ops.isclose(a, ops.cast(b, a.dtype) if b.dtype is not a.dtype else b, rtol, atol, equal_nan)


def array_equal(a1, a2, equal_nan=False):
    op = "mindspore.numpy.array_equal"
    a1, a2 = to_tensor(a1, op), to_tensor(a2, op)
    if a1.shape != a2.shape:
        return Tensor(False)
    same = ops.equal(a1, a2)
    if equal_nan and a1.dtype.is_float:
        same = ops.logical_or(same, ops.logical_and(ops.isnan(a1), ops.isnan(a2)))
    return ops.all(same)


def array_equiv(a1, a2):
    op = "mindspore.numpy.array_equiv"
    a1, a2 = to_tensor(a1, op), to_tensor(a2, op)
    try:
        np.broadcast_shapes(tuple(a1.shape), tuple(a2.shape))
    except ValueError:
        return Tensor(False)
    return ops.all(ops.equal(a1, a2))


def in1d(ar1, ar2, invert=False):
    op = "mindspore.numpy.in1d"
    a = ops.reshape(to_tensor(ar1, op), (-1, 1))
    b = ops.reshape(to_tensor(ar2, op), (1, -1))
    found = ops.any(ops.equal(a, b), 1)
    return ops.logical_not(found) if invert else found


def isin(element, test_elements, invert=False):
    e = to_tensor(element, "mindspore.numpy.isin")
    return ops.reshape(in1d(e, test_elements, invert), e.shape)


def _host_1d(x, op, name):
    return np.asarray(const_value(to_tensor(x, op), op, name)).ravel()


def setdiff1d(ar1, ar2, assume_unique=False):
    """The values of ar1 not in ar2: sorted unique ones, or (assume_unique) in ar1's order."""
    op = "mindspore.numpy.setdiff1d"
    t1 = to_tensor(ar1, op)
    a, b = _host_1d(t1, op, "ar1"), _host_1d(ar2, op, "ar2")
    if not assume_unique:
        a = np.unique(a)
    keep = ~np.isin(a, b)
    return Tensor(a[keep].astype(t1.dtype.np))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    op = "mindspore.numpy.intersect1d"
    t1 = to_tensor(ar1, op)
    a, b = _host_1d(t1, op, "ar1"), _host_1d(ar2, op, "ar2")
    res = np.intersect1d(a, b, assume_unique=assume_unique, return_indices=return_indices)
    if return_indices:
        vals, i1, i2 = res
        return Tensor(vals.astype(t1.dtype.np)), Tensor(i1.astype(np.int32)), Tensor(i2.astype(np.int32))
    return Tensor(res.astype(t1.dtype.np))


def sometrue(a, axis=None, keepdims=False):
    op = "mindspore.numpy.sometrue"
    a = _bool(a, op)
    axes = _axes(a, axis, op)
    return ops.any(a, axes, keepdims) if axes else a


def isscalar(element):
    return isinstance(element, (bool, int, float, complex, str, bytes, np.generic))


def promote_types(type1, type2):
    return mstype.promote(mstype.to_dtype(type1), mstype.to_dtype(type2))


def result_type(*arrays_and_dtypes):
    """The dtype of combining the arguments: Tensors and dtypes by promotion; Python numbers only raise the
    category (an int Tensor with a float number is Float32)."""
    dt = None
    scalars = []
    for a in arrays_and_dtypes:
        if isinstance(a, Tensor):
            t = a.dtype
        elif isinstance(a, mstype.Type):
            t = a
        elif isinstance(a, (bool, int, float)):
            scalars.append(a)
            continue
        else:
            t = to_tensor(a, "mindspore.numpy.result_type").dtype
        dt = t if dt is None else mstype.promote(dt, t)
    if dt is None:
        return to_tensor(scalars[0], "mindspore.numpy.result_type").dtype
    for s in scalars:
        dt = mstype.promote_scalar(dt, s)
    return dt
