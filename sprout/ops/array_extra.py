"""More array primitives: cumulative products/extrema/log-sum-exp, unique and nonzero (data-dependent shapes),
searchsorted, bincount and histc."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import check_axis, fmt_shape
from .elementwise import _cj


def _no_grad(*args, **attrs):
    return tuple(None for _ in args[:-2])


def _same(op: str, kinds: str = "fiu"):
    def infer(x, axis=0, **attrs):
        check_axis(op, axis, x.ndim)
        if x.dtype.np.kind not in kinds:
            raise TypeError(f"{op}: unsupported input dtype {x.dtype}")
        return TensorType(tuple(x.shape), x.dtype)

    return infer


def _scan(x, axis, exclusive, reverse, ufunc, identity):
    """An inclusive/exclusive, forward/reverse accumulation of ``ufunc`` along ``axis``."""
    if reverse:
        x = np.flip(x, axis)
    out = ufunc.accumulate(x, axis=axis, dtype=x.dtype)
    if exclusive:
        first = np.full_like(np.take(out, [0], axis), identity)
        out = np.concatenate([first, np.delete(out, -1, axis)], axis)
    return np.flip(out, axis) if reverse else out


# ---- cumulative product -----------------------------------------------------------------------------------------
def _cumprod_impl(x, axis=0, exclusive=False, reverse=False):
    return _scan(x, axis % x.ndim, exclusive, reverse, np.multiply, 1)


def _cumprod_bprop(x, out, d, axis=0, exclusive=False, reverse=False):
    """d x_j = sum over the products that include x_j of d_i * out_i / x_j (exact where x has no zeros;
    conjugated for complex values)."""
    acc = F.cumsum_raw(F.mul(d, _cj(out)), axis % x.ndim, exclusive, not reverse)
    return (F.div(acc, _cj(x)),)


CUMPROD = register(Op("CumProd", _cumprod_impl, _same("CumProd", "fiuc"), _cumprod_bprop, "opaque", fresh_output=True))
CUMPROD.extra["complex_grad"] = True


# ---- cumulative max / min with indices --------------------------------------------------------------------------
def _cumext_infer(x, axis=0, mode="max"):
    check_axis(f"Cum{mode}", axis, x.ndim)
    if mode not in ("max", "min"):
        raise OpError(f"CumExtreme: mode must be 'max' or 'min', got {mode!r}")
    return TensorType(tuple(x.shape), x.dtype), TensorType(tuple(x.shape), mstype.int64)


def _cumext_impl(x, axis=0, mode="max"):
    """Running max (min) and the index of the element holding it; ties take the latest index, as
    MindSpore's kernels do."""
    axis %= x.ndim
    xm = np.moveaxis(x, axis, 0)
    vals = np.empty_like(xm)
    idx = np.empty(xm.shape, np.int64)
    better = np.greater_equal if mode == "max" else np.less_equal
    cur, cur_i = xm[0].copy(), np.zeros(xm.shape[1:], np.int64)
    for i in range(xm.shape[0]):
        take = better(xm[i], cur) | np.isnan(xm[i]) if x.dtype.kind == "f" else better(xm[i], cur)
        if i == 0:
            take = np.ones_like(take, bool)
        cur = np.where(take, xm[i], cur)
        cur_i = np.where(take, i, cur_i)
        vals[i], idx[i] = cur, cur_i
    return np.moveaxis(vals, 0, axis), np.moveaxis(idx, 0, axis)


def _cumext_bprop(x, out, d, axis=0, mode="max"):
    return (F.gather_d_grad(d[0], out[1], x.shape, axis % x.ndim),)


CUM_EXTREME = register(Op("CumExtreme", _cumext_impl, _cumext_infer, _cumext_bprop, "opaque", n_out=2))


# ---- cumulative log-sum-exp -------------------------------------------------------------------------------------
def _logcumsumexp_impl(x, axis=0, exclusive=False, reverse=False):
    return _scan(x, axis % x.ndim, exclusive, reverse, np.logaddexp, -np.inf)


