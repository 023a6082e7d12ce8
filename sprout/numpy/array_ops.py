"""mindspore.numpy shape and indexing functions: transposes, reshapes, joins and splits, flips and rolls,
take/choose/where/select, unique, index conversions and the apply_* helpers."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ._utils import check_axes, check_axis, check_int, check_shape, const_value, to_tensor

__all__ = ["transpose", "expand_dims", "squeeze", "rollaxis", "swapaxes", "moveaxis", "reshape", "ravel",
           "concatenate", "append", "stack", "hstack", "vstack", "dstack", "column_stack", "split", "array_split",
           "hsplit", "vsplit", "dsplit", "atleast_1d", "atleast_2d", "atleast_3d", "flip", "fliplr", "flipud",
           "rot90", "roll", "tile", "repeat", "broadcast_to", "broadcast_arrays", "take", "take_along_axis",
           "choose", "where", "select", "unique", "argwhere", "size", "array_str", "apply_along_axis",
           "apply_over_axes", "piecewise", "unravel_index", "ravel_multi_index"]


def transpose(a, axes=None):
    op = "mindspore.numpy.transpose"
    a = to_tensor(a, op)
    if axes is None:
        return ops.transpose(a, tuple(range(a.ndim - 1, -1, -1)))
    perm = tuple(check_axis(p, a.ndim, op, "axes") for p in axes)
    if len(perm) != a.ndim or len(set(perm)) != a.ndim:
        raise ValueError(f"{op}: 'axes' {tuple(axes)} is not a permutation of {a.ndim} axes")
    return ops.transpose(a, perm)


def expand_dims(a, axis):
    op = "mindspore.numpy.expand_dims"
    a = to_tensor(a, op)
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    nd = a.ndim + len(items)
    axes = sorted(check_axis(ax, nd, op) for ax in items)
    if len(set(axes)) != len(axes):
        raise ValueError(f"{op}: duplicate value in 'axis' {axis!r}")
    shape, it = [], iter(a.shape)
    for i in range(nd):
        shape.append(1 if i in axes else next(it))
    return ops.reshape(a, tuple(shape))


def squeeze(a, axis=None):
    """Refuses an axis whose length is not 1 (ValueError; MindSpore 2.10 returns the input unchanged)."""
    op = "mindspore.numpy.squeeze"
    a = to_tensor(a, op)
    if axis is None:
        return ops.reshape(a, tuple(d for d in a.shape if d != 1))
    axes = check_axes(axis, a.ndim, op)
    for ax in axes:
        if a.shape[ax] != 1:
            raise ValueError(f"{op}: cannot squeeze axis {ax} of length {a.shape[ax]} (shape {a.shape}); "
                             "only axes of length 1 can be removed")
    return ops.reshape(a, tuple(d for i, d in enumerate(a.shape) if i not in axes))


def _axis_list(v, nd, op, name):
    """An axis or a sequence of axes, non-negative, in the given order; duplicates are a ValueError."""
    out = tuple(check_axis(s, nd, op, name) for s in (v if isinstance(v, (tuple, list)) else (v,)))
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: duplicate value in '{name}' {v!r}")
    return out


def moveaxis(a, source, destination):
    op = "mindspore.numpy.moveaxis"
    a = to_tensor(a, op)
    src, dst = _axis_list(source, a.ndim, op, "source"), _axis_list(destination, a.ndim, op, "destination")
    if len(src) != len(dst):
        raise ValueError(f"{op}: 'source' and 'destination' must have the same number of axes")
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a if tuple(order) == tuple(range(a.ndim)) else ops.transpose(a, tuple(order))


def rollaxis(x, axis, start=0):
    op = "mindspore.numpy.rollaxis"
    x = to_tensor(x, op)
    axis = check_axis(axis, x.ndim, op)
    start = check_int(start, "start", op)
    if not -x.ndim <= start <= x.ndim:
        raise ValueError(f"{op}: 'start' {start} is out of range for a {x.ndim}-D array")
    start %= x.ndim + 1
    if axis < start:
        start -= 1
    return moveaxis(x, axis, start)


def swapaxes(x, axis1, axis2):
    op = "mindspore.numpy.swapaxes"
    x = to_tensor(x, op)
    a1, a2 = check_axis(axis1, x.ndim, op, "axis1"), check_axis(axis2, x.ndim, op, "axis2")
    perm = list(range(x.ndim))
    perm[a1], perm[a2] = perm[a2], perm[a1]
    return ops.transpose(x, tuple(perm))


def reshape(x, new_shape):
    op = "mindspore.numpy.reshape"
    x = to_tensor(x, op)
    items = (new_shape,) if isinstance(new_shape, (int, np.integer)) else tuple(new_shape)
    for s in items:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"{op}: each entry of new_shape must be an int, got {type(s).__name__} {s!r}")
    return ops.reshape(x, tuple(int(s) for s in items))


def ravel(x):
    return ops.reshape(to_tensor(x, "mindspore.numpy.ravel"), (-1,))


def _joined(arrays, op):
    if isinstance(arrays, Tensor):
        return [arrays[i] for i in range(arrays.shape[0])]
    arrays = [to_tensor(a, op) for a in arrays]
    if not arrays:
        raise ValueError(f"{op}: needs at least one array")
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = mstype.promote(dt, a.dtype)
    return [a if a.dtype is dt else ops.cast(a, dt) for a in arrays]


def concatenate(arrays, axis=0):
    op = "mindspore.numpy.concatenate"
    xs = _joined(arrays, op)
    if axis is None:
        return ops.concat([ops.reshape(x, (-1,)) for x in xs], 0)
    ax = check_axis(axis, xs[0].ndim, op)
    for x in xs[1:]:
        if x.ndim != xs[0].ndim or any(p != q for i, (p, q) in enumerate(zip(x.shape, xs[0].shape)) if i != ax):
            raise ValueError(f"{op}: all shapes must match except on axis {ax}, got "
                             f"{[tuple(t.shape) for t in xs]}")
    return ops.concat(xs, ax)


def append(arr, values, axis=None):
    op = "mindspore.numpy.append"
    arr, values = to_tensor(arr, op), to_tensor(values, op)
    if axis is None:
        return concatenate((ravel(arr), ravel(values)), 0)
    return concatenate((arr, values), axis)


def stack(arrays, axis=0):
    op = "mindspore.numpy.stack"
    xs = _joined(arrays, op)
    if len({tuple(x.shape) for x in xs}) > 1:
        raise ValueError(f"{op}: all input arrays must have the same shape, got {[tuple(x.shape) for x in xs]}")
    ax = check_axis(axis, xs[0].ndim + 1, op)
    return ops.stack(xs, ax)


def atleast_1d(*arys):
    out = [ops.reshape(a, (1,)) if a.ndim == 0 else a for a in (to_tensor(x, "mindspore.numpy.atleast_1d")
                                                                 for x in arys)]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for a in arys:
        a = to_tensor(a, "mindspore.numpy.atleast_2d")
        out.append(ops.reshape(a, (1,) * (2 - a.ndim) + tuple(a.shape)) if a.ndim < 2 else a)
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys):
    out = []
    for a in arys:
        a = to_tensor(a, "mindspore.numpy.atleast_3d")
        if a.ndim == 0:
            a = ops.reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = ops.reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = ops.expand_dims(a, -1)
        out.append(a)
    return out[0] if len(out) == 1 else out


def _as_list(r):
    return r if isinstance(r, list) else [r]


def hstack(tup):
    xs = _as_list(atleast_1d(*_joined(tup, "mindspore.numpy.hstack")))
    return ops.concat(xs, 0 if xs[0].ndim == 1 else 1)


def vstack(tup):
    return ops.concat(_as_list(atleast_2d(*_joined(tup, "mindspore.numpy.vstack"))), 0)


def dstack(tup):
    return ops.concat(_as_list(atleast_3d(*_joined(tup, "mindspore.numpy.dstack"))), 2)


def column_stack(tup):
    xs = _joined(tup, "mindspore.numpy.column_stack")
    return ops.concat([ops.reshape(x, (-1, 1)) if x.ndim < 2 else x for x in xs], 1)


def _split(x, indices_or_sections, axis, op, even):
    x = to_tensor(x, op)
    ax = check_axis(axis, x.ndim, op)
    n = x.shape[ax]
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(indices_or_sections, bool):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"{op}: the number of sections must be > 0, got {k}")
        if even and n % k:
            raise ValueError(f"{op}: axis {ax} of length {n} cannot be split into {k} equal sections")
        base, extra = divmod(n, k)
        sizes = [base + 1] * extra + [base] * (k - extra)
    elif isinstance(indices_or_sections, (list, tuple, Tensor)):
        cuts = [int(c) for c in np.asarray(const_value(indices_or_sections, op, "indices_or_sections")).ravel()]
        bounds = [0] + [min(max(c if c >= 0 else c + n, 0), n) for c in cuts] + [n]
        sizes = [max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])]
        starts = bounds[:-1]
        return [ops.narrow(x, ax, s, z) if z else _empty_slice(x, ax) for s, z in zip(starts, sizes)]
    else:
        raise TypeError(f"{op}: indices_or_sections must be an int or a list/tuple of ints, "
                        f"got {type(indices_or_sections).__name__}")
    return list(ops.split(x, sizes, ax))


def _empty_slice(x, ax):
    shape = list(x.shape)
    shape[ax] = 0
    return ops.zeros(tuple(shape), x.dtype)


def split(x, indices_or_sections, axis=0):
    return _split(x, indices_or_sections, axis, "mindspore.numpy.split", True)


def array_split(x, indices_or_sections, axis=0):
    return _split(x, indices_or_sections, axis, "mindspore.numpy.array_split", False)


def hsplit(x, indices_or_sections):
    x = to_tensor(x, "mindspore.numpy.hsplit")
    return _split(x, indices_or_sections, 0 if x.ndim == 1 else 1, "mindspore.numpy.hsplit", True)


def vsplit(x, indices_or_sections):
    return _split(x, indices_or_sections, 0, "mindspore.numpy.vsplit", True)


def dsplit(x, indices_or_sections):
    return _split(x, indices_or_sections, 2, "mindspore.numpy.dsplit", True)


def flip(m, axis=None):
    op = "mindspore.numpy.flip"
    m = to_tensor(m, op)
    axes = check_axes(axis, m.ndim, op)
    return ops.flip(m, axes) if axes else m


def fliplr(m):
    m = to_tensor(m, "mindspore.numpy.fliplr")
    if m.ndim < 2:
        raise ValueError(f"mindspore.numpy.fliplr: input must be at least 2-D, got {m.ndim}-D")
    return ops.flip(m, (1,))


def flipud(m):
    m = to_tensor(m, "mindspore.numpy.flipud")
    if m.ndim < 1:
        raise ValueError("mindspore.numpy.flipud: input must be at least 1-D")
    return ops.flip(m, (0,))


def rot90(a, k=1, axes=(0, 1)):
    op = "mindspore.numpy.rot90"
    a = to_tensor(a, op)
    k = check_int(k, "k", op) % 4
    if len(axes) != 2:
        raise ValueError(f"{op}: 'axes' must hold two axes, got {axes!r}")
    a0, a1 = check_axis(axes[0], a.ndim, op, "axes"), check_axis(axes[1], a.ndim, op, "axes")
    if a0 == a1:
        raise ValueError(f"{op}: the two axes must differ, got {axes!r}")
    if k == 0:
        return a
    if k == 2:
        return ops.flip(a, (a0, a1))
    if k == 1:
        return swapaxes(ops.flip(a, (a1,)), a0, a1)
    return ops.flip(swapaxes(a, a0, a1), (a1,))


def roll(a, shift, axis=None):
    op = "mindspore.numpy.roll"
    a = to_tensor(a, op)
    if axis is None:
        return ops.reshape(roll(ravel(a), shift, 0), a.shape)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    if len(axes) == 1 and len(shifts) > 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"{op}: 'shift' and 'axis' must have the same length, got {shift!r} and {axis!r}")
    out = a
    for s, ax in zip(shifts, axes):
        ax = check_axis(ax, a.ndim, op)
        n = a.shape[ax]
        s = check_int(s, "shift", op) % n if n else 0
        if s:
            idx = Tensor(((np.arange(n) - s) % n).astype(np.int32))
            out = ops.gather(out, idx, ax)
    return out


def tile(a, reps):
    op = "mindspore.numpy.tile"
    a = to_tensor(a, op)
    reps = (reps,) if isinstance(reps, (int, np.integer)) else tuple(reps)
    for r in reps:
        if isinstance(r, bool) or not isinstance(r, (int, np.integer)):
            raise TypeError(f"{op}: 'reps' must hold ints, got {type(r).__name__} {r!r}")
        if r < 0:
            raise ValueError(f"{op}: 'reps' cannot contain negative numbers, got {reps}")
    if len(reps) < a.ndim:
        reps = (1,) * (a.ndim - len(reps)) + reps
    elif len(reps) > a.ndim:
        a = ops.reshape(a, (1,) * (len(reps) - a.ndim) + tuple(a.shape))
    return ops.tile(a, reps)


def repeat(a, repeats, axis=None):
    op = "mindspore.numpy.repeat"
    a = to_tensor(a, op)
    if axis is None:
        a, axis = ravel(a), 0
    ax = check_axis(axis, a.ndim, op)
    reps = const_value(repeats, op, "repeats") if isinstance(repeats, Tensor) else repeats
    counts = np.asarray(reps).ravel()
    if counts.dtype.kind not in "iu":
        raise TypeError(f"{op}: 'repeats' must be ints, got {reps!r}")
    if (counts < 0).any():
        raise ValueError(f"{op}: 'repeats' cannot be negative, got {reps!r}")
    if counts.size == 1:
        counts = np.full(a.shape[ax], counts[0])
    if counts.size != a.shape[ax]:
        raise ValueError(f"{op}: {counts.size} repeats for axis {ax} of length {a.shape[ax]}")
    idx = np.repeat(np.arange(a.shape[ax]), counts).astype(np.int32)
    if idx.size == 0:
        return _empty_slice(a, ax)
    return ops.gather(a, Tensor(idx), ax)


def broadcast_to(array, shape):
    op = "mindspore.numpy.broadcast_to"
    array = to_tensor(array, op)
    shape = check_shape(shape, op)
    try:
        np.broadcast_shapes(tuple(array.shape), shape)
    except ValueError:
        raise ValueError(f"{op}: cannot broadcast shape {tuple(array.shape)} to {shape}") from None
    return ops.broadcast_to(array, shape)


def broadcast_arrays(*args):
    op = "mindspore.numpy.broadcast_arrays"
    xs = [to_tensor(a, op) for a in args]
    try:
        shape = np.broadcast_shapes(*[tuple(x.shape) for x in xs])
    except ValueError:
        raise ValueError(f"{op}: shapes {[tuple(x.shape) for x in xs]} cannot be broadcast together") from None
    return [ops.broadcast_to(x, shape) for x in xs]


def _mode_index(indices, n, mode, op):
    if mode == "clip":
        return ops.clip(indices, 0, n - 1)
    if mode == "wrap":
        return ops.floor_mod(indices, n)
    if mode == "raise":
        return indices
    raise ValueError(f"{op}: 'mode' must be 'clip', 'wrap' or 'raise', got {mode!r}")


def take(a, indices, axis=None, mode="clip"):
    """``mode='raise'`` gathers as is: an out-of-range index is an error (RuntimeError)."""
    op = "mindspore.numpy.take"
    a = to_tensor(a, op)
    indices = to_tensor(indices, op)
    if not indices.dtype.is_int:
        raise TypeError(f"{op}: indices must be integers, got {indices.dtype}")
    if axis is None:
        a, axis = ravel(a), 0
    ax = check_axis(axis, a.ndim, op)
    if mode == "clip":  # MindSpore's take: a negative index counts from the end before clipping
        indices = ops.where(ops.less(indices, 0), indices + a.shape[ax], indices)
    return ops.gather(a, _mode_index(indices, a.shape[ax], mode, op), ax)


def take_along_axis(arr, indices, axis):
    op = "mindspore.numpy.take_along_axis"
    arr, indices = to_tensor(arr, op), to_tensor(indices, op)
    if axis is None:
        arr, axis = ravel(arr), 0
    ax = check_axis(axis, arr.ndim, op)
    if indices.ndim != arr.ndim:
        raise ValueError(f"{op}: indices and arr must have the same number of dimensions, got {indices.ndim} "
                         f"and {arr.ndim}")
    shape_a = list(np.broadcast_shapes(tuple(d for i, d in enumerate(arr.shape) if i != ax),
                                       tuple(d for i, d in enumerate(indices.shape) if i != ax)))
    sa, si = list(shape_a), list(shape_a)
    sa.insert(ax, arr.shape[ax])
    si.insert(ax, indices.shape[ax])
    return ops.gather_elements(ops.broadcast_to(arr, tuple(sa)), ax, ops.broadcast_to(indices, tuple(si)))


def choose(a, choices, mode="clip"):
    op = "mindspore.numpy.choose"
    a = to_tensor(a, op)
    cs = broadcast_arrays(a, *_joined(choices, op))
    idx, cs = cs[0], cs[1:]
    idx = _mode_index(ops.cast(idx, mstype.int32), len(cs), mode, op)
    stacked = ops.stack(cs, 0)
    return ops.squeeze(ops.gather_elements(stacked, 0, ops.expand_dims(idx, 0)), 0)


def where(condition, x=None, y=None):
    """``where(c)`` is ``nonzero(c)`` (a tuple of Int64 index arrays), as NumPy's."""
    op = "mindspore.numpy.where"
    condition = to_tensor(condition, op)
    if x is None and y is None:
        return ops.nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise TypeError(f"{op}: give both x and y, or neither")
    if condition.dtype is not mstype.bool_:
        condition = ops.cast(condition, mstype.bool_)
    tx, ty = isinstance(x, Tensor), isinstance(y, Tensor)
    if not tx and not isinstance(x, (int, float, bool)):
        x = to_tensor(x, op)
    if not ty and not isinstance(y, (int, float, bool)):
        y = to_tensor(y, op)
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        x, y = to_tensor(x, op), to_tensor(y, op)
        dt = mstype.promote(x.dtype, y.dtype)
        x, y = ops.cast(x, dt), ops.cast(y, dt)
    return ops.where(condition, x, y)


