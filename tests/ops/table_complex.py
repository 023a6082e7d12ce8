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
    # holomorphic functions on complex values: NumPy's principal branches, gradients dout * conj(f'(z)) against finite
    # differences (MindSpore 2.10's CPU values for the ones it differentiates are in test_complex.py)
    Case("Pow", lambda a, b, c, d: ops.view_as_real(ops.pow(z(a, b), z(c, d))),
         (POS(2, 3), B, F64(2, 3, lo=-1, hi=1), D),
         lambda a, b, c, d: pairs((a + 1j * b) ** (c + 1j * d)), label="complex", fd_tol=1e-4),
    Case("Pow", lambda a, b: ops.view_as_real(ops.pow(z(a, b), 3.0)), (A, B), lambda a, b: pairs((a + 1j * b) ** 3),
         label="complex-scalar-exponent", fd_tol=1e-4),
    Case("Pow", lambda a, b: ops.view_as_real(ops.exp2(z(a, b))), (A, B), lambda a, b: pairs(2.0 ** (a + 1j * b)),
         label="complex-scalar-base", fd_tol=1e-4),
    Case("CumProd", lambda a, b: ops.view_as_real(ops.cumprod(z(a, b), 1)), (A, B),
         lambda a, b: pairs(np.cumprod(a + 1j * b, 1)), label="complex", fd_tol=1e-4),
    Case("CumSum", lambda a, b: ops.view_as_real(ops.cumsum(z(a, b), 1) * z(b, a)), (A, B),
         lambda a, b: pairs(np.cumsum(a + 1j * b, 1) * (b + 1j * a)), label="complex"),
    Case("ReduceProd", lambda a, b: ops.view_as_real(ops.prod(z(a, b), 0)), (A, B),
         lambda a, b: pairs(np.prod(a + 1j * b, 0)), label="complex", fd_tol=1e-4),
] + [Case(op, lambda a, b, f=f: ops.view_as_real(f(z(a, b))), (dom(2, 3), B),
          lambda a, b, r=ref: pairs(r(a + 1j * b)), label=label, fd_tol=1e-4)
     for op, f, ref, dom, label in [
         ("Square", ops.square, np.square, F64, "complex"),
         ("Rsqrt", ops.rsqrt, lambda w: 1 / np.sqrt(w), POS, "complex"),
         ("Expm1", ops.expm1, np.expm1, F64, "complex"),
         ("Log1p", ops.log1p, np.log1p, POS, "complex"),
         ("Reciprocal", ops.reciprocal, lambda w: 1 / w, POS, "complex"),
         ("Sin", ops.sin, np.sin, F64, "complex"),
         ("Cos", ops.cos, np.cos, F64, "complex"),
         ("Tanh", ops.tanh, np.tanh, F64, "complex"),
         ("Sigmoid", ops.sigmoid, lambda w: 1 / (1 + np.exp(-w)), F64, "complex"),
         ("Tan", ops.tan, np.tan, F64, "complex"),
         ("Asin", ops.asin, np.arcsin, F64, "complex"),
         ("ACos", ops.acos, np.arccos, F64, "complex"),
         ("Atan", ops.atan, np.arctan, F64, "complex"),
         ("Sinh", ops.sinh, np.sinh, F64, "complex"),
         ("Cosh", ops.cosh, np.cosh, F64, "complex"),
         ("Asinh", ops.asinh, np.arcsinh, F64, "complex"),
         ("Acosh", ops.acosh, np.arccosh, F64, "complex"),  # Re z < 0 too: the branch of sqrt(z-1)sqrt(z+1)
         ("Atanh", ops.atanh, np.arctanh, F64, "complex"),
         ("Log", ops.log10, np.log10, POS, "complex-log10"),
     ]]