def _logcumsumexp_bprop(x, out, d, axis=0, exclusive=False, reverse=False):
    """d x_j = sum_{i >= j} d_i exp(x_j - out_i): a reverse cumulative sum of d * exp(-out) times exp(x)."""
    scaled = F.mul(d, F.exp(F.neg(out)))
    return (F.mul(F.cumsum_raw(scaled, axis % x.ndim, exclusive, not reverse), F.exp(x)),)


LOGCUMSUMEXP = register(Op("LogCumSumExp", _logcumsumexp_impl, _same("LogCumSumExp", "f"), _logcumsumexp_bprop,
                           "opaque", fresh_output=True))


# ---- unique / nonzero (sizes known only at run time) ------------------------------------------------------------
def _unique_infer(x):
    return TensorType((None,), x.dtype), TensorType(tuple(x.shape), mstype.int32)


def _unique_impl(x):
    """Unique values of the flattened input in order of first appearance, and each element's position
    among them (Int32), as MindSpore's Unique returns them."""
    flat = x.reshape(-1)
    vals, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return vals[order], rank[inverse.reshape(-1)].reshape(x.shape).astype(np.int32)


UNIQUE = register(Op("Unique", _unique_impl, _unique_infer, _no_grad, "opaque", n_out=2))


def _unique_pad_infer(x, pad_num=0):
    if x.ndim != 1:
        raise OpError(f"UniqueWithPad: expects a 1-D tensor, got {fmt_shape(x.shape)}")
    return TensorType(tuple(x.shape), x.dtype), TensorType(tuple(x.shape), mstype.int32)


def _unique_pad_impl(x, pad_num=0):
    """Unique values (first-appearance order) padded to the input's length with ``pad_num``, and the index of
    each element among them: fixed output shapes, so it compiles into graphs."""
    vals, idx = _unique_impl(x)
    out = np.full(x.shape, pad_num, x.dtype)
    out[:vals.size] = vals
    return out, idx


UNIQUE_WITH_PAD = register(Op("UniqueWithPad", _unique_pad_impl, _unique_pad_infer, _no_grad, "opaque", n_out=2))


def _unique_consecutive_infer(x, axis=None):
    if axis is None:
        return TensorType((None,), x.dtype), TensorType(tuple(x.shape), mstype.int64), TensorType((None,),
                                                                                                  mstype.int64)
    axis = check_axis("UniqueConsecutive", axis, x.ndim)
    shape = list(x.shape)
    shape[axis] = None
    return (TensorType(tuple(shape), x.dtype), TensorType((x.shape[axis],), mstype.int64),
            TensorType((None,), mstype.int64))


def _unique_consecutive_impl(x, axis=None):
    """Collapse runs of equal values (or equal slices along ``axis``): (values, inverse, counts)."""
    if axis is None:
        flat = x.reshape(-1)
        if flat.size == 0:
            return flat, np.zeros(x.shape, np.int64), np.zeros((0,), np.int64)
        start = np.concatenate([[True], flat[1:] != flat[:-1]])
        inverse = np.cumsum(start) - 1
        counts = np.diff(np.append(np.flatnonzero(start), flat.size))
        return flat[start], inverse.reshape(x.shape).astype(np.int64), counts.astype(np.int64)
    axis %= x.ndim
    xm = np.moveaxis(x, axis, 0)
    n = xm.shape[0]
    if n == 0:
        return x, np.zeros((0,), np.int64), np.zeros((0,), np.int64)
    rows = xm.reshape(n, -1)
    start = np.concatenate([[True], np.any(rows[1:] != rows[:-1], axis=1)])
    inverse = np.cumsum(start) - 1
    counts = np.diff(np.append(np.flatnonzero(start), n))
    return np.moveaxis(xm[start], 0, axis), inverse.astype(np.int64), counts.astype(np.int64)


