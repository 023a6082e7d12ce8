"""Detection primitives whose results depend on sequential decisions: non-maximum suppression, greedy CTC
decoding and rotated-box IoU (no gradients). Box arithmetic (IoU, encode/decode, ROIAlign) is composite."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, register
from ..core.types import TensorType
from ._infer import fmt_shape


def _no_grad(*args, **attrs):
    return tuple(None for _ in args[:-2])


# ---- NMSWithMask ------------------------------------------------------------------------------------------------
def _nms_infer(boxes, iou_threshold=0.5):
    if boxes.ndim != 2 or (boxes.shape[1] is not None and boxes.shape[1] != 5) or not boxes.dtype.is_float:
        raise TypeError(f"NMSWithMask: bboxes must be a float tensor of shape (N, 5) (x1, y1, x2, y2, score), got "
                        f"{boxes.dtype}{fmt_shape(boxes.shape)}")
    n = boxes.shape[0]
    return TensorType((n, 5), boxes.dtype), TensorType((n,), mstype.int32), TensorType((n,), mstype.bool_)


def _box_iou(a, b):
    """IoU of box ``a`` with every row of ``b`` with continuous areas (x2 - x1): MindSpore's NMSWithMask kernel,
    unlike its IOU op, adds no pixel to the widths."""
    w = np.maximum(0.0, np.minimum(a[2], b[:, 2]) - np.maximum(a[0], b[:, 0]))
    h = np.maximum(0.0, np.minimum(a[3], b[:, 3]) - np.maximum(a[1], b[:, 1]))
    inter = w * h
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        return inter / (area_a + area_b - inter)


def _nms_impl(boxes, iou_threshold=0.5):
    """Boxes sorted by score (descending, stable), positions 0..N-1 in that order (MindSpore's CPU kernel returns
    these), and the keep mask: a box survives unless an earlier kept box overlaps it by more than the threshold."""
    order = np.argsort(-boxes[:, 4], kind="stable")
    s = boxes[order]
    keep = np.ones(len(s), bool)
    for i in range(len(s)):
        if keep[i] and i + 1 < len(s):
            over = _box_iou(s[i, :4].astype(np.float64), s[i + 1:, :4].astype(np.float64)) > iou_threshold
            keep[i + 1:] &= ~over
    return s, np.arange(len(s), dtype=np.int32), keep


NMS_WITH_MASK = register(Op("NMSWithMask", _nms_impl, _nms_infer, _no_grad, "opaque", n_out=3))


# ---- greedy CTC decoding -----------------------------------------------------------------------------------------
def _ctc_greedy_infer(inputs, seq_len, merge_repeated=True):
    if inputs.ndim != 3 or not inputs.dtype.is_float:
        raise TypeError(f"CTCGreedyDecoder: inputs must be a float tensor (max_time, batch, classes), got "
                        f"{inputs.dtype}{fmt_shape(inputs.shape)}")
    if not seq_len.dtype.is_int or seq_len.ndim != 1:
        raise TypeError(f"CTCGreedyDecoder: sequence_length must be a 1-D int tensor, got {seq_len}")
    batch = inputs.shape[1]
    return (TensorType((None, 2), mstype.int64), TensorType((None,), mstype.int64), TensorType((2,), mstype.int64),
            TensorType((batch, 1), inputs.dtype))


def _ctc_greedy_impl(inputs, seq_len, merge_repeated=True):
    """Best class per step, repeats merged, the blank (the last class) dropped: a sparse (indices, values,
    dense shape) result and the negative sum of the chosen logits per batch entry."""
    t_max, batch, classes = inputs.shape
    if np.any(seq_len > t_max) or np.any(seq_len < 0):
        raise ValueError(f"CTCGreedyDecoder: sequence_length must be in [0, {t_max}]")
    blank = classes - 1
    best = inputs.argmax(-1)
    indices, values, logp = [], [], np.zeros((batch, 1), inputs.dtype)
    longest = 0
    for b in range(batch):
        prev, k = -1, 0
        for t in range(int(seq_len[b])):
            c = int(best[t, b])
            logp[b, 0] -= inputs[t, b, c]
            if c != blank and not (merge_repeated and c == prev):
                indices.append((b, k))
                values.append(c)
                k += 1
            prev = c
        longest = max(longest, k)
    idx = np.asarray(indices, np.int64).reshape(-1, 2)
    return idx, np.asarray(values, np.int64), np.asarray([batch, longest], np.int64), logp


CTC_GREEDY_DECODER = register(Op("CTCGreedyDecoder", _ctc_greedy_impl, _ctc_greedy_infer, _no_grad, "opaque",
                                 n_out=4))
