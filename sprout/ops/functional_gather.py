"""Functional gather/scatter/index API over ``gather_ops.py``. MindSpore's "ref" spellings (``scatter_nd_add``,
``scatter_update``, ``index_add`` ...) update their input in place: a Parameter through Assign, a Tensor by
rebinding it (as ``x[i] = v`` does), and return it."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core import inplace
from ..core.dispatch import bind, current_builder
from ..core.tensor import Parameter, Tensor
from ..ir.builder import Tracer
from . import gather_ops as G
from .host_ops import is_symbolic
from . import functional as F
from .functional import _as_tensor

__all__ = ["gather_nd", "scatter_nd", "tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_sub",
           "tensor_scatter_mul", "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min", "tensor_scatter",
           "tensor_scatter_elements", "scatter", "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub",
           "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max", "scatter_nd_min", "scatter_update", "scatter_add",
           "scatter_sub", "scatter_mul", "scatter_div", "scatter_max", "scatter_min", "scatter_non_aliasing_add",
           "index_select", "masked_select", "masked_scatter", "index_add", "inplace_index_add", "index_fill",
           "inplace_update", "inplace_add", "inplace_sub", "take", "select_scatter", "slice_scatter",
           "diagonal_scatter", "unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min",
           "unsorted_segment_prod", "segment_sum", "segment_max", "segment_min", "segment_prod", "segment_mean",
           "gather_d", "sparse_segment_mean", "index_put"]


def _tracing() -> bool:
    return current_builder() is not None


def _indices(x, op: str) -> Tensor:
    t = x if isinstance(x, Tensor) else Tensor(np.asarray(x))
    if not t.dtype.is_int:
        raise TypeError(f"{op}: indices must be an int32 or int64 tensor, got {t.dtype}")
    return t


def _values_like(v, x: Tensor, op: str) -> Tensor:
    if not isinstance(v, Tensor):
        return Tensor(np.asarray(v), dtype=x.dtype)
    return v


def gather_nd(input_x, indices):
    """Slices of ``input_x`` at the index tuples of ``indices``' last axis."""
    return bind(G.GATHER_ND, (_as_tensor(input_x, "GatherNd"), _indices(indices, "GatherNd")), {})


def scatter_nd(indices, updates, shape):
    """A zero tensor of ``shape`` with ``updates`` added at ``indices`` (repeated indices accumulate)."""
    shape = tuple(int(s) for s in (shape.asnumpy().tolist() if isinstance(shape, Tensor) else shape))
    return bind(G.SCATTER_ND, (_indices(indices, "ScatterNd"), _as_tensor(updates, "ScatterNd")), {"shape": shape})


def tensor_scatter(input_x, indices, updates, mode="update"):
    """``input_x`` with ``updates`` combined in at ``indices`` by ``mode`` (update/add/sub/mul/div/max/min)."""
    x = _as_tensor(input_x, f"TensorScatter{mode.capitalize()}")
    u = _values_like(updates, x, f"TensorScatter{mode.capitalize()}")
    return bind(G.TENSOR_SCATTER, (x, _indices(indices, "TensorScatter"), u), {"mode": mode})


def _tensor_scatter_fn(mode):
    def fn(input_x, indices, updates):
        return tensor_scatter(input_x, indices, updates, mode)

    fn.__name__ = f"tensor_scatter_{mode}"
    fn.__doc__ = f"Out-of-place scatter-{mode} along the leading axes named by ``indices``' last axis."
    return fn


tensor_scatter_update = _tensor_scatter_fn("update")
tensor_scatter_add = _tensor_scatter_fn("add")
tensor_scatter_sub = _tensor_scatter_fn("sub")
tensor_scatter_mul = _tensor_scatter_fn("mul")
tensor_scatter_div = _tensor_scatter_fn("div")
tensor_scatter_max = _tensor_scatter_fn("max")
tensor_scatter_min = _tensor_scatter_fn("min")


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    x = _as_tensor(input_x, "TensorScatterElements")
    u = _values_like(updates, x, "TensorScatterElements")
    return bind(G.TENSOR_SCATTER_ELEMENTS, (x, _indices(indices, "TensorScatterElements"), u),
                {"axis": int(axis), "reduction": reduction})


