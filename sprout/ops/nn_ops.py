"""Softmax, LogSoftmax and the fused sparse softmax cross-entropy primitives.

They are primitives rather than composites over exp/sum: one NumPy pass each way instead of five
dispatches, and a bprop that reuses the forward output (softmax) instead of recomputing it."""
from __future__ import annotations

import numpy as np

from ..core.dispatch import bind
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import norm_axes
from .reduce import _mean_impl


def _softmax_infer_for(name):
    def infer(x, axis=(-1,)):
        if not x.dtype.is_float:
            raise OpError(f"{name}: expects a float tensor, got {x.dtype}")
        norm_axes(name, axis, x.ndim)
        return TensorType(tuple(x.shape), x.dtype)

    return infer


def _softmax_impl(x, axis=(-1,)):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    e /= e.sum(axis=axis, keepdims=True)
    return e


def _softmax_bprop(x, out, dout, axis=(-1,)):
    # dx = y * (dy - sum(dy * y))
    return (F.mul(out, F.sub(dout, F.reduce_sum(F.mul(dout, out), axis, True))),)


SOFTMAX = register(Op("Softmax", _softmax_impl, _softmax_infer_for("Softmax"), _softmax_bprop, "opaque"))


def _log_softmax_impl(x, axis=(-1,)):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _log_softmax_bprop(x, out, dout, axis=(-1,)):
    # dx = dy - exp(y) * sum(dy)
    return (F.sub(dout, F.mul(F.exp(out), F.reduce_sum(dout, axis, True))),)


LOG_SOFTMAX = register(Op("LogSoftmax", _log_softmax_impl, _softmax_infer_for("LogSoftmax"), _log_softmax_bprop,
                          "opaque"))


# ---- sparse softmax cross-entropy: -log_softmax(logits)[label] over the last axis, fused ----------------
# One op forward (with the batch reduction folded in) and one op backward, instead of OneHot, LogSoftmax,
# Mul, ReduceSum, Neg, ReduceMean and their ten-odd bprop ops. A label outside [0, classes) selects nothing
# (its loss is -0.0 and its gradient zero), as one_hot's all-zero row does in the composite form.
_XENT_REDUCTIONS = ("none", "mean", "sum")


def _xent_check(name, logits, labels, reduction):
    if reduction not in _XENT_REDUCTIONS:
        raise OpError(f"{name}: reduction must be one of {_XENT_REDUCTIONS}, got {reduction!r}")
    if not logits.dtype.is_float:
        raise OpError(f"{name}: logits must be a float tensor, got {logits.dtype}")
    if not labels.dtype.is_int:
        raise OpError(f"{name}: labels must be an int tensor, got {labels.dtype}")
    if logits.ndim < 1 or tuple(labels.shape) != tuple(logits.shape[:-1]):
        raise OpError(f"{name}: labels {list(labels.shape)} must be logits {list(logits.shape)} without the "
                      "class axis")


def _xent_infer(logits, labels, reduction="none"):
    _xent_check("SparseSoftmaxCrossEntropy", logits, labels, reduction)
    return TensorType(tuple(labels.shape) if reduction == "none" else (), logits.dtype)


def _rows_and_labels(labels, depth):
    """(row index, clipped label, mask of invalid labels or None) over the flattened leading axes."""
    flat = labels.reshape(-1)
    invalid = None
    if flat.size and (flat.min() < 0 or flat.max() >= depth):
        invalid = (flat < 0) | (flat >= depth)
        flat = np.where(invalid, 0, flat)
    return np.arange(flat.size), flat, invalid


def _xent_impl(logits, labels, reduction="none"):
    depth = logits.shape[-1]
    shifted = (logits - logits.max(axis=-1, keepdims=True)).reshape(-1, depth)
    rows, idx, invalid = _rows_and_labels(labels, depth)
    picked = shifted[rows, idx]
    lse = np.log(np.exp(shifted).sum(axis=-1))
    loss = lse - picked  # == -(shifted - lse)[label], bit for bit
    if invalid is not None:
        loss[invalid] = -0.0 * (shifted[invalid] - lse[invalid][:, None]).sum(axis=-1)
    loss = loss.reshape(labels.shape)
    if reduction == "mean":
        return _mean_impl(loss)
    if reduction == "sum":
        return np.asarray(loss.sum(dtype=loss.dtype))
    return loss


def _xent_bprop(logits, labels, out, dout, reduction="none"):
    return bind(SPARSE_XENT_GRAD, (logits, labels, dout), {"reduction": reduction}), None


SPARSE_XENT = register(Op("SparseSoftmaxCrossEntropy", _xent_impl, _xent_infer, _xent_bprop, "opaque"))


def _xent_grad_infer(logits, labels, dout, reduction="none"):
    _xent_check("SparseSoftmaxCrossEntropyGrad", logits, labels, reduction)
    return TensorType(tuple(logits.shape), logits.dtype)


def _xent_grad_impl(logits, labels, dout, reduction="none"):
    """dout * (softmax(logits) - one_hot(labels)), divided by the label count for 'mean'; zero rows for
    labels outside [0, classes)."""
    depth = logits.shape[-1]
    g = logits - logits.max(axis=-1, keepdims=True)
    np.exp(g, out=g)
    g /= g.sum(axis=-1, keepdims=True)
    flat = g.reshape(-1, depth)
    rows, idx, invalid = _rows_and_labels(labels, depth)
    flat[rows, idx] -= 1
    if invalid is not None:
        flat[invalid] = 0
    dout = np.asarray(dout, g.dtype)
    if reduction == "none":
        g *= dout[..., None]
    else:
        g *= dout / labels.size if reduction == "mean" else dout
    return g


def _xent_grad_bprop(logits, labels, dout, out, d, reduction="none"):
    if reduction == "none":
        c = F.expand_dims(dout, -1)
    elif reduction == "mean":
        c = F.div(dout, F.axes_size(labels, (), logits.dtype))
    else:
        c = dout
    s = bind(SOFTMAX, (logits,), {"axis": (-1,)})
    depth = logits.shape[-1]
    valid = F.logical_and(F.greater_equal(labels, 0), F.less(labels, depth))
    cd = F.mul(F.mul(d, c), F.expand_dims(F.cast(valid, logits.dtype), -1))
    dx = F.mul(s, F.sub(cd, F.reduce_sum(F.mul(cd, s), (-1,), True)))
    unit = bind(SPARSE_XENT_GRAD, (logits, labels, F.ones_like(dout)), {"reduction": reduction})
    t = F.mul(d, unit)
    return dx, None, F.reduce_sum(t, (-1,)) if reduction == "none" else F.reduce_sum(t)


SPARSE_XENT_GRAD = register(Op("SparseSoftmaxCrossEntropyGrad", _xent_grad_impl, _xent_grad_infer,
                               _xent_grad_bprop, "opaque"))


def sparse_softmax_cross_entropy(logits, labels, reduction="none"):
    """Fused ``-log_softmax(logits, -1)[labels]`` reduced by ``reduction`` (logits float, labels int)."""
    return bind(SPARSE_XENT, (logits, labels), {"reduction": reduction})

from . import functional as F  # noqa: E402
