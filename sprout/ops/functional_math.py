"""Functional API of the math primitives (``ops/math_ops.py``) and the composites built on them."""
from __future__ import annotations

import math

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import math_ops as M
from .functional import _as_tensor, _bin, _to_float, add, cast, div, exp, log, mul, pow, sub, trunc, where

__all__ = ["tan", "asin", "arcsin", "acos", "arccos", "atan", "arctan", "sinh", "cosh", "asinh", "arcsinh", "acosh",
           "arccosh", "atanh", "arctanh", "sinc", "erfc", "erfinv", "lgamma", "digamma", "polygamma", "mvlgamma",
           "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1",
           "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e", "i0", "atan2", "arctan2", "hypot", "xlogy", "xdivy",
           "copysign", "fmod", "logaddexp", "logaddexp2", "heaviside", "nextafter", "igamma", "igammac", "gammainc",
           "gammaincc", "zeta", "truncate_div", "truncate_mod", "gcd", "lcm", "bitwise_left_shift",
           "bitwise_right_shift", "invert", "bitwise_not", "signbit", "population_count", "log2", "log10", "exp2",
           "frac", "ldexp", "float_power", "float_power_ext", "lerp", "deg2rad", "rad2deg", "logit", "sgn", "positive",
           "subtract",
           "multiply", "floor_divide", "floormod", "cosine_similarity", "tensor_add", "tensor_sub",
           "tensor_mul", "tensor_div", "tensor_pow", "tensor_mod", "tensor_floordiv", "tensor_gt", "tensor_ge",
           "tensor_lt", "tensor_le", "tensor_exp", "tensor_expm1", "tensor_muls", "pows", "fmax", "fmin",
           "nan_to_num", "addcdiv", "addcmul", "isneginf", "isposinf", "isreal", "is_complex", "is_nonzero",
           "approximate_equal", "eq", "erfinv_", "inv", "full_like"]


def _float_unary(prim, lift: bool = False):
    """MindSpore's CPU kernels refuse integer inputs to most of these (TypeError from the op's infer rule);
    ``lift``: the few that accept them compute in float32 (sinc, lgamma)."""
    def fn(input):  # noqa: A002 - MindSpore's argument name
        x = _as_tensor(input, prim.name)
        return bind(prim, (_to_float(x) if lift else x,), {})

    fn.__name__ = prim.name.lower()
    fn.__doc__ = f"Elementwise {prim.name}" + ("; integer inputs compute in float32." if lift else " (float inputs).")
    return fn


tan = _float_unary(M.TAN)
asin = arcsin = _float_unary(M.ASIN)
acos = arccos = _float_unary(M.ACOS)
atan = arctan = _float_unary(M.ATAN)
sinh = _float_unary(M.SINH)
cosh = _float_unary(M.COSH)
asinh = arcsinh = _float_unary(M.ASINH)
acosh = arccosh = _float_unary(M.ACOSH)
atanh = arctanh = _float_unary(M.ATANH)
sinc = _float_unary(M.SINC, lift=True)
erfc = _float_unary(M.ERFC)
erfinv = _float_unary(M.ERFINV)
lgamma = _float_unary(M.LGAMMA, lift=True)
digamma = _float_unary(M.DIGAMMA)
bessel_i0 = i0 = _float_unary(M.BESSEL_I0)
bessel_i0e = _float_unary(M.BESSEL_I0E)
bessel_i1 = _float_unary(M.BESSEL_I1)
bessel_i1e = _float_unary(M.BESSEL_I1E)
bessel_j0 = _float_unary(M.BESSEL_J0)
bessel_j1 = _float_unary(M.BESSEL_J1)
bessel_y0 = _float_unary(M.BESSEL_Y0)
bessel_y1 = _float_unary(M.BESSEL_Y1)
bessel_k0 = _float_unary(M.BESSEL_K0)
bessel_k0e = _float_unary(M.BESSEL_K0E)
bessel_k1 = _float_unary(M.BESSEL_K1)
bessel_k1e = _float_unary(M.BESSEL_K1E)


def erfinv_(input):  # noqa: A002
    """In-place spelling: the tensor's memory takes the result (returned too)."""
    from .functional_gather import write_inplace

    return write_inplace(input, erfinv(input), "erfinv_")


def polygamma(n, input):  # noqa: A002
    """The n-th derivative of digamma; ``n`` a non-negative int (or an int 0-d tensor)."""
    n = int(n.item()) if isinstance(n, Tensor) else n
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise TypeError(f"polygamma: n must be a non-negative int, got {n!r}")
    return bind(M.POLYGAMMA, (_as_tensor(input, "Polygamma"),), {"n": n})


