"""Functional linear algebra: the decompositions of ``linalg_ops.py``, norms, and products built on matmul."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import linalg_ops as LA
from . import functional as F
from .composite import _float_input
from .functional import _as_tensor, _to_float

__all__ = ["inverse", "matrix_inverse", "det", "matrix_determinant", "slogdet", "log_matrix_determinant", "logdet",
           "cholesky", "cholesky_solve", "cholesky_inverse", "matrix_solve", "svd", "eig", "eigvals", "qr", "pinv",
           "lstsq", "lu_unpack", "lu_solve", "matrix_power", "matrix_exp", "trace", "norm", "vector_norm",
           "matrix_norm", "cross", "kron", "inner", "dot", "tensor_dot", "tensordot", "vecdot", "mv", "addmv",
           "addmm", "addbmm", "addr", "ger", "batch_dot", "cdist", "pdist", "dist", "block_diag",
           "matrix_band_part", "geqrf", "orgqr", "ormqr", "adjoint", "matrix_triangular_solve", "einsum"]


def _float_matrix(x, op: str) -> Tensor:
    """MindSpore's linear-algebra kernels refuse integer tensors (TypeError)."""
    return _float_input(x, op)


def _inexact_matrix(x, op: str) -> Tensor:
    """A float or complex tensor (MatrixInverse and MatrixSolve take complex64/complex128 too)."""
    t = _as_tensor(x, op)
    if not (t.dtype.is_float or t.dtype.is_complex):
        raise TypeError(f"{op}: the input dtype must be float16, float32, float64, complex64 or complex128, but got "
                        f"{t.dtype}")
    return t


def inverse(input):  # noqa: A002
    """Inverse of each matrix of the batch (last two axes)."""
    return bind(LA.MATRIX_INVERSE, (_inexact_matrix(input, "MatrixInverse"),), {})


def matrix_inverse(input, adjoint=False):  # noqa: A002
    """Inverse of each matrix, conjugate-transposed when ``adjoint``."""
    return bind(LA.MATRIX_INVERSE, (_inexact_matrix(input, "MatrixInverse"),), {"adjoint": True} if adjoint else {})


def det(input):  # noqa: A002
    return bind(LA.MATRIX_DETERMINANT, (_float_matrix(input, "MatrixDeterminant"),), {})


matrix_determinant = det


def slogdet(input):  # noqa: A002
    """(sign, log |det|) of each matrix."""
    return bind(LA.LOG_MATRIX_DETERMINANT, (_float_matrix(input, "LogMatrixDeterminant"),), {})


log_matrix_determinant = slogdet


def logdet(input):  # noqa: A002
    """log(det): NaN where the determinant is negative."""
    sign, logabs = slogdet(input)
    return F.where(F.less(sign, 0), F.full_like(logabs, float("nan")),
                   F.where(F.equal(sign, 0), F.full_like(logabs, float("-inf")), logabs))


def cholesky(input_x, upper=False):
    return bind(LA.CHOLESKY, (_float_matrix(input_x, "Cholesky"),), {"upper": True} if upper else {})


def _gram(u, upper):
    return F.matmul(u, u, transpose_a=True) if upper else F.matmul(u, u, transpose_b=True)


def cholesky_solve(input, input2, upper=False):  # noqa: A002
    """Solve A X = input for A = input2 input2^T (lower) or input2^T input2 (upper) from its Cholesky factor."""
    return matrix_solve(_gram(_float_matrix(input2, "CholeskySolve"), upper), input)


def cholesky_inverse(input_x, upper=False):
    """The inverse of A from its Cholesky factor."""
    return inverse(_gram(_float_matrix(input_x, "CholeskyInverse"), upper))


def matrix_solve(matrix, rhs, adjoint=False):
    """X with matrix @ X = rhs (matrix^H @ X = rhs when ``adjoint``: the conjugate transpose)."""
    a, b = _inexact_matrix(matrix, "MatrixSolve"), _inexact_matrix(rhs, "MatrixSolve")
    if a.dtype is not b.dtype:
        raise TypeError(f"MatrixSolve: rhs must have the matrix's dtype {a.dtype}, got {b.dtype}")
    return bind(LA.MATRIX_SOLVE, (a, b), {"adjoint": True} if adjoint else {})