def select(condlist, choicelist, default=0):
    op = "mindspore.numpy.select"
    if len(condlist) != len(choicelist):
        raise ValueError(f"{op}: condlist and choicelist must have the same length, got {len(condlist)} and "
                         f"{len(choicelist)}")
    choices = _joined(choicelist, op)
    conds = [ops.cast(to_tensor(c, op), mstype.bool_) for c in condlist]
    shape = np.broadcast_shapes(*[tuple(t.shape) for t in choices + conds])
    out = ops.broadcast_to(to_tensor(default, op, choices[0].dtype), shape)
    for c, v in zip(reversed(conds), reversed(choices)):
        out = ops.select(ops.broadcast_to(c, shape), ops.broadcast_to(v, shape), out)
    return out


def unique(x, return_inverse=False):
    """The distinct values of the flattened input in order of first appearance (MindSpore's order, not
    sorted as NumPy's), and with ``return_inverse`` the Int32 position of each element among them."""
    x = ravel(to_tensor(x, "mindspore.numpy.unique"))
    values, inverse = ops.unique(x)
    if values.dtype is not x.dtype:
        values = ops.cast(values, x.dtype)
    return (values, ops.cast(inverse, mstype.int32)) if return_inverse else values


def argwhere(a):
    return ops.argwhere(to_tensor(a, "mindspore.numpy.argwhere"))


