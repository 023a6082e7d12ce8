"""Functional API of the array primitives: gather, tile, cumsum, sort/topk, flip, pad, one_hot, split."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import array_ops as A
from ._infer import check_alloc, check_axis
from .functional import _as_tensor, cast, split_sizes

__all__ = ["gather", "gather_elements", "tile", "cumsum", "flip", "sort", "argsort", "topk", "pad", "one_hot",
           "arange", "linspace", "split", "chunk", "unstack", "unbind", "narrow"]


def _int_tensor(x, op: str):
    t = x if isinstance(x, Tensor) else Tensor(np.asarray(x))
    if not t.dtype.is_int:
        raise TypeError(f"{op}: indices must be an integer tensor, got {t.dtype}")
    return t


def gather(input_params, input_indices, axis, batch_dims=0):
    """MindSpore's ``ops.gather``: slices of ``input_params`` along ``axis`` at ``input_indices``."""
    x = _as_tensor(input_params, "Gather")
    idx = _int_tensor(input_indices, "Gather")
    check_axis("Gather", axis, x.ndim)
    return bind(A.GATHER, (x, idx), {"axis": int(axis), "batch_dims": int(batch_dims)})


def gather_grad(dout, indices, shape, axis=0, batch_dims=0):
    return bind(A.GATHER_GRAD, (dout, indices), {"shape": tuple(shape), "axis": int(axis),
                                                 "batch_dims": int(batch_dims)})


def gather_elements(input, dim, index):  # noqa: A002
    """MindSpore's ``ops.gather_elements`` (GatherD): ``out[i][j] = input[index[i][j]][j]`` for dim 0."""
    x = _as_tensor(input, "GatherD")
    return bind(A.GATHER_D, (x, _int_tensor(index, "GatherD")), {"dim": check_axis("GatherD", dim, x.ndim)})


def gather_d_grad(dout, index, shape, dim):
    return bind(A.GATHER_D_GRAD, (dout, index), {"shape": tuple(shape), "dim": int(dim)})


def tile(input, dims):  # noqa: A002
    if isinstance(dims, int) or not all(isinstance(d, int) for d in dims):
        raise TypeError(f"tile: dims must be a tuple of ints, got {dims!r}")
    x = _as_tensor(input, "Tile")
    if any(d < 0 for d in dims):
        raise ValueError(f"Tile: multiples must be non-negative ints, got {tuple(dims)}")
    lead = len(dims) - x.ndim
    shape = (1,) * max(lead, 0) + tuple(x.shape)
    mult = (1,) * max(-lead, 0) + tuple(dims)
    check_alloc("Tile", tuple(None if s is None else s * m for s, m in zip(shape, mult)), x.dtype)
    return bind(A.TILE, (x,), {"multiples": tuple(dims)})


def cumsum(x, axis, dtype=None):
    t = _as_tensor(x, "CumSum")
    if dtype is not None:
        t = cast(t, dtype)
    if t.dtype is mstype.bool_:
        raise TypeError("CumSum: a Bool tensor cannot be summed cumulatively; pass dtype= or cast it first")
    return cumsum_raw(t, int(axis))


def cumsum_raw(x, axis, exclusive=False, reverse=False):
    axis = check_axis("CumSum", axis, x.ndim)
    return bind(A.CUMSUM, (x,), {"axis": axis, "exclusive": bool(exclusive),
                                 "reverse": bool(reverse)})


def flip(input, dims):  # noqa: A002
    x = _as_tensor(input, "ReverseV2")
    if not isinstance(dims, (tuple, list)) or any(isinstance(d, bool) or not isinstance(d, int) for d in dims):
        raise TypeError(f"ReverseV2: dims must be a tuple or list of ints, got {dims!r}")
    nd = max(x.ndim, 1)
    bad = [d for d in dims if not -nd <= d < nd]
    if bad:
        raise ValueError(f"ReverseV2: dims {bad} are out of range for a {x.ndim}-d input")
    return bind(A.FLIP, (x,), {"dims": tuple(d % max(x.ndim, 1) for d in dims)})


def sort(input_x, axis=-1, descending=False):
    """Returns (sorted values, Int32 indices)."""
    x = _as_tensor(input_x, "Sort")
    return bind(A.SORT, (x,), {"axis": int(axis), "descending": bool(descending)})


def argsort(input, axis=-1, descending=False):  # noqa: A002
    return sort(input, axis, descending)[1]


def topk(input, k, dim=None, largest=True, sorted=True):  # noqa: A002
    """Returns (values, Int32 indices) of the k largest (or smallest) entries along ``dim`` (default last)."""
    x = _as_tensor(input, "TopK")
    A.check_topk(x, k, -1 if dim is None else dim)
    return bind(A.TOPK, (x,), {"k": int(k), "axis": -1 if dim is None else int(dim), "largest": bool(largest),
                               "sorted": bool(sorted)})


