"""Linear-algebra primitives over the last two axes (batched): inverse, determinants, Cholesky, solve, SVD,
eigen-decomposition (complex), QR and the matrix exponential, with their reverse-mode rules."""
from __future__ import annotations

import numpy as np

from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape


def _square(op: str, x, min_rank: int = 2, complex_ok: bool = False) -> None:
    if not (x.dtype.is_float or (complex_ok and x.dtype.is_complex)):
        kinds = "float16, float32, float64, complex64 or complex128" if complex_ok else "float16, float32 or float64"
        raise TypeError(f"{op}: expects a {kinds} tensor, got {x.dtype}")
    if x.ndim < min_rank:
        raise OpError(f"{op}: expects a tensor of rank >= {min_rank} (batches of matrices), got {fmt_shape(x.shape)}")
    a, b = x.shape[-2], x.shape[-1]
    if a is not None and b is not None and a != b:
        raise OpError(f"{op}: expects square matrices, got shape {fmt_shape(x.shape)}")


def _mT(x):
    perm = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
    return F.transpose(x, perm)


def _mH(x):
    """The conjugate transpose of the last two axes (the transpose for real values)."""
    return F.conj(_mT(x)) if x.dtype.is_complex else _mT(x)


def _col(v):
    """A (..., n) batch of vectors as (..., n, 1)."""
    return F.expand_dims(v, -1)


def _diag_embed(v):
    """(..., n) -> (..., n, n) diagonal matrices, written with ops (differentiable)."""
    n = v.shape[-1]
    return F.mul(F.expand_dims(v, -1), F.eye(n, n, v.dtype))


def _diag_part(m):
    n = m.shape[-1]
    return F.sum(F.mul(m, F.eye(n, n, m.dtype)), -1)


def _gap_reciprocal(v):
    """F_ij = 1 / (v_j - v_i) off the diagonal, 0 on it (the spectral-gap factor of SVD/eig gradients)."""
    n = v.shape[-1]
    on_diag = F.equal(F.eye(n, n, v.dtype), 1)
    diff = F.sub(F.expand_dims(v, -2), F.expand_dims(v, -1))
    return F.where(on_diag, F.zeros_like(diff), F.reciprocal(F.where(on_diag, F.ones_like(diff), diff)))


def _keep(x, out):
    return np.asarray(out).astype(x.dtype, copy=False)


def _like(op: str, complex_ok: bool = False):
    def infer(x, **attrs):
        _square(op, x, complex_ok=complex_ok)
        return TensorType(tuple(x.shape), x.dtype)

    return infer


def _batch_infer(op: str):
    def infer(x, **attrs):
        _square(op, x)
        return TensorType(tuple(x.shape[:-2]), x.dtype)

    return infer


# ---- inverse and determinants --------------------------------------------------------------------------------
def _inverse_impl(x, adjoint=False):
    out = np.linalg.inv(x)
    return _keep(x, np.conj(np.swapaxes(out, -1, -2)) if adjoint else out)


def _inverse_bprop(x, out, d, adjoint=False):
    # out = inv(w) with w = x (or x^H): d out = -out dw out, so g_w = -out^H d out^H (the complex convention's
    # adjoint of that linear map; for real values ^H is ^T)
    g = F.neg(F.matmul(F.matmul(_mH(out), d), _mH(out)))
    return (_mH(g) if adjoint else g,)


MATRIX_INVERSE = register(Op("MatrixInverse", _inverse_impl, _like("MatrixInverse", complex_ok=True), _inverse_bprop,
                             "opaque", fresh_output=True))
MATRIX_INVERSE.extra["complex_grad"] = True  # the bprop uses conjugate transposes


def _det_bprop(x, out, d):
    return (F.mul(F.expand_dims(F.expand_dims(F.mul(d, out), -1), -1), _mT(F.matrix_inverse(x))),)


MATRIX_DETERMINANT = register(Op("MatrixDeterminant", lambda x: _keep(x, np.linalg.det(x)),
                                 _batch_infer("MatrixDeterminant"), _det_bprop, "opaque"))


def _slogdet_impl(x):
    sign, logabs = np.linalg.slogdet(x)
    return _keep(x, sign), _keep(x, logabs)


def _slogdet_infer(x):
    t = _batch_infer("LogMatrixDeterminant")(x)
    return t, t


