"""ops.stft and the kernel of ops.STFT (ops/classes_signal.py): frames gathered with one index matrix, windowed,
then one RFFT / FFTN primitive over the frame axis (gradients and jit come from those primitives)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .pad_nd import pad_last

__all__ = ["stft"]

_REAL = (mstype.float32, mstype.float64)
_COMPLEX = (mstype.complex64, mstype.complex128)
_PAD_MODES = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}


def int_arg(v, name: str, op: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'int', but got type '{type(v).__name__}'.")
    return v


def bool_arg(v, name: str, op: str) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'bool', but got type '{type(v).__name__}'.")
    return v


def stft_frames(x, window, n_fft: int, hop: int, win_length: int, normalized: bool, onesided: bool,
          return_complex: bool, op: str = "STFT"):
    if not isinstance(x, Tensor) or not isinstance(window, Tensor):
        raise TypeError(f"For '{op}', 'x' and 'window' must be Tensors, but got {type(x).__name__} and "
                        f"{type(window).__name__}.")
    if x.ndim not in (1, 2):
        raise ValueError(f"For '{op}', the x must be 1-D or 2-D, but got shape {list(x.shape)}.")
    if window.ndim != 1:
        raise ValueError(f"For '{op}', the window_rank must be equal to 1, but got {window.ndim}.")
    for t, name in ((x, "x"), (window, "window")):
        if t.dtype not in _REAL + _COMPLEX:
            raise TypeError(f"For '{op}', the '{name}' must be float32, float64, complex64 or complex128, but got "
                            f"{t.dtype}.")
    length = x.shape[-1]
    if not 0 < n_fft <= length:
        raise ValueError(f"For '{op}', the n_fft must be in (0,{length}], but got {n_fft}.")
    if hop <= 0:
        raise ValueError(f"For '{op}', the hop_length must be positive, but got {hop}.")
    if not 0 < win_length <= n_fft:
        raise ValueError(f"For '{op}', the win_length must be in (0,{n_fft}], but got {win_length}.")
    if window.shape[0] != win_length:
        raise ValueError(f"For '{op}', the window_shape must be equal to {win_length}, but got {window.shape[0]}.")
    is_complex = x.dtype in _COMPLEX or window.dtype in _COMPLEX
    if onesided and is_complex:
        raise ValueError(f"For '{op}', 'onesided' must be False for a complex input or window.")
    if win_length < n_fft:  # the window is centred in n_fft samples, zeros around it (MindSpore's docs say ones)
        left = (n_fft - win_length) // 2
        window = pad_last(window, (left, n_fft - win_length - left), "constant")
    frames = 1 + (length - n_fft) // hop
    idx = Tensor((np.arange(frames)[:, None] * hop + np.arange(n_fft)[None, :]).astype(np.int64))
    seg = F.mul(F.gather(x, idx, x.ndim - 1), window)  # (..., frames, n_fft)
    if onesided:
        spec = F.rfft(seg, dim=-1)
    else:
        spec = F.fft(seg if seg.dtype in _COMPLEX else F.cast(seg, _to_complex(seg.dtype)), dim=-1)
    if normalized:
        spec = F.mul(spec, Tensor(np.asarray(1.0 / np.sqrt(n_fft), _real_of(spec.dtype).np)))
    spec = F.swapaxes(spec, -1, -2)  # (..., N, frames)
    return spec if return_complex else F.view_as_real(spec)


def _to_complex(dtype):
    return mstype.complex128 if dtype == mstype.float64 else mstype.complex64


def _real_of(dtype):
    return mstype.float64 if dtype == mstype.complex128 else mstype.float32


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="REFLECT",
         normalized=False, onesided=None, return_complex=None):
    """Short-time Fourier transform of a 1-D or 2-D ``x``: (*, N, frames) complex, or (*, N, frames, 2) real when
    ``return_complex`` is False (its default for real ``x`` and ``window``); ``center`` pads n_fft // 2 on both sides
    ('CONSTANT', 'REFLECT' or 'SYMMETRIC')."""
    int_arg(n_fft, "n_fft", "STFT")
    hop = n_fft // 4 if hop_length is None else int_arg(hop_length, "hop_length", "STFT")
    win = n_fft if win_length is None else int_arg(win_length, "win_length", "STFT")
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'stft', the 'x' must be a Tensor, but got {type(x).__name__}.")
    if window is None:
        window = F.ones(win, mstype.float32)
    cplx = x.dtype in _COMPLEX or (isinstance(window, Tensor) and window.dtype in _COMPLEX)
    onesided = (not cplx) if onesided is None else bool_arg(onesided, "onesided", "stft")
    return_complex = cplx if return_complex is None else bool_arg(return_complex, "return_complex", "stft")
    bool_arg(normalized, "normalized", "stft")
    if bool_arg(center, "center", "stft"):
        if x.ndim not in (1, 2):
            raise ValueError(f"Expected a 1-D tensor or a 2-D tensor, but got {x.ndim}")
        if not isinstance(pad_mode, str) or pad_mode not in _PAD_MODES:
            raise ValueError(f"For 'Pad', the 'mode' must be str and must be in '{list(_PAD_MODES)}', but got "
                             f"'{pad_mode}'.")
        x = pad_last(x, (n_fft // 2, n_fft // 2), _PAD_MODES[pad_mode], "stft")
    return stft_frames(x, window, n_fft, hop, win, normalized, onesided, return_complex)
