"""The functional sparse API (``ops.coo_*``, ``ops.csr_*``, conversions, constructors and getters): every value
computation is a gather / scatter / segment-sum over the sparse tensor's values, so it is differentiable in the
values and runs in graphs. Results whose number of stored elements depends on the data (sparse + sparse, sparse @
sparse, dense -> sparse, thresholded sums) read the indices on the host, so they need concrete indices (eager)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .host_ops import is_symbolic
from .sparse_tensor import COOTensor, CSRTensor, RowTensor

__all__ = ["coo2csr", "csr2coo", "csr_to_coo", "csr_to_dense", "dense_to_sparse_coo", "dense_to_sparse_csr",
           "csr_mul", "csr_div", "csr_mv", "csr_mm", "csr_reduce_sum", "csr_softmax", "csr_gather", "csr_add",
           "coo_add", "coo_concat", "make_coo_tensor", "make_csr_tensor", "make_row_tensor", "make_row_tensor_inner",
           "make_sparse_tensor", "row_tensor_add"]


def _need(x, cls, op: str, what: str = "input argument"):
    if not isinstance(x, cls):
        raise TypeError(f"For functional operator {op}, {what} must be a {cls.__name__}, got {type(x).__name__}.")
    return x


def _host(t: Tensor, op: str) -> np.ndarray:
    """The concrete value of an index tensor, for results whose size depends on it."""
    if is_symbolic(t):
        raise RuntimeError(f"{op}: the number of stored elements of the result depends on the index values, which "
                           f"are not known while a graph is compiled; call it outside jit (MindSpore gives such "
                           f"results a dynamic shape, which sprout's graphs do not have)")
    return t.asnumpy()


# ---- conversions ---------------------------------------------------------------------------------------------
def csr2coo(indptr, nnz):
    """The row index of each of the ``nnz`` stored elements of a CSR tensor with row pointers ``indptr``."""
    indptr = F._as_tensor(indptr, "csr2coo")
    steps = F.arange(0, int(nnz), dtype=indptr.dtype)
    return F.searchsorted(indptr[1:], steps, right=True).astype(indptr.dtype)


def coo2csr(row_indices, height):
    """Row pointers (length height + 1) of sorted COO row indices."""
    rows = F._as_tensor(row_indices, "coo2csr")
    return F.searchsorted(rows, F.arange(0, int(height) + 1, dtype=rows.dtype)).astype(rows.dtype)


def _csr_coords(x: CSRTensor) -> Tensor:
    """(nnz, 2) row/column coordinates of a CSR tensor's stored elements."""
    rows = csr2coo(x.indptr, x.values.shape[0]).astype(x.indices.dtype)
    return F.stack((rows, x.indices), 1)


def csr_to_coo(tensor) -> COOTensor:
    _need(tensor, CSRTensor, "csr_to_coo")
    if tensor.ndim > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    return COOTensor(_csr_coords(tensor).astype(mstype.int32), tensor.values, tensor.shape)


def csr_to_dense(csr_tensor) -> Tensor:
    _need(csr_tensor, CSRTensor, "csr_to_dense")
    if csr_tensor.ndim > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    return _scatter_dense(_csr_coords(csr_tensor), csr_tensor.values, csr_tensor.shape)


def _scatter_dense(coords, values, shape) -> Tensor:
    return F.tensor_scatter_add(F.zeros(tuple(shape), values.dtype), coords, values)


def coo_to_dense(x: COOTensor) -> Tensor:
    return _scatter_dense(x.indices, x.values, x.shape)


def coo_to_csr(x: COOTensor) -> CSRTensor:
    """Rows sorted (stably: columns keep their order within a row), then row pointers from the sorted rows."""
    rows, cols = x.indices[:, 0], x.indices[:, 1]
    n = x.values.shape[0]
    key = F.add(F.mul(rows.astype(mstype.int64), n), F.arange(0, n, dtype=mstype.int64))
    order = F.argsort(key)
    rows = F.gather(rows, order, 0)
    return CSRTensor(coo2csr(rows, x.shape[0]), F.gather(cols, order, 0), F.gather(x.values, order, 0), x.shape)


