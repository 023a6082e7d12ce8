"""Op-table cases for the complex primitives (ops/complex_ops.py) and complex arithmetic.

Every case takes real float64 tensors, builds complex values inside, and returns real ones, so finite differences
over the real and imaginary parts check each bprop against MindSpore's convention (the gradient of a real loss at
z = x + iy is dL/dx + i dL/dy: holomorphic ops pass back ``dout * conj(f'(z))``)."""
import numpy as np

from sprout import ops
from optable import F64, POS, Case

A, B, C, D = F64(2, 3), F64(2, 3), F64(2, 3), F64(2, 3)


def z(re, im):
    return ops.Complex()(re, im)


def pairs(w):
    """NumPy's view_as_real."""
    return np.stack([w.real, w.imag], axis=-1)


CASES = [
    Case("Complex", lambda a, b: ops.view_as_real(z(a, b)), (A, B), lambda a, b: pairs(a + 1j * b)),
    Case("ViewAsReal", lambda a, b: ops.view_as_real(z(a, b)) * 1.5, (A, B), lambda a, b: pairs(a + 1j * b) * 1.5),
    Case("Real", lambda r, t: ops.real(ops.polar(r, t)), (POS(2, 3), F64(2, 3)), lambda r, t: r * np.cos(t)),
    Case("Imag", lambda r, t: ops.imag(ops.polar(r, t)), (POS(2, 3), F64(2, 3)), lambda r, t: r * np.sin(t)),
    Case("Conj", lambda a, b: ops.view_as_real(ops.conj(z(a, b))), (A, B), lambda a, b: pairs(a - 1j * b)),
    Case("Angle", lambda a, b: ops.angle(z(a, b)), (A, B), lambda a, b: np.arctan2(b, a)),
    Case("ComplexAbs", lambda a, b: ops.ComplexAbs()(z(a, b)), (A, B), np.hypot),
    Case("Polar", lambda r, t: ops.view_as_real(ops.polar(r, t)), (POS(2, 3), F64(2, 3)),
         lambda r, t: pairs(r * np.exp(1j * t))),
    # complex arithmetic: forward against NumPy's complex, gradients against finite differences
    Case("Mul", lambda a, b, c, d: ops.view_as_real(z(a, b) * z(c, d)), (A, B, C, D),
         lambda a, b, c, d: pairs((a + 1j * b) * (c + 1j * d)), label="complex"),
    Case("RealDiv", lambda a, b, c, d: ops.view_as_real(z(a, b) / z(c, d)), (A, B, POS(2, 3), D),
         lambda a, b, c, d: pairs((a + 1j * b) / (c + 1j * d)), label="complex", fd_tol=1e-4),
    Case("Add", lambda a, b, c: ops.view_as_real(z(a, b) + c), (A, B, C),
         lambda a, b, c: pairs((a + 1j * b) + c), label="complex-real"),
    Case("Sub", lambda a, b, c, d: ops.view_as_real(z(a, b) - z(c, d)), (A, B, C, D),
         lambda a, b, c, d: pairs((a + 1j * b) - (c + 1j * d)), label="complex"),
    Case("Exp", lambda a, b: ops.view_as_real(ops.exp(z(a, b))), (A, B), lambda a, b: pairs(np.exp(a + 1j * b)),
         label="complex"),
    Case("Log", lambda a, b: ops.view_as_real(ops.log(z(a, b))), (POS(2, 3), B),
         lambda a, b: pairs(np.log(a + 1j * b)), label="complex"),
    Case("Sqrt", lambda a, b: ops.view_as_real(ops.sqrt(z(a, b))), (POS(2, 3), B),
         lambda a, b: pairs(np.sqrt(a + 1j * b)), label="complex"),
    Case("Abs", lambda a, b: ops.real(ops.abs(z(a, b))), (A, B), np.hypot, label="complex"),
    Case("MatMul", lambda a, b, c, d: ops.view_as_real(ops.matmul(z(a, b), z(c, d))), (A, B, F64(3, 2), F64(3, 2)),
         lambda a, b, c, d: pairs((a + 1j * b) @ (c + 1j * d)), label="complex"),
    Case("Cast", lambda a, b, c: ops.real(z(a, b) * c) + ops.cast(z(a, b), c.dtype), (A, B, C),
         lambda a, b, c: a * c + a, label="complex-to-real"),
]
