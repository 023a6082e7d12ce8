"""Op-table cases for the FFT primitives (ops/fft_ops.py): forward against NumPy's pocketfft through MindSpore's
functional names, gradients (the adjoint transforms) against finite differences over real and imaginary parts."""
import numpy as np

from sprout import ops
from optable import F64, Case

A, B = F64(2, 5), F64(2, 5)


def z(re, im):
    return ops.Complex()(re, im)


def pairs(w):
    return np.stack([w.real, w.imag], axis=-1)


CASES = [
    Case("FFTN", lambda a, b: ops.view_as_real(ops.fft(z(a, b))), (A, B), lambda a, b: pairs(np.fft.fft(a + 1j * b))),
    Case("FFTN", lambda a, b: ops.view_as_real(ops.ifft(z(a, b), n=7, norm="ortho")), (A, B),
         lambda a, b: pairs(np.fft.ifft(a + 1j * b, n=7, norm="ortho")), label="ifft-pad-ortho"),
    Case("FFTN", lambda a: ops.view_as_real(ops.fftn(a, s=(2, 3), norm="forward")), (F64(3, 4),),
         lambda a: pairs(np.fft.fftn(a, s=(2, 3), axes=(0, 1), norm="forward")), label="fftn-crop-forward"),
    Case("FFTN", lambda a, b: ops.view_as_real(ops.ifft2(z(a, b), dim=(0, 1))), (F64(3, 4, 2), F64(3, 4, 2)),
         lambda a, b: pairs(np.fft.ifft2(a + 1j * b, axes=(0, 1))), label="ifft2-dims"),
    Case("RFFT", lambda a: ops.view_as_real(ops.rfft(a)), (A,), lambda a: pairs(np.fft.rfft(a))),
    Case("RFFT", lambda a: ops.view_as_real(ops.rfft(a, n=8, dim=0, norm="ortho")), (F64(5, 3),),
         lambda a: pairs(np.fft.rfft(a, n=8, axis=0, norm="ortho")), label="pad-dim0-ortho"),
    Case("RFFT", lambda a: ops.view_as_real(ops.rfftn(a, s=(3, 4))), (F64(2, 4, 6),),
         lambda a: pairs(np.fft.rfftn(a, s=(3, 4), axes=(1, 2))), label="rfftn"),
    Case("RFFT", lambda a: ops.view_as_real(ops.ihfft(a, norm="forward")), (A,),
         lambda a: pairs(np.fft.ihfft(a, norm="forward")), label="ihfft"),
    Case("IRFFT", lambda a, b: ops.irfft(z(a, b)), (A, B), lambda a, b: np.fft.irfft(a + 1j * b)),
    Case("IRFFT", lambda a, b: ops.irfft(z(a, b), n=7, norm="ortho"), (A, B),
         lambda a, b: np.fft.irfft(a + 1j * b, n=7, norm="ortho"), label="odd-ortho"),
    Case("IRFFT", lambda a, b: ops.irfft(z(a, b), n=4), (A, B), lambda a, b: np.fft.irfft(a + 1j * b, n=4),
         label="crop"),
    Case("IRFFT", lambda a, b: ops.irfft2(z(a, b), s=(3, 6)), (F64(2, 3, 4), F64(2, 3, 4)),
         lambda a, b: np.fft.irfft2(a + 1j * b, s=(3, 6)), label="irfft2"),
    Case("IRFFT", lambda a, b: ops.hfft(z(a, b), n=9), (A, B), lambda a, b: np.fft.hfft(a + 1j * b, n=9),
         label="hfft"),
]
