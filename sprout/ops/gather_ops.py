"""Gather/scatter primitives: GatherNd, ScatterNd, TensorScatter (update/add/sub/mul/div/max/min, out of place),
TensorScatterElements and UnsortedSegment (sum/max/min/prod). The in-place spellings (``scatter_nd_add`` on a
Parameter ...) are these results written back with Assign (``functional_gather.py``)."""
from __future__ import annotations

import numpy as np

from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import check_axis, fmt_shape

SCATTER_MODES = ("update", "add", "sub", "mul", "div", "max", "min")
_AT = {"add": np.add.at, "sub": np.subtract.at, "mul": np.multiply.at, "div": np.divide.at, "max": np.maximum.at,
       "min": np.minimum.at}


def _int_index(op: str, t, what: str = "indices") -> None:
    if not t.dtype.is_int:
        raise TypeError(f"{op}: {what} must be an int32 or int64 tensor, got {t.dtype}")


def _nd_index(op: str, x_shape: tuple, indices: np.ndarray) -> tuple:
    """The NumPy index of ``indices`` (..., k) into the first k axes of ``x_shape``; out-of-range raises."""
    k = indices.shape[-1]
    parts = []
    for i in range(k):
        col = indices[..., i]
        size = x_shape[i]
        if col.size and (col.min() < 0 or col.max() >= size):
            bad = col.min() if col.min() < 0 else col.max()
            raise RuntimeError(f"{op}: index {int(bad)} is out of range [0, {size}) for axis {i} of shape "
                               f"{list(x_shape)}")
        parts.append(col)
    return tuple(parts)


def _check_nd(op: str, x_shape: tuple, indices, updates=None) -> tuple:
    """Shape rule shared by the nd ops: indices (..., k) with k <= rank; updates indices[:-1] + x[k:]."""
    _int_index(op, indices)
    if indices.ndim < 1:
        raise OpError(f"{op}: indices must have rank >= 1, got {fmt_shape(indices.shape)}")
    k = indices.shape[-1]
    if k is not None and k > len(x_shape):
        raise OpError(f"{op}: the last axis of indices ({k}) exceeds the rank of the input {fmt_shape(x_shape)}")
    want = tuple(indices.shape[:-1]) + tuple(x_shape[k:]) if k is not None else None
    if updates is not None and want is not None:
        got = tuple(updates.shape)
        if len(got) != len(want) or any(a is not None and b is not None and a != b for a, b in zip(got, want)):
            raise OpError(f"{op}: updates shape {fmt_shape(got)} must be indices.shape[:-1] + input.shape[k:] = "
                          f"{fmt_shape(want)}")
    return want


# ---- GatherNd and ScatterNd (its adjoint) ---------------------------------------------------------------------
def _gather_nd_infer(x, indices):
    return TensorType(_check_nd("GatherNd", tuple(x.shape), indices), x.dtype)


def _gather_nd_impl(x, indices):
    return x[_nd_index("GatherNd", x.shape, indices)]


def _gather_nd_bprop(x, indices, out, d):
    return F.scatter_nd(indices, d, x.shape), None


GATHER_ND = register(Op("GatherNd", _gather_nd_impl, _gather_nd_infer, _gather_nd_bprop, "opaque"))


def _scatter_nd_infer(indices, updates, shape):
    if any(not isinstance(s, int) or s < 0 for s in shape):
        raise OpError(f"ScatterNd: shape must be non-negative ints, got {shape}")
    _check_nd("ScatterNd", tuple(shape), indices, updates)
    return TensorType(tuple(shape), updates.dtype)


def _scatter_nd_impl(indices, updates, shape):
    out = np.zeros(shape, updates.dtype)
    np.add.at(out, _nd_index("ScatterNd", shape, indices), updates)
    return out


def _scatter_nd_bprop(indices, updates, out, d, shape):
    return None, F.gather_nd(d, indices)


