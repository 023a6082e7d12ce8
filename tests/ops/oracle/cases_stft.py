"""ops.stft and ops.STFT against MindSpore 2.10's CPU kernel: windows shorter than n_fft (MindSpore centres them
between ZEROS, although its docs say ones), the three pad modes (upper-case names only, as MindSpore's nn.Pad),
normalisation, two-sided spectra, complex input, float64, and the argument errors."""
from . import OC, U

X = U(2, 20)
W6 = U(6, lo=0.5, hi=1.0)


def _cplx(rng):
    return (rng.standard_normal((2, 16)) + 1j * rng.standard_normal((2, 16))).astype("complex64")


CASES = [
    OC("stft_default", "ops.stft(x, 8)", {"x": X}),
    OC("stft_window_short", "ops.stft(x, 8, 3, 6, w, return_complex=True)", {"x": X, "w": W6}),
    OC("stft_no_window_short", "ops.stft(x, 8, 3, 6, return_complex=True)", {"x": X}),
    OC("stft_normalized_twosided", "ops.stft(x, 8, 2, center=False, normalized=True, onesided=False, "
       "return_complex=True)", {"x": X}),
    OC("stft_constant", "ops.stft(x, 8, 2, pad_mode='CONSTANT')", {"x": X}),
    OC("stft_symmetric", "ops.stft(x, 8, 2, pad_mode='SYMMETRIC')", {"x": X}),
    OC("stft_1d_float64", "ops.stft(x, 8)", {"x": U(21, dtype="float64")}),
    OC("stft_complex", "ops.stft(x, 8, 2)", {"x": _cplx}),
    OC("STFT_class", "ops.STFT(8, 2, 8, True, True, False)(x, w)", {"x": X, "w": U(8, lo=0.2, hi=1.0)}),
    OC("STFT_class_complex", "ops.STFT(6, 3, 4, False, False, True)(x, w)", {"x": X, "w": U(4, lo=0.2, hi=1.0)}),
    OC("stft_3d", "ops.stft(x, 8)", {"x": U(1, 2, 20)}, check="raises", match="1-D tensor or a 2-D"),
    OC("stft_float_nfft", "ops.stft(x, 8.0)", {"x": X}, check="raises", match="n_fft"),
    OC("stft_int_center", "ops.stft(x, 8, center=1)", {"x": X}, check="raises", match="center"),
    OC("stft_lower_mode", "ops.stft(x, 8, pad_mode='reflect')", {"x": X}, check="raises", match="mode"),
    OC("stft_window_rank", "ops.stft(x, 8, window=w)", {"x": X, "w": U(2, 8)}, check="raises", match="window"),
    OC("stft_window_len", "ops.stft(x, 8, window=w)", {"x": X, "w": U(7)}, check="raises", match="window"),
    OC("stft_nfft_too_big", "ops.stft(x, 30, center=False)", {"x": X}, check="raises", match="n_fft"),
]
