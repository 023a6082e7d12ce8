"""PascalCase sparse primitives: ``ops.SparseToDense`` and ``ops.SparseTensorDenseMatmul``."""
from __future__ import annotations

from . import functional_sparse as FS
from .classes_linalg import _Flag
from .primitive import Primitive


class SparseToDense(Primitive):
    """``SparseToDense()(indices, values, sparse_shape)``: the dense tensor of a COO description."""

    def __call__(self, indices, values, sparse_shape):
        return FS.sparse_to_dense(indices, values, sparse_shape)


class SparseTensorDenseMatmul(_Flag):
    """``SparseTensorDenseMatmul(adjoint_st, adjoint_dt)(indices, values, sparse_shape, dense)``."""

    defaults = {"adjoint_st": False, "adjoint_dt": False}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for k in self.defaults:
            if not isinstance(getattr(self, k), bool):
                raise TypeError(f"For 'SparseTensorDenseMatmul', '{k}' must be a bool, got {getattr(self, k)!r}")

    def __call__(self, indices, values, sparse_shape, dense):
        return FS.sparse_tensor_dense_matmul(indices, values, sparse_shape, dense, self.adjoint_st, self.adjoint_dt)


__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]


class Coalesce(Primitive):
    """``Coalesce()(x_indices, x_values, x_shape)``: duplicates summed, coordinates in row-major order."""

    def __call__(self, x_indices, x_values, x_shape):
        return FS.coalesce(x_indices, x_values, x_shape)


class SparseTensorDenseAdd(Primitive):
    """``SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)``: a dense tensor plus a COO tensor."""

    def __call__(self, x1_indices, x1_values, x1_shape, x2):
        return FS.sparse_tensor_dense_add(x1_indices, x1_values, x1_shape, x2)


class SparseSlice(Primitive):
    """``SparseSlice()(indices, values, shape, start, size)``: the COO entries inside a box."""

    def __call__(self, indices, values, shape, start, size):
        return FS.sparse_slice(indices, values, shape, start, size)


__all__ += ["Coalesce", "SparseTensorDenseAdd", "SparseSlice"]
