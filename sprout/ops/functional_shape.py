"""Functional shape manipulation and creation: slicing (slice, strided_slice), axis moves, stacking and splitting,
repeats, rolls and rotations, diagonals, meshgrid, windows, ranges and the scalar/tuple helpers."""
from __future__ import annotations

import builtins
import math

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from ._infer import check_axis
from .functional import _as_tensor

# ``slice`` and ``range`` shadow builtins: ``sprout.ops`` exports them explicitly, ``functional`` does not
__all__ = ["strided_slice", "reverse", "reverse_sequence", "roll", "rot90", "repeat_elements",
           "repeat_interleave", "meshgrid", "depth_to_space", "space_to_depth", "moveaxis", "movedim", "swapaxes",
           "swapdims", "t", "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "dstack", "column_stack",
           "row_stack", "hsplit", "vsplit", "dsplit", "tensor_split", "fliplr", "flipud", "ravel", "expand",
           "expand_as", "view_as", "type_as", "numel", "reshape_", "diag", "diag_embed", "diagflat", "diagonal",
           "tril_indices", "triu_indices", "cartesian_prod",
           "combinations", "vander", "logspace", "bartlett_window", "blackman_window", "hamming_window",
           "hann_window", "kaiser_window", "sequence_mask", "select", "fills", "zero_", "shape_", "dyn_shape", "eps",
           "tuple_to_array", "scalar_to_tensor", "scalar_cast", "scalar_to_array", "make_range", "channel_shuffle",
           "broadcast_tensors"]

_py_slice = slice
_range = builtins.range


def _static(v, op, what):
    """A Python int (or tuple of ints) from a value that may be a Tensor (its value must be known)."""
    if isinstance(v, Tensor):
        from .host_ops import is_symbolic

        if is_symbolic(v):
            raise TypeError(f"{op}: {what} must be known while the graph is compiled; pass Python ints")
        v = v.asnumpy().tolist()
    return v


def slice(input_x, begin, size):  # noqa: A001 - MindSpore's name
    """``input_x[begin[i] : begin[i] + size[i]]`` on every axis; a size of -1 takes the rest of the axis."""
    x = _as_tensor(input_x, "Slice")
    begin, size = tuple(_static(begin, "Slice", "begin")), tuple(_static(size, "Slice", "size"))
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(f"Slice: begin {begin} and size {size} must have one entry per axis of {list(x.shape)}")
    index = []
    for b, s, n in zip(begin, size, x.shape):
        end = n if s == -1 else b + s
        if b < 0 or s < -1 or end > n:
            raise ValueError(f"Slice: begin {begin} / size {size} fall outside the shape {list(x.shape)}")
        index.append(_py_slice(b, end))
    return x[tuple(index)]


def _bits(mask: int, i: int) -> bool:
    return bool((int(mask) >> i) & 1)


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                  shrink_axis_mask=0):
    """TensorFlow-style strided slicing: bit i of a mask changes the meaning of entry i of begin/end/strides
    (begin/end ignored, an ellipsis, a new axis, or an index that removes the axis)."""
    x = _as_tensor(input_x, "StridedSlice")
    begin = tuple(_static(begin, "StridedSlice", "begin"))
    end = tuple(_static(end, "StridedSlice", "end"))
    strides = tuple(_static(strides, "StridedSlice", "strides"))
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"StridedSlice: begin {begin}, end {end} and strides {strides} must have one length")
    if any(s == 0 for s in strides):
        raise ValueError(f"StridedSlice: strides must be non-zero, got {strides}")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if _bits(ellipsis_mask, i):
            index.append(Ellipsis)
        elif _bits(new_axis_mask, i):
            index.append(None)
        elif _bits(shrink_axis_mask, i):
            index.append(int(b))
        else:
            index.append(_py_slice(None if _bits(begin_mask, i) else int(b), None if _bits(end_mask, i) else int(e),
                                   int(s)))
    return x[tuple(index)]


