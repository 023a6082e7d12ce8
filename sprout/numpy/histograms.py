"""mindspore.numpy binning: bincount, histograms (1-D, 2-D, N-D, bin edges), digitize and searchsorted; counts
are sums of one-hot bin memberships, so weights get gradients."""
from __future__ import annotations

import builtins

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ._utils import as_float, check_int, const_value, to_tensor
from .array_ops import ravel

__all__ = ["bincount", "histogram", "histogram_bin_edges", "histogram2d", "histogramdd", "digitize", "searchsorted"]


def bincount(x, weights=None, minlength=0, length=None):
    """Float32 counts (MindSpore's result type); ``length`` fixes the output size (needed under jit)."""
    op = "mindspore.numpy.bincount"
    x = to_tensor(x, op)
    if x.ndim != 1 or not x.dtype.is_int:
        raise TypeError(f"{op}: x must be a 1-D integer Tensor, got {x.dtype}{tuple(x.shape)}")
    if length is None:
        values = const_value(x, op, "x")
        if values.size and values.min() < 0:
            raise ValueError(f"{op}: x must be non-negative")
        length = max(int(values.max()) + 1 if values.size else 0, check_int(minlength, "minlength", op))
    bins = Tensor(np.arange(length, dtype=np.int32))
    hits = ops.cast(ops.equal(ops.reshape(ops.cast(x, mstype.int32), (-1, 1)), bins), mstype.float32)
    if weights is not None:
        hits = hits * ops.reshape(ops.cast(to_tensor(weights, op), mstype.float32), (-1, 1))
    return ops.sum(hits, 0)


def _edges(a, bins, rng, op):
    if isinstance(bins, (list, tuple, Tensor)):
        e = np.asarray(const_value(bins, op, "bins") if isinstance(bins, Tensor) else bins, np.float64)
        if e.ndim != 1 or (np.diff(e) < 0).any():
            raise ValueError(f"{op}: bins must increase monotonically")
        return e
    nb = check_int(bins, "bins", op)
    if nb <= 0:
        raise ValueError(f"{op}: 'bins' must be positive, got {nb}")
    if rng is None:
        vals = const_value(a, op, "a")
        lo, hi = (float(vals.min()), float(vals.max())) if vals.size else (0.0, 1.0)
    else:
        lo, hi = float(rng[0]), float(rng[1])
        if lo > hi:
            raise ValueError(f"{op}: max must be larger than min in range {rng!r}")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return np.linspace(lo, hi, nb + 1)


def _bin_index(a, edges):
    """The bin of each value (-1 outside; the last bin includes its right edge)."""
    e = Tensor(edges.astype(np.float32))
    idx = ops.cast(ops.searchsorted(e, a, right=True), mstype.int32) - 1
    idx = ops.where(ops.equal(a, e[-1]), ops.full_like(idx, len(edges) - 2), idx)
    inside = ops.logical_and(ops.greater_equal(a, e[0]), ops.less_equal(a, e[-1]))
    return ops.where(inside, idx, ops.full_like(idx, -1))


def histogramdd(sample, bins=10, range=None, weights=None, density=False):  # noqa: A002
    op = "mindspore.numpy.histogramdd"
    s = as_float(to_tensor(sample, op))
    if s.ndim == 1:
        s = ops.reshape(s, (-1, 1))
    d = s.shape[1]
    bins_l = [bins] * d if isinstance(bins, (int, np.integer)) else list(bins)
    if len(bins_l) != d:
        raise ValueError(f"{op}: {len(bins_l)} bin specifications for {d}-D samples")
    ranges = list(range) if range is not None else [None] * d
    edges = [_edges(s[:, i], bins_l[i], ranges[i], op) for i in builtins.range(d)]
    counts = [len(e) - 1 for e in edges]
    flat, valid = None, None
    for i in builtins.range(d):
        idx = _bin_index(ops.cast(s[:, i], mstype.float32), edges[i])
        ok = ops.greater_equal(idx, 0)
        valid = ok if valid is None else ops.logical_and(valid, ok)
        flat = idx if flat is None else flat * counts[i] + idx
    total = int(np.prod(counts))
    flat = ops.where(valid, flat, ops.full_like(flat, -1))
    hits = ops.cast(ops.equal(ops.reshape(flat, (-1, 1)), Tensor(np.arange(total, dtype=np.int32))), mstype.float32)
    if weights is not None:
        hits = hits * ops.reshape(ops.cast(to_tensor(weights, op), mstype.float32), (-1, 1))
    hist = ops.reshape(ops.sum(hits, 0), tuple(counts))
    if density:
        widths = np.ones(tuple(counts))
        for i, e in enumerate(edges):
            view = [1] * d
            view[i] = counts[i]
            widths = widths * np.diff(e).reshape(view)
        hist = hist / ops.sum(hist) / Tensor(widths.astype(np.float32))
    return hist, [Tensor(e.astype(np.float32)) for e in edges]


def histogram(a, bins=10, range=None, weights=None, density=False):  # noqa: A002
    a = ravel(as_float(to_tensor(a, "mindspore.numpy.histogram")))
    w = None if weights is None else ravel(to_tensor(weights, "mindspore.numpy.histogram"))
    hist, edges = histogramdd(ops.reshape(a, (-1, 1)), [bins], None if range is None else [range], w, density)
    return hist, edges[0]


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    op = "mindspore.numpy.histogram_bin_edges"
    return Tensor(_edges(as_float(to_tensor(a, op)), bins, range, op).astype(np.float32))


def histogram2d(x, y, bins=10, range=None, weights=None, density=False):  # noqa: A002
    op = "mindspore.numpy.histogram2d"
    xs, ys = ravel(as_float(to_tensor(x, op))), ravel(as_float(to_tensor(y, op)))
    b = list(bins) if isinstance(bins, (list, tuple)) and len(bins) == 2 else [bins, bins]
    hist, edges = histogramdd(ops.stack([xs, ops.cast(ys, xs.dtype)], 1), b, range, weights, density)
    return hist, edges[0], edges[1]


def digitize(x, bins, right=False):
    """The bin index of each value (Int32), for increasing or decreasing bins."""
    op = "mindspore.numpy.digitize"
    x = to_tensor(x, op)
    b = ops.cast(to_tensor(bins, op), x.dtype)
    if b.ndim != 1:
        raise ValueError(f"{op}: bins must be 1-D, got {b.ndim}-D")
    up = ops.cast(ops.searchsorted(b, x, right=not right), mstype.int32)
    if b.shape[0] < 2:
        return up
    down = b.shape[0] - ops.cast(ops.searchsorted(ops.flip(b, (0,)), x, right=right), mstype.int32)
    return ops.where(ops.greater(b[0], b[-1]), down, up)


def searchsorted(a, v, side="left", sorter=None):
    op = "mindspore.numpy.searchsorted"
    if side not in ("left", "right"):
        raise ValueError(f"{op}: 'side' must be 'left' or 'right', got {side!r}")
    a = to_tensor(a, op)
    v = to_tensor(v, op, a.dtype)
    if sorter is not None:
        a = ops.gather(a, ops.cast(to_tensor(sorter, op), mstype.int32), 0)
    return ops.cast(ops.searchsorted(a, v, right=side == "right"), mstype.int32)
