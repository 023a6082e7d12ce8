"""Op-table cases for the CTC loss primitives (CTCLossV2 and its gradient CTCLossV2Grad; CTCLoss on logits and
sparse labels), against a brute-force reference that enumerates every alignment of a short input."""
import itertools

import numpy as np

from sprout import ops
from sprout.core.dispatch import bind
from sprout.ops import ctc_ops
from optable import CONST, Case, Spec

T, N, C = 4, 2, 3
TARGETS = np.array([[1, 1], [2, 0]], np.int32)
IN_LEN = np.array([4, 3], np.int32)
TGT_LEN = np.array([2, 1], np.int32)


def _log_probs():
    def make(rng):
        z = rng.standard_normal((T, N, C))
        return z - np.log(np.exp(z).sum(-1, keepdims=True))

    return Spec(make, label="log_softmax[4,2,3]")


def _collapse(path, blank=0):
    out, prev = [], None
    for c in path:
        if c != prev and c != blank:
            out.append(c)
        prev = c
    return out


def _brute(lp, targets, il, tl):
    """(nll, dnll/dlp) of every sequence by enumerating all C^il alignments."""
    nll = np.zeros(N)
    grad = np.zeros_like(lp)
    for n in range(N):
        want = list(targets[n, :tl[n]])
        total, per = 0.0, np.zeros((T, C))
        for path in itertools.product(range(C), repeat=int(il[n])):
            if _collapse(path) == want:
                p = np.exp(sum(lp[t, n, c] for t, c in enumerate(path)))
                total += p
                for t, c in enumerate(path):
                    per[t, c] += p
        nll[n] = -np.log(total)
        grad[:, n] = -per / total  # the derivative with respect to the log-probabilities themselves
    return nll, grad


def _mindspore_grad(lp, dout, il):
    """MindSpore's CTC gradient: exp(lp) plus the true derivative (what a preceding log_softmax turns into the
    logits' gradient), zero after each input length, times dout."""
    _, g = _brute(lp, TARGETS, IN_LEN, TGT_LEN)
    g = np.exp(lp) + g
    g[np.arange(T)[:, None] >= il[None, :]] = 0
    return g * dout[None, :, None]


def _v1_brute(x, li, lv, sl, merge, collapse_labels):
    """CTCLoss by enumeration: softmax of the logits, blank the last class, labels per batch entry in listed order;
    with ``merge`` a path's repeats merge, without it only blanks are dropped."""
    steps, batch, classes = x.shape
    probs = np.exp(x) / np.exp(x).sum(-1, keepdims=True)
    out = np.zeros(batch)
    for b in range(batch):
        want = [int(v) for (bb, _), v in zip(li, lv) if bb == b]
        if collapse_labels:
            want = [v for i, v in enumerate(want) if i == 0 or want[i - 1] != v]
        total = 0.0
        for path in itertools.product(range(classes), repeat=int(sl[b])):
            got = _collapse(path, classes - 1) if merge else [c for c in path if c != classes - 1]
            if got == want:
                total += np.prod([probs[t, b, c] for t, c in enumerate(path)])
        out[b] = -np.log(total)
    return out


V1_INDICES = np.array([[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], np.int64)  # batch entry 3 has no labels
V1_VALUES = np.array([1, 1, 0, 1, 0], np.int32)
V1_LENGTHS = np.array([5, 3, 4, 3], np.int32)


def _v1(merge, collapse):
    def run(x, li, lv, sl):
        return ops.CTCLoss(collapse, merge)(x, li, lv, sl)[0]
    return run


def _loss_only(lp, tg, il, tl):
    return ops.ctc_loss(lp, tg, il, tl, 0, "none")[0]


def _loss_grad_ref(lp, tg, il, tl):
    w = np.random.default_rng(7).uniform(0.5, 1.5, (N,))  # the op table's objective weights
    return (_mindspore_grad(lp, w, il),)


def _grad_op(dout, lp, tg, il, tl):
    return bind(ctc_ops.CTC_LOSS_V2_GRAD, (dout, lp, tg, il, tl), {"blank": 0, "zero_infinity": False})


CASES = [
    Case("CTCLossV2", _loss_only, (_log_probs(), CONST(TARGETS), CONST(IN_LEN), CONST(TGT_LEN)),
         lambda lp, tg, il, tl: _brute(lp, tg, il, tl)[0], grad=(0,), grad_ref=_loss_grad_ref),
    Case("CTCLossV2Grad", _grad_op, (Spec(lambda rng: rng.uniform(0.5, 1.5, (N,)), label="dout"), _log_probs(),
                                     CONST(TARGETS), CONST(IN_LEN), CONST(TGT_LEN)),
         lambda d, lp, tg, il, tl: _mindspore_grad(lp, d, il), grad=()),
    Case("CTCLoss", _v1(True, False), (Spec(lambda rng: rng.standard_normal((5, 4, 3)), label="logits[5,4,3]"),
                                       CONST(V1_INDICES), CONST(V1_VALUES), CONST(V1_LENGTHS)),
         lambda x, li, lv, sl: _v1_brute(x, li, lv, sl, True, False), grad=(0,), rtol=1e-6, atol=1e-8),
    Case("CTCLoss", _v1(False, False), (Spec(lambda rng: rng.standard_normal((5, 4, 3)), label="logits[5,4,3]"),
                                        CONST(V1_INDICES), CONST(V1_VALUES), CONST(V1_LENGTHS)),
         lambda x, li, lv, sl: _v1_brute(x, li, lv, sl, False, False), grad=(0,), rtol=1e-6, atol=1e-8,
         label="no-merge"),
    Case("CTCLoss", _v1(True, True), (Spec(lambda rng: rng.standard_normal((5, 4, 3)), label="logits[5,4,3]"),
                                      CONST(V1_INDICES), CONST(V1_VALUES), CONST(V1_LENGTHS)),
         lambda x, li, lv, sl: _v1_brute(x, li, lv, sl, True, True), grad=(0,), rtol=1e-6, atol=1e-8,
         label="collapse"),
]
