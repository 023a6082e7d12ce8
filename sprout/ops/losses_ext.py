"""More loss functions (MindSpore's ``ops.*_loss``): margin ranking, soft margin, multilabel soft margin, Huber,
triplet margin, Gaussian NLL, hinge embedding, multi margin, multilabel margin and CTC. Composites over
primitives, except CTC (ctc_ops.CTCLossV2)."""
from __future__ import annotations

import math

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import functional as F
from .composite import softplus
from .ctc_ops import CTC_LOSS_V2

__all__ = ["margin_ranking_loss", "soft_margin_loss", "multilabel_soft_margin_loss", "huber_loss",
           "triplet_margin_loss", "gaussian_nll_loss", "hinge_embedding_loss", "multi_margin_loss",
           "multilabel_margin_loss", "ctc_loss"]


def _tensor(x, name: str, op: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _reduction(reduction, op: str) -> str:
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"For '{op}', the 'reduction' must be in ['mean', 'sum', 'none'], but got {reduction}.")
    return reduction


def get_loss(x, reduction: str, op: str, weights=1.0):
    """MindSpore's loss reduction: weight, then mean / sum over every axis in float32, cast back."""
    _reduction(reduction, op)
    dtype = x.dtype
    if dtype is not mstype.float32:
        x = F.cast(x, mstype.float32)
    if isinstance(weights, Tensor):
        x = F.mul(F.cast(weights, mstype.float32), x)
    elif weights != 1.0:
        x = F.mul(x, float(weights))
    if reduction == "mean":
        x = F.mean(x)
    elif reduction == "sum":
        x = F.sum(x)
    return F.cast(x, dtype) if dtype is not mstype.float32 else x


def _same_dtype(a, b, na: str, nb: str, op: str) -> None:
    if a.dtype is not b.dtype:
        raise TypeError(f"For {op}, the {na} dtype should be equal to {nb} dtype, but got {na} dtype:{a.dtype}, "
                        f"{nb} dtype:{b.dtype}.")


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """max(0, -target * (input1 - input2) + margin)."""
    op = "margin_ranking_loss"
    if not isinstance(margin, float):
        raise TypeError(f"For '{op}', the type of 'margin' should be 'float', but got type '{type(margin).__name__}'.")
    for name, t in (("input1", input1), ("input2", input2), ("target", target)):
        _tensor(t, name, op)
    _same_dtype(input1, input2, "input1", "input2", op)
    _same_dtype(target, input1, "target", "input1", op)
    x = F.maximum(F.add(F.neg(F.mul(target, F.sub(input1, input2))), margin), 0.0)
    return get_loss(x, reduction, op)


def soft_margin_loss(input, target, reduction="mean"):  # noqa: A002
    """log(1 + exp(-target * input))."""
    op = "soft_margin_loss"
    _tensor(input, "input", op)
    _tensor(target, "target", op)
    return get_loss(softplus(F.neg(F.mul(target, input))), reduction, op)


def multilabel_soft_margin_loss(input, target, weight=None, reduction="mean"):  # noqa: A002
    """mean over classes of -(t log sigmoid(x) + (1 - t) log sigmoid(-x)) (times ``weight``), per sample."""
    op = "multilabel_soft_margin_loss"
    _tensor(input, "input", op)
    _tensor(target, "target", op)
    loss = F.add(F.mul(target, softplus(F.neg(input))), F.mul(F.sub(1, target), softplus(input)))
    if weight is not None:
        loss = F.mul(loss, weight)
    axis = input.ndim - 1
    return get_loss(F.div(F.sum(loss, axis), float(input.shape[axis])), reduction, op)


def huber_loss(input, target, reduction="mean", delta=1.0):  # noqa: A002
    """0.5 z^2 where |z| < delta, delta (|z| - delta / 2) elsewhere, z = input - target."""
    op = "huber_loss"
    _tensor(input, "input", op)
    _tensor(target, "target", op)
    if isinstance(delta, bool) or not isinstance(delta, (int, float)):
        raise TypeError(f"For '{op}', the type of 'delta' should be one of '['int', 'float']', but got type "
                        f"'{type(delta).__name__}'.")
    if delta <= 0:
        raise ValueError(f"For '{op}', the 'delta' must be greater than 0.0, but got {delta}.")
    z = F.abs(F.sub(input, target))
    loss = F.where(F.less(z, delta), F.mul(F.square(z), 0.5), F.mul(F.sub(z, 0.5 * delta), float(delta)))
    return get_loss(loss, reduction, op)


