"""Op-table cases for the gather/scatter primitives (``ops/gather_ops.py``): NumPy loop references."""
import numpy as np

from sprout import ops
from optable import CONST, F64, INT, PARAM, Case

IDX2 = CONST(np.array([[0, 1], [2, 0], [1, 1]], np.int32))
DUP = CONST(np.array([[1], [1], [0]], np.int32))
UNIQ = CONST(np.array([[2], [0]], np.int32))


def _gather_nd_ref(x, idx):
    k = idx.shape[-1]
    return np.stack([x[tuple(i)] for i in idx.reshape(-1, k)]).reshape(idx.shape[:-1] + x.shape[k:])


def _scatter_ref(x, idx, u, mode):
    out = x.copy()
    k = idx.shape[-1]
    for pos, i in zip(u.reshape((-1,) + x.shape[k:]), idx.reshape(-1, k)):
        t = tuple(i)
        if mode == "update":
            out[t] = pos
        elif mode == "add":
            out[t] = out[t] + pos
        elif mode == "sub":
            out[t] = out[t] - pos
        elif mode == "mul":
            out[t] = out[t] * pos
        elif mode == "div":
            out[t] = out[t] / pos
        elif mode == "max":
            out[t] = np.maximum(out[t], pos)
        else:
            out[t] = np.minimum(out[t], pos)
    return out


def _scatter_elements_ref(x, idx, u, axis, add):
    out = x.copy()
    for pos in np.ndindex(idx.shape):
        t = list(pos)
        t[axis] = idx[pos]
        out[tuple(t)] = out[tuple(t)] + u[pos] if add else u[pos]
    return out


def _segment_ref(x, ids, n, mode):
    init = {"sum": 0.0, "prod": 1.0, "max": np.finfo(x.dtype).min, "min": np.finfo(x.dtype).max}[mode]
    out = np.full((n,) + x.shape[ids.ndim:], init, x.dtype)
    fn = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[mode]
    for pos in np.ndindex(ids.shape):
        if 0 <= ids[pos] < n:
            out[ids[pos]] = fn(out[ids[pos]], x[pos])
    return out


SORTED = CONST(np.array([0, 0, 2, 2, 3], np.int32))


def _sorted_ref(x, ids, mode):
    n = ids.max() + 1
    out = np.zeros((n,) + x.shape[1:])
    for k in range(n):
        rows = x[ids == k]
        if len(rows):
            out[k] = {"sum": rows.sum(0), "mean": rows.mean(0), "max": rows.max(0), "min": rows.min(0),
                      "prod": rows.prod(0)}[mode]
    return out


SEG = CONST(np.array([0, 2, 0, 3, -1], np.int32))
FULL = CONST(np.array([0, 2, 0, 3, 1], np.int32))  # no empty segment: an empty max is the dtype's lowest value


def _ts(mode, idx, u_shape, **kw):
    return Case("TensorScatter", lambda x, i, u: ops.tensor_scatter(x, i, u, mode),
                (F64(3, 4), idx, F64(*u_shape, lo=0.5) if mode == "div" else F64(*u_shape)),
                lambda x, i, u: _scatter_ref(x, i, u, mode), label=mode, **kw)


CASES = [
    Case("GatherNd", ops.gather_nd, (F64(3, 2, 4), IDX2), _gather_nd_ref),
    Case("GatherNd", ops.gather_nd, (INT(3, 4), UNIQ), _gather_nd_ref, label="rows-int"),
    Case("ScatterNd", lambda i, u: ops.scatter_nd(i, u, (3, 4)), (DUP, F64(3, 4)),
         lambda i, u: _scatter_ref(np.zeros((3, 4)), i, u, "add")),
    _ts("update", UNIQ, (2, 4)),
    Case(
        "TensorScatter", lambda x, i, u: ops.tensor_scatter(x, i, u, "update"), (F64(3, 4), DUP, F64(3, 4)),
        lambda x, i, u: _scatter_ref(x, i, u, "update"), label="update-dup"),
    _ts("add", DUP, (3, 4)),
    _ts("sub", DUP, (3, 4)),
    _ts("mul", DUP, (3, 4)),
    _ts("div", DUP, (3, 4)),
    _ts("max", DUP, (3, 4)),
    _ts("min", DUP, (3, 4)),
    Case("TensorScatter", lambda p, i, u: (ops.scatter_nd_add(p, i, u), p + 0), (PARAM(F64(3, 4)), DUP, F64(3, 4)),
         lambda p, i, u: (_scatter_ref(p, i, u, "add"),) * 2, label="param-inplace", grad=()),
    Case("TensorScatterElements", lambda x, i, u: ops.tensor_scatter_elements(x, i, u, 1),
         (F64(3, 4), CONST(np.array([[0, 3], [1, 1], [2, 0]], np.int32)), F64(3, 2)),
         lambda x, i, u: _scatter_elements_ref(x, i, u, 1, False)),
    Case("TensorScatterElements", lambda x, i, u: ops.tensor_scatter_elements(x, i, u, 0, "add"),
         (F64(3, 4), CONST(np.array([[0, 2, 1, 0], [0, 0, 1, 2]], np.int32)), F64(2, 4)),
         lambda x, i, u: _scatter_elements_ref(x, i, u, 0, True), label="add"),
    Case("UnsortedSegment", lambda x, s: ops.unsorted_segment_sum(x, s, 4), (F64(5, 3), SEG),
         lambda x, s: _segment_ref(x, s, 4, "sum"), label="sum"),
    Case("UnsortedSegment", lambda x, s: ops.unsorted_segment_max(x, s, 4), (F64(5, 3), FULL),
         lambda x, s: _segment_ref(x, s, 4, "max"), label="max"),
    Case("UnsortedSegment", lambda x, s: ops.unsorted_segment_min(x, s, 4), (F64(5, 3), FULL),
         lambda x, s: _segment_ref(x, s, 4, "min"), label="min"),
    Case("UnsortedSegment", lambda x, s: ops.unsorted_segment_prod(x, s, 4), (F64(5, 3), SEG),
         lambda x, s: _segment_ref(x, s, 4, "prod"), label="prod"),
] + [Case("Segment", getattr(ops, f"segment_{m}"), (F64(5, 3), SORTED), lambda x, s, m=m: _sorted_ref(x, s, m),
           label=m) for m in ("sum", "mean", "max", "min", "prod")]
