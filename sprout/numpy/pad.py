"""mindspore.numpy.pad: NumPy's padding modes, one axis after another (as NumPy pads), each axis by gathers and
concatenations of the array so far, so gradients flow to every source element."""
from __future__ import annotations

import numpy as np

from .. import ops
from ..core.tensor import Tensor
from ._utils import to_tensor

_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric",
          "wrap", "empty")


def _per_axis(value, ndim, name, op, as_int=True):
    """NumPy's broadcasting of a pad argument to one (before, after) pair per axis."""
    if isinstance(value, Tensor):
        value = value.asnumpy().tolist()
    if not isinstance(value, (int, float, list, tuple, np.integer, np.floating)) or isinstance(value, bool):
        raise TypeError(f"{op}: '{name}' must be an int, list, tuple or Tensor, got {type(value).__name__}")
    arr = np.asarray(value, dtype=object if not as_int else None)
    if as_int:
        if arr.dtype.kind not in "iu":
            raise TypeError(f"{op}: '{name}' must hold ints, got {value!r}")
        arr = arr.astype(np.int64)
    try:
        pairs = np.broadcast_to(arr, (ndim, 2))
    except ValueError:
        raise ValueError(f"{op}: '{name}' {value!r} cannot be broadcast to ({ndim}, 2)") from None
    return [tuple(p) for p in pairs.tolist()]


def _block(x, ax, n, value):
    shape = list(x.shape)
    shape[ax] = n
    return ops.fill(x.dtype, tuple(shape), value) if not isinstance(value, Tensor) else ops.broadcast_to(
        value, tuple(shape))


def _take(x, ax, idx):
    return ops.gather(x, Tensor(np.asarray(idx, np.int32)), ax)


def _reflected(x, ax, lo, hi, symmetric, odd):
    """Reflect (or mirror with the edge repeated, ``symmetric``) by at most size-1 (size) elements per round,
    as NumPy does; ``odd`` reflects about the edge value."""
    while lo or hi:
        n = x.shape[ax]
        limit = n if symmetric else max(n - 1, 1)
        a, b = min(lo, limit), min(hi, limit)
        parts = []
        if a:
            src = np.arange(a)[::-1] + (0 if symmetric else 1) if n > 1 or symmetric else np.zeros(a, int)
            left = _take(x, ax, src)
            if odd:
                left = 2 * _take(x, ax, [0]) - left
            parts.append(left)
        parts.append(x)
        if b:
            src = (n - 1 - np.arange(b) - (0 if symmetric else 1)) if n > 1 or symmetric else np.zeros(b, int)
            right = _take(x, ax, src)
            if odd:
                right = 2 * _take(x, ax, [n - 1]) - right
            parts.append(right)
        x = ops.concat(parts, ax)
        lo, hi = lo - a, hi - b
    return x


def _stat(x, ax, lo, hi, length, fn):
    n = x.shape[ax]
    la = n if length[0] is None else max(1, min(int(length[0]), n))
    lb = n if length[1] is None else max(1, min(int(length[1]), n))
    parts = []
    if lo:
        parts.append(ops.broadcast_to(fn(ops.narrow(x, ax, 0, la), ax), _with(x, ax, lo)))
    parts.append(x)
    if hi:
        parts.append(ops.broadcast_to(fn(ops.narrow(x, ax, n - lb, lb), ax), _with(x, ax, hi)))
    return ops.concat(parts, ax)


def _with(x, ax, n):
    shape = list(x.shape)
    shape[ax] = n
    return tuple(shape)


def _median(x, ax):
    n = x.shape[ax]
    s = ops.sort(x, ax)[0]
    mid = ops.narrow(s, ax, (n - 1) // 2, 2 - n % 2)
    return ops.mean(mid, ax, True) if x.dtype.is_float else ops.cast(ops.mean(ops.cast(mid, "float32"), ax, True),
                                                                          x.dtype)


def _mean(x, ax):
    if x.dtype.is_float:
        return ops.mean(x, ax, True)
    return ops.cast(ops.round(ops.mean(ops.cast(x, "float32"), ax, True)), x.dtype)


def _ramp(x, ax, lo, hi, ends):
    n = x.shape[ax]
    parts = []
    view = [1] * x.ndim
    if lo:
        edge = ops.narrow(x, ax, 0, 1)
        view[ax] = lo
        t = Tensor((np.arange(lo) / lo).astype(np.float32).reshape(view))
        parts.append(ops.cast(ends[0] + (ops.cast(edge, "float32") - ends[0]) * t, x.dtype))
    parts.append(x)
    if hi:
        edge = ops.narrow(x, ax, n - 1, 1)
        view[ax] = hi
        t = Tensor(((hi - 1 - np.arange(hi)) / hi).astype(np.float32).reshape(view))
        parts.append(ops.cast(ends[1] + (ops.cast(edge, "float32") - ends[1]) * t, x.dtype))
    return ops.concat(parts, ax)


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0, reflect_type="even",
        **kwargs):
    """NumPy's ``pad`` (every mode but a callable one)."""
    op = "mindspore.numpy.pad"
    x = to_tensor(arr, op)
    if kwargs:
        raise TypeError(f"{op}: unexpected keyword arguments {sorted(kwargs)}")
    if mode not in _MODES:
        raise ValueError(f"{op}: mode {mode!r} is not supported; use one of {list(_MODES)}")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"{op}: reflect_type must be 'even' or 'odd', got {reflect_type!r}")
    widths = _per_axis(pad_width, x.ndim, "pad_width", op)
    if any(w < 0 for p in widths for w in p):
        raise ValueError(f"{op}: pad_width cannot be negative, got {pad_width!r}")
    consts = _per_axis(constant_values, x.ndim, "constant_values", op, as_int=False) if mode == "constant" else None
    if mode == "constant" and isinstance(constant_values, float):
        raise TypeError(f"{op}: constant_values must be an int, list, tuple or Tensor, got float "
                        "(MindSpore's rule; pass (v,) for a float value)")
    ends = _per_axis(end_values, x.ndim, "end_values", op, as_int=False) if mode == "linear_ramp" else None
    lengths = (_per_axis(stat_length, x.ndim, "stat_length", op) if stat_length is not None else
               [(None, None)] * x.ndim)
    for ax, (lo, hi) in enumerate(widths):
        if not lo and not hi:
            continue
        if mode in ("constant", "empty"):
            cl, ch = consts[ax] if consts else (0, 0)
            cl = int(cl) if x.dtype.is_int else cl
            ch = int(ch) if x.dtype.is_int else ch
            x = ops.concat(([_block(x, ax, lo, cl)] if lo else []) + [x] + ([_block(x, ax, hi, ch)] if hi else []),
                           ax)
        elif mode == "edge":
            n = x.shape[ax]
            x = _take(x, ax, np.clip(np.arange(-lo, n + hi), 0, n - 1))
        elif mode == "wrap":
            n = x.shape[ax]
            x = _take(x, ax, np.arange(-lo, n + hi) % n)
        elif mode in ("reflect", "symmetric"):
            x = _reflected(x, ax, lo, hi, mode == "symmetric", reflect_type == "odd")
        elif mode == "linear_ramp":
            x = _ramp(x, ax, lo, hi, [float(e) for e in ends[ax]])
        else:
            fn = {"maximum": lambda t, a: ops.amax(t, a, True), "minimum": lambda t, a: ops.amin(t, a, True),
                  "mean": _mean, "median": _median}[mode]
            x = _stat(x, ax, lo, hi, lengths[ax], fn)
    return x
