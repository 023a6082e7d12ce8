"""Complex primitives (Complex, Real, Imag, Conj, Angle, ComplexAbs, Polar, ViewAsReal) and their functional names.

Gradients follow MindSpore's convention for a real loss L of a complex z = x + iy: the gradient is
dL/dx + i dL/dy (so the gradient of |z| is z/|z|, of Im(z) is i, of Re(exp(z)) is conj(exp(z))); a holomorphic
op passes ``dout * conj(f'(z))`` back."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, register
from ..core.types import TensorType
from ._infer import broadcast_shapes, is_tensor_type

_REAL_OF = {mstype.complex64: mstype.float32, mstype.complex128: mstype.float64}
_COMPLEX_OF = {mstype.float32: mstype.complex64, mstype.float64: mstype.complex128}


def _tensor(op: str, x) -> TensorType:
    if not is_tensor_type(x):
        raise TypeError(f"For '{op}', the input must be a Tensor, but got {type(x).__name__}")
    return x


def _complex_only(op: str, arg: str = "input"):
    def infer(x):
        x = _tensor(op, x)
        if not x.dtype.is_complex:
            raise TypeError(f"For '{op}', the dtype of '{arg}' must be complex64 or complex128, but got {x.dtype}")
        return TensorType(x.shape, _REAL_OF[x.dtype])

    return infer


def _pair_infer(op: str, first: str, second: str):
    """Two float32 (or two float64) tensors that broadcast: a complex64 (complex128) result."""

    def infer(a, b):
        a, b = _tensor(op, a), _tensor(op, b)
        for name, t in ((first, a), (second, b)):
            if t.dtype not in _COMPLEX_OF:
                raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                                f"{{Tensor[Float32], Tensor[Float64]}}, but got Tensor[{t.dtype}].")
        if a.dtype is not b.dtype:
            raise TypeError(f"For primitive[{op}], the dtypes of '{first}' ({a.dtype}) and '{second}' ({b.dtype}) "
                            "must be the same")
        return TensorType(broadcast_shapes(op, a.shape, b.shape), _COMPLEX_OF[a.dtype])

    return infer


def _unbroadcast(g, x):
    return g if tuple(g.shape) == tuple(x.shape) else F.sum_to(g, x.shape)


# ---- Complex(real, imag) -------------------------------------------------------------------------
def _complex_impl(re, im):
    if re.dtype != im.dtype:
        raise TypeError("Complex: the real and imaginary parts must have the same dtype")
    out = np.empty(np.broadcast_shapes(np.shape(re), np.shape(im)), _COMPLEX_OF[mstype.from_numpy(re.dtype)].np)
    out.real, out.imag = re, im
    return out


COMPLEX = register(Op("Complex", _complex_impl, _pair_infer("Complex", "real", "imag"),
                      lambda re, im, out, d: (_unbroadcast(real(d), re), _unbroadcast(imag(d), im)), "elementwise",
                      fuse=False, fresh_output=True))


# ---- Real / Imag / Conj (a real tensor passes: its own real part, zero imaginary part, itself) -------------
def _part_infer(op: str):
    def infer(x):
        x = _tensor(op, x)
        return TensorType(x.shape, _REAL_OF.get(x.dtype, x.dtype))

    return infer


def _real_impl(x):
    return np.real(x).copy() if x.dtype.kind == "c" else x.copy()


def _imag_impl(x):
    return np.imag(x).copy() if x.dtype.kind == "c" else np.zeros_like(x)


def _real_bprop(x, out, d):
    return (_to_complex(d, zeros_like_real(d)) if x.dtype.is_complex else d,)


def _imag_bprop(x, out, d):
    return (_to_complex(zeros_like_real(d), d) if x.dtype.is_complex else None,)


REAL = register(Op("Real", _real_impl, _part_infer("Real"), _real_bprop, "elementwise", fuse=False,
                   fresh_output=True))
IMAG = register(Op("Imag", _imag_impl, _part_infer("Imag"), _imag_bprop, "elementwise", fuse=False,
                   fresh_output=True))


def _same_infer(op: str):
    def infer(x):
        x = _tensor(op, x)
        return TensorType(x.shape, x.dtype)

    return infer


CONJ = register(Op("Conj", lambda x: np.conj(x) if x.dtype.kind == "c" else x.copy(), _same_infer("Conj"),
                   lambda x, out, d: (conj(d),), "elementwise", fuse=False, fresh_output=True))


# ---- Angle / ComplexAbs ----------------------------------------------------------------------------------
def _angle_bprop(z, out, d):
    # d angle/dx = -y/|z|^2, d angle/dy = x/|z|^2: the gradient dL/dx + i dL/dy is d * i z / |z|^2
    r2 = _safe_abs2(z)
    return (_to_complex(F.neg(F.div(F.mul(d, imag(z)), r2)), F.div(F.mul(d, real(z)), r2)),)


def _safe_abs2(z):
    """|z|^2, with 1 where z == 0 (the gradient there is taken as 0: its numerator is 0 too)."""
    r2 = F.add(F.square(real(z)), F.square(imag(z)))
    return F.where(F.equal(r2, 0), F.ones_like(r2), r2)


def _unit(z):
    """z / |z|, and 0 at z == 0."""
    r = F.sqrt(_safe_abs2(z))
    return _to_complex(F.div(real(z), r), F.div(imag(z), r))


def _angle_impl(z):
    """atan2(imag, real), computed in float64 and rounded once (NumPy's float32 atan2 is 1 ulp off MindSpore's)."""
    return np.angle(z.astype(np.complex128)).astype(_REAL_OF[mstype.from_numpy(z.dtype)].np, copy=False)


ANGLE = register(Op("Angle", _angle_impl,
                    _complex_only("Angle"), _angle_bprop, "elementwise", fuse=False, fresh_output=True))
COMPLEX_ABS = register(Op("ComplexAbs",
                          lambda z: np.abs(z).astype(_REAL_OF[mstype.from_numpy(z.dtype)].np, copy=False),
                          _complex_only("ComplexAbs", "x"),
                          lambda z, out, d: (F.mul(_unit(z), F.cast(d, z.dtype)),), "elementwise", fuse=False,
                          fresh_output=True))


# ---- Polar(abs, angle) = abs * (cos(angle) + i sin(angle)) -------------------------------------------------
def _polar_impl(r, theta):
    out = np.empty(np.broadcast_shapes(r.shape, theta.shape), _COMPLEX_OF[mstype.from_numpy(r.dtype)].np)
    out.real, out.imag = r * np.cos(theta), r * np.sin(theta)
    return out


def _polar_bprop(r, theta, out, d):
    # dL/dr = Re(d conj(e^{i theta})) ; dL/dtheta = Re(d conj(i out)) = Im(d) Re(out) - Re(d) Im(out)
    c, s = F.cos(theta), F.sin(theta)
    dr = F.add(F.mul(real(d), c), F.mul(imag(d), s))
    dt = F.sub(F.mul(imag(d), real(out)), F.mul(real(d), imag(out)))
    return _unbroadcast(dr, r), _unbroadcast(dt, theta)


POLAR = register(Op("Polar", _polar_impl, _pair_infer("Polar", "abs", "angle"), _polar_bprop, "elementwise",
                    fuse=False, fresh_output=True))


# ---- view_as_real: (..., ) complex -> (..., 2) real --------------------------------------------------------
def _view_as_real_infer(x):
    x = _tensor("view_as_real", x)
    if not x.dtype.is_complex:
        raise TypeError("For view_as_real, the dtype of input Tensor must be complex.")
    return TensorType((*x.shape, 2), _REAL_OF[x.dtype])


def _view_as_real_impl(x):
    if x.dtype.kind != "c":
        raise TypeError("For view_as_real, the dtype of input Tensor must be complex.")
    return np.stack([x.real, x.imag], axis=-1)


VIEW_AS_REAL = register(Op("ViewAsReal", _view_as_real_impl, _view_as_real_infer,
                           lambda x, out, d: (_to_complex(d[..., 0], d[..., 1]),), "shape", fresh_output=True))


# ---- functional names ---------------------------------------------------------------------------------------
def _input(x, op: str):
    return F._as_tensor(x, op)


def _to_complex(re, im):
    return COMPLEX(re, im)


def zeros_like_real(t):
    return F.zeros_like(t)


def complex_(real_part, imag_part):
    """``ops.Complex()(real, imag)``: a complex tensor from two float32 (float64) tensors."""
    return COMPLEX(_input(real_part, "Complex"), _input(imag_part, "Complex"))


def real(input):  # noqa: A002
    """The real part (a real tensor is returned as it is, in a new tensor)."""
    return REAL(_input(input, "real"))


def imag(input):  # noqa: A002
    """The imaginary part (zeros for a real tensor, as MindSpore 2.10)."""
    return IMAG(_input(input, "imag"))


def conj(input):  # noqa: A002
    """The complex conjugate (a real tensor is its own conjugate)."""
    return CONJ(_input(input, "conj"))


def angle(input):  # noqa: A002
    """The argument of each complex element (MindSpore refuses a real tensor: TypeError)."""
    return ANGLE(_input(input, "angle"))


def complex_abs(x):
    return COMPLEX_ABS(_input(x, "ComplexAbs"))


def polar(abs, angle):  # noqa: A002
    """``abs * (cos(angle) + i sin(angle))`` of two float32 (float64) tensors."""
    return POLAR(_input(abs, "Polar"), _input(angle, "Polar"))


def view_as_real(input):  # noqa: A002
    """A complex tensor's elements as (real, imag) pairs along a new last axis of size 2."""
    return VIEW_AS_REAL(_input(input, "view_as_real"))


def conj_if_complex(t):
    """``conj(t)`` for a complex tensor, ``t`` itself otherwise (bprops of holomorphic ops multiply by it)."""
    dt = getattr(t, "dtype", None)
    return CONJ(t) if dt is not None and dt.is_complex else t


for _op in (COMPLEX, REAL, IMAG, CONJ, ANGLE, COMPLEX_ABS, POLAR, VIEW_AS_REAL):  # written for complex values
    _op.extra["complex_grad"] = True

__all__ = ["real", "imag", "conj", "angle", "polar", "view_as_real", "complex_abs"]

from . import functional as F  # noqa: E402  (bprops call the functional API at run time)
