"""The rest of MindSpore 2.10's Tensor method list, each a thin spelling over an existing functional op.

Where MindSpore's method has two overloads (the mint-style one and the older ops-style one) the method
picks the one the arguments fit, as MindSpore's dispatcher does; where MindSpore's CPU backend picks the
older overload for a call the docs give to the newer one (``median()``, ``diag()``, ``index_add``), the
behaviour is followed. In-place spellings (``add_``, ``fill_`` ...) live in ``tensor_methods_inplace``."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .functional import _as_tensor

# Tensor.name(*args, **kw) is ops.name(self, *args, **kw): the op takes the tensor first with the same arguments
_SAME = """
acos acosh arccos arccosh arcsin arcsinh arctan arctan2 arctanh asin asinh atan atan2 atanh cosh sinh tan expm1
erfc erfinv digamma lgamma i0 sinc trunc frac log2 log10 deg2rad rad2deg sgn signbit positive angle conj real imag
copysign hypot heaviside float_power fmax fmin fmod gcd lcm ldexp logaddexp logaddexp2 nextafter igamma igammac
xdivy xlogy logit bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift bitwise_not invert
logical_xor eq ge gt le lt greater_equal less_equal not_equal multiply divide subtract true_divide floor_divide
remainder isclose isneginf isposinf isreal is_complex is_floating_point inv inverse det matrix_determinant
log_matrix_determinant logdet slogdet cholesky cholesky_inverse cholesky_solve matrix_power svd geqrf orgqr ormqr
eigvals lstsq lu_solve adjoint diagflat tril triu flip fliplr flipud rot90 roll moveaxis movedim swapaxes swapdims
t narrow unbind tensor_split hsplit vsplit dsplit index_select masked_select masked_scatter gather_elements
gather_nd index_fill index_put select_scatter
slice_scatter diagonal_scatter inplace_update unsorted_segment_max unsorted_segment_min unsorted_segment_prod
bincount histc cummax cummin cumprod logcumsumexp diff nanmedian nanmean quantile nanquantile msort
unique_consecutive unique_with_pad argwhere nonzero aminmax top_k renorm
hardshrink soft_shrink nan_to_num lerp addbmm addcdiv addcmul addmm addmv addr baddbmm bmm mm dot inner outer ger
cross cov approximate_equal col2im fold unfold reverse reverse_sequence repeat_interleave view_as type_as
multinomial random_categorical fills mvlgamma count_nonzero nansum index_add move_to
""".split()


def _select(self, *args, **kw):
    """``select(dim, index)`` (one slice along ``dim``) or the older ``select(condition, y)`` (where)."""
    if "condition" in kw or (args and isinstance(args[0], Tensor)):
        cond = kw.pop("condition") if "condition" in kw else args[0]
        y = kw.pop("y") if "y" in kw else args[1]
        if kw:
            raise TypeError(f"Tensor.select got unexpected keyword arguments {sorted(kw)}")
        return F.where(cond, self, y)
    dim = kw.pop("dim") if "dim" in kw else args[0]
    index = kw.pop("index") if "index" in kw else args[1]
    if kw:
        raise TypeError(f"Tensor.select got unexpected keyword arguments {sorted(kw)}")
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"Tensor.select: dim must be an int, got {type(dim).__name__}")
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise TypeError(f"Tensor.select: index must be an int, got {type(index).__name__}")
    nd = self.ndim
    if not -nd <= dim < nd:
        raise IndexError(f"Tensor.select: dim {dim} is out of range for a {nd}-d tensor")
    n = self.shape[dim % nd]
    if not -n <= index < n:
        raise IndexError(f"Tensor.select: index {index} is out of range for size {n} of dim {dim}")
    return F.tensor_getitem(self, (slice(None),) * (dim % nd) + (int(index),))


def _take(self, indices, axis=None, mode="clip"):
    """``take(index)`` reads the flattened tensor; ``axis``/``mode`` give NumPy's take (clip/wrap/raise)."""
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"Tensor.take: mode must be 'clip', 'wrap' or 'raise', got {mode!r}")
    idx = _as_tensor(indices, "Tensor.take")
    if not idx.dtype.is_int:
        raise TypeError(f"Tensor.take: indices must be an integer tensor, got {idx.dtype}")
    src = F.reshape(self, (-1,)) if axis is None else self
    ax = 0 if axis is None else axis
    n = src.shape[ax]
    if mode == "wrap":
        idx = F.floor_mod(idx, n)
    elif mode == "clip":
        idx = F.clamp(idx, 0, n - 1)
    return F.gather(src, idx, ax)


