"""Sparse cells: ``nn.SparseToDense`` (a COOTensor to its dense tensor) and ``nn.SparseTensorDenseMatmul``."""
from __future__ import annotations

from ...ops import functional_sparse as FS
from ...ops.sparse_tensor import COOTensor
from ..cell import Cell


class SparseToDense(Cell):
    """``SparseToDense()(coo_tensor)``: the dense tensor a COOTensor describes."""

    def construct(self, sparse_tensor):
        if not isinstance(sparse_tensor, COOTensor):
            raise TypeError(f"For 'SparseToDense', the input must be a COOTensor, got {type(sparse_tensor).__name__}")
        return FS.sparse_to_dense(sparse_tensor.indices, sparse_tensor.values, sparse_tensor.shape)


class SparseTensorDenseMatmul(Cell):
    """``SparseTensorDenseMatmul(adjoint_st, adjoint_dt)(indices, values, sparse_shape, dense)``: op(A) @ op(B) for a
    2-D COO matrix A and a dense matrix B."""

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        for k, v in (("adjoint_st", adjoint_st), ("adjoint_dt", adjoint_dt)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'SparseTensorDenseMatmul', '{k}' must be a bool, got {v!r}")
        self.adjoint_st, self.adjoint_dt = adjoint_st, adjoint_dt

    def construct(self, indices, values, sparse_shape, dense):
        return FS.sparse_tensor_dense_matmul(indices, values, sparse_shape, dense, self.adjoint_st, self.adjoint_dt)
