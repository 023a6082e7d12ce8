"""The FFT family over NumPy's pocketfft: three primitives (FFTN complex-to-complex, RFFT real-to-half-spectrum,
IRFFT half-spectrum-to-real) and MindSpore's functional names (fft, ifft, fft2, ..., hfftn, ihfftn) built on them.

Each primitive's gradient is its adjoint transform (the opposite direction with the dual normalisation, the
resizing undone), so gradients of any order follow: for a real loss L the gradient of a complex input is
dL/dx + i dL/dy, MindSpore's convention (ops/complex_ops.py)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape, is_tensor_type

_NORMS = ("backward", "forward", "ortho")
_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}
_REAL_OF = {mstype.complex64: mstype.float32, mstype.complex128: mstype.float64}
_COMPLEX_OF = {mstype.float32: mstype.complex64, mstype.float64: mstype.complex128}


def _resize(y: np.ndarray, axes: tuple, sizes: tuple) -> np.ndarray:
    """Crop or zero-pad ``y`` along ``axes`` to ``sizes``."""
    for axis, size in zip(axes, sizes):
        have = y.shape[axis]
        if have > size:
            y = y[(slice(None),) * axis + (slice(0, size),)]
        elif have < size:
            pad = [(0, 0)] * y.ndim
            pad[axis] = (0, size - have)
            y = np.pad(y, pad)
    return y


def _checked(op: str, x, dims: tuple, want) -> TensorType:
    if not is_tensor_type(x):
        raise TypeError(f"For '{op}', the input must be a Tensor, but got {type(x).__name__}")
    if x.dtype not in want:
        raise TypeError(f"For '{op}', the input dtype must be one of {[str(t) for t in want]}, but got {x.dtype}")
    for d in dims:
        if not 0 <= d < len(x.shape):
            raise OpError(f"{op}: dim {d} is out of range for an input of shape {fmt_shape(x.shape)}")
    return x


def _sized(shape: tuple, dims: tuple, sizes: tuple) -> tuple:
    out = list(shape)
    for d, n in zip(dims, sizes):
        out[d] = n
    return tuple(out)


# ---- FFTN: complex -> complex over ``dims``; the input resized to ``n_in`` first, the result to ``n_out`` ------
def _fftn_impl(x, dims, n_in, n_out, norm, forward):
    fn = np.fft.fftn if forward else np.fft.ifftn
    y = fn(x, s=n_in, axes=dims, norm=norm)
    return _resize(y, dims, n_out).astype(x.dtype, copy=False)


def _fftn_infer(x, dims, n_in, n_out, norm, forward):
    x = _checked("FFTN", x, dims, _REAL_OF)
    return TensorType(_sized(x.shape, dims, n_out), x.dtype)


def _fftn_bprop(x, out, d, dims, n_in, n_out, norm, forward):
    sizes = tuple(x.shape[a] for a in dims)
    return (FFTN(d, dims=dims, n_in=n_in, n_out=sizes, norm=_DUAL[norm], forward=not forward),)


FFTN = register(Op("FFTN", _fftn_impl, _fftn_infer, _fftn_bprop, "opaque", fresh_output=True))


# ---- RFFT: real -> the n//2 + 1 non-negative frequencies along ``axis`` (then resized to ``n_out``) ----------
def _rfft_impl(x, axis, n, n_out, norm):
    y = np.fft.rfft(x, n=n, axis=axis, norm=norm)
    return _resize(y, (axis,), (n_out,)).astype(_COMPLEX_OF[mstype.from_numpy(x.dtype)].np, copy=False)


def _rfft_infer(x, axis, n, n_out, norm):
    x = _checked("RFFT", x, (axis,), _COMPLEX_OF)
    return TensorType(_sized(x.shape, (axis,), (n_out,)), _COMPLEX_OF[x.dtype])


def _rfft_bprop(x, out, d, axis, n, n_out, norm):
    half = n // 2 + 1
    if n_out > half:  # bins beyond the half spectrum were zero padding
        d = F.narrow(d, axis, 0, half)
    full = FFTN(d, dims=(axis,), n_in=(n,), n_out=(x.shape[axis],), norm=_DUAL[norm], forward=False)
    return (C.real(full),)


RFFT = register(Op("RFFT", _rfft_impl, _rfft_infer, _rfft_bprop, "opaque", fresh_output=True))


# ---- IRFFT: the half spectrum along ``axis`` -> n real samples -----------------------------------------------
def _irfft_impl(c, axis, n, norm):
    return np.fft.irfft(c, n=n, axis=axis, norm=norm).astype(_REAL_OF[mstype.from_numpy(c.dtype)].np, copy=False)


def _irfft_infer(c, axis, n, norm):
    c = _checked("IRFFT", c, (axis,), _REAL_OF)
    return TensorType(_sized(c.shape, (axis,), (n,)), _REAL_OF[c.dtype])


def _irfft_bprop(c, out, d, axis, n, norm):
    m = c.shape[axis]
    # bins 1 .. ceil(n/2)-1 stand for themselves and their mirror image: their weight is 2
    w = np.zeros(m, _REAL_OF[c.dtype].np)
    w[:min(m, n // 2 + 1)] = 2
    w[0] = 1
    if n % 2 == 0 and n // 2 < m:
        w[n // 2] = 1
    w = w.reshape((m,) + (1,) * (len(c.shape) - 1 - axis))
    spec = RFFT(d, axis=axis, n=n, n_out=m, norm=_DUAL[norm])
    return (F.mul(spec, F.cast(_const(w), spec.dtype)),)


def _const(a: np.ndarray):
    from ..core.tensor import Tensor

    return Tensor(a)


IRFFT = register(Op("IRFFT", _irfft_impl, _irfft_infer, _irfft_bprop, "opaque", fresh_output=True))
for _op in (FFTN, RFFT, IRFFT):  # bprops are the adjoint transforms (right for complex cotangents)
    _op.extra["complex_grad"] = True

from . import complex_ops as C  # noqa: E402
from . import functional as F  # noqa: E402  (bprops call the functional API at run time)
