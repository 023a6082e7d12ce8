"""Sparse tensors: ``COOTensor`` (2-D coordinates + values), ``CSRTensor`` (row pointers, column indices, values),
``RowTensor`` (a slice per listed row) and the deprecated ``SparseTensor``. Each holds its parts as ordinary
Tensors (the index parts behind stop_gradient), so their math runs through sprout's ops (eager, on tapes and in
graphs) and gradients reach the values; each is a pytree node, so it crosses a jit boundary as its tensors plus
its shape."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.pytree import register_node
from ..core.tensor import Tensor
from . import functional as F

_INDEX_DTYPES = (mstype.int16, mstype.int32, mstype.int64)


def _shape_tuple(shape, who: str) -> tuple:
    if not isinstance(shape, tuple):
        raise TypeError(f"For SparseTensors, 'shape' must be tuple, but got {type(shape)}.")
    return shape


def _check_dims(shape, who: str) -> None:
    name = "'shape'" if who == "COOTensor" else "shape"
    for d in shape:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"For {who}, the element type of {name} must be int, but got {type(d)}")
        if d <= 0:
            where = f" in {shape}." if who == "COOTensor" else ""
            raise ValueError(f"For {who}, the element of {name} must be positive, but got {d}{where}")


def _tensor(x, what: str, who: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For {'CSRTensor' if what == 'indptr' else 'SparseTensors'}, '{what}' must be Tensor, but "
                        f"got {type(x)}.")
    return x


class _Sparse:
    """What the sparse formats share: the values' dtype and sizes, unary maps over the values."""

    __slots__ = ()

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def size(self) -> int:
        return int(np.prod(self._values.shape, dtype=np.int64))

    @property
    def itemsize(self) -> int:
        return self._values.itemsize

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def shape(self) -> tuple:
        return self._shape

    def abs(self):
        return self._with_values(F.abs(self._values))

    def astype(self, dtype):
        return self._with_values(F.cast(self._values, mstype.to_dtype(dtype)))

    def __neg__(self):
        return self._with_values(F.neg(self._values))


class COOTensor(_Sparse):
    """A 2-D sparse tensor in coordinate format: ``dense[indices[i]] = values[i]`` (duplicates add up)."""

    __slots__ = ("_indices", "_values", "_shape", "init_finished")

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise TypeError(f"Expect input `coo_tensor` to be a COOTensor, but got {type(coo_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `coo_tensor` is provided, `indices`, `values`, `shapes` should all be "
                                "`None`")
            indices, values, shape = coo_tensor._indices, coo_tensor._values, coo_tensor._shape
        else:
            who = "COOTensor"
            indices, values = _tensor(indices, "indices", who), _tensor(values, "values", who)
            shape = _shape_tuple(shape, who)
            _check_coo(tuple(indices.shape), tuple(values.shape), shape)
            if indices.dtype not in _INDEX_DTYPES:
                raise TypeError(f"For COOTensor, the type of 'indices' must be one of [int16, int32, int64], but "
                                f"got {indices.dtype}.")
            indices = F.stop_gradient(indices)
        self._indices, self._values, self._shape = indices, values, tuple(int(d) for d in shape)
        self.init_finished = True

    def _with_values(self, values) -> COOTensor:
        return COOTensor(self._indices, values, self._shape)

    def __repr__(self) -> str:
        return f"COOTensor(shape={list(self._shape)}, dtype={self.dtype}, indices={self._indices!r}, " \
               f"values={self._values!r})"

    def to_tuple(self):
        return self._indices, self._values, self._shape

    def to_dense(self) -> Tensor:
        from .functional_sparse import coo_to_dense

        return coo_to_dense(self)

    def to_csr(self) -> CSRTensor:
        from .functional_sparse import coo_to_csr

        return coo_to_csr(self)

    def coalesce(self) -> COOTensor:
        from .functional_sparse import coo_coalesce

        return coo_coalesce(self)

    def add(self, other, thresh) -> COOTensor:
        from .functional_sparse import coo_add

        return coo_add(self, other, thresh)

    def _same_shape(self, other):
        if tuple(getattr(other, "shape", ())) != self._shape:
            raise ValueError("Input tensors should have the same shape.")

    def __add__(self, other):
        from .functional_sparse import coo_add

        self._same_shape(other)
        if isinstance(other, COOTensor):
            return coo_add(self, other, Tensor(np.zeros((), self.dtype.np)))
        if isinstance(other, Tensor):
            return F.tensor_scatter_add(other, self._indices, self._values)
        raise TypeError(f"COOTensor add with {type(other)} is not supported.")

    def __sub__(self, other):
        from .functional_sparse import coo_add

        self._same_shape(other)
        if isinstance(other, COOTensor):
            return coo_add(self, -other, Tensor(np.zeros((), self.dtype.np)))
        if isinstance(other, Tensor):
            return F.tensor_scatter_add(F.neg(other), self._indices, self._values)
        raise TypeError(f"COOTensor subtract with {type(other)} is not supported.")

    def __mul__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            return self._with_values(F.mul(self._values, F.gather_nd(other, self._indices)))
        raise TypeError(f"COOTensor multiply with {type(other)} is not supported.")

    def __truediv__(self, other):
        self._same_shape(other)
        if isinstance(other, Tensor):
            return self._with_values(F.div(self._values, F.gather_nd(other, self._indices)))
        raise TypeError(f"COOTensor divide with {type(other)} is not supported.")