def coo_coalesce(x: COOTensor) -> COOTensor:
    """Duplicate coordinates summed, coordinates in row-major order (Int64 indices, MindSpore's Coalesce)."""
    idx, values, _ = coalesce(F.transpose(x.indices.astype(mstype.int64), (1, 0)), x.values,
                              Tensor(np.asarray(x.shape, np.int64)))
    return COOTensor(F.transpose(idx, (1, 0)), values, x.shape)


def dense_to_sparse_coo(tensor) -> COOTensor:
    if not isinstance(tensor, Tensor):
        raise TypeError("For functional operator dense_to_sparse_coo, input argument must be a Tensor.")
    if tensor.ndim > 2:
        raise ValueError("Currently only support 2-D Tensor when converting to COOTensor.")
    coords = Tensor(np.argwhere(_host(tensor, "dense_to_sparse_coo")).astype(np.int32))
    return COOTensor(coords, F.gather_nd(tensor, coords), tuple(tensor.shape))


def dense_to_sparse_csr(tensor) -> CSRTensor:
    if not isinstance(tensor, Tensor):
        raise TypeError("For functional operator dense_to_sparse_csr, input argument must be a Tensor.")
    if tensor.ndim > 2:
        raise ValueError("Currently only support 2-D Tensor when converting to CSRTensor.")
    coords = np.argwhere(_host(tensor, "dense_to_sparse_csr")).astype(np.int32)
    indptr = np.searchsorted(coords[:, 0], np.arange(tensor.shape[0] + 1)).astype(np.int32)
    return CSRTensor(Tensor(indptr), Tensor(coords[:, 1].copy()), F.gather_nd(tensor, Tensor(coords)),
                     tuple(tensor.shape))


# ---- CSR arithmetic --------------------------------------------------------------------------------------------
def _promote(a: Tensor, b: Tensor):
    dt = mstype.promote(a.dtype, b.dtype)
    return (a if a.dtype is dt else F.cast(a, dt)), (b if b.dtype is dt else F.cast(b, dt))


def _scalar_like(y: Tensor) -> bool:
    return y.size == 1 and y.ndim <= 2


def _dense_at(x: CSRTensor, y: Tensor, op: str) -> Tensor:
    """``y`` broadcast to x's shape, read at x's stored positions."""
    try:
        np.broadcast_shapes(tuple(y.shape), x.shape)
    except ValueError:
        raise ValueError(f"{op}: the dense tensor of shape {tuple(y.shape)} cannot broadcast to the sparse "
                         f"tensor's shape {x.shape}") from None
    if y.ndim > x.ndim:
        raise ValueError("dense tensor cannot broadcast to the sparse tensor.")
    return F.gather_nd(F.broadcast_to(y, x.shape), _csr_coords(x))


def _csr_elementwise(x, y, op: str, fn):
    _need(x, CSRTensor, op)
    if isinstance(y, (int, float, bool)):
        y = Tensor(y)
    y = F._as_tensor(y, op)
    if _scalar_like(y):  # MindSpore gives the new values as a dense Tensor here
        if y.ndim > x.ndim:
            raise ValueError("dense tensor cannot broadcast to the sparse tensor.")
        return F.reshape(fn(x.values, y), tuple(x.values.shape))
    xv, yv = _promote(x.values, _dense_at(x, y, op))
    return CSRTensor(x.indptr, x.indices, fn(xv, yv), x.shape)


def csr_mul(x, y):
    """x * y for a CSRTensor x and a dense y broadcast to it (a CSRTensor; a scalar y gives the values)."""
    return _csr_elementwise(x, y, "csr_mul", F.mul)


def csr_div(x, y):
    """x / y at x's stored positions (zeros of y elsewhere are ignored)."""
    return _csr_elementwise(x, y, "csr_div", F.div)


def _row_ids(x: CSRTensor) -> Tensor:
    return csr2coo(x.indptr, x.values.shape[0]).astype(mstype.int32)


def csr_mm_dense(x: CSRTensor, dense) -> Tensor:
    """(M, N) CSR @ (N, K) dense -> (M, K) dense."""
    dense = F._as_tensor(dense, "CSRTensor.mm")
    if x.ndim != 2 or dense.ndim != 2 or dense.shape[0] != x.shape[1]:
        raise ValueError(f"CSRTensor.mm: needs a 2-D CSRTensor and a dense matrix with shape[0] == {x.shape[1]}, "
                         f"got {x.shape} and {tuple(dense.shape)}")
    values, dense = _promote(x.values, dense)
    terms = F.mul(F.gather(dense, x.indices, 0), F.reshape(values, (-1, 1)))
    return F.unsorted_segment_sum(terms, _row_ids(x), x.shape[0])


