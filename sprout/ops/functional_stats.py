"""Functional statistics and sequence functions: cumulative ops, unique/nonzero, searchsorted/bucketize/bincount/
histc, sort-based statistics (median, quantile), NaN-aware reductions, diff/trapz/cov/renorm, top-k helpers."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind, current_builder
from ..core.tensor import Tensor
from . import array_extra as X
from . import functional as F
from ._infer import check_axis
from .functional import _as_tensor

__all__ = ["cumprod", "cummax", "cummin", "logcumsumexp", "unique", "unique_consecutive", "unique_with_pad",
           "nonzero", "argwhere", "searchsorted", "bucketize", "bincount", "histc", "median", "nanmedian",
           "quantile", "nanquantile", "nanmean", "nansum", "msort", "aminmax", "diff", "trapz", "cov", "renorm",
           "intopk", "top_k"]


def cumprod(input, dim, dtype=None):  # noqa: A002
    """Cumulative product; integer and bool inputs accumulate in Int64, as MindSpore's ``ops.cumprod``."""
    x = _as_tensor(input, "CumProd")
    if dtype is not None:
        x = F.cast(x, dtype)
    elif not (x.dtype.is_float or x.dtype.is_complex) and x.dtype is not mstype.int64:
        x = F.cast(x, mstype.int64)
    return bind(X.CUMPROD, (x,), {"axis": check_axis("CumProd", dim, x.ndim)})


def _cum_extreme(mode):
    def fn(input, axis):  # noqa: A002
        """(values, indices) of the running extreme along ``axis``; the indices are Int64 for cummax and Int32
        for cummin, as MindSpore 2.10 returns them."""
        x = _as_tensor(input, f"Cum{mode}")
        vals, idx = bind(X.CUM_EXTREME, (x,), {"axis": check_axis(f"Cum{mode}", axis, x.ndim), "mode": mode})
        return vals, (idx if mode == "max" else F.cast(idx, mstype.int32))

    fn.__name__ = f"cum{mode}"
    return fn


cummax = _cum_extreme("max")
cummin = _cum_extreme("min")


def logcumsumexp(input, axis):  # noqa: A002
    x = _as_tensor(input, "LogCumSumExp")
    return bind(X.LOGCUMSUMEXP, (x,), {"axis": int(axis) % max(x.ndim, 1)})


def unique(input):  # noqa: A002
    """(unique values in order of first appearance, Int32 index of each element into them)."""
    return bind(X.UNIQUE, (_as_tensor(input, "Unique"),), {})


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    out, inverse, counts = bind(X.UNIQUE_CONSECUTIVE, (_as_tensor(input, "UniqueConsecutive"),),
                                {"axis": None if dim is None else int(dim)})
    if return_inverse and return_counts:
        return out, inverse, counts
    if return_inverse:
        return out, inverse
    if return_counts:
        return out, counts
    return out


def unique_with_pad(x, pad_num):
    """Unique values padded to the input's length with ``pad_num``, and each element's index into them."""
    t = _as_tensor(x, "UniqueWithPad")
    pad = pad_num.item() if isinstance(pad_num, Tensor) else pad_num
    return bind(X.UNIQUE_WITH_PAD, (t,), {"pad_num": pad})


def nonzero(input, *, as_tuple=False):  # noqa: A002
    """Int64 coordinates (N, ndim) of the non-zero elements; one 1-D tensor per axis with ``as_tuple``."""
    x = _as_tensor(input, "NonZero")
    coords = bind(X.NONZERO, (x,), {})
    if as_tuple:
        return tuple(coords[:, i] for i in range(x.ndim))
    return coords


def argwhere(input):  # noqa: A002
    return nonzero(input)


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    seq = _as_tensor(sorted_sequence, "SearchSorted")
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
        if right and side == "left":
            raise ValueError("searchsorted: right=True contradicts side='left'")
        right = side == "right"
    if sorter is not None:
        seq = F.gather_elements(seq, seq.ndim - 1, _as_tensor(sorter, "SearchSorted"))
    v = values if isinstance(values, Tensor) else Tensor(np.asarray(values, seq.dtype.np))
    if v.dtype is not seq.dtype:
        v = F.cast(v, seq.dtype)
    return bind(X.SEARCH_SORTED, (seq, v), {"right": bool(right),
                                            "dtype": mstype.int32 if out_int32 else mstype.int64})


def bucketize(input, boundaries, *, right=False):  # noqa: A002
    """Index of the bucket of each element (Int32); boundaries is a sorted list of numbers."""
    x = _as_tensor(input, "Bucketize")
    b = Tensor(np.asarray(boundaries, x.dtype.np))
    return searchsorted(b, x, out_int32=True, right=right)


def bincount(input, weights=None, minlength=0):  # noqa: A002
    x = _as_tensor(input, "Bincount")
    args = (x,) if weights is None else (x, _as_tensor(weights, "Bincount"))
    return bind(X.BINCOUNT, args, {"minlength": int(minlength)})


