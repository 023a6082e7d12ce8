"""ops.STFT, the primitive class of ops.stft without its centring pad (ops/functional_stft.py)."""
from __future__ import annotations

from .classes_linalg import _Flag
from .functional_stft import bool_arg, int_arg, stft_frames


class STFT(_Flag):
    """``STFT(n_fft, hop_length, win_length, normalized, onesided, return_complex)(x, window)``: ops.stft without
    the centring pad."""

    defaults = {"n_fft": None, "hop_length": None, "win_length": None, "normalized": None, "onesided": None,
                "return_complex": None}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("n_fft", "hop_length", "win_length"):
            int_arg(getattr(self, name), name, "STFT")
        for name in ("normalized", "onesided", "return_complex"):
            bool_arg(getattr(self, name), name, "STFT")

    def __call__(self, x, window):
        return stft_frames(x, window, self.n_fft, self.hop_length, self.win_length, self.normalized, self.onesided,
                     self.return_complex)


__all__ = ["STFT"]