SCATTER_ND = register(Op("ScatterNd", _scatter_nd_impl, _scatter_nd_infer, _scatter_nd_bprop, "opaque",
                         fresh_output=True))


# ---- TensorScatter (out of place) -------------------------------------------------------------------------------
def _tensor_scatter_infer(x, indices, updates, mode="update"):
    if mode not in SCATTER_MODES:
        raise OpError(f"TensorScatter: mode must be one of {SCATTER_MODES}, got {mode!r}")
    if updates.dtype is not x.dtype:
        raise TypeError(f"TensorScatter{mode.capitalize()}: updates dtype {updates.dtype} differs from the input's "
                        f"{x.dtype}")
    _check_nd(f"TensorScatter{mode.capitalize()}", tuple(x.shape), indices, updates)
    return TensorType(tuple(x.shape), x.dtype)


def _scatter_into(out, indices, updates, mode, op):
    idx = _nd_index(op, out.shape, indices)
    if mode == "update":
        out[idx] = updates
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            _AT[mode](out, idx, updates)
    return out


def _tensor_scatter_impl(x, indices, updates, mode="update"):
    return _scatter_into(x.copy(), indices, updates, mode, f"TensorScatter{mode.capitalize()}")


def _tensor_scatter_bprop(x, indices, updates, out, d, mode="update"):
    """Exact for update/add/sub/max/min and, when no update is 0, for mul/div with repeated indices too."""
    at = F.gather_nd
    if mode == "update":
        # with repeated indices the last update wins: only it receives the gradient
        k = indices.shape[-1]
        ids = F.reshape(F.arange(0, _count(indices.shape[:-1]), dtype=indices.dtype), tuple(indices.shape[:-1]))
        owner = F.tensor_scatter(F.full(tuple(x.shape[:k]), -1, dtype=indices.dtype), indices, ids, "update")
        won = F.cast(F.equal(at(owner, indices), ids), d.dtype)
        won = F.reshape(won, tuple(won.shape) + (1,) * (updates.ndim - won.ndim))
        return F.tensor_scatter(d, indices, F.zeros_like(updates), "update"), None, F.mul(at(d, indices), won)
    if mode in ("add", "sub"):
        gu = at(d, indices)
        return d, None, (gu if mode == "add" else F.neg(gu))
    if mode in ("mul", "div"):
        gx = F.tensor_scatter(d, indices, updates, mode)
        d_out = at(F.mul(d, out), indices)
        safe = F.where(F.equal(updates, 0), F.ones_like(updates), updates)
        gu = F.div(d_out, safe)
        if mode == "mul":  # out / u is undefined at u == 0: then d out / d u = x times the other updates
            gu = F.where(F.equal(updates, 0), at(F.mul(d, x), indices), gu)
        else:
            gu = F.neg(gu)
        return gx, None, gu
    pick_x = F.cast(F.equal(x, out), d.dtype)
    pick_u = F.cast(F.equal(updates, at(out, indices)), d.dtype)
    return F.mul(d, pick_x), None, F.mul(at(d, indices), pick_u)


TENSOR_SCATTER = register(Op("TensorScatter", _tensor_scatter_impl, _tensor_scatter_infer, _tensor_scatter_bprop,
                             "opaque", fresh_output=True))


# ---- TensorScatterElements (scatter along one axis) -------------------------------------------------------------
def _scatter_elements_infer(x, indices, updates, axis=0, reduction="none"):
    _int_index("TensorScatterElements", indices)
    if reduction not in ("none", "add"):
        raise OpError(f"TensorScatterElements: reduction must be 'none' or 'add', got {reduction!r}")
    check_axis("TensorScatterElements", axis, x.ndim)
    if indices.ndim != x.ndim or tuple(indices.shape) != tuple(updates.shape):
        raise OpError(f"TensorScatterElements: indices {fmt_shape(indices.shape)} and updates "
                      f"{fmt_shape(updates.shape)} must have one shape of the input's rank ({x.ndim})")
    if updates.dtype is not x.dtype:
        raise TypeError(f"TensorScatterElements: updates dtype {updates.dtype} differs from the input's {x.dtype}")
    return TensorType(tuple(x.shape), x.dtype)