def _pairwise(x, y, p, eps):
    """||x - y + eps||_p over the last axis."""
    d = F.abs(F.add(F.sub(x, y), eps))
    if p == 1:
        return F.sum(d, -1)
    if p == 2:
        return F.sqrt(F.sum(F.square(d), -1))
    return F.pow(F.sum(F.pow(d, float(p)), -1), 1.0 / p)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction="mean"):
    """max(d(a, p) - d(a, n) + margin, 0) with d the p-norm distance over the last axis (``swap``: d(a, n) is
    replaced by min(d(a, n), d(p, n)))."""
    op = "TripletMarginLoss"
    for name, t in (("x", anchor), ("positive", positive), ("negative", negative)):
        _tensor(t, name, op)
    if isinstance(p, bool) or not isinstance(p, int) or p < 1:
        raise ValueError(f"For '{op}', the 'p' must be an int >= 1, but got {p!r}.")
    if not isinstance(swap, bool):
        raise TypeError(f"For '{op}', the 'swap' must be a bool, but got {type(swap).__name__}.")
    if not isinstance(eps, float):
        raise TypeError(f"For '{op}', the 'eps' must be a float, but got {type(eps).__name__}.")
    d_pos = _pairwise(anchor, positive, p, eps)
    d_neg = _pairwise(anchor, negative, p, eps)
    if swap:
        d_neg = F.minimum(d_neg, _pairwise(positive, negative, p, eps))
    m = F.cast(margin, anchor.dtype) if isinstance(margin, Tensor) else float(margin)
    return get_loss(F.maximum(F.add(F.sub(d_pos, d_neg), m), 0.0), reduction, op)


def gaussian_nll_loss(x, target, var, full=False, eps=1e-06, reduction="mean"):
    """0.5 (log(max(var, eps)) + (x - target)^2 / max(var, eps)) (+ 0.5 log(2 pi) with ``full``)."""
    op = "gaussian_nll_loss"
    for name, t in (("x", x), ("target", target), ("var", var)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{op}', '{name}' must be a tensor, but got {type(t)}.")
    if not isinstance(full, bool):
        raise TypeError(f"For '{op}', 'full' must be a bool, but got {type(full)}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{op}', 'eps' must be a positive float, but got {eps}.")
    _reduction(reduction, op)
    if tuple(x.shape) != tuple(var.shape) and tuple(x.shape[:-1]) == tuple(var.shape):
        var = F.expand_dims(var, -1)
    clamped = F.maximum(var, eps)
    loss = F.mul(F.add(F.log(clamped), F.div(F.square(F.sub(x, target)), clamped)), 0.5)
    if full:
        loss = F.add(loss, 0.5 * math.log(2 * math.pi))
    if reduction == "mean":
        return F.mean(loss)
    return F.sum(loss) if reduction == "sum" else loss


def hinge_embedding_loss(inputs, targets, margin=1.0, reduction="mean"):
    """x where target > 0, max(0, margin - x) where target < 0 (0 where target == 0)."""
    op = "HingeEmbeddingLoss"
    if isinstance(margin, bool) or not isinstance(margin, (float, int)):
        raise TypeError(f"For '{op}', 'margin' must be a float or int, but got {type(margin)}.")
    _reduction(reduction, op)
    if not isinstance(inputs, Tensor):
        raise TypeError(f"For '{op}', the first input must be a Tensor, but got {type(inputs)}.")
    if not isinstance(targets, Tensor):
        raise TypeError(f"For '{op}', the second input must be a Tensor, but got {type(targets)}.")
    if not inputs.dtype.is_float or not targets.dtype.is_float:
        raise TypeError(f"For '{op}', the dtypes of the inputs must be float, but got {inputs.dtype} and "
                        f"{targets.dtype}.")
    pos = F.cast(F.greater(targets, 0), inputs.dtype)
    neg = F.cast(F.less(targets, 0), inputs.dtype)
    loss = F.add(F.mul(pos, inputs), F.maximum(F.mul(neg, F.sub(float(margin), inputs)), 0.0))
    if reduction == "mean":
        return F.mean(loss)
    return F.sum(loss) if reduction == "sum" else loss


def multi_margin_loss(input, target, p=1, margin=1, weight=None, reduction="mean"):  # noqa: A002
    """Per sample: sum over classes i != y of max(0, margin - x[y] + x[i])^p (times weight[y]) / C."""
    op = "MultiMarginLoss"
    x = _tensor(input, "x", op)
    _tensor(target, "target", op)
    if p not in (1, 2):
        raise ValueError(f"For '{op}', the 'p' must be 1 or 2, but got {p!r}.")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)):
        raise TypeError(f"For '{op}', the 'margin' must be a number, but got {type(margin).__name__}.")
    if x.ndim != 2 or target.ndim != 1 or target.shape[0] != x.shape[0]:
        raise ValueError(f"For '{op}', 'x' must be (N, C) and 'target' (N,), but got {list(x.shape)} and "
                         f"{list(target.shape)}.")
    classes = x.shape[1]
    idx = F.expand_dims(F.cast(target, mstype.int64), 1)
    picked = F.gather_elements(x, 1, idx)  # (N, 1)
    terms = F.maximum(F.add(F.sub(x, picked), float(margin)), 0.0)
    if p == 2:
        terms = F.square(terms)
    other = F.sub(1.0, F.one_hot(F.cast(target, mstype.int64), classes, Tensor(1.0, x.dtype), Tensor(0.0, x.dtype)))
    terms = F.mul(terms, other)
    if weight is not None:
        terms = F.mul(terms, F.expand_dims(F.gather(weight, F.cast(target, mstype.int32), 0), 1))
    loss = F.div(F.sum(terms, 1), float(classes))
    return get_loss(loss, reduction, op)


