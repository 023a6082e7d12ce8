"""Linear algebra: decompositions, solves, norms and products."""
import numpy as np

from . import OC, U, C


def SPD(n, batch=(), dtype="float32"):
    def make(rng):
        a = rng.uniform(-1, 1, batch + (n, n))
        return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)
    return make


def WELL(n, batch=(), dtype="float32"):
    return lambda rng: (rng.uniform(-1, 1, batch + (n, n)) + 3 * np.eye(n)).astype(dtype)


LU = C([[4.0, 3.0, 2.0], [0.5, 2.5, 1.0], [0.25, 0.3, 1.2]], "float32")
PIV = C([1, 3, 3], "int32")

CASES = [
    OC("inverse", "ops.inverse(x)", {"x": WELL(3)}),
    OC("inverse_batch", "ops.inverse(x)", {"x": WELL(3, (2,))}),
    OC("det", "ops.det(x)", {"x": WELL(3, (2,))}),
    OC("matrix_determinant", "ops.matrix_determinant(x)", {"x": WELL(3)}),
    OC("slogdet", "ops.slogdet(x)", {"x": U(2, 3, 3)}),
    OC("log_matrix_determinant", "ops.log_matrix_determinant(x)", {"x": U(2, 3, 3)}),
    OC("logdet", "ops.logdet(x)", {"x": U(4, 3, 3)}),
    OC("cholesky", "ops.cholesky(x)", {"x": SPD(3)}),
    OC("cholesky_upper", "ops.cholesky(x, upper=True)", {"x": SPD(3, (2,))}),
    OC("cholesky_solve", "ops.cholesky_solve(b, ops.cholesky(a))", {"b": U(3, 2), "a": SPD(3)}, rtol=1e-4),
    OC("cholesky_solve_upper", "ops.cholesky_solve(b, ops.cholesky(a, True), True)", {"b": U(3, 2), "a": SPD(3)},
       rtol=1e-4),
    OC("cholesky_inverse", "ops.cholesky_inverse(ops.cholesky(a))", {"a": SPD(3)}, rtol=1e-4),
    OC("matrix_solve", "ops.matrix_solve(a, b)", {"a": WELL(3), "b": U(3, 2)}, rtol=1e-4),
    OC("matrix_solve_adjoint", "ops.matrix_solve(a, b, True)", {"a": WELL(3, (2,)), "b": U(2, 3, 2)}, rtol=1e-4),
    OC("svd_s", "ops.svd(x, compute_uv=False)", {"x": U(4, 3)}),
    OC("svd_abs", "[t.abs() for t in ops.svd(x)]", {"x": U(4, 3)}, rtol=1e-4, atol=1e-5),
    OC("svd_full_shapes", "ops.svd(x, full_matrices=True)", {"x": U(2, 4, 3)}, check="shape"),
    OC("qr_abs", "[t.abs() for t in ops.qr(x)]", {"x": U(4, 3)}, rtol=1e-4, atol=1e-5),
    OC("qr_complete_shapes", "ops.qr(x, 'complete')", {"x": U(4, 3)}, check="shape"),
    OC("pinv", "ops.pinv(x)", {"x": U(4, 3)}, rtol=1e-4, atol=1e-5),
    OC("lstsq", "ops.lstsq(a, b)", {"a": U(5, 3), "b": U(5, 2)}, rtol=1e-4, atol=1e-5),
    OC("lu_unpack", "ops.lu_unpack(lu, piv)", {"lu": LU, "piv": PIV}),
    OC("lu_solve", "ops.lu_solve(b, lu, piv)", {"b": U(3, 2), "lu": LU, "piv": PIV}, rtol=1e-4),
    OC("matrix_power3", "ops.matrix_power(x, 3)", {"x": U(2, 3, 3)}, rtol=1e-4),
    OC("matrix_power0", "ops.matrix_power(x, 0)", {"x": U(3, 3)}),
    OC("matrix_power_neg", "ops.matrix_power(x, -2)", {"x": WELL(3)}, rtol=1e-4),
    OC("trace", "ops.trace(x)", {"x": U(3, 4)}),
    OC("trace_int", "ops.trace(x)", {"x": C([[1, 2], [3, 4]], "int32")}),
    OC("norm_default", "ops.norm(x)", {"x": U(3, 4)}),
    OC("norm_dim", "ops.norm(x, dim=1, keepdim=True)", {"x": U(3, 4)}),
    OC("norm_ord1", "ops.norm(x, 1)", {"x": U(5)}),
    OC("norm_ord3", "ops.norm(x, 3.0, dim=0)", {"x": U(3, 4)}),
    OC("norm_inf", "ops.norm(x, float('inf'))", {"x": U(5)}),
    OC("norm_ninf", "ops.norm(x, -float('inf'))", {"x": U(5)}),
    OC("norm_zero", "ops.norm(x, 0)", {"x": C([1.0, 0.0, 2.0, 0.0], "float32")}),
    OC("norm_fro", "ops.norm(x, 'fro')", {"x": U(3, 4)}),
    OC("norm_nuc", "ops.norm(x, 'nuc')", {"x": U(3, 4)}, rtol=1e-4),
    OC("norm_mat1", "ops.norm(x, 1)", {"x": U(3, 4)}),
    OC("norm_matinf", "ops.norm(x, float('inf'))", {"x": U(3, 4)}),
    OC("norm_mat2", "ops.norm(x, 2)", {"x": U(3, 4)}, rtol=1e-4),
    OC("norm_matm2", "ops.norm(x, -2)", {"x": U(3, 4)}, rtol=1e-4),
    OC("norm_mat_dims", "ops.norm(x, 'fro', dim=(0, 2))", {"x": U(2, 3, 4)}),
    OC("vector_norm", "ops.vector_norm(x)", {"x": U(3, 4)}),
    OC("vector_norm_axis", "ops.vector_norm(x, 1, axis=(0,), keepdims=True)", {"x": U(3, 4)}),
    OC("vector_norm_p", "ops.vector_norm(x, 0.5, axis=1)", {"x": U(3, 4)}, rtol=1e-4),
    OC("matrix_norm", "ops.matrix_norm(x)", {"x": U(2, 3, 4)}),
    OC("matrix_norm_nuc", "ops.matrix_norm(x, 'nuc')", {"x": U(2, 3, 4)}, rtol=1e-4),
    OC("matrix_norm_m1", "ops.matrix_norm(x, -1, keepdims=True)", {"x": U(2, 3, 4)}),
    OC("cross", "ops.cross(a, b)", {"a": U(2, 3), "b": U(2, 3)}),
    OC("cross_dim", "ops.cross(a, b, dim=0)", {"a": U(3, 3), "b": U(3, 3)}),
    OC("kron", "ops.kron(a, b)", {"a": U(2, 3), "b": U(2, 2)}),
    OC("kron_1d", "ops.kron(a, b)", {"a": U(2), "b": U(3, 2)}),
    OC("inner", "ops.inner(a, b)", {"a": U(2, 3), "b": U(4, 3)}),
    OC("inner_1d", "ops.inner(a, b)", {"a": U(3), "b": U(3)}),
    OC("dot_2d", "ops.dot(a, b)", {"a": U(2, 3), "b": U(3, 4)}),
    OC("dot_3d", "ops.dot(a, b)", {"a": U(2, 3), "b": U(2, 3, 4)}),
    OC("dot_1d_raises", "ops.dot(a, b)", {"a": U(2, 3), "b": U(3)}, check="raises"),
    OC("tensor_dot", "ops.tensor_dot(a, b, ((1, 2), (0, 1)))", {"a": U(2, 3, 4), "b": U(3, 4, 5)}),
    OC("tensor_dot_int", "ops.tensor_dot(a, b, 1)", {"a": U(2, 3), "b": U(3, 4)}),
    OC("vecdot", "ops.vecdot(a, b)", {"a": U(2, 3), "b": U(2, 3)}),
    OC("mv", "ops.mv(a, v)", {"a": U(2, 3), "v": U(3)}),
    OC("addmv", "ops.addmv(x, a, v, beta=0.5, alpha=2)", {"x": U(2), "a": U(2, 3), "v": U(3)}),
    OC("addmm", "ops.addmm(x, a, b, beta=0.5, alpha=2)", {"x": U(2, 4), "a": U(2, 3), "b": U(3, 4)}),
    OC("addbmm", "ops.addbmm(x, a, b)", {"x": U(2, 4), "a": U(3, 2, 3), "b": U(3, 3, 4)}),
    OC("addr", "ops.addr(x, a, b, beta=2)", {"x": U(2, 3), "a": U(2), "b": U(3)}),
    OC("ger", "ops.ger(a, b)", {"a": U(2), "b": U(3)}),
    OC("batch_dot", "ops.batch_dot(a, b)", {"a": U(2, 3), "b": U(2, 3)}),
    OC("batch_dot_3d", "ops.batch_dot(a, b, (2, 1))", {"a": U(2, 3, 4), "b": U(2, 4, 5)}),
    OC("batch_dot_default3", "ops.batch_dot(a, b)", {"a": U(2, 3, 4), "b": U(2, 4, 5)}),
    OC("cdist", "ops.cdist(a, b)", {"a": U(2, 3, 4), "b": U(2, 5, 4)}, rtol=1e-4),
    OC("cdist_p1", "ops.cdist(a, b, 1.0)", {"a": U(3, 4), "b": U(5, 4)}),
    OC("pdist", "ops.pdist(a)", {"a": U(4, 3)}, rtol=1e-4),
    OC("pdist_p1", "ops.pdist(a, 1.0)", {"a": U(4, 3)}),
    OC("dist", "ops.dist(a, b)", {"a": U(3, 4), "b": U(3, 4)}),
    OC("dist_p3", "ops.dist(a, b, 3)", {"a": U(3, 4), "b": U(3, 4)}, rtol=1e-4),
    OC("block_diag", "ops.block_diag(a, b, c)", {"a": U(2, 2), "b": U(1, 3), "c": U(2)}),
    OC("matrix_band_part", "ops.matrix_band_part(x, 1, 0)", {"x": U(2, 4, 4)}),
    OC("matrix_band_part_neg", "ops.matrix_band_part(x, -1, 1)", {"x": U(4, 5)}),
    OC("geqrf", "ops.geqrf(x)", {"x": U(4, 3)}, rtol=1e-4, atol=1e-5),
    OC("orgqr", "ops.orgqr(*ops.geqrf(x))", {"x": U(4, 3)}, rtol=1e-4, atol=1e-5),
    OC("adjoint", "ops.adjoint(x)", {"x": U(2, 3, 4)}),
    OC("inverse_nonsquare_raises", "ops.inverse(x)", {"x": U(2, 3)}, check="raises"),
    OC("cholesky_int_raises", "ops.cholesky(x)", {"x": C([[2, 1], [1, 2]], "int32")}, check="raises"),
]