def csr_mv(csr_tensor, dense) -> Tensor:
    """(M, N) CSR @ (N, 1) dense vector -> (M, 1)."""
    _need(csr_tensor, CSRTensor, "csr_mv")
    dense = F._as_tensor(dense, "csr_mv")
    if dense.ndim != 2 or dense.shape[1] != 1 or dense.shape[0] != csr_tensor.shape[1]:
        raise ValueError(f"For 'CSRMV', the dense vector must have shape ({csr_tensor.shape[1]}, 1), got "
                         f"{tuple(dense.shape)}")
    return csr_mm_dense(csr_tensor, dense)


def csr_reduce_sum(csr_tensor, axis) -> Tensor:
    """Row sums (axis 1, or its negative spelling 1 - ndim) as an (M, 1) dense tensor; MindSpore reduces no other
    axis."""
    x = _need(csr_tensor, CSRTensor, "csr_reduce_sum")
    if isinstance(axis, bool) or not isinstance(axis, int) or axis not in (1, 1 - x.ndim):
        raise ValueError(f"For CSRReduceSum, `axis` should be 1 or 1-dim. But got `axis`: {axis}and `1- dim`: "
                         f"{1 - x.ndim}.")
    return F.expand_dims(F.unsorted_segment_sum(x.values, _row_ids(x), x.shape[0]), 1)


def csr_softmax(logits, dtype):
    """Softmax over each row's stored values (absent entries take no part)."""
    x = _need(logits, CSRTensor, "sparse_matrix_softmax", "logits")
    dt = mstype.to_dtype(dtype)
    if dt not in (mstype.float32, mstype.float64) or x.dtype is not dt:
        raise TypeError(f"For 'SparseMatrixSoftmax', dtype must be float32 or float64 and match the logits' dtype "
                        f"{x.dtype}, got {dt}")
    rows = _row_ids(x)
    m = x.shape[0]
    shifted = F.sub(x.values, F.gather(F.stop_gradient(F.unsorted_segment_max(x.values, rows, m)), rows, 0))
    e = F.exp(shifted)
    return x._with_values(F.div(e, F.gather(F.unsorted_segment_sum(e, rows, m), rows, 0)))


def csr_gather(indptr, indices, dense, dense_shape):
    """The values of ``dense`` at the positions a CSR structure (indptr, indices) names."""
    dense = F._as_tensor(dense, "CSRGather")
    if tuple(dense.shape) != tuple(dense_shape):
        raise ValueError(f"For 'CSRGather', dense has shape {tuple(dense.shape)}, but dense_shape is {dense_shape}")
    rows = csr2coo(indptr, indices.shape[0]).astype(indices.dtype)
    return F.gather_nd(dense, F.stack((rows, indices), 1))