def multilabel_margin_loss(input, target, reduction="mean"):  # noqa: A002
    """Per sample: sum over target classes j (``target`` lists them, ended by -1) and non-target classes i of
    max(0, 1 - (x[j] - x[i])) / C. Returns (loss, is_target) like MindSpore's primitive."""
    op = "MultilabelMarginLoss"
    x = _tensor(input, "x", op)
    _tensor(target, "target", op)
    if target.dtype is not mstype.int32:
        raise TypeError(f"For '{op}', the dtype of 'target' must be int32, but got {target.dtype}.")
    if tuple(x.shape) != tuple(target.shape) or x.ndim not in (1, 2):
        raise ValueError(f"For '{op}', 'x' and 'target' must have the same 1-D or 2-D shape, but got "
                         f"{list(x.shape)} and {list(target.shape)}.")
    squeeze = x.ndim == 1
    if squeeze:
        x, target = F.expand_dims(x, 0), F.expand_dims(target, 0)
    classes = x.shape[1]
    ended = F.cumsum(F.cast(F.less(target, 0), mstype.int32), 1)
    valid = F.cast(F.equal(ended, 0), x.dtype)  # (N, C): positions before the first -1
    safe = F.cast(F.maximum(target, 0), mstype.int64)
    hot = F.one_hot(safe, classes, Tensor(1.0, x.dtype), Tensor(0.0, x.dtype))  # (N, C, C)
    is_target = F.minimum(F.sum(F.mul(hot, F.expand_dims(valid, 2)), 1), 1.0)  # (N, C)
    picked = F.gather_elements(x, 1, safe)  # x[target_j] (N, C)
    margins = F.maximum(F.sub(1.0, F.sub(F.expand_dims(picked, 2), F.expand_dims(x, 1))), 0.0)  # (N, j, i)
    mask = F.mul(F.expand_dims(valid, 2), F.expand_dims(F.sub(1.0, is_target), 1))
    loss = F.div(F.sum(F.mul(margins, mask), (1, 2)), float(classes))
    if squeeze:
        loss, is_target = F.squeeze(loss, 0), F.squeeze(is_target, 0)
    return get_loss(loss, reduction, op), F.cast(is_target, mstype.int32)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """MindSpore's ``ops.ctc_loss``: (loss, log_alpha); "mean" divides each sequence's loss by its target length
    (at least 1) and averages."""
    op = "ctc_loss"
    if isinstance(blank, bool) or not isinstance(blank, int):
        raise TypeError(f"For '{op}', the type of 'blank' should be 'int', but got type '{type(blank).__name__}'.")
    if not isinstance(reduction, str):
        raise TypeError(f"For '{op}', the type of 'reduction' should be 'str', but got type "
                        f"'{type(reduction).__name__}'.")
    _reduction(reduction, op)
    if not isinstance(zero_infinity, bool):
        raise TypeError(f"For '{op}', the type of 'zero_infinity' should be 'bool', but got type "
                        f"'{type(zero_infinity).__name__}'.")
    lengths = []
    for v in (input_lengths, target_lengths):
        lengths.append(v if isinstance(v, Tensor) else Tensor(list(v), mstype.int64))
    loss, log_alpha = bind(CTC_LOSS_V2, (log_probs, targets, lengths[0], lengths[1]),
                           {"blank": blank, "zero_infinity": zero_infinity})
    if reduction == "sum":
        loss = F.sum(loss)
    elif reduction == "mean":
        dtype = loss.dtype
        per = F.div(F.cast(loss, mstype.float32), F.maximum(F.cast(lengths[1], mstype.float32), 1.0))
        loss = F.cast(F.mean(per), dtype)
    return loss, log_alpha