def svd(input, full_matrices=False, compute_uv=True):  # noqa: A002
    """(s, u, v) with input = u @ diag(s) @ v^T (MindSpore's order; v is not transposed); s alone without uv."""
    outs = bind(LA.SVD, (_float_matrix(input, "Svd"),), {"full_matrices": bool(full_matrices),
                                                        "compute_uv": bool(compute_uv)})
    return outs if compute_uv else outs[0]


def eig(A):  # noqa: N803 - MindSpore's name
    """(eigenvalues, unit-norm eigenvectors) of float32/float64/complex matrices: complex64 (complex128) results,
    as MindSpore's Eig, in LAPACK's order and phase."""
    return bind(LA.EIG, (_eig_input(A),), {})


def eigvals(A):  # noqa: N803
    """The eigenvalues of ``eig`` alone."""
    return bind(LA.EIG, (_eig_input(A),), {"compute_v": False})[0]


def _eig_input(A):  # noqa: N803
    t = _as_tensor(A, "Eig")
    LA.eig_check_dtype(t.dtype)  # before bind, which would widen an integer matrix
    return t


def qr(input, mode="reduced"):  # noqa: A002
    """(Q, R); ``mode`` 'reduced', 'complete', or 'r' (Q is then an empty tensor, as MindSpore returns)."""
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    q, r = bind(LA.QR, (_float_matrix(input, "Qr"),), {"full_matrices": mode == "complete"})
    if mode == "r":
        return Tensor(np.zeros((0,), q.dtype.np)), r
    return q, r


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """Moore-Penrose pseudo-inverse through the SVD; singular values at or below
    max(atol, rtol * s_max) are dropped (rtol defaults to eps * max(m, n) when neither is given). With
    ``hermitian`` only the lower triangle is read (the matrix it mirrors is inverted), as MindSpore does."""
    a = _float_matrix(x, "pinv")
    if hermitian:
        low = F.tril(a)
        a = F.add(low, F.swapaxes(F.tril(a, -1), -1, -2))
    s, u, v = svd(a, full_matrices=False)
    m, n = a.shape[-2], a.shape[-1]
    smax = F.amax(s, -1, True)
    if rtol is None:
        rtol = 0.0 if atol is not None else float(np.finfo(a.dtype.np).eps) * max(m, n)
    cut = F.mul(smax, float(rtol))
    if atol is not None:
        cut = F.maximum(cut, float(atol.item() if isinstance(atol, Tensor) else atol))
    keep = F.greater(s, cut)
    sinv = F.where(keep, F.reciprocal(F.where(keep, s, F.ones_like(s))), F.zeros_like(s))
    return F.matmul(F.mul(v, F.expand_dims(sinv, -2)), u, transpose_b=True)


def lstsq(input, A):  # noqa: A002,N803
    """The least-squares solution X of input @ X = A (MindSpore's argument order: the matrix first)."""
    return F.matmul(pinv(input), _float_matrix(A, "lstsq"))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):  # noqa: N803
    """(P, L, U) from a packed LU factorization with 1-based pivots (P @ L @ U = A)."""
    lu = _float_matrix(LU_data, "lu_unpack")
    piv = _as_tensor(LU_pivots, "lu_unpack")
    if not piv.dtype.is_int:
        raise TypeError(f"lu_unpack: LU_pivots must be an integer tensor, got {piv.dtype}")
    m, n = lu.shape[-2], lu.shape[-1]
    k = min(m, n)
    p = bind(LA.LU_PERMUTATION, (lu, piv), {}) if unpack_pivots else Tensor(np.zeros((0,), lu.dtype.np))
    if not unpack_data:
        empty = Tensor(np.zeros((0,), lu.dtype.np))
        return p, empty, empty
    low = F.add(F.tril(lu[..., :, :k], -1), F.eye(m, k, lu.dtype))
    up = F.triu(lu[..., :k, :])
    return p, low, up


def lu_solve(b, LU_data, LU_pivots):  # noqa: N803
    """X with A X = b, A given by its packed LU factorization and 1-based pivots."""
    p, low, up = lu_unpack(LU_data, LU_pivots)
    y = matrix_solve(low, F.matmul(p, _float_matrix(b, "lu_solve"), transpose_a=True))
    return matrix_solve(up, y)


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False):
    """Solve with the lower (or upper) triangle of ``matrix`` only."""
    m = _float_matrix(matrix, "MatrixTriangularSolve")
    tri = F.tril(m) if lower else F.triu(m)
    return matrix_solve(tri, rhs, adjoint)


