"""Op-table cases for ops/classes_extra4.py and ops/misc_kernels2.py (CompareAndBitpack, DataFormatDimMap,
DataFormatVecPermute, NoRepeatNGram, RaggedRange, ConfusionMatrix) against NumPy loops, in every mode (gradients only
for ConfusionMatrix's weights: the rest give integers, or MindSpore registers none); tests/ops/oracle/cases_extra4.py
checks them against MindSpore (ConfusionMatrix has no CPU kernel there: its argument errors only)."""
import numpy as np

import sprout as ms
from sprout import ops
from optable import CONST, F64, Case, Spec


def _bitpack_ref(x, t):
    bits = (x > t).reshape(x.shape[:-1] + (-1, 8))
    return np.packbits(bits, -1, bitorder="little" if x.dtype == np.bool_ else "big")[..., 0]


def _ngram_ref(seq, lp, n):
    out = lp.copy()
    for b, k in np.ndindex(*seq.shape[:2]):
        s = list(seq[b, k])
        tail = s[len(s) - (n - 1):] if n > 1 else []
        for i in range(len(s) - n + 1):
            if s[i:i + n - 1] == tail:
                out[b, k, s[i + n - 1]] = np.finfo(lp.dtype).min
    return out


def _ragged_ref(s, lim, d):
    rows = [np.arange(a, b, c) for a, b, c in zip(s, lim, d)]
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return splits, np.concatenate(rows).astype(s.dtype)


SEQ = Spec(lambda rng: rng.integers(0, 4, (2, 2, 8)).astype(np.int32), label="seq")
LP = Spec(lambda rng: rng.standard_normal((2, 2, 5)).astype(np.float32), label="log_probs")

LAB = np.array([0, 1, 1, 3, 2, 1], np.int32)
PRED = np.array([0, 2, 1, 3, 2, 1], np.int32)


def _confusion_ref(w=None):
    out = np.zeros((4, 4))
    np.add.at(out, (LAB, PRED), 1.0 if w is None else w)
    return out


CASES = [
    Case("ReduceSum", lambda x: ops.CompareAndBitpack()(x, ms.Tensor(np.float32(0.2))),
         (Spec(lambda rng: rng.standard_normal((3, 16)).astype(np.float32), label="x"),),
         lambda x: _bitpack_ref(x, np.float32(0.2)), grad=(), label="CompareAndBitpack"),
    Case("ReduceSum", lambda x: ops.CompareAndBitpack()(x, ms.Tensor(np.bool_(False))),
         (Spec(lambda rng: rng.random((2, 8)) < 0.5, label="bool"),), lambda x: _bitpack_ref(x, False), grad=(),
         label="CompareAndBitpack-bool"),
    Case("Gather", lambda x: ops.DataFormatDimMap()(x), (CONST(np.arange(-4, 4, dtype=np.int32)),),
         lambda x: np.array([0, 3, 1, 2], np.int32)[x % 4], label="DataFormatDimMap"),
    Case("Gather", lambda x: ops.DataFormatVecPermute()(x), (CONST(np.arange(8, dtype=np.int64).reshape(4, 2)),),
         lambda x: x[[0, 3, 1, 2]], label="DataFormatVecPermute"),
    *[Case("NoRepeatNGram", lambda s, p, n=n: ops.NoRepeatNGram(n)(s, p), (SEQ, LP),
           lambda s, p, n=n: _ngram_ref(s, p, n), grad=(), label=f"n{n}") for n in (1, 2, 3)],
    Case("RaggedRange", lambda a, b, c: ops.RaggedRange(ms.int64)(a, b, c),
         (CONST(np.array([0, 5, 8, 3, -2], np.int32)), CONST(np.array([3, 5, 13, 0, 7], np.int32)),
          CONST(np.array([1, 1, 2, -1, 3], np.int32))), _ragged_ref, grad=()),
    Case("RaggedRange", lambda a, b, c: ops.RaggedRange(ms.int64)(a, b, c),
         (CONST(np.array([0.0, 1.0])), CONST(np.array([1.0, -2.0])), CONST(np.array([0.25, -0.5]))), _ragged_ref,
         grad=(), label="float64"),
    Case("ConfusionMatrix", lambda w: ops.ConfusionMatrix(4, "float64")(ms.Tensor(LAB), ms.Tensor(PRED), w),
         (F64(6),), _confusion_ref, label="weighted"),
    Case("ConfusionMatrix", lambda a, b: ops.ConfusionMatrix(4)(a, b), (CONST(LAB), CONST(PRED)),
         lambda a, b: _confusion_ref().astype(np.int32), grad=()),
]
