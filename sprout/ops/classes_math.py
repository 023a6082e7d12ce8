"""PascalCase primitive classes for the math functions of ``functional_math.py``."""
from __future__ import annotations

from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import complex_ops as C
from . import math_ops as M
from . import functional as F
from .primitive_classes import Primitive, _simple

_STATELESS = {
    "ACos": F.acos, "Asin": F.asin, "Atan": F.atan, "Tan": F.tan, "Sinh": F.sinh, "Cosh": F.cosh, "Asinh": F.asinh,
    "Acosh": F.acosh, "Atanh": F.atanh, "Atan2": F.atan2, "Erfc": F.erfc, "Erfinv": F.erfinv, "Lgamma": F.lgamma,
    "Digamma": F.digamma, "Polygamma": F.polygamma, "Sinc": F.sinc, "Trunc": F.trunc, "Inv": F.inv,
    "BesselI0": F.bessel_i0, "BesselI0e": F.bessel_i0e, "BesselI1": F.bessel_i1, "BesselI1e": F.bessel_i1e,
    "BesselJ0": F.bessel_j0, "BesselJ1": F.bessel_j1, "BesselY0": F.bessel_y0, "BesselY1": F.bessel_y1,
    "BesselK0": F.bessel_k0, "BesselK0e": F.bessel_k0e, "BesselK1": F.bessel_k1, "BesselK1e": F.bessel_k1e,
    "Xlogy": F.xlogy, "Xdivy": F.xdivy, "Hypot": F.hypot, "Heaviside": F.heaviside, "NextAfter": F.nextafter,
    "Igamma": F.igamma, "Igammac": F.igammac, "Zeta": F.zeta, "TruncateDiv": F.truncate_div,
    "TruncateMod": F.truncate_mod, "Gcd": F.gcd, "Lcm": F.lcm, "LeftShift": F.bitwise_left_shift,
    "RightShift": F.bitwise_right_shift, "Invert": F.invert, "PopulationCount": F.population_count,
    "Addcdiv": F.addcdiv, "Addcmul": F.addcmul, "Lerp": F.lerp, "Fmax": F.fmax, "Fmin": F.fmin, "Rint": F.round,
}
_STATELESS.update({"Complex": C.complex_, "Real": F.real, "Imag": F.imag, "Conj": F.conj, "Angle": F.angle,
                   "ComplexAbs": C.complex_abs, "Polar": F.polar})
for _name, _fn in _STATELESS.items():
    globals()[_name] = _simple(_name, _fn)


class ConjugateTranspose(Primitive):
    """``conj(transpose(x, perm))`` (a real tensor is only transposed)."""

    def __call__(self, x, perm):
        x = F._as_tensor(x, "ConjugateTranspose")
        if not isinstance(perm, (tuple, list)) or len(perm) != x.ndim:
            raise ValueError(f"For 'ConjugateTranspose', the dimension of x {x.ndim} and perm "
                             f"{len(perm) if isinstance(perm, (tuple, list)) else perm!r} must be equal")
        return F.conj(F.transpose(x, tuple(perm)))


class FFTWithSize(Primitive):
    """MindSpore's older FFT primitive: the transform over the last ``signal_ndim`` dims. Complex to complex
    (``real=False``: fftn / ifftn), real to complex (``real``, not ``inverse``: rfftn, or fftn when not
    ``onesided``) or complex to real (``real`` and ``inverse``: irfftn to ``signal_sizes``, or the real part of
    ifftn when not ``onesided``)."""

    def __init__(self, signal_ndim, inverse, real, norm="backward", onesided=True, signal_sizes=()):
        super().__init__()
        if isinstance(signal_ndim, bool) or not isinstance(signal_ndim, int) or signal_ndim < 1:
            raise ValueError(f"For 'FFTWithSize', signal_ndim must be a positive int, but got {signal_ndim!r}")
        self.signal_ndim, self.inverse, self.real = signal_ndim, bool(inverse), bool(real)
        self.norm, self.onesided, self.signal_sizes = norm, bool(onesided), tuple(signal_sizes)

    def __call__(self, x):
        x = F._as_tensor(x, "FFTWithSize")
        if x.ndim < self.signal_ndim:
            raise RuntimeError("For 'FFTWithSize', x_dims must not be less than signal_ndim.")
        dims = tuple(range(-self.signal_ndim, 0))
        if not self.real or self.inverse:
            if not x.dtype.is_complex:
                mode = "irfft" if self.real else "fft/ifft"
                raise TypeError(f"For primitive[FFTWithSize], the input argument[x] in {mode} mode must be a type "
                                f"of {{Complex128, Complex64}}, but got {x.dtype}.")
        elif x.dtype.is_complex:
            raise TypeError(f"For primitive[FFTWithSize], the input argument[x] in rfft mode must be a real type, "
                            f"but got {x.dtype}.")
        if not self.real:
            return (F.ifftn if self.inverse else F.fftn)(x, dim=dims, norm=self.norm)
        if not self.inverse:
            return (F.rfftn if self.onesided else F.fftn)(x, dim=dims, norm=self.norm)
        if not self.onesided:
            return F.real(F.ifftn(x, dim=dims, norm=self.norm))
        return F.irfftn(x, s=self.signal_sizes or None, dim=dims, norm=self.norm)


class MulNoNan(Primitive):
    """x * y, and 0 wherever y == 0 (even where x is inf or NaN)."""

    def __call__(self, x, y):
        prod = F.mul(x, y)
        return F.where(F.equal(y, 0), F.zeros_like(prod), prod)


class ApproximateEqual(Primitive):
    def __init__(self, tolerance=1e-5):
        super().__init__()
        self.tolerance = float(tolerance)

    def __call__(self, x, y):
        return F.approximate_equal(x, y, self.tolerance)


class IsClose(Primitive):
    def __init__(self, rtol=1e-05, atol=1e-08, equal_nan=True):
        super().__init__()
        self.rtol, self.atol, self.equal_nan = rtol, atol, equal_nan

    def __call__(self, input, other):  # noqa: A002
        return F.isclose(input, other, self.rtol, self.atol, self.equal_nan)


class Logit(Primitive):
    def __init__(self, eps=-1.0):
        super().__init__()
        self.eps = eps

    def __call__(self, x):
        return F.logit(x, None if self.eps < 0 else self.eps)


class Mvlgamma(Primitive):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def __call__(self, x):
        return F.mvlgamma(x, self.p)


class NanToNum(Primitive):
    def __init__(self, nan=0.0, posinf=None, neginf=None):
        super().__init__()
        self.nan, self.posinf, self.neginf = nan, posinf, neginf

    def __call__(self, x):
        return F.nan_to_num(x, self.nan, self.posinf, self.neginf)


class Betainc(Primitive):
    """``Betainc()(a, b, x)``: the regularised incomplete beta function I_x(a, b) of three same-shape float32/64
    tensors (differentiable in all three: x in closed form, a and b by central differences)."""

    def __call__(self, a, b, x):
        for name, t in (("a", a), ("b", b), ("x", x)):
            if not isinstance(t, Tensor):
                raise TypeError(f"For 'Betainc', the input '{name}' must be a Tensor, but got {type(t).__name__}.")
        return bind(M.BETAINC, (a, b, x), {})


__all__ = list(_STATELESS) + ["ConjugateTranspose", "FFTWithSize", "MulNoNan", "ApproximateEqual", "IsClose", "Logit",
                               "Mvlgamma", "NanToNum", "Betainc"]