def matrix_power(input, n):  # noqa: A002
    """input ** n by repeated squaring (n < 0 inverts first; n == 0 gives the identity)."""
    x = _as_tensor(input, "matrix_power")
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError(f"matrix_power: n must be an int, got {n!r}")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"matrix_power: expects square matrices, got shape {list(x.shape)}")
    if n == 0:
        return F.broadcast_to(F.eye(x.shape[-1], x.shape[-1], x.dtype), x.shape)
    if n < 0:
        x, n = inverse(x), -n
    result, base = None, x
    while n:
        if n & 1:
            result = base if result is None else F.matmul(result, base)
        n >>= 1
        if n:
            base = F.matmul(base, base)
    return result


def matrix_exp(input):  # noqa: A002
    return bind(LA.MATRIX_EXP, (_float_matrix(input, "MatrixExp"),), {})


def trace(input):  # noqa: A002
    """The sum of the main diagonal of a 2-D tensor."""
    x = _as_tensor(input, "trace")
    if x.ndim != 2:
        raise ValueError(f"trace: expects a 2-D tensor, got shape {list(x.shape)}")
    out = F.sum(F.mul(x, F.eye(x.shape[0], x.shape[1], x.dtype)))
    return out if out.dtype is x.dtype else F.cast(out, x.dtype)


# ---- norms ------------------------------------------------------------------------------------------------
_INF = float("inf")


def _vector_norm(x, ord, axis, keepdims):  # noqa: A002
    a = F.abs(x)
    if ord == _INF:
        return F.amax(a, axis, keepdims)
    if ord == -_INF:
        return F.amin(a, axis, keepdims)
    if ord == 0:
        return F.sum(F.cast(F.not_equal(x, 0), x.dtype), axis, keepdims)
    if ord == 1:
        return F.sum(a, axis, keepdims)
    if ord == 2:
        return F.sqrt(F.sum(F.square(x), axis, keepdims))
    return F.pow(F.sum(F.pow(a, float(ord)), axis, keepdims), 1.0 / float(ord))


def _matrix_norm(x, ord, axis, keepdims):  # noqa: A002
    r, c = (a % x.ndim for a in axis)
    if ord == "fro":
        return F.sqrt(F.sum(F.square(x), (r, c), keepdims))
    if ord in ("nuc", 2, -2):
        perm = tuple(i for i in range(x.ndim) if i not in (r, c)) + (r, c)
        s = svd(F.transpose(x, perm), compute_uv=False)
        out = F.sum(s, -1) if ord == "nuc" else F.amax(s, -1) if ord == 2 else F.amin(s, -1)
        if keepdims:
            for a in sorted((r, c)):
                out = F.expand_dims(out, a)
        return out
    if ord in (1, -1, _INF, -_INF):
        over, keep = (r, c) if ord in (1, -1) else (c, r)
        sums = F.sum(F.abs(x), over, True)
        red = F.amax(sums, keep, True) if ord in (1, _INF) else F.amin(sums, keep, True)
        return red if keepdims else F.squeeze(red, (r, c))
    raise ValueError(f"matrix_norm: ord must be 'fro', 'nuc', inf, -inf, 1, -1, 2 or -2, got {ord!r}")


