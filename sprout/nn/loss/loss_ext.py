"""More loss cells: margin, triplet, cosine-embedding, hinge, Huber, KL, Poisson/Gaussian NLL, focal, dice, CTC and
the multi-label / multi-class margin losses (MindSpore's formulas and argument checks)."""
from __future__ import annotations

import math

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Tensor
from ...ops import losses_ext as LX
from ..cell import Cell
from ..layers.activation import get_activation
from .loss import LossBase, check_tensor

__all__ = ["L1LossExt", "MarginRankingLoss", "SoftMarginLoss", "DiceLoss", "MultiClassDiceLoss",
           "TripletMarginWithDistanceLoss", "PoissonNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
           "CosineEmbeddingLoss", "MultilabelMarginLoss", "FocalLoss", "HuberLoss", "TripletMarginLoss", "KLDivLoss",
           "CTCLoss", "GaussianNLLLoss", "HingeEmbeddingLoss"]


def _float_arg(value, name: str, owner: str) -> float:
    if not isinstance(value, float):
        raise TypeError(f"For '{owner}', the type of '{name}' should be 'float', but got type "
                        f"'{type(value).__name__}'.")
    return value


class L1LossExt(LossBase):
    """|logits - labels|, reduced (MindSpore's mint-style L1 loss)."""

    def construct(self, logits, labels):
        return LX.get_loss(ops.abs(ops.sub(logits, labels)), self.reduction, self.cls_name)


