"""Tensor operators and methods, installed onto ``Tensor`` so the class itself stays thin.

Reductions accept both of MindSpore's spellings (``axis``/``keep_dims``/``keepdims`` and
``dim``/``keepdim``); ``max``/``min`` follow MindSpore 2.x's two overloads: called with a
positional axis or ``dim=`` they return (values, indices), with ``axis=`` only the values."""
from __future__ import annotations


from ..core import dispatch, inplace
from ..core.tensor import Tensor
from .. import dtype as mstype
from . import functional as F


def _reflect(fn):
    fast = getattr(fn, "reflected", None)  # binary functional ops carry a scalar-first fast path
    return fast if fast is not None else (lambda self, other: fn(other, self))


def _setitem(self, index, value):
    if dispatch._builders:  # a graph under construction: a write of the tensor's new value (ir/builder.py)
        b = dispatch._builders[-1]
        inplace.write_graph(b, self, F.tensor_setitem(b.target(self), index, value), "Tensor.__setitem__", item=True)
        return
    # eager: written in place, so the tensors sharing its memory (its base, its views) see the write as in
    # MindSpore; the op computes and checks the new value (index, shape, dtype) before anything is written
    if not dispatch._checked and F.setitem_in_place(self, index, value):
        return
    inplace.write(self, F.tensor_setitem(self, index, value), "Tensor.__setitem__")


def _rebind(self, other, name="in-place update"):
    """Make ``self`` hold ``other``'s value (same shape and dtype): its memory is written, so its base and views
    see the new value; gradient tapes continue ``self``'s history from ``other`` (core/inplace.py)."""
    inplace.write(self, other, name)


_AXIS_KEYS = ("axis", "dim")
_KEEP_KEYS = ("keep_dims", "keepdims", "keepdim")


def _axis_keep(name, args, kw, default_axis=None):
    """(axis, keep) from positional (axis, keep) and any of MindSpore's keyword spellings."""
    if len(args) > 2:
        raise TypeError(f"Tensor.{name}: takes at most 2 positional arguments (axis, keep_dims), got {len(args)}")
    axis = args[0] if args else default_axis
    keep = args[1] if len(args) > 1 else False
    for k in _AXIS_KEYS:
        if k in kw:
            axis = kw.pop(k)
    for k in _KEEP_KEYS:
        if k in kw:
            keep = kw.pop(k)
    return axis, bool(keep)


def _no_extra(name, kw):
    if kw:
        raise TypeError(f"Tensor.{name}: unexpected arguments {sorted(kw)}")


def _sum(self, *args, **kw):
    dtype = kw.pop("dtype", None)
    kw.pop("initial", None)
    axis, keep = _axis_keep("sum", args, kw)
    _no_extra("sum", kw)
    return F.sum(self, axis, keep, dtype=dtype)


def _mean(self, *args, **kw):
    axis, keep = _axis_keep("mean", args, kw)
    _no_extra("mean", kw)
    return F.mean(self, axis, keep)


def _prod(self, *args, **kw):
    dtype = kw.pop("dtype", None)
    axis, keep = _axis_keep("prod", args, kw)
    _no_extra("prod", kw)
    return F.prod(self, axis, keep, dtype=dtype)


def _extreme(name, reduce_fn, arg_fn):
    def method(self, *args, **kw):
        numpy_style = {"axis", "keepdims", "keep_dims", "initial", "where", "return_indices"} & set(kw)
        return_indices = kw.pop("return_indices", False)
        kw.pop("initial", None)
        kw.pop("where", None)
        pair = return_indices or "dim" in kw or "keepdim" in kw or (args and not numpy_style and args[0] is not None)
        axis, keep = _axis_keep(name, args, kw)
        _no_extra(name, kw)
        values = reduce_fn(self, axis, keep)
        if not pair:
            return values
        return values, F.cast(arg_fn(self, axis, keep), mstype.int64)

    return method


def _argmax(self, *args, **kw):
    axis, keep = _axis_keep("argmax", args, kw)
    _no_extra("argmax", kw)
    return F.argmax(self, axis, keep)


def _argmin(self, *args, **kw):
    axis, keep = _axis_keep("argmin", args, kw)
    _no_extra("argmin", kw)
    return F.argmin(self, axis, keep)


