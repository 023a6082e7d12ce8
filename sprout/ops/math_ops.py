"""More elementwise math primitives: trigonometric/hyperbolic, special functions (SciPy), Bessel functions,
two-argument float functions and integer bit operations. One record each, built by ``elementwise``."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.op import FuseSpec, Op, OpError, register
from ..core.types import TensorType
from ._infer import elementwise_infer
from ._quiet import quiet
from .elementwise import _cj, _no_grad, _unbroadcast, elementwise, int_zero_divisor

_B = mstype.bool_


def _floats_only(xs, kinds: str = "f") -> None:
    """The kernels below run eagerly without the infer rule: refuse what NumPy would quietly accept (an
    integer tensor); dispatch then reports the infer rule's TypeError, which names the op."""
    for x in xs:
        if isinstance(x, np.ndarray) and x.dtype.kind not in kinds:
            raise TypeError("float tensors only")


def _quiet(fn, kinds: str = "f"):
    """``fn`` with NumPy's domain/overflow warnings off: out-of-domain inputs give NaN/inf silently."""
    run = quiet(fn, divide="ignore", invalid="ignore", over="ignore")

    def impl(*xs):
        _floats_only(xs, kinds)
        return run(*xs)

    impl.__name__ = getattr(fn, "__name__", "impl")
    return impl


_SCIPY: dict = {}


def scipy_special(name: str):
    """A ``scipy.special`` function, imported on first use (importing SciPy costs ~0.3 s)."""
    fn = _SCIPY.get(name)
    if fn is None:
        import scipy.special

        fn = _SCIPY[name] = getattr(scipy.special, name)
    return fn


def _special(name: str):
    """A kernel calling ``scipy.special.<name>``; the result keeps the first float input's dtype."""
    def impl(*xs):
        _floats_only(xs)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = np.asarray(scipy_special(name)(*xs))
        ref = next((x for x in xs if isinstance(x, np.ndarray) and x.dtype.kind == "f"), None)
        return out.astype(ref.dtype, copy=False) if ref is not None else out

    impl.__name__ = name
    return impl


def _call_impl(nin: int) -> FuseSpec:
    args = ", ".join(f"{{{k}}}" for k in range(nin))
    return FuseSpec(lines=(f"_np.copyto({{out}}, {{impl}}({args}), casting='unsafe')",), nin=nin, transcendental=True)


def _ufunc(u, scalar=None) -> FuseSpec:
    return FuseSpec(ufunc=u, scalar=scalar, transcendental=True)


def _unary(name, fn, grad, *, fuse=None, cplx=False):
    """A float unary op whose bprop is ``dout * grad(x, out)``; with ``cplx`` also a holomorphic function of
    complex tensors (NumPy's principal branches), whose bprop is ``dout * conj(grad(x, out))``."""
    kinds = "fc" if cplx else "f"
    op = elementwise(name, _quiet(fn, kinds) if isinstance(fn, np.ufunc) else fn,
                     lambda x, out, d: (F.mul(d, _cj(grad(x, out))),), kinds=kinds,
                     fuse=fuse or (_ufunc(fn) if isinstance(fn, np.ufunc) else _call_impl(1)))
    if cplx:
        op.extra["complex_grad"] = True
    return op


def _recip_sqrt(v):
    return F.rsqrt(v)


# ---- trigonometric and hyperbolic ------------------------------------------------------------------------
def _acosh_grad(x, out):
    if x.dtype.is_complex:  # 1 / sqrt(z^2 - 1) is on the wrong branch off the real axis (Re z < 0)
        return F.reciprocal(F.mul(F.sqrt(F.sub(x, 1)), F.sqrt(F.add(x, 1))))
    return _recip_sqrt(F.sub(F.square(x), 1))


