"""Loss cells (``mindspore.nn.loss.loss``): LossBase (``get_loss``: weights, then mean/sum/none), MSELoss, L1Loss,
MAELoss, RMSELoss, SmoothL1Loss, SoftmaxCrossEntropyWithLogits, CrossEntropyLoss, NLLLoss, BCELoss,
BCEWithLogitsLoss; the rest of MindSpore's loss cells are in loss_ext.py and re-exported here."""
from __future__ import annotations

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Parameter, Tensor
from ...ops import losses_ext as LX
from ...ops.nn_ops import sparse_softmax_cross_entropy
from ..cell import Cell

_REDUCTIONS = ("mean", "sum", "none")


def check_tensor(name: str, value, owner: str) -> None:
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be 'Tensor', but got '{type(value).__name__}'.")


class LossBase(Cell):
    """Base of the loss cells: ``get_loss(x, weights=1.0)`` weights x and reduces it as ``reduction`` says
    (computed in float32, returned in x's dtype)."""

    def __init__(self, reduction="mean"):
        super().__init__()
        if reduction not in _REDUCTIONS:
            raise ValueError(f"For '{self.cls_name}', the 'reduction' must be in ['mean', 'sum', 'none'], "
                             f"but got {reduction}.")
        self.reduction = reduction
        self.average = reduction != "sum"
        self.reduce = reduction != "none"

    def get_axis(self, x) -> tuple:
        return tuple(range(x.ndim))

    def get_loss(self, x, weights=1.0):
        mode = "none" if not self.reduce else ("mean" if self.average else "sum")
        return LX.get_loss(x, mode, self.cls_name, weights)

    def construct(self, logits, labels):
        raise NotImplementedError(f"{self.cls_name} must define construct(self, logits, labels)")


class _Loss(LossBase):
    """MindSpore's deprecated name of LossBase."""


class L1Loss(LossBase):
    """|logits - labels|, reduced."""

    def construct(self, logits, labels):
        check_tensor("input", logits, "l1_loss")
        check_tensor("target", labels, "l1_loss")
        return self.get_loss(ops.abs(ops.sub(logits, labels)))


class MAELoss(LossBase):
    """|logits - label|, reduced (same as L1Loss)."""

    def construct(self, logits, label):
        check_tensor("logits", logits, self.cls_name)
        check_tensor("labels", label, self.cls_name)
        return self.get_loss(ops.abs(ops.sub(logits, label)))


class MSELoss(LossBase):
    """(logits - labels)^2, reduced."""

    def construct(self, logits, labels):
        check_tensor("logits", logits, self.cls_name)
        check_tensor("labels", labels, self.cls_name)
        return self.get_loss(ops.square(ops.sub(logits, labels)))


class RMSELoss(LossBase):
    """sqrt(mean((logits - label)^2))."""

    def __init__(self):
        super().__init__()
        self.MSELoss = MSELoss()

    def construct(self, logits, label):
        for name, t in (("logits", logits), ("label", label)):
            if isinstance(t, Tensor) and t.dtype.name.startswith("UInt"):
                raise TypeError(f"For 'RMSELoss', the parameters data type must not be unsigned, but got "
                                f"mindspore.{str(t.dtype).lower()} for '{name}'.")
        return ops.sqrt(self.MSELoss(logits, label))


class SmoothL1Loss(LossBase):
    """0.5 d^2 / beta where |d| < beta, |d| - 0.5 beta elsewhere (default reduction 'none')."""

    def __init__(self, beta=1.0, reduction="none"):
        super().__init__(reduction)
        if isinstance(beta, bool) or not isinstance(beta, (int, float)):
            raise TypeError(f"For 'SmoothL1Loss', the 'beta' must be a float, but got {type(beta).__name__}.")
        if beta <= 0:
            raise ValueError(f"For 'SmoothL1Loss', the values for beta should greater than 0, but got {beta}.")
        self.beta = float(beta)

    def construct(self, logits, labels):
        check_tensor("logits", logits, self.cls_name)
        check_tensor("labels", labels, self.cls_name)
        return ops.smooth_l1_loss(logits, labels, self.beta, self.reduction)


def _fused_sparse(logits, labels) -> bool:
    """Float logits (..., C) with int labels (...): one fused primitive computes what the composite would."""
    return (logits.dtype in (mstype.float32, mstype.float64) and labels.dtype.is_int and logits.ndim >= 1
            and tuple(labels.shape) == tuple(logits.shape)[:-1] and None not in tuple(logits.shape))


