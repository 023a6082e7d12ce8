"""mindspore.numpy array creation: array/asarray, zeros/ones/full/empty and their _like forms, ranges, eye/tri,
diagonals, grids, windows, index helpers and random arrays."""
from __future__ import annotations

import math

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ._utils import check_int, check_shape, ms_dtype, to_tensor

__all__ = ["array", "asarray", "asfarray", "copy", "zeros", "ones", "full", "empty", "zeros_like", "ones_like",
           "full_like", "empty_like", "arange", "linspace", "logspace", "geomspace", "eye", "identity", "tri",
           "tril", "triu", "diag", "diagflat", "diagonal", "trace", "meshgrid", "mgrid", "ogrid", "indices", "ix_",
           "vander", "hamming", "hanning", "bartlett", "blackman", "tril_indices", "triu_indices",
           "tril_indices_from", "triu_indices_from", "diag_indices", "rand", "randn", "randint"]


def array(obj, dtype=None, copy=True, ndmin=0):  # noqa: A002 - NumPy's argument names
    """An array-like as a Tensor (Python ints Int32, floats Float32), cast to ``dtype``, with at least
    ``ndmin`` dimensions."""
    out = to_tensor(obj, "mindspore.numpy.array", dtype)
    if copy and out is obj:
        out = ops.identity(out) if hasattr(ops, "identity") else out + 0
    ndmin = check_int(ndmin, "ndmin", "mindspore.numpy.array")
    if out.ndim < ndmin:
        out = ops.reshape(out, (1,) * (ndmin - out.ndim) + tuple(out.shape))
    return out


def asarray(a, dtype=None):
    return to_tensor(a, "mindspore.numpy.asarray", dtype)


def asfarray(a, dtype=mstype.float32):
    dt = mstype.to_dtype(dtype)
    if not dt.is_float:
        dt = mstype.float32
    return to_tensor(a, "mindspore.numpy.asfarray", dt)


def copy(a):  # noqa: A001
    return ops.identity(to_tensor(a, "mindspore.numpy.copy"))


def _filled(shape, value, dtype, op):
    shape = check_shape(shape, op)
    return ops.fill(mstype.to_dtype(dtype), shape, value)


def zeros(shape, dtype=mstype.float32):
    return _filled(shape, 0, dtype, "mindspore.numpy.zeros")


def ones(shape, dtype=mstype.float32):
    return _filled(shape, 1, dtype, "mindspore.numpy.ones")


def empty(shape, dtype=mstype.float32):
    """Uninitialised in NumPy; sprout gives zeros (a defined value)."""
    return _filled(shape, 0, dtype, "mindspore.numpy.empty")


def full(shape, fill_value, dtype=None):
    op = "mindspore.numpy.full"
    shape = check_shape(shape, op)
    if isinstance(fill_value, (Tensor, list, tuple)):
        value = to_tensor(fill_value, op, dtype)
        return ops.broadcast_to(value, shape)
    if not isinstance(fill_value, (bool, int, float, np.number, np.bool_)):
        raise TypeError(f"{op}: fill_value must be a number, bool, list, tuple or Tensor, "
                        f"got {type(fill_value).__name__}")
    dt = ms_dtype(dtype) or to_tensor(fill_value, op).dtype
    return ops.fill(dt, shape, fill_value)


def _like(a, dtype, shape, op):
    a = to_tensor(a, op)
    return (ms_dtype(dtype, a.dtype), a.shape if shape is None else check_shape(shape, op))


def zeros_like(a, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape, "mindspore.numpy.zeros_like")
    return ops.fill(dt, sh, 0)


def ones_like(a, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape, "mindspore.numpy.ones_like")
    return ops.fill(dt, sh, 1)


def empty_like(prototype, dtype=None, shape=None):
    dt, sh = _like(prototype, dtype, shape, "mindspore.numpy.empty_like")
    return ops.fill(dt, sh, 0)


def full_like(a, fill_value, dtype=None, shape=None):
    dt, sh = _like(a, dtype, shape, "mindspore.numpy.full_like")
    if isinstance(fill_value, (Tensor, list, tuple)):
        return ops.broadcast_to(to_tensor(fill_value, "mindspore.numpy.full_like", dt), sh)
    return ops.fill(dt, sh, int(fill_value) if dt.is_int else fill_value)