def reverse(x, axis):
    return F.flip(x, axis)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Reverse the first seq_lengths[b] entries along ``seq_dim`` of every batch entry b (along ``batch_dim``)."""
    t = _as_tensor(x, "ReverseSequence")
    lengths = _as_tensor(seq_lengths, "ReverseSequence")
    if not lengths.dtype.is_int:
        raise TypeError(f"ReverseSequence: seq_lengths must be an integer tensor, got {lengths.dtype}")
    sd, bd = seq_dim % t.ndim, batch_dim % t.ndim
    n = t.shape[sd]
    pos = F.reshape(F.arange(0, n, dtype=lengths.dtype), (1, n))
    ln = F.reshape(lengths, (-1, 1))
    src = F.where(F.less(pos, ln), F.sub(F.sub(ln, 1), pos), F.broadcast_to(pos, (lengths.shape[0], n)))
    shape = [1] * t.ndim
    shape[bd], shape[sd] = t.shape[bd], n
    order = (0, 1) if bd < sd else (1, 0)
    src = F.transpose(src, order) if order != (0, 1) else src
    idx = F.broadcast_to(F.reshape(src, tuple(shape)), tuple(t.shape))
    return F.gather_elements(t, sd, idx)


def roll(input, shifts, dims=None):  # noqa: A002
    """Shift elements along ``dims`` (the flattened tensor when None), wrapping around."""
    x = _as_tensor(input, "Roll")
    if dims is None:
        return F.reshape(roll(F.reshape(x, (-1,)), shifts, 0), tuple(x.shape))
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(shifts) != len(dims):
        raise ValueError(f"Roll: shifts {shifts} and dims {dims} must have one length")
    dims = tuple(check_axis("Roll", d, x.ndim) for d in dims)
    for s, d in zip(shifts, dims):
        n = x.shape[d]
        if n == 0:
            continue
        k = s % n
        if k:
            idx = [_py_slice(None)] * x.ndim
            idx[d] = _py_slice(n - k, None)
            head = x[tuple(idx)]
            idx[d] = _py_slice(0, n - k)
            x = F.concat([head, x[tuple(idx)]], d)
    return x


def rot90(input, k, dims):  # noqa: A002
    """Rotate by 90 degrees k times in the plane of ``dims`` (from the first axis towards the second)."""
    x = _as_tensor(input, "rot90")
    d0, d1 = (d % x.ndim for d in dims)
    if d0 == d1 or len(dims) != 2:
        raise ValueError(f"rot90: dims must be two different axes, got {dims}")
    k %= 4
    perm = list(_range(x.ndim))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    if k == 1:
        return F.transpose(F.flip(x, (d1,)), tuple(perm))
    if k == 2:
        return F.flip(x, (d0, d1))
    if k == 3:
        return F.flip(F.transpose(x, tuple(perm)), (d1,))
    return x


def repeat_interleave(input, repeats, axis=None):  # noqa: A002
    """Repeat each element ``repeats`` times (an int, or one count per element) along ``axis`` (flattened when
    None)."""
    x = _as_tensor(input, "repeat_interleave")
    if axis is None:
        x, axis = F.reshape(x, (-1,)), 0
    axis = check_axis("repeat_interleave", axis, x.ndim)
    reps = _static(repeats, "repeat_interleave", "repeats")
    n = x.shape[axis]
    counts = np.full(n, reps) if isinstance(reps, int) else np.asarray(reps).reshape(-1)
    if counts.size == 1 and n != 1:
        counts = np.full(n, int(counts[0]))
    if counts.size != n or np.any(counts < 0):
        raise ValueError(f"repeat_interleave: repeats must be one non-negative count per element ({n}), got {reps}")
    return F.gather(x, Tensor(np.repeat(np.arange(n), counts).astype(np.int32)), axis)


def repeat_elements(x, rep, axis=0):
    if not isinstance(rep, int) or rep < 0:
        raise TypeError(f"repeat_elements: rep must be a non-negative int, got {rep!r}")
    return repeat_interleave(x, rep, axis)


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D tensors ('xy': the first two outputs' axes swapped, as NumPy)."""
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    xs = [_as_tensor(t, "Meshgrid") for t in inputs]
    if any(t.ndim != 1 for t in xs):
        raise ValueError("Meshgrid: every input must be 1-D")
    shape = [t.shape[0] for t in xs]
    if indexing == "xy" and len(xs) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, t in enumerate(xs):
        axis = (1 if i == 0 else 0 if i == 1 else i) if indexing == "xy" and len(xs) >= 2 else i
        view = [1] * len(xs)
        view[axis] = t.shape[0]
        out.append(F.broadcast_to(F.reshape(t, tuple(view)), tuple(shape)))
    return tuple(out)


