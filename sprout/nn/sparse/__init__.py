"""``mindspore.nn.sparse``: the sparse cells (``nn.SparseToDense``, ``nn.SparseTensorDenseMatmul``)."""
from . import sparse  # noqa: F401
from .sparse import SparseTensorDenseMatmul, SparseToDense  # noqa: F401

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]