def _any(self, *args, **kw):
    axis, keep = _axis_keep("any", args, kw)
    return F.any(self, axis, keep)


def _all(self, *args, **kw):
    axis, keep = _axis_keep("all", args, kw)
    return F.all(self, axis, keep)


def _var_method(fn):
    def method(self, axis=None, ddof=0, keepdims=False, **kw):
        if "dim" in kw:
            axis = kw.pop("dim")
        if "keepdim" in kw:
            keepdims = kw.pop("keepdim")
        if "correction" in kw:
            ddof = kw.pop("correction")
        _no_extra(fn.__name__, kw)
        return fn(self, axis, ddof, keepdims)

    return method


def _astype(self, dtype, copy=True):
    if dtype == self.dtype:  # MindSpore 2.10: astype(x.dtype, copy=False) is x; with copy, a tensor of its own
        return F.identity(self) if copy else self
    return F.cast(self, dtype)


def _reshape(self, *shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return F.reshape(self, shape)


def _transpose(self, *axes):
    if not axes:
        return F.transpose(self)
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    return F.transpose(self, axes)


def _flatten(self, order="C", *, start_dim=0, end_dim=-1):
    """``Tensor.flatten`` flattens everything by default (unlike ``ops.flatten``, which keeps axis 0)."""
    return F.flatten(self, order, start_dim=start_dim, end_dim=end_dim)


def _copy(self):
    return F.identity(self) if dispatch._slow else Tensor(self.asnumpy().copy())


def _squeeze(self, axis=None):
    return F.squeeze(self, axis)


def _expand_dims(self, axis):
    return F.expand_dims(self, axis)


def _split(self, split_size_or_sections, axis=0):
    return F.split(self, split_size_or_sections, axis)


def _chunk(self, chunks, axis=0):
    return F.chunk(self, chunks, axis)


def _gather(self, input_indices, axis, batch_dims=0):
    return F.gather(self, input_indices, axis, batch_dims)


def _tile(self, reps):
    return F.tile(self, reps)


def _cumsum(self, axis=None, dtype=None):
    if axis is None:
        return F.cumsum(F.reshape(self, (-1,)), 0, dtype)
    return F.cumsum(self, axis, dtype)


def _sort(self, axis=-1, descending=False):
    return F.sort(self, axis, descending)


def _topk(self, k, dim=None, largest=True, sorted=True):  # noqa: A002
    return F.topk(self, k, dim, largest, sorted)


def _eq(self, other):
    if other is None or isinstance(other, str):  # MindSpore: a tensor never equals None or a string
        return False
    return F.equal(self, other)


def _ne(self, other):
    if other is None or isinstance(other, str):
        return True
    return F.not_equal(self, other)


def _masked_fill(self, mask, value):
    return F.masked_fill(self, mask, value)


def _where(self, condition, y):
    return F.where(condition, self, y)


def _expand_as(self, other):
    return F.broadcast_to(self, other.shape)


def _fill(self, value):
    return F.fill(self.dtype, self.shape, value)


def _caster(dtype):
    return lambda self: F.cast(self, dtype)


def _norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    return F.norm(self, ord, dim, keepdim, dtype=dtype)


def _logsumexp(self, dim, keepdim=False):
    return F.logsumexp(self, dim, keepdim)


def _softmax(self, axis=-1):
    return F.softmax(self, axis)


_METHODS = {
    "__add__": F.add, "__radd__": _reflect(F.add), "__sub__": F.sub, "__rsub__": _reflect(F.sub),
    "__mul__": F.mul, "__rmul__": _reflect(F.mul), "__truediv__": F._true_div, "__rtruediv__": _reflect(F._true_div),
    "__floordiv__": F.floor_div, "__rfloordiv__": _reflect(F.floor_div),
    "__mod__": F.floor_mod, "__rmod__": _reflect(F.floor_mod),
    "__pow__": F.pow, "__rpow__": _reflect(F.pow), "__matmul__": F.matmul, "__rmatmul__": _reflect(F.matmul),
    "__neg__": F.neg, "__pos__": lambda self: self, "__abs__": F.abs,
    "__eq__": _eq, "__ne__": _ne, "__lt__": F.less, "__le__": F.less_equal,
    "__gt__": F.greater, "__ge__": F.greater_equal,
    "__getitem__": F.tensor_getitem, "__setitem__": _setitem, "_rebind": _rebind,
    "add": F.add, "sub": F.sub, "mul": F.mul, "div": F.div, "pow": F.pow, "neg": F.neg, "negative": F.neg,
    "exp": F.exp, "log": F.log, "log1p": F.log1p, "sqrt": F.sqrt, "rsqrt": F.rsqrt, "square": F.square,
    "tanh": F.tanh, "sigmoid": F.sigmoid, "relu": F.relu, "abs": F.abs, "absolute": F.abs, "sin": F.sin,
    "cos": F.cos, "sign": F.sign, "floor": F.floor, "ceil": F.ceil, "round": F.round, "reciprocal": F.reciprocal,
    "erf": F.erf, "matmul": F.matmul, "maximum": F.maximum, "minimum": F.minimum, "equal": F.equal,
    "ne": F.not_equal, "greater": F.greater, "less": F.less, "isnan": F.isnan, "isinf": F.isinf,
    "isfinite": F.isfinite, "logical_and": F.logical_and, "logical_or": F.logical_or,
    "logical_not": F.logical_not, "clamp": F.clamp, "clip": F.clamp,
    "astype": _astype, "to": _astype, "type": _astype, "reshape": _reshape, "view": _reshape,
    "transpose": _transpose, "permute": _transpose, "flatten": _flatten, "ravel": lambda self: F.reshape(self, (-1,)),
    "squeeze": _squeeze, "expand_dims": _expand_dims, "unsqueeze": _expand_dims, "broadcast_to": F.broadcast_to,
    "expand_as": _expand_as, "split": _split, "chunk": _chunk, "gather": _gather, "tile": _tile,
    "cumsum": _cumsum, "sort": _sort, "argsort": lambda self, axis=-1, descending=False: F.argsort(self, axis,
                                                                                                 descending),
    "topk": _topk, "masked_fill": _masked_fill, "where": _where, "fill": _fill, "norm": _norm,
    "logsumexp": _logsumexp, "softmax": _softmax, "contiguous": lambda self: self,
    "sum": _sum, "mean": _mean, "prod": _prod, "std": _var_method(F.std), "var": _var_method(F.var),
    "max": _extreme("max", F.amax, F.argmax), "min": _extreme("min", F.amin, F.argmin),
    "amax": lambda self, axis=None, keepdims=False: F.amax(self, axis, keepdims),
    "amin": lambda self, axis=None, keepdims=False: F.amin(self, axis, keepdims),
    "argmax": _argmax, "argmin": _argmin, "any": _any, "all": _all, "copy": _copy, "clone": _copy,
    "float": _caster(mstype.float32), "half": _caster(mstype.float16), "double": _caster(mstype.float64),
    "bfloat16": _caster(mstype.bfloat16),
    "int": _caster(mstype.int32), "long": _caster(mstype.int64), "bool": _caster(mstype.bool_),
}

for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)


