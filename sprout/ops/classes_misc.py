"""PascalCase classes for losses as primitives, float status, einsum and the remaining helpers."""
from __future__ import annotations

from . import functional as F
from .classes_linalg import _Flag
from .primitive_classes import _simple


_STATELESS = {"FloatStatus": F.float_status}
for _name, _fn in _STATELESS.items():
    globals()[_name] = _simple(_name, _fn)


def _reduction(owner, reduction):
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{owner}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    return reduction


class BinaryCrossEntropy(_Flag):
    """``BinaryCrossEntropy(reduction)(input, target, weight=None)`` on probabilities; ``weight`` must have the
    input's shape (MindSpore's kernel reads past a smaller one)."""

    defaults = {"reduction": "mean"}

    def __call__(self, input, target, weight=None):  # noqa: A002
        _reduction("BinaryCrossEntropy", self.reduction)
        if weight is not None and tuple(weight.shape) != tuple(input.shape):
            raise ValueError(f"BinaryCrossEntropy: weight shape {list(weight.shape)} must equal the input shape "
                             f"{list(input.shape)}")
        return F.binary_cross_entropy(input, target, weight, self.reduction)


class SmoothL1Loss(_Flag):
    defaults = {"beta": 1.0, "reduction": "none"}

    def __call__(self, prediction, target):
        return F.smooth_l1_loss(prediction, target, self.beta, _reduction("SmoothL1Loss", self.reduction))


class NLLLoss(_Flag):
    """``NLLLoss(reduction, ignore_index)(logits (N, C), labels (N,), weight (C,))`` -> (loss, total_weight)."""

    defaults = {"reduction": "mean", "ignore_index": -100}

    def __call__(self, logits, labels, weight):
        _reduction("NLLLoss", self.reduction)
        valid = F.cast(F.not_equal(labels, self.ignore_index), weight.dtype)
        safe = F.where(F.not_equal(labels, self.ignore_index), labels, F.zeros_like(labels))
        total = F.sum(F.mul(F.gather(weight, safe, 0), valid))
        loss = F.nll_loss(logits, labels, weight, self.ignore_index, self.reduction)
        return loss, total


class KLDivLoss(_Flag):
    defaults = {"reduction": "mean"}

    def __call__(self, logits, labels):
        return F.kl_div(logits, labels, self.reduction)


class SoftMarginLoss(_Flag):
    defaults = {"reduction": "mean"}

    def __call__(self, input, target):  # noqa: A002
        return F.soft_margin_loss(input, target, self.reduction)


class MultiMarginLoss(_Flag):
    defaults = {"p": 1, "margin": 1.0, "reduction": "mean"}

    def __call__(self, x, target, weight=None):
        return F.multi_margin_loss(x, target, self.p, self.margin, weight, self.reduction)


class MultilabelMarginLoss(_Flag):
    defaults = {"reduction": "mean"}

    def __call__(self, x, target):
        return F.multilabel_margin_loss(x, target, self.reduction)


class Einsum(_Flag):
    """``Einsum(equation)(operands)`` with the operands as one tuple."""

    defaults = {"equation": ""}

    def __call__(self, operands):
        return F.einsum(self.equation, *operands)


__all__ = list(_STATELESS) + ["BinaryCrossEntropy", "SmoothL1Loss", "NLLLoss", "KLDivLoss", "SoftMarginLoss",
                              "MultiMarginLoss", "MultilabelMarginLoss", "Einsum"]
