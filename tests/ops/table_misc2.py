"""Op-table cases for ops/misc_kernels.py and ops/rnnt_ops.py (MatrixLogarithm, EditDistance, CombinedNonMaxSuppression,
RNNTLoss: no gradient in MindSpore) and the functional aliases reduce_max / reduce_min / reduce_mean and
MultinomialWithReplacement: forward against plain loops (RNNTLoss by enumerating every alignment; its returned
gradient against central differences of that enumeration), the same in every mode."""
import itertools

import numpy as np

import sprout as ms
from sprout import ops
from optable import CONST, F64, Case, Spec


def _cplx(*shape):
    def make(rng):
        return np.eye(shape[-1]) * 2 + 0.3 * (rng.standard_normal(shape) + 1j * rng.standard_normal(shape))
    return Spec(make, label=f"c128{list(shape)}")


def _logm_ref(x):
    w, v = np.linalg.eig(x)
    return v @ (np.log(w)[..., :, None] * np.linalg.inv(v))


def _lev(a, b):
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i, j in itertools.product(range(1, len(a) + 1), range(1, len(b) + 1)):
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
    return d[-1][-1]


def _edit_ref(hi, hv, hs, ti, tv, ts, normalize):
    out = np.zeros(np.maximum(hs, ts)[:-1], np.float32)
    for key in np.ndindex(*out.shape):
        a = [v for i, v in zip(hi, hv) if tuple(i[:-1]) == key]
        b = [v for i, v in zip(ti, tv) if tuple(i[:-1]) == key]
        d = _lev(a, b)
        out[key] = d / len(b) if normalize and b else (np.inf if normalize and d else d)
    return out


HI = np.array([[0, 0], [0, 1], [0, 2], [1, 0], [2, 0], [2, 1]], np.int64)
TI = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [3, 0]], np.int64)


def _edit_case(normalize):
    def run(hv, tv):
        return ops.EditDistance(normalize)(ms.Tensor(HI), hv, ms.Tensor(np.array([4, 3])), ms.Tensor(TI), tv,
                                           ms.Tensor(np.array([4, 3])))
    return Case("EditDistance", run, (Spec(lambda rng: rng.integers(0, 3, 6).astype(np.float32), label="hyp"),
                                      Spec(lambda rng: rng.integers(0, 3, 6).astype(np.float32), label="truth")),
                lambda hv, tv: _edit_ref(HI, hv, [4, 3], TI, tv, [4, 3], normalize), grad=(),
                label="normalized" if normalize else "")


def _iou(a, b):
    lo = np.maximum(np.minimum(a[:2], a[2:]), np.minimum(b[:2], b[2:]))
    hi = np.minimum(np.maximum(a[:2], a[2:]), np.maximum(b[:2], b[2:]))
    inter = np.prod(np.clip(hi - lo, 0, None))
    union = np.prod(np.abs(a[2:] - a[:2])) + np.prod(np.abs(b[2:] - b[:2])) - inter
    return inter / union if union > 0 else 0.0


def _cnms_ref(boxes, scores, per_class, total, thr, sthr):
    batch, n, q, _ = boxes.shape
    res = []
    for b in range(batch):
        picked = []
        for c in range(scores.shape[2]):
            kept = []
            for i in sorted(range(n), key=lambda i: -scores[b, i, c]):
                if len(kept) < per_class and scores[b, i, c] > sthr and all(
                        _iou(boxes[b, i, min(c, q - 1)], boxes[b, k, min(c, q - 1)]) <= thr for k in kept):
                    kept.append(i)
            picked += [(scores[b, i, c], c, i) for i in kept]
        picked = sorted(picked, key=lambda p: -p[0])[:total]
        nb, ns, nc = np.zeros((total, 4), np.float32), np.zeros(total, np.float32), np.zeros(total, np.float32)
        for k, (s, c, i) in enumerate(picked):
            nb[k], ns[k], nc[k] = np.clip(boxes[b, i, min(c, q - 1)], 0, 1), s, c
        res.append((nb, ns, nc, len(picked)))
    return (np.stack([r[0] for r in res]), np.stack([r[1] for r in res]), np.stack([r[2] for r in res]),
            np.array([r[3] for r in res], np.int32))


def _boxes(b, n, q):
    def make(rng):
        lo = rng.uniform(-0.1, 0.8, (b, n, q, 2))
        return np.concatenate([lo, lo + rng.uniform(0.05, 0.4, (b, n, q, 2))], -1).astype(np.float32)
    return Spec(make, label=f"boxes{[b, n, q]}")


