"""mindspore.mint.linalg: inverse, QR and norms with PyTorch's names and arguments."""
from __future__ import annotations

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor

__all__ = ["inv", "matrix_norm", "norm", "qr", "vector_norm"]


def _float(x, dtype):
    x = x if isinstance(x, Tensor) else Tensor(x)
    if dtype is not None:
        return ops.cast(x, mstype.to_dtype(dtype))
    return x if x.dtype.is_float else ops.cast(x, mstype.float32)


def inv(input):  # noqa: A002
    return ops.inverse(input)


def qr(A, mode="reduced"):  # noqa: N803 - PyTorch's argument name
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"mint.linalg.qr: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    return ops.qr(A, mode)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return ops.vector_norm(_float(x, dtype), ord, dim, keepdim)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002,N803
    return ops.matrix_norm(_float(A, dtype), ord, tuple(dim), keepdim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002,N803
    return ops.norm(_float(A, dtype), ord, dim, keepdim)
