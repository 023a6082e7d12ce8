"""PascalCase classes MultinomialWithReplacement, MatrixLogarithm, EditDistance, CombinedNonMaxSuppression and
RNNTLoss (kernels in ops/misc_kernels.py and ops/rnnt_ops.py)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from ..core.types import type_of
from . import functional_random as FR
from .classes_linalg import _Flag
from .functional_stft import bool_arg
from .misc_kernels import COMBINED_NMS, EDIT_DISTANCE, MATRIX_LOGARITHM
from .rnnt_ops import RNNT_LOSS


def _tensor(t, name: str, op: str) -> Tensor:
    if not isinstance(t, Tensor):
        raise TypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(t).__name__}.")
    return t


def _bind(op, args, attrs):
    """Check the call with the op's infer rule first (eagerly, kernels run without it), then bind."""
    op.infer(*[type_of(a) for a in args], **attrs)
    return bind(op, args, attrs)


def _constant(t, name: str, op: str) -> np.ndarray:
    """The value of a shape-defining input (MindSpore also needs it known when the graph is built)."""
    try:
        return np.asarray(t.asnumpy())
    except Exception as exc:  # a traced value inside jit
        raise TypeError(f"For '{op}', the '{name}' decides the output shape and must be a constant Tensor.") from exc


class MultinomialWithReplacement(_Flag):
    """``MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)``: int64 draws of ``numsamples``
    categories per row of the weights ``x``; seed and offset (int64 Tensors) both 0 draw from the global stream."""

    defaults = {"numsamples": None, "replacement": False}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "MultinomialWithReplacement"
        if isinstance(self.numsamples, bool) or not isinstance(self.numsamples, int):
            raise TypeError(f"For '{op}', the 'numsamples' must be an int, but got {type(self.numsamples).__name__}.")
        if self.numsamples < 0:
            raise ValueError(f"For '{op}', the 'numsamples' must be non-negative, but got {self.numsamples}.")
        bool_arg(self.replacement, "replacement", op)

    def __call__(self, x, seed, offset):
        op = "MultinomialWithReplacement"
        for name, t in (("x", x), ("seed", seed), ("offset", offset)):
            _tensor(t, name, op)
        for name, t in (("seed", seed), ("offset", offset)):
            if t.dtype != mstype.int64 or t.size != 1:
                raise TypeError(f"For '{op}', the '{name}' must be an int64 Tensor of one value, but got {t.dtype} "
                                f"of shape {list(t.shape)}.")
        if x.ndim not in (1, 2):
            raise ValueError(f"For '{op}', the 'x' must be 1-D or 2-D, but got shape {list(x.shape)}.")
        return FR.multinomial_with_replacement(x, seed, offset, self.numsamples, self.replacement)


class MatrixLogarithm(_Flag):
    """``MatrixLogarithm()(x)``: the principal matrix logarithm of each complex (..., M, M) matrix."""

    def __call__(self, x):
        return _bind(MATRIX_LOGARITHM, (_tensor(x, "x", "MatrixLogarithm"),), {})


class EditDistance(_Flag):
    """``EditDistance(normalize=True)(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
    truth_values, truth_shape)``: the float32 Levenshtein distance of each pair of sparse sequences (the last index
    is the position), divided by the truth's length when ``normalize`` (inf for an empty truth and a non-empty
    hypothesis, 0 for both empty); the output has the larger of the two batch shapes."""

    defaults = {"normalize": True}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        bool_arg(self.normalize, "normalize", "EditDistance")

    def __call__(self, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values,
                 truth_shape):
        op = "EditDistance"
        args = (hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices, truth_values, truth_shape)
        names = ("hypothesis_indices", "hypothesis_values", "hypothesis_shape", "truth_indices", "truth_values",
                 "truth_shape")
        for name, t in zip(names, args):
            _tensor(t, name, op)
        hs, ts = _constant(hypothesis_shape, "hypothesis_shape", op), _constant(truth_shape, "truth_shape", op)
        if hs.ndim != 1 or ts.ndim != 1 or hs.shape != ts.shape:
            raise ValueError(f"For '{op}', 'hypothesis_shape' and 'truth_shape' must be vectors of one rank, but got "
                             f"{hs.tolist()} and {ts.tolist()}.")
        out_shape = tuple(int(max(a, b)) for a, b in zip(hs[:-1], ts[:-1]))
        return _bind(EDIT_DISTANCE, args, {"normalize": self.normalize, "out_shape": out_shape})


class CombinedNonMaxSuppression(_Flag):
    """``CombinedNonMaxSuppression(pad_per_class=False, clip_boxes=True)(boxes, scores, max_output_size_per_class,
    max_total_size, iou_threshold, score_threshold)`` -> (nmsed_boxes, nmsed_scores, nmsed_classes,
    valid_detections): greedy NMS per class, then the best boxes of all classes by score."""

    defaults = {"pad_per_class": False, "clip_boxes": True}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        bool_arg(self.pad_per_class, "pad_per_class", "CombinedNonMaxSuppression")
        bool_arg(self.clip_boxes, "clip_boxes", "CombinedNonMaxSuppression")

    def __call__(self, boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold):
        op = "CombinedNonMaxSuppression"
        args = (boxes, scores, max_output_size_per_class, max_total_size, iou_threshold, score_threshold)
        names = ("boxes", "scores", "max_output_size_per_class", "max_total_size", "iou_threshold", "score_threshold")
        for name, t in zip(names, args):
            _tensor(t, name, op)
        per_class = int(_constant(max_output_size_per_class, "max_output_size_per_class", op))
        total = int(_constant(max_total_size, "max_total_size", op))
        iou = float(_constant(iou_threshold, "iou_threshold", op))
        if total <= 0:
            raise ValueError(f"For '{op}', the 'max_total_size' must be > 0, but got {total}.")
        if per_class <= 0:
            raise ValueError(f"For '{op}', the 'max_output_size_per_class' must be > 0, but got {per_class}.")
        if not 0 <= iou <= 1:
            raise ValueError(f"For '{op}', the 'iou_threshold' must be in [0, 1], but got {iou}.")
        classes = scores.shape[-1] if scores.ndim == 3 else 0
        detections = min(total, per_class * classes) if self.pad_per_class else total
        return _bind(COMBINED_NMS, args, {"pad_per_class": self.pad_per_class, "clip_boxes": self.clip_boxes,
                                         "num_detections": detections})


class RNNTLoss(_Flag):
    """``RNNTLoss(blank_label=0)(acts, labels, input_lengths, label_lengths)`` -> (costs, grads): the transducer
    loss -log P(labels | acts) per batch entry (log-softmax over acts' last axis) and its gradient with respect to
    acts."""

    defaults = {"blank_label": 0}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if isinstance(self.blank_label, bool) or not isinstance(self.blank_label, int):
            raise TypeError(f"For 'RNNTLoss', the 'blank_label' must be an int, but got "
                            f"{type(self.blank_label).__name__}.")

    def __call__(self, acts, labels, input_lengths, label_lengths):
        args = (acts, labels, input_lengths, label_lengths)
        for name, t in zip(("acts", "labels", "input_lengths", "label_lengths"), args):
            _tensor(t, name, "RNNTLoss")
        return _bind(RNNT_LOSS, args, {"blank_label": self.blank_label})


__all__ = ["MultinomialWithReplacement", "MatrixLogarithm", "EditDistance", "CombinedNonMaxSuppression", "RNNTLoss"]