def scatter(input, axis, index, src):  # noqa: A002
    """``input`` with ``src`` written at ``index`` along ``axis`` (tensor_scatter_elements)."""
    return tensor_scatter_elements(input, index, src, axis)


# ---- in-place ("ref") spellings ----------------------------------------------------------------------------------
def _write_back(x, out):
    """Make ``x`` hold ``out``: Assign for a Parameter and for any input while a graph is built (the graph
    then writes the caller's tensor back), a rebind for an eager Tensor."""
    if isinstance(x, Parameter) or _tracing():
        return F.assign(x, out)
    x._rebind(out)
    return x


def write_inplace(x, out, name: str):
    """An in-place Tensor method's write of its result ``out`` into ``x``; returns ``x``. A Parameter is assigned;
    while a graph is built the tensor's later reads (its views and base too) take ``out``, an argument written back
    as by Assign (their gradient is ``out``'s, not Assign's); an eager tensor's memory is written (its views and
    base see it, core/inplace.py)."""
    b = current_builder()
    if isinstance(x, Parameter) or b is not None and not isinstance(x, Tracer):
        # (an eager tensor a graph writes is state, written back after the run: PIJit's re-made stack values)
        return F.assign(x, out)
    if b is None:
        x._rebind(out, name)
        return x
    inplace.check_result(x, out, name)
    # a fresh array holding ``out`` (``x[...] = out``): ``out`` may be a constant or a read-only broadcast, which a
    # later Assign into ``x`` would write into (fuzz seed 331086: ``v.copy_(s)`` then ``ops.assign``)
    inplace.write_graph(b, x, F.tensor_setitem(b.target(x), Ellipsis, out), name)
    return x


def _ref_nd(mode):
    def fn(input_x, indices, updates, use_locking=False):
        return _write_back(input_x, tensor_scatter(input_x, indices, updates, mode))

    fn.__name__ = f"scatter_nd_{mode}"
    fn.__doc__ = f"In-place scatter-{mode} into ``input_x`` (a Parameter or Tensor); returns it."
    return fn


scatter_nd_update = _ref_nd("update")
scatter_nd_add = _ref_nd("add")
scatter_nd_sub = _ref_nd("sub")
scatter_nd_mul = _ref_nd("mul")
scatter_nd_div = _ref_nd("div")
scatter_nd_max = _ref_nd("max")
scatter_nd_min = _ref_nd("min")


def _ref_rows(mode):
    def fn(input_x, indices, updates, use_locking=False):
        """In-place scatter along axis 0: ``updates`` has shape indices.shape + input_x.shape[1:]."""
        idx = F.expand_dims(_indices(indices, f"Scatter{mode.capitalize()}"), -1)
        return _write_back(input_x, tensor_scatter(input_x, idx, updates, mode))

    fn.__name__ = f"scatter_{mode}"
    return fn


scatter_update = _ref_rows("update")
scatter_add = _ref_rows("add")
scatter_sub = _ref_rows("sub")
scatter_mul = _ref_rows("mul")
scatter_div = _ref_rows("div")
scatter_max = _ref_rows("max")
scatter_min = _ref_rows("min")


def scatter_non_aliasing_add(input_x, indices, updates):
    return scatter_nd_add(input_x, indices, updates)


# ---- index_* -----------------------------------------------------------------------------------------------------
def index_select(input, axis, index):  # noqa: A002
    """Entries of ``input`` along ``axis`` at the 1-D ``index``."""
    idx = _indices(index, "index_select")
    if idx.ndim != 1:
        raise ValueError(f"index_select: index must be 1-D, got shape {list(idx.shape)}")
    return F.gather(input, idx, axis)