def _number(v, name, op):
    if isinstance(v, Tensor) and v.ndim == 0:
        v = v.asnumpy().item()
    if isinstance(v, bool) or not isinstance(v, (int, float, np.number)):
        raise TypeError(f"{op}: '{name}' must be a number, got {type(v).__name__} {v!r}")
    return v.item() if isinstance(v, np.number) else v


def arange(start, stop=None, step=None, dtype=None):
    """Int32 when every argument is an int, else Float32 (MindSpore's defaults)."""
    op = "mindspore.numpy.arange"
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    start, stop, step = (_number(v, n, op) for v, n in ((start, "start"), (stop, "stop"), (step, "step")))
    if step == 0:
        raise ZeroDivisionError(f"{op}: 'step' must not be 0")
    all_int = all(isinstance(v, int) for v in (start, stop, step))
    dt = ms_dtype(dtype, mstype.int32 if all_int else mstype.float32)
    n = max(0, math.ceil((stop - start) / step))
    if all_int:
        values = np.arange(start, stop, step)
    else:
        values = start + np.arange(n, dtype=np.float64) * step
    return Tensor(values.astype(dt.np))


def _space_ends(start, stop, op):
    ts, te = isinstance(start, (Tensor, list, tuple)), isinstance(stop, (Tensor, list, tuple))
    if ts or te:
        a = ops.cast(to_tensor(start, op), mstype.float32)
        b = ops.cast(to_tensor(stop, op), mstype.float32)
        shape = np.broadcast_shapes(a.shape, b.shape)
        return ops.broadcast_to(a, shape), ops.broadcast_to(b, shape)
    return float(_number(start, "start", op)), float(_number(stop, "stop", op))


def _steps(a, b, num, endpoint, axis, op):
    """``num`` evenly spaced values from a to b (scalars or broadcast Tensors) on a new axis ``axis``."""
    num = check_int(num, "num", op)
    if num <= 0:
        raise ValueError(f"{op}: 'num' must be > 0, got {num}")
    div = (num - 1) if endpoint else num
    frac = np.arange(num, dtype=np.float64) / max(div, 1)
    if isinstance(a, Tensor):
        nd = a.ndim + 1
        axis = check_int(axis, "axis", op)
        if not -nd <= axis < nd:
            raise ValueError(f"{op}: 'axis' {axis} is out of range for a {nd}-D result")
        axis %= nd
        a1, b1 = ops.expand_dims(a, 0), ops.expand_dims(b, 0)
        f = Tensor(frac.astype(np.float32).reshape((num,) + (1,) * a.ndim))
        out = a1 + (b1 - a1) * f
        if endpoint and num > 1:
            out = ops.concat([out[:-1], b1], 0)
        if axis:
            out = ops.moveaxis(out, 0, axis)
        return out, (b - a) / div if div else (b - a) * float("nan")
    values = a + (b - a) * frac
    if endpoint and num > 1:
        values[-1] = b
    step = (b - a) / div if div else float("nan")
    return values, step


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    op = "mindspore.numpy.linspace"
    a, b = _space_ends(start, stop, op)
    values, step = _steps(a, b, num, endpoint, axis, op)
    dt = ms_dtype(dtype, mstype.float32)
    if isinstance(values, Tensor):
        out = values if dt is mstype.float32 else ops.cast(ops.floor(values) if dt.is_int else values, dt)
    else:
        out = Tensor((np.floor(values) if dt.is_int else values).astype(dt.np))
    if retstep:
        return out, (step if isinstance(step, Tensor) else Tensor(np.float32(step)))
    return out


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    op = "mindspore.numpy.logspace"
    a, b = _space_ends(start, stop, op)
    values, _ = _steps(a, b, num, endpoint, axis, op)
    dt = ms_dtype(dtype, mstype.float32)
    if isinstance(values, Tensor):
        out = ops.pow(float(base), values)
        return out if dt is mstype.float32 else ops.cast(out, dt)
    return Tensor(np.power(float(base), values).astype(dt.np))


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    op = "mindspore.numpy.geomspace"
    a, b = _space_ends(start, stop, op)
    if isinstance(a, Tensor):
        values, _ = _steps(ops.log10(a), ops.log10(b), num, endpoint, axis, op)
        out = ops.pow(10.0, values)
        return out if dtype is None else ops.cast(out, mstype.to_dtype(dtype))
    if a == 0 or b == 0:
        raise ValueError(f"{op}: geometric sequence cannot include zero")
    values, _ = _steps(math.log10(abs(a)), math.log10(abs(b)), num, endpoint, axis, op)
    out = np.power(10.0, values) * (np.sign(a) if np.sign(a) == np.sign(b) else 1.0)
    return Tensor(out.astype(ms_dtype(dtype, mstype.float32).np))