def _slogdet_bprop(x, out, d):
    g = d[1]
    return (F.mul(F.expand_dims(F.expand_dims(g, -1), -1), _mT(F.matrix_inverse(x))),)


LOG_MATRIX_DETERMINANT = register(Op("LogMatrixDeterminant", _slogdet_impl, _slogdet_infer, _slogdet_bprop, "opaque",
                                     n_out=2))


# ---- Cholesky and solve -------------------------------------------------------------------------------------
def _cholesky_impl(x, upper=False):
    try:
        low = np.linalg.cholesky(x)
    except np.linalg.LinAlgError:
        raise ValueError("Cholesky: the input is not symmetric positive definite") from None
    return _keep(x, np.swapaxes(low, -1, -2) if upper else low)


def _cholesky_bprop(x, out, d, upper=False):
    low = _mT(out) if upper else out
    dlow = _mT(d) if upper else d
    # P = Phi(L^T dL): lower triangle, diagonal halved; S = L^-T P L^-1; dA = sym(S)
    phi = F.matmul(_mT(low), dlow)
    phi = F.sub(F.tril(phi), F.mul(_diag_embed(_diag_part(phi)), 0.5))
    linv = F.matrix_inverse(low)
    s = F.matmul(F.matmul(_mT(linv), phi), linv)
    return (F.mul(F.add(s, _mT(s)), 0.5),)


CHOLESKY = register(Op("Cholesky", _cholesky_impl, _like("Cholesky"), _cholesky_bprop, "opaque", fresh_output=True))