TAN = _unary("Tan", np.tan, lambda x, out: F.add(F.square(out), 1), fuse=_ufunc(np.tan, "np.tan({0})"), cplx=True)
ASIN = _unary("Asin", np.arcsin, lambda x, out: _recip_sqrt(F.sub(1, F.square(x))), cplx=True)
ACOS = _unary("ACos", np.arccos, lambda x, out: F.neg(_recip_sqrt(F.sub(1, F.square(x)))), cplx=True)
ATAN = _unary("Atan", np.arctan, lambda x, out: F.reciprocal(F.add(F.square(x), 1)), cplx=True)
SINH = _unary("Sinh", np.sinh, lambda x, out: F.cosh(x), fuse=_ufunc(np.sinh, "np.sinh({0})"), cplx=True)
COSH = _unary("Cosh", np.cosh, lambda x, out: F.sinh(x), fuse=_ufunc(np.cosh, "np.cosh({0})"), cplx=True)
ASINH = _unary("Asinh", np.arcsinh, lambda x, out: _recip_sqrt(F.add(F.square(x), 1)), cplx=True)
ACOSH = _unary("Acosh", np.arccosh, _acosh_grad, cplx=True)
ATANH = _unary("Atanh", np.arctanh, lambda x, out: F.reciprocal(F.sub(1, F.square(x))), cplx=True)


def _sinc_grad(x, out):
    safe = F.where(F.equal(x, 0), F.ones_like(x), x)
    g = F.div(F.sub(F.cos(F.mul(safe, np.pi)), out), safe)
    return F.where(F.equal(x, 0), F.zeros_like(x), g)


SINC = _unary("Sinc", np.sinc, _sinc_grad, fuse=_call_impl(1))

# ---- special functions ------------------------------------------------------------------------------------
_TWO_OVER_SQRT_PI = 2.0 / np.sqrt(np.pi)
ERFC = _unary("Erfc", _special("erfc"), lambda x, out: F.mul(F.exp(F.neg(F.square(x))), -_TWO_OVER_SQRT_PI))
ERFINV = _unary("Erfinv", _special("erfinv"), lambda x, out: F.mul(F.exp(F.square(out)), np.sqrt(np.pi) / 2))
LGAMMA = _unary("Lgamma", _special("gammaln"), lambda x, out: F.digamma(x))
DIGAMMA = _unary("Digamma", _special("psi"), lambda x, out: F.polygamma(1, x))


def _polygamma_impl(x, n):
    _floats_only((x,))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.asarray(scipy_special("polygamma")(n, x)).astype(x.dtype, copy=False)


_float_infer = elementwise_infer("Polygamma", kinds="f")


def _polygamma_infer(x, n):
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise OpError(f"Polygamma: n must be a non-negative int, got {n!r}")
    return _float_infer(x)


def _polygamma_bprop(x, out, d, n):
    return (F.mul(d, F.polygamma(n + 1, x)),)


# n is an attr the kernel templates cannot see: a group never fuses through Polygamma
POLYGAMMA = register(Op("Polygamma", _polygamma_impl, _polygamma_infer, _polygamma_bprop, "elementwise", fuse=False))

# ---- Bessel functions (x != 0 where a term divides by x) ----------------------------------------------------


def _over_x(v, x):
    """v / x, with the limit 0 at x == 0 (every use below pairs it with a term that is finite there)."""
    safe = F.where(F.equal(x, 0), F.ones_like(x), x)
    return F.where(F.equal(x, 0), F.zeros_like(x), F.div(v, safe))


BESSEL_I0 = _unary("BesselI0", _special("i0"), lambda x, out: F.bessel_i1(x))
BESSEL_I0E = _unary("BesselI0e", _special("i0e"), lambda x, out: F.sub(F.bessel_i1e(x), F.mul(F.sign(x), out)))
BESSEL_I1 = _unary("BesselI1", _special("i1"),
                   lambda x, out: F.where(F.equal(x, 0), F.full_like(x, 0.5), F.sub(F.bessel_i0(x), _over_x(out, x))))
BESSEL_I1E = _unary("BesselI1e", _special("i1e"), lambda x, out: F.where(
    F.equal(x, 0), F.full_like(x, 0.5),
    F.sub(F.sub(F.bessel_i0e(x), F.mul(F.sign(x), out)), _over_x(out, x))))