def _bitwise_or_logical(fn_bitwise, fn_logical):
    """``&``/``|``/``^`` are logical on Bool tensors and bitwise on integer ones, as in MindSpore."""

    def op(self, other):
        t, o = (self, other) if isinstance(self, Tensor) else (other, self)  # reflected: ``3 & t``
        if t.dtype is mstype.bool_ and (not isinstance(o, Tensor) or o.dtype is mstype.bool_):
            return fn_logical(self, other)
        return fn_bitwise(self, other)

    return op


for _name, _b, _l in (("__and__", F.bitwise_and, F.logical_and), ("__or__", F.bitwise_or, F.logical_or),
                      ("__xor__", F.bitwise_xor, F.logical_xor)):
    _op = _bitwise_or_logical(_b, _l)
    setattr(Tensor, _name, _op)
    setattr(Tensor, "__r" + _name[2:], _reflect(_op))
Tensor.__invert__ = F.logical_not  # casts a non-Bool tensor to Bool first


def _round_builtin(self, *ndigits):
    """``round(t)``: elementwise round half to even, a Tensor (``round(t, n)`` is a TypeError, as in MindSpore)."""
    if ndigits:
        raise TypeError(f"round(): When applying round() to tensor, only one tensor is supported as input "
                        f"(got ndigits={ndigits[0]!r}); round a scaled tensor instead: ops.round(x * 10**n) / 10**n")
    return F.round(self)


Tensor.__round__ = _round_builtin
