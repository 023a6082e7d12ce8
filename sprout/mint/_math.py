"""mindspore.mint math with PyTorch-style names and arguments: element-wise functions, arithmetic with
``alpha``/``rounding_mode``, reductions over ``dim`` with ``keepdim``, statistics and products."""
from __future__ import annotations

import builtins

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor

_SCALARS = (bool, int, float)


def _t(x, op):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (list, tuple, np.ndarray, np.generic)):
        return Tensor(x)
    raise TypeError(f"mint.{op}: 'input' must be a Tensor, got {type(x).__name__}")


def _float(x):
    return x if x.dtype.is_float else ops.cast(x, mstype.float32)


def _unary(name, fn, ints="float"):
    """``ints``: what an integer input does: "float" (computed in Float32), "keep" (integer result) or
    "raise" (TypeError: MindSpore's CPU kernel has no integer version)."""

    def f(input):  # noqa: A002 - mint's argument name
        x = _t(input, name)
        if not x.dtype.is_float:
            if ints == "raise":
                raise TypeError(f"mint.{name}: integer input {x.dtype} is not supported (give a float Tensor)")
            if ints == "float":
                x = ops.cast(x, mstype.float32)
        return fn(x)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"Element-wise ``{name}`` (integer input: {ints})."
    return f


abs = _unary("abs", ops.abs, "keep")  # noqa: A001
neg = negative = _unary("neg", ops.neg, "keep")
square = _unary("square", ops.square, "keep")
sign = _unary("sign", ops.sign, "keep")
trunc = _unary("trunc", ops.trunc, "keep")
fix = _unary("fix", ops.trunc, "keep")
sqrt = _unary("sqrt", ops.sqrt)
rsqrt = _unary("rsqrt", ops.rsqrt)
reciprocal = _unary("reciprocal", ops.reciprocal)
acos = arccos = _unary("acos", ops.acos)
acosh = arccosh = _unary("acosh", ops.acosh)
asin = arcsin = _unary("asin", ops.asin)
asinh = arcsinh = _unary("asinh", ops.asinh)
atan = arctan = _unary("atan", ops.atan)
atanh = arctanh = _unary("atanh", ops.atanh)
cos = _unary("cos", ops.cos)
cosh = _unary("cosh", ops.cosh)
sinh = _unary("sinh", ops.sinh)
tan = _unary("tan", ops.tan)
tanh = _unary("tanh", ops.tanh)
sinc = _unary("sinc", ops.sinc)
erfc = _unary("erfc", ops.erfc)
erfinv = _unary("erfinv", ops.erfinv)
exp2 = _unary("exp2", ops.exp2)
expm1 = _unary("expm1", ops.expm1)
log10 = _unary("log10", ops.log10)
log1p = _unary("log1p", ops.log1p)
log2 = _unary("log2", ops.log2)
frac = _unary("frac", ops.frac)
exp = _unary("exp", ops.exp, "raise")
sin = _unary("sin", ops.sin, "raise")
floor = _unary("floor", ops.floor, "raise")
ceil = _unary("ceil", ops.ceil, "raise")
sigmoid = _unary("sigmoid", ops.sigmoid, "raise")
log = _unary("log", ops.log, "raise")
erf = _unary("erf", ops.erf, "raise")


def isfinite(input):  # noqa: A002
    x = _t(input, "isfinite")
    return ops.isfinite(x) if x.dtype.is_float else ops.fill(mstype.bool_, x.shape, True)


def isinf(input):  # noqa: A002
    x = _t(input, "isinf")
    return ops.isinf(x) if x.dtype.is_float else ops.fill(mstype.bool_, x.shape, False)


def isnan(tensor):
    x = _t(tensor, "isnan")
    return ops.isnan(x) if x.dtype.is_float else ops.fill(mstype.bool_, x.shape, False)


def isneginf(input):  # noqa: A002
    x = _t(input, "isneginf")
    if not x.dtype.is_float:
        return ops.fill(mstype.bool_, x.shape, False)
    return ops.logical_and(ops.isinf(x), ops.less(x, 0))


def logical_not(input):  # noqa: A002
    return ops.logical_not(_t(input, "logical_not"))


