"""Op-table cases for the detection primitives (``ops/detection_ops.py``): loop references."""
import numpy as np

from sprout import ops
from optable import CONST, F64, Case


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
]
