"""mindspore.mint.nn losses with PyTorch's constructor arguments, each a Cell over mint.nn.functional."""
from __future__ import annotations

from ...nn.cell import Cell
from . import functional as F

_REDUCTIONS = ("none", "mean", "sum")


class _Loss(Cell):
    def __init__(self, reduction="mean", extra=()):
        super().__init__()
        if reduction not in _REDUCTIONS + extra:
            raise ValueError(f"For '{self.cls_name}', reduction must be one of {list(_REDUCTIONS + extra)}, got "
                             f"{reduction!r}")
        self.reduction = reduction


class L1Loss(_Loss):
    def construct(self, input, target):  # noqa: A002
        return F.l1_loss(input, target, self.reduction)


class MSELoss(_Loss):
    def construct(self, input, target):  # noqa: A002
        return F.mse_loss(input, target, self.reduction)


class SmoothL1Loss(_Loss):
    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(reduction)
        if beta < 0:
            raise ValueError(f"For 'SmoothL1Loss', beta must be >= 0, got {beta}")
        self.beta = beta

    def construct(self, input, target):  # noqa: A002
        return F.smooth_l1_loss(input, target, self.reduction, self.beta)


class KLDivLoss(_Loss):
    def __init__(self, reduction="mean", log_target=False):
        super().__init__(reduction, ("batchmean",))
        self.log_target = log_target

    def construct(self, input, target):  # noqa: A002
        return F.kl_div(input, target, self.reduction, self.log_target)


class BCELoss(_Loss):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.weight = weight

    def construct(self, input, target):  # noqa: A002
        return F.binary_cross_entropy(input, target, self.weight, self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction)
        self.weight, self.pos_weight = weight, pos_weight

    def construct(self, input, target):  # noqa: A002
        return F.binary_cross_entropy_with_logits(input, target, self.weight, self.reduction, self.pos_weight)


class CrossEntropyLoss(_Loss):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__(reduction)
        if not 0.0 <= label_smoothing <= 1.0:
            raise ValueError(f"For 'CrossEntropyLoss', label_smoothing must be in [0, 1], got {label_smoothing}")
        self.weight, self.ignore_index, self.label_smoothing = weight, ignore_index, label_smoothing

    def construct(self, input, target):  # noqa: A002
        return F.cross_entropy(input, target, self.weight, self.ignore_index, self.reduction, self.label_smoothing)


class NLLLoss(_Loss):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__(reduction)
        self.weight, self.ignore_index = weight, ignore_index

    def construct(self, input, target):  # noqa: A002
        return F.nll_loss(input, target, self.weight, self.ignore_index, self.reduction)


class CosineEmbeddingLoss(_Loss):
    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction)
        if not -1.0 <= margin <= 1.0:
            raise ValueError(f"For 'CosineEmbeddingLoss', margin must be in [-1, 1], got {margin}")
        self.margin = margin

    def construct(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)
