"""Op-table cases for the math primitives of ``ops/math_ops.py`` (references: NumPy and SciPy)."""
import numpy as np
import scipy.special as sp

from sprout import ops
from optable import F64, INT, POS, Case

U = F64(2, 3, lo=-0.9, hi=0.9)
P = POS(2, 3, lo=0.3, hi=2.5)


def _u(op, fn, ref, spec=U, **kw):
    return Case(op, fn, (spec,), ref, **kw)


X23, X3 = F64(2, 3), F64(3)


def _b(op, fn, ref, a=X23, b=X3, **kw):
    return Case(op, fn, (a, b), ref, **kw)


CASES = [
    _u("Tan", ops.tan, np.tan),
    _u("Asin", ops.asin, np.arcsin),
    _u("ACos", ops.acos, np.arccos),
    _u("Atan", ops.atan, np.arctan, F64(2, 3)),
    _u("Sinh", ops.sinh, np.sinh, F64(2, 3)),
    _u("Cosh", ops.cosh, np.cosh, F64(2, 3)),
    _u("Asinh", ops.asinh, np.arcsinh, F64(2, 3)),
    _u("Acosh", ops.acosh, np.arccosh, POS(2, 3, lo=1.2, hi=3.0)),
    _u("Atanh", ops.atanh, np.arctanh),
    _u("Sinc", ops.sinc, np.sinc, F64(2, 3)),
    _u("Erfc", ops.erfc, sp.erfc, F64(2, 3)),
    _u("Erfinv", ops.erfinv, sp.erfinv),
    _u("Lgamma", ops.lgamma, sp.gammaln, P),
    _u("Digamma", ops.digamma, sp.psi, P),
    _u("BesselI0", ops.bessel_i0, sp.i0, F64(2, 3)),
    _u("BesselI0e", ops.bessel_i0e, sp.i0e, F64(2, 3)),
    _u("BesselI1", ops.bessel_i1, sp.i1, F64(2, 3)),
    _u("BesselI1e", ops.bessel_i1e, sp.i1e, F64(2, 3)),
    _u("BesselJ0", ops.bessel_j0, sp.j0, F64(2, 3)),
    _u("BesselJ1", ops.bessel_j1, sp.j1, F64(2, 3)),
    _u("BesselY0", ops.bessel_y0, sp.y0, P),
    _u("BesselY1", ops.bessel_y1, sp.y1, P),
    _u("BesselK0", ops.bessel_k0, sp.k0, P),
    _u("BesselK0e", ops.bessel_k0e, sp.k0e, P),
    _u("BesselK1", ops.bessel_k1, sp.k1, P),
    _u("BesselK1e", ops.bessel_k1e, sp.k1e, P),
    Case("Polygamma", lambda x: ops.polygamma(2, x), (P,), lambda x: sp.polygamma(2, x), rtol=1e-6, fd_tol=1e-4),
    _b("Atan2", ops.atan2, np.arctan2),
    _b("Hypot", ops.hypot, np.hypot),
    _b("Xlogy", ops.xlogy, lambda x, y: x * np.log(y), b=POS(3)),
    _b("Xdivy", ops.xdivy, lambda x, y: x / y, b=POS(3)),
    _b("CopySign", ops.copysign, np.copysign),
    _b("Fmod", ops.fmod, np.fmod, a=F64(2, 3, lo=0.2, hi=0.9), b=POS(3, lo=1.1, hi=1.5)),
    _b("LogAddExp", ops.logaddexp, np.logaddexp),
    _b("LogAddExp2", ops.logaddexp2, np.logaddexp2),
    _b("Heaviside", ops.heaviside, np.heaviside, grad=()),
    _b("NextAfter", ops.nextafter, np.nextafter, grad=()),
    Case("Betainc", lambda a, b, x: ops.Betainc()(a, b, x), (P, POS(2, 3, lo=0.5, hi=3.0), POS(2, 3, lo=0.1, hi=0.9)),
         sp.betainc, grad=(0, 1, 2), fd_tol=1e-4),
    _b("Igamma", ops.igamma, sp.gammainc, a=P, b=POS(3), fd_tol=1e-4),
    _b("Igammac", ops.igammac, sp.gammaincc, a=P, b=POS(3), fd_tol=1e-4),
    _b("Zeta", ops.zeta, sp.zeta, a=POS(2, 3, lo=1.5, hi=3.0), b=POS(3), fd_tol=1e-4),
    _b("TruncateDiv", ops.truncate_div, lambda a, b: np.trunc(a / b).astype(a.dtype), a=INT(2, 3, lo=-9, hi=9),
       b=INT(3, lo=1, hi=4)),
    _b("TruncateMod", ops.truncate_mod, np.fmod, a=INT(2, 3, lo=-9, hi=9), b=INT(3, lo=1, hi=4)),
    _b("Gcd", ops.gcd, np.gcd, a=INT(2, 3, lo=-20, hi=20), b=INT(3, lo=1, hi=30)),
    _b("Lcm", ops.lcm, np.lcm, a=INT(2, 3, lo=-20, hi=20), b=INT(3, lo=1, hi=30)),
    _b("LeftShift", ops.bitwise_left_shift, np.left_shift, a=INT(2, 3, lo=0, hi=20), b=INT(3, lo=0, hi=4)),
    _b("RightShift", ops.bitwise_right_shift, np.right_shift, a=INT(2, 3, lo=-20, hi=20), b=INT(3, lo=0, hi=4)),
    _u("Invert", ops.invert, np.invert, INT(2, 3, lo=-20, hi=20)),
    _u("SignBit", ops.signbit, np.signbit, F64(2, 3)),
    _u("PopulationCount", ops.population_count,
       lambda x: np.array([bin(int(v) & 0xFFFFFFFF).count("1") for v in x.ravel()], np.uint8).reshape(x.shape),
       INT(2, 3, lo=-300, hi=300)),
]