def _solve_infer(a, b, adjoint=False):
    _square("MatrixSolve", a, complex_ok=True)
    if b.dtype is not a.dtype:
        raise TypeError(f"MatrixSolve: rhs must have the matrix's dtype {a.dtype}, got {b.dtype}")
    if b.ndim < 2:
        raise OpError(f"MatrixSolve: rhs must be a tensor of rank >= 2, got {fmt_shape(b.shape)}")
    if a.shape[-1] is not None and b.shape[-2] is not None and a.shape[-1] != b.shape[-2]:
        raise OpError(f"MatrixSolve: matrix {fmt_shape(a.shape)} and rhs {fmt_shape(b.shape)} do not match")
    from ._infer import broadcast_shapes

    batch = broadcast_shapes("MatrixSolve", tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    return TensorType(batch + tuple(b.shape[-2:]), a.dtype)


def _solve_impl(a, b, adjoint=False):
    m = np.conj(np.swapaxes(a, -1, -2)) if adjoint else a
    try:
        return _keep(a, np.linalg.solve(m, b))
    except np.linalg.LinAlgError:
        raise ValueError("MatrixSolve: the matrix is singular") from None


def _solve_bprop(a, b, out, d, adjoint=False):
    # out = m^-1 b with m = a (or a^H): g_b = m^-H d, g_m = -g_b out^H (^H is ^T for real values)
    gb = F.matrix_solve(a, d, not adjoint)
    ga = F.neg(F.matmul(out, _mH(gb)) if adjoint else F.matmul(gb, _mH(out)))
    return F.sum_to(ga, a.shape) if ga.shape != a.shape else ga, F.sum_to(gb, b.shape) if gb.shape != b.shape else gb


MATRIX_SOLVE = register(Op("MatrixSolve", _solve_impl, _solve_infer, _solve_bprop, "opaque", fresh_output=True))
MATRIX_SOLVE.extra["complex_grad"] = True  # the bprop uses conjugate transposes


# ---- SVD ------------------------------------------------------------------------------------------------------
def _svd_shapes(x, full_matrices):
    *batch, m, n = x.shape
    k = None if m is None or n is None else min(m, n)
    batch = tuple(batch)
    u = (m, m) if full_matrices else (m, k)
    v = (n, n) if full_matrices else (n, k)
    return batch + (k,), batch + u, batch + v


def _svd_infer(x, full_matrices=False, compute_uv=True):
    if not x.dtype.is_float:
        raise TypeError(f"Svd: expects a float tensor, got {x.dtype}")
    if x.ndim < 2:
        raise OpError(f"Svd: expects a tensor of rank >= 2, got {fmt_shape(x.shape)}")
    s, u, v = _svd_shapes(x, full_matrices)
    if not compute_uv:
        return (TensorType(s, x.dtype),)
    return TensorType(s, x.dtype), TensorType(u, x.dtype), TensorType(v, x.dtype)


def _svd_impl(x, full_matrices=False, compute_uv=True):
    if not compute_uv:
        return (_keep(x, np.linalg.svd(x, compute_uv=False)),)
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return _keep(x, s), _keep(x, u), _keep(x, np.swapaxes(vh, -1, -2))


def _svd_bprop(x, out, d, full_matrices=False, compute_uv=True):
    """Reverse mode of A = U diag(s) V^T (Townsend, "Differentiating the singular value decomposition"),
    for distinct non-zero singular values."""
    if not compute_uv:
        # d s_i = u_i^T dA v_i: U and V are needed, recomputed without gradient tracking
        s, u, v = F.svd(F.stop_gradient(x), full_matrices=False)
        return (F.matmul(F.mul(u, F.expand_dims(d[0], -2)), _mT(v)),)
    s, u, v = out
    gs, gu, gv = d
    m, n = x.shape[-2], x.shape[-1]
    k = min(m, n)
    if full_matrices and m != n:
        u, gu = u[..., :k], gu[..., :k]
        v, gv = v[..., :k], gv[..., :k]
    f = _gap_reciprocal(F.square(s))                                      # 1 / (s_j^2 - s_i^2)
    ut_gu, vt_gv = F.matmul(_mT(u), gu), F.matmul(_mT(v), gv)
    j = F.mul(f, F.sub(ut_gu, _mT(ut_gu)))
    kk = F.mul(f, F.sub(vt_gv, _mT(vt_gv)))
    smat = _diag_embed(s)
    inner = F.add(F.add(F.matmul(j, smat), _diag_embed(gs)), F.matmul(smat, kk))
    ga = F.matmul(F.matmul(u, inner), _mT(v))
    sinv = _col(F.reciprocal(s))                                          # (..., k, 1)
    if m > k:
        proj = F.sub(gu, F.matmul(u, ut_gu))                             # (I - U U^T) gU
        ga = F.add(ga, F.matmul(F.mul(proj, _mT(sinv)), _mT(v)))
    if n > k:
        proj = F.sub(gv, F.matmul(v, vt_gv))                             # (I - V V^T) gV
        ga = F.add(ga, F.matmul(F.mul(u, _mT(sinv)), _mT(proj)))
    return (ga,)


SVD = register(Op("Svd", _svd_impl, _svd_infer, _svd_bprop, "opaque", n_out=-1))


# ---- eigen-decomposition (complex results, as MindSpore's Eig) -------------------------------------------------
_EIG_OUT = {"Float32": "complex64", "Float64": "complex128", "Complex64": "complex64", "Complex128": "complex128"}


def eig_check_dtype(dtype) -> None:
    """MindSpore's TypeError for an Eig input that is not float32/float64/complex64/complex128."""
    if str(dtype) not in _EIG_OUT:
        raise TypeError(f"For primitive[Eig], the input argument[x] must be a type of {{Tensor[Complex128], "
                        f"Tensor[Complex64], Tensor[Float32], Tensor[Float64]}}, but got Tensor[{dtype}].")


def _eig_infer(x, compute_v=True):
    from .. import dtype as mstype

    eig_check_dtype(x.dtype)
    if x.ndim < 2 or (x.shape[-2] is not None and x.shape[-1] is not None and x.shape[-2] != x.shape[-1]):
        raise OpError(f"Eig: expects square matrices of rank >= 2, got shape {fmt_shape(x.shape)}")
    out = getattr(mstype, _EIG_OUT[str(x.dtype)])
    vals = TensorType(tuple(x.shape[:-1]), out)
    return (vals, TensorType(tuple(x.shape), out)) if compute_v else (vals,)


def _eig_impl(x, compute_v=True):
    """LAPACK's geev through NumPy: unit-norm eigenvectors (real ones for the real eigenvalues of a real matrix)."""
    out = np.complex64 if x.dtype in (np.float32, np.complex64) else np.complex128
    w, v = np.linalg.eig(x)
    return (w.astype(out), v.astype(out)) if compute_v else (w.astype(out),)


def _complex_inverse(v):
    """The inverse of complex matrices through the real embedding [[Re, -Im], [Im, Re]] (differentiable)."""
    n = v.shape[-1]
    a, b = F.real(v), F.imag(v)
    big = F.concat([F.concat([a, F.neg(b)], -1), F.concat([b, a], -1)], -2)
    inv = F.matrix_inverse(big)
    from .complex_ops import COMPLEX

    return COMPLEX(inv[..., :n, :n], inv[..., n:, :n])


def _eig_bprop(x, out, d, compute_v=True):
    """A V = V diag(w), unit-norm columns, MindSpore's complex convention (dL/dRe + i dL/dIm):
    dA = V^-H (diag(gw) + conj(F) o (V^H gV - V^H V diag(Re diag(V^H gV)))) V^H, F_ij = 1 / (w_j - w_i) off the
    diagonal (distinct eigenvalues); the real part for a real input. The eigenvectors' phase is a convention, so
    only losses that do not depend on it have a gradient (as for any eigenvector gradient)."""
    if not compute_v:
        w, v = F.eig(F.stop_gradient(x))
        gw, gv = d[0], None
    else:
        (w, v), (gw, gv) = out, d
    vh = F.conj(_mT(v))
    z = _diag_embed(gw)
    if gv is not None:
        h = F.matmul(vh, gv)
        norm = F.cast(F.real(_diag_part(h)), h.dtype)
        corr = F.mul(F.matmul(vh, v), F.expand_dims(norm, -2))                 # V^H V diag(Re diag(h))
        z = F.add(z, F.mul(F.conj(_gap_reciprocal(w)), F.sub(h, corr)))
    ga = F.matmul(F.matmul(F.conj(_mT(_complex_inverse(v))), z), vh)
    return (ga if x.dtype.is_complex else F.real(ga),)


EIG = register(Op("Eig", _eig_impl, _eig_infer, _eig_bprop, "opaque", n_out=-1))
EIG.extra["complex_grad"] = True


# ---- QR -------------------------------------------------------------------------------------------------------
def _qr_infer(x, full_matrices=False):
    if not x.dtype.is_float or x.ndim < 2:
        raise TypeError(f"Qr: expects a float tensor of rank >= 2, got {x.dtype}{fmt_shape(x.shape)}")
    *batch, m, n = x.shape
    k = m if full_matrices or m is None or n is None else min(m, n)
    return TensorType(tuple(batch) + (m, k), x.dtype), TensorType(tuple(batch) + (k, n), x.dtype)


def _qr_impl(x, full_matrices=False):
    q, r = np.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return _keep(x, q), _keep(x, r)


def _qr_bprop(x, out, d, full_matrices=False):
    """A = QR (m >= n, reduced): M = R gR^T - gQ^T Q; dA = (gQ + Q copyltu(M)) R^-T, copyltu mirroring
    the lower triangle of M onto the upper one."""
    q, r = out
    gq, gr = d
    m, n = x.shape[-2], x.shape[-1]
    if m < n or (full_matrices and m != n):
        raise ValueError("Qr: the gradient is implemented for m >= n with the reduced factorization "
                         f"(got a {m}x{n} input, full_matrices={full_matrices})")
    mm = F.sub(F.matmul(r, _mT(gr)), F.matmul(_mT(gq), q))
    low = F.tril(mm, -1)
    sym = F.add(F.add(low, _mT(low)), _diag_embed(_diag_part(mm)))
    b = F.add(gq, F.matmul(q, sym))
    return (F.matmul(b, _mT(F.matrix_inverse(r))),)


QR = register(Op("Qr", _qr_impl, _qr_infer, _qr_bprop, "opaque", n_out=2))


# ---- matrix exponential -----------------------------------------------------------------------------------------
def _expm_impl(x):
    import scipy.linalg

    flat = x.reshape((-1,) + x.shape[-2:])
    out = np.stack([scipy.linalg.expm(m) for m in flat]) if flat.shape[0] else np.zeros_like(flat)
    return _keep(x, out.reshape(x.shape))


def _expm_bprop(x, out, d):
    """The adjoint of the Frechet derivative: the upper-right block of expm([[A^T, G], [0, A^T]])."""
    n = x.shape[-1]
    at = _mT(x)
    top = F.concat([at, d], -1)
    bottom = F.concat([F.zeros_like(at), at], -1)
    big = F.matrix_exp(F.concat([top, bottom], -2))
    return (big[..., :n, n:],)


MATRIX_EXP = register(Op("MatrixExp", _expm_impl, _like("MatrixExp"), _expm_bprop, "opaque", fresh_output=True))


# ---- factorizations without gradients: LU pivots, Householder QR ---------------------------------------------
def _no_grad(*args, **attrs):
    return tuple(None for _ in args[:-2])


def _lu_perm_infer(lu, pivots):
    if not pivots.dtype.is_int:
        raise TypeError(f"LuUnpack: LU_pivots must be an integer tensor, got {pivots.dtype}")
    m = lu.shape[-2]
    return TensorType(tuple(lu.shape[:-2]) + (m, m), lu.dtype)


def _lu_perm_impl(lu, pivots):
    """P with P @ L @ U = A from LAPACK-style 1-based row swaps (row i swapped with row pivots[i] - 1)."""
    m = lu.shape[-2]
    batch = lu.shape[:-2]
    piv = np.broadcast_to(pivots, batch + pivots.shape[-1:]).reshape(-1, pivots.shape[-1])
    out = np.empty((piv.shape[0], m, m), lu.dtype)
    for b, row in enumerate(piv):
        perm = np.arange(m)
        for i, p in enumerate(row):
            j = int(p) - 1
            if not 0 <= j < m:
                raise IndexError(f"LuUnpack: pivot {int(p)} is out of range [1, {m}]")
            perm[i], perm[j] = perm[j], perm[i]
        out[b] = np.eye(m, dtype=lu.dtype)[:, perm]
    return out.reshape(batch + (m, m))


LU_PERMUTATION = register(Op("LuUnpackPermutation", _lu_perm_impl, _lu_perm_infer, _no_grad, "opaque"))


def _geqrf_infer(x):
    if not x.dtype.is_float or x.ndim < 2:
        raise TypeError(f"Geqrf: expects a float tensor of rank >= 2, got {x.dtype}{fmt_shape(x.shape)}")
    m, n = x.shape[-2], x.shape[-1]
    k = None if m is None or n is None else min(m, n)
    return TensorType(tuple(x.shape), x.dtype), TensorType(tuple(x.shape[:-2]) + (k,), x.dtype)


def _geqrf_impl(x):
    from scipy.linalg import lapack

    flat = x.reshape((-1,) + x.shape[-2:])
    fn = lapack.get_lapack_funcs("geqrf", (flat,))
    ys, taus = [], []
    for mat in flat:
        y, tau, _work, info = fn(mat)
        if info != 0:
            raise ValueError(f"Geqrf: LAPACK geqrf failed (info={info})")
        ys.append(y)
        taus.append(tau)
    k = min(x.shape[-2:])
    y = np.stack(ys) if ys else flat.copy()
    tau = np.stack(taus) if taus else np.zeros((0, k), x.dtype)
    return _keep(x, y.reshape(x.shape)), _keep(x, tau.reshape(x.shape[:-2] + (k,)))


GEQRF = register(Op("Geqrf", _geqrf_impl, _geqrf_infer, _no_grad, "opaque", n_out=2))


def _orgqr_infer(x, tau):
    if not x.dtype.is_float or x.ndim < 2 or tau.dtype is not x.dtype:
        raise TypeError(f"Orgqr: expects float tensors of one dtype, got {x.dtype} and {tau.dtype}")
    if x.shape[-2] is not None and x.shape[-1] is not None and x.shape[-2] < x.shape[-1]:
        raise OpError(f"Orgqr: input must have rows >= columns, got {fmt_shape(x.shape)}")
    if tau.shape[-1] is not None and x.shape[-1] is not None and tau.shape[-1] > x.shape[-1]:
        raise OpError(f"Orgqr: tau {fmt_shape(tau.shape)} has more reflectors than input has columns")
    return TensorType(tuple(x.shape), x.dtype)


def _orgqr_impl(x, tau):
    """The first n columns of H_1 H_2 ... H_k, H_i = I - tau_i v_i v_i^T (v_i: 1 at i, input below it)."""
    m, n = x.shape[-2:]
    flat = x.reshape((-1, m, n))
    taus = np.broadcast_to(tau, x.shape[:-2] + tau.shape[-1:]).reshape(-1, tau.shape[-1])
    out = np.empty_like(flat)
    for b in range(flat.shape[0]):
        q = np.eye(m, n, dtype=x.dtype)
        for i in range(taus.shape[1] - 1, -1, -1):
            v = np.zeros(m, x.dtype)
            v[i] = 1
            v[i + 1:] = flat[b, i + 1:, i]
            q = q - taus[b, i] * np.outer(v, v @ q)
        out[b] = q
    return out.reshape(x.shape)


ORGQR = register(Op("Orgqr", _orgqr_impl, _orgqr_infer, _no_grad, "opaque"))

from . import functional as F  # noqa: E402