def size(a, axis=None):
    op = "mindspore.numpy.size"
    a = to_tensor(a, op)
    if axis is None:
        return int(np.prod(a.shape, dtype=np.int64))
    return a.shape[check_axis(axis, a.ndim, op)]


def array_str(a):
    return str(to_tensor(a, "mindspore.numpy.array_str"))


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    op = "mindspore.numpy.apply_along_axis"
    arr = to_tensor(arr, op)
    ax = check_axis(axis, arr.ndim, op)
    moved = moveaxis(arr, ax, -1)
    lead = tuple(moved.shape[:-1])
    flat = ops.reshape(moved, (-1, moved.shape[-1]))
    results = [to_tensor(func1d(flat[i], *args, **kwargs), op) for i in range(flat.shape[0])]
    res = ops.stack(results, 0)
    res = ops.reshape(res, lead + tuple(res.shape[1:]))
    if res.ndim == len(lead):
        return res
    extra = res.ndim - len(lead)
    return moveaxis(res, tuple(range(len(lead), res.ndim)), tuple(range(ax, ax + extra)))


def apply_over_axes(func, a, axes):
    op = "mindspore.numpy.apply_over_axes"
    a = to_tensor(a, op)
    for ax in (axes if isinstance(axes, (tuple, list)) else (axes,)):
        ax = check_axis(ax, a.ndim, op)
        res = func(a, ax)
        if res.ndim == a.ndim - 1:
            res = ops.expand_dims(res, ax)
        elif res.ndim != a.ndim:
            raise ValueError(f"{op}: func must keep or drop exactly the given axis, got a {res.ndim}-D result")
        a = res
    return a