def pad(input_x, padding, mode="constant", value=None):
    """MindSpore's ``ops.pad``: ``padding`` pairs run from the last axis backwards, (left, right, top, bottom...);
    mode 'constant' (``value``), 'reflect', 'replicate' or 'circular'."""
    if mode != "constant":
        from .pad_nd import pad_last

        modes = {"reflect": "reflect", "replicate": "edge", "circular": "circular"}
        if mode not in modes:
            raise ValueError(f"pad: mode must be 'constant', 'reflect', 'replicate' or 'circular', got {mode!r}")
        if value is not None:
            raise ValueError(f"pad: value applies to mode 'constant' only, got mode {mode!r}")
        return pad_last(_as_tensor(input_x, "Pad"), padding, modes[mode])
    x = _as_tensor(input_x, "Pad")
    padding = tuple(padding)
    if len(padding) % 2 or len(padding) // 2 > x.ndim:
        raise ValueError(f"pad: padding {padding} must hold (before, after) pairs for at most {x.ndim} axes")
    pairs = [(0, 0)] * x.ndim
    for i in range(len(padding) // 2):
        pairs[x.ndim - 1 - i] = (int(padding[2 * i]), int(padding[2 * i + 1]))
    return pad_raw(x, tuple(pairs), 0 if value is None else value)


def pad_raw(x, paddings, value=0):
    return bind(A.PAD, (x,), {"paddings": tuple(paddings), "value": value})


def one_hot(indices, depth, on_value=1, off_value=0, axis=-1, *, labels_of=None):
    """One-hot encoding; the result's dtype is the on_value's (Int64 for the default 1). ``labels_of`` (a loss's
    name): the indices are class labels, and one outside [0, depth) is a RuntimeError naming that loss."""
    idx = _int_tensor(indices, "OneHot")
    A.check_depth(depth)
    if isinstance(on_value, Tensor):
        dt, on_value = on_value.dtype, on_value.item()
    else:
        dt = mstype.scalar_dtype(on_value)
    off_value = off_value.item() if isinstance(off_value, Tensor) else off_value
    attrs = {"depth": int(depth), "on_value": on_value, "off_value": off_value, "axis": int(axis), "dtype": dt}
    if labels_of:
        attrs["labels_of"] = labels_of
    return bind(A.ONE_HOT, (idx,), attrs)


def _num(v):
    return v.item() if isinstance(v, Tensor) else v


def arange(start=0, end=None, step=1, *, dtype=None):
    """Int64 for int arguments, Float32 when any is a float (MindSpore's rule)."""
    start, end, step = _num(start), _num(end), _num(step)
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = mstype.float32 if any(isinstance(v, float) for v in (start, end, step)) else mstype.int64
    return bind(A.RANGE, (), {"start": start, "end": end, "step": step, "dtype": mstype.to_dtype(dtype)})


def linspace(start, end, steps):
    return bind(A.LINSPACE, (), {"start": float(_num(start)), "end": float(_num(end)), "steps": int(_num(steps)),
                                 "dtype": mstype.float32})


def split(tensor, split_size_or_sections, axis=0):
    """MindSpore 2.x ``ops.split``: chunks of ``split_size_or_sections`` (the last may be smaller) or the
    given list of section sizes, along ``axis``; returns a tuple."""
    x = _as_tensor(tensor, "Split")
    axis = check_axis("Split", axis, x.ndim)
    n = x.shape[axis]
    if isinstance(split_size_or_sections, int) and not isinstance(split_size_or_sections, bool):
        size = split_size_or_sections
        if size <= 0:
            raise ValueError(f"split: split_size_or_sections must be positive, got {size}")
        sizes = [size] * (n // size) + ([n % size] if n % size else [])
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != n:
            raise ValueError(f"split: sections {sizes} do not add up to {n}, the size of axis {axis} of "
                             f"shape {list(x.shape)}")
    return tuple(split_sizes(x, sizes or [0], axis))


def chunk(input, chunks, axis=0):  # noqa: A002
    x = _as_tensor(input, "Split")
    n = x.shape[int(axis) % max(x.ndim, 1)]
    if not isinstance(chunks, int) or chunks <= 0:
        raise ValueError(f"chunk: chunks must be a positive int, got {chunks!r}")
    size = -(-n // chunks)
    return split(x, max(size, 1), axis)


def unstack(input_x, axis=0):
    from .functional import squeeze

    x = _as_tensor(input_x, "Unstack")
    return tuple(squeeze(p, axis) for p in split(x, 1, axis))


unbind = unstack


def narrow(input, axis, start, length):  # noqa: A002
    x = _as_tensor(input, "Narrow")
    if isinstance(axis, bool) or not isinstance(axis, int) or not -x.ndim <= axis < max(x.ndim, 1):
        raise ValueError(f"Narrow: axis {axis!r} is out of range for a {x.ndim}-d input")
    size = x.shape[axis]
    if isinstance(start, bool) or not isinstance(start, int) or not -size <= start <= size:
        raise ValueError(f"Narrow: start {start!r} is out of range for size {size} of axis {axis}")
    if start < 0:
        start += size
    if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= size - start:
        raise ValueError(f"Narrow: length {length!r} must be in [0, {size - start}] (start {start}, size {size})")
    index = [slice(None)] * x.ndim
    index[axis] = slice(start, start + length)
    return x[tuple(index)]