def masked_select(input, mask):  # noqa: A002
    """The 1-D tensor of the elements where ``mask`` (broadcast with ``input``) is True."""
    x, m = _as_tensor(input, "masked_select"), _as_tensor(mask, "masked_select")
    if m.dtype is not mstype.bool_:
        raise TypeError(f"masked_select: mask must be a Bool tensor, got {m.dtype}")
    shape = np.broadcast_shapes(tuple(x.shape), tuple(m.shape))
    return F.broadcast_to(x, shape)[F.broadcast_to(m, shape)]


def masked_scatter(input, mask, source):  # noqa: A002
    """``input`` with the positions where ``mask`` is True filled, in order, from the leading elements of
    ``source``."""
    x, m = _as_tensor(input, "masked_scatter"), _as_tensor(mask, "masked_scatter")
    src = _as_tensor(source, "masked_scatter")
    if m.dtype is not mstype.bool_:
        raise TypeError(f"masked_scatter: mask must be a Bool tensor, got {m.dtype}")
    m = F.broadcast_to(m, x.shape)
    pos = F.sub(F.cumsum(F.cast(F.reshape(m, (-1,)), mstype.int32), 0), 1)
    taken = F.gather(F.reshape(src, (-1,)), F.maximum(pos, 0), 0)
    return F.where(m, F.reshape(taken, x.shape), x)


def _axis_scatter(x, index, values, axis, reduction):
    """Scatter whole slices along ``axis`` at the 1-D ``index`` (values: x's shape with axis resized)."""
    ax = axis % x.ndim
    shape = [1] * x.ndim
    shape[ax] = -1
    idx = F.broadcast_to(F.reshape(index, tuple(shape)), tuple(values.shape))
    return tensor_scatter_elements(x, idx, values, ax, reduction)


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """In place: x[..., indices[i], ...] += y[..., i, ...] along ``axis``; returns x."""
    t = _as_tensor(x, "IndexAdd")
    idx = _indices(indices, "IndexAdd")
    if check_index_bound:
        n = t.shape[axis]
        if idx.size and not is_symbolic(idx):
            v = idx.asnumpy()
            if v.min() < 0 or v.max() >= n:
                raise ValueError(f"IndexAdd: indices must be in [0, {n}) for axis {axis}")
    return _write_back(x, _axis_scatter(t, idx, _as_tensor(y, "IndexAdd"), axis, "add"))


def inplace_index_add(var, indices, updates, axis):
    return index_add(var, indices, updates, axis)


def index_fill(x, axis, index, value):
    """``x`` with every slice along ``axis`` at ``index`` set to ``value`` (a number or a 0-d tensor)."""
    t = _as_tensor(x, "index_fill")
    idx = _indices(index, "index_fill")
    ax = int(axis) % t.ndim
    hit = F.cast(F.reshape(F.one_hot(F.reshape(idx, (-1,)), t.shape[ax], 1, 0).sum(0), (-1,)), mstype.bool_)
    shape = [1] * t.ndim
    shape[ax] = -1
    v = value if isinstance(value, Tensor) else Tensor(np.asarray(value, t.dtype.np))
    return F.where(F.reshape(hit, tuple(shape)), F.cast(v, t.dtype), t)


def _rows(indices) -> Tensor:
    if isinstance(indices, int):
        indices = (indices,)
    idx = _indices(indices if isinstance(indices, Tensor) else np.asarray(indices, np.int32), "Inplace")
    return F.reshape(idx, (-1, 1))


def inplace_update(x, v, indices):
    """A copy of ``x`` with rows ``indices`` replaced by ``v`` (MindSpore returns a new tensor)."""
    return tensor_scatter(x, _rows(indices), v, "update")


def inplace_add(x, v, indices):
    return tensor_scatter(x, _rows(indices), v, "add")


def inplace_sub(x, v, indices):
    return tensor_scatter(x, _rows(indices), v, "sub")


def take(input, index):  # noqa: A002
    """Elements of the flattened ``input`` at ``index`` (the result has index's shape)."""
    return F.gather(F.reshape(_as_tensor(input, "take"), (-1,)), _indices(index, "take"), 0)


def _full_index(ndim, axis, item):
    idx = [slice(None)] * ndim
    idx[axis % ndim] = item
    return tuple(idx)


