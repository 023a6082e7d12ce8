"""Complex MatrixInverse/MatrixSolve and the image/detection ops of issue 10 (ScaleAndTranslate, ExtractGlimpse,
SampleDistortedBoundingBoxV2) against MindSpore 2.10's CPU kernels."""
import numpy as np

from . import OC, U, I


def CWELL(n, batch=(), dtype="complex64"):
    """A well-conditioned complex matrix (diagonally dominant)."""
    return lambda rng: (rng.uniform(-1, 1, batch + (n, n)) + 1j * rng.uniform(-1, 1, batch + (n, n))
                        + 3 * np.eye(n)).astype(dtype)


def CU(*shape, dtype="complex64"):
    return lambda rng: (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype)


CASES = [
    OC("inverse_c64", "ops.inverse(x)", {"x": CWELL(3)}, rtol=1e-5, atol=1e-6),
    OC("inverse_c128_batch", "ops.MatrixInverse()(x)", {"x": CWELL(3, (2,), "complex128")}, rtol=1e-10, atol=1e-12),
    OC("inverse_c64_adjoint", "ops.MatrixInverse(adjoint=True)(x)", {"x": CWELL(2, (2,))}, rtol=1e-5, atol=1e-6),
    OC("matrix_solve_c64", "ops.matrix_solve(a, b)", {"a": CWELL(3), "b": CU(3, 2)}, rtol=1e-4, atol=1e-5),
    OC("matrix_solve_c128_adjoint", "ops.MatrixSolve(adjoint=True)(a, b)",
       {"a": CWELL(3, (2,), "complex128"), "b": CU(2, 3, 2, dtype="complex128")}, rtol=1e-10, atol=1e-12),
    OC("matrix_solve_c64_mixed_raises", "ops.MatrixSolve()(a, b)", {"a": CWELL(2), "b": CU(2, 2, dtype="complex128")},
       check="raises", match="MatrixSolve: rhs"),
    OC("matrix_solve_c64_real_rhs_raises", "ops.matrix_solve(a, b)", {"a": CWELL(2), "b": U(2, 2)},
       check="raises", match="MatrixSolve: rhs"),
    OC("inverse_int_raises", "ops.MatrixInverse()(x)", {"x": I(2, 2)}, check="raises", match="MatrixInverse"),
]