class SoftmaxCrossEntropyWithLogits(LossBase):
    """-sum(labels * log_softmax(logits), -1); ``sparse=True`` takes class indices (default reduction 'none')."""

    def __init__(self, sparse=False, reduction="none"):
        super().__init__(reduction)
        if not isinstance(sparse, bool):
            raise TypeError(f"For 'SoftmaxCrossEntropyWithLogits', the 'sparse' must be a bool, but got "
                            f"{type(sparse).__name__}.")
        self.sparse = sparse

    def construct(self, logits, labels):
        check_tensor("logits", logits, self.cls_name)
        check_tensor("labels", labels, self.cls_name)
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


def _check_weight(weight, owner: str) -> None:
    if weight is not None:
        if not isinstance(weight, Tensor):
            raise TypeError(f"For '{owner}', the type of 'weight' should be 'Tensor', but got type "
                            f"'{type(weight).__name__}'.")
        if weight.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For '{owner}', the dtype of 'weight' must be float16 or float32, but got "
                            f"{weight.dtype}.")


def _check_int(value, name: str, owner: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For '{owner}', the type of '{name}' should be 'int', but got type "
                        f"'{type(value).__name__}'.")


class CrossEntropyLoss(LossBase):
    """Cross entropy of logits (N, C, ...) against class indices (N, ...) or class probabilities (N, C, ...)."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        _check_int(ignore_index, "ignore_index", "CrossEntropyLoss")
        if not isinstance(label_smoothing, float):
            raise TypeError(f"For 'CrossEntropyLoss', the type of 'label_smoothing' should be 'float', but got type "
                            f"'{type(label_smoothing).__name__}'.")
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', the 'label_smoothing' must be in range of [0.0, 1.0], but got "
                             f"{label_smoothing}.")
        _check_weight(weight, "CrossEntropyLoss")
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, label_smoothing

    def construct(self, logits, labels):
        check_tensor("logits", logits, self.cls_name)
        check_tensor("labels", labels, self.cls_name)
        if logits.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For 'CrossEntropyLoss', the dtype of 'logits' must be float16 or float32, but got "
                            f"{logits.dtype}.")
        if logits.ndim == labels.ndim:
            if labels.dtype not in (mstype.float16, mstype.float32):
                raise TypeError(f"For 'CrossEntropyLoss', class-probability 'labels' must be float16 or float32, "
                                f"but got {labels.dtype}.")
            if tuple(logits.shape) != tuple(labels.shape):
                raise ValueError(f"For 'CrossEntropyLoss', the shape of 'logits' {list(logits.shape)} and "
                                 f"'labels' {list(labels.shape)} must be equal for class probabilities.")
        elif logits.ndim - 1 == labels.ndim:
            if labels.dtype is not mstype.int32:
                raise TypeError(f"For 'CrossEntropyLoss', class-index 'labels' must be int32, but got "
                                f"{labels.dtype}.")
            want = (logits.shape[0],) + tuple(logits.shape[2:]) if logits.ndim > 1 else ()
            if logits.ndim != 1 and tuple(labels.shape) != want:
                raise ValueError(f"For 'CrossEntropyLoss', the shape of 'logits' should be (N, C, d_0, d_1, ...), "
                                 f"and the shape of 'labels' should be (N, d_0, d_1, ...), but get 'logits' shape: "
                                 f"{tuple(logits.shape)} and 'labels' shape: {tuple(labels.shape)}.")
        else:
            raise ValueError(f"For 'CrossEntropyLoss', the rank of 'logits' and 'labels' should be equal (class "
                             f"probabilities) or differ by one (class indices), but got {logits.ndim} and "
                             f"{labels.ndim}.")
        return ops.cross_entropy(logits, labels, self.weight, self.ignore_index, self.reduction,
                                 self.label_smoothing)


class NLLLoss(LossBase):
    """Negative log likelihood of log-probabilities (N, C, ...) at target class indices."""

    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        _check_int(ignore_index, "ignore_index", "NLLLoss")
        _check_weight(weight, "NLLLoss")
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
        check_tensor("input", logits, self.cls_name)
        check_tensor("target", labels, self.cls_name)
        return ops.binary_cross_entropy_with_logits(logits, labels, self.weight, self.pos_weight, self.reduction)


from .loss_ext import *  # noqa: E402,F401,F403  (mindspore.nn.loss.loss holds every loss cell)