def select_scatter(input, src, axis, index):  # noqa: A002
    """``input`` with the slice at ``index`` of ``axis`` replaced by ``src``."""
    x = _as_tensor(input, "select_scatter")
    return F.tensor_setitem(x, _full_index(x.ndim, axis, int(index)), src)


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):  # noqa: A002
    x = _as_tensor(input, "slice_scatter")
    return F.tensor_setitem(x, _full_index(x.ndim, axis, slice(start, end, step)), src)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):  # noqa: A002
    """``input`` with the diagonal (``offset``, over ``dim1``/``dim2``) replaced by ``src``, whose last axis
    runs along the diagonal."""
    x = _as_tensor(input, "diagonal_scatter")
    d1, d2 = dim1 % x.ndim, dim2 % x.ndim
    n1, n2 = x.shape[d1], x.shape[d2]
    rows = np.arange(max(0, -offset), min(n1, n2 - offset))
    mask = np.zeros((n1, n2), bool)
    mask[rows, rows + offset] = True
    select = np.zeros((len(rows), n1 * n2), x.dtype.np)   # src element k -> its flat diagonal position
    select[np.arange(len(rows)), rows * n2 + rows + offset] = 1
    perm = [i for i in range(x.ndim) if i not in (d1, d2)] + [d1, d2]
    xt = F.transpose(x, tuple(perm))
    s = F.cast(_as_tensor(src, "diagonal_scatter"), x.dtype)
    placed = F.reshape(F.matmul(s, Tensor(select)), tuple(xt.shape))
    out = F.where(Tensor(mask), placed, xt)
    return F.transpose(out, tuple(int(i) for i in np.argsort(perm)))


# ---- segments ----------------------------------------------------------------------------------------------------
def _segment(mode):
    def fn(input_x, segment_ids, num_segments):
        n = int(num_segments.item()) if isinstance(num_segments, Tensor) else int(num_segments)
        return bind(G.UNSORTED_SEGMENT, (_as_tensor(input_x, "UnsortedSegment"),
                                         _indices(segment_ids, "UnsortedSegment")), {"num_segments": n, "mode": mode})

    fn.__name__ = f"unsorted_segment_{mode}"
    fn.__doc__ = (f"The {mode} of the rows of ``input_x`` sharing a segment id; ids outside [0, num_segments) "
                  "are dropped.")
    return fn


unsorted_segment_sum = _segment("sum")
unsorted_segment_max = _segment("max")
unsorted_segment_min = _segment("min")
unsorted_segment_prod = _segment("prod")


def _sorted_segment(mode):
    def fn(input_x, segment_ids):
        """Segment reduction over sorted ids: one output row per id up to the largest (empty segments are 0)."""
        return bind(G.SEGMENT, (_as_tensor(input_x, f"Segment{mode.capitalize()}"),
                                _indices(segment_ids, f"Segment{mode.capitalize()}")), {"mode": mode})

    fn.__name__ = f"segment_{mode}"
    return fn


segment_sum = _sorted_segment("sum")
segment_max = _sorted_segment("max")
segment_min = _sorted_segment("min")
segment_prod = _sorted_segment("prod")
segment_mean = _sorted_segment("mean")


def sparse_segment_mean(x, indices, segment_ids):
    """Mean of the rows x[indices] grouped by the sorted ``segment_ids``."""
    return segment_mean(F.gather(x, _indices(indices, "SparseSegmentMean"), 0), segment_ids)


def gather_d(x, dim, index):
    return F.gather_elements(x, dim, index)


def index_put(x, indices, values, accumulate=False):
    """``x`` with ``values`` written (or added, with ``accumulate``) at the positions of the index tensors."""
    t = _as_tensor(x, "IndexPut")
    idx = F.stack([F.cast(_indices(i, "IndexPut"), mstype.int64) for i in indices], -1)
    vals = F.broadcast_to(_as_tensor(values, "IndexPut"), tuple(idx.shape[:-1]) + tuple(t.shape[idx.shape[-1]:]))
    return tensor_scatter(t, idx, vals, "add" if accumulate else "update")