def _pairs_sum(shape, parts, op):
    """Structural union of COO parts [(coords (n,2) numpy, values Tensor)]: sorted unique coordinates, the sum
    of the values landing on each (a segment sum, differentiable in every part's values) and how many landed."""
    coords = np.concatenate([c for c, _ in parts]).astype(np.int64)
    flat = coords[:, 0] * shape[1] + coords[:, 1]
    uniq, inverse, counts = np.unique(flat, return_inverse=True, return_counts=True)
    values = F.concat([v for _, v in parts])
    summed = F.unsorted_segment_sum(values, Tensor(inverse.astype(np.int32)), len(uniq))
    return np.stack([uniq // shape[1], uniq % shape[1]], 1), summed, counts


def csr_add(a, b, alpha, beta) -> CSRTensor:
    """alpha * a + beta * b over the union of both sparsity patterns."""
    if not isinstance(a, CSRTensor) or not isinstance(b, CSRTensor):
        raise TypeError("For functional operator csr_add, both inputs a and b must be type of CSRTensor.")
    if not isinstance(alpha, Tensor) or not isinstance(beta, Tensor):
        raise TypeError("For functional operator csr_add, both inputs alpha and beta must be Tensor.")
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"For 'SparseMatrixAdd', a and b must be 2-D with equal shapes, got {a.shape}, {b.shape}")
    av, bv = _promote(a.values, b.values)
    parts = [(_host(_csr_coords(a), "csr_add"), F.mul(av, F.cast(alpha, av.dtype))),
             (_host(_csr_coords(b), "csr_add"), F.mul(bv, F.cast(beta, av.dtype)))]
    coords, values, _ = _pairs_sum(a.shape, parts, "csr_add")
    dt = mstype.promote(a.indptr.dtype, b.indptr.dtype)
    indptr = np.searchsorted(coords[:, 0], np.arange(a.shape[0] + 1))
    return CSRTensor(Tensor(indptr.astype(dt.np)), Tensor(coords[:, 1].astype(dt.np)), values, a.shape)


def coo_add(x1, x2, thresh) -> COOTensor:
    """x1 + x2 over the union of their coordinates; where both hold a value, a sum whose magnitude is below
    ``thresh`` is dropped."""
    _need(x1, COOTensor, "coo_add", "x1")
    _need(x2, COOTensor, "coo_add", "x2")
    thresh = F._as_tensor(thresh, "coo_add")
    if thresh.ndim != 0:
        raise ValueError(f"For 'SparseAdd', thresh must be a 0-D tensor, got shape {tuple(thresh.shape)}")
    if x1.shape != x2.shape:
        raise ValueError(f"For 'SparseAdd', the two COOTensors must have equal shapes, got {x1.shape}, {x2.shape}")
    v1, v2 = _promote(x1.values, x2.values)
    parts = [(_host(x1.indices, "coo_add"), v1), (_host(x2.indices, "coo_add"), v2)]
    coords, values, counts = _pairs_sum(x1.shape, parts, "coo_add")
    # as MindSpore's (and TensorFlow's) SparseAdd: only a coordinate both inputs hold is a sum that can vanish
    keep = (counts < 2) | (np.abs(_host(values, "coo_add")) >= _host(thresh, "coo_add").astype(values.dtype.np))
    if not keep.all():
        values = F.gather(values, Tensor(np.flatnonzero(keep).astype(np.int32)), 0)
        coords = coords[keep]
    dt = mstype.promote(x1.indices.dtype, x2.indices.dtype)
    return COOTensor(Tensor(coords.astype(dt.np)), values, x1.shape)


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False) -> CSRTensor:
    """CSR @ CSR -> CSR: every stored product a[i, k] * b[k, j] summed per (i, j) (the pattern of the result is
    the structural product, read from the indices on the host)."""
    if not isinstance(a, CSRTensor) or not isinstance(b, CSRTensor):
        raise TypeError("For functional operator csr_mm, inputs a and b must be type of CSRTensor currently.")
    ca, cb = _host(_csr_coords(a), "csr_mm").astype(np.int64), _host(_csr_coords(b), "csr_mm").astype(np.int64)
    sa, sb = a.shape, b.shape
    if trans_a or adjoint_a:
        ca, sa = ca[:, ::-1], sa[::-1]
    if trans_b or adjoint_b:
        cb, sb = cb[:, ::-1], sb[::-1]
    if sa[1] != sb[0]:
        raise ValueError(f"For 'SparseMatrixSparseMatMul', the inner dimensions differ: {sa} @ {sb}")
    ia, ib = [], []
    by_row = {}
    for j, k in enumerate(cb[:, 0]):
        by_row.setdefault(int(k), []).append(j)
    for i, k in enumerate(ca[:, 1]):
        for j in by_row.get(int(k), ()):
            ia.append(i)
            ib.append(j)
    ia, ib = np.asarray(ia, np.int64), np.asarray(ib, np.int64)
    av, bv = _promote(a.values, b.values)
    terms = F.mul(F.gather(av, Tensor(ia.astype(np.int32)), 0), F.gather(bv, Tensor(ib.astype(np.int32)), 0))
    coords, values, _ = _pairs_sum((sa[0], sb[1]), [(np.stack([ca[ia, 0], cb[ib, 1]], 1).reshape(-1, 2), terms)],
                                "csr_mm")
    dt = a.indices.dtype
    indptr = np.searchsorted(coords[:, 0], np.arange(sa[0] + 1))
    return CSRTensor(Tensor(indptr.astype(dt.np)), Tensor(coords[:, 1].astype(dt.np)), values, (sa[0], sb[1]))


