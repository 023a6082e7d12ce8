"""Greedy non-maximum suppression returning the selected indices (a data-dependent length): NonMaxSuppressionV3
(IoU of boxes given by two opposite corners) and NonMaxSuppressionWithOverlaps (a caller-given N x N overlap
matrix). No gradients: the result is a set of integer positions."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType, type_of
from ._infer import fmt_shape


def _no_grad(*args, **attrs):
    return tuple(None for _ in args[:-2])


def _check_scalars(op: str, max_output_size, thresholds) -> None:
    if not hasattr(max_output_size, "dtype") or max_output_size.dtype not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{op}', 'max_output_size' must be an int32 or int64 Tensor, got {max_output_size}.")
    for name, t in thresholds:
        if not hasattr(t, "dtype") or not t.dtype.is_float:
            raise TypeError(f"For '{op}', '{name}' must be a float Tensor, got {t}.")
    for name, t in (("max_output_size", max_output_size),) + tuple(thresholds):
        if t.ndim != 0:
            raise OpError(f"For '{op}', '{name}' must be a 0-d Tensor, but got shape {fmt_shape(t.shape)}.")


def _greedy(overlap_of, scores, max_output_size, threshold, score_threshold, suppress) -> np.ndarray:
    """Candidates by descending score (ties by position) above ``score_threshold``; each is kept unless
    ``suppress(overlap with a kept one, threshold)``; at most ``max_output_size`` are kept."""
    limit = int(max_output_size)
    order = [int(i) for i in np.argsort(-scores.astype(np.float64), kind="stable") if scores[i] > score_threshold]
    kept: list = []
    for i in order:
        if len(kept) >= limit:
            break
        if not kept or not np.any(suppress(overlap_of(i, np.asarray(kept)), threshold)):
            kept.append(i)
    return np.asarray(kept, np.int32)


# ---- NonMaxSuppressionWithOverlaps ---------------------------------------------------------------------------------
def _overlaps_infer(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    op = "NonMaxSuppressionWithOverlaps"
    for name, t in (("overlaps", overlaps), ("scores", scores)):
        if not t.dtype.is_float:
            raise TypeError(f"For '{op}', '{name}' must be a float tensor, but got {t.dtype}.")
    _check_scalars(op, max_output_size, (("overlap_threshold", overlap_threshold),
                                         ("score_threshold", score_threshold)))
    if overlaps.ndim != 2 or scores.ndim != 1:
        raise OpError(f"For '{op}', 'overlaps' must be 2-D and 'scores' 1-D, but got {fmt_shape(overlaps.shape)} and "
                      f"{fmt_shape(scores.shape)}.")
    n = scores.shape[0]
    if n is not None and any(d is not None and d != n for d in overlaps.shape):
        raise OpError(f"For '{op}', 'overlaps' must be (num_boxes, num_boxes) = ({n}, {n}), but got "
                      f"{fmt_shape(overlaps.shape)}.")
    return TensorType((None,), mstype.int32)


def _overlaps_impl(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
    """An overlap at or above the threshold suppresses (MindSpore 2.10's CPU kernel)."""
    _overlaps_infer(*map(type_of, (overlaps, scores, max_output_size, overlap_threshold, score_threshold)))
    if int(max_output_size) < 0:
        raise ValueError("For 'NonMaxSuppressionWithOverlaps', the input max_output_size must be non-negative.")
    return _greedy(lambda i, kept: overlaps[kept, i], scores, max_output_size, overlap_threshold, score_threshold,
                   np.greater_equal)


NMS_WITH_OVERLAPS = register(Op("NonMaxSuppressionWithOverlaps", _overlaps_impl, _overlaps_infer, _no_grad, "opaque"))


# ---- NonMaxSuppressionV3 ---------------------------------------------------------------------------------------------
def _v3_infer(boxes, scores, max_output_size, iou_threshold, score_threshold):
    op = "NonMaxSuppressionV3"
    for name, t in (("boxes", boxes), ("scores", scores)):
        if t.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For '{op}', '{name}' must be a float16 or float32 tensor, but got {t.dtype}.")
    if boxes.dtype != scores.dtype:
        raise TypeError(f"For '{op}', 'boxes' and 'scores' must have one dtype, but got {boxes.dtype} and "
                        f"{scores.dtype}.")
    _check_scalars(op, max_output_size, (("iou_threshold", iou_threshold), ("score_threshold", score_threshold)))
    if boxes.ndim != 2 or boxes.shape[1] not in (None, 4) or scores.ndim != 1:
        raise OpError(f"For '{op}', 'boxes' must be (num_boxes, 4) and 'scores' 1-D, but got "
                      f"{fmt_shape(boxes.shape)} and {fmt_shape(scores.shape)}.")
    if None not in (boxes.shape[0], scores.shape[0]) and boxes.shape[0] != scores.shape[0]:
        raise OpError(f"For '{op}', 'scores' must have one score per box ({boxes.shape[0]}), but got "
                      f"{scores.shape[0]}.")
    return TensorType((None,), mstype.int32)


def _iou(boxes, i: int, others: np.ndarray) -> np.ndarray:
    """IoU of box ``i`` with ``others``; a box is two opposite corners in either order; empty boxes overlap 0."""
    lo = np.minimum(boxes[:, :2], boxes[:, 2:])
    hi = np.maximum(boxes[:, :2], boxes[:, 2:])
    area = np.prod(hi - lo, axis=1)
    inter = np.prod(np.clip(np.minimum(hi[i], hi[others]) - np.maximum(lo[i], lo[others]), 0, None), axis=1)
    union = area[i] + area[others] - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where((area[i] > 0) & (area[others] > 0), inter / union, 0.0)


def _v3_impl(boxes, scores, max_output_size, iou_threshold, score_threshold):
    """An IoU above the threshold suppresses (MindSpore's documented rule); a negative max_output_size is 0."""
    _v3_infer(*map(type_of, (boxes, scores, max_output_size, iou_threshold, score_threshold)))
    if not 0 <= float(iou_threshold) <= 1:
        raise ValueError(f"For 'NonMaxSuppressionV3', 'iou_threshold' must be in [0, 1], but got {iou_threshold}.")
    b = boxes.astype(np.float64)
    return _greedy(lambda i, kept: _iou(b, i, kept), scores, max(int(max_output_size), 0), float(iou_threshold),
                   float(score_threshold), np.greater)


NMS_V3 = register(Op("NonMaxSuppressionV3", _v3_impl, _v3_infer, _no_grad, "opaque"))
