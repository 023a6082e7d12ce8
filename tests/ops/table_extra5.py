"""Op-table cases for ops/classes_extra5.py (AccumulateNV2, Fills, LogSoftmaxExt, BatchToSpaceNDV2: MindSpore 2.10 has
no CPU kernel for any of them) against NumPy, gradients against finite differences, in every mode."""
import numpy as np

import sprout as ms
from sprout import ops
from optable import F64, Case
from reference import log_softmax


def _b2s_ref(x, block, crops):
    n = x.shape[0] // (block[0] * block[1])
    y = x.reshape(block[0], block[1], n, x.shape[1], x.shape[2], x.shape[3])
    y = y.transpose(2, 3, 4, 0, 5, 1).reshape(n, x.shape[1], x.shape[2] * block[0], x.shape[3] * block[1])
    return y[:, :, crops[0][0]:y.shape[2] - crops[0][1], crops[1][0]:y.shape[3] - crops[1][1]]


CASES = [
    Case("Add", lambda a, b, c: ops.AccumulateNV2()([a, b, c]), (F64(2, 3), F64(2, 3), F64(2, 3)),
         lambda a, b, c: a + b + c, label="AccumulateNV2"),
    Case("Fill", lambda x: ops.Fills()(x, 2.5), (F64(2, 3),), lambda x: np.full_like(x, 2.5), grad=(),
         label="Fills"),
    Case("LogSoftmax", lambda x: ops.LogSoftmaxExt()(x), (F64(2, 3, 4),), lambda x: log_softmax(x, 0),
         label="LogSoftmaxExt-implicit"),
    Case("LogSoftmax", lambda x: ops.LogSoftmaxExt()(x, -1, ms.float64), (F64(2, 5, dtype=np.float32),),
         lambda x: log_softmax(x.astype(np.float64), -1), grad=(), label="LogSoftmaxExt-dtype"),
    Case("Transpose", lambda x: ops.BatchToSpaceNDV2()(x, ms.Tensor(np.array([2, 2])),
                                                       ms.Tensor(np.array([[0, 1], [1, 0]]))),
         (F64(8, 2, 2, 3),), lambda x: _b2s_ref(x, (2, 2), ((0, 1), (1, 0))), label="BatchToSpaceNDV2"),
]