# ---- COO concat ------------------------------------------------------------------------------------------------
def coo_concat(sp_input, concat_dim=0) -> COOTensor:
    """COOTensors joined along ``concat_dim``: coordinates shifted by the sizes before them, inputs in order."""
    if not isinstance(sp_input, (list, tuple)) or len(sp_input) < 2:
        raise ValueError("For coo_concat, not support COOTensor input number < 2.")
    for t in sp_input:
        _need(t, COOTensor, "coo_concat", "every input")
    ndim = sp_input[0].ndim
    if isinstance(concat_dim, bool) or not isinstance(concat_dim, int) or not -ndim <= concat_dim < ndim:
        raise ValueError(f"For 'SparseConcat', concat_dim must be in [{-ndim}, {ndim}), got {concat_dim!r}")
    dim = concat_dim % ndim
    for t in sp_input[1:]:
        if any(t.shape[d] != sp_input[0].shape[d] for d in range(ndim) if d != dim):
            raise ValueError(f"For 'SparseConcat', shapes {sp_input[0].shape} and {t.shape} differ outside "
                             f"concat_dim {concat_dim}")
    dt = sp_input[0].indices.dtype
    idx, offset = [], 0
    for t in sp_input:
        shift = np.zeros((1, ndim), dt.np)
        shift[0, dim] = offset
        idx.append(F.add(t.indices.astype(dt), Tensor(shift)))
        offset += t.shape[dim]
    shape = tuple(offset if d == dim else sp_input[0].shape[d] for d in range(ndim))
    indices, values = F.concat(idx), F.concat(_promoted_all([t.values for t in sp_input]))
    # the result lists its coordinates in row-major order (ties keep the input order), as MindSpore's SparseConcat
    n = values.shape[0]
    flat = F.add(F.mul(indices[:, 0].astype(mstype.int64), shape[1]), indices[:, 1].astype(mstype.int64))
    order = F.argsort(F.add(F.mul(flat, n), F.arange(0, n, dtype=mstype.int64)))
    return COOTensor(F.gather(indices, order, 0), F.gather(values, order, 0), shape)


def _promoted_all(ts):
    dt = ts[0].dtype
    for t in ts[1:]:
        dt = mstype.promote(dt, t.dtype)
    return [t if t.dtype is dt else F.cast(t, dt) for t in ts]


# ---- constructors and getters ----------------------------------------------------------------------------------
def make_coo_tensor(indices, values, dense_shape) -> COOTensor:
    return COOTensor(indices, values, dense_shape)


def make_csr_tensor(indptr, indices, values, dense_shape) -> CSRTensor:
    return CSRTensor(indptr, indices, values, dense_shape)


def make_row_tensor(indices, values, dense_shape) -> RowTensor:
    return RowTensor(indices, values, dense_shape)


make_sparse_tensor, make_row_tensor_inner = make_coo_tensor, make_row_tensor


def _getter(cls, part: str, name: str):
    def get(tensor):
        return getattr(_need(tensor, cls, name), part)

    get.__name__ = get.__qualname__ = name
    get.__doc__ = f"The ``{part}`` of a {cls.__name__}."
    return get


for _prefix, _cls, _parts in (("coo", COOTensor, ("indices", "values", "dense_shape")),
                              ("csr", CSRTensor, ("indptr", "indices", "values", "dense_shape")),
                              ("row", RowTensor, ("indices", "values", "dense_shape"))):
    for _part in _parts:
        _attr = "shape" if _part == "dense_shape" and _cls is not RowTensor else _part
        globals()[f"{_prefix}_tensor_get_{_part}"] = _getter(_cls, _attr, f"{_prefix}_tensor_get_{_part}")
        __all__.append(f"{_prefix}_tensor_get_{_part}")


def row_tensor_add(x, y):
    """A RowTensor plus a dense tensor broadcast to its values (MindSpore's RowTensorAdd)."""
    x = _need(x, RowTensor, "row_tensor_add", "x")
    return RowTensor(x.indices, F.add(x.values, F._as_tensor(y, "row_tensor_add")), x.dense_shape)


# ---- elementwise maps over the stored values (coo_abs ... csr_tanh) --------------------------------------------
_UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1", "floor",
          "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu", "relu6", "round", "sigmoid", "sin",
          "sinh", "softsign", "sqrt", "square", "tan", "tanh")