def _along(index: np.ndarray, axis: int, size: int) -> tuple:
    if index.size and (index.min() < -size or index.max() >= size):
        bad = index.max() if index.max() >= size else index.min()
        raise IndexError(f"TensorScatterElements: index {int(bad)} is out of range for an axis of size {size}")
    grids = list(np.ogrid[tuple(slice(0, s) for s in index.shape)])
    grids[axis] = index % size
    return tuple(grids)


def _scatter_elements_impl(x, indices, updates, axis=0, reduction="none"):
    axis %= x.ndim
    out = x.copy()
    idx = _along(indices, axis, x.shape[axis])
    if reduction == "add":
        np.add.at(out, idx, updates)
    elif reduction == "none":
        out[idx] = updates
    else:  # the rule names it (eager runs it when the kernel fails)
        raise ValueError(f"unknown reduction {reduction!r}")
    return out


def _scatter_elements_bprop(x, indices, updates, out, d, axis=0, reduction="none"):
    gu = F.gather_elements(d, axis, indices)
    if reduction == "add":
        return d, None, gu
    # the last of repeated indices wins: only that update receives the gradient
    ids = F.reshape(F.arange(0, _count(indices.shape), dtype=indices.dtype), tuple(indices.shape))
    owner = F.tensor_scatter_elements(F.full(tuple(x.shape), -1, dtype=indices.dtype), indices, ids, axis)
    won = F.cast(F.equal(F.gather_elements(owner, axis, indices), ids), d.dtype)
    gx = F.tensor_scatter_elements(d, indices, F.zeros_like(updates), axis)
    return gx, None, F.mul(gu, won)


def _count(shape) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


TENSOR_SCATTER_ELEMENTS = register(Op("TensorScatterElements", _scatter_elements_impl, _scatter_elements_infer,
                                      _scatter_elements_bprop, "opaque", fresh_output=True))


# ---- unsorted segment reductions --------------------------------------------------------------------------------
SEGMENT_MODES = ("sum", "max", "min", "prod")


def _segment_infer(x, ids, num_segments, mode="sum"):
    _int_index("UnsortedSegment", ids, "segment_ids")
    if mode not in SEGMENT_MODES:
        raise OpError(f"UnsortedSegment: mode must be one of {SEGMENT_MODES}, got {mode!r}")
    if not isinstance(num_segments, int) or num_segments < 0:
        raise OpError(f"UnsortedSegment{mode.capitalize()}: num_segments must be a non-negative int, got "
                      f"{num_segments!r}")
    lead = tuple(x.shape[:ids.ndim])
    if ids.ndim > x.ndim or any(a is not None and b is not None and a != b for a, b in zip(lead, ids.shape)):
        raise OpError(f"UnsortedSegment{mode.capitalize()}: segment_ids {fmt_shape(ids.shape)} must match the "
                      f"leading axes of the input {fmt_shape(x.shape)}")
    return TensorType((num_segments,) + tuple(x.shape[ids.ndim:]), x.dtype)


def _segment_fill(dtype: np.dtype, mode: str):
    if mode == "sum":
        return 0
    if mode == "prod":
        return 1
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.min if mode == "max" else info.max


def _segment_impl(x, ids, num_segments, mode="sum"):
    """Rows of x grouped by segment id (ids outside [0, num_segments) are dropped); an empty segment holds
    0 (sum), 1 (prod), or the dtype's lowest (max) / highest (min) value, as MindSpore's kernels give."""
    out = np.full((num_segments,) + x.shape[ids.ndim:], _segment_fill(x.dtype, mode), x.dtype)
    flat_ids = ids.reshape(-1)
    rows = x.reshape((flat_ids.size,) + x.shape[ids.ndim:])
    keep = (flat_ids >= 0) & (flat_ids < num_segments)
    fn = {"sum": np.add.at, "max": np.maximum.at, "min": np.minimum.at, "prod": np.multiply.at}[mode]
    fn(out, flat_ids[keep], rows[keep])
    return out


