"""mindspore.mint shape, indexing, sorting and set functions, creation and random functions (PyTorch-style names:
``dim``, ``keepdim``, ``size``; Int64 indices)."""
from __future__ import annotations

import builtins

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ._math import _red_dims, _t


def _dim(x, dim, name, extra=0):
    nd = x.ndim + extra
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"mint.{name}: 'dim' must be an int, got {type(dim).__name__} {dim!r}")
    if not -builtins.max(nd, 1) <= dim < builtins.max(nd, 1):
        raise ValueError(f"mint.{name}: dim {dim} is out of range [{-builtins.max(nd, 1)}, "
                         f"{builtins.max(nd, 1)})")
    return int(dim) % builtins.max(nd, 1)


def _same_dtype(tensors, name):
    xs = [_t(t, name) for t in tensors]
    if not xs:
        raise ValueError(f"mint.{name}: needs at least one Tensor")
    dt = xs[0].dtype
    for x in xs[1:]:
        dt = mstype.promote(dt, x.dtype)
    return [x if x.dtype is dt else ops.cast(x, dt) for x in xs]


def cat(tensors, dim=0):
    """Concatenate along ``dim``; inputs of different dtypes are promoted (as PyTorch)."""
    xs = _same_dtype(tensors, "cat")
    return ops.concat(xs, _dim(xs[0], dim, "cat"))


concat = cat


def stack(tensors, dim=0):
    xs = _same_dtype(tensors, "stack")
    return ops.stack(xs, _dim(xs[0], dim, "stack", extra=1))


def hstack(tensors):
    xs = _same_dtype(tensors, "hstack")
    return ops.hstack(xs)


def dstack(tensors):
    return ops.dstack(_same_dtype(tensors, "dstack"))