BESSEL_J0 = _unary("BesselJ0", _special("j0"), lambda x, out: F.neg(F.bessel_j1(x)))
BESSEL_J1 = _unary("BesselJ1", _special("j1"),
                   lambda x, out: F.where(F.equal(x, 0), F.full_like(x, 0.5), F.sub(F.bessel_j0(x), _over_x(out, x))))
BESSEL_Y0 = _unary("BesselY0", _special("y0"), lambda x, out: F.neg(F.bessel_y1(x)))
BESSEL_Y1 = _unary("BesselY1", _special("y1"), lambda x, out: F.sub(F.bessel_y0(x), F.div(out, x)))
BESSEL_K0 = _unary("BesselK0", _special("k0"), lambda x, out: F.neg(F.bessel_k1(x)))
BESSEL_K0E = _unary("BesselK0e", _special("k0e"), lambda x, out: F.sub(out, F.bessel_k1e(x)))
BESSEL_K1 = _unary("BesselK1", _special("k1"), lambda x, out: F.neg(F.add(F.bessel_k0(x), F.div(out, x))))
BESSEL_K1E = _unary("BesselK1e", _special("k1e"),
                    lambda x, out: F.sub(F.mul(out, F.sub(1, F.reciprocal(x))), F.bessel_k0e(x)))

# ---- two-argument float functions ------------------------------------------------------------------------


def _binary(name, fn, bprop, fuse=None):
    return elementwise(name, _quiet(fn) if isinstance(fn, np.ufunc) else fn, bprop, kinds="f",
                       fuse=fuse or (_ufunc(fn) if isinstance(fn, np.ufunc) else _call_impl(2)))


def _atan2_bprop(y, x, out, d):
    r2 = F.add(F.square(x), F.square(y))
    return _unbroadcast(F.mul(d, F.div(x, r2)), y), _unbroadcast(F.mul(d, F.div(F.neg(y), r2)), x)


def _hypot_bprop(x, y, out, d):
    return _unbroadcast(F.mul(d, F.div(x, out)), x), _unbroadcast(F.mul(d, F.div(y, out)), y)


def _xlogy_impl(x, y):
    """x * log(y). MindSpore 2.10's CPU kernel computes exactly this (xlogy(0, 0) is NaN), although its
    documentation promises 0 wherever x == 0; sprout follows the kernel."""
    _floats_only((x, y))
    with np.errstate(divide="ignore", invalid="ignore"):
        return x * np.log(y)


def _xlogy_bprop(x, y, out, d):
    return _unbroadcast(F.mul(d, F.log(y)), x), _unbroadcast(F.mul(d, F.div(x, y)), y)


def _xdivy_impl(x, y):
    _floats_only((x, y))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.true_divide(x, y)
    return np.where(x == 0, np.zeros((), out.dtype), out).astype(out.dtype, copy=False)


def _xdivy_bprop(x, y, out, d):
    nz = F.not_equal(x, 0)
    gx = F.where(nz, F.reciprocal(y), F.zeros_like(out))
    gy = F.where(nz, F.neg(F.div(out, y)), F.zeros_like(out))
    return _unbroadcast(F.mul(d, gx), x), _unbroadcast(F.mul(d, gy), y)


def _copysign_bprop(x, y, out, d):
    flip = F.mul(F.sign(x), F.sign(out))
    return _unbroadcast(F.mul(d, flip), x), (None if not hasattr(y, "shape") else _unbroadcast(F.zeros_like(d), y))


def _fmod_bprop(x, y, out, d):
    q = F.trunc(F.div(x, y))
    return _unbroadcast(d, x), (None if not hasattr(y, "shape") else _unbroadcast(F.neg(F.mul(d, q)), y))


def _logaddexp_bprop(x, y, out, d):
    return _unbroadcast(F.mul(d, F.exp(F.sub(x, out))), x), _unbroadcast(F.mul(d, F.exp(F.sub(y, out))), y)