def _check_coo(ishape: tuple, vshape: tuple, shape: tuple) -> None:
    if len(shape) != 2:
        raise ValueError(f"For COOTensor, the length of 'shape' must be 2, but got {shape}.")
    if ishape == (0,) and vshape == (0,):
        return
    _check_dims(shape, "COOTensor")
    if int(np.prod(shape)) < vshape[0]:
        raise ValueError(f"For COOTensor, shape is too small: ({int(np.prod(shape))}) to hold all values"
                         f"({vshape[0]}).")
    if len(ishape) != 2:
        raise ValueError(f"For COOTensor, 'indices' must be a 2-dimensional tensor, but got a {len(ishape)}"
                         f"-dimensional tensor.")
    if len(vshape) != 1:
        raise ValueError(f"For COOTensor, 'values' must be a 1-dimensional tensor, but got a {len(vshape)}"
                         f"-dimensional tensor.")
    if ishape[0] != vshape[0]:
        raise ValueError(f"For COOTensor, 'indices.shape[0]' must be equal to 'values.shape[0]', but got "
                         f"'indices.shape[0]' = {ishape[0]} and 'values.shape[0]' = {vshape[0]}.")
    if ishape[1] != 2:
        raise ValueError(f"For COOTensor, 'indices.shape[1]' must be 2, but got {ishape[1]}.")


