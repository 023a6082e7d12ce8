"""Special-function and SPD-matrix cells: LGamma, DiGamma, IGamma, LBeta, MatDet, MatInverse."""
from __future__ import annotations

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Tensor
from ..cell import Cell


def _float_input(cell: Cell, x, name: str, allowed=(mstype.float16, mstype.float32)) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{cell.cls_name}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    if x.dtype not in allowed:
        raise TypeError(f"For '{cell.cls_name}', the dtype of '{name}' must be in {[str(t) for t in allowed]}, "
                        f"but got {x.dtype}.")


def _same_dtype(cell: Cell, a, b, names) -> None:
    if a.dtype != b.dtype:
        raise TypeError(f"For '{cell.cls_name}', '{names[1]}' must have the dtype of '{names[0]}' ({a.dtype}), "
                        f"but got {b.dtype}.")


class LGamma(Cell):
    """log|Gamma(x)| elementwise (float16/float32); +inf at the poles 0, -1, -2, ..."""

    def construct(self, x):
        _float_input(self, x, "x")
        return ops.lgamma(x)


class DiGamma(Cell):
    """The digamma function d/dx log Gamma(x) elementwise (float16/float32)."""

    def construct(self, x):
        _float_input(self, x, "x")
        return ops.digamma(x)


class IGamma(Cell):
    """The regularized lower incomplete gamma function P(a, x) (float32, broadcast); NaN where a or x < 0."""

    def construct(self, a, x):
        _float_input(self, a, "a", (mstype.float32,))
        _float_input(self, x, "x", (mstype.float32,))
        return ops.igamma(a, x)


class LBeta(Cell):
    """log|Beta(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y), broadcast (float16/float32)."""

    def construct(self, x, y):
        _float_input(self, x, "x")
        _float_input(self, y, "y")
        _same_dtype(self, x, y, ("x", "y"))
        return ops.sub(ops.add(ops.lgamma(x), ops.lgamma(y)), ops.lgamma(ops.add(x, y)))


def _spd_check(cell: Cell, a) -> None:
    _float_input(cell, a, "input_a")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For '{cell.cls_name}', 'input_a' must be a batch of square matrices (..., M, M), "
                         f"but got shape {tuple(a.shape)}.")


class MatDet(Cell):
    """Determinant of positive-definite Hermitian matrices (..., M, M) through their Cholesky factor:
    det(A) = prod(diag(L))^2. A matrix that is not positive definite is an error (the factorisation fails)."""

    def construct(self, a):
        _spd_check(self, a)
        lower = ops.cholesky(a)
        diag = ops.diagonal(lower, 0, -2, -1)
        return ops.square(ops.prod(diag, -1))


class MatInverse(Cell):
    """Inverse of positive-definite Hermitian matrices (..., M, M) through their Cholesky factor."""

    def construct(self, a):
        _spd_check(self, a)
        return ops.cholesky_inverse(ops.cholesky(a))