def _logaddexp2_bprop(x, y, out, d):
    return (_unbroadcast(F.mul(d, F.pow(2.0, F.sub(x, out))), x),
            _unbroadcast(F.mul(d, F.pow(2.0, F.sub(y, out))), y))


ATAN2 = _binary("Atan2", np.arctan2, _atan2_bprop)
HYPOT = _binary("Hypot", np.hypot, _hypot_bprop)
XLOGY = _binary("Xlogy", _xlogy_impl, _xlogy_bprop)
XDIVY = _binary("Xdivy", _xdivy_impl, _xdivy_bprop)
COPYSIGN = _binary("CopySign", np.copysign, _copysign_bprop)
FMOD = _binary("Fmod", np.fmod, _fmod_bprop)
LOGADDEXP = _binary("LogAddExp", np.logaddexp, _logaddexp_bprop)
LOGADDEXP2 = _binary("LogAddExp2", np.logaddexp2, _logaddexp2_bprop)
def _heaviside_impl(x, values):
    with np.errstate(invalid="ignore"):
        return np.heaviside(x, values).astype(x.dtype, copy=False)


HEAVISIDE = elementwise("Heaviside", _heaviside_impl, _no_grad, kinds="fiu", fuse=_call_impl(2))
NEXTAFTER = _binary("NextAfter", np.nextafter, _no_grad)


def _param_derivative(fn, a, x, wrt_first: bool):
    """d fn(a, x) / d(a or x) by a central difference in float64 (no closed form exists for these
    parameter derivatives); accurate to ~1e-8 relative, well below float32 resolution."""
    a64, x64 = F.cast(a, mstype.float64), F.cast(x, mstype.float64)
    v = a64 if wrt_first else x64
    h = F.mul(F.maximum(F.abs(v), 1.0), 1e-5)
    hi, lo = F.add(v, h), F.sub(v, h)
    up = fn(hi, x64) if wrt_first else fn(a64, hi)
    dn = fn(lo, x64) if wrt_first else fn(a64, lo)
    return F.cast(F.div(F.sub(up, dn), F.mul(h, 2.0)), a.dtype)


def _igamma_x_grad(a, x):
    return F.exp(F.sub(F.sub(F.mul(F.sub(a, 1), F.log(x)), x), F.lgamma(a)))


def _igamma_bprop(a, x, out, d):
    ga = _unbroadcast(F.mul(d, _param_derivative(F.igamma, a, x, True)), a)
    return ga, _unbroadcast(F.mul(d, _igamma_x_grad(a, x)), x)


def _igammac_bprop(a, x, out, d):
    ga = _unbroadcast(F.mul(d, _param_derivative(F.igammac, a, x, True)), a)
    return ga, _unbroadcast(F.neg(F.mul(d, _igamma_x_grad(a, x))), x)


def _zeta_bprop(x, q, out, d):
    gx = _unbroadcast(F.mul(d, _param_derivative(F.zeta, x, q, True)), x)
    return gx, _unbroadcast(F.mul(d, F.mul(F.neg(x), F.zeta(F.add(x, 1), q))), q)


# ---- regularised incomplete beta I_x(a, b): three same-shape float inputs, no broadcasting (MindSpore's Betainc) --
def _betainc_infer(a, b, x):
    for name, t in (("a", a), ("b", b), ("x", x)):
        if t.dtype not in (mstype.float32, mstype.float64):
            raise TypeError(f"For 'Betainc', the input '{name}' must be a float32 or float64 tensor, "
                            f"but got {t.dtype}.")
    if not a.dtype == b.dtype == x.dtype:
        raise TypeError(f"For 'Betainc', 'a', 'b' and 'x' must have one dtype, but got {a.dtype}, {b.dtype} and "
                        f"{x.dtype}.")
    if not tuple(a.shape) == tuple(b.shape) == tuple(x.shape):
        raise OpError(f"For 'Betainc', 'a', 'b' and 'x' must have one shape, but got {list(a.shape)}, "
                      f"{list(b.shape)} and {list(x.shape)}.")
    return a


