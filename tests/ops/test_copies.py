"""Copies stay copies: ops.identity / Identity / deepcopy / mindspore.numpy.copy / Tensor.copy taken before an
in-place write keep the old values, eagerly and under jit (they had aliased the input's buffer eagerly)."""
import numpy as np
import pytest

import sprout as ms
import sprout.numpy as mnp
from sprout import ops

COPIES = {"identity": ops.identity, "Identity": lambda t: ops.Identity()(t), "deepcopy": ops.deepcopy,
          "mnp.copy": mnp.copy, "Tensor.copy": lambda t: t.copy()}


@pytest.mark.parametrize("name", sorted(COPIES))
def test_copy_then_assign_keeps_the_old_values(name):
    p = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="p")
    copy = COPIES[name](p)
    ops.assign(p, ms.Tensor(np.zeros(2, np.float32)))
    ops.assign_add(p, ms.Tensor(np.full(2, 3.0, np.float32)))
    assert copy.asnumpy().tolist() == [1.0, 1.0] and p.asnumpy().tolist() == [3.0, 3.0]


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_copy_then_assign_under_jit(mode):
    p = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="p")

    def step(x):
        before = ops.identity(p)
        ops.assign(p, x)
        return before * 2, p + 0

    before, after = ms.jit(step, capture_mode=mode)(ms.Tensor(np.full(2, 5.0, np.float32)))
    assert before.asnumpy().tolist() == [2.0, 2.0] and after.asnumpy().tolist() == [5.0, 5.0]
