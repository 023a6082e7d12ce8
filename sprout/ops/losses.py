"""Loss functions as composites over primitives (MindSpore's ``ops.*_loss`` / ``ops.cross_entropy``)."""
from __future__ import annotations

from ..core.tensor import Tensor
from . import functional as F
from .composite import softplus
from .functional import _as_tensor
from .functional_array import one_hot
from .nn_functional import log_softmax, softmax

__all__ = ["mse_loss", "l1_loss", "smooth_l1_loss", "binary_cross_entropy_with_logits", "binary_cross_entropy",
           "cross_entropy", "nll_loss", "softmax_cross_entropy_with_logits", "sparse_softmax_cross_entropy",
           "kl_div"]

_REDUCTIONS = ("mean", "sum", "none")


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    if reduction == "none":
        return loss
    raise ValueError(f"loss: reduction must be one of {_REDUCTIONS}, got {reduction!r}")


def mse_loss(input, target, reduction="mean"):  # noqa: A002
    return _reduce(F.square(F.sub(input, target)), reduction)


def l1_loss(input, target, reduction="mean"):  # noqa: A002
    return _reduce(F.abs(F.sub(input, target)), reduction)


def smooth_l1_loss(input, target, beta=1.0, reduction="none"):  # noqa: A002
    diff = F.abs(F.sub(input, target))
    quad = F.div(F.mul(F.square(diff), 0.5), beta)
    return _reduce(F.where(F.less(diff, beta), quad, F.sub(diff, 0.5 * beta)), reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction="mean"):  # noqa: A002
    """-w [p t log(sigmoid x) + (1 - t) log(1 - sigmoid x)], computed with softplus (no overflow)."""
    x = _as_tensor(input, "binary_cross_entropy_with_logits")
    pos = F.mul(target, softplus(F.neg(x)))
    if pos_weight is not None:
        pos = F.mul(pos, pos_weight)
    loss = F.add(pos, F.mul(F.sub(1, target), softplus(x)))
    if weight is not None:
        loss = F.mul(loss, weight)
    return _reduce(loss, reduction)


def binary_cross_entropy(input, target, weight=None, reduction="mean"):  # noqa: A002
    """-w [t log p + (1 - t) log(1 - p)] on probabilities (logs clamped at -100, as MindSpore/PyTorch)."""
    p = _as_tensor(input, "binary_cross_entropy")
    log_p = F.maximum(F.log(p), -100.0)
    log_q = F.maximum(F.log(F.sub(1, p)), -100.0)
    loss = F.neg(F.add(F.mul(target, log_p), F.mul(F.sub(1, target), log_q)))
    if weight is not None:
        loss = F.mul(loss, weight)
    return _reduce(loss, reduction)


def _class_axis_last(x: Tensor) -> Tensor:
    """(N, C, d1, ...) -> (N, d1, ..., C) so the class axis is last."""
    if x.ndim <= 2:
        return x
    return F.transpose(x, (0,) + tuple(range(2, x.ndim)) + (1,))


def nll_loss(inputs, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """Negative log-likelihood of class-index targets given log-probabilities ``inputs`` (N, C, ...)."""
    logp = _class_axis_last(_as_tensor(inputs, "nll_loss"))
    tgt = _as_tensor(target, "nll_loss")
    classes = logp.shape[-1]
    valid = F.not_equal(tgt, ignore_index)
    safe = F.where(valid, tgt, F.zeros_like(tgt))
    hot = one_hot(safe, classes, Tensor(1.0, logp.dtype), Tensor(0.0, logp.dtype), labels_of="nll_loss")
    w = F.ones((classes,), logp.dtype) if weight is None else F.cast(weight, logp.dtype)
    valid_f = F.cast(valid, logp.dtype)
    w_target = F.mul(F.sum(F.mul(hot, w), -1), valid_f)  # weight of each sample's target class (0 if ignored)
    picked = F.neg(F.sum(F.mul(hot, logp), -1))
    loss = F.mul(picked, w_target)
    if label_smoothing:
        smooth = F.mul(F.neg(F.sum(F.mul(logp, w), -1)), F.div(valid_f, classes))
        loss = F.add(F.mul(loss, 1.0 - label_smoothing), F.mul(smooth, label_smoothing))
    if reduction == "mean":
        return F.div(F.sum(loss), F.sum(w_target))
    return _reduce(loss, reduction)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",  # noqa: A002
                  label_smoothing=0.0):
    """Softmax cross entropy of logits (N, C, ...) against class indices or class probabilities."""
    x = _as_tensor(input, "cross_entropy")
    tgt = _as_tensor(target, "cross_entropy")
    logp = log_softmax(x, 1 if x.ndim > 1 else 0)
    if tgt.dtype.is_int:
        return nll_loss(logp, tgt, weight, ignore_index, reduction, label_smoothing)
    logp_last = _class_axis_last(logp)
    probs = _class_axis_last(tgt)
    classes = logp_last.shape[-1]
    if label_smoothing:
        probs = F.add(F.mul(probs, 1.0 - label_smoothing), label_smoothing / classes)
    terms = F.mul(probs, logp_last)
    if weight is not None:
        terms = F.mul(terms, weight)
    return _reduce(F.neg(F.sum(terms, -1)), reduction)


def softmax_cross_entropy_with_logits(logits, labels):
    """``ops.SoftmaxCrossEntropyWithLogits``: (per-sample loss, softmax(logits) - labels)."""
    loss = F.neg(F.sum(F.mul(labels, log_softmax(logits, -1)), -1))
    return loss, F.sub(F.stop_gradient(softmax(logits, -1)), labels)


def sparse_softmax_cross_entropy(logits, labels, is_grad=False):
    """``ops.SparseSoftmaxCrossEntropyWithLogits``: the mean loss, or with is_grad its gradient w.r.t. logits."""
    if is_grad:
        hot = one_hot(labels, logits.shape[-1], Tensor(1.0, logits.dtype), Tensor(0.0, logits.dtype),
                      labels_of="SparseSoftmaxCrossEntropyWithLogits")
        return F.div(F.sub(softmax(logits, -1), hot), F.axes_size(logits, 0, logits.dtype))
    return nll_loss(log_softmax(logits, -1), labels)


def kl_div(logits, labels, reduction="mean", log_target=False):
    """KL(labels || exp(logits)) with ``logits`` as log-probabilities."""
    if log_target:
        terms = F.mul(F.exp(labels), F.sub(labels, logits))
    else:
        safe = F.where(F.greater(labels, 0), labels, F.ones_like(labels))
        terms = F.mul(labels, F.sub(F.log(safe), logits))
    if reduction == "batchmean":
        return F.div(F.sum(terms), F.axes_size(logits, 0, logits.dtype))
    return _reduce(terms, reduction)