def _binary(name, fn):
    def f(input, other):  # noqa: A002
        return fn(input, other)

    f.__name__ = f.__qualname__ = name
    return f


mul = multiply = _binary("mul", ops.mul)
pow = _binary("pow", ops.pow)  # noqa: A001
maximum = _binary("maximum", ops.maximum)
minimum = _binary("minimum", ops.minimum)
atan2 = arctan2 = _binary("atan2", lambda a, b: ops.atan2(_float(a), _float(b)))
logaddexp = _binary("logaddexp", ops.logaddexp)
logaddexp2 = _binary("logaddexp2", ops.logaddexp2)
fmod = _binary("fmod", ops.fmod)
remainder = _binary("remainder", ops.floor_mod)
floor_divide = _binary("floor_divide", ops.floor_div)
eq = _binary("eq", ops.equal)
ne = not_equal = _binary("ne", ops.not_equal)
gt = greater = _binary("gt", ops.greater)
ge = greater_equal = _binary("ge", ops.greater_equal)
lt = less = _binary("lt", ops.less)
le = less_equal = _binary("le", ops.less_equal)
logical_and = _binary("logical_and", ops.logical_and)
logical_or = _binary("logical_or", ops.logical_or)
logical_xor = _binary("logical_xor", ops.logical_xor)
xlogy = _binary("xlogy", ops.xlogy)
gcd = _binary("gcd", ops.gcd)
bitwise_and = _binary("bitwise_and", ops.bitwise_and)
bitwise_or = _binary("bitwise_or", ops.bitwise_or)
bitwise_xor = _binary("bitwise_xor", ops.bitwise_xor)


def bitwise_not(input):  # noqa: A002
    return ops.invert(_t(input, "bitwise_not"))


def equal(input, other):  # noqa: A002
    """Whether the two Tensors have the same shape and values (a Python bool, as PyTorch's ``equal``)."""
    a, b = _t(input, "equal"), _t(other, "equal")
    return a.shape == b.shape and bool(ops.all(ops.equal(a, b)))


def float_power(input, exponent):  # noqa: A002
    """``input ** exponent`` in Float64 (PyTorch's rule, as MindSpore's mint)."""
    a = ops.cast(input, mstype.float64) if isinstance(input, Tensor) else float(input)
    b = ops.cast(exponent, mstype.float64) if isinstance(exponent, Tensor) else float(exponent)
    return ops.pow(a, b)


def _scaled(other, alpha):
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"mint: 'alpha' must be a number, got {type(alpha).__name__}")
    return other if alpha == 1 else other * alpha


def add(input, other, *, alpha=1):  # noqa: A002
    return ops.add(input, _scaled(other, alpha))


def sub(input, other, *, alpha=1):  # noqa: A002
    return ops.sub(input, _scaled(other, alpha))


subtract = sub


def div(input, other, *, rounding_mode=None):  # noqa: A002
    return ops.div(input, other, rounding_mode=rounding_mode)


divide = div


def addcdiv(input, tensor1, tensor2, *, value=1):  # noqa: A002
    return input + value * (tensor1 / tensor2)


def addcmul(input, tensor1, tensor2, *, value=1):  # noqa: A002
    return input + value * (tensor1 * tensor2)


def _affine(input, prod, beta, alpha):  # noqa: A002
    base = input if beta == 1 else input * beta
    return base + (prod if alpha == 1 else prod * alpha) if beta != 0 else (prod if alpha == 1 else prod * alpha)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):  # noqa: A002
    return _affine(input, mm(mat1, mat2), beta, alpha)


