"""MindSpore's FFT functions (``ops.fft`` ... ``ops.ihfftn``) over the FFTN / RFFT / IRFFT primitives.

Inputs: int16/int32/int64/float16/bfloat16 compute as float32 (complex64 results), float64 as complex128, as MindSpore
(bool, int8 and unsigned inputs: TypeError, as there).
``n``/``s`` crop or zero-pad the input along the transformed dims; ``norm`` is "backward" (default: no scaling
forward, 1/n inverse), "forward" or "ortho". hfft/ihfft(n) are irfft/rfft of the conjugate with the dual norm."""
from __future__ import annotations

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import complex_ops as C
from . import functional as F
from .fft_ops import _DUAL, _NORMS, FFTN, IRFFT, RFFT

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn"]


_REFUSED = ("Bool", "Int8", "UInt8", "UInt16", "UInt32", "UInt64")  # no FFT kernel in MindSpore 2.10 (TypeError)


def _tensor(x, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', the input must be a Tensor, but got {type(x).__name__}")
    if str(x.dtype) in _REFUSED:
        raise TypeError(f"For '{op}', the input dtype must be int16, int32, int64, float16, bfloat16, float32, "
                        f"float64, complex64 or complex128, but got {x.dtype}")
    return x


def _norm(norm, op: str) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise ValueError(f"For '{op}', norm must be one of {list(_NORMS)} or None, but got {norm!r}")
    return norm


def _dims(x: Tensor, dim, s, op: str, default) -> tuple:
    """The transformed dims, normalised (None: ``default``, or the last len(s) dims when s is given)."""
    if dim is None:
        dim = default if default is not None or s is None else tuple(range(-len(s), 0))
    if dim is None:
        dim = tuple(range(x.ndim))
    many = isinstance(dim, (tuple, list))
    dims = tuple(dim) if many else (dim,)
    out = []
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int):
            raise TypeError(f"For '{op}', dim must be an int or a tuple of ints, but got {dim!r}")
        if not -x.ndim <= d < x.ndim:
            raise ValueError(f"For '{op}', dim {d} is out of range [{-x.ndim}, {x.ndim}) for an input of rank "
                             f"{x.ndim}")
        out.append(d % x.ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"For '{op}', dim must not repeat a dimension, but got {dim!r}")
    return tuple(out)


def _sizes(x: Tensor, dims: tuple, s, op: str, arg: str = "s") -> tuple:
    if s is None:
        return tuple(x.shape[d] for d in dims)
    many = isinstance(s, (tuple, list))
    sizes = tuple(s) if many else (s,)
    if len(sizes) != len(dims):
        raise ValueError(f"For '{op}', {arg} and dim must have the same length, but got {arg}={s!r} and "
                         f"{len(dims)} dims")
    for n in sizes:
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"For '{op}', {arg} must hold ints, but got {s!r}")
        if n <= 0:
            raise ValueError(f"For '{op}', the argument[{arg}] must be greater than 0, but got {n}.")
    return sizes


def _arg(default_dims) -> str:
    """The size argument's name: ``n`` for the 1-D functions, ``s`` for the others."""
    return "n" if isinstance(default_dims, int) else "s"


def _as_complex(x: Tensor) -> Tensor:
    if x.dtype.is_complex:
        return x
    return F.cast(x, mstype.complex128 if x.dtype is mstype.float64 else mstype.complex64)


def _as_real(x: Tensor) -> Tensor:
    if x.dtype is mstype.float32 or x.dtype is mstype.float64:
        return x
    return F.cast(x, mstype.float32)


def _c2c(x, s, dim, norm, op: str, forward: bool, default_dims):
    x = _tensor(x, op)
    dims = _dims(x, dim, s, op, default_dims)
    sizes = _sizes(x, dims, s, op, _arg(default_dims))
    return FFTN(_as_complex(x), dims=dims, n_in=sizes, n_out=sizes, norm=_norm(norm, op), forward=forward)


def fft(input, n=None, dim=-1, norm=None):  # noqa: A002
    """The discrete Fourier transform along ``dim`` (``n`` samples: the input cropped or zero-padded)."""
    return _c2c(input, n, dim, norm, "fft", True, -1)


def ifft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _c2c(input, n, dim, norm, "ifft", False, -1)


def fft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return _c2c(input, s, dim, norm, "fft2", True, (-2, -1))


def ifft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return _c2c(input, s, dim, norm, "ifft2", False, (-2, -1))


