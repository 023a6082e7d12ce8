"""Op-table cases for ``ops/array_extra.py``: cumulative ops, unique/nonzero, searchsorted, bincount, histc."""
import numpy as np

from sprout import ops
from sprout.core.dispatch import bind
from sprout.ops import array_extra as X
from optable import CONST, F64, INT, POS, Case


def _cumext_ref(x, axis, better):
    xm = np.moveaxis(x, axis, 0)
    vals, idx = np.empty_like(xm), np.empty(xm.shape, np.int64)
    cur, cur_i = xm[0], np.zeros(xm.shape[1:], np.int64)
    for i in range(xm.shape[0]):
        take = better(xm[i], cur) | (i == 0)
        cur, cur_i = np.where(take, xm[i], cur), np.where(take, i, cur_i)
        vals[i], idx[i] = cur, cur_i
    return np.moveaxis(vals, 0, axis), np.moveaxis(idx, 0, axis)


def _unique_ref(x):
    seen, vals = {}, []
    for v in x.ravel().tolist():
        if v not in seen:
            seen[v] = len(vals)
            vals.append(v)
    return np.array(vals, x.dtype), np.array([seen[v] for v in x.ravel().tolist()], np.int32).reshape(x.shape)


def _consecutive_ref(x):
    vals, inverse, counts = [], [], []
    for v in x.ravel().tolist():
        if not vals or vals[-1] != v:
            vals.append(v)
            counts.append(0)
        counts[-1] += 1
        inverse.append(len(vals) - 1)
    return (np.array(vals, x.dtype), np.array(inverse, np.int64).reshape(x.shape), np.array(counts, np.int64))


RUNS = CONST(np.array([[1, 1, 2], [2, 3, 1]], np.int32))

CASES = [
    Case("CumProd", lambda x: ops.cumprod(x, 1), (POS(2, 4),), lambda x: np.cumprod(x, 1)),
    Case("CumProd", lambda x: ops.CumProd(True, True)(x, 0), (POS(3, 2),),
         lambda x: np.flip(np.concatenate([np.ones((1, 2)), np.cumprod(np.flip(x, 0), 0)[:-1]], 0), 0),
         label="exclusive-reverse"),
    Case("CumExtreme", lambda x: ops.cummax(x, 1), (F64(2, 5),), lambda x: _cumext_ref(x, 1, np.greater_equal)),
    Case("CumExtreme", lambda x: ops.cummin(x, 0), (F64(4, 2),),
         lambda x: (lambda v, i: (v, i.astype(np.int32)))(*_cumext_ref(x, 0, np.less_equal)), label="min"),
    Case("LogCumSumExp", lambda x: ops.logcumsumexp(x, 1), (F64(2, 4),),
         lambda x: np.log(np.cumsum(np.exp(x), 1))),
    Case("LogCumSumExp", lambda x: ops.CumulativeLogsumexp(False, True)(x, 0), (F64(3, 2),),
         lambda x: np.log(np.flip(np.cumsum(np.exp(np.flip(x, 0)), 0), 0)), label="reverse"),
    Case("LogCumSumExp", lambda x: ops.CumulativeLogsumexp(True, False)(x, 1), (F64(2, 3),),
         lambda x: np.concatenate([np.full((2, 1), -np.inf), np.log(np.cumsum(np.exp(x), 1)[:, :-1])], 1),
         label="exclusive", grad=()),
    Case("Unique", ops.unique, (INT(2, 5, lo=0, hi=4),), _unique_ref),
    Case("UniqueConsecutive", lambda x: ops.unique_consecutive(x, True, True), (RUNS,), _consecutive_ref),
    Case("UniqueConsecutive", lambda x: ops.unique_consecutive(x, True, True, 0),
         (CONST(np.array([[1, 2], [1, 2], [3, 4]], np.int32)),),
         lambda x: (x[[0, 2]], np.array([0, 0, 1], np.int64), np.array([2, 1], np.int64)), label="dim"),
    Case("UniqueWithPad", lambda x: ops.unique_with_pad(x, -1), (CONST(np.array([5, 2, 5, 1, 2], np.int32)),),
         lambda x: (np.array([5, 2, 1, -1, -1], np.int32), np.array([0, 1, 0, 2, 1], np.int32))),
    Case("SequenceMask", ops.sequence_mask, (CONST(np.array([[1, 3], [2, 0]], np.int64)),),
         lambda x: np.arange(3) < x[..., None]),
    Case("NonZero", ops.nonzero, (INT(3, 4, lo=-1, hi=2),), lambda x: np.argwhere(x).astype(np.int64)),
    Case("SearchSorted", ops.searchsorted, (CONST(np.array([1.0, 3.0, 5.0, 7.0])), F64(2, 3, lo=0, hi=8)),
         lambda s, v: np.searchsorted(s, v).astype(np.int64)),
    Case("SearchSorted", lambda s, v: ops.searchsorted(s, v, right=True),
         (CONST(np.array([[1.0, 3.0, 5.0], [0.0, 2.0, 2.0]])), CONST(np.array([[3.0, 9.0], [2.0, -1.0]]))),
         lambda s, v: np.stack([np.searchsorted(a, b, "right") for a, b in zip(s, v)]).astype(np.int64),
         label="batched-right"),
    Case("Bincount", ops.bincount, (INT(6, lo=0, hi=4),), lambda x: np.bincount(x).astype(np.float32)),
    Case("Bincount", lambda x, w: ops.bincount(x, w, 6), (INT(6, lo=0, hi=4), F64(6)),
         lambda x, w: np.bincount(x, w, 6), label="weights"),
    Case("Histc", lambda x: ops.histc(x, 4, -2.0, 2.0), (F64(10),),
         lambda x: np.histogram(x, 4, (-2.0, 2.0))[0].astype(np.float64)),
    Case("Histc", lambda x: bind(X.HISTC, (x,), {"bins": 3}), (F64(8),),
         lambda x: np.histogram(x, 3, (x.min(), x.max()))[0].astype(np.float64), label="auto-range"),
]