def addmv(input, mat, vec, *, beta=1, alpha=1):  # noqa: A002
    return _affine(input, mv(mat, vec), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    return _affine(input, ops.sum(bmm(batch1, batch2), 0), beta, alpha)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    return _affine(input, bmm(batch1, batch2), beta, alpha)


def addr_(input, vec1, vec2, beta=1, alpha=1):  # noqa: A002
    """In place: ``input = beta * input + alpha * outer(vec1, vec2)``; returns input."""
    return ops.assign(input, _affine(input, outer(vec1, vec2), beta, alpha))


def _dims(x, n, name):
    if x.ndim != n:
        raise ValueError(f"mint.{name}: expected a {n}-D input, got {x.ndim}-D {tuple(x.shape)}")


def mm(input, mat2):  # noqa: A002
    a, b = _t(input, "mm"), _t(mat2, "mm")
    _dims(a, 2, "mm")
    _dims(b, 2, "mm")
    return ops.matmul(a, b)


def bmm(input, mat2):  # noqa: A002
    a, b = _t(input, "bmm"), _t(mat2, "bmm")
    _dims(a, 3, "bmm")
    _dims(b, 3, "bmm")
    return ops.matmul(a, b)


def mv(input, vec):  # noqa: A002
    a, v = _t(input, "mv"), _t(vec, "mv")
    _dims(a, 2, "mv")
    _dims(v, 1, "mv")
    return ops.matmul(a, v)


def matmul(input, other):  # noqa: A002
    return ops.matmul(input, other)


def dot(input, other):  # noqa: A002
    a, b = _t(input, "dot"), _t(other, "dot")
    _dims(a, 1, "dot")
    _dims(b, 1, "dot")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"mint.dot: inputs of lengths {a.shape[0]} and {b.shape[0]}")
    return ops.sum(a * b)


vdot = dot  # real Tensors only: conjugation is the identity


def outer(input, vec2):  # noqa: A002
    return ops.reshape(input, (-1, 1)) * ops.reshape(vec2, (1, -1))


def inverse(input):  # noqa: A002
    return ops.inverse(input)


def trace(input):  # noqa: A002
    x = _t(input, "trace")
    _dims(x, 2, "trace")
    return ops.sum(ops.diagonal(x))


def cross(input, other, dim=None):  # noqa: A002
    return ops.cross(input, other, dim)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Pairwise p-norm distances. ``compute_mode`` chooses a kernel in PyTorch; sprout computes directly (the
    three modes give the same values)."""
    if compute_mode not in ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                            "donot_use_mm_for_euclid_dist"):
        raise ValueError(f"mint.cdist: unknown compute_mode {compute_mode!r}")
    return ops.cdist(x1, x2, p)


def cdist_(x1, x2, p=2.0):
    return ops.cdist(x1, x2, p)


def lerp(input, end, weight):  # noqa: A002
    return ops.lerp(input, end, weight)


def clamp(input, min=None, max=None):  # noqa: A002
    if min is None and max is None:
        raise ValueError("mint.clamp: at least one of 'min' and 'max' must be given")
    return ops.clamp(input, min, max)


clip = clamp


def round(input, *, decimals=0):  # noqa: A001,A002
    x = _t(input, "round")
    if decimals == 0:
        return ops.round(x)
    factor = 10.0 ** decimals
    return ops.round(x * factor) / factor


def nan_to_num(input, nan=None, posinf=None, neginf=None):  # noqa: A002
    return ops.nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)


def _red_dims(x, dim, name):
    if dim is None or dim == ():
        return tuple(range(x.ndim))
    items = dim if isinstance(dim, (tuple, list)) else (dim,)
    out = []
    for d in items:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"mint.{name}: 'dim' must be an int or a tuple of ints, got {d!r}")
        if not -builtins.max(x.ndim, 1) <= d < builtins.max(x.ndim, 1):
            raise ValueError(f"mint.{name}: dim {d} is out of range for a {x.ndim}-D input")
        out.append(int(d) % builtins.max(x.ndim, 1))
    return tuple(out)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001,A002
    """Integer and Bool inputs sum in Int64 (PyTorch's and MindSpore's rule)."""
    x = _t(input, "sum")
    if dtype is not None:
        x = ops.cast(x, mstype.to_dtype(dtype))
    elif not x.dtype.is_float:
        x = ops.cast(x, mstype.int64)
    return ops.sum(x, _red_dims(x, dim, "sum"), keepdim)


def nansum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    x = _t(input, "nansum")
    if x.dtype.is_float:
        x = ops.where(ops.isnan(x), ops.zeros_like(x), x)
    return sum(x, dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The mean; an integer input keeps its dtype (MindSpore 2.10 CPU), ``dtype`` casts the input first."""
    x = _t(input, "mean")
    if dtype is not None:
        x = ops.cast(x, mstype.to_dtype(dtype))
    out = ops.mean(_float(x), _red_dims(x, dim, "mean"), keepdim)
    return out if x.dtype.is_float else ops.cast(out, x.dtype)