def _unary(kind: str, name: str):
    cls = COOTensor if kind == "coo" else CSRTensor
    fn = getattr(F, name)

    def op(x):
        return _need(x, cls, f"{kind}_{name}", "x")._with_values(fn(x.values))

    op.__name__ = op.__qualname__ = f"{kind}_{name}"
    op.__doc__ = f"``{name}`` of a {cls.__name__}'s stored values (the sparsity pattern is kept)."
    return op


for _kind in ("coo", "csr"):
    for _name in _UNARY:
        globals()[f"{_kind}_{_name}"] = _unary(_kind, _name)
        __all__.append(f"{_kind}_{_name}")


# ---- the COO primitives (ops.SparseToDense, ops.SparseTensorDenseMatmul) ----------------------------------------
def _coo_parts(indices, values, shape, op: str):
    indices, values = F._as_tensor(indices, op), F._as_tensor(values, op)
    if not indices.dtype.is_int or indices.ndim != 2:
        raise TypeError(f"For '{op}', 'indices' must be a 2-D int32 or int64 tensor, got {indices.dtype}"
                        f"{list(indices.shape)}")
    if values.ndim != 1 or values.shape[0] != indices.shape[0]:
        raise ValueError(f"For '{op}', 'values' must be 1-D with one value per row of 'indices' "
                         f"({indices.shape[0]}), got shape {list(values.shape)}")
    shape = tuple(shape.asnumpy().tolist()) if isinstance(shape, Tensor) else tuple(shape)
    if indices.shape[1] != len(shape):
        raise ValueError(f"For '{op}', 'indices' has {indices.shape[1]} columns, but the sparse shape {shape} has "
                         f"rank {len(shape)}")
    return indices, values, shape


def sparse_to_dense(indices, values, sparse_shape) -> Tensor:
    """The dense tensor of shape ``sparse_shape`` with ``values`` at ``indices`` (zeros elsewhere)."""
    indices, values, shape = _coo_parts(indices, values, sparse_shape, "SparseToDense")
    return _scatter_dense(indices, values, shape)


def sparse_tensor_dense_matmul(indices, values, sparse_shape, dense, adjoint_st=False, adjoint_dt=False) -> Tensor:
    """op(A) @ op(B) for a 2-D COO matrix A (indices, values, sparse_shape) and a dense B, op = transpose when the
    adjoint flag is set: each stored a[i, k] adds a[i, k] * B[k, :] to row i."""
    indices, values, shape = _coo_parts(indices, values, sparse_shape, "SparseTensorDenseMatmul")
    dense = F._as_tensor(dense, "SparseTensorDenseMatmul")
    if len(shape) != 2 or dense.ndim != 2:
        raise ValueError(f"For 'SparseTensorDenseMatmul', the sparse shape and the dense tensor must be 2-D, got "
                         f"{shape} and {list(dense.shape)}")
    if values.dtype != dense.dtype:
        raise TypeError(f"For 'SparseTensorDenseMatmul', 'values' ({values.dtype}) and 'dense' ({dense.dtype}) must "
                        f"have the same dtype")
    rows, cols = indices[:, 0], indices[:, 1]
    if adjoint_st:
        rows, cols, shape = cols, rows, shape[::-1]
    if adjoint_dt:
        dense = F.transpose(dense, (1, 0))
    if dense.shape[0] != shape[1]:
        raise ValueError(f"For 'SparseTensorDenseMatmul', the inner dimensions differ: sparse {shape} @ dense "
                         f"{list(dense.shape)}")
    terms = F.mul(F.gather(dense, cols.astype(mstype.int32), 0), F.reshape(values, (-1, 1)))
    return F.unsorted_segment_sum(terms, rows.astype(mstype.int32), shape[0])


__all__ += ["sparse_to_dense", "sparse_tensor_dense_matmul"]


# ---- index-tensor forms: coalesce, SparseTensorDenseAdd, SparseSlice ---------------------------------------------
def _shape_of(shape, op: str) -> tuple:
    if not isinstance(shape, Tensor) or shape.ndim != 1 or not shape.dtype.is_int:
        raise TypeError(f"For '{op}', the shape must be a 1-D integer Tensor, got {type(shape).__name__}")
    return tuple(int(d) for d in _host(shape, op))


