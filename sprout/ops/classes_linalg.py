"""PascalCase primitive classes for linear algebra (``functional_linalg.py``)."""
from __future__ import annotations

from . import functional as F
from .primitive_classes import Primitive, _simple

_STATELESS = {"MatrixDeterminant": F.det, "LogMatrixDeterminant": F.slogdet, "MatrixExp": F.matrix_exp,
              "LuSolve": lambda x, lu_data, lu_pivots: F.lu_solve(x, lu_data, lu_pivots), "Geqrf": F.geqrf,
              "Orgqr": F.orgqr, "Trace": F.trace, "Ger": F.ger, "Kron": F.kron, "MatrixBandPart": F.matrix_band_part}
for _name, _fn in _STATELESS.items():
    globals()[_name] = _simple(_name, _fn)


class _Flag(Primitive):
    """A primitive configured by keyword flags stored as attributes."""

    defaults: dict = {}

    def __init__(self, *args, **kwargs):
        super().__init__()
        names = list(self.defaults)
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}: takes at most {len(names)} arguments, got {len(args)}")
        unknown = set(kwargs) - set(names)
        if unknown:
            raise TypeError(f"{type(self).__name__}: unexpected arguments {sorted(unknown)}")
        values = dict(self.defaults)
        values.update(zip(names, args))
        values.update(kwargs)
        for k, v in values.items():
            setattr(self, k, v)


class MatrixInverse(_Flag):
    defaults = {"adjoint": False}

    def __call__(self, x):
        return F.matrix_inverse(x, self.adjoint)


class Cholesky(_Flag):
    defaults = {"upper": False}

    def __call__(self, x):
        return F.cholesky(x, self.upper)


class CholeskySolve(_Flag):
    defaults = {"upper": False}

    def __call__(self, x1, x2):
        return F.cholesky_solve(x1, x2, self.upper)


class CholeskyInverse(_Flag):
    defaults = {"upper": False}

    def __call__(self, x):
        return F.cholesky_inverse(x, self.upper)


class MatrixSolve(_Flag):
    defaults = {"adjoint": False}

    def __call__(self, matrix, rhs):
        return F.matrix_solve(matrix, rhs, self.adjoint)


class MatrixTriangularSolve(_Flag):
    defaults = {"lower": True, "adjoint": False}

    def __call__(self, matrix, rhs):
        return F.matrix_triangular_solve(matrix, rhs, self.lower, self.adjoint)


class Svd(_Flag):
    """``Svd(full_matrices=False, compute_uv=True)(x)`` -> (s, u, v)."""

    defaults = {"full_matrices": False, "compute_uv": True}

    def __call__(self, x):
        return F.svd(x, self.full_matrices, self.compute_uv)


class Eig(_Flag):
    """``Eig(compute_v=False)(x)``: (eigenvalues, eigenvectors) when ``compute_v``, else (eigenvalues, an empty
    tensor), as MindSpore returns them (complex, see ops.eig)."""

    defaults = {"compute_v": False}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not isinstance(self.compute_v, bool):
            raise TypeError(f"Eig: compute_v must be a bool, but got {type(self.compute_v).__name__}")

    def __call__(self, x):
        if self.compute_v:
            return F.eig(x)
        w = F.eigvals(x)
        return w, F.zeros((0,), w.dtype)


class Qr(_Flag):
    defaults = {"full_matrices": False}

    def __call__(self, x):
        return F.qr(x, "complete" if self.full_matrices else "reduced")


class MatrixPower(_Flag):
    defaults = {"n": 1}

    def __call__(self, x):
        return F.matrix_power(x, self.n)


class LuUnpack(_Flag):
    defaults = {"unpack_data": True, "unpack_pivots": True}

    def __call__(self, lu_data, lu_pivots):
        return F.lu_unpack(lu_data, lu_pivots, self.unpack_data, self.unpack_pivots)


class Ormqr(_Flag):
    defaults = {"left": True, "transpose": False}

    def __call__(self, x, tau, other):
        return F.ormqr(x, tau, other, self.left, self.transpose)


class Lstsq(_Flag):
    """``Lstsq(fast=True, l2_regularizer=0.0)(a, b)``: X minimising ||a X - b||^2 + l2 ||X||^2."""

    defaults = {"fast": True, "l2_regularizer": 0.0}

    def __call__(self, a, b):
        if self.l2_regularizer:
            n = a.shape[-1]
            gram = F.add(F.matmul(a, a, transpose_a=True), F.mul(F.eye(n, n, a.dtype), float(self.l2_regularizer)))
            return F.matrix_solve(gram, F.matmul(a, b, transpose_a=True))
        return F.lstsq(a, b)


class Cross(_Flag):
    defaults = {"dim": -65530}

    def __call__(self, x1, x2):
        return F.cross(x1, x2, None if self.dim == -65530 else self.dim)


class Cdist(_Flag):
    defaults = {"p": 2.0}

    def __call__(self, x1, x2):
        return F.cdist(x1, x2, self.p)


class Pdist(_Flag):
    defaults = {"p": 2.0}

    def __call__(self, x):
        return F.pdist(x, self.p)


class LpNorm(_Flag):
    """``LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(x)``: the p-norm over ``axis``, at least ``epsilon``
    (MindSpore clamps the result from below)."""

    defaults = {"axis": 0, "p": 2, "keep_dims": False, "epsilon": 1e-12}

    def __call__(self, x):
        axis = (self.axis,) if isinstance(self.axis, int) else tuple(self.axis)
        return F.maximum(F.vector_norm(x, self.p, axis, self.keep_dims), float(self.epsilon))


class EuclideanNorm(_Flag):
    defaults = {"keep_dims": False}

    def __call__(self, x, axes):
        axes = (axes,) if isinstance(axes, int) else tuple(axes.asnumpy().tolist() if hasattr(axes, "asnumpy")
                                                           else axes)
        return F.vector_norm(x, 2, axes, self.keep_dims)


class NuclearNorm(_Flag):
    defaults = {"dim": None, "keepdim": False}

    def __call__(self, x):
        return F.matrix_norm(x, "nuc", tuple(self.dim) if self.dim is not None else (-2, -1), self.keepdim)


__all__ = list(_STATELESS) + ["MatrixInverse", "Cholesky", "CholeskySolve", "CholeskyInverse", "MatrixSolve",
                              "MatrixTriangularSolve", "Svd", "Eig", "Qr", "MatrixPower", "LuUnpack", "Ormqr",
                              "Lstsq", "Cross", "Cdist", "Pdist", "LpNorm", "EuclideanNorm", "NuclearNorm"]