def prod(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    x = _t(input, "prod")
    if dtype is not None:
        x = ops.cast(x, mstype.to_dtype(dtype))
    elif not x.dtype.is_float:
        x = ops.cast(x, mstype.int64)
    dims = _red_dims(x, dim, "prod")
    out = x
    for d in sorted(dims, reverse=True):
        out = ops.prod(out, d, keepdim)
    return out


def amax(input, dim=(), keepdim=False):  # noqa: A002
    x = _t(input, "amax")
    return ops.amax(x, _red_dims(x, dim, "amax"), keepdim)


def amin(input, dim=(), keepdim=False):  # noqa: A002
    x = _t(input, "amin")
    return ops.amin(x, _red_dims(x, dim, "amin"), keepdim)


def _extreme(name, reduce_fn, arg_fn, pair_fn):
    def f(input, dim=None, keepdim=False):  # noqa: A002
        x = _t(input, name)
        if isinstance(dim, Tensor):  # max(input, other)
            return pair_fn(x, dim)
        if dim is None:
            if keepdim:
                raise TypeError(f"mint.{name}: 'keepdim' needs 'dim'")
            return reduce_fn(x)
        d = _red_dims(x, dim, name)[0]
        return reduce_fn(x, d, keepdim), ops.cast(arg_fn(x, d, keepdim), mstype.int64)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"``{name}(input)``: the {name}imum; ``{name}(input, dim, keepdim=False)``: (values, Int64 "
                 f"indices); ``{name}(input, other)``: element-wise {name}imum.")
    return f


max = _extreme("max", lambda x, *a: ops.amax(x, *a), lambda x, d, k: ops.argmax(x, d, k),  # noqa: A001
               ops.maximum)
min = _extreme("min", lambda x, *a: ops.amin(x, *a), lambda x, d, k: ops.argmin(x, d, k),  # noqa: A001
               ops.minimum)


def argmax(input, dim=None, keepdim=False):  # noqa: A002
    x = _t(input, "argmax")
    if dim is None:
        out = ops.argmax(ops.reshape(x, (-1,)), 0)
        return ops.cast(ops.reshape(out, (1,) * x.ndim) if keepdim else out, mstype.int64)
    return ops.cast(ops.argmax(x, _red_dims(x, dim, "argmax")[0], keepdim), mstype.int64)


def argmin(input, dim=None, keepdim=False):  # noqa: A002
    x = _t(input, "argmin")
    if dim is None:
        out = ops.argmin(ops.reshape(x, (-1,)), 0)
        return ops.cast(ops.reshape(out, (1,) * x.ndim) if keepdim else out, mstype.int64)
    return ops.cast(ops.argmin(x, _red_dims(x, dim, "argmin")[0], keepdim), mstype.int64)


def all(input, dim=None, keepdim=False):  # noqa: A001,A002
    x = _t(input, "all")
    return ops.all(ops.cast(x, mstype.bool_), _red_dims(x, dim, "all"), keepdim)


def any(input, dim=None, keepdim=False):  # noqa: A001,A002
    x = _t(input, "any")
    return ops.any(ops.cast(x, mstype.bool_), _red_dims(x, dim, "any"), keepdim)


