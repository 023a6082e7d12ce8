"""PascalCase primitive classes for gather/scatter/segment functions (``functional_gather.py``).
``use_locking`` / ``use_lock`` are accepted: sprout's updates are never concurrent, so locking changes nothing."""
from __future__ import annotations

from . import functional as F
from .classes_linalg import _Flag
from .primitive_classes import _simple


def _embedding_lookup(params, indices, offset):
    """Rows ``indices - offset`` of ``params``; rows outside the table come back as zeros."""
    idx = F.sub(indices, offset)
    n = params.shape[0]
    valid = F.logical_and(F.greater_equal(idx, 0), F.less(idx, n))
    rows = F.gather(params, F.where(valid, idx, F.zeros_like(idx)), 0)
    mask = F.cast(valid, params.dtype)
    for _ in range(params.ndim - 1):
        mask = F.expand_dims(mask, -1)
    return F.mul(rows, mask)


_STATELESS = {
    "GatherNd": F.gather_nd, "ScatterNd": F.scatter_nd, "TensorScatterUpdate": F.tensor_scatter_update,
    "TensorScatterAdd": F.tensor_scatter_add, "TensorScatterSub": F.tensor_scatter_sub,
    "TensorScatterMul": F.tensor_scatter_mul, "TensorScatterDiv": F.tensor_scatter_div,
    "TensorScatterMax": F.tensor_scatter_max, "TensorScatterMin": F.tensor_scatter_min,
    "ScatterNonAliasingAdd": F.scatter_non_aliasing_add, "UnsortedSegmentSum": F.unsorted_segment_sum,
    "UnsortedSegmentMax": F.unsorted_segment_max, "UnsortedSegmentMin": F.unsorted_segment_min,
    "UnsortedSegmentProd": F.unsorted_segment_prod, "SegmentSum": F.segment_sum, "SegmentMax": F.segment_max,
    "SegmentMin": F.segment_min, "SegmentProd": F.segment_prod, "SegmentMean": F.segment_mean,
    "IndexFill": F.index_fill, "MaskedSelect": F.masked_select, "MaskedScatter": F.masked_scatter,
    "MaskedFill": F.masked_fill, "InplaceUpdateV2": lambda x, indices, v: F.inplace_update(x, v, indices),
    "GatherV2": F.gather, "SparseGatherV2": F.gather, "EmbeddingLookup": _embedding_lookup,
    "SparseSegmentMean": F.sparse_segment_mean,
}
for _name, _fn in _STATELESS.items():
    globals()[_name] = _simple(_name, _fn)


def _locked(name, fn):
    class Cls(_Flag):
        defaults = {"use_locking": True}

        def __call__(self, input_x, indices, updates):
            return fn(input_x, indices, updates)

    Cls.__name__ = Cls.__qualname__ = name
    Cls.__doc__ = f"``{name}(use_locking=True)(input_x, indices, updates)``: updates ``input_x`` in place."
    return Cls


_LOCKED = {"ScatterNdUpdate": F.scatter_nd_update, "ScatterNdAdd": F.scatter_nd_add, "ScatterNdSub": F.scatter_nd_sub,
           "ScatterNdMul": F.scatter_nd_mul, "ScatterNdDiv": F.scatter_nd_div, "ScatterNdMax": F.scatter_nd_max,
           "ScatterNdMin": F.scatter_nd_min, "ScatterUpdate": F.scatter_update, "ScatterAdd": F.scatter_add,
           "ScatterSub": F.scatter_sub, "ScatterMul": F.scatter_mul, "ScatterDiv": F.scatter_div,
           "ScatterMax": F.scatter_max, "ScatterMin": F.scatter_min}
for _name, _fn in _LOCKED.items():
    globals()[_name] = _locked(_name, _fn)


class TensorScatterElements(_Flag):
    defaults = {"axis": 0, "reduction": "none"}

    def __call__(self, data, indices, updates):
        return F.tensor_scatter_elements(data, indices, updates, self.axis, self.reduction)


class ScatterAddWithAxis(_Flag):
    """In place: ``input_x`` += ``updates`` scattered along ``axis`` at ``indices`` (elementwise indices)."""

    defaults = {"axis": 0}

    def __call__(self, input_x, indices, updates):
        from .functional_gather import _write_back

        return _write_back(input_x, F.tensor_scatter_elements(input_x, indices, updates, self.axis, "add"))


class _Rows(_Flag):
    defaults = {"indices": ()}
    fn = None

    def __call__(self, x, v):
        return type(self).fn(x, v, self.indices)


class InplaceUpdate(_Rows):
    fn = staticmethod(F.inplace_update)


class InplaceAdd(_Rows):
    fn = staticmethod(F.inplace_add)


class InplaceSub(_Rows):
    fn = staticmethod(F.inplace_sub)


class InplaceIndexAdd(_Flag):
    defaults = {"axis": 0}

    def __call__(self, var, indices, updates):
        return F.inplace_index_add(var, indices, updates, self.axis)


class IndexAdd(_Flag):
    defaults = {"axis": 0, "use_lock": True, "check_index_bound": True}

    def __call__(self, input_x, indices, input_y):
        return F.index_add(input_x, indices, input_y, self.axis, self.use_lock, self.check_index_bound)


class IndexPut(_Flag):
    defaults = {"accumulate": 0}

    def __call__(self, x1, x2, indices):
        return F.index_put(x1, indices, x2, bool(self.accumulate))


__all__ = (list(_STATELESS) + list(_LOCKED) + ["TensorScatterElements", "ScatterAddWithAxis", "InplaceUpdate",
                                               "InplaceAdd", "InplaceSub", "InplaceIndexAdd", "IndexAdd", "IndexPut"])
