"""Gradients through a compiled graph whose outputs are not all used (issue 9): an input reaching a used and an
unused output gets the used output's gradient only, as eagerly. The unused output's cotangent is absent, not
zero: ``0 * inf`` (sqrt at 0, log at 0, 1/x at 0) would make the gradient NaN (``autodiff/absent.py``)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

X = np.array([0.0, 1.0, 4.0], np.float32)
X4 = np.array([0.0, 1.0, 4.0, 9.0], np.float32)


def two(x):
    return ops.sqrt(x), x * 2


def sub_path(x):
    a = ops.sqrt(x)
    return a - x * 3, x * 2 - x * x * 0.5, ops.log(x) - a


def split_path(x):
    a, b = ops.split(x, 2)  # split's backward concatenates both pieces' cotangents (one of them absent)
    return ops.sqrt(a), b * 2, ops.stack([ops.reciprocal(a), b]).sum(0)


def with_break(x):
    a = ops.sqrt(x)
    b = x * 2
    n = int(b.sum().asnumpy())  # a graph break under bytecode capture: a and b leave the first segment
    return a, b * n


CASES = [(two, lambda o: o[1].sum()),
         (sub_path, lambda o: (o[1] * o[1]).sum()),
         (split_path, lambda o: o[1].sum()),
         (with_break, lambda o: o[1].sum())]


@pytest.mark.parametrize("fn, use", CASES)
@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_unused_output_passes_no_gradient(fn, use, mode):
    def loss_with(f):
        return lambda x: use(f(x))

    x = X4 if fn is split_path else X
    want = ms.grad(loss_with(fn))(Tensor(x)).asnumpy()
    got = ms.grad(loss_with(ms.jit(fn, capture_mode=mode)))(Tensor(x)).asnumpy()
    assert np.isfinite(want).all()
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_used_output_with_an_infinite_partial_stays_infinite():
    """Absent is not zero: when the output with the infinite partial is used, the gradient is inf, as eagerly."""
    f = ms.jit(two)
    got = ms.grad(lambda x: f(x)[0].sum() + f(x)[1].sum())(Tensor(X)).asnumpy()
    assert np.isinf(got[0]) and np.allclose(got[1:], [2.5, 2.25])


def test_shape_only_reads_of_an_absent_cotangent():
    """``OnesLike`` of an absent cotangent is ones, not absent (absent.py reads zeros of its shape there)."""
    from sprout.autodiff.absent import without
    from sprout.core.op import REGISTRY
    from sprout.core.types import TensorType
    from sprout.ir import Graph, Node, Var

    f32 = TensorType((3,), ms.float32)
    res, d0, d1 = Var(f32, "r"), Var(f32, "d0"), Var(f32, "d1")
    ones, prod, total = Var(f32), Var(f32), Var(f32)
    g = Graph("bwd", [res, d0, d1], [Node(REGISTRY["OnesLike"], [d0], {}, [ones]),
                                     Node(REGISTRY["Mul"], [ones, d1], {}, [prod]),
                                     Node(REGISTRY["Mul"], [d0, res], {}, [total])], [prod, total])
    h = without(g, 1, (True, False))
    assert [n.op.name for n in h.nodes] == ["OnesLike", "Mul"]  # the Mul of d0 alone is gone
    from sprout.backend.interpret import interpret
    out = interpret(h, np.full(3, np.inf, np.float32), np.zeros(3, np.float32), np.full(3, 2.0, np.float32))
    np.testing.assert_array_equal(out[0], [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(out[1], [0.0, 0.0, 0.0])