def var(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    x = _float(_t(input, "var"))
    dims = _red_dims(x, dim, "var")
    n = int(np.prod([x.shape[d] for d in dims]))
    centred = x - ops.mean(x, dims, True)
    return ops.sum(centred * centred, dims, keepdim) / float(builtins.max(n - correction, 0))


def std(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    return ops.sqrt(var(input, dim, correction=correction, keepdim=keepdim))


def var_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    x = _float(_t(input, "var_mean"))
    return var(x, dim, correction=correction, keepdim=keepdim), mean(x, dim, keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):  # noqa: A002
    x = _float(_t(input, "std_mean"))
    return std(x, dim, correction=correction, keepdim=keepdim), mean(x, dim, keepdim)


def median(input, dim=None, keepdim=False):  # noqa: A002
    """The lower median: of all elements, or (values, Int64 indices) along ``dim``."""
    x = _t(input, "median")
    if dim is None:
        flat = ops.sort(ops.reshape(x, (-1,)))[0]
        return flat[(flat.shape[0] - 1) // 2]
    d = _red_dims(x, dim, "median")[0]
    vals, idx = ops.sort(x, d)
    k = (x.shape[d] - 1) // 2
    v, i = ops.narrow(vals, d, k, 1), ops.narrow(idx, d, k, 1)
    if not keepdim:
        v, i = ops.squeeze(v, d), ops.squeeze(i, d)
    return v, ops.cast(i, mstype.int64)


def logsumexp(input, dim, keepdim=False):  # noqa: A002
    x = _float(_t(input, "logsumexp"))
    return ops.logsumexp(x, _red_dims(x, dim, "logsumexp"), keepdim)


def _cumulative(name, fn):
    def f(input, dim, dtype=None):  # noqa: A002
        x = _t(input, name)
        if dtype is not None:
            x = ops.cast(x, mstype.to_dtype(dtype))
        elif not x.dtype.is_float:
            x = ops.cast(x, mstype.int64)
        return fn(x, _red_dims(x, dim, name)[0])

    f.__name__ = f.__qualname__ = name
    return f


cumsum = _cumulative("cumsum", ops.cumsum)
cumprod = _cumulative("cumprod", ops.cumprod)


def cummax(input, dim):  # noqa: A002
    x = _t(input, "cummax")
    v, i = ops.cummax(x, _red_dims(x, dim, "cummax")[0])
    return v, ops.cast(i, mstype.int64)


def cummin(input, dim):  # noqa: A002
    x = _t(input, "cummin")
    v, i = ops.cummin(x, _red_dims(x, dim, "cummin")[0])
    return v, ops.cast(i, mstype.int64)


def count_nonzero(input, dim=None):  # noqa: A002
    x = _t(input, "count_nonzero")
    return ops.sum(ops.cast(ops.not_equal(x, 0), mstype.int64), _red_dims(x, dim, "count_nonzero"))


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """The p-norm of the whole input (or over ``dim``): "fro" and 2 the square root of the sum of squares,
    inf/-inf the largest/smallest magnitude, 0 the count of non-zeros, other p the (sum |x|^p)^(1/p)."""
    x = _float(_t(input, "norm"))
    if dtype is not None:
        x = ops.cast(x, mstype.to_dtype(dtype))
    dims = _red_dims(x, dim, "norm")
    a = ops.abs(x)
    if p in ("fro", 2, 2.0, None):
        return ops.sqrt(ops.sum(x * x, dims, keepdim))
    if p == "nuc":
        raise ValueError("mint.norm: use mint.linalg.matrix_norm for the nuclear norm")
    if p == float("inf"):
        return ops.amax(a, dims, keepdim)
    if p == float("-inf"):
        return ops.amin(a, dims, keepdim)
    if p == 0:
        return ops.sum(ops.cast(ops.not_equal(x, 0), x.dtype), dims, keepdim)
    if p == 1:
        return ops.sum(a, dims, keepdim)
    return ops.pow(ops.sum(ops.pow(a, float(p)), dims, keepdim), 1.0 / float(p))


def diff(input, n=1, dim=-1, prepend=None, append=None):  # noqa: A002
    return ops.diff(input, n, dim, prepend, append)


def softmax(input, dim, *, dtype=None):  # noqa: A002
    x = _t(input, "softmax")
    if dtype is not None:
        x = ops.cast(x, mstype.to_dtype(dtype))
    return ops.softmax(x, dim)


def softmax_ext(input, dim=None, dtype=None):  # noqa: A002
    x = _t(input, "softmax_ext")
    return softmax(x, -1 if dim is None else dim, dtype=dtype)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    return ops.isclose(input, other, rtol, atol, equal_nan)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    """Whether every element is close (a Python bool, as PyTorch's)."""
    return bool(ops.all(ops.isclose(input, other, rtol, atol, equal_nan)))


def item(input):  # noqa: A002
    x = _t(input, "item")
    if x.size != 1:
        raise ValueError(f"mint.item: only a one-element Tensor can be converted, got shape {tuple(x.shape)}")
    return x.asnumpy().reshape(()).item()