def coalesce(x_indices, x_values, x_shape):
    """Sum the values of duplicate coordinates; ``x_indices`` is (ndim, N) (one column per value). Returns
    (y_indices (ndim, M) in row-major order, y_values (M,), y_shape)."""
    idx, values = F._as_tensor(x_indices, "Coalesce"), F._as_tensor(x_values, "Coalesce")
    shape = _shape_of(x_shape, "Coalesce")
    if idx.ndim != 2 or values.ndim != 1 or idx.shape[1] != values.shape[0] or idx.shape[0] != len(shape):
        raise ValueError(f"For 'Coalesce', x_indices must be (ndim, N) = ({len(shape)}, {values.shape[0]}) for "
                         f"x_values of shape {list(values.shape)}, got {list(idx.shape)}")
    coords = _host(idx, "Coalesce").astype(np.int64)
    if coords.size and (coords.min() < 0 or np.any(coords.max(1) >= np.asarray(shape))):
        raise ValueError(f"For 'Coalesce', x_indices must lie inside x_shape {shape}")
    flat = np.ravel_multi_index(tuple(coords), shape) if coords.size else np.zeros(0, np.int64)
    uniq, inverse = np.unique(flat, return_inverse=True)
    summed = F.unsorted_segment_sum(values, Tensor(inverse.astype(np.int32).reshape(-1)), len(uniq))
    out = np.stack(np.unravel_index(uniq, shape)).astype(idx.dtype.np).reshape(len(shape), len(uniq))
    return Tensor(out), summed, x_shape


def sparse_tensor_dense_add(x1_indices, x1_values, x1_shape, x2):
    """The dense ``x2`` plus the COO tensor (x1_indices (N, R), x1_values, x1_shape)."""
    op = "SparseTensorDenseAdd"
    idx, values, x2 = F._as_tensor(x1_indices, op), F._as_tensor(x1_values, op), F._as_tensor(x2, op)
    if not isinstance(x1_shape, Tensor) or x1_shape.dtype != idx.dtype:
        raise TypeError(f"The primitive[{op}]'s input arguments[indices, shape] must be all tensor and those type "
                        f"must be same. But got input argument[shape]:{type(x1_shape).__name__}")
    if idx.ndim != 2 or values.ndim != 1 or idx.shape[0] != values.shape[0] or idx.shape[1] != x2.ndim:
        raise ValueError(f"For '{op}', x1_indices must be (N, {x2.ndim}) with one x1_value per row, got "
                         f"{list(idx.shape)} and {list(values.shape)}")
    if tuple(x1_shape.shape) != (x2.ndim,):
        raise ValueError(f"For '{op}', x1_shape must hold {x2.ndim} dims, got shape {list(x1_shape.shape)}")
    if values.dtype != x2.dtype:
        raise TypeError(f"For '{op}', x1_values ({values.dtype}) and x2 ({x2.dtype}) must have the same dtype")
    return F.tensor_scatter_add(x2, idx, values)


def sparse_slice(indices, values, shape, start, size):
    """The part of a COO tensor inside the box [start, start + size) (clamped to the shape): (indices relative to
    start, values, the box's shape)."""
    op = "SparseSlice"
    indices, values = F._as_tensor(indices, op), F._as_tensor(values, op)
    dims, lo, n = _shape_of(shape, op), np.asarray(_shape_of(start, op)), np.asarray(_shape_of(size, op))
    if indices.ndim != 2 or indices.shape[1] != len(dims) or values.ndim != 1 or values.shape[0] != indices.shape[0]:
        raise ValueError(f"For '{op}', indices must be (N, {len(dims)}) with one value per row, got "
                         f"{list(indices.shape)} and {list(values.shape)}")
    if len(lo) != len(dims) or len(n) != len(dims) or np.any(lo < 0) or np.any(n < 0):
        raise ValueError(f"For '{op}', start and size must be {len(dims)} non-negative numbers, got {lo}, {n}")
    hi = np.minimum(lo + n, np.asarray(dims))
    coords = _host(indices, op)
    keep = np.flatnonzero(np.all((coords >= lo) & (coords < hi), axis=1))
    out_shape = np.maximum(hi - lo, 0).astype(np.int64)
    return (Tensor((coords[keep] - lo).astype(coords.dtype)), F.gather(values, Tensor(keep.astype(np.int32)), 0),
            Tensor(out_shape))


__all__ += ["coalesce", "sparse_tensor_dense_add", "sparse_slice"]