def mvlgamma(input, p):  # noqa: A002
    """Multivariate log-gamma of dimension ``p``: sum_j lgamma(x - j/2) + p(p-1)/4 log(pi); every
    element must exceed (p - 1) / 2."""
    x = _as_tensor(input, "mvlgamma")
    if not x.dtype.is_float:
        raise TypeError(f"mvlgamma: expects a float tensor, got {x.dtype}")
    if not isinstance(p, int) or p < 1:
        raise ValueError(f"mvlgamma: p must be a positive int, got {p!r}")
    if np.any(x.asnumpy() <= (p - 1) / 2) if not _tracing() else False:
        raise ValueError(f"mvlgamma: every element of input must be greater than (p - 1) / 2 = {(p - 1) / 2}")
    total = None
    for j in range(p):
        term = lgamma(sub(x, j / 2.0))
        total = term if total is None else add(total, term)
    return add(total, p * (p - 1) / 4.0 * math.log(math.pi))


def _tracing() -> bool:
    from ..core import dispatch

    return bool(dispatch._builders)


def _float_binary(prim, name=None, lift=False):
    """Promote the operands; integer tensors are refused by the op (``lift``: computed in float32)."""
    def fn(input, other):  # noqa: A002
        a, b = _bin(input, other, prim.name)
        if lift:
            a = _to_float(a) if isinstance(a, Tensor) else float(a)
            b = _to_float(b) if isinstance(b, Tensor) else float(b)
        if isinstance(a, Tensor) and isinstance(b, Tensor) and a.dtype is not b.dtype:
            dt = mstype.promote(a.dtype, b.dtype)
            a, b = cast(a, dt), cast(b, dt)
        if not isinstance(a, Tensor) and not isinstance(b, Tensor):
            a = Tensor(a)
        return bind(prim, (a, b), {})

    fn.__name__ = name or prim.name.lower()
    return fn


atan2 = arctan2 = _float_binary(M.ATAN2, "atan2")
hypot = _float_binary(M.HYPOT, "hypot")
xlogy = _float_binary(M.XLOGY, "xlogy")
xdivy = _float_binary(M.XDIVY, "xdivy")
copysign = _float_binary(M.COPYSIGN, "copysign", lift=True)
logaddexp = _float_binary(M.LOGADDEXP, "logaddexp")
logaddexp2 = _float_binary(M.LOGADDEXP2, "logaddexp2")
nextafter = _float_binary(M.NEXTAFTER, "nextafter")
igamma = gammainc = _float_binary(M.IGAMMA, "igamma")
igammac = gammaincc = _float_binary(M.IGAMMAC, "igammac")
zeta = _float_binary(M.ZETA, "zeta")


def heaviside(input, values):  # noqa: A002
    """0 for x < 0, ``values`` where x == 0, 1 for x > 0 (integer inputs keep their dtype)."""
    return _float_binary(M.HEAVISIDE, "heaviside")(input, values)


def fmod(input, other):  # noqa: A002
    """Remainder with the sign of the dividend (C's fmod); integers stay integers."""
    a, b = _bin(input, other, "Fmod")
    if isinstance(a, Tensor) and a.dtype.is_float or isinstance(b, Tensor) and b.dtype.is_float:
        return _float_binary(M.FMOD)(a, b)
    return truncate_mod(a, b)


def _int_binary(prim, name):
    def fn(input, other):  # noqa: A002
        a, b = _bin(input, other, prim.name)
        if not isinstance(a, Tensor):
            a = Tensor(a)
        return bind(prim, (a, b), {})

    fn.__name__ = name
    return fn


truncate_div = _int_binary(M.TRUNCATE_DIV, "truncate_div")
truncate_mod = _int_binary(M.TRUNCATE_MOD, "truncate_mod")
gcd = _int_binary(M.GCD, "gcd")
lcm = _int_binary(M.LCM, "lcm")
bitwise_left_shift = _int_binary(M.LEFT_SHIFT, "bitwise_left_shift")
bitwise_right_shift = _int_binary(M.RIGHT_SHIFT, "bitwise_right_shift")


def invert(input):  # noqa: A002
    """Bitwise NOT of an integer (or bool) tensor."""
    return bind(M.INVERT, (_as_tensor(input, "Invert"),), {})


bitwise_not = invert


