"""`ops.functional` carries the function transforms as MindSpore's does (`F.grad`, `F.value_and_grad` ...)."""
import numpy as np

import sprout as ms
from sprout import ops
from sprout.ops import functional as F


def test_functional_transforms_are_the_ops_ones():
    for name in ("grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap"):
        assert getattr(F, name) is getattr(ops, name), name
    assert "range" not in vars(F) and "slice" not in vars(F)   # functional.py loops with the builtins


def test_functional_grad_runs_eager_and_under_jit():
    def f(x):
        return (x * x).sum()

    x = ms.Tensor(np.array([1.0, -2.0, 3.0], np.float32))
    expected = 2 * x.asnumpy()
    np.testing.assert_allclose(F.grad(f)(x).asnumpy(), expected)
    np.testing.assert_allclose(ms.jit(lambda t: F.grad(f)(t))(x).asnumpy(), expected)
    loss, g = F.value_and_grad(f)(x)
    assert float(loss.asnumpy()) == 14.0
    np.testing.assert_allclose(g.asnumpy(), expected)