def _norm_input(A, op, dtype):
    """Integer tensors are normed in float32, as MindSpore does."""
    x = _as_tensor(A, op)
    if dtype is not None:
        x = F.cast(x, dtype)
    return _to_float(x)


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):  # noqa: A002
    t = _norm_input(x, "vector_norm", dtype)
    if isinstance(ord, str):
        raise ValueError(f"vector_norm: ord must be a number, got {ord!r}")
    return _vector_norm(t, ord, axis, keepdims)


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):  # noqa: A002,N803
    t = _norm_input(A, "matrix_norm", dtype)
    if t.ndim < 2:
        raise ValueError(f"matrix_norm: expects a tensor of rank >= 2, got shape {list(t.shape)}")
    return _matrix_norm(t, ord, tuple(axis), keepdims)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002,N803
    """Vector or matrix norm: ``dim`` an int (or a 1-D input) is a vector norm, a pair (or a 2-D input with
    ``ord`` given) a matrix norm; ``ord`` None is the 2-norm / Frobenius norm over ``dim`` (every axis by
    default)."""
    x = _norm_input(A, "norm", dtype)
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        return F.sqrt(F.sum(F.square(x), dim, keepdim))
    if dim is None:
        if x.ndim == 1:
            dim = (0,)
        elif x.ndim == 2:
            dim = (0, 1)
        else:
            raise ValueError(f"norm: with ord={ord!r} the input must be 1-D or 2-D unless dim is given, got shape "
                             f"{list(x.shape)}")
    dim = tuple(dim)
    if len(dim) == 1:
        if isinstance(ord, str):
            raise ValueError(f"norm: ord={ord!r} is a matrix norm; a vector norm takes a number")
        return _vector_norm(x, ord, dim, keepdim)
    if len(dim) == 2:
        return _matrix_norm(x, ord, dim, keepdim)
    raise ValueError(f"norm: dim must hold one or two axes, got {dim}")


# ---- products -------------------------------------------------------------------------------------------------
def cross(input, other, dim=None):  # noqa: A002
    """The cross product of 3-vectors along ``dim`` (default: the first axis of size 3)."""
    a, b = _as_tensor(input, "cross"), _as_tensor(other, "cross")
    if dim is None:
        dim = next((i for i, d in enumerate(a.shape) if d == 3), None)
        if dim is None:
            raise ValueError(f"cross: no axis of size 3 in shape {list(a.shape)}")
    if a.shape[dim] != 3 or b.shape[dim] != 3:
        raise ValueError(f"cross: axis {dim} must have size 3, got {list(a.shape)} and {list(b.shape)}")

    def part(t, i):
        idx = [slice(None)] * t.ndim
        idx[dim] = slice(i, i + 1)
        return t[tuple(idx)]

    a0, a1, a2 = (part(a, i) for i in range(3))
    b0, b1, b2 = (part(b, i) for i in range(3))
    return F.concat([F.sub(F.mul(a1, b2), F.mul(a2, b1)), F.sub(F.mul(a2, b0), F.mul(a0, b2)),
                     F.sub(F.mul(a0, b1), F.mul(a1, b0))], dim)


def kron(input, other):  # noqa: A002
    """Kronecker product: every element of ``input`` scales a copy of ``other``."""
    a, b = _as_tensor(input, "kron"), _as_tensor(other, "kron")
    nd = max(a.ndim, b.ndim)
    a = F.reshape(a, (1,) * (nd - a.ndim) + tuple(a.shape))
    b = F.reshape(b, (1,) * (nd - b.ndim) + tuple(b.shape))
    ea = F.reshape(a, tuple(x for d in a.shape for x in (d, 1)))
    eb = F.reshape(b, tuple(x for d in b.shape for x in (1, d)))
    return F.reshape(F.mul(ea, eb), tuple(p * q for p, q in zip(a.shape, b.shape)))


def inner(input, other):  # noqa: A002
    """Sum over the last axes of both (a scalar operand multiplies)."""
    a, b = _as_tensor(input, "inner"), _as_tensor(other, "inner")
    if a.ndim == 0 or b.ndim == 0:
        return F.mul(a, b)
    return tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def tensor_dot(x1, x2, axes):
    """NumPy's tensordot: contract ``axes`` (an int or a pair of axis lists)."""
    a, b = _as_tensor(x1, "tensor_dot"), _as_tensor(x2, "tensor_dot")
    if isinstance(axes, int):
        ax_a, ax_b = tuple(range(a.ndim - axes, a.ndim)), tuple(range(axes))
    else:
        ax_a, ax_b = axes
        ax_a = (ax_a,) if isinstance(ax_a, int) else tuple(ax_a)
        ax_b = (ax_b,) if isinstance(ax_b, int) else tuple(ax_b)
    ax_a = tuple(x % a.ndim for x in ax_a)
    ax_b = tuple(x % b.ndim for x in ax_b)
    if len(ax_a) != len(ax_b) or any(a.shape[i] != b.shape[j] for i, j in zip(ax_a, ax_b)):
        raise ValueError(f"tensor_dot: axes {ax_a} of {list(a.shape)} and {ax_b} of {list(b.shape)} do not match")
    free_a = tuple(i for i in range(a.ndim) if i not in ax_a)
    free_b = tuple(i for i in range(b.ndim) if i not in ax_b)
    k = int(np.prod([a.shape[i] for i in ax_a])) if ax_a else 1
    am = F.reshape(F.transpose(a, free_a + ax_a), (-1, k))
    bm = F.reshape(F.transpose(b, ax_b + free_b), (k, -1))
    return F.reshape(F.matmul(am, bm), tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b))


