"""Tensor operators and methods, installed onto ``Tensor`` so the class itself stays thin."""
from __future__ import annotations

from ..core import dispatch
from ..core.tensor import Tensor
from .. import dtype as mstype
from . import functional as F


def _reflect(fn):
    return lambda self, other: fn(other, self)


def _setitem(self, index, value):
    if dispatch._slow:
        for tape in dispatch.active_tapes():
            if tape.is_live(self):
                raise RuntimeError("Tensor.__setitem__: in-place assignment to a tensor that is being "
                                   "differentiated is not supported; build a new tensor with ops.where or "
                                   "ops.tensor_scatter_update instead")
    out = F.tensor_setitem(self, index, value)
    self._rebind(out)


def _rebind(self, other):
    """Make ``self`` hold ``other``'s value (in-place update semantics)."""
    self._data = other._data


def _reduce_method(fn_name):
    def method(self, axis=None, keep_dims=False, **kw):
        if "keepdims" in kw:
            keep_dims = kw.pop("keepdims")
        if "dim" in kw:
            axis = kw.pop("dim")
        if "keepdim" in kw:
            keep_dims = kw.pop("keepdim")
        dtype = kw.pop("dtype", None)
        if kw:
            raise TypeError(f"Tensor.{fn_name}: unexpected arguments {sorted(kw)}")
        x = self if dtype is None else F.cast(self, dtype)
        if fn_name == "sum":
            return F.sum(x, axis, keep_dims)
        return getattr(F, fn_name)(x, axis, keep_dims)

    return method


def _max_method(self, axis=None, keepdims=False, *, initial=None, where=None, return_indices=False):
    values = F.amax(self, axis, keepdims)
    return (values, F.argmax(self, axis, keepdims)) if return_indices else values


def _min_method(self, axis=None, keepdims=False, *, initial=None, where=None, return_indices=False):
    values = F.amin(self, axis, keepdims)
    return (values, F.argmin(self, axis, keepdims)) if return_indices else values


def _astype(self, dtype, copy=True):
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
    if order != "C":
        raise ValueError("Tensor.flatten: only order='C' is supported")
    nd = self.ndim
    if nd == 0:
        return F.reshape(self, (1,))
    s, e = start_dim % nd, end_dim % nd
    shape = self.shape[:s] + (-1,) + self.shape[e + 1:]
    return F.reshape(self, shape)


def _copy(self):
    return F.identity(self) if dispatch._slow else Tensor(self.asnumpy().copy())


def _argmax(self, axis=None, keepdims=False):
    return F.argmax(self, axis, keepdims)


def _argmin(self, axis=None, keepdims=False):
    return F.argmin(self, axis, keepdims)


def _expand_dims(self, axis):
    return F.expand_dims(self, axis)


def _squeeze(self, axis=None):
    return F.squeeze(self, axis)


def _abs(self):
    return F.abs(self)


def _any(self, axis=None, keep_dims=False):
    return F.amax(F.cast(self, mstype.bool_), axis, keep_dims)


def _all(self, axis=None, keep_dims=False):
    return F.amin(F.cast(self, mstype.bool_), axis, keep_dims)


_METHODS = {
    "__add__": F.add, "__radd__": _reflect(F.add), "__sub__": F.sub, "__rsub__": _reflect(F.sub),
    "__mul__": F.mul, "__rmul__": _reflect(F.mul), "__truediv__": F.div, "__rtruediv__": _reflect(F.div),
    "__floordiv__": F.floor_div, "__rfloordiv__": _reflect(F.floor_div),
    "__mod__": F.floor_mod, "__rmod__": _reflect(F.floor_mod),
    "__pow__": F.pow, "__rpow__": _reflect(F.pow), "__matmul__": F.matmul, "__rmatmul__": _reflect(F.matmul),
    "__neg__": F.neg, "__pos__": lambda self: self, "__abs__": F.abs,
    "__eq__": F.equal, "__ne__": F.not_equal, "__lt__": F.less, "__le__": F.less_equal,
    "__gt__": F.greater, "__ge__": F.greater_equal,
    "__and__": F.logical_and, "__or__": F.logical_or, "__xor__": F.logical_xor, "__invert__": F.logical_not,
    "__getitem__": F.tensor_getitem, "__setitem__": _setitem, "_rebind": _rebind,
    "add": F.add, "sub": F.sub, "mul": F.mul, "div": F.div, "pow": F.pow, "neg": F.neg,
    "exp": F.exp, "log": F.log, "sqrt": F.sqrt, "square": F.square, "tanh": F.tanh, "sigmoid": F.sigmoid,
    "relu": F.relu, "abs": _abs, "sin": F.sin, "cos": F.cos, "sign": F.sign, "floor": F.floor, "ceil": F.ceil,
    "matmul": F.matmul, "maximum": F.maximum, "minimum": F.minimum,
    "equal": F.equal, "greater": F.greater, "less": F.less,
    "astype": _astype, "to": _astype, "reshape": _reshape, "view": _reshape, "transpose": _transpose,
    "permute": _transpose, "flatten": _flatten, "squeeze": _squeeze, "expand_dims": _expand_dims,
    "unsqueeze": _expand_dims, "broadcast_to": F.broadcast_to,
    "sum": _reduce_method("sum"), "mean": _reduce_method("mean"), "prod": _reduce_method("prod"),
    "max": _max_method, "min": _min_method, "argmax": _argmax, "argmin": _argmin,
    "any": _any, "all": _all, "copy": _copy, "clone": _copy,
}

for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)
