"""mindspore.numpy element-wise math (with MindSpore's integer rules and the ``dtype=`` cast), reductions,
NaN-ignoring reductions and cumulative sums/products."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ._utils import apply_dtype, as_float, check_axes, check_axis, to_tensor

# integer inputs of the unary functions, as MindSpore 2.10 treats them: kept ("keep"), computed in Float32
# ("float"), or refused with a TypeError ("raise", its CPU kernels have no integer version)
_INT_RULE: dict = {}
_SCALARS = (bool, int, float)


def _unary(name: str, fn, int_rule: str, bool_ok: bool = False):
    op = f"mindspore.numpy.{name}"
    _INT_RULE[name] = int_rule

    def f(x, dtype=None):
        x = to_tensor(x, op)
        if x.dtype is mstype.bool_ and not bool_ok:
            if int_rule != "float" or name not in ("sqrt", "cbrt"):
                raise TypeError(f"{op}: does not accept a Bool input")
        if not x.dtype.is_float:
            if int_rule == "raise":
                raise TypeError(f"{op}: integer input {x.dtype} is not supported (give a float Tensor)")
            if int_rule == "float":
                x = ops.cast(x, mstype.float32)
        return apply_dtype(fn(x), dtype)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Element-wise ``{name}`` (integer inputs: {int_rule}), cast to ``dtype`` when given."
    return f


def _cbrt(x):
    return ops.sign(x) * ops.pow(ops.abs(x), 1.0 / 3.0)


def _int_reciprocal(x):
    return ops.reciprocal(x) if x.dtype.is_float else ops.truncate_div(ops.ones_like(x), x)


def _exp2(x):
    return ops.pow(2, x) if not x.dtype.is_float else ops.exp2(x)


absolute = abs = _unary("absolute", ops.abs, "keep", bool_ok=True)  # noqa: A001
fabs = _unary("fabs", ops.abs, "keep")
negative = _unary("negative", ops.neg, "keep")
positive = _unary("positive", lambda x: x + 0, "keep")
square = _unary("square", ops.square, "keep")
reciprocal = _unary("reciprocal", _int_reciprocal, "keep")
exp2 = _unary("exp2", _exp2, "keep")
sqrt = _unary("sqrt", ops.sqrt, "float")
cbrt = _unary("cbrt", _cbrt, "float")
sin = _unary("sin", ops.sin, "float")
cos = _unary("cos", ops.cos, "float")
tan = _unary("tan", ops.tan, "float")
arcsin = _unary("arcsin", ops.asin, "float")
arccos = _unary("arccos", ops.acos, "float")
arctan = _unary("arctan", ops.atan, "float")
sinh = _unary("sinh", ops.sinh, "float")
cosh = _unary("cosh", ops.cosh, "float")
tanh = _unary("tanh", ops.tanh, "float")
arcsinh = _unary("arcsinh", ops.asinh, "float")
arccosh = _unary("arccosh", ops.acosh, "float")
arctanh = _unary("arctanh", ops.atanh, "float")
deg2rad = radians = _unary("deg2rad", ops.deg2rad, "float")
rad2deg = _unary("rad2deg", ops.rad2deg, "float")
sign = _unary("sign", ops.sign, "float")
fix = _unary("fix", ops.trunc, "float")
trunc = _unary("trunc", ops.trunc, "float")
ceil = _unary("ceil", ops.ceil, "float")
exp = _unary("exp", ops.exp, "raise")
expm1 = _unary("expm1", ops.expm1, "raise")
log = _unary("log", ops.log, "raise")
log2 = _unary("log2", ops.log2, "raise")
log10 = _unary("log10", ops.log10, "raise")
log1p = _unary("log1p", ops.log1p, "raise")
floor = _unary("floor", ops.floor, "raise")
rint = _unary("rint", ops.round, "raise")


def _operands(x1, x2, op):
    """Binary operands: array-likes to Tensors; a Python number next to a Tensor stays a number (MindSpore's
    scalar promotion keeps the Tensor's dtype)."""
    t1, t2 = isinstance(x1, Tensor), isinstance(x2, Tensor)
    if not t1 and not (t2 and isinstance(x1, _SCALARS)):
        x1 = to_tensor(x1, op)
    if not t2 and not (isinstance(x1, Tensor) and isinstance(x2, _SCALARS)):
        x2 = to_tensor(x2, op)
    return x1, x2


def _binary(name: str, fn, int_float: bool = False):
    op = f"mindspore.numpy.{name}"

    def f(x1, x2, dtype=None):
        a, b = _operands(x1, x2, op)
        if int_float:
            a = as_float(a) if isinstance(a, Tensor) else float(a)
            b = as_float(b) if isinstance(b, Tensor) else float(b)
        return apply_dtype(fn(a, b), dtype)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Element-wise ``{name}`` with MindSpore's type promotion, cast to ``dtype`` when given."
    return f


add = _binary("add", ops.add)
subtract = _binary("subtract", ops.sub)
multiply = _binary("multiply", ops.mul)
divide = true_divide = _binary("divide", ops.div)
power = _binary("power", ops.pow)
float_power = _binary("float_power", ops.pow, int_float=True)
maximum = _binary("maximum", ops.maximum)
minimum = _binary("minimum", ops.minimum)
arctan2 = _binary("arctan2", ops.atan2, int_float=True)
hypot = _binary("hypot", ops.hypot, int_float=True)
logaddexp = _binary("logaddexp", ops.logaddexp, int_float=True)
logaddexp2 = _binary("logaddexp2", ops.logaddexp2, int_float=True)
copysign = _binary("copysign", lambda a, b: ops.where(ops.less(b, 0), ops.neg(ops.abs(a)), ops.abs(a)) if isinstance(
    a, Tensor) and not a.dtype.is_float else ops.copysign(a, b))
heaviside = _binary("heaviside", ops.heaviside)
fmod = _binary("fmod", ops.fmod)
mod = remainder = _binary("remainder", ops.floor_mod)
floor_divide = _binary("floor_divide", ops.floor_div)
gcd = _binary("gcd", ops.gcd)
lcm = _binary("lcm", ops.lcm)
bitwise_and = _binary("bitwise_and", ops.bitwise_and)
bitwise_or = _binary("bitwise_or", ops.bitwise_or)
bitwise_xor = _binary("bitwise_xor", ops.bitwise_xor)


def divmod(x1, x2, dtype=None):  # noqa: A001 - NumPy's name
    return floor_divide(x1, x2, dtype), remainder(x1, x2, dtype)


def invert(x, dtype=None):
    op = "mindspore.numpy.invert"
    x = to_tensor(x, op)
    if not x.dtype.is_int:
        raise TypeError(f"{op}: input must be an integer Tensor, got {x.dtype}")
    return apply_dtype(ops.invert(x), dtype)


bitwise_not = invert


def clip(x, xmin, xmax, dtype=None):
    op = "mindspore.numpy.clip"
    x = to_tensor(x, op)
    if xmin is None and xmax is None:
        raise ValueError(f"{op}: one of xmin and xmax must be given")
    out = x
    if xmin is not None:
        out = ops.maximum(out, xmin if isinstance(xmin, _SCALARS) else ops.cast(to_tensor(xmin, op), x.dtype))
    if xmax is not None:
        out = ops.minimum(out, xmax if isinstance(xmax, _SCALARS) else ops.cast(to_tensor(xmax, op), x.dtype))
    return apply_dtype(out, dtype)


def around(a, decimals=0):
    """Round half to even at ``decimals`` places (``decimals`` >= 0, as MindSpore)."""
    op = "mindspore.numpy.around"
    a = to_tensor(a, op)
    if isinstance(decimals, bool) or not isinstance(decimals, int):
        raise TypeError(f"{op}: 'decimals' must be an int, got {type(decimals).__name__}")
    if decimals < 0:
        raise ValueError(f"{op}: 'decimals' < 0 is not supported, got {decimals}")
    if not a.dtype.is_float:
        return a
    if decimals == 0:
        return ops.round(a)
    factor = 10.0 ** decimals
    return ops.round(a * factor) / factor


round = around  # noqa: A001


def signbit(x, dtype=None):
    x = to_tensor(x, "mindspore.numpy.signbit")
    return apply_dtype(ops.signbit(x) if x.dtype.is_float else ops.less(x, 0), dtype)


# ---- reductions ----------------------------------------------------------------------------------------------
def _axes(a, axis, op):
    if isinstance(axis, float):
        raise TypeError(f"{op}: 'axis' must be an int or a tuple of ints, got float {axis!r}")
    return check_axes(axis, a.ndim, op)


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    """Integer and Bool inputs sum in Int64 (MindSpore's result type)."""
    op = "mindspore.numpy.sum"
    a = to_tensor(a, op)
    axes = _axes(a, axis, op)
    if dtype is not None:
        a = ops.cast(a, mstype.to_dtype(dtype))
    elif not a.dtype.is_float:
        a = ops.cast(a, mstype.int64)
    out = ops.sum(a, axes, keepdims) if axes else a
    if initial is not None:
        out = out + initial
    return out


def mean(a, axis=None, keepdims=False, dtype=None):
    """The mean; an integer input gives its dtype back (the mean truncated), as MindSpore."""
    op = "mindspore.numpy.mean"
    a = to_tensor(a, op)
    axes = _axes(a, axis, op)
    out = ops.mean(as_float(a), axes, keepdims) if axes else as_float(a)
    out = out if a.dtype.is_float else ops.cast(out, a.dtype)
    return apply_dtype(out, dtype)


def _extreme(fn, name):
    op = f"mindspore.numpy.{name}"

    def f(a, axis=None, keepdims=False, initial=None, where=True):
        a = to_tensor(a, op)
        axes = _axes(a, axis, op)
        if where is not True:
            if initial is None:
                raise ValueError(f"{op}: reducing with 'where' needs an 'initial' value")
            mask = ops.broadcast_to(ops.cast(to_tensor(where, op), mstype.bool_), a.shape)
            a = ops.select(mask, a, ops.full_like(a, initial))
        out = fn(a, axes, keepdims) if axes else a
        if initial is not None:
            out = (ops.maximum if name == "amax" else ops.minimum)(out, ops.full_like(out, initial))
        return out

    f.__name__ = f.__qualname__ = name
    return f


amax = max = _extreme(ops.amax, "amax")  # noqa: A001
amin = min = _extreme(ops.amin, "amin")  # noqa: A001


def ptp(x, axis=None, keepdims=False):
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


def _arg(fn, name, dt):
    op = f"mindspore.numpy.{name}"

    def f(a, axis=None):
        a = to_tensor(a, op)
        if axis is None:
            return ops.cast(fn(ops.reshape(a, (-1,)), 0), dt)
        return ops.cast(fn(a, check_axis(axis, a.ndim, op)), dt)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Indices of the {name[3:]}ima ({dt}, MindSpore's result type)."
    return f


argmax = _arg(ops.argmax, "argmax", mstype.int64)
argmin = _arg(ops.argmin, "argmin", mstype.int32)


def var(x, axis=None, ddof=0, keepdims=False):
    op = "mindspore.numpy.var"
    x = to_tensor(x, op)
    axes = _axes(x, axis, op)
    n = int(np.prod([x.shape[i] for i in axes])) if axes else 1
    if not axes:
        d = ops.zeros_like(as_float(x))
    elif x.dtype.is_float:
        d = x - ops.mean(x, axes, True)
    else:  # MindSpore centres an integer input on its truncated integer mean
        d = ops.cast(x - mean(x, axes, True), mstype.float32)
    return ops.sum(d * d, axes, keepdims) / float(n - ddof) if axes else d * d


def std(x, axis=None, ddof=0, keepdims=False):
    return ops.sqrt(var(x, axis, ddof, keepdims))


def average(x, axis=None, weights=None, returned=False):
    op = "mindspore.numpy.average"
    x = as_float(to_tensor(x, op))
    axes = _axes(x, axis, op)
    if weights is None:
        avg = ops.mean(x, axes)
        count = float(np.prod([x.shape[i] for i in axes]))
        wsum = ops.full_like(avg, count)
    else:
        w = ops.cast(to_tensor(weights, op), x.dtype)
        if w.shape != x.shape:
            if axis is None or w.ndim != 1 or isinstance(axis, (tuple, list)):
                raise TypeError(f"{op}: weights of shape {w.shape} need an int axis and a 1-D shape, or x's shape "
                                f"{x.shape}")
            ax = axes[0]
            if w.shape[0] != x.shape[ax]:
                raise ValueError(f"{op}: weights of length {w.shape[0]} do not match axis {ax} of {x.shape}")
            view = [1] * x.ndim
            view[ax] = w.shape[0]
            w = ops.broadcast_to(ops.reshape(w, tuple(view)), x.shape)
        wsum = ops.sum(w, axes)
        avg = ops.sum(x * w, axes) / wsum
    return (avg, wsum) if returned else avg


def _nan_filled(a, value, op):
    a = to_tensor(a, op)
    if not a.dtype.is_float:
        return a, None
    nan = ops.isnan(a)
    return ops.where(nan, ops.full_like(a, value), a), nan


def nansum(a, axis=None, dtype=None, keepdims=False):
    op = "mindspore.numpy.nansum"
    filled, _ = _nan_filled(a, 0.0, op)
    return apply_dtype(sum(filled, axis, keepdims=keepdims), dtype)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    op = "mindspore.numpy.nanmean"
    filled, nan = _nan_filled(a, 0.0, op)
    if nan is None:
        return apply_dtype(mean(filled, axis, keepdims), dtype)
    axes = _axes(filled, axis, op)
    count = ops.sum(ops.cast(ops.logical_not(nan), filled.dtype), axes, keepdims)
    return apply_dtype(ops.sum(filled, axes, keepdims) / count, dtype)


def nanmax(a, axis=None, dtype=None, keepdims=False):
    filled, _ = _nan_filled(a, -np.inf, "mindspore.numpy.nanmax")
    return apply_dtype(amax(filled, axis, keepdims), dtype)


def nanmin(a, axis=None, dtype=None, keepdims=False):
    filled, _ = _nan_filled(a, np.inf, "mindspore.numpy.nanmin")
    return apply_dtype(amin(filled, axis, keepdims), dtype)


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    op = "mindspore.numpy.nanvar"
    filled, nan = _nan_filled(a, 0.0, op)
    if nan is None:
        return apply_dtype(var(filled, axis, ddof, keepdims), dtype)
    axes = _axes(filled, axis, op)
    keep = ops.cast(ops.logical_not(nan), filled.dtype)
    count = ops.sum(keep, axes, True)
    centred = (filled - ops.sum(filled, axes, True) / count) * keep
    out = ops.sum(centred * centred, axes, keepdims) / ((count if keepdims else ops.sum(keep, axes)) - ddof)
    return apply_dtype(out, dtype)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    return apply_dtype(ops.sqrt(nanvar(a, axis, None, ddof, keepdims)), dtype)


def _cumulative(a, axis, dtype, op, fn):
    a = to_tensor(a, op)
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    ax = check_axis(axis, a.ndim, op)
    if dtype is not None:
        a = ops.cast(a, mstype.to_dtype(dtype))
    elif a.dtype is mstype.bool_ or (a.dtype.is_int and a.dtype.bits < 32):
        a = ops.cast(a, mstype.int32)
    out = fn(a, ax)
    return out if out.dtype is a.dtype else ops.cast(out, a.dtype)


def cumsum(a, axis=None, dtype=None):
    return _cumulative(a, axis, dtype, "mindspore.numpy.cumsum", ops.cumsum)


def cumprod(a, axis=None, dtype=None):
    return _cumulative(a, axis, dtype, "mindspore.numpy.cumprod", ops.cumprod)


def nancumsum(a, axis=None, dtype=None):
    filled, _ = _nan_filled(a, 0.0, "mindspore.numpy.nancumsum")
    return cumsum(filled, axis, dtype)


def count_nonzero(x, axis=None, keepdims=False):
    op = "mindspore.numpy.count_nonzero"
    x = to_tensor(x, op)
    axes = _axes(x, axis, op)
    nz = ops.cast(ops.not_equal(x, 0), mstype.int32)
    return ops.cast(ops.sum(nz, axes, keepdims), mstype.int32) if axes else nz