def _expand(self, *size):
    """``expand(*size)``: broadcast to ``size`` (a tuple, ints or a 1-D int tensor; -1 keeps an axis)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    elif len(size) == 1 and isinstance(size[0], Tensor):
        size = tuple(int(v) for v in size[0].asnumpy().reshape(-1))
    return F.broadcast_to(self, tuple(size))


def _median(self, *args, **kw):
    """MindSpore's CPU dispatch takes the ops-style overload: (values, Int64 indices) along ``axis`` (-1)."""
    axis = kw.pop("axis", kw.pop("dim", args[0] if args else -1))
    keep = kw.pop("keepdims", kw.pop("keepdim", args[1] if len(args) > 1 else False))
    if kw:
        raise TypeError(f"Tensor.median: unexpected arguments {sorted(kw)}")
    return F.median(self, axis, keep)


def _diag(self, diagonal=0):
    if diagonal != 0:
        raise ValueError(f"Tensor.diag: diagonal must be 0, got {diagonal}")
    return F.diag(self)


def _trace(self, offset=0, axis1=0, axis2=1, dtype=None):
    """Sum of the ``offset`` diagonal over (axis1, axis2)."""
    out = F.sum(F.diagonal(self, offset, axis1, axis2), -1)
    return out if dtype is None else F.cast(out, dtype)


def _diagonal(self, offset=0, axis1=0, axis2=1, **kw):
    axis1 = kw.pop("dim1", axis1)
    axis2 = kw.pop("dim2", axis2)
    if kw:
        raise TypeError(f"Tensor.diagonal: unexpected arguments {sorted(kw)}")
    return F.diagonal(self, offset, axis1, axis2)


def _searchsorted(self, v, side="left", sorter=None):
    """Insertion points of ``v`` in this sorted tensor (Int32, as MindSpore's method returns)."""
    return F.searchsorted(self, v, out_int32=True, side=side, sorter=sorter)


def _qr(self, some=True):
    return F.qr(self, "reduced" if some else "complete")


def _kthvalue(self, k, dim=-1, keepdim=False):
    """(k-th smallest value along ``dim``, its Int64 index); ``k`` counts from 1."""
    nd = max(self.ndim, 1)
    if isinstance(dim, bool) or not isinstance(dim, int) or not -nd <= dim < nd:
        raise IndexError(f"Tensor.kthvalue: dim {dim!r} is out of range for a {self.ndim}-d tensor")
    n = self.shape[dim] if self.ndim else 1
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
        raise ValueError(f"Tensor.kthvalue: k must be an int in [1, {n}], got {k!r}")
    values, indices = F.sort(self, dim)
    pick = Tensor(np.array([k - 1], np.int64))
    v = F.gather(values, pick, dim)
    i = F.cast(F.gather(indices, pick, dim), mstype.int64)
    if not keepdim:
        v, i = F.squeeze(v, dim), F.squeeze(i, dim)
    return v, i


def _repeat(self, *repeats):
    """``repeat(*repeats)``: tile the tensor (PyTorch's repeat): leading new axes where there are more repeats."""
    if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        repeats = tuple(repeats[0])
    if any(isinstance(r, bool) or not isinstance(r, (int, np.integer)) for r in repeats):
        raise TypeError(f"Tensor.repeat: repeats must be ints, got {repeats!r}")
    if len(repeats) < self.ndim:
        raise ValueError(f"Tensor.repeat: {len(repeats)} repeats for a {self.ndim}-d tensor (need at least "
                         f"{self.ndim})")
    if any(r < 0 for r in repeats):
        raise ValueError(f"Tensor.repeat: repeats must be non-negative, got {repeats!r}")
    return F.tile(self, tuple(int(r) for r in repeats))


