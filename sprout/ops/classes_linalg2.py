"""Structured and least-squares linear algebra classes composed of differentiable ops: ops.TridiagonalMatMul
(a tridiagonal matrix given by its three diagonals times a matrix) and ops.MatrixSolveLs (regularised least
squares)."""
from __future__ import annotations

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .classes_linalg import _Flag


def _need_tensor(owner: str, name: str, value) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got {type(value).__name__}.")


def _column(diagonal):
    """(..., 1, M) -> (..., M, 1): one coefficient per row."""
    return F.swapaxes(diagonal, -1, -2)


class TridiagonalMatMul(_Flag):
    """``TridiagonalMatMul()(superdiag, maindiag, subdiag, rhs)``: the diagonals are (..., 1, M) (the superdiagonal's
    last and the subdiagonal's first element unused), rhs (..., M, N); row i of the result is
    sub[i] rhs[i-1] + main[i] rhs[i] + super[i] rhs[i+1]."""

    def __call__(self, superdiag, maindiag, subdiag, rhs):
        owner = "TridiagonalMatMul"
        names = ("superdiag", "maindiag", "subdiag", "rhs")
        for name, t in zip(names, (superdiag, maindiag, subdiag, rhs)):
            _need_tensor(owner, name, t)
            if not (t.dtype.is_float or t.dtype.is_complex):
                raise TypeError(f"For '{owner}', the '{name}' must be a float or complex tensor, but got {t.dtype}.")
        if len({superdiag.dtype, maindiag.dtype, subdiag.dtype, rhs.dtype}) != 1:
            raise TypeError(f"For '{owner}', the inputs must have one dtype.")
        diag_shape = tuple(maindiag.shape)
        if tuple(superdiag.shape) != diag_shape or tuple(subdiag.shape) != diag_shape:
            raise ValueError(f"For '{owner}', the three diagonals must have one shape, but got "
                             f"{list(superdiag.shape)}, {list(diag_shape)} and {list(subdiag.shape)}.")
        if rhs.ndim < 2 or len(diag_shape) != rhs.ndim or diag_shape[-2] != 1:
            raise ValueError(f"For '{owner}', the diagonals must be (..., 1, M) with rhs (..., M, N), but got "
                             f"{list(diag_shape)} and {list(rhs.shape)}.")
        if diag_shape[-1] != rhs.shape[-2] or diag_shape[:-2] != tuple(rhs.shape[:-2]):
            raise ValueError(f"For '{owner}', the diagonals {list(diag_shape)} do not match rhs {list(rhs.shape)}.")
        m = rhs.shape[-2]
        out = F.mul(_column(maindiag), rhs)
        if m > 1:
            below = F.mul(_column(superdiag)[..., :m - 1, :], rhs[..., 1:, :])  # rows 0..M-2 take rhs[i + 1]
            above = F.mul(_column(subdiag)[..., 1:, :], rhs[..., :m - 1, :])  # rows 1..M-1 take rhs[i - 1]
            zero = F.zeros_like(rhs[..., :1, :])
            out = F.add(out, F.add(F.concat([below, zero], -2), F.concat([zero, above], -2)))
        return out


def _adjoint(x):
    t = F.swapaxes(x, -1, -2)
    return F.conj(t) if x.dtype.is_complex else t


class MatrixSolveLs(_Flag):
    """``MatrixSolveLs(fast=True)(matrix (..., M, N), rhs (..., M, K), l2_regularizer)`` with a float64 scalar
    ``l2_regularizer``: argmin_X ||matrix X - rhs||^2 + l2 ||X||^2 through the regularised normal equations
    (``fast``), or the minimum-norm least-squares solution through the pseudo-inverse (``fast=False``, which does
    not use l2_regularizer, as in MindSpore)."""

    defaults = {"fast": True}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not isinstance(self.fast, bool):
            raise TypeError(f"For 'MatrixSolveLs', the type of 'fast' should be 'bool', but got type "
                            f"'{type(self.fast).__name__}'.")

    def __call__(self, matrix, rhs, l2_regularizer):
        owner = "MatrixSolveLs"
        for name, t in (("matrix", matrix), ("rhs", rhs), ("l2_regularizer", l2_regularizer)):
            _need_tensor(owner, name, t)
        if matrix.dtype != rhs.dtype or not (matrix.dtype in (mstype.float32, mstype.float64) or
                                             matrix.dtype.is_complex):
            raise TypeError(f"For '{owner}', 'matrix' and 'rhs' must have one dtype of float32, float64, complex64 or "
                            f"complex128, but got {matrix.dtype} and {rhs.dtype}.")
        if l2_regularizer.dtype != mstype.float64 or l2_regularizer.ndim != 0:
            raise TypeError(f"For '{owner}', 'l2_regularizer' must be a 0-d float64 Tensor, but got "
                            f"{l2_regularizer.dtype} of shape {list(l2_regularizer.shape)}.")
        if matrix.ndim < 2 or rhs.ndim != matrix.ndim or matrix.shape[:-1] != rhs.shape[:-1]:
            raise ValueError(f"For '{owner}', 'matrix' (..., M, N) and 'rhs' (..., M, K) must share their leading "
                             f"dimensions and M, but got {list(matrix.shape)} and {list(rhs.shape)}.")
        if not self.fast:
            return F.matmul(F.pinv(matrix), rhs)
        m, n = matrix.shape[-2:]
        l2 = F.cast(l2_regularizer, matrix.dtype)
        ah = _adjoint(matrix)
        if m >= n:
            gram = F.add(F.matmul(ah, matrix), F.mul(l2, F.eye(n, n, matrix.dtype)))
            return F.matrix_solve(gram, F.matmul(ah, rhs))
        gram = F.add(F.matmul(matrix, ah), F.mul(l2, F.eye(m, m, matrix.dtype)))
        return F.matmul(ah, F.matrix_solve(gram, rhs))


__all__ = ["TridiagonalMatMul", "MatrixSolveLs"]
