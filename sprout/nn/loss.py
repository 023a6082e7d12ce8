"""Loss cells: LossBase (get_loss), MSELoss, L1Loss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits,
CrossEntropyLoss, NLLLoss, BCELoss, BCEWithLogitsLoss."""
from __future__ import annotations

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Parameter, Tensor
from ..ops.nn_ops import sparse_softmax_cross_entropy
from .cell import Cell

_REDUCTIONS = ("mean", "sum", "none")


def _check_tensor(name: str, value, owner: str) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got {type(value).__name__}.")


class LossBase(Cell):
    """Base of the loss cells: ``get_loss(x, weights=1.0)`` weights x and reduces it as ``reduction`` says."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"For '{self.cls_name}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                             f"but got {reduction}.")
        self.reduction = reduction
        self.average = reduction == "mean"
        self.reduce = reduction != "none"

    def get_axis(self, x) -> tuple:
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        in_dtype = x.dtype
        if in_dtype is not mstype.float32:
            x = ops.cast(x, mstype.float32)
        if isinstance(weights, Tensor):
            x = ops.mul(ops.cast(weights, mstype.float32), x)
        elif weights != 1.0:
            x = ops.mul(x, float(weights))
        if self.reduce:
            x = ops.mean(x) if self.average else ops.sum(x)
        if in_dtype is not mstype.float32:
            x = ops.cast(x, in_dtype)
        return x

    def construct(self, logits, labels):
        raise NotImplementedError


class L1Loss(LossBase):
    """|logits - labels|, reduced."""

    def construct(self, logits, labels):
        return self.get_loss(ops.abs(ops.sub(logits, labels)))


class MSELoss(LossBase):
    """(logits - labels)^2, reduced."""

    def construct(self, logits, labels):
        return self.get_loss(ops.square(ops.sub(logits, labels)))


class SmoothL1Loss(LossBase):
    """0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (default reduction 'none')."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        if beta <= 0:
            raise ValueError(f"For 'SmoothL1Loss', 'beta' must be > 0, but got {beta}.")
        self.beta = float(beta)

    def construct(self, logits, labels):
        diff = ops.abs(ops.sub(logits, labels))
        small = ops.div(ops.mul(ops.square(diff), 0.5), self.beta)
        return self.get_loss(ops.where(ops.less(diff, self.beta), small, ops.sub(diff, 0.5 * self.beta)))


def _fused_sparse(logits, labels) -> bool:
    """Float logits (..., C) with int labels (...): one fused primitive computes what the composite would."""
    return (logits.dtype in (mstype.float32, mstype.float64) and labels.dtype.is_int and logits.ndim >= 1
            and tuple(labels.shape) == tuple(logits.shape)[:-1] and None not in tuple(logits.shape))


class SoftmaxCrossEntropyWithLogits(LossBase):
    """-sum(labels * log_softmax(logits), -1); ``sparse=True`` takes class indices (default reduction 'none')."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', 'sparse' must be a bool, got {sparse!r}.")
        self.sparse = sparse

    def construct(self, logits, labels):
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", labels, self.cls_name)
        if self.sparse:
            if _fused_sparse(logits, labels):
                if logits.dtype is mstype.float32:  # get_loss is exactly the op's own reduction then
                    return sparse_softmax_cross_entropy(logits, labels, self.reduction)
                return self.get_loss(sparse_softmax_cross_entropy(logits, labels))
            labels = ops.one_hot(labels, logits.shape[-1], 1.0, 0.0)
            if labels.dtype is not logits.dtype:
                labels = ops.cast(labels, logits.dtype)
        loss = ops.neg(ops.sum(ops.mul(labels, ops.log_softmax(logits, -1)), -1))
        return self.get_loss(loss)


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits (N, C, ...) against class indices (N, ...) or class probabilities (N, C, ...)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if not isinstance(ignore_index, int):
            raise TypeError(f"For 'CrossEntropyLoss', 'ignore_index' must be an int, got {ignore_index!r}.")
        if not isinstance(label_smoothing, float) or not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', 'label_smoothing' must be a float in [0, 1], "
                             f"got {label_smoothing!r}.")
        if weight is not None and not isinstance(weight, Tensor):
            raise TypeError(f"For 'CrossEntropyLoss', 'weight' must be a Tensor, got {type(weight).__name__}.")
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, label_smoothing

    def construct(self, logits, labels):
        _check_tensor("logits", logits, self.cls_name)
        _check_tensor("labels", labels, self.cls_name)
        if logits.ndim != labels.ndim and logits.ndim - 1 != labels.ndim:
            raise ValueError(f"For 'CrossEntropyLoss', the rank of 'logits' and 'labels' should be equal (class "
                             f"probabilities) or differ by one (class indices), but got {logits.ndim} and "
                             f"{labels.ndim}.")
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                 self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log likelihood of log-probabilities (N, C, ...) at target class indices."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        if not isinstance(ignore_index, int):
            raise TypeError(f"For 'NLLLoss', 'ignore_index' must be an int, got {ignore_index!r}.")
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, logits, labels):
        return ops.nll_loss(logits, labels, self.weight, self.ignore_index, self.reduction)


class BCELoss(LossBase):
    """Binary cross entropy of probabilities: -(y log p + (1 - y) log(1 - p)) (log clamped at -100)."""

    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, logits, labels):
        return ops.binary_cross_entropy(logits, labels, self.weight, self.reduction)


class BCEWithLogitsLoss(LossBase):
    """Binary cross entropy on logits (sigmoid fused in, numerically stable), with optional weight/pos_weight."""

    def __init__(self, reduction="mean", weight=None, pos_weight=None):
        super().__init__(reduction)
        for name, v in (("weight", weight), ("pos_weight", pos_weight)):
            if isinstance(v, Parameter):
                raise TypeError(f"For 'BCEWithLogitsLoss', the '{name}' can not be a Parameter.")
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, logits, labels):
        _check_tensor("input", logits, self.cls_name)
        _check_tensor("target", labels, self.cls_name)
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight, self.reduction)