class CSRTensor(_Sparse):
    """A sparse tensor in compressed-row format: row r holds ``values[indptr[r]:indptr[r+1]]`` at the columns
    ``indices[indptr[r]:indptr[r+1]]``; values may carry trailing dense dimensions (shape[2:])."""

    __slots__ = ("_indptr", "_indices", "_values", "_shape", "init_finished")

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise TypeError(f"Expect input `csr_tensor` to be a CSRTensor, but got {type(csr_tensor)}")
            if not (indptr is None and indices is None and values is None and shape is None):
                raise TypeError("If input `csr_tensor` is provided, `indptr`, `indices`, `values`, `shapes` should "
                                "all be `None`")
            indptr, indices, values, shape = (csr_tensor._indptr, csr_tensor._indices, csr_tensor._values,
                                              csr_tensor._shape)
        else:
            who = "CSRTensor"
            indptr = _tensor(indptr, "indptr", who)
            indices, values = _tensor(indices, "indices", who), _tensor(values, "values", who)
            shape = _shape_tuple(shape, who)
            _check_csr(tuple(indptr.shape), tuple(indices.shape), tuple(values.shape), shape)
            for what, t in (("indptr", indptr), ("indices", indices)):
                if t.dtype not in _INDEX_DTYPES:
                    raise TypeError(f"For CSRTensor, {what} must have int16 or int32 or int64 data type, but got "
                                    f"{t.dtype}.")
            indptr, indices = F.stop_gradient(indptr), F.stop_gradient(indices)
        self._indptr, self._indices, self._values = indptr, indices, values
        self._shape = tuple(int(d) for d in shape)
        self.init_finished = True

    @property
    def indptr(self) -> Tensor:
        return self._indptr

    def _with_values(self, values) -> CSRTensor:
        return CSRTensor(self._indptr, self._indices, values, self._shape)

    def __repr__(self) -> str:
        return f"CSRTensor(shape={list(self._shape)}, dtype={self.dtype}, indptr={self._indptr!r}, " \
               f"indices={self._indices!r}, values={self._values!r})"

    def to_tuple(self):
        return self._indptr, self._indices, self._values, self._shape

    def to_dense(self) -> Tensor:
        from .functional_sparse import csr_to_dense

        return csr_to_dense(self)

    def to_coo(self) -> COOTensor:
        from .functional_sparse import csr_to_coo

        if self.ndim != 2:
            raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
        return csr_to_coo(self)

    def mv(self, dense_vector) -> Tensor:
        from .functional_sparse import csr_mv

        if not isinstance(dense_vector, Tensor):
            raise TypeError(f"For 'CSRTensor.mv', the type of 'dense_vector' should be Tensor, but got "
                            f"{type(dense_vector).__name__}.")
        return csr_mv(self, dense_vector)

    def mm(self, matrix):
        from .functional_sparse import csr_mm, csr_mm_dense

        if isinstance(matrix, CSRTensor):
            return csr_mm(self, matrix)
        if not isinstance(matrix, Tensor):
            raise TypeError(f"For 'CSRTensor.mm', the type of 'matrix' should be Tensor, but got "
                            f"{type(matrix).__name__}.")
        return csr_mm_dense(self, matrix)

    def sum(self, axis) -> Tensor:
        from .functional_sparse import csr_reduce_sum

        return csr_reduce_sum(self, axis)

    def add(self, b, alpha, beta) -> CSRTensor:
        from .functional_sparse import csr_add

        return csr_add(self, b, alpha, beta)

    def _same_shape(self, other):
        if tuple(getattr(other, "shape", ())) != self._shape:
            raise ValueError("Input tensors should have the same shape.")

    def __add__(self, other):
        from .functional_sparse import csr_add

        self._same_shape(other)
        if isinstance(other, CSRTensor):
            one = Tensor(np.ones((), self.dtype.np))
            return csr_add(self, other, one, one)
        raise TypeError(f"CSRTensor add with {type(other)} is not supported.")

    def __sub__(self, other):
        from .functional_sparse import csr_add

        self._same_shape(other)
        if isinstance(other, CSRTensor):
            return csr_add(self, other, Tensor(np.ones((), self.dtype.np)), Tensor(-np.ones((), self.dtype.np)))
        raise TypeError(f"CSRTensor subtract with {type(other)} is not supported.")

    def __mul__(self, other):
        from .functional_sparse import csr_mul

        return csr_mul(self, other)

    def __truediv__(self, other):
        from .functional_sparse import csr_div

        return csr_div(self, other)