class MarginRankingLoss(LossBase):
    """max(0, -target * (input1 - input2) + margin)."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        self.margin = margin

    def construct(self, input1, input2, target):
        return LX.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class SoftMarginLoss(LossBase):
    """log(1 + exp(-labels * logits))."""

    def construct(self, logits, labels):
        return LX.soft_margin_loss(logits, labels, self.reduction)


class DiceLoss(LossBase):
    """1 - 2 sum(x y) / (sum(x^2) + sum(y^2) + smooth) over every element."""

    def __init__(self, smooth=1e-5):
        super().__init__()
        if not isinstance(smooth, float):
            raise TypeError(f"The 'smooth' must be float, but got '{type(smooth).__name__}'")
        if smooth <= 0:
            raise ValueError(f"The 'smooth' must be float and must > 0, but got '{smooth}' with type 'float'.")
        self.smooth = smooth

    def construct(self, logits, label):
        check_tensor("logits", logits, self.cls_name)
        check_tensor("labels", label, self.cls_name)
        if tuple(logits.shape) != tuple(label.shape):
            raise ValueError(f"For '{self.cls_name}', the 'logits_shape' should be = label_shape: "
                             f"{tuple(label.shape)}, but got {tuple(logits.shape)}.")
        for name, t in (("logits", logits), ("labels", label)):
            if t.dtype is mstype.uint8:
                raise TypeError(f"For '{self.cls_name}', the dtype of '{name}' can not be uint8.")
        x, y = ops.reshape(logits, (-1,)), ops.reshape(label, (-1,))
        inter = ops.sum(ops.mul(x, y))
        union = ops.add(ops.sum(ops.mul(x, x)), ops.sum(ops.mul(y, y)))
        return ops.sub(1, ops.div(ops.mul(inter, 2), ops.add(union, self.smooth)))


class MultiClassDiceLoss(LossBase):
    """Mean over classes (axis 1) of the dice loss of activation(logits)[:, i] and label[:, i], optionally weighted
    per class and skipping ``ignore_indiex`` (MindSpore's spelling)."""

    _activations = ("softmax", "logsoftmax", "relu", "relu6", "tanh", "sigmoid")

    def __init__(self, weights=None, ignore_indiex=None, activation="softmax"):
        super().__init__()
        owner = self.cls_name
        self.binarydiceloss = DiceLoss(smooth=1e-5)
        if weights is not None:
            if not isinstance(weights, Tensor):
                raise TypeError(f"The type of 'weights' should be 'Tensor', but got type "
                                f"'{type(weights).__name__}'.")
            if weights.ndim != 2:
                raise ValueError(f"For '{owner}', the dimension of 'weights' must be 2, but got {weights.ndim}.")
        if ignore_indiex is not None and (isinstance(ignore_indiex, bool) or not isinstance(ignore_indiex, int)):
            raise TypeError(f"The type of 'ignore_indiex' should be 'int', but got type "
                            f"'{type(ignore_indiex).__name__}'.")
        if isinstance(activation, str) and activation not in self._activations:
            raise ValueError(f"For '{owner}', the 'activation' must be in {list(self._activations)}, but got "
                             f"{activation}.")
        self.weights, self.ignore_indiex = weights, ignore_indiex
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if self.activation is not None and not isinstance(self.activation, Cell):
            raise TypeError(f"For '{owner}', the 'activation' must be str or Cell, but got {type(self.activation)}.")

    def construct(self, logits, label):
        owner = self.cls_name
        check_tensor("logits", logits, owner)
        check_tensor("labels", label, owner)
        if tuple(logits.shape) != tuple(label.shape):
            raise ValueError(f"For '{owner}', the 'logits_shape' should be = label_shape: {tuple(label.shape)}, but "
                             f"got {tuple(logits.shape)}.")
        if logits.ndim < 2:
            raise ValueError(f"For '{owner}', the 'logits' dimension must be greater than 1, but got {logits.ndim}.")
        if self.weights is not None and self.weights.shape[0] != label.shape[1]:
            raise ValueError(f"For '{owner}', the weight_shape[0] must be equal to label_shape[1], but got "
                             f"weight_shape[0]: {self.weights.shape[0]} and label_shape[1]: {label.shape[1]}.")
        if self.activation is not None:
            logits = self.activation(logits)
        total = 0
        for i in range(label.shape[1]):
            if i != self.ignore_indiex:
                loss = self.binarydiceloss(logits[:, i], label[:, i])
                if self.weights is not None:
                    loss = ops.mul(loss, self.weights[i])
                total = ops.add(total, loss)
        return ops.div(total, float(label.shape[1]))


class TripletMarginWithDistanceLoss(LossBase):
    """max(d(x, positive) - d(x, negative) + margin, 0) with a custom distance (default: the L2 norm of |a - b|
    over axis 1); ``swap`` replaces d(x, negative) by min(d(x, negative), d(positive, negative))."""

    def __init__(self, distance_function=None, swap=False, reduction="mean", margin=1.0):
        super().__init__(reduction)
        _float_arg(margin, "margin", self.cls_name)
        if not isinstance(swap, bool):
            raise TypeError(f"For '{self.cls_name}', the 'swap' must be a bool, but got {type(swap).__name__}.")
        self.distance_function = distance_function if distance_function is not None else _l2_axis1
        self.swap, self.margin = swap, margin

    def construct(self, x, positive, negative):
        for name, t in (("x", x), ("positive", positive), ("negative", negative)):
            check_tensor(name, t, self.cls_name)
        d1 = self.distance_function(x, positive)
        d2 = self.distance_function(x, negative)
        if self.swap:
            d2 = ops.minimum(d2, self.distance_function(positive, negative))
        return self.get_loss(ops.maximum(ops.add(ops.sub(d1, d2), self.margin), 0.0))


def _l2_axis1(x, y):
    d = ops.abs(ops.sub(x, y))
    if d.ndim == 0:
        raise ValueError("For 'pairwise_distance' in 'TripletMarginWithDistanceLoss', 'ndim' of the input must be "
                         f"positive, but got {d.ndim}")
    return ops.sqrt(ops.sum(ops.square(d), 1))


class PoissonNLLLoss(LossBase):
    """exp(x) - t x (``log_input``) or x - t log(x + eps); ``full`` adds Stirling's term where t > 1."""

    def __init__(self, log_input=True, full=False, eps=1e-08, reduction="mean"):
        super().__init__(reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def construct(self, input, target):  # noqa: A002 - MindSpore's argument name
        check_tensor("input", input, self.cls_name)
        check_tensor("target", target, self.cls_name)
        target = ops.cast(target, input.dtype)
        if self.log_input:
            loss = ops.sub(ops.exp(input), ops.mul(target, input))
        else:
            loss = ops.sub(input, ops.mul(target, ops.log(ops.add(input, self.eps))))
        if self.full:
            t = ops.maximum(target, self.eps)
            stirling = ops.add(ops.sub(ops.mul(ops.add(t, 0.5), ops.log(t)), t), 0.5 * math.log(2 * math.pi))
            loss = ops.add(loss, ops.where(ops.greater(t, 1.0), stirling, ops.zeros_like(stirling)))
        return self.get_loss(loss)


class MultiLabelSoftMarginLoss(LossBase):
    """Mean over classes of the per-class logistic loss, optionally weighted."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, x, target):
        return LX.multilabel_soft_margin_loss(x, target, self.weight, self.reduction)


class MultiMarginLoss(LossBase):
    """Multi-class hinge loss: sum over i != y of max(0, margin - x[y] + x[i])^p (times weight[y]) / C."""

    def __init__(self, p=1, margin=1.0, reduction="mean", weight=None):
        super().__init__(reduction)
        if p not in (1, 2) or isinstance(p, bool):
            raise ValueError(f"For 'MultiMarginLoss', the 'p' must be 1 or 2, but got {p!r}.")
        if not isinstance(margin, float):
            raise TypeError(f"For 'MultiMarginLoss', the type of 'margin' should be 'float', but got type "
                            f"'{type(margin).__name__}'.")
        self.p, self.margin, self.weight = p, margin, weight

    def construct(self, x, target, weight=None):
        check_tensor("x", x, self.cls_name)
        check_tensor("target", target, self.cls_name)
        if self.weight is not None:
            weight = self.weight
        check_tensor("weight", weight, self.cls_name)
        return LX.multi_margin_loss(x, target, self.p, self.margin, weight, self.reduction)


class CosineEmbeddingLoss(LossBase):
    """1 - cos(x1, x2) where labels == 1, max(0, cos(x1, x2) - margin) where labels == -1 (cosine over axis 1)."""

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        _float_arg(margin, "margin", self.cls_name)
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'margin' must be in range of [-1.0, 1.0], but got "
                             f"{margin}.")
        self.margin = margin

    def construct(self, logits_x1, logits_x2, labels):
        for name, t in (("logits_x1", logits_x1), ("logits_x2", logits_x2), ("labels", labels)):
            check_tensor(name, t, self.cls_name)
        if logits_x1.dtype is not logits_x2.dtype or tuple(logits_x1.shape) != tuple(logits_x2.shape):
            raise TypeError(f"For '{self.cls_name}', 'logits_x1' and 'logits_x2' must have the same dtype and shape, "
                            f"but got {logits_x1.dtype}{list(logits_x1.shape)} and "
                            f"{logits_x2.dtype}{list(logits_x2.shape)}.")
        prod = ops.sum(ops.mul(logits_x1, logits_x2), (1,))
        denom = ops.mul(ops.sqrt(ops.sum(ops.square(logits_x1), (1,))), ops.sqrt(ops.sum(ops.square(logits_x2), (1,))))
        cosine = ops.div(prod, denom)
        zeros = ops.zeros_like(cosine)
        pos = ops.where(ops.equal(labels, 1), ops.sub(1.0, cosine), zeros)
        neg = ops.where(ops.equal(labels, -1), ops.maximum(ops.sub(cosine, self.margin), 0.0), zeros)
        return self.get_loss(ops.add(pos, neg))


class MultilabelMarginLoss(LossBase):
    """Multi-label hinge loss over the target classes listed in ``target`` (ended by -1)."""

    def construct(self, x, target):
        return LX.multilabel_margin_loss(x, target, self.reduction)[0]


def _check_focal(logits, labels, owner: str) -> None:
    for name, t in (("logits", logits), ("labels", labels)):
        if not 2 <= t.ndim <= 4:
            raise ValueError(f"For '{owner}', the dimensions of '{name}' must be in [2, 4], but got dimension of "
                             f"'{name}' {t.ndim}.")
    if logits.ndim != labels.ndim:
        raise ValueError(f"For '{owner}', the dimensions of 'logits' and 'labels' must be equal, but got dimension "
                         f"of 'logits' {logits.ndim} and dimension of 'labels' {labels.ndim}.")
    if logits.shape[1] == 1:
        raise ValueError(f"For '{owner}', the 'logits'.shape[1] cannot be one, but got {logits.shape[1]}.")
    if labels.shape[1] not in (1, logits.shape[1]):
        raise ValueError(f"For '{owner}', the 'labels'.shape[1] must be one or equal to 'logits'.shape[1]: "
                         f"{logits.shape[1]}, but got {labels.shape[1]}.")
    if labels.dtype not in (mstype.int32, mstype.int64, mstype.float16, mstype.float32):
        raise TypeError(f"For '{owner}', the dtype of 'labels' must be int32, int64, float16 or float32, but got "
                        f"{labels.dtype}.")


class FocalLoss(LossBase):
    """-(1 - p)^gamma log p of the softmax over axis 1 (class indices in labels[:, 0] or one-hot labels), optionally
    weighted per class; averaged over the spatial positions (index labels) or classes (one-hot)."""

    def __init__(self, weight=None, gamma=2.0, reduction="mean"):
        super().__init__(reduction)
        _float_arg(gamma, "gamma", self.cls_name)
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For '{self.cls_name}', the type of 'weight' must be a Tensor, but got "
                            f"{type(weight).__name__}.")
        if isinstance(weight, Tensor) and weight.ndim != 1:
            raise ValueError(f"For '{self.cls_name}', the dimension of 'weight' must be 1, but got {weight.ndim}.")
        self.gamma, self.weight = gamma, weight

    def construct(self, logits, labels):
        check_tensor("logits", logits, self.cls_name)
        check_tensor("labels", labels, self.cls_name)
        _check_focal(logits, labels, self.cls_name)
        index_labels = labels.shape[1] == 1
        if logits.ndim > 2:
            logits = ops.reshape(logits, (logits.shape[0], logits.shape[1], -1))
            labels = ops.reshape(labels, (labels.shape[0], labels.shape[1], -1))
        else:
            logits, labels = ops.expand_dims(logits, 2), ops.expand_dims(labels, 2)
        log_p = ops.log_softmax(logits, 1)
        if index_labels:
            log_p = ops.squeeze(ops.gather_elements(log_p, 1, ops.cast(labels, mstype.int32)), 1)
        p = ops.exp(log_p)
        if self.weight is not None:
            w = ops.tile(ops.reshape(self.weight, (1, -1, 1)), (labels.shape[0], 1, labels.shape[2]))
            if index_labels:
                w = ops.squeeze(ops.gather_elements(w, 1, ops.cast(labels, mstype.int32)), 1)
            log_p = ops.mul(log_p, w)
        factor = ops.pow(ops.add(ops.neg(p), 1.0), self.gamma)
        if index_labels:
            loss = ops.mean(ops.neg(ops.mul(factor, log_p)), 1)
        else:
            loss = ops.mean(ops.neg(ops.mul(ops.mul(factor, labels), log_p)), -1)
        return self.get_loss(loss)


class HuberLoss(LossBase):
    """0.5 z^2 where |z| < delta, delta (|z| - delta / 2) elsewhere."""

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels):
        return LX.huber_loss(logits, labels, self.reduction, self.delta)


class TripletMarginLoss(LossBase):
    """max(||x - positive + eps||_p - ||x - negative + eps||_p + margin, 0) over the last axis."""

    def __init__(self, p=2, swap=False, eps=1e-06, reduction="mean", margin=1.0):
        super().__init__(reduction)
        self.p, self.swap, self.eps, self.margin = p, swap, eps, margin

    def construct(self, x, positive, negative, margin=1.0):
        if self.margin != 1.0:
            margin = self.margin
        return LX.triplet_margin_loss(x, positive, negative, margin, self.p, self.eps, self.swap, self.reduction)


class KLDivLoss(LossBase):
    """labels * (log labels - logits), ``logits`` being log-probabilities; "mean" divides by the element count,
    "batchmean" by the batch size."""

    def __init__(self, reduction="mean"):
        Cell.__init__(self)
        if reduction not in ("none", "mean", "batchmean", "sum"):
            raise ValueError(f"For 'kl_div', the 'reduction' must be str and must be in "
                             f"'['none', 'mean', 'batchmean', 'sum']', but got '{reduction}'.")
        self.reduction = reduction
        self.average, self.reduce = reduction != "sum", reduction != "none"

    def construct(self, logits, labels):
        check_tensor("logits", logits, self.cls_name)
        check_tensor("labels", labels, self.cls_name)
        return ops.kl_div(logits, labels, self.reduction)


class CTCLoss(LossBase):
    """CTC loss of log_probs (T, N, C) (or (T, C) for one sequence) against padded targets (N, S)."""

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction)
        self.blank, self.zero_infinity = blank, zero_infinity

    def construct(self, log_probs, targets, input_lengths, target_lengths):
        check_tensor("log_probs", log_probs, self.cls_name)
        check_tensor("targets", targets, self.cls_name)
        if log_probs.ndim == 2:
            if targets.ndim > 2 or (targets.ndim == 2 and targets.shape[0] != 1):
                raise ValueError(f"For CTCLoss, when the shape of log_probs is (T, C), targets must be 1-D or (1, S), "
                                 f"but got shape {list(targets.shape)}.")
            if targets.ndim == 1:
                targets = ops.expand_dims(targets, 0)
            loss, _ = LX.ctc_loss(ops.expand_dims(log_probs, -2), targets, input_lengths, target_lengths, self.blank,
                                  self.reduction, self.zero_infinity)
            return ops.squeeze(loss, 0) if loss.ndim else loss
        return LX.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                           self.zero_infinity)[0]


class GaussianNLLLoss(LossBase):
    """0.5 (log(max(var, eps)) + (logits - labels)^2 / max(var, eps)) (+ 0.5 log(2 pi) with ``full``)."""

    def __init__(self, *, full=False, eps=1e-06, reduction="mean"):
        super().__init__(reduction)
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 < eps < float("inf"):
            raise ValueError(f"For '{self.cls_name}', the 'eps' must be in range of (0, inf), but got {eps}.")
        if not isinstance(full, bool):
            raise TypeError(f"For '{self.cls_name}', the type of 'full' should be 'bool', but got type "
                            f"'{type(full).__name__}'.")
        self.full, self.eps = full, float(eps)

    def construct(self, logits, labels, var):
        for name, t in (("logits", logits), ("labels", labels), ("var", var)):
            check_tensor(name, t, self.cls_name)
        return LX.gaussian_nll_loss(logits, labels, var, self.full, self.eps, self.reduction)


class HingeEmbeddingLoss(LossBase):
    """x where labels > 0, max(0, margin - x) where labels < 0."""

    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction)
        if isinstance(margin, bool) or not isinstance(margin, (float, int)):
            raise TypeError(f"For '{self.cls_name}', the type of 'margin' should be one of '['float', 'int']', but "
                            f"got type '{type(margin).__name__}'.")
        self.margin = margin

    def construct(self, logits, labels):
        return LX.hinge_embedding_loss(logits, labels, self.margin, self.reduction)