def _betainc_impl(a, b, x):
    """I_x(a, b); NaN outside a, b > 0 and 0 <= x <= 1."""
    _betainc_infer(*(TensorType(v.shape, mstype.from_numpy(v.dtype)) for v in (a, b, x)))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return np.asarray(scipy_special("betainc")(a, b, x)).astype(a.dtype, copy=False)


def _betainc64(a, b, x):
    return bind(BETAINC, (a, b, x), {})


def _betainc_bprop(a, b, x, out, d):
    """dI/dx = x^(a-1) (1-x)^(b-1) / B(a, b); dI/da and dI/db by central differences (no closed form)."""
    a64, b64 = F.cast(a, mstype.float64), F.cast(b, mstype.float64)
    da = _param_derivative(lambda p, q: _betainc64(p, b64, q), a, x, True)
    db = _param_derivative(lambda p, q: _betainc64(a64, p, q), b, x, True)
    log_beta = F.sub(F.add(F.lgamma(a), F.lgamma(b)), F.lgamma(F.add(a, b)))
    dx = F.exp(F.sub(F.add(F.mul(F.sub(a, 1), F.log(x)), F.mul(F.sub(b, 1), F.log1p(F.neg(x)))), log_beta))
    return F.mul(d, da), F.mul(d, db), F.mul(d, dx)


BETAINC = register(Op("Betainc", _betainc_impl, _betainc_infer, _betainc_bprop, "opaque"))


IGAMMA = _binary("Igamma", _special("gammainc"), _igamma_bprop)
IGAMMAC = _binary("Igammac", _special("gammaincc"), _igammac_bprop)
ZETA = _binary("Zeta", _special("zeta"), _zeta_bprop)

# ---- integers and bits (no gradient) -------------------------------------------------------------------------


def _truncate_div_impl(x, y):
    if x.dtype.kind == "f":
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.trunc(np.true_divide(x, y)).astype(x.dtype, copy=False)
    int_zero_divisor("TruncateDiv", x, y)
    q = np.floor_divide(x, y)
    return q + ((q < 0) & (q * y != x)).astype(q.dtype)


def _truncate_mod_impl(x, y):
    if x.dtype.kind != "f":
        int_zero_divisor("TruncateMod", x, y)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.fmod(x, y)


def _popcount_impl(x):
    u = x.view(f"u{x.dtype.itemsize}") if x.dtype.kind == "i" else x
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(u).astype(np.uint8)
    bits = np.unpackbits(np.ascontiguousarray(u).view(np.uint8).reshape(u.shape + (u.dtype.itemsize,)), axis=-1)
    return bits.sum(-1).astype(np.uint8)


# integer division by zero raises (MindSpore's CPU kernels refuse it too); the kernels check their operands
TRUNCATE_DIV = elementwise("TruncateDiv", _truncate_div_impl, _no_grad, fuse=False, kinds="fiu")
TRUNCATE_MOD = elementwise("TruncateMod", _truncate_mod_impl, _no_grad, fuse=False, kinds="fiu")
GCD = elementwise("Gcd", np.gcd, _no_grad, kinds="iu")
LCM = elementwise("Lcm", np.lcm, _no_grad, kinds="iu")
LEFT_SHIFT = elementwise("LeftShift", np.left_shift, _no_grad, kinds="iu")
RIGHT_SHIFT = elementwise("RightShift", np.right_shift, _no_grad, kinds="iu")
INVERT = elementwise("Invert", np.invert, _no_grad, kinds="iub")
SIGNBIT = elementwise("SignBit", np.signbit, _no_grad, out_dtype=_B, kinds="fiu")
POPULATION_COUNT = elementwise("PopulationCount", _popcount_impl, _no_grad, out_dtype=mstype.uint8, fuse=False,
                               kinds="iu")

from . import functional as F  # noqa: E402  (bprops call the functional API at run time)