def _dim(v, name, op):
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{op}: '{name}' must be an int, got {type(v).__name__} {v!r}")
    if v < 0:
        raise ValueError(f"{op}: '{name}' must be >= 0, got {v}")
    return int(v)


def _tri_mask(n, m, k, lower=True):
    return np.tri(n, m, k, dtype=bool) if lower else ~np.tri(n, m, k - 1, dtype=bool)


def eye(N, M=None, k=0, dtype=mstype.float32):  # noqa: N803 - NumPy's argument names
    op = "mindspore.numpy.eye"
    n = _dim(N, "N", op)
    m = n if M is None else _dim(M, "M", op)
    k = check_int(k, "k", op)
    return Tensor(np.eye(n, m, k).astype(mstype.to_dtype(dtype).np))


def identity(n, dtype=mstype.float32):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=mstype.float32):  # noqa: N803
    op = "mindspore.numpy.tri"
    n = _dim(N, "N", op)
    m = n if M is None else _dim(M, "M", op)
    return Tensor(np.tri(n, m, check_int(k, "k", op)).astype(mstype.to_dtype(dtype).np))


def _triangle(m, k, lower, op):
    m = to_tensor(m, op)
    k = check_int(k, "k", op)
    if m.ndim == 1:
        m = ops.broadcast_to(m, (m.shape[0], m.shape[0]))
    if m.ndim < 2:
        raise ValueError(f"{op}: input must be at least 1-D, got {m.ndim}-D")
    mask = Tensor(_tri_mask(m.shape[-2], m.shape[-1], k, lower))
    return ops.select(ops.broadcast_to(mask, m.shape), m, ops.zeros_like(m))


def tril(m, k=0):
    return _triangle(m, k, True, "mindspore.numpy.tril")


def triu(m, k=0):
    return _triangle(m, k, False, "mindspore.numpy.triu")


