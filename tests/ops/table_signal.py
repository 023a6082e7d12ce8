"""Op-table cases for ops.stft / ops.STFT (ops/functional_stft.py: a gather of frames, a window product and one RFFT
or FFTN): forward against NumPy framing + np.fft, gradients against finite differences, in every mode."""
import numpy as np

from sprout import ops
from optable import F64, Case


def _stft_ref(x, window, n_fft, hop, center, normalized, onesided, mode="reflect"):
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(n_fft // 2, n_fft // 2)], mode=mode)
    left = (n_fft - len(window)) // 2
    full = np.zeros(n_fft, window.dtype)
    full[left:left + len(window)] = window
    frames = 1 + (x.shape[-1] - n_fft) // hop
    seg = np.stack([x[..., t * hop:t * hop + n_fft] for t in range(frames)], -2) * full
    spec = np.fft.rfft(seg, axis=-1) if onesided else np.fft.fft(seg, axis=-1)
    spec = spec / np.sqrt(n_fft) if normalized else spec
    spec = np.swapaxes(spec, -1, -2)
    return np.stack([spec.real, spec.imag], -1)


CASES = [
    Case("RFFT", lambda x, w: ops.stft(x, 8, 3, 6, w), (F64(2, 20), F64(6, lo=0.5, hi=1.0)),
         lambda x, w: _stft_ref(x, w, 8, 3, True, False, True), label="stft"),
    Case("RFFT", lambda x: ops.stft(x, 6, 2, pad_mode="SYMMETRIC", normalized=True), (F64(17),),
         lambda x: _stft_ref(x, np.ones(6), 6, 2, True, True, True, "symmetric"), label="stft-1d-normalized"),
    Case("FFTN", lambda x, w: ops.STFT(8, 3, 8, False, False, False)(x, w), (F64(2, 19), F64(8, lo=0.5, hi=1.0)),
         lambda x, w: _stft_ref(x, w, 8, 3, False, False, False), label="STFT-twosided"),
]