def split(tensor, split_size_or_sections, dim=0):
    """An int is the size of each chunk (the last may be smaller); a list gives every chunk's size."""
    x = _t(tensor, "split")
    d = _dim(x, dim, "split")
    n = x.shape[d]
    if isinstance(split_size_or_sections, (int, np.integer)) and not isinstance(split_size_or_sections, bool):
        size = int(split_size_or_sections)
        if size <= 0:
            raise ValueError(f"mint.split: split_size must be > 0, got {size}")
        sizes = [size] * (n // size) + ([n % size] if n % size else [])
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if builtins.sum(sizes) != n:
            raise ValueError(f"mint.split: sections {sizes} do not add up to dim {d} of length {n}")
    return tuple(ops.split(x, sizes, d))


def chunk(input, chunks, dim=0):  # noqa: A002
    x = _t(input, "chunk")
    d = _dim(x, dim, "chunk")
    if isinstance(chunks, bool) or not isinstance(chunks, int) or chunks <= 0:
        raise ValueError(f"mint.chunk: 'chunks' must be a positive int, got {chunks!r}")
    size = -(-x.shape[d] // chunks)
    return split(x, builtins.max(size, 1), d)


def unbind(input, dim=0):  # noqa: A002
    x = _t(input, "unbind")
    return tuple(ops.unbind(x, _dim(x, dim, "unbind")))


def narrow(input, dim, start, length):  # noqa: A002
    x = _t(input, "narrow")
    d = _dim(x, dim, "narrow")
    n = x.shape[d]
    if start < 0:
        start += n
    if not 0 <= start <= n or length < 0 or start + length > n:
        raise ValueError(f"mint.narrow: start {start} and length {length} exceed dim {d} of length {n}")
    return ops.narrow(x, d, start, length)


def select(input, dim, index):  # noqa: A002
    x = _t(input, "select")
    d = _dim(x, dim, "select")
    n = x.shape[d]
    if not -n <= index < n:
        raise IndexError(f"mint.select: index {index} is out of range for dim {d} of length {n}")
    return ops.squeeze(ops.narrow(x, d, index % n, 1), d)


def squeeze(input, dim):  # noqa: A002
    """Remove the size-1 dims among ``dim`` (an int or a tuple; a named dim of another size is left, as PyTorch).
    ``dim`` is required, as in MindSpore 2.10 (PyTorch's default of every dim is ``Tensor.squeeze``)."""
    x = _t(input, "squeeze")
    dims = _red_dims(x, dim, "squeeze")
    keep = [s for i, s in enumerate(x.shape) if not (i in dims and s == 1)]
    return ops.reshape(x, tuple(keep))


squeeze_impl = squeeze


def unsqueeze(input, dim):  # noqa: A002
    x = _t(input, "unsqueeze")
    return ops.expand_dims(x, _dim(x, dim, "unsqueeze", extra=1))


def reshape(input, shape):  # noqa: A002
    return ops.reshape(_t(input, "reshape"), tuple(shape) if isinstance(shape, (list, tuple)) else shape)


def flatten(input, start_dim=0, end_dim=-1):  # noqa: A002
    x = _t(input, "flatten")
    if x.ndim == 0:
        return ops.reshape(x, (1,))
    s, e = _dim(x, start_dim, "flatten"), _dim(x, end_dim, "flatten")
    if s > e:
        raise ValueError(f"mint.flatten: start_dim {start_dim} comes after end_dim {end_dim}")
    shape = tuple(x.shape[:s]) + (int(np.prod(x.shape[s:e + 1])),) + tuple(x.shape[e + 1:])
    return ops.reshape(x, shape)


flatten_ext = flatten


def permute(input, dims):  # noqa: A002
    x = _t(input, "permute")
    perm = tuple(_dim(x, d, "permute") for d in dims)
    if sorted(perm) != list(range(x.ndim)):
        raise ValueError(f"mint.permute: dims {tuple(dims)} is not a permutation of {x.ndim} dims")
    return ops.transpose(x, perm)


def transpose(input, dim0, dim1):  # noqa: A002
    x = _t(input, "transpose")
    perm = list(range(x.ndim))
    a, b = _dim(x, dim0, "transpose"), _dim(x, dim1, "transpose")
    perm[a], perm[b] = perm[b], perm[a]
    return ops.transpose(x, tuple(perm))


swapaxes = transpose


def t(input):  # noqa: A002
    x = _t(input, "t")
    if x.ndim > 2:
        raise ValueError(f"mint.t: expects a tensor with at most 2 dimensions, got {x.ndim}")
    return x if x.ndim < 2 else ops.transpose(x, (1, 0))


def flip(input, dims):  # noqa: A002
    x = _t(input, "flip")
    return ops.flip(x, tuple(_dim(x, d, "flip") for d in (dims if isinstance(dims, (tuple, list)) else (dims,))))


def roll(input, shifts, dims=None):  # noqa: A002
    x = _t(input, "roll")
    if dims is None:
        return ops.reshape(roll(ops.reshape(x, (-1,)), shifts, 0), x.shape)
    shifts = shifts if isinstance(shifts, (tuple, list)) else (shifts,)
    dims = dims if isinstance(dims, (tuple, list)) else (dims,)
    if len(shifts) != len(dims):
        raise ValueError(f"mint.roll: shifts {shifts} and dims {dims} differ in length")
    out = x
    for s, d in zip(shifts, dims):
        d = _dim(x, d, "roll")
        n = x.shape[d]
        if n and s % n:
            out = ops.gather(out, Tensor(((np.arange(n) - s) % n).astype(np.int32)), d)
    return out


def tile(input, dims):  # noqa: A002
    x = _t(input, "tile")
    dims = tuple(dims)
    if len(dims) < x.ndim:
        dims = (1,) * (x.ndim - len(dims)) + dims
    elif len(dims) > x.ndim:
        x = ops.reshape(x, (1,) * (len(dims) - x.ndim) + tuple(x.shape))
    return ops.tile(x, dims)


def broadcast_to(input, shape):  # noqa: A002
    return ops.broadcast_to(input, tuple(shape))


def repeat_interleave(input, repeats, dim=None, *, output_size=None):  # noqa: A002
    x = _t(input, "repeat_interleave")
    if dim is None:
        x, dim = ops.reshape(x, (-1,)), 0
    d = _dim(x, dim, "repeat_interleave")
    counts = repeats.asnumpy() if isinstance(repeats, Tensor) else np.asarray(repeats)
    counts = np.broadcast_to(counts.reshape(-1), (x.shape[d],)) if counts.size == 1 else counts.reshape(-1)
    if counts.size != x.shape[d] or (counts < 0).any():
        raise ValueError(f"mint.repeat_interleave: repeats {counts.tolist()} do not fit dim {d} of length "
                         f"{x.shape[d]}")
    idx = np.repeat(np.arange(x.shape[d]), counts)
    if output_size is not None and output_size != idx.size:
        raise ValueError(f"mint.repeat_interleave: output_size {output_size} != {idx.size}")
    return ops.gather(x, Tensor(idx.astype(np.int32)), d)


def gather(input, dim, index):  # noqa: A002
    x = _t(input, "gather")
    return ops.gather_elements(x, _dim(x, dim, "gather"), index)


def index_select(input, dim, index):  # noqa: A002
    x = _t(input, "index_select")
    return ops.gather(x, index, _dim(x, dim, "index_select"))


def index_add(input, dim, index, source, *, alpha=1):  # noqa: A002
    """``input`` plus ``alpha * source`` added at ``index`` along ``dim`` (a new Tensor)."""
    x = _t(input, "index_add")
    d = _dim(x, dim, "index_add")
    idx = ops.cast(index, mstype.int32)
    onehot = ops.cast(ops.equal(ops.reshape(idx, (-1, 1)), Tensor(np.arange(x.shape[d], dtype=np.int32))), x.dtype)
    src = source if alpha == 1 else source * alpha
    moved = ops.moveaxis(src, d, -1)
    added = ops.moveaxis(ops.matmul(moved, onehot) if x.dtype.is_float else ops.cast(
        ops.matmul(ops.cast(moved, mstype.float64), ops.cast(onehot, mstype.float64)), x.dtype), -1, d)
    return x + added


def take(input, index):  # noqa: A002
    return ops.gather(ops.reshape(_t(input, "take"), (-1,)), index, 0)


def masked_select(input, mask):  # noqa: A002
    return ops.masked_select(input, mask)


def scatter(input, dim, index, src):  # noqa: A002
    x = _t(input, "scatter")
    if not isinstance(src, Tensor):
        src = ops.full(index.shape, src, dtype=x.dtype)
    return ops.tensor_scatter_elements(x, index, src, _dim(x, dim, "scatter"))


def scatter_add(input, dim, index, src):  # noqa: A002
    x = _t(input, "scatter_add")
    return ops.tensor_scatter_elements(x, index, src, _dim(x, dim, "scatter_add"), reduction="add")


def where(condition, input=None, other=None):  # noqa: A002
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return ops.where(condition, input, other)


def nonzero(input, *, as_tuple=False):  # noqa: A002
    return ops.nonzero(_t(input, "nonzero"), as_tuple=as_tuple)


def tril(input, diagonal=0):  # noqa: A002
    return ops.tril(input, diagonal)


def triu(input, diagonal=0):  # noqa: A002
    return ops.triu(input, diagonal)


def diag(input, diagonal=0):  # noqa: A002
    x = _t(input, "diag")
    if x.ndim == 1:
        return ops.diag_embed(x, diagonal)
    if x.ndim == 2:
        return ops.diagonal(x, diagonal)
    raise ValueError(f"mint.diag: input must be 1-D or 2-D, got {x.ndim}-D")


def sort(input, *, dim=-1, descending=False, stable=False):  # noqa: A002
    """(values, Int64 indices); equal values keep their order (every sort here is stable)."""
    x = _t(input, "sort")
    v, i = ops.sort(x, _dim(x, dim, "sort"), descending)
    return v, ops.cast(i, mstype.int64)


def argsort(input, dim=-1, descending=False, stable=False):  # noqa: A002
    return sort(input, dim=dim, descending=descending, stable=stable)[1]


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    x = _t(input, "topk")
    d = _dim(x, dim, "topk")
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= x.shape[d]:
        raise ValueError(f"mint.topk: k must be in [0, {x.shape[d]}] for dim {d}, got {k!r}")
    v, i = ops.sort(x, d, largest)
    return ops.narrow(v, d, 0, k), ops.cast(ops.narrow(i, d, 0, k), mstype.int64)


def kthvalue(input, k, dim=-1, keepdim=False):  # noqa: A002
    """The k-th smallest value along ``dim`` (1-based k) and its Int64 index."""
    x = _t(input, "kthvalue")
    d = _dim(x, dim, "kthvalue")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= x.shape[d]:
        raise ValueError(f"mint.kthvalue: k must be in [1, {x.shape[d]}], got {k!r}")
    v, i = ops.sort(x, d)
    v, i = ops.narrow(v, d, k - 1, 1), ops.narrow(i, d, k - 1, 1)
    if not keepdim:
        v, i = ops.squeeze(v, d), ops.squeeze(i, d)
    return v, ops.cast(i, mstype.int64)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct values (sorted), with Int64 inverse indices and counts when asked."""
    x = _t(input, "unique")
    vals = x.asnumpy()
    if dim is None:
        u, inv, cnt = np.unique(vals.reshape(-1), return_inverse=True, return_counts=True)
        inv = inv.reshape(vals.shape)
    else:
        u, inv, cnt = np.unique(vals, return_inverse=True, return_counts=True, axis=_dim(x, dim, "unique"))
    out = [Tensor(u.astype(vals.dtype))]
    if return_inverse:
        out.append(Tensor(inv.reshape(-1 if dim is not None else vals.shape).astype(np.int64)))
    if return_counts:
        out.append(Tensor(cnt.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    return ops.unique_consecutive(input, return_inverse, return_counts, dim)


def bincount(input, weights=None, minlength=0):  # noqa: A002
    """Int64 counts (weights' dtype with weights)."""
    x = _t(input, "bincount")
    out = ops.bincount(x, weights, minlength)
    if weights is None:
        return ops.cast(out, mstype.int64)
    return ops.cast(out, weights.dtype if isinstance(weights, Tensor) else mstype.float32)


def histc(input, bins=100, min=0, max=0):  # noqa: A002
    return ops.histc(input, bins, float(min), float(max))


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None):
    return ops.searchsorted(sorted_sequence, values, out_int32=out_int32, right=right, side=side, sorter=sorter)


def meshgrid(*tensors, indexing=None):
    """``indexing`` defaults to "ij" (PyTorch's default)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)
