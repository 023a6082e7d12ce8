"""Op-table cases for the linear-algebra primitives (``ops/linalg_ops.py``); references from NumPy/SciPy.
Decompositions with sign-ambiguous factors are checked through sign-normalised outputs."""
import numpy as np
import scipy.linalg

from sprout import ops
from sprout.core.dispatch import bind
from sprout.ops import linalg_ops as LA
from optable import F64, Case, Spec


def WELL(*batch, n=3):
    def make(rng):
        return rng.uniform(-1, 1, batch + (n, n)) + 3 * np.eye(n)
    return Spec(make, label=f"well{list(batch)}")


def _spd(a):
    return ops.matmul(a, ops.transpose(a, (1, 0))) + ops.eye(a.shape[0], a.shape[0], a.dtype) * 3.0


def _spd_np(a):
    return a @ a.T + 3 * np.eye(a.shape[0])


def _sym(a):
    return a + ops.transpose(a, (1, 0))


def _fix_sign(m, ref_row=0):
    """Columns scaled by the sign of their entry in ``ref_row`` (a unique representative)."""
    s = ops.sign(m[ref_row:ref_row + 1, :])
    return m * s


def _fix_sign_np(m, ref_row=0):
    return m * np.sign(m[ref_row:ref_row + 1, :])


def _svd_fn(a):
    s, u, v = ops.svd(a)
    sign = ops.sign(u[0:1, :])
    return s, u * sign, v * sign


