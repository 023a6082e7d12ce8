"""fuse's merge checks walk groups' outside inputs transitively; each walk is bounded (``CLOSURE_BUDGET``, a longer
walk answers "depends": no merge). Fuzz seed 133420 (a gradient of a looping helper taken inside nested loops under
AST capture) walked ~13M steps for 9 inner iterations and took 55 s of CPU for 27 (reported as a hang). Work is
counted (steps walked), never timed."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops
from sprout.passes import fuse


def h0(a):
    for _ in range(3):
        for e3 in a:
            a = a + ops.tanh(ops.matmul(a, ops.broadcast_to(e3.mean(), (2, 2))))
    return -(a / (ops.abs(a) + 1))


def make(n: int):
    def f(x, y):
        v7 = ops.broadcast_to(x.mean(), (2,))
        for e11 in x:
            for _ in range(n):
                y = ops.where((x + y) > 0, ops.GradOperation()(h0)(y * 1.0), x)
                v7 = ops.sin(v7 + ops.clamp(v7, -1.0, 1.0) / (ops.abs(e11) + 1))
        return y * v7.sum()
    return f


X = np.array([[0.92, -0.22], [-1.03, 1.88], [-0.0, -0.11]], np.float32)
Y = np.array([[1.03, 0.47], [-0.46, 0.83], [2.17, -0.74]], np.float32)


def _walked(n: int) -> int:
    f = make(n)
    want = f(Tensor(X), Tensor(Y)).asnumpy()
    before = fuse.WALKED[0]
    got = ms.jit(f)(Tensor(X), Tensor(Y)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    return fuse.WALKED[0] - before


def test_merge_checks_grow_about_linearly():
    """3 then 9 gradients in the loop: the steps walked grow ~5x (they grew 31x before the bound: 0.41M -> 12.7M)."""
    small, big = _walked(1), _walked(3)
    assert big < 10 * max(small, 1), (small, big)


@pytest.mark.parametrize("budget", [0, 64])
def test_a_walk_over_budget_only_stops_merging(monkeypatch, budget):
    """Answering "depends" when the walk is cut off keeps the graph acyclic and the values right."""
    monkeypatch.setattr(fuse, "CLOSURE_BUDGET", budget)
    _walked(1)