def piecewise(x, condlist, funclist, *args, **kw):
    op = "mindspore.numpy.piecewise"
    x = to_tensor(x, op)
    if isinstance(condlist, Tensor) and condlist.ndim == x.ndim:
        condlist = [condlist]
    conds = [ops.cast(to_tensor(c, op), mstype.bool_) for c in condlist]
    if len(funclist) not in (len(conds), len(conds) + 1):
        raise ValueError(f"{op}: {len(conds)} conditions need {len(conds)} or {len(conds) + 1} functions, got "
                         f"{len(funclist)}")
    if len(funclist) == len(conds) + 1:
        rest = ops.logical_not(ops.any(ops.stack(conds, 0), 0)) if conds else ops.ones_like(x, mstype.bool_)
        conds = conds + [rest]
    out = ops.zeros_like(x)
    for c, f in zip(conds, funclist):
        val = f(x, *args, **kw) if callable(f) else f
        val = to_tensor(val, op, x.dtype) if not isinstance(val, Tensor) else ops.cast(val, x.dtype)
        out = ops.select(ops.broadcast_to(c, x.shape), ops.broadcast_to(val, x.shape), out)
    return out


def unravel_index(indices, shape, order="C"):
    op = "mindspore.numpy.unravel_index"
    indices = to_tensor(indices, op)
    shape = check_shape(shape, op)
    if order not in ("C", "F"):
        raise ValueError(f"{op}: 'order' must be 'C' or 'F', got {order!r}")
    dims = shape if order == "C" else shape[::-1]
    out, rest = [], ops.cast(indices, mstype.int32)
    for d in reversed(dims):
        out.append(ops.floor_mod(rest, d))
        rest = ops.floor_div(rest, d)
    out = out[::-1] if order == "C" else out
    return tuple(out)


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """Float32 flat indices, as MindSpore 2.10 returns them."""
    op = "mindspore.numpy.ravel_multi_index"
    dims = check_shape(dims, op)
    idx = [ops.cast(to_tensor(i, op), mstype.int32) for i in multi_index]
    if len(idx) != len(dims):
        raise ValueError(f"{op}: {len(idx)} index arrays for {len(dims)} dimensions")
    if order not in ("C", "F"):
        raise ValueError(f"{op}: 'order' must be 'C' or 'F', got {order!r}")
    idx = [_mode_index(i, d, mode, op) for i, d in zip(idx, dims)]
    strides = np.cumprod((1,) + dims[::-1][:-1])[::-1] if order == "C" else np.cumprod((1,) + dims[:-1])
    total = None
    for i, s in zip(idx, strides):
        term = i * int(s)
        total = term if total is None else total + term
    return ops.cast(total, mstype.float32)