UNIQUE_CONSECUTIVE = register(Op("UniqueConsecutive", _unique_consecutive_impl, _unique_consecutive_infer, _no_grad,
                                 "opaque", n_out=3))


def _nonzero_infer(x):
    return TensorType((None, x.ndim), mstype.int64)


NONZERO = register(Op("NonZero", lambda x: np.argwhere(x).astype(np.int64), _nonzero_infer, _no_grad, "opaque"))


SEQUENCE_MASK = register(Op("SequenceMask", lambda lengths: np.arange(int(lengths.max()) if lengths.size else 0)
                            < lengths[..., None], lambda lengths: TensorType(tuple(lengths.shape) + (None,),
                                                                             mstype.bool_), _no_grad, "opaque"))


# ---- searchsorted, bincount, histc (no gradient) ---------------------------------------------------------------
def _searchsorted_infer(seq, values, right=False, dtype=mstype.int64):
    if seq.ndim > 1 and tuple(seq.shape[:-1]) != tuple(values.shape[:-1]):
        raise OpError(f"SearchSorted: the leading axes of sorted_sequence {fmt_shape(seq.shape)} and values "
                      f"{fmt_shape(values.shape)} must match")
    return TensorType(tuple(values.shape), dtype)


def _searchsorted_impl(seq, values, right=False, dtype=mstype.int64):
    side = "right" if right else "left"
    if seq.ndim <= 1:
        return np.searchsorted(seq, values, side=side).astype(dtype.np)
    s2 = seq.reshape(-1, seq.shape[-1])
    v2 = values.reshape(-1, values.shape[-1])
    out = np.stack([np.searchsorted(a, b, side=side) for a, b in zip(s2, v2)])
    return out.reshape(values.shape).astype(dtype.np)


SEARCH_SORTED = register(Op("SearchSorted", _searchsorted_impl, _searchsorted_infer, _no_grad, "opaque"))


def _bincount_infer(x, *weights, minlength=0):
    if not x.dtype.is_int or x.ndim != 1:
        raise TypeError(f"Bincount: input must be a 1-D integer tensor, got {x.dtype}{fmt_shape(x.shape)}")
    dt = weights[0].dtype if weights else mstype.float32
    return TensorType((None,), dt)


def _bincount_impl(x, *weights, minlength=0):
    if x.size and x.min() < 0:
        raise ValueError("Bincount: input must hold non-negative values")
    w = weights[0] if weights else None
    out = np.bincount(x, weights=w, minlength=minlength)
    return out.astype(w.dtype if w is not None else np.float32)  # MindSpore counts in Float32


def _bincount_bprop(x, *rest, minlength=0):
    """Each weight lands in the bin of its value: its gradient is that bin's."""
    weights, d = rest[:-2], rest[-1]
    return (None,) + tuple(F.gather(d, x, 0) for _ in weights)


BINCOUNT = register(Op("Bincount", _bincount_impl, _bincount_infer, _bincount_bprop, "opaque"))


def _histc_infer(x, bins=100, min=0.0, max=0.0):  # noqa: A002 - MindSpore's names
    if not isinstance(bins, int) or bins <= 0:
        raise OpError(f"Histc: bins must be a positive int, got {bins!r}")
    if min > max:
        raise OpError(f"Histc: min ({min}) must not exceed max ({max})")
    return TensorType((bins,), x.dtype if x.dtype.is_float else mstype.float32)


def _histc_impl(x, bins=100, min=0.0, max=0.0):  # noqa: A002
    lo, hi = float(min), float(max)
    if lo == hi:
        lo, hi = (float(x.min()), float(x.max())) if x.size else (0.0, 0.0)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    counts, _ = np.histogram(x, bins=bins, range=(lo, hi))
    return counts.astype(x.dtype if x.dtype.kind == "f" else np.float32)


HISTC = register(Op("Histc", _histc_impl, _histc_infer, _no_grad, "opaque"))

from . import functional as F  # noqa: E402
