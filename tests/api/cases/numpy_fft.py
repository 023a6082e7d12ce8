"""mindspore.numpy.fft: NumPy's argument names (axis/axes) over the FFT functions, complex and real inputs, the
shifts and sample frequencies."""
from . import Case, U, I


def Z(*shape, dtype="complex64"):  # noqa: N802 - like the other makers
    return lambda rng: (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype)


X, X64, Z2 = U(3, 4), U(3, 4, dtype="float64"), Z(3, 4)
CASES = [
    Case("fft", "mnp.fft.fft(x)", {"x": X}),
    Case("fft_n_axis", "mnp.fft.fft(z, 6, 0)", {"z": Z2}),
    Case("fft_kw_ortho", "mnp.fft.fft(z, n=3, axis=-1, norm='ortho')", {"z": Z2}),
    Case("fft_f64", "mnp.fft.fft(x)", {"x": X64}),
    Case("fft_int", "mnp.fft.fft(i)", {"i": I(5, dtype="int64")}),
    Case("ifft_forward", "mnp.fft.ifft(z, axis=0, norm='forward')", {"z": Z2}),
    Case("rfft", "mnp.fft.rfft(x, 7)", {"x": X}),
    Case("irfft", "mnp.fft.irfft(z, axis=0)", {"z": Z2}),
    Case("fft2", "mnp.fft.fft2(z)", {"z": Z(2, 3, 4)}),
    Case("ifft2_s_axes", "mnp.fft.ifft2(z, s=(2, 5), axes=(0, 2))", {"z": Z(2, 3, 4)}),
    Case("fftn", "mnp.fft.fftn(x)", {"x": X}),
    Case("fftn_axes", "mnp.fft.fftn(z, axes=(0,))", {"z": Z2}),
    Case("ifftn_s", "mnp.fft.ifftn(z, s=(2, 2))", {"z": Z(2, 3, 4)}),
    Case("rfft2", "mnp.fft.rfft2(x)", {"x": U(2, 3, 4)}),
    Case("irfft2", "mnp.fft.irfft2(z, axes=(0, 1))", {"z": Z(2, 3, 4)}),
    Case("rfftn", "mnp.fft.rfftn(x, s=(2, 6))", {"x": X}),
    Case("irfftn", "mnp.fft.irfftn(z)", {"z": Z2}),
    Case("hfft", "mnp.fft.hfft(z, 7)", {"z": Z2}),
    Case("ihfft", "mnp.fft.ihfft(x, axis=0)", {"x": X}),
    Case("hfft2", "mnp.fft.hfft2(z)", {"z": Z2}),
    Case("ihfft2", "mnp.fft.ihfft2(x)", {"x": X}),
    Case("hfftn", "mnp.fft.hfftn(z, norm='forward')", {"z": Z2}),
    Case("ihfftn", "mnp.fft.ihfftn(x)", {"x": X}, numpy="(np.conj(np.fft.rfftn(x)) / x.size).astype(np.complex64)",
         note="MindSpore 2.10's mindspore.numpy.fft.ihfftn calls ops.hfftn (a real result of another shape); "
              "sprout's is the inverse Hermitian FFT, ops.ihfftn"),
    Case("fftshift", "mnp.fft.fftshift(x)", {"x": X}),
    Case("fftshift_axes", "mnp.fft.fftshift(x, axes=1)", {"x": X}),
    Case("ifftshift", "mnp.fft.ifftshift(x, (0,))", {"x": X}),
    Case("fftfreq", "mnp.fft.fftfreq(5)", jit=False),
    Case("fftfreq_d_dtype", "mnp.fft.fftfreq(6, 0.5, mnp.float64)", jit=False),
    Case("rfftfreq", "mnp.fft.rfftfreq(7, d=2.0)", jit=False),
    Case("fft_bool", "mnp.fft.fft(b)", {"b": lambda rng: rng.random(4) < 0.5}, check="raises"),
]