def _segment_bprop(x, ids, out, d, num_segments, mode="sum"):
    valid = F.logical_and(F.greater_equal(ids, 0), F.less(ids, num_segments))
    safe_ids = F.where(valid, ids, F.zeros_like(ids))
    mask = F.cast(valid, d.dtype)
    for _ in range(x.ndim - ids.ndim):
        mask = F.expand_dims(mask, -1)

    def back(t):  # the segment value of every input row (0 for a dropped row)
        return F.mul(F.gather(t, safe_ids, 0), mask)

    if mode == "sum":
        return back(d), None
    if mode == "prod":
        safe_x = F.where(F.equal(x, 0), F.ones_like(x), x)
        return F.div(back(F.mul(d, out)), safe_x), None
    picked = F.cast(F.equal(x, back(out)), d.dtype)
    return F.mul(back(d), picked), None


UNSORTED_SEGMENT = register(Op("UnsortedSegment", _segment_impl, _segment_infer, _segment_bprop, "opaque",
                               fresh_output=True))


# ---- sorted segment reductions (the number of segments comes from the ids' values) -------------------------------
def _sorted_segment_infer(x, ids, mode="sum"):
    _int_index("Segment", ids, "segment_ids")
    if mode not in SEGMENT_MODES + ("mean",):
        raise OpError(f"Segment: mode must be one of {SEGMENT_MODES + ('mean',)}, got {mode!r}")
    if ids.ndim != 1 or (x.shape[0] is not None and ids.shape[0] is not None and x.shape[0] != ids.shape[0]):
        raise OpError(f"Segment{mode.capitalize()}: segment_ids must be 1-D with the input's first size, got "
                      f"{fmt_shape(ids.shape)} for input {fmt_shape(x.shape)}")
    return TensorType((None,) + tuple(x.shape[1:]), x.dtype)


def _sorted_segment_impl(x, ids, mode="sum"):
    """Segments of consecutive rows sharing a (sorted, non-negative) id; one output row per id up to the largest;
    an empty segment is 0 for every mode, as MindSpore's Segment* kernels give."""
    name = f"Segment{mode.capitalize()}"
    if ids.size and (ids.min() < 0 or np.any(np.diff(ids) < 0)):
        raise ValueError(f"{name}: segment_ids must be sorted and non-negative")
    n = int(ids.max()) + 1 if ids.size else 0
    out = _segment_impl(x, ids, n, "sum" if mode == "mean" else mode)
    counts = np.bincount(ids, minlength=n).reshape((n,) + (1,) * (x.ndim - 1))
    if mode == "mean":
        return (out / np.maximum(counts, 1)).astype(x.dtype, copy=False)
    return np.where(counts > 0, out, np.zeros((), x.dtype)).astype(x.dtype, copy=False)


def _sorted_segment_bprop(x, ids, out, d, mode="sum"):
    back = F.gather(d, ids, 0)
    if mode == "sum":
        return back, None
    if mode == "mean":
        count = F.cast(F.gather(F.bincount(ids), ids, 0), d.dtype)
        return F.div(back, F.reshape(count, (-1,) + (1,) * (x.ndim - 1))), None
    if mode == "prod":
        safe_x = F.where(F.equal(x, 0), F.ones_like(x), x)
        return F.div(F.gather(F.mul(d, out), ids, 0), safe_x), None
    return F.mul(back, F.cast(F.equal(x, F.gather(out, ids, 0)), d.dtype)), None


SEGMENT = register(Op("Segment", _sorted_segment_impl, _sorted_segment_infer, _sorted_segment_bprop, "opaque",
                      fresh_output=True))

from . import functional as F  # noqa: E402
