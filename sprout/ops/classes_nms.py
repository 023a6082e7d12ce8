"""ops.NonMaxSuppressionV3 and ops.NonMaxSuppressionWithOverlaps: greedy selection of box indices (ops/nms_ops.py)."""
from __future__ import annotations

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from .classes_linalg import _Flag
from .nms_ops import NMS_V3, NMS_WITH_OVERLAPS


def _scalar(value, dtype):
    """A Python number as the 0-d Tensor the primitive takes (Tensors pass through)."""
    if isinstance(value, Tensor) or isinstance(value, bool):
        return value
    return Tensor(value, dtype) if isinstance(value, (int, float)) else value


class NonMaxSuppressionV3(_Flag):
    """``NonMaxSuppressionV3()(boxes (N, 4), scores (N,), max_output_size, iou_threshold, score_threshold)`` -> the
    int32 indices of the kept boxes, best score first."""

    def __call__(self, boxes, scores, max_output_size, iou_threshold, score_threshold):
        args = (boxes, scores, _scalar(max_output_size, mstype.int32), _scalar(iou_threshold, mstype.float32),
                _scalar(score_threshold, mstype.float32))
        for name, t in zip(("boxes", "scores", "max_output_size", "iou_threshold", "score_threshold"), args):
            if not isinstance(t, Tensor):
                raise TypeError(f"For 'NonMaxSuppressionV3', '{name}' must be a Tensor or a number, but got "
                                f"{type(t).__name__}.")
        if args[3].dtype != args[4].dtype:
            raise TypeError(f"For 'NonMaxSuppressionV3', 'iou_threshold' and 'score_threshold' must have one dtype, "
                            f"but got {args[3].dtype} and {args[4].dtype}.")
        return bind(NMS_V3, args, {})


class NonMaxSuppressionWithOverlaps(_Flag):
    """``NonMaxSuppressionWithOverlaps()(overlaps (N, N), scores (N,), max_output_size, overlap_threshold,
    score_threshold)`` (all Tensors) -> the int32 indices of the kept boxes, best score first."""

    def __call__(self, overlaps, scores, max_output_size, overlap_threshold, score_threshold):
        args = (overlaps, scores, max_output_size, overlap_threshold, score_threshold)
        for name, t in zip(("overlaps", "scores", "max_output_size", "overlap_threshold", "score_threshold"), args):
            if not isinstance(t, Tensor):
                raise TypeError(f"For 'NonMaxSuppressionWithOverlaps', the input '{name}' must be a Tensor, but got "
                                f"{type(t).__name__}.")
        return bind(NMS_WITH_OVERLAPS, args, {})


__all__ = ["NonMaxSuppressionV3", "NonMaxSuppressionWithOverlaps"]