def diagonal(a, offset=0, axis1=0, axis2=1):
    from .array_ops import moveaxis

    op = "mindspore.numpy.diagonal"
    a = to_tensor(a, op)
    if a.ndim < 2:
        raise ValueError(f"{op}: input must be at least 2-D, got {a.ndim}-D")
    from ._utils import check_axis

    ax1, ax2 = check_axis(axis1, a.ndim, op, "axis1"), check_axis(axis2, a.ndim, op, "axis2")
    if ax1 == ax2:
        raise ValueError(f"{op}: axis1 and axis2 cannot be the same ({axis1})")
    offset = check_int(offset, "offset", op)
    x = moveaxis(a, (ax1, ax2), (-2, -1))
    n, m = x.shape[-2], x.shape[-1]
    rows = np.arange(max(0, -offset), min(n, m - offset)) if m - offset > 0 else np.arange(0)
    rows = rows[rows < n]
    if rows.size == 0:
        return ops.zeros(tuple(x.shape[:-2]) + (0,), x.dtype)
    flat = ops.reshape(x, tuple(x.shape[:-2]) + (n * m,))
    return ops.gather(flat, Tensor((rows * m + rows + offset).astype(np.int32)), x.ndim - 2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    out = ops.sum(diagonal(a, offset, axis1, axis2), -1)
    return out if dtype is None else ops.cast(out, mstype.to_dtype(dtype))


def diag(v, k=0):
    op = "mindspore.numpy.diag"
    v = to_tensor(v, op)
    k = check_int(k, "k", op)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        padded = ops.concat([v, ops.zeros((1,), v.dtype)])
        return ops.reshape(ops.gather(padded, Tensor(_diag_gather(v.shape[0], n, k)), 0), (n, n))
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError(f"{op}: input must be 1- or 2-D, got {v.ndim}-D")


def _diag_gather(length, n, k):
    """Gather positions building an n x n matrix from ``v`` padded with one zero (index ``length``)."""
    idx = np.full((n, n), length, np.int32)
    pos = np.arange(length)
    idx[pos + max(0, -k), pos + max(0, k)] = pos
    return idx.reshape(-1)


def diagflat(v, k=0):
    return diag(ops.reshape(to_tensor(v, "mindspore.numpy.diagflat"), (-1,)), k)


def meshgrid(*xi, sparse=False, indexing="xy"):
    op = "mindspore.numpy.meshgrid"
    if indexing not in ("xy", "ij"):
        raise TypeError(f"{op}: 'indexing' must be 'xy' or 'ij', got {indexing!r}")
    xs = [ops.reshape(to_tensor(x, op), (-1,)) for x in xi]
    nd = len(xs)
    shape = [x.shape[0] for x in xs]
    if indexing == "xy" and nd > 1:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        pos = i
        if indexing == "xy" and nd > 1 and i < 2:
            pos = 1 - i
        view = [1] * nd
        view[pos] = x.shape[0]
        y = ops.reshape(x, tuple(view))
        out.append(y if sparse else ops.broadcast_to(y, tuple(shape)))
    return tuple(out)


class _Grid:
    """``mgrid[...]`` / ``ogrid[...]``: slices (a step ``Nj`` means N points, end included) to grids."""

    def __init__(self, sparse: bool):
        self.sparse = sparse

    def __getitem__(self, key):
        keys = key if isinstance(key, tuple) else (key,)
        axes, floats = [], False
        for s in keys:
            if not isinstance(s, slice):
                raise TypeError(f"mindspore.numpy.{'ogrid' if self.sparse else 'mgrid'}: expected slices, got {s!r}")
            start = 0 if s.start is None else s.start
            step = 1 if s.step is None else s.step
            if isinstance(step, complex):
                axes.append(np.linspace(start, s.stop, int(abs(step))))
                floats = True
            else:
                axes.append(np.arange(start, s.stop, step))
                floats = floats or any(isinstance(v, float) for v in (start, s.stop, step))
        dt = np.float32 if floats else np.int32
        grids = np.meshgrid(*axes, indexing="ij", sparse=self.sparse)
        if len(keys) == 1 and not isinstance(key, tuple):
            return Tensor(axes[0].astype(dt))
        if self.sparse:
            return tuple(Tensor(g.astype(dt)) for g in grids)
        return Tensor(np.stack(grids).astype(dt))


mgrid = _Grid(False)
ogrid = _Grid(True)


def indices(dimensions, dtype=mstype.int32, sparse=False):
    dims = check_shape(dimensions, "mindspore.numpy.indices")
    grids = np.indices(dims, sparse=sparse)
    dt = mstype.to_dtype(dtype).np
    if sparse:
        return tuple(Tensor(g.astype(dt)) for g in grids)
    return tuple(Tensor(g.astype(dt)) for g in grids)


def ix_(*args):
    op = "mindspore.numpy.ix_"
    out = []
    for i, a in enumerate(args):
        a = to_tensor(a, op)
        if a.ndim != 1:
            raise ValueError(f"{op}: every input must be 1-D, got {a.ndim}-D")
        shape = [1] * len(args)
        shape[i] = a.shape[0]
        out.append(ops.reshape(a, tuple(shape)))
    return tuple(out)


def vander(x, N=None, increasing=False):  # noqa: N803
    op = "mindspore.numpy.vander"
    x = to_tensor(x, op)
    if x.ndim != 1:
        raise ValueError(f"{op}: x must be 1-D, got {x.ndim}-D")
    n = x.shape[0] if N is None else _dim(N, "N", op)
    powers = np.arange(n) if increasing else np.arange(n)[::-1]
    cols = [ops.ones_like(x) if p == 0 else x ** int(p) for p in powers]
    return ops.stack(cols, -1) if cols else ops.zeros((x.shape[0], 0), x.dtype)


def _window(values):
    return Tensor(np.asarray(values, np.float64).astype(np.float32))


def hamming(M):  # noqa: N803
    return _window(np.hamming(_dim(M, "M", "mindspore.numpy.hamming")))


def hanning(M):  # noqa: N803
    return _window(np.hanning(_dim(M, "M", "mindspore.numpy.hanning")))


def bartlett(M):  # noqa: N803
    return _window(np.bartlett(_dim(M, "M", "mindspore.numpy.bartlett")))


def blackman(M):  # noqa: N803
    return _window(np.blackman(_dim(M, "M", "mindspore.numpy.blackman")))


def _index_pair(rows, cols):
    return Tensor(rows.astype(np.int32)), Tensor(cols.astype(np.int32))


def _tri_indices(fn, n, k, m, op):
    return _index_pair(*fn(_dim(n, "n", op), check_int(k, "k", op), None if m is None else _dim(m, "m", op)))


def tril_indices(n, k=0, m=None):
    return _tri_indices(np.tril_indices, n, k, m, "mindspore.numpy.tril_indices")


def triu_indices(n, k=0, m=None):
    return _tri_indices(np.triu_indices, n, k, m, "mindspore.numpy.triu_indices")


def _from(arr, op):
    arr = to_tensor(arr, op)
    if arr.ndim != 2:
        raise ValueError(f"{op}: input must be 2-D, got {arr.ndim}-D")
    return arr.shape


def tril_indices_from(arr, k=0):
    n, m = _from(arr, "mindspore.numpy.tril_indices_from")
    return tril_indices(n, k, m)


def triu_indices_from(arr, k=0):
    n, m = _from(arr, "mindspore.numpy.triu_indices_from")
    return triu_indices(n, k, m)


def diag_indices(n, ndim=2):
    op = "mindspore.numpy.diag_indices"
    idx = Tensor(np.arange(_dim(n, "n", op), dtype=np.int32))
    return (idx,) * _dim(ndim, "ndim", op)


def _rand_shape(shape, op):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return check_shape(tuple(shape), op)


def rand(*shape, dtype=mstype.float32):
    """Uniform [0, 1) values, drawn from sprout's seeded stream (``ms.set_seed``)."""
    op = "mindspore.numpy.rand"
    dt = mstype.to_dtype(dtype)
    if not dt.is_float:
        raise TypeError(f"{op}: dtype must be a float type, got {dt}")
    out = ops.uniform(_rand_shape(shape, op), Tensor(0.0, mstype.float32), Tensor(1.0, mstype.float32))
    return out if dt is mstype.float32 else ops.cast(out, dt)


def randn(*shape, dtype=mstype.float32):
    """Standard normal values from sprout's seeded stream."""
    op = "mindspore.numpy.randn"
    dt = mstype.to_dtype(dtype)
    if not dt.is_float:
        raise TypeError(f"{op}: dtype must be a float type, got {dt}")
    out = ops.standard_normal(_rand_shape(shape, op))
    return out if dt is mstype.float32 else ops.cast(out, dt)


def randint(minval, maxval=None, shape=None, dtype=mstype.int32):
    """Integers in [minval, maxval) (or [0, minval) when maxval is None)."""
    op = "mindspore.numpy.randint"
    dt = mstype.to_dtype(dtype)
    if dt not in (mstype.int8, mstype.int16, mstype.int32, mstype.int64):
        raise ValueError(f"{op}: dtype must be int8, int16, int32 or int64, got {dt}")
    if maxval is None:
        minval, maxval = 0, minval
    lo, hi = check_int(minval, "minval", op), check_int(maxval, "maxval", op)
    if hi <= lo:
        raise ValueError(f"{op}: maxval must be greater than minval, got {lo} and {hi}")
    shp = () if shape is None else check_shape(shape, op)
    return ops.randint(lo, hi, shp, dtype=dt)
