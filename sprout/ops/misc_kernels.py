"""Primitives with no gradient in MindSpore: MatrixLogarithm (SciPy's logm per matrix), EditDistance (Levenshtein
distances of sparse sequences, one vectorised row recurrence per hypothesis symbol) and CombinedNonMaxSuppression
(TensorFlow's per-class greedy NMS, then the best boxes over all classes)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape
from .nms_ops import _greedy


def _no_grad(*args, **attrs):
    return tuple(None for _ in args[:-2])


# ---- MatrixLogarithm -----------------------------------------------------------------------------------------------
def _logm_infer(x):
    if x.dtype not in (mstype.complex64, mstype.complex128):
        raise TypeError(f"For 'MatrixLogarithm', the dtype of 'x' must be complex64 or complex128, but got {x.dtype}.")
    if not 2 <= x.ndim <= 7:
        raise OpError(f"For 'MatrixLogarithm', the rank of 'x' must be in [2, 7], but got {x.ndim}.")
    m, n = x.shape[-2:]
    if m is not None and n is not None and m != n:
        raise OpError(f"For 'MatrixLogarithm', the last two dimensions of 'x' must be equal, but got "
                      f"{fmt_shape(x.shape)}.")
    return TensorType(tuple(x.shape), x.dtype)


def _logm_impl(x):
    from scipy.linalg import logm

    flat = x.reshape((-1,) + x.shape[-2:])
    out = np.empty_like(flat)
    for k in range(flat.shape[0]):  # one principal matrix logarithm per matrix (Schur-Pade)
        out[k] = logm(flat[k].astype(np.complex128))
    return out.reshape(x.shape).astype(x.dtype)


MATRIX_LOGARITHM = register(Op("MatrixLogarithm", _logm_impl, _logm_infer, None, "opaque"))


# ---- EditDistance --------------------------------------------------------------------------------------------------
def _edit_infer(h_idx, h_val, h_shape, t_idx, t_val, t_shape, normalize, out_shape):
    op = "EditDistance"
    for name, t in (("hypothesis_indices", h_idx), ("hypothesis_shape", h_shape), ("truth_indices", t_idx),
                    ("truth_shape", t_shape)):
        if t.dtype != mstype.int64:
            raise TypeError(f"For '{op}', the '{name}' must be an int64 Tensor, but got {t.dtype}.")
    if h_val.dtype != t_val.dtype:
        raise TypeError(f"For '{op}', 'hypothesis_values' and 'truth_values' must have one dtype, but got "
                        f"{h_val.dtype} and {t_val.dtype}.")
    for name, idx, val, shp in (("hypothesis", h_idx, h_val, h_shape), ("truth", t_idx, t_val, t_shape)):
        if idx.ndim != 2 or val.ndim != 1 or shp.ndim != 1:
            raise OpError(f"For '{op}', '{name}_indices' must be 2-D, '{name}_values' and '{name}_shape' 1-D, but "
                          f"got {fmt_shape(idx.shape)}, {fmt_shape(val.shape)}, {fmt_shape(shp.shape)}.")
        if None not in (idx.shape[0], val.shape[0]) and idx.shape[0] != val.shape[0]:
            raise OpError(f"For '{op}', '{name}_indices' and '{name}_values' must have one length, but got "
                          f"{idx.shape[0]} and {val.shape[0]}.")
        if None not in (idx.shape[1], shp.shape[0]) and idx.shape[1] != shp.shape[0]:
            raise OpError(f"For '{op}', '{name}_indices' rows must have the rank {shp.shape[0]} of '{name}_shape', "
                          f"but got {idx.shape[1]}.")
    return TensorType(tuple(out_shape), mstype.float32)


def _levenshtein(a: np.ndarray, b: np.ndarray) -> int:
    """Edit distance by rows of the DP table: row i from row i - 1 with one running minimum (the insertions)."""
    ar = np.arange(len(b) + 1)
    row = ar.copy()
    for i, sym in enumerate(a, 1):
        best = np.empty_like(row)
        best[0] = i
        best[1:] = np.minimum(row[1:] + 1, row[:-1] + (b != sym))
        row = np.minimum.accumulate(best - ar) + ar
    return int(row[-1])


def _sequences(idx, val, batch_shape):
    """{batch position: the values in index order}."""
    seqs: dict = {}
    order = np.lexsort(idx.T[::-1]) if len(idx) else np.zeros(0, np.int64)
    for k in order:
        key = tuple(int(v) for v in idx[k, :-1])
        if any(not 0 <= v < s for v, s in zip(key, batch_shape)):
            raise ValueError(f"For 'EditDistance', the index {idx[k].tolist()} is outside the shape.")
        seqs.setdefault(key, []).append(val[k])
    return {k: np.asarray(v) for k, v in seqs.items()}


def _edit_impl(h_idx, h_val, h_shape, t_idx, t_val, t_shape, normalize, out_shape):
    hyp = _sequences(h_idx, h_val, out_shape)
    truth = _sequences(t_idx, t_val, out_shape)
    out = np.zeros(out_shape, np.float32)
    empty = np.zeros(0, h_val.dtype)
    for key in set(hyp) | set(truth):
        a, b = hyp.get(key, empty), truth.get(key, empty)
        d = float(_levenshtein(a, b))
        out[key] = d / len(b) if normalize and len(b) else (np.inf if normalize and d else d)
    return out


EDIT_DISTANCE = register(Op("EditDistance", _edit_impl, _edit_infer, None, "opaque"))


# ---- CombinedNonMaxSuppression ---------------------------------------------------------------------------------------
def _cnms_infer(boxes, scores, max_per_class, max_total, iou_threshold, score_threshold, pad_per_class, clip_boxes,
                num_detections):
    op = "CombinedNonMaxSuppression"
    for name, t in (("boxes", boxes), ("scores", scores), ("iou_threshold", iou_threshold),
                    ("score_threshold", score_threshold)):
        if t.dtype != mstype.float32:
            raise TypeError(f"For '{op}', the '{name}' must be a float32 Tensor, but got {t.dtype}.")
    for name, t in (("max_output_size_per_class", max_per_class), ("max_total_size", max_total)):
        if t.dtype != mstype.int32:
            raise TypeError(f"For '{op}', the '{name}' must be an int32 Tensor, but got {t.dtype}.")
    for name, t in (("max_output_size_per_class", max_per_class), ("max_total_size", max_total),
                    ("iou_threshold", iou_threshold), ("score_threshold", score_threshold)):
        if t.ndim != 0:
            raise OpError(f"For '{op}', the '{name}' must be 0-D, but got shape {fmt_shape(t.shape)}.")
    if boxes.ndim != 4 or boxes.shape[3] not in (4, None):
        raise OpError(f"For '{op}', the 'boxes' must be 4-D (batch, num_boxes, q, 4), but got "
                      f"{fmt_shape(boxes.shape)}.")
    if scores.ndim != 3:
        raise OpError(f"For '{op}', the 'scores' must be 3-D, but got {fmt_shape(scores.shape)}.")
    if boxes.shape[0] != scores.shape[0] or boxes.shape[1] != scores.shape[1]:
        raise OpError(f"For '{op}', boxes {fmt_shape(boxes.shape)} and scores {fmt_shape(scores.shape)} must agree "
                      f"on batch and num_boxes.")
    if boxes.shape[2] not in (1, scores.shape[2]):
        raise OpError(f"For '{op}', boxes' third dimension must be 1 or the number of classes {scores.shape[2]}, "
                      f"but got {boxes.shape[2]}.")
    b = boxes.shape[0]
    return (TensorType((b, num_detections, 4), mstype.float32), TensorType((b, num_detections), mstype.float32),
            TensorType((b, num_detections), mstype.float32), TensorType((b,), mstype.int32))


def _corner_iou(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """IoU of one (y1, x1, y2, x2) box with many; corners in either order; an empty box overlaps nothing."""
    def norm(b):
        return np.minimum(b[..., :2], b[..., 2:]), np.maximum(b[..., :2], b[..., 2:])

    (lo1, hi1), (lo2, hi2) = norm(box.astype(np.float64)), norm(others.astype(np.float64))
    area1 = np.prod(hi1 - lo1, -1)
    area2 = np.prod(hi2 - lo2, -1)
    inter = np.prod(np.clip(np.minimum(hi1, hi2) - np.maximum(lo1, lo2), 0, None), -1)
    union = area1 + area2 - inter
    return np.where((area1 > 0) & (area2 > 0) & (union > 0), inter / np.where(union > 0, union, 1), 0.0)


def _cnms_impl(boxes, scores, max_per_class, max_total, iou_threshold, score_threshold, pad_per_class, clip_boxes,
               num_detections):
    per_class, thr, sthr = int(max_per_class), float(iou_threshold), float(score_threshold)
    batch, _, q, _ = boxes.shape
    classes = scores.shape[2]
    out_boxes = np.zeros((batch, num_detections, 4), np.float32)
    out_scores = np.zeros((batch, num_detections), np.float32)
    out_classes = np.zeros((batch, num_detections), np.float32)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        picked = []  # (score, class, box index)
        for c in range(classes):
            cb = boxes[b, :, c if q > 1 else 0]
            sc = scores[b, :, c]
            kept = _greedy(lambda i, ks, cb=cb: _corner_iou(cb[i], cb[ks]), sc, per_class, thr, sthr,
                           lambda iou, t: iou > t)
            picked += [(float(sc[i]), c, int(i)) for i in kept]
        picked.sort(key=lambda p: -p[0])  # stable: equal scores keep class order, then selection order
        picked = picked[:num_detections]
        valid[b] = len(picked)
        for k, (s, c, i) in enumerate(picked):
            box = boxes[b, i, c if q > 1 else 0]
            out_boxes[b, k] = np.clip(box, 0.0, 1.0) if clip_boxes else box
            out_scores[b, k] = s
            out_classes[b, k] = c
    return out_boxes, out_scores, out_classes, valid


COMBINED_NMS = register(Op("CombinedNonMaxSuppression", _cnms_impl, _cnms_infer, None, "opaque", n_out=4))