def depth_to_space(x, block_size):
    """NCHW: (N, C*b*b, H, W) -> (N, C, H*b, W*b), the depth split as (b, b, C)."""
    t = _as_tensor(x, "DepthToSpace")
    n, c, h, w = t.shape
    b = int(block_size)
    if b < 2 or c % (b * b):
        raise ValueError(f"DepthToSpace: block_size {b} must be >= 2 and divide channels {c} by block_size^2")
    y = F.reshape(t, (n, b, b, c // (b * b), h, w))
    return F.reshape(F.transpose(y, (0, 3, 4, 1, 5, 2)), (n, c // (b * b), h * b, w * b))


def space_to_depth(x, block_size):
    """NCHW: (N, C, H*b, W*b) -> (N, C*b*b, H, W), the inverse of depth_to_space."""
    t = _as_tensor(x, "SpaceToDepth")
    n, c, h, w = t.shape
    b = int(block_size)
    if b < 2 or h % b or w % b:
        raise ValueError(f"SpaceToDepth: block_size {b} must be >= 2 and divide height {h} and width {w}")
    y = F.reshape(t, (n, c, h // b, b, w // b, b))
    return F.reshape(F.transpose(y, (0, 3, 5, 1, 2, 4)), (n, c * b * b, h // b, w // b))


def channel_shuffle(x, groups):
    t = _as_tensor(x, "ChannelShuffle")
    n, c = t.shape[:2]
    if c % groups:
        raise ValueError(f"ChannelShuffle: channels {c} must divide by groups {groups}")
    y = F.reshape(t, (n, groups, c // groups) + tuple(t.shape[2:]))
    return F.reshape(F.transpose(y, (0, 2, 1) + tuple(_range(3, t.ndim + 1))), tuple(t.shape))


# ---- axes --------------------------------------------------------------------------------------------------------
def moveaxis(x, source, destination):
    t = _as_tensor(x, "moveaxis")
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [check_axis("moveaxis", s, t.ndim) for s in src]
    dst = [check_axis("moveaxis", d, t.ndim) for d in dst]
    order = [i for i in _range(t.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return F.transpose(t, tuple(order))


movedim = moveaxis


def swapaxes(input, axis0, axis1):  # noqa: A002
    t = _as_tensor(input, "swapaxes")
    perm = list(_range(t.ndim))
    a, b = check_axis("swapaxes", axis0, t.ndim), check_axis("swapaxes", axis1, t.ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return F.transpose(t, tuple(perm))


swapdims = swapaxes


def t(input):  # noqa: A002
    """Transpose a tensor of rank <= 2."""
    x = _as_tensor(input, "t")
    if x.ndim > 2:
        raise ValueError(f"t: expects a tensor of rank <= 2, got shape {list(x.shape)}")
    return F.transpose(x, (1, 0)) if x.ndim == 2 else x


def _atleast(n):
    def fn(inputs):
        def one(x):
            x = _as_tensor(x, f"atleast_{n}d")
            if x.ndim >= n:
                return x
            if n == 3 and x.ndim == 2:
                return F.expand_dims(x, -1)
            if n == 3 and x.ndim == 1:
                return F.reshape(x, (1, x.shape[0], 1))
            return F.reshape(x, (1,) * (n - x.ndim) + tuple(x.shape))

        if isinstance(inputs, (tuple, list)):
            return tuple(one(x) for x in inputs)
        return one(inputs)

    fn.__name__ = f"atleast_{n}d"
    return fn


atleast_1d, atleast_2d, atleast_3d = _atleast(1), _atleast(2), _atleast(3)


def hstack(tensors):
    xs = atleast_1d(list(tensors))
    return F.concat(xs, 0 if xs[0].ndim == 1 else 1)


def vstack(inputs):
    return F.concat(atleast_2d(list(inputs)), 0)


row_stack = vstack


def dstack(tensors):
    return F.concat(atleast_3d(list(tensors)), 2)


def column_stack(tensors):
    cols = []
    for x in tensors:
        x = _as_tensor(x, "column_stack")
        cols.append(F.reshape(x, (-1, 1)) if x.ndim < 2 else x)
    return F.concat(cols, 1)


def tensor_split(input, indices_or_sections, axis=0):  # noqa: A002
    """Split into ``n`` nearly equal parts (the first ones one longer) or at the given indices."""
    x = _as_tensor(input, "tensor_split")
    axis %= x.ndim
    size = x.shape[axis]
    ios = _static(indices_or_sections, "tensor_split", "indices_or_sections")
    if isinstance(ios, int):
        if ios <= 0:
            raise ValueError(f"tensor_split: sections must be positive, got {ios}")
        q, r = divmod(size, ios)
        bounds = np.cumsum([0] + [q + 1] * r + [q] * (ios - r))
    else:
        bounds = [0] + [min(max(int(i), 0), size) for i in ios] + [size]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        idx = [_py_slice(None)] * x.ndim
        idx[axis] = _py_slice(int(lo), int(max(hi, lo)))
        out.append(x[tuple(idx)])
    return tuple(out)


def _split_along(axis, min_rank, name):
    def fn(input, indices_or_sections):  # noqa: A002
        x = _as_tensor(input, name)
        if x.ndim < min_rank:
            raise ValueError(f"{name}: expects a tensor of rank >= {min_rank}, got shape {list(x.shape)}")
        ax = 0 if name == "hsplit" and x.ndim == 1 else axis
        if isinstance(indices_or_sections, int) and x.shape[ax] % indices_or_sections:
            raise ValueError(f"{name}: axis {ax} of size {x.shape[ax]} does not divide into {indices_or_sections}")
        return tensor_split(x, indices_or_sections, ax)

    fn.__name__ = name
    return fn


hsplit = _split_along(1, 1, "hsplit")
vsplit = _split_along(0, 2, "vsplit")
dsplit = _split_along(2, 3, "dsplit")


def fliplr(input):  # noqa: A002
    return F.flip(input, (1,))


def flipud(input):  # noqa: A002
    return F.flip(input, (0,))


def ravel(input):  # noqa: A002
    return F.reshape(input, (-1,))


def expand(input_x, size):
    """Broadcast to ``size``; -1 keeps an axis."""
    x = _as_tensor(input_x, "expand")
    size = tuple(_static(size, "expand", "size"))
    lead = len(size) - x.ndim
    target = tuple(x.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(size))
    return F.broadcast_to(x, target)


def expand_as(input, other):  # noqa: A002
    return F.broadcast_to(input, tuple(other.shape))


def view_as(input, other):  # noqa: A002
    return F.reshape(input, tuple(other.shape))


def type_as(input, other):  # noqa: A002
    return F.cast(input, other.dtype)


def numel(input):  # noqa: A002
    return _as_tensor(input, "numel").size


def reshape_(x, shape):
    return F.reshape(x, shape)


def broadcast_tensors(*tensors):
    shape = np.broadcast_shapes(*[tuple(_as_tensor(t, "broadcast_tensors").shape) for t in tensors])
    return tuple(F.broadcast_to(t, shape) for t in tensors)


# ---- diagonals ----------------------------------------------------------------------------------------------------
def _diag_matrix(v, offset=0):
    """(..., n) -> (..., n + |offset|, n + |offset|) with v on diagonal ``offset``."""
    n = v.shape[-1]
    m = n + abs(offset)
    select = np.zeros((n, m * m), v.dtype.np)
    rows = np.arange(n) + max(-offset, 0)
    select[np.arange(n), rows * m + rows + offset] = 1
    return F.reshape(F.matmul(v, Tensor(select)), tuple(v.shape[:-1]) + (m, m))


def diag(input):  # noqa: A002
    """A 1-D input becomes a diagonal matrix; an N-D input of shape D becomes a tensor of shape D + D."""
    x = _as_tensor(input, "Diag")
    if x.ndim == 0:
        raise ValueError("Diag: the input must have rank >= 1")
    flat = F.reshape(x, (-1,))
    return F.reshape(_diag_matrix(flat), tuple(x.shape) * 2)


def diagflat(input, offset=0):  # noqa: A002
    return _diag_matrix(F.reshape(_as_tensor(input, "diagflat"), (-1,)), offset)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):  # noqa: A002
    x = _as_tensor(input, "diag_embed")
    out = _diag_matrix(x, offset)
    nd = out.ndim
    d1, d2 = dim1 % nd, dim2 % nd
    if d1 == d2:
        raise ValueError("diag_embed: dim1 and dim2 must differ")
    rest = [i for i in _range(nd - 2)]
    perm = [0] * nd
    order = iter(rest)
    for i in _range(nd):
        perm[i] = nd - 2 if i == d1 else nd - 1 if i == d2 else next(order)
    return F.transpose(out, tuple(perm))


def diagonal(input, offset=0, dim1=0, dim2=1):  # noqa: A002
    """The diagonal ``offset`` of the planes (dim1, dim2), moved to the last axis."""
    x = _as_tensor(input, "diagonal")
    d1, d2 = check_axis("diagonal", dim1, x.ndim), check_axis("diagonal", dim2, x.ndim)
    if d1 == d2:
        raise ValueError("diagonal: dim1 and dim2 must differ")
    perm = [i for i in _range(x.ndim) if i not in (d1, d2)] + [d1, d2]
    xt = F.transpose(x, tuple(perm))
    n1, n2 = x.shape[d1], x.shape[d2]
    rows = np.arange(max(0, -offset), max(max(0, -offset), min(n1, n2 - offset)))
    flat = F.reshape(xt, tuple(xt.shape[:-2]) + (n1 * n2,))
    return F.gather(flat, Tensor((rows * n2 + rows + offset).astype(np.int32)), xt.ndim - 2)


def _tri_indices(row, col, offset, dtype, upper):
    r, c = (np.triu_indices if upper else np.tril_indices)(row, offset, col)
    return Tensor(np.stack([r, c]).astype(mstype.to_dtype(dtype).np))


def tril_indices(row, col, offset=0, *, dtype=mstype.int64):
    return _tri_indices(row, col, offset, dtype, False)


def triu_indices(row, col, offset=0, *, dtype=mstype.int64):
    return _tri_indices(row, col, offset, dtype, True)


def cartesian_prod(*inputs):
    grids = meshgrid(*inputs, indexing="ij")
    return F.stack([F.reshape(g, (-1,)) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):  # noqa: A002
    import itertools

    x = _as_tensor(input, "combinations")
    if x.ndim != 1:
        raise ValueError(f"combinations: expects a 1-D tensor, got shape {list(x.shape)}")
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.array(list(pick(_range(x.shape[0]), r)), np.int32).reshape(-1, r)
    return F.gather(x, Tensor(idx), 0)


def vander(x, N=None):  # noqa: N803
    """Columns x^(N-1), ..., x^0."""
    t = _as_tensor(x, "vander")
    n = t.shape[0] if N is None else int(N)
    powers = Tensor(np.arange(n - 1, -1, -1).astype(t.dtype.np))
    return F.pow(F.expand_dims(t, 1), powers)


# ---- creation -----------------------------------------------------------------------------------------------------
def range(start, end, step, maxlen=1000000):  # noqa: A001
    """MindSpore's ``ops.range``: like arange, the dtype of the arguments (Int64 for ints)."""
    n = math.ceil((float(_num(end)) - float(_num(start))) / float(_num(step))) if float(_num(step)) else -1
    if n > maxlen:
        raise ValueError(f"range: {n} elements exceed maxlen={maxlen}")
    dts = [v.dtype for v in (start, end, step) if isinstance(v, Tensor)]
    return F.arange(_num(start), _num(end), _num(step), dtype=dts[0] if dts else None)


def _num(v):
    return v.item() if isinstance(v, Tensor) else v


def logspace(start, end, steps, base=10, *, dtype=mstype.float32):
    exps = F.linspace(float(_num(start)), float(_num(end)), int(_num(steps)))
    return F.cast(F.pow(float(base), exps), dtype)


def _window(length, periodic, dtype, fn, default=mstype.float32):
    """``fn(n)`` cut to ``length`` (periodic windows drop the last sample of a length+1 window); MindSpore's
    default dtype is Float32, but Float64 for hann and kaiser windows."""
    dtype = dtype or default
    length = _static(length, "window", "window_length")
    if not isinstance(length, int) or length < 0:
        raise ValueError(f"window: window_length must be a non-negative int, got {length!r}")
    if length <= 1:
        return Tensor(np.ones((length,), mstype.to_dtype(dtype).np))
    n = length + 1 if periodic else length
    w = fn(n)[:length]
    return Tensor(w.astype(mstype.to_dtype(dtype).np))


def bartlett_window(window_length, periodic=True, *, dtype=None):
    return _window(window_length, periodic, dtype, np.bartlett)


def blackman_window(window_length, periodic=True, *, dtype=None):
    return _window(window_length, periodic, dtype, np.blackman)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    return _window(window_length, periodic, dtype,
                   lambda n: alpha - beta * np.cos(2 * np.pi * np.arange(n) / (n - 1)))


def hann_window(window_length, periodic=True, *, dtype=None):
    return _window(window_length, periodic, dtype, np.hanning, mstype.float64)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    return _window(window_length, periodic, dtype, lambda n: np.kaiser(n, beta), mstype.float64)


def sequence_mask(lengths, maxlen=None):
    """mask[..., j] = j < lengths[...]."""
    ln = _as_tensor(lengths, "SequenceMask")
    if not ln.dtype.is_int:
        raise TypeError(f"SequenceMask: lengths must be an integer tensor, got {ln.dtype}")
    if maxlen is None:  # the width is the largest length: a run-time size
        from ..core.dispatch import bind
        from .array_extra import SEQUENCE_MASK

        return bind(SEQUENCE_MASK, (ln,), {})
    return F.less(F.arange(0, int(_static(maxlen, "SequenceMask", "maxlen")), dtype=ln.dtype), F.expand_dims(ln, -1))


def select(condition, input, other):  # noqa: A002
    return F.where(condition, input, other)


def fills(x, value):
    return F.full_like(x, value)


def zero_(input):  # noqa: A002
    """Fill with zeros in place (the tensor's memory is written; returned too)."""
    from .functional_gather import write_inplace

    return write_inplace(input, F.zeros_like(input), "zero_")


def shape_(x):
    return tuple(x.shape)


def dyn_shape(input_x):
    return Tensor(np.asarray(input_x.shape, np.int64))


def eps(x):
    """A tensor of x's shape holding its dtype's machine epsilon."""
    t = _as_tensor(x, "Eps")
    if not t.dtype.is_float:
        raise TypeError(f"Eps: expects a float tensor, got {t.dtype}")
    return F.full_like(t, float(np.finfo(t.dtype.np).eps))


# ---- scalars and tuples ---------------------------------------------------------------------------------------------
def tuple_to_array(input_x):
    """A tuple of numbers as a 1-D tensor (Float32 if any is a float, else Int32, as MindSpore gives)."""
    if not isinstance(input_x, (tuple, list)) or not input_x:
        raise TypeError(f"tuple_to_array: expects a non-empty tuple of numbers, got {input_x!r}")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in input_x):
        raise TypeError(f"tuple_to_array: every element must be an int or a float, got {input_x!r}")
    floats = any(isinstance(v, float) for v in input_x)
    return Tensor(np.asarray(input_x, np.float32 if floats else np.int32))


def scalar_to_tensor(input_x, dtype=mstype.float32):
    if getattr(input_x, "py_kind", None) is not None:  # a variable scalar of a graph (float(t) under jit)
        from .functional import cast, identity

        return identity(cast(input_x, mstype.to_dtype(dtype)))  # a fresh tensor, no longer a Python scalar
    if not isinstance(input_x, (bool, int, float)):
        raise TypeError(f"scalar_to_tensor: expects a Python number, got {type(input_x).__name__}")
    return Tensor(input_x, dtype=mstype.to_dtype(dtype))


def scalar_to_array(input_x):
    return Tensor(input_x)


def scalar_cast(input_x, input_y):
    """A Python number converted to the type ``input_y`` names: ms.int64, ms.float64 or ms.bool_ (MindSpore's
    ScalarCast supports only these)."""
    dt = mstype.to_dtype(input_y)
    if dt not in (mstype.int64, mstype.float64, mstype.bool_):
        raise ValueError(f"ScalarCast: the target type must be int64, float64 or bool, got {dt}")
    if dt is mstype.bool_:
        return bool(input_x)
    return int(input_x) if dt.is_int else float(input_x)


def make_range(start, limit=None, delta=1):
    """The tuple range(start, limit, delta) (start alone means range(0, start))."""
    if limit is None:
        start, limit = 0, start
    for v in (start, limit, delta):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"make_range: arguments must be ints, got {v!r}")
    if delta == 0:
        raise ValueError("make_range: delta must not be zero")
    return tuple(_range(start, limit, delta))