tensordot = tensor_dot


def dot(input, other):  # noqa: A002
    """MindSpore's ``ops.dot``: contract the last axis of ``input`` with the second-to-last of ``other``,
    keeping the other axes as NumPy's dot does; both must have rank >= 2."""
    a, b = _as_tensor(input, "dot"), _as_tensor(other, "dot")
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"dot: both inputs must have rank >= 2, got shapes {list(a.shape)} and {list(b.shape)}")
    return tensor_dot(a, b, ((a.ndim - 1,), (b.ndim - 2,)))


def vecdot(x, y, *, axis=-1):
    return F.sum(F.mul(x, y), axis)


def mv(mat, vec):
    m, v = _as_tensor(mat, "mv"), _as_tensor(vec, "mv")
    if m.ndim != 2 or v.ndim != 1:
        raise ValueError(f"mv: expects a matrix and a vector, got shapes {list(m.shape)} and {list(v.shape)}")
    return F.matmul(m, v)


def _scaled_add(base, prod, beta, alpha):
    b = base if beta == 1 else F.mul(base, beta)
    p = prod if alpha == 1 else F.mul(prod, alpha)
    return F.add(b, p)


def addmv(input, mat, vec, *, beta=1, alpha=1):  # noqa: A002
    return _scaled_add(input, mv(mat, vec), beta, alpha)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):  # noqa: A002
    return _scaled_add(input, F.matmul(mat1, mat2), beta, alpha)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    return _scaled_add(input, F.sum(F.matmul(batch1, batch2), 0), beta, alpha)


def ger(input, vec2):  # noqa: A002
    return F.outer(input, vec2)


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    return _scaled_add(x, F.outer(vec1, vec2), beta, alpha)


def adjoint(x):
    """The (conjugate) transpose of the last two axes (sprout's tensors are real)."""
    t = _as_tensor(x, "adjoint")
    return F.transpose(t, tuple(range(t.ndim - 2)) + (t.ndim - 1, t.ndim - 2))


def batch_dot(x1, x2, axes=None):
    """MindSpore's batch_dot: a tensordot per batch element over axis 0 (default axes: the last of x1 and
    the last of x2, or its second-to-last when x2 has rank > 2); a 2-D result gains a trailing axis."""
    a, b = _as_tensor(x1, "batch_dot"), _as_tensor(x2, "batch_dot")
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"batch_dot: inputs must have rank >= 2, got {list(a.shape)} and {list(b.shape)}")
    if axes is None:
        axes = (a.ndim - 1, b.ndim - 1 if b.ndim == 2 else b.ndim - 2)
    if isinstance(axes, int):
        axes = (axes, axes)
    ax_a, ax_b = (int(x) % t.ndim for x, t in zip(axes, (a, b)))
    if ax_a == 0 or ax_b == 0:
        raise ValueError("batch_dot: axes cannot include the batch axis 0")
    if a.shape[0] != b.shape[0] or a.shape[ax_a] != b.shape[ax_b]:
        raise ValueError(f"batch_dot: shapes {list(a.shape)} and {list(b.shape)} do not match on axes {axes}")
    free_a = tuple(i for i in range(1, a.ndim) if i != ax_a)
    free_b = tuple(i for i in range(1, b.ndim) if i != ax_b)
    am = F.reshape(F.transpose(a, (0,) + free_a + (ax_a,)), (a.shape[0], -1, a.shape[ax_a]))
    bm = F.reshape(F.transpose(b, (0, ax_b) + free_b), (b.shape[0], b.shape[ax_b], -1))
    out_shape = (a.shape[0],) + tuple(a.shape[i] for i in free_a) + tuple(b.shape[i] for i in free_b)
    out = F.reshape(F.matmul(am, bm), out_shape)
    return F.expand_dims(out, -1) if len(out_shape) == 1 else out


