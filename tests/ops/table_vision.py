"""Op-table cases for issue 10's additions: complex MatrixInverse/MatrixSolve (real float64 parts in, real parts out,
so finite differences check the complex convention dL/dx + i dL/dy; MindSpore 2.10's CPU gradients for the matrix
operand are not that convention's and are not stored) and the image/detection primitives."""
import numpy as np

from sprout import ops
from optable import F64, Spec, Case


def z(re, im):
    return ops.Complex()(re, im)


def pairs(w):
    return np.stack([w.real, w.imag], axis=-1)


def CWELL(*batch):
    """Real and imaginary parts of a diagonally dominant complex matrix: the real part carries 3 I."""
    return Spec(lambda rng: rng.uniform(-1, 1, batch + (3, 3)) + 3 * np.eye(3), label=f"well{list(batch)}")


def _herm(x):
    return np.conj(np.swapaxes(x, -1, -2))


CASES = [
    Case("MatrixInverse", lambda a, b: ops.view_as_real(ops.inverse(z(a, b))), (CWELL(), F64(3, 3, lo=-1, hi=1)),
         lambda a, b: pairs(np.linalg.inv(a + 1j * b)), label="complex"),
    Case("MatrixInverse", lambda a, b: ops.view_as_real(ops.matrix_inverse(z(a, b), True)),
         (CWELL(2), F64(2, 3, 3, lo=-1, hi=1)), lambda a, b: pairs(_herm(np.linalg.inv(a + 1j * b))),
         label="complex-adjoint"),
    Case("MatrixSolve", lambda a, b, c, d: ops.view_as_real(ops.matrix_solve(z(a, b), z(c, d))),
         (CWELL(2), F64(2, 3, 3, lo=-1, hi=1), F64(2, 3, 2), F64(2, 3, 2)),
         lambda a, b, c, d: pairs(np.linalg.solve(a + 1j * b, c + 1j * d)), label="complex"),
    Case("MatrixSolve", lambda a, b, c, d: ops.view_as_real(ops.matrix_solve(z(a, b), z(c, d), True)),
         (CWELL(), F64(3, 3, lo=-1, hi=1), F64(3, 2), F64(3, 2)),
         lambda a, b, c, d: pairs(np.linalg.solve(_herm(a + 1j * b), c + 1j * d)), label="complex-adjoint"),
]