def histc(input, bins=100, min=0.0, max=0.0):  # noqa: A002
    return bind(X.HISTC, (_as_tensor(input, "Histc"),), {"bins": int(bins), "min": float(min), "max": float(max)})


# ---- sort-based statistics ----------------------------------------------------------------------------------------
def msort(input):  # noqa: A002
    return F.sort(input, 0)[0]


def median(input, axis=-1, keepdims=False):  # noqa: A002
    """(lower median, Int64 index of it) along ``axis``."""
    x = _as_tensor(input, "Median")
    vals, idx = F.sort(x, axis)
    n = x.shape[axis]
    k = (n - 1) // 2
    sel = [slice(None)] * x.ndim
    sel[axis] = slice(k, k + 1) if keepdims else k
    return vals[tuple(sel)], F.cast(idx[tuple(sel)], mstype.int64)


def nanmedian(input, axis=-1, keepdims=False):  # noqa: A002
    """The lower median of the non-NaN entries (NaN sorts last); NaN when a slice is all NaN."""
    x = _as_tensor(input, "nanmedian")
    vals, idx = F.sort(x, axis)
    count = F.sum(F.logical_not(F.isnan(x)), axis, True)
    pos = F.maximum(F.floor_div(F.sub(count, 1), 2), 0)
    v = F.gather_elements(vals, axis % x.ndim, pos)
    i = F.cast(F.gather_elements(idx, axis % x.ndim, F.cast(pos, idx.dtype)), mstype.int64)
    if not keepdims:
        v, i = F.squeeze(v, axis), F.squeeze(i, axis)
    return v, i


def _quantile(x, q, axis, keepdims, ignore_nan):
    op = "nanquantile" if ignore_nan else "quantile"
    t = _as_tensor(x, op)
    if not t.dtype.is_float:
        raise TypeError(f"{op}: expects a float tensor, got {t.dtype}")
    if axis is None:
        t, axis, flat = F.reshape(t, (-1,)), 0, True
    else:
        axis, flat = axis % t.ndim, False
    qs = q.asnumpy() if isinstance(q, Tensor) else np.asarray(q, np.float64)
    if np.any((qs < 0) | (qs > 1)):
        raise ValueError(f"{op}: q must be in [0, 1], got {qs}")
    vals = F.sort(t, axis)[0]
    n = t.shape[axis]
    count = F.sum(F.logical_not(F.isnan(t)), axis, True) if ignore_nan else None
    outs = []
    for qv in qs.reshape(-1):
        if ignore_nan:
            pos = F.mul(F.cast(F.sub(count, 1), t.dtype), float(qv))
        else:
            pos = F.full(tuple(1 if i == axis else d for i, d in enumerate(t.shape)), float(qv) * (n - 1),
                         dtype=t.dtype)
        lo = F.floor(pos)
        frac = F.sub(pos, lo)
        lo_i = F.cast(F.maximum(lo, 0.0), mstype.int64)
        hi_i = F.minimum(F.add(lo_i, 1), n - 1)
        a = F.gather_elements(vals, axis, lo_i)
        b = F.gather_elements(vals, axis, hi_i)
        r = F.add(a, F.mul(F.sub(b, a), frac))
        if ignore_nan:
            r = F.where(F.equal(count, 0), F.full_like(r, float("nan")), r)
        if not keepdims:
            r = F.squeeze(r, axis)
        elif flat:
            r = F.reshape(r, (1,) * _as_tensor(x, op).ndim)
        outs.append(r)
    if np.ndim(qs) == 0:
        return outs[0]
    return F.stack(outs, 0)


def quantile(input, q, axis=None, keepdims=False):  # noqa: A002
    """Linear-interpolated quantiles (q a number or a 1-D tensor: one result per q on a new axis 0)."""
    return _quantile(input, q, axis, keepdims, False)


def nanquantile(input, q, axis=None, keepdims=False):  # noqa: A002
    return _quantile(input, q, axis, keepdims, True)


def nansum(input, axis=None, keepdims=False, *, dtype=None):  # noqa: A002
    x = _as_tensor(input, "nansum")
    if x.dtype.is_float:
        x = F.where(F.isnan(x), F.zeros_like(x), x)
    return F.sum(x, axis, keepdims, dtype=dtype)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):  # noqa: A002
    x = _as_tensor(input, "nanmean")
    if not x.dtype.is_float:
        raise TypeError(f"nanmean: expects a float tensor, got {x.dtype}")
    if dtype is not None:
        x = F.cast(x, dtype)
    count = F.sum(F.cast(F.logical_not(F.isnan(x)), x.dtype), axis, keepdims)
    return F.div(nansum(x, axis, keepdims), count)


def aminmax(input, *, axis=0, keepdims=False):  # noqa: A002
    x = _as_tensor(input, "aminmax")
    return F.amin(x, axis, keepdims), F.amax(x, axis, keepdims)