def cdist(x1, x2, p=2.0):
    """p-norm distances between the rows of x1 (.., P, M) and x2 (.., R, M): shape (.., P, R)."""
    a, b = _float_matrix(x1, "cdist"), _float_matrix(x2, "cdist")
    diff = F.sub(F.expand_dims(a, -2), F.expand_dims(b, -3))
    return _vector_norm(diff, float(p), -1, False)


def pdist(input, p=2.0):  # noqa: A002
    """p-norm distances between every pair of rows i < j of a (.., N, M) tensor, flattened (.., N(N-1)/2)."""
    x = _float_matrix(input, "pdist")
    n = x.shape[-2]
    rows, cols = np.triu_indices(n, 1)
    d = F.sub(F.gather(x, Tensor(rows.astype(np.int32)), x.ndim - 2), F.gather(x, Tensor(cols.astype(np.int32)),
                                                                                x.ndim - 2))
    return _vector_norm(d, float(p), -1, False)


def dist(input, other, p=2):  # noqa: A002
    """The p-norm of input - other (over every element)."""
    d = F.sub(_float_matrix(input, "dist"), _float_matrix(other, "dist"))
    return _vector_norm(F.reshape(d, (-1,)), float(p), 0, False)


def block_diag(*inputs):
    """A block-diagonal matrix of the (0-, 1- or 2-D) inputs."""
    mats = []
    for t in inputs:
        t = _as_tensor(t, "block_diag")
        if t.ndim > 2:
            raise ValueError(f"block_diag: inputs must have rank <= 2, got shape {list(t.shape)}")
        mats.append(F.reshape(t, (1, -1)) if t.ndim < 2 else t)
    dt = mats[0].dtype
    for m in mats[1:]:
        dt = mstype.promote(dt, m.dtype)
    total = sum(m.shape[1] for m in mats)
    rows, start = [], 0
    for m in mats:
        m = F.cast(m, dt) if m.dtype is not dt else m
        rows.append(F.pad(m, (start, total - start - m.shape[1])))
        start += m.shape[1]
    return F.concat(rows, 0)


def matrix_band_part(x, lower, upper):
    """Keep the band of ``lower`` sub-diagonals and ``upper`` super-diagonals (negative: all of them)."""
    t = _as_tensor(x, "MatrixBandPart")
    m, n = t.shape[-2], t.shape[-1]
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    lo = m if int(lower) < 0 else int(lower)
    hi = n if int(upper) < 0 else int(upper)
    keep = (i - j <= lo) & (j - i <= hi)
    return F.where(Tensor(keep), t, F.zeros_like(t))


def geqrf(input):  # noqa: A002
    """LAPACK's geqrf: (R with the Householder vectors below the diagonal, tau)."""
    return bind(LA.GEQRF, (_float_matrix(input, "Geqrf"),), {})


def orgqr(input, input2):  # noqa: A002
    """Q from geqrf's Householder reflectors and tau."""
    return bind(LA.ORGQR, (_float_matrix(input, "Orgqr"), _float_matrix(input2, "Orgqr")), {})


def ormqr(input, tau, other, left=True, transpose=False):  # noqa: A002
    """Q @ other (or other @ Q, or with Q^T) for the full m x m Q held by geqrf's reflectors and tau."""
    x = _float_matrix(input, "Ormqr")
    m, n = x.shape[-2], x.shape[-1]
    square = F.pad(x, (0, m - n)) if n < m else x[..., :, :m]
    q = orgqr(square, tau)
    qm = adjoint(q) if transpose else q
    o = _float_matrix(other, "Ormqr")
    return F.matmul(qm, o) if left else F.matmul(o, qm)


def einsum(equation, *operands):
    """Einstein summation (NumPy's subscripts, '...' broadcasting, implicit output); differentiable."""
    from . import einsum_ops as E

    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a string, got {type(equation).__name__}")
    xs = [_as_tensor(x, "Einsum") for x in operands]
    if not xs:
        raise ValueError("einsum: needs at least one operand")
    dt = xs[0].dtype
    for x in xs[1:]:
        dt = mstype.promote(dt, x.dtype)
    xs = [x if x.dtype is dt else F.cast(x, dt) for x in xs]
    eq = E.normalize(equation, [x.ndim for x in xs])
    return bind(E.EINSUM, tuple(xs), {"equation": eq})