# ---- RNN-T by enumeration --------------------------------------------------------------------------------------
def _rnnt_cost(acts, labels, blank=0):
    """-log of the sum over every path of T blanks and U labels (each a monotone lattice path)."""
    steps, length, _ = acts.shape
    lp = acts - np.log(np.exp(acts).sum(-1, keepdims=True))
    u_len = length - 1
    total = -np.inf
    for emits_at in itertools.combinations(range(steps + u_len - 1), u_len):  # positions of label moves
        t = u = 0
        logp = 0.0
        for step in range(steps + u_len - 1):
            if step in emits_at:
                logp += lp[t, u, labels[u]]
                u += 1
            else:
                logp += lp[t, u, blank]
                t += 1
        logp += lp[steps - 1, u_len, blank]
        total = np.logaddexp(total, logp)
    return -total


LABELS = np.array([[1, 3], [2, 0]], np.int32)
IN_LEN = np.array([4, 3], np.int32)
LAB_LEN = np.array([2, 1], np.int32)


def _rnnt_ref(acts):
    costs = np.zeros(2, np.float32)
    grads = np.zeros_like(acts)
    for b in range(2):
        tk, uk = IN_LEN[b], LAB_LEN[b]
        a = acts[b, :tk, :uk + 1].astype(np.float64)
        costs[b] = _rnnt_cost(a, LABELS[b, :uk])
        g = np.zeros_like(a)
        for idx in np.ndindex(*a.shape):  # central differences of the enumeration
            e = np.zeros_like(a)
            e[idx] = 1e-6
            g[idx] = (_rnnt_cost(a + e, LABELS[b, :uk]) - _rnnt_cost(a - e, LABELS[b, :uk])) / 2e-6
        grads[b, :tk, :uk + 1] = g
    return costs, grads


def _rnnt(acts):
    return ops.RNNTLoss(0)(acts, ms.Tensor(LABELS), ms.Tensor(IN_LEN), ms.Tensor(LAB_LEN))


def _check_multinomial(out, inputs):
    s = out.asnumpy()
    assert s.dtype == np.int64 and s.shape == (2, 50)
    assert np.all(s[0] == 2) and set(np.unique(s[1])) <= {0, 3}, s


CASES = [
    Case("MatrixLogarithm", lambda x: ops.MatrixLogarithm()(x), (_cplx(2, 3, 3),), _logm_ref, grad=(), rtol=1e-9,
         atol=1e-10),
    _edit_case(False), _edit_case(True),
    Case("CombinedNonMaxSuppression",
         lambda b, s: ops.CombinedNonMaxSuppression()(b, s, ms.Tensor(np.int32(3)), ms.Tensor(np.int32(6)),
                                                     ms.Tensor(np.float32(0.3)), ms.Tensor(np.float32(0.2))),
         (_boxes(2, 7, 1), Spec(lambda rng: rng.uniform(0, 1, (2, 7, 3)).astype(np.float32), label="scores")),
         lambda b, s: _cnms_ref(b, s, 3, 6, 0.3, 0.2), grad=()),
    Case("CombinedNonMaxSuppression",
         lambda b, s: ops.CombinedNonMaxSuppression()(b, s, ms.Tensor(np.int32(2)), ms.Tensor(np.int32(5)),
                                                     ms.Tensor(np.float32(0.4)), ms.Tensor(np.float32(0.0))),
         (_boxes(1, 6, 2), Spec(lambda rng: rng.uniform(0, 1, (1, 6, 2)).astype(np.float32), label="scores")),
         lambda b, s: _cnms_ref(b, s, 2, 5, 0.4, 0.0), grad=(), label="class-boxes"),
    Case("RNNTLoss", _rnnt, (Spec(lambda rng: rng.standard_normal((2, 4, 3, 5)).astype(np.float32), label="acts"),),
         _rnnt_ref, grad=(), rtol=2e-4, atol=2e-5),
    Case("ReduceMax", lambda x: ops.reduce_max(x, 1), (F64(3, 4),), lambda x: x.max(1), label="reduce_max"),
    Case("ReduceMin", lambda x: ops.reduce_min(x), (F64(3, 4),), lambda x: x.min(), label="reduce_min"),
    Case("ReduceMean", lambda x: ops.reduce_mean(x, (0, 2)), (F64(2, 3, 4),), lambda x: x.mean((0, 2)),
         label="reduce_mean"),
    Case("Multinomial", lambda w: ops.MultinomialWithReplacement(50, True)(w, ms.Tensor(np.int64(0)),
                                                                          ms.Tensor(np.int64(0))),
         (CONST(np.array([[0.0, 0.0, 2.0, 0.0], [1.0, 0.0, 0.0, 3.0]], np.float32)),), check=_check_multinomial,
         why="random draws: only categories of non-zero weight appear", label="MultinomialWithReplacement"),
]