def diff(x, n=1, axis=-1, prepend=None, append=None):
    """The n-th forward difference along ``axis`` (after prepending/appending the given tensors)."""
    t = _as_tensor(x, "diff")
    parts = [p for p in (prepend, t, append) if p is not None]
    if len(parts) > 1:
        t = F.concat([_as_tensor(p, "diff") for p in parts], axis)
    for _ in range(int(n)):
        hi = [slice(None)] * t.ndim
        lo = [slice(None)] * t.ndim
        hi[axis], lo[axis] = slice(1, None), slice(None, -1)
        a, b = t[tuple(hi)], t[tuple(lo)]
        t = F.logical_xor(a, b) if t.dtype is mstype.bool_ else F.sub(a, b)
    return t


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The trapezoidal integral of ``y`` along ``dim`` (spacing ``x`` or the constant ``dx``)."""
    t = _as_tensor(y, "trapz")
    hi = [slice(None)] * t.ndim
    lo = [slice(None)] * t.ndim
    hi[dim], lo[dim] = slice(1, None), slice(None, -1)
    avg = F.mul(F.add(t[tuple(hi)], t[tuple(lo)]), 0.5)
    if x is None:
        return F.mul(F.sum(avg, dim), float(dx))
    xs = _as_tensor(x, "trapz")
    if xs.ndim == 1:
        shape = [1] * t.ndim
        shape[dim] = -1
        xs = F.reshape(xs, tuple(shape))
    xh = [slice(None)] * xs.ndim
    xl = [slice(None)] * xs.ndim
    xh[dim], xl[dim] = slice(1, None), slice(None, -1)
    return F.sum(F.mul(avg, F.sub(xs[tuple(xh)], xs[tuple(xl)])), dim)


def cov(input, *, correction=1, fweights=None, aweights=None):  # noqa: A002
    """Covariance of the rows (variables) over the columns (observations), with optional frequency and
    observation weights (NumPy's definition)."""
    x = _as_tensor(input, "cov")
    if x.ndim > 2:
        raise ValueError(f"cov: expects a tensor of rank <= 2, got shape {list(x.shape)}")
    x = F.reshape(x, (1, -1)) if x.ndim < 2 else x
    if not x.dtype.is_float:
        x = F.cast(x, mstype.float32)
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = F.cast(_as_tensor(fweights, "cov"), x.dtype)
    if aweights is not None:
        a = F.cast(_as_tensor(aweights, "cov"), x.dtype)
        w = a if w is None else F.mul(w, a)
    if w is None:
        w_sum = float(n)
        avg = F.mean(x, 1, True)
        norm = w_sum - correction
        xc = F.sub(x, avg)
        c = F.matmul(xc, xc, transpose_b=True)
    else:
        w_sum = F.sum(w)
        avg = F.div(F.sum(F.mul(x, w), 1, True), w_sum)
        if aweights is None or correction == 0:
            norm = F.sub(w_sum, correction)
        else:
            norm = F.sub(w_sum, F.div(F.mul(F.sum(F.mul(w, F.cast(_as_tensor(aweights, "cov"), x.dtype))),
                                            correction), w_sum))
        xc = F.sub(x, avg)
        c = F.matmul(F.mul(xc, w), xc, transpose_b=True)
    out = F.div(c, F.maximum(norm, 0.0) if isinstance(norm, Tensor) else max(norm, 0))
    return F.squeeze(out) if out.shape == (1, 1) else out


def renorm(input, p, axis, maxnorm):  # noqa: A002
    """Each sub-tensor along ``axis`` whose p-norm exceeds ``maxnorm`` is scaled down to norm ``maxnorm``."""
    x = _as_tensor(input, "renorm")
    if not x.dtype.is_float:
        raise TypeError(f"renorm: expects a float tensor, got {x.dtype}")
    if p <= 0:
        raise ValueError(f"renorm: p must be positive, got {p}")
    axis %= x.ndim
    others = tuple(i for i in range(x.ndim) if i != axis)
    norms = F.vector_norm(x, float(p), others, True)
    scale = F.where(F.greater(norms, float(maxnorm)), F.div(float(maxnorm), F.add(norms, 1e-7)),
                    F.ones_like(norms))
    return F.mul(x, scale)


def intopk(x1, x2, k):
    """Whether each row's target class (``x2``) is among the ``k`` largest predictions of ``x1``."""
    pred = _as_tensor(x1, "InTopK")
    tgt = _as_tensor(x2, "InTopK")
    if current_builder() is None and (k < 0):
        raise ValueError(f"InTopK: k must be non-negative, got {k}")
    target = F.gather_elements(pred, 1, F.reshape(F.cast(tgt, mstype.int64), (-1, 1)))
    better = F.sum(F.cast(F.greater(pred, target), mstype.int32), 1)
    return F.logical_and(F.less(better, k), F.reshape(F.logical_not(F.isnan(target)), (-1,)))


def top_k(input_x, k, sorted=True):  # noqa: A002
    return F.topk(input_x, k, sorted=sorted)