def signbit(input):  # noqa: A002
    return bind(M.SIGNBIT, (_as_tensor(input, "SignBit"),), {})


def population_count(input_x):
    """The number of set bits of each element (UInt8)."""
    return bind(M.POPULATION_COUNT, (_as_tensor(input_x, "PopulationCount"),), {})


# ---- composites -------------------------------------------------------------------------------------------
_LN2, _LN10 = math.log(2.0), math.log(10.0)


def _float_only(x, op):
    from .composite import _float_input

    return _float_input(x, op)


def _float_or_complex(x, op):
    t = _as_tensor(x, op)
    return t if t.dtype.is_complex else _float_only(t, op)


def log2(input):  # noqa: A002
    return div(log(_float_or_complex(input, "log2")), _LN2)


def log10(input):  # noqa: A002
    return div(log(_float_or_complex(input, "log10")), _LN10)


def exp2(input):  # noqa: A002
    return pow(2.0, _to_float(_as_tensor(input, "exp2")))


def frac(input):  # noqa: A002
    """The fractional part, with the sign of the input: x - trunc(x)."""
    x = _as_tensor(input, "frac")
    return sub(x, trunc(x))


def ldexp(x, other):
    """x * 2**other."""
    return mul(x, pow(2.0, _to_float(_as_tensor(other, "ldexp"))))


def float_power(input, exponent):  # noqa: A002
    """Power computed in float64 (MindSpore: the result is Float64)."""
    a = cast(input, mstype.float64) if isinstance(input, Tensor) else input
    b = cast(exponent, mstype.float64) if isinstance(exponent, Tensor) else exponent
    if not isinstance(a, Tensor):
        a = Tensor(np.asarray(a, np.float64))
    return pow(a, b)


def float_power_ext(input, exponent):  # noqa: A002
    """``float_power`` as MindSpore's float_power_ext: a Float64 result; complex operands and two numbers are a
    TypeError."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError(f"float_power_ext: at least one of input and exponent must be a Tensor, got "
                        f"{type(input).__name__} and {type(exponent).__name__}")
    for name, v in (("input", input), ("exponent", exponent)):
        if isinstance(v, complex) or (isinstance(v, Tensor) and v.dtype.is_complex):
            raise TypeError(f"float_power_ext: {name} must be a Tensor or a number (not complex), got "
                            f"{v.dtype if isinstance(v, Tensor) else type(v).__name__}")
        if not isinstance(v, (Tensor, bool, int, float)):
            raise TypeError(f"float_power_ext: {name} must be a Tensor or a number, got {type(v).__name__}")
    return float_power(input, exponent)


def lerp(input, end, weight):  # noqa: A002
    """input + weight * (end - input)."""
    return add(input, mul(weight, sub(end, input)))


def deg2rad(x):
    return mul(_float_only(x, "deg2rad"), math.pi / 180.0)


def rad2deg(x):
    return mul(_float_only(x, "rad2deg"), 180.0 / math.pi)


def logit(input, eps=None):  # noqa: A002
    """log(p / (1 - p)), p clamped to [eps, 1 - eps] when eps is given."""
    from .composite import clamp

    x = _float_only(input, "logit")
    if eps is not None:
        x = clamp(x, float(eps), 1.0 - float(eps))
    return log(div(x, sub(1.0, x)))


def sgn(input):  # noqa: A002
    from .functional import sign

    return sign(input)


def positive(input):  # noqa: A002
    x = _as_tensor(input, "positive")
    if x.dtype is mstype.bool_:
        raise TypeError("positive: a Bool tensor has no positive (use a numeric tensor)")
    return x


def subtract(input, other, *, alpha=1):  # noqa: A002
    return sub(input, other if alpha == 1 else mul(other, alpha))


def multiply(input, other):  # noqa: A002
    return mul(input, other)


def floor_divide(input, other):  # noqa: A002
    from .functional import floor_div

    return floor_div(input, other)


def floormod(x, y):
    from .functional import floor_mod

    return floor_mod(x, y)


def inv(x):
    """1 / x; an integer tensor stays integer (truncated quotient), as MindSpore's Inv."""
    from .functional import reciprocal

    t = _as_tensor(x, "Inv")
    return reciprocal(t) if t.dtype.is_float else truncate_div(Tensor(np.ones((), t.dtype.np)), t)


# old-style aliases MindSpore still exports (ops.tensor_add ...)
tensor_add = add
tensor_sub = sub
tensor_mul = mul
tensor_div = div
tensor_pow = pow
tensor_muls = mul
pows = pow
tensor_exp = exp


