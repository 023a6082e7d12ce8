"""Op-table cases for the detection primitives (``ops/detection_ops.py``, ``ops/nms_ops.py``): loop references."""
import numpy as np

from sprout import ops
from optable import CONST, F64, Case, Spec


def _nms_ref(b, thr):
    order = sorted(range(len(b)), key=lambda i: -b[i, 4])
    s = b[order]
    keep = [True] * len(s)
    for i in range(len(s)):
        for j in range(i + 1, len(s)):
            if keep[i] and keep[j]:
                w = max(0.0, min(s[i, 2], s[j, 2]) - max(s[i, 0], s[j, 0]))
                h = max(0.0, min(s[i, 3], s[j, 3]) - max(s[i, 1], s[j, 1]))
                inter = w * h
                union = (s[i, 2] - s[i, 0]) * (s[i, 3] - s[i, 1]) + (s[j, 2] - s[j, 0]) * (s[j, 3] - s[j, 1]) - inter
                if inter / union > thr:
                    keep[j] = False
    return s, np.arange(len(s), dtype=np.int32), np.array(keep)


def _ctc_ref(x, lengths, merge):
    blank = x.shape[2] - 1
    idx, vals, logp, longest = [], [], np.zeros((x.shape[1], 1), x.dtype), 0
    for b in range(x.shape[1]):
        prev, out = None, []
        for t in range(lengths[b]):
            c = int(np.argmax(x[t, b]))
            logp[b, 0] -= x[t, b, c]
            if c != blank and (not merge or c != prev):
                out.append(c)
            prev = c
        idx += [(b, k) for k in range(len(out))]
        vals += out
        longest = max(longest, len(out))
    return (np.array(idx, np.int64).reshape(-1, 2), np.array(vals, np.int64),
            np.array([x.shape[1], longest], np.int64), logp)


def _greedy_ref(overlap, scores, limit, thr, score_thr, at_or_above):
    """The plain double loop: best score first (ties by position), kept unless it overlaps a kept one too much."""
    kept = []
    for i in sorted(range(len(scores)), key=lambda j: (-float(scores[j]), j)):
        if len(kept) == max(int(limit), 0):
            break
        if scores[i] <= score_thr:
            continue
        if all((overlap(k, i) < thr) if at_or_above else (overlap(k, i) <= thr) for k in kept):
            kept.append(i)
    return np.array(kept, np.int32)


def _box_iou_ref(b, i, j):
    (y1, x1, y2, x2), (v1, u1, v2, u2) = b[i].astype(np.float64), b[j].astype(np.float64)
    area_i = abs(y2 - y1) * abs(x2 - x1)
    area_j = abs(v2 - v1) * abs(u2 - u1)
    if area_i <= 0 or area_j <= 0:
        return 0.0
    h = max(0.0, min(max(y1, y2), max(v1, v2)) - max(min(y1, y2), min(v1, v2)))
    w = max(0.0, min(max(x1, x2), max(u1, u2)) - max(min(x1, x2), min(u1, u2)))
    return h * w / (area_i + area_j - h * w)


def _symmetric(n):
    def make(rng):
        a = rng.uniform(0, 1, (n, n))
        return ((a + a.T) / 2).astype(np.float32)
    return Spec(make, label=f"overlaps{n}")


# corners in either order, a duplicate, an empty box and a score tie
V3_BOXES = CONST(np.array([[0, 0, 4, 4], [4, 4, 0.5, 0.5], [5, 5, 8, 8], [0, 0, 1, 1], [4.5, 5, 8, 8.5],
                           [2, 2, 2, 6], [0, 0, 4, 4]], np.float32))
V3_SCORES = CONST(np.array([0.9, 0.8, 0.7, 0.95, 0.6, 0.99, 0.8], np.float32))
I32 = CONST(np.int32(5))
F32 = CONST


BOXES = CONST(np.array([[0, 0, 4, 4, 0.9], [0.5, 0.5, 4, 4, 0.8], [5, 5, 8, 8, 0.7], [0, 0, 1, 1, 0.95],
                        [4.5, 5, 8, 8.5, 0.6]], np.float32))

CASES = [
    Case("NMSWithMask", lambda b: ops.NMSWithMask(0.5)(b), (BOXES,), lambda b: _nms_ref(b, 0.5), grad=()),
    Case("NMSWithMask", lambda b: ops.NMSWithMask(0.1)(b), (BOXES,), lambda b: _nms_ref(b, 0.1), grad=(),
         label="low"),
    Case("CTCGreedyDecoder", ops.ctc_greedy_decoder, (F64(5, 3, 4), CONST(np.array([5, 2, 0], np.int32))),
         lambda x, n: _ctc_ref(x, n, True), grad=()),
    Case("CTCGreedyDecoder", lambda x, n: ops.ctc_greedy_decoder(x, n, False),
         (F64(5, 2, 3), CONST(np.array([4, 5], np.int32))), lambda x, n: _ctc_ref(x, n, False), grad=(),
         label="no-merge"),
    Case("NonMaxSuppressionV3", lambda b, s, k, t, st: ops.NonMaxSuppressionV3()(b, s, k, t, st),
         (V3_BOXES, V3_SCORES, I32, F32(np.float32(0.5)), F32(np.float32(0.65))),
         lambda b, s, k, t, st: _greedy_ref(lambda i, j: _box_iou_ref(b, i, j), s, k, t, st, False), grad=()),
    Case("NonMaxSuppressionV3", lambda b, s, k, t, st: ops.NonMaxSuppressionV3()(b, s, k, t, st),
         (V3_BOXES, V3_SCORES, CONST(np.int32(-2)), F32(np.float32(0.0)), F32(np.float32(0.0))),
         lambda b, s, k, t, st: _greedy_ref(lambda i, j: _box_iou_ref(b, i, j), s, k, t, st, False), grad=(),
         label="negative-limit"),
    Case("NonMaxSuppressionV3", lambda b, s, k, t, st: ops.NonMaxSuppressionV3()(b, s, k, t, st),
         (V3_BOXES, V3_SCORES, CONST(np.int32(7)), F32(np.float32(0.05)), F32(np.float32(0.0))),
         lambda b, s, k, t, st: _greedy_ref(lambda i, j: _box_iou_ref(b, i, j), s, k, t, st, False), grad=(),
         label="strict"),
    Case("NonMaxSuppressionWithOverlaps", lambda o, s, k, t, st: ops.NonMaxSuppressionWithOverlaps()(o, s, k, t, st),
         (_symmetric(9), F64(9, lo=0.0, hi=1.0, dtype=np.float32), I32, F32(np.float32(0.4)), F32(np.float32(0.2))),
         lambda o, s, k, t, st: _greedy_ref(lambda i, j: o[i, j], s, k, t, st, True), grad=()),
]
