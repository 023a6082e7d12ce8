"""Indexing primitives: GetItem, its gradient (scatter-add) and SetItem (basic and advanced)."""
from __future__ import annotations

import numpy as np

from ..core.op import Op, OpError, register
from ..core.tensor import Tensor
from ..core.types import TensorType
from ._infer import fmt_shape


def split_index(idx) -> tuple[tuple, list]:
    """Turn a Python index into (static spec, tensor inputs). Tensors become ('t', k) entries."""
    items = idx if isinstance(idx, tuple) else (idx,)
    spec, tensors = [], []
    for it in items:
        if isinstance(it, Tensor):
            spec.append(("t", len(tensors)))
            tensors.append(it)
        elif isinstance(it, bool) or it is None or it is Ellipsis:
            spec.append(("c", it))
        elif isinstance(it, (int, np.integer)):
            spec.append(("i", int(it)))
        elif isinstance(it, slice):
            for part in (it.start, it.stop, it.step):
                if part is not None and not isinstance(part, (int, np.integer)):
                    raise TypeError(f"Tensor index: slice bounds must be ints, got {it}")
            spec.append(("s", it.start, it.stop, it.step))
        elif isinstance(it, (list, np.ndarray)):
            arr = np.asarray(it)
            if arr.dtype.kind not in "iub":
                raise TypeError(f"Tensor index: an index list must hold ints or bools, got {it!r:.60}")
            spec.append(("t", len(tensors)))
            tensors.append(Tensor(arr))
        else:
            raise TypeError(f"Tensor index: unsupported index type {type(it).__name__} ({it!r:.60}); use int, "
                            "slice, None, ..., a list, or an int/bool Tensor")
    return tuple(spec), tensors


def build_index(spec: tuple, tensors) -> tuple:
    out = []
    for entry in spec:
        tag = entry[0]
        if tag == "t":
            out.append(tensors[entry[1]])
        elif tag == "s":
            out.append(slice(entry[1], entry[2], entry[3]))
        else:
            out.append(entry[1])
    return tuple(out)


def _getitem_impl(x, *tensors, spec):
    return x[build_index(spec, tensors)]


def _dummy_index(t: TensorType, size: int):
    shape = tuple(size if d is None else d for d in t.shape)
    if t.dtype.name == "Bool":
        return np.ones(shape, bool)
    return np.zeros(shape, np.int64)


def _probe_shape(x: TensorType, tensors, spec, size: int) -> tuple:
    """The result shape of the index on a stand-in array whose unknown dimensions have ``size``."""
    shape = tuple(size if d is None else d for d in x.shape)
    probe = np.broadcast_to(np.empty((), x.dtype.np), shape)
    return probe[build_index(spec, [_dummy_index(t, size) for t in tensors])].shape


def _getitem_infer(x, *tensors, spec):
    try:
        out_shape = _probe_shape(x, tensors, spec, 31)
        if any(d is None for d in x.shape) or any(None in t.shape for t in tensors):
            # probe twice: a dimension that follows the unknown sizes is unknown too
            other = _probe_shape(x, tensors, spec, 37)
            out_shape = tuple(a if a == b else None for a, b in zip(out_shape, other))
    except IndexError as exc:
        raise IndexError(f"GetItem: {exc} (tensor shape {fmt_shape(x.shape)})") from None
    if any(t.dtype.name == "Bool" for t in tensors):
        out_shape = tuple(None for _ in out_shape)  # data-dependent: symbolic
    return TensorType(out_shape, x.dtype)


def _getitem_bprop(x, *rest, spec):
    tensors, d = rest[:-2], rest[-1]
    return (F.getitem_grad_like(d, tensors, spec, x),) + tuple(None for _ in tensors)


def _getitem_emit(ctx, node, args):
    """A basic index (ints and int slices) of a static float tensor: a view, exactly what the impl returns."""
    spec = node.attrs.get("spec")
    if len(node.inputs) != 1 or set(node.attrs) != {"spec"} or not isinstance(spec, tuple) or not spec \
            or not ctx.static_float(node.inputs[0]):
        return None
    parts = []
    for e in spec:
        if e[0] == "i" and type(e[1]) is int:
            parts.append(repr(e[1]))
        elif e[0] == "s" and all(v is None or type(v) is int for v in e[1:]):
            parts.append(":".join("" if v is None else repr(v) for v in e[1:]))
        else:
            return None
    return f"{args[0]}[{', '.join(parts)}{',' if len(parts) == 1 else ''}]", None


GETITEM = register(Op("GetItem", _getitem_impl, _getitem_infer, _getitem_bprop, "shape", emit=_getitem_emit, view=True))


def _getitem_grad_impl(d, *tensors, spec, shape):
    out = np.zeros(shape, d.dtype)
    index = build_index(spec, tensors)
    if tensors:
        np.add.at(out, index, d)  # repeated indices accumulate
    else:
        out[index] = d
    return out


def _getitem_grad_infer(d, *tensors, spec, shape):
    return TensorType(tuple(shape), d.dtype)


def _getitem_grad_bprop(d, *rest, spec, shape):
    tensors, dd = rest[:-2], rest[-1]
    return (F.getitem(dd, spec, tensors),) + tuple(None for _ in tensors)


GETITEM_GRAD = register(Op("GetItemGrad", _getitem_grad_impl, _getitem_grad_infer, _getitem_grad_bprop, "shape"))


def _getitem_grad_like_impl(d, like, *tensors, spec):
    return _getitem_grad_impl(d, *tensors, spec=spec, shape=like.shape)


def _getitem_grad_like_infer(d, like, *tensors, spec):
    return TensorType(tuple(like.shape), d.dtype)


def _getitem_grad_like_bprop(d, like, *rest, spec):
    tensors, dd = rest[:-2], rest[-1]
    return (F.getitem(dd, spec, tensors), None) + tuple(None for _ in tensors)


# GetItemGrad whose output shape is ``like``'s at run time (like's values are not read): the
# gradient of an index into a tensor with symbolic dimensions
GETITEM_GRAD_LIKE = register(Op("GetItemGradLike", _getitem_grad_like_impl, _getitem_grad_like_infer,
                                _getitem_grad_like_bprop, "shape"))


def _setitem_impl(x, value, *tensors, spec, out=None):
    """``x`` with ``x[index] = value``: a new array, or ``out`` (``x`` itself: eager ``Tensor.__setitem__``)."""
    if out is None:
        out = np.array(x, copy=True)
    try:
        out[build_index(spec, tensors)] = value
    except ValueError as exc:
        raise OpError(f"SetItem: cannot assign a value of shape {list(np.shape(value))} into "
                      f"{fmt_shape(x.shape)}: {exc}") from None
    return out


def _setitem_infer(x, value, *tensors, spec):
    _getitem_infer(x, *tensors, spec=spec)
    return TensorType(x.shape, x.dtype)


def _setitem_bprop(x, value, *rest, spec):
    tensors, d = rest[:-2], rest[-1]
    index_mask = F.getitem_grad_like(F.ones_like(F.getitem(d, spec, tensors)), tensors, spec, x)
    gx = F.mul(d, F.sub(1, F.cast(F.greater(index_mask, 0), d.dtype)))
    gv = None
    if hasattr(value, "shape"):
        gv = F.sum_to(F.getitem(d, spec, tensors), value.shape)
    return (gx, gv) + tuple(None for _ in tensors)


SETITEM = register(Op("SetItem", _setitem_impl, _setitem_infer, _setitem_bprop, "shape"))

from . import functional as F  # noqa: E402