def _svd_ref(a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    sign = np.sign(u[0:1, :])
    return s, u * sign, vh.T * sign


def _unit_phase(v):
    """Eigenvector columns rotated so that their first entry is real and positive (a unique representative of the
    phase LAPACK and MindSpore leave arbitrary)."""
    top = v[..., 0:1, :]
    return v * (ops.conj(top) / ops.abs(top))


def _unit_phase_np(v):
    top = v[..., 0:1, :]
    return v * (np.conj(top) / np.abs(top))


def _eig_fn(a):
    w, v = ops.eig(a)
    return ops.view_as_real(w), ops.view_as_real(_unit_phase(v))


def _eig_ref(a):
    w, v = np.linalg.eig(a)
    return _pairs(w), _pairs(_unit_phase_np(v))


def _pairs(w):
    return np.stack([w.real, w.imag], axis=-1)


def _eig_complex_fn(a, b):
    return _eig_fn(ops.Complex()(a, b))


def _eig_complex_ref(a, b):
    return _eig_ref(a + 1j * b)


def _lu_perm(lu, piv):
    return bind(LA.LU_PERMUTATION, (lu, piv), {})


def _lu_perm_ref(lu, piv):
    perm = np.arange(3)
    for i, p in enumerate(piv):
        perm[i], perm[p - 1] = perm[p - 1], perm[i]
    return np.eye(3)[:, perm]


def _orgqr_ref(x):
    q, _ = np.linalg.qr(x)
    return q


def _geqrf_check(out, inputs):
    (x,) = inputs
    y, tau = (t.asnumpy() for t in out)
    np.testing.assert_allclose(np.abs(np.triu(y)[:3]), np.abs(np.linalg.qr(x)[1]), rtol=1e-6, atol=1e-9)
    assert tau.shape == (3,)


CASES = [
    Case("MatrixInverse", ops.inverse, (WELL(),), np.linalg.inv),
    Case("MatrixInverse", ops.inverse, (WELL(2),), np.linalg.inv, label="batch"),
    Case("MatrixInverse", lambda x: ops.matrix_inverse(x, True), (WELL(),), lambda x: np.linalg.inv(x).T,
         label="adjoint"),
    Case("MatrixDeterminant", ops.det, (WELL(2),), np.linalg.det),
    Case("LogMatrixDeterminant", ops.slogdet, (F64(2, 3, 3),), lambda x: tuple(np.linalg.slogdet(x))),
    Case("Cholesky", lambda a: ops.cholesky(_spd(a)), (F64(3, 3),), lambda a: np.linalg.cholesky(_spd_np(a))),
    Case("Cholesky", lambda a: ops.cholesky(_spd(a), True), (F64(3, 3),),
         lambda a: np.linalg.cholesky(_spd_np(a)).T, label="upper"),
    Case("MatrixSolve", ops.matrix_solve, (WELL(2), F64(2, 3, 2)), np.linalg.solve),
    Case("MatrixSolve", lambda a, b: ops.matrix_solve(a, b, True), (WELL(), F64(3, 2)),
         lambda a, b: np.linalg.solve(a.T, b), label="adjoint"),
    Case("Svd", lambda a: ops.svd(a, compute_uv=False), (F64(4, 3),), lambda a: np.linalg.svd(a, compute_uv=False)),
    Case("Svd", _svd_fn, (F64(4, 3),), _svd_ref, label="uv"),
    Case("Svd", _svd_fn, (F64(3, 4),), _svd_ref, label="wide"),
    Case("Eig", lambda a: _eig_fn(_sym(a)), (F64(3, 3),), lambda a: _eig_ref(a + a.T), label="symmetric"),
    Case("Eig", _eig_fn, (F64(2, 3, 3),), _eig_ref, fd_tol=1e-4),  # complex pairs for some seeds
    Case("Eig", _eig_fn, (Spec(lambda rng: np.array([[0.5, -2.0, 0.3], [1.5, 0.2, 0.1], [0.4, 0.3, 2.0]])
                               + 0.1 * rng.uniform(-1, 1, (3, 3)), label="rotation"),), _eig_ref, fd_tol=1e-4,
         label="complex-pair"),
    Case("Eig", _eig_complex_fn, (F64(3, 3), F64(3, 3)), _eig_complex_ref, fd_tol=1e-4, label="complex"),
    Case("Eig", lambda a: ops.view_as_real(ops.eigvals(a)), (F64(3, 3),), lambda a: _pairs(np.linalg.eigvals(a)),
         label="values"),
    Case("Qr", ops.qr, (F64(4, 3),), lambda a: tuple(np.linalg.qr(a))),
    Case("Qr", ops.qr, (F64(3, 3),), lambda a: tuple(np.linalg.qr(a)), label="square"),
    Case("MatrixExp", ops.matrix_exp, (F64(2, 3, 3, lo=-0.5, hi=0.5),),
         lambda a: np.stack([scipy.linalg.expm(m) for m in a]), fd_tol=1e-4),
    Case("LuUnpackPermutation", _lu_perm, (F64(3, 3), Spec(lambda rng: np.array([2, 3, 3], np.int32))),
         _lu_perm_ref),
    Case("Geqrf", ops.geqrf, (F64(4, 3),), check=_geqrf_check, grad=(),
         why="the Householder vectors below R are LAPACK's own representation; checked through |R|"),
    Case("Orgqr", lambda x: ops.orgqr(*ops.geqrf(x)), (F64(4, 3),), _orgqr_ref, grad=()),
]

CASES += [
    Case("Einsum", lambda a, b: ops.einsum("bij,bjk->bik", a, b), (F64(2, 2, 3), F64(2, 3, 2)),
         lambda a, b: np.einsum("bij,bjk->bik", a, b)),
    Case("Einsum", lambda a: ops.einsum("iij->ji", a), (F64(3, 3, 2),), lambda a: np.einsum("iij->ji", a),
         label="diagonal"),
    Case("Einsum", lambda a, b: ops.einsum("...i,j->...ij", a, b), (F64(2, 1, 3), F64(2)),
         lambda a, b: np.einsum("...i,j->...ij", a, b), label="ellipsis"),
    Case("Einsum", lambda a: ops.einsum("ij->", a), (F64(2, 3),), lambda a: np.einsum("ij->", a), label="total"),
]