def tensor_mod(x, y):
    from .functional import floor_mod

    return floor_mod(x, y)


def tensor_floordiv(x, y):
    from .functional import floor_div

    return floor_div(x, y)


def tensor_gt(x, y):
    from .functional import greater

    return greater(x, y)


def tensor_ge(x, y):
    from .functional import greater_equal

    return greater_equal(x, y)


def tensor_lt(x, y):
    from .functional import less

    return less(x, y)


def tensor_le(x, y):
    from .functional import less_equal

    return less_equal(x, y)


def tensor_expm1(x):
    from .functional import expm1

    return expm1(x)


def eq(input, other):  # noqa: A002
    from .functional import equal

    return equal(input, other)


def _nan_safe(op_max: bool):
    def fn(input, other):  # noqa: A002
        """Elementwise max/min that ignores NaN: a NaN operand yields the other one."""
        from .functional import isnan, maximum, minimum

        a, b = _bin(input, other, "fmax" if op_max else "fmin")
        if not isinstance(a, Tensor):
            a = Tensor(a)
        m = maximum(a, b) if op_max else minimum(a, b)
        if not m.dtype.is_float:
            return m
        bt = b if isinstance(b, Tensor) else Tensor(np.asarray(b, a.dtype.np))
        return where(isnan(a), bt, where(isnan(bt), a, m))

    fn.__name__ = "fmax" if op_max else "fmin"
    return fn


fmax = _nan_safe(True)
fmin = _nan_safe(False)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):  # noqa: A002
    """NaN -> ``nan``, +inf -> ``posinf`` (default: the dtype's max), -inf -> ``neginf`` (the dtype's min)."""
    from .functional import isinf, isnan

    x = _as_tensor(input, "nan_to_num")
    if not x.dtype.is_float:
        return x
    info = np.finfo(x.dtype.np)
    hi = float(info.max) if posinf is None else float(posinf)
    lo = float(info.min) if neginf is None else float(neginf)
    y = where(isnan(x), float(nan), x)
    y = where(isinf(y) & (y > 0), hi, y)
    return where(isinf(y) & (y < 0), lo, y)


def addcdiv(input, tensor1, tensor2, value=1):  # noqa: A002
    return add(input, mul(div(tensor1, tensor2), value))


def addcmul(input, tensor1, tensor2, value=1):  # noqa: A002
    return add(input, mul(mul(tensor1, tensor2), value))


def isneginf(input):  # noqa: A002
    from .functional import isinf, less

    x = _float_only(input, "isneginf")
    return isinf(x) & less(x, 0)


def isposinf(input):  # noqa: A002
    from .functional import greater, isinf

    x = _float_only(input, "isposinf")
    return isinf(x) & greater(x, 0)


def isreal(input):  # noqa: A002
    """True where an element's imaginary part is 0 (everywhere for a real tensor)."""
    from .functional import equal, ones_like
    from .complex_ops import imag

    x = _as_tensor(input, "isreal")
    if x.dtype.is_complex:
        return equal(imag(x), 0)
    return cast(ones_like(x), mstype.bool_)


def is_complex(input):  # noqa: A002
    return _as_tensor(input, "is_complex").dtype.is_complex


def is_nonzero(input):  # noqa: A002
    x = _as_tensor(input, "is_nonzero")
    if x.size != 1:
        raise RuntimeError(f"is_nonzero: the input must hold exactly one element, got shape {list(x.shape)}")
    return bool(x.asnumpy().reshape(()) != 0)


def approximate_equal(x, y, tolerance=1e-5):
    """|x - y| < tolerance, elementwise."""
    from .functional import abs as abs_, less

    return less(abs_(sub(x, y)), float(tolerance))


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """sum(x1 * x2) / max(||x1|| * ||x2||, eps) along ``dim``."""
    from .functional import maximum, sqrt, sum as sum_

    w12 = sum_(mul(x1, x2), dim)
    n1 = sum_(mul(x1, x1), dim)
    n2 = sum_(mul(x2, x2), dim)
    return div(w12, sqrt(maximum(mul(n1, n2), float(eps) ** 2)))



def full_like(input, fill_value, *, dtype=None):  # noqa: A002
    """A tensor of ``input``'s shape filled with ``fill_value`` (``input``'s dtype unless ``dtype``)."""
    from .functional import fill

    x = _as_tensor(input, "full_like")
    return fill(dtype or x.dtype, x.shape, fill_value.item() if isinstance(fill_value, Tensor) else fill_value)