def _check_csr(pshape: tuple, ishape: tuple, vshape: tuple, shape: tuple) -> None:
    if pshape == (0,) and ishape == (0,) and vshape == (0,):
        return
    _check_dims(shape, "CSRTensor")
    for d in vshape:
        if d <= 0:
            raise ValueError(f"The element of shape must be positive, but got {d}")
    if int(np.prod(shape)) < int(np.prod(vshape)):
        raise ValueError(f"Shape total size: {int(np.prod(shape))} is too small to hold {int(np.prod(vshape))} "
                         f"non-zero values.")
    if len(ishape) != 1:
        raise ValueError(f"For CSRTensor, indices must be a 1-dimensional tensor, but got a {len(ishape)} dimension "
                         f"tensor.")
    if len(pshape) != 1:
        raise ValueError(f"For CSRTensor, indptr must be a 1-dimensional tensor, but got a {len(pshape)} dimension "
                         f"tensor.")
    if shape[0] + 1 != pshape[0]:
        raise ValueError(f"For CSRTensor, indptr must have length (1 + shape[0]), but got: {pshape[0]}")
    if ishape[0] != vshape[0]:
        raise ValueError(f"For CSRTensor, indices and values must equal in their shape, but got indices shape: "
                         f"{ishape[0]}, values shape: {vshape[0]}.")
    if len(vshape) + 1 != len(shape):
        raise ValueError(f"Values' dimension should equal to CSRTensor's dimension - 1, but gotValues' dimension: "
                         f"{len(vshape)} , CSRTensor's dimension: {len(shape)}")
    if vshape[1:] != shape[2:]:
        raise ValueError(f"CSRTensor's shape[2: ] must be equal to value's shape[1: ],but CSRTensor's shape[2: ] "
                         f"got: {shape[2:]} and value's shape[1: ]got: {vshape[1:]}")


class RowTensor:
    """Slices of a dense tensor at listed rows: ``dense[indices[i]] = values[i]`` (deprecated in MindSpore)."""

    __slots__ = ("_indices", "_values", "_shape", "init_finished")

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensor):
                raise TypeError(f"Expect input `row_tensor` to be a RowTensor, but got {type(row_tensor)}")
            if not (indices is None and values is None and shape is None):
                raise TypeError("If input `row_tensor` is provided, `indices`, `values`, `shapes` should all be "
                                "`None`")
            indices, values, shape = row_tensor._indices, row_tensor._values, row_tensor._shape
        else:
            indices, values = _tensor(indices, "indices", "RowTensor"), _tensor(values, "values", "RowTensor")
            shape = _shape_tuple(shape, "RowTensor")
            if indices.ndim != 1 or not indices.dtype.is_int:
                raise TypeError(f"For RowTensor, 'indices' must be a 1-D integer Tensor, got {indices.dtype}"
                                f"{list(indices.shape)}")
            if values.ndim != len(shape) or tuple(values.shape[1:]) != tuple(shape[1:]) \
                    or values.shape[0] != indices.shape[0]:
                raise ValueError(f"For RowTensor, 'values' of shape {list(values.shape)} does not hold one slice of "
                                 f"the dense shape {shape} per index ({indices.shape[0]})")
        self._indices, self._values, self._shape = indices, values, tuple(int(d) for d in shape)
        self.init_finished = True

    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> tuple:
        return self._shape

    def __repr__(self) -> str:
        return f"RowTensor(shape={list(self._shape)}, dtype={self._values.dtype}, indices={self._indices!r}, " \
               f"values={self._values!r})"


class SparseTensor(COOTensor):
    """The deprecated spelling of COOTensor (MindSpore 1.x): positional (indices, values, shape) only."""

    __slots__ = ()

    def __init__(self, indices, values, shape):
        if not (isinstance(indices, Tensor) and isinstance(values, Tensor) and isinstance(shape, tuple)):
            raise TypeError("Inputs must follow: COOTensor(indices, values, shape).")
        super().__init__(indices, values, shape)


def _builder(cls, fields):
    def build(shape, children):
        out = object.__new__(cls)
        for f, c in zip(fields, children):
            setattr(out, f, c)
        out._shape, out.init_finished = shape, True
        return out

    return build


for _cls, _fields in ((COOTensor, ("_indices", "_values")), (SparseTensor, ("_indices", "_values")),
                      (RowTensor, ("_indices", "_values")), (CSRTensor, ("_indptr", "_indices", "_values"))):
    register_node(_cls, _fields, "_shape", _builder(_cls, _fields))