def _unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """The distinct values (ascending when ``sorted``, else in order of first appearance), and optionally the
    Int64 inverse indices and counts; with ``dim``, the distinct slices along that axis."""
    a = self.asnumpy()
    if dim is None:
        vals, first, inv, counts = np.unique(a.reshape(-1), return_index=True, return_inverse=True,
                                             return_counts=True)
        inv = inv.reshape(a.shape)
    else:
        vals, first, inv, counts = np.unique(a, return_index=True, return_inverse=True, return_counts=True,
                                             axis=dim)
        inv = inv.reshape(-1)
    if not sorted:
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        vals = np.take(vals, order, axis=0 if dim is None else dim)
        inv, counts = rank[inv], counts[order]
    out = [Tensor(vals)]
    if return_inverse:
        out.append(Tensor(inv.astype(np.int64)))
    if return_counts:
        out.append(Tensor(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def _scatter(self, *args, **kw):
    """``scatter(dim, index, src|value, *, reduce=None)``: ``src`` a tensor or a scalar value."""
    names = ("dim", "index", "src")
    vals = dict(zip(names, args))
    for alias, name in (("axis", "dim"), ("value", "src")):
        if alias in kw:
            vals[name] = kw.pop(alias)
    vals.update({k: kw.pop(k) for k in names if k in kw})
    reduce = kw.pop("reduce", None)
    if kw or len(vals) != 3:
        raise TypeError(f"Tensor.scatter: takes (dim, index, src) and reduce=, got {len(args)} positional and "
                        f"{sorted(kw)}")
    dim, index, src = vals["dim"], vals["index"], vals["src"]
    if not isinstance(src, Tensor):
        src = F.fill(self.dtype, tuple(index.shape), src)
    if reduce is None:
        return F.scatter(self, dim, index, src)
    if reduce != "add":  # 'multiply' is an Ascend-only kernel in MindSpore 2.10, and not offered here
        raise ValueError(f"Tensor.scatter: reduce must be None or 'add' (reduce='multiply' is not supported), "
                         f"got {reduce!r}")
    return F.tensor_scatter_elements(self, index, src, dim, "add")


def _scatter_add(self, *args, **kw):
    """``scatter_add(dim, index, src)`` (element-wise along ``dim``) or the older ``scatter_add(indices,
    updates)`` (``ops.tensor_scatter_add``: index tuples on the last axis of ``indices``)."""
    if (args and isinstance(args[0], (int, np.integer))) or "dim" in kw:
        dim = kw.pop("dim") if "dim" in kw else args[0]
        rest = list(args[1:])
        index = kw.pop("index") if "index" in kw else rest.pop(0)
        src = kw.pop("src") if "src" in kw else rest.pop(0)
        return F.tensor_scatter_elements(self, index, src, dim, "add")
    return F.tensor_scatter_add(self, *args, **kw)


def _with_value(fn):
    def method(self, axis=0, keep_dims=False):
        index, value = fn(self, axis, keep_dims)
        return value, F.cast(index, mstype.int64)

    method.__name__ = fn.__name__
    method.__doc__ = "(values, Int64 indices) along ``axis``: the method's order (the primitive gives the index first)."
    return method


def _triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):  # noqa: N803 - MindSpore's name
    """(X, the triangle of A used) with tri(A) @ X = self (tri(A)^T @ X with ``transpose``); ``unitriangular``
    takes A's diagonal as ones. MindSpore 2.10's method is broken (its registry lacks the op): PyTorch's meaning."""
    a = _as_tensor(A, "Tensor.triangular_solve")
    tri = F.triu(a) if upper else F.tril(a)
    if unitriangular:
        n = a.shape[-1]
        eye = Tensor(np.eye(n, dtype=a.dtype.np))
        tri = F.add(F.mul(tri, F.sub(1, eye)), eye)
    return F.matrix_solve(tri, self, adjoint=bool(transpose)), tri


def _allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """A Python bool: every element of ``self`` is close to ``other``."""
    return bool(F.all(F.isclose(self, other, rtol, atol, equal_nan)).asnumpy())


def _choose(self, choices, mode="clip"):
    """NumPy's choose: the entries of this int tensor pick, per position, which of ``choices`` to read."""
    if mode not in ("clip", "wrap", "raise"):
        raise ValueError(f"Tensor.choose: mode must be 'clip', 'wrap' or 'raise', got {mode!r}")
    if not self.dtype.is_int:
        raise TypeError(f"Tensor.choose: the index tensor must be of an integer type, got {self.dtype}")
    ch = F.stack(list(choices)) if isinstance(choices, (tuple, list)) else _as_tensor(choices, "Tensor.choose")
    n = ch.shape[0]
    idx = self
    if mode == "clip":
        idx = F.clamp(idx, 0, n - 1)
    elif mode == "wrap":
        idx = F.floor_mod(idx, n)
    elif np.any((idx.asnumpy() < 0) | (idx.asnumpy() >= n)):
        raise ValueError(f"Tensor.choose: an index is outside [0, {n}) with mode='raise'")
    shape = np.broadcast_shapes(tuple(idx.shape), tuple(ch.shape[1:]))
    ch = F.broadcast_to(ch, (n,) + shape)
    idx = F.expand_dims(F.broadcast_to(F.cast(idx, mstype.int64), shape), 0)
    return F.squeeze(F.gather_elements(ch, 0, idx), 0)


def _ptp(self, axis=None, keepdims=False):
    """Range (max - min) along ``axis``."""
    return F.sub(F.amax(self, axis, keepdims), F.amin(self, axis, keepdims))


def _sum_to_size(self, *size):
    """Sum over the axes that broadcasting would expand ``size`` into this tensor's shape."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    try:
        if np.broadcast_shapes(tuple(size), tuple(self.shape)) != tuple(self.shape):
            raise ValueError
    except ValueError:
        raise ValueError(f"Tensor.sum_to_size: size {tuple(size)} does not broadcast to {tuple(self.shape)}") \
            from None
    return F.sum_to(self, tuple(size))


def _resize(self, *new_shape):
    """A tensor of ``new_shape`` holding this one's elements in order, then zeros (MindSpore's resize)."""
    if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)):
        new_shape = tuple(new_shape[0])
    if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 0 for d in new_shape):
        raise ValueError(f"Tensor.resize: the new shape must hold non-negative ints, got {new_shape!r}")
    total = int(np.prod(new_shape, dtype=np.int64))
    flat = F.reshape(self, (-1,))
    n = flat.shape[0]
    if total <= n:
        flat = flat[:total]
    else:
        flat = F.concat([flat, F.zeros((total - n,), self.dtype)])
    return F.reshape(flat, tuple(int(d) for d in new_shape))


def _reshape_as(self, other):
    return F.reshape(self, tuple(other.shape))


def _new(fill):
    def method(self, size, dtype=None, *, device=None):
        if device not in (None, "CPU", "cpu"):
            raise ValueError(f"Tensor.new_{fill}: sprout runs on the CPU only, got device={device!r}")
        if isinstance(dtype, int):
            raise TypeError(f"Tensor.new_{fill}: size must be one tuple or int; the second argument is the dtype, "
                            f"got {dtype!r}")
        shape = (size,) if isinstance(size, int) else tuple(size)
        dt = self.dtype if dtype is None else mstype.to_dtype(dtype)
        return (F.ones if fill == "ones" else F.zeros)(shape, dt)

    method.__name__ = f"new_{fill}"
    return method


def _new_full(self, size, fill_value, *, dtype=None):
    shape = (size,) if isinstance(size, int) else tuple(size)
    return F.fill(self.dtype if dtype is None else mstype.to_dtype(dtype), shape, fill_value)


def _stride(self, dim=None):
    """Strides in elements (a list, or one axis's stride)."""
    strides = [s // self.itemsize for s in self.asnumpy().strides]
    return strides if dim is None else strides[dim]


def _matrix_t(self):
    if self.ndim < 2:
        raise ValueError(f"Tensor.mT: needs at least 2 dimensions, got {self.ndim}")
    return F.swapaxes(self, -2, -1)


def _h(self):
    if self.ndim > 2:
        raise ValueError(f"Tensor.H: needs at most 2 dimensions, got {self.ndim}")
    return F.conj(F.transpose(self) if self.ndim == 2 else self)


def _matrix_h(self):
    return F.conj(_matrix_t(self))


def _is_signed(self):
    return self.dtype.is_float or self.dtype in (mstype.int8, mstype.int16, mstype.int32, mstype.int64)


def _from_numpy(array):
    """A Tensor sharing ``array``'s memory (the array must be a C-contiguous NumPy array of a known dtype)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"Tensor.from_numpy: expects a numpy.ndarray, got {type(array).__name__}")
    t = Tensor.__new__(Tensor)
    t._data = np.ascontiguousarray(array)
    mstype._FROM_NP[t._data.dtype]  # noqa: B018 - refuses an unsupported dtype with a clear KeyError
    return t


class _Capsule:
    """Hands NumPy a DLPack capsule produced elsewhere (``np.from_dlpack`` wants an object, not a capsule)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kw):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def _from_dlpack(dlpack):
    """A Tensor over a DLPack capsule (or any object with ``__dlpack__``) of CPU memory, sharing it."""
    obj = dlpack if hasattr(dlpack, "__dlpack__") else _Capsule(dlpack)
    return _from_numpy(np.from_dlpack(obj))


def _data_ptr(self) -> int:
    """The address of the first element (the NumPy buffer's; stable while the tensor keeps its array)."""
    return int(self._data.__array_interface__["data"][0])


def _data_sync(self, waiting=True):
    """Copy device data back to the host: a tensor's data is always on the host (nothing is pending)."""
    if not isinstance(waiting, bool):
        raise TypeError(f"Tensor.data_sync: waiting must be a bool, got {type(waiting).__name__}")


def _get_bytes(self) -> bytes:
    """The values' raw bytes in C order."""
    return np.ascontiguousarray(self._data).tobytes()


_METHODS = {
    "data_ptr": _data_ptr, "data_sync": _data_sync, "get_bytes": _get_bytes,
    "is_pinned": lambda self: False, "is_shared": lambda self: False,  # plain host memory, owned by this process
    "select": _select, "take": _take, "expand": _expand, "median": _median, "diag": _diag, "trace": _trace,
    "diagonal": _diagonal, "searchsorted": _searchsorted, "qr": _qr, "kthvalue": _kthvalue, "repeat": _repeat,
    "unique": _unique, "argmax_with_value": _with_value(F.argmax_with_value),
    "argmin_with_value": _with_value(F.argmin_with_value), "scatter": _scatter, "scatter_add": _scatter_add,
    "allclose": _allclose, "triangular_solve": _triangular_solve,
    "choose": _choose, "ptp": _ptp, "sum_to_size": _sum_to_size, "resize": _resize, "reshape_as": _reshape_as,
    "new_ones": _new("ones"), "new_zeros": _new("zeros"), "new_empty": _new("zeros"), "new_full": _new_full,
    "stride": _stride, "storage_offset": lambda self: 0, "ndimension": lambda self: self.ndim,
    "is_signed": _is_signed, "value": lambda self: self,
    "byte": lambda self: F.cast(self, mstype.uint8), "short": lambda self: F.cast(self, mstype.int16),
    "to_coo": F.dense_to_sparse_coo, "to_csr": F.dense_to_sparse_csr,
}

for _name in _SAME:
    setattr(Tensor, _name, getattr(F, _name))
for _name in ("sub", "mul", "div", "max", "min"):  # the older index-tuple scatters (no ref update)
    setattr(Tensor, f"scatter_{_name}", getattr(F, f"tensor_scatter_{_name}"))
for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)
Tensor.mT = property(_matrix_t)
Tensor.mH = property(_matrix_h)  # the conjugate transpose (the transpose of a real tensor)
Tensor.H = property(_h)
Tensor.init = None  # no lazy initializer: a Tensor holds its values (Parameter's init_data works the same)
Tensor.device = property(lambda self: "CPU")
Tensor.is_meta = property(lambda self: False)  # every tensor holds its values
Tensor.data = property(lambda self: self)  # a Parameter's own ``data`` overrides this
Tensor.from_numpy = staticmethod(_from_numpy)
Tensor.from_dlpack = staticmethod(_from_dlpack)
Tensor.to_dlpack = lambda self: self.asnumpy().__dlpack__()