def fftn(input, s=None, dim=None, norm=None):  # noqa: A002
    return _c2c(input, s, dim, norm, "fftn", True, None)


def ifftn(input, s=None, dim=None, norm=None):  # noqa: A002
    return _c2c(input, s, dim, norm, "ifftn", False, None)


def _r2c(x, s, dim, norm, op: str, default_dims):
    """rfft over the last of the dims, then the complex FFT over the others. A complex input is transformed in
    full and the last dim cut to its n//2 + 1 non-negative frequencies (MindSpore 2.10 does this)."""
    x = _tensor(x, op)
    dims = _dims(x, dim, s, op, default_dims)
    sizes = _sizes(x, dims, s, op, _arg(default_dims))
    norm = _norm(norm, op)
    last, n = dims[-1], sizes[-1]
    if x.dtype.is_complex:
        y = FFTN(x, dims=dims, n_in=sizes, n_out=sizes, norm=norm, forward=True)
        return F.narrow(y, last, 0, n // 2 + 1)
    y = RFFT(_as_real(x), axis=last, n=n, n_out=n // 2 + 1, norm=norm)
    if len(dims) > 1:
        y = FFTN(y, dims=dims[:-1], n_in=sizes[:-1], n_out=sizes[:-1], norm=norm, forward=True)
    return y


def _c2r(x, s, dim, norm, op: str, default_dims):
    """The inverse complex FFT over all but the last of the dims, then irfft over the last (default length
    2 * (m - 1) for m input bins)."""
    x = _tensor(x, op)
    dims = _dims(x, dim, s, op, default_dims)
    norm = _norm(norm, op)
    if s is None:
        sizes = tuple(x.shape[d] for d in dims[:-1]) + (2 * (x.shape[dims[-1]] - 1),)
        if sizes[-1] <= 0:
            raise ValueError(f"For '{op}', the last transformed dim needs at least 2 input bins when no output "
                             f"size is given, but has {x.shape[dims[-1]]}")
    else:
        sizes = _sizes(x, dims, s, op, _arg(default_dims))
    y = _as_complex(x)
    if len(dims) > 1:
        y = FFTN(y, dims=dims[:-1], n_in=sizes[:-1], n_out=sizes[:-1], norm=norm, forward=False)
    return IRFFT(y, axis=dims[-1], n=sizes[-1], norm=norm)


def rfft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _r2c(input, n, dim, norm, "rfft", -1)


def irfft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _c2r(input, n, dim, norm, "irfft", -1)


def rfft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return _r2c(input, s, dim, norm, "rfft2", (-2, -1))


def irfft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return _c2r(input, s, dim, norm, "irfft2", (-2, -1))


def rfftn(input, s=None, dim=None, norm=None):  # noqa: A002
    return _r2c(input, s, dim, norm, "rfftn", None)


def irfftn(input, s=None, dim=None, norm=None):  # noqa: A002
    return _c2r(input, s, dim, norm, "irfftn", None)


def _hermitian(x, s, dim, norm, op: str, default_dims):
    """hfft*: the real signal whose half spectrum is ``x``: irfft* of conj(x) with the dual normalisation."""
    x = _tensor(x, op)
    return _c2r(C.conj(_as_complex(x)), s, dim, _DUAL[_norm(norm, op)], op, default_dims)


def _inverse_hermitian(x, s, dim, norm, op: str, default_dims):
    """ihfft*: conj of rfft* with the dual normalisation."""
    x = _tensor(x, op)
    return C.conj(_r2c(x, s, dim, _DUAL[_norm(norm, op)], op, default_dims))


def hfft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _hermitian(input, n, dim, norm, "hfft", -1)


def ihfft(input, n=None, dim=-1, norm=None):  # noqa: A002
    return _inverse_hermitian(input, n, dim, norm, "ihfft", -1)


def hfft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return _hermitian(input, s, dim, norm, "hfft2", (-2, -1))


def ihfft2(input, s=None, dim=(-2, -1), norm=None):  # noqa: A002
    return _inverse_hermitian(input, s, dim, norm, "ihfft2", (-2, -1))


def hfftn(input, s=None, dim=None, norm=None):  # noqa: A002
    return _hermitian(input, s, dim, norm, "hfftn", None)


def ihfftn(input, s=None, dim=None, norm=None):  # noqa: A002
    return _inverse_hermitian(input, s, dim, norm, "ihfftn", None)
