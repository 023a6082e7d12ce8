"""Autodiff across the jit boundary: one tape node per jitted call, gradients inside jitted code,
a jitted training step updating Parameters in place, higher order."""
import numpy as np
import pytest

import sprout as ms
import sprout.nn as nn
from sprout import Parameter, Tensor, jit, ops
from sprout.autodiff.tape import Tape
from sprout.core import dispatch
from sprout.core.op import Op, register
from sprout.core.types import TensorType


def t(values):
    return Tensor(np.asarray(values, np.float32))


CALLS = {"n": 0}


def _counted(x):
    CALLS["n"] += 1
    return np.sin(x)


COUNTED_SIN = register(Op("TestCountedSin", _counted, lambda x: TensorType(x.shape, x.dtype),
                          lambda x, out, d: (d * ops.cos(x),), kind="opaque"))


def _assign(x, v):
    np.copyto(x, v)
    return x


ASSIGN = getattr(ops, "assign", None) or register(
    Op("TestAssign", _assign, lambda x, v: TensorType(x.shape, x.dtype), None, kind="effect", side_effect=True))


def test_jitted_call_is_one_tape_node_and_forward_runs_once():
    @jit
    def f(x, y):
        return COUNTED_SIN(x) * y + x

    x, y = t([0.1, 0.2, 0.3]), t([1.0, 2.0, 3.0])

    def outer(x, y):
        return ops.reduce_sum(f(x * 2, y) ** 2)  # eager ops before and after the jitted call

    tape = Tape()
    tape.watch(x)
    dispatch.push_tape(tape)
    try:
        f(x, y)
    finally:
        dispatch.pop_tape(tape)
    assert [r[0].name for r in tape.records] == ["custom_vjp"]

    CALLS["n"] = 0
    gx, gy = ms.grad(outer, (0, 1))(x, y)
    assert CALLS["n"] == 1  # the backward used the residuals, never the forward again
    CALLS["n"] = 0

    def eager_outer(x, y):
        return ops.reduce_sum((COUNTED_SIN(x * 2) * y + x * 2) ** 2)

    ex, ey = ms.grad(eager_outer, (0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), ex.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(gy.asnumpy(), ey.asnumpy(), rtol=1e-5)


def test_weights_get_gradients_through_jitted_cell():
    class Lin(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32), name="w")

        @jit
        def construct(self, x):
            return ops.tanh(ops.matmul(x, self.w))

    net = Lin()
    x = t([[0.5, -0.5]])
    g = ms.grad(lambda x: net(x).sum(), None, [net.w])(x)
    eager = ms.grad(lambda x: ops.tanh(ops.matmul(x, net.w)).sum(), None, [net.w])(x)
    np.testing.assert_allclose(g[0].asnumpy(), eager[0].asnumpy(), rtol=1e-6)


def sinx(x):
    return ops.sin(x) * x


@pytest.mark.parametrize("maker", [
    lambda: ms.grad(sinx),
    lambda: (lambda x: ms.value_and_grad(sinx)(x)[1]),
    lambda: (lambda x: ops.GradOperation()(sinx)(x)),
])
def test_grad_inside_jitted_code(maker):
    x = t([0.5, 1.0, 2.0])
    expected = maker()(x).asnumpy()
    jitted = jit(lambda x: maker()(x) * 1.0)
    np.testing.assert_allclose(jitted(x).asnumpy(), expected, rtol=1e-6)
    assert "Cos" in jitted.get_ir(x)


def test_jitted_training_step_updates_parameters_in_place():
    rng = np.random.default_rng(0)
    w0, b0 = rng.standard_normal((3, 2)).astype(np.float32), np.zeros(2, np.float32)
    xs = Tensor(rng.standard_normal((8, 3)).astype(np.float32))
    ys = Tensor(rng.standard_normal((8, 2)).astype(np.float32))

    def make():
        w, b = Parameter(w0.copy(), name="w"), Parameter(b0.copy(), name="b")

        def loss_fn(x, y):
            return ops.mean((ops.matmul(x, w) + b - y) ** 2)

        grad_fn = ms.value_and_grad(loss_fn, None, [w, b])

        def step(x, y):
            loss, (gw, gb) = grad_fn(x, y)
            ASSIGN(w, w - 0.1 * gw)
            ASSIGN(b, b - 0.1 * gb)
            return loss

        return w, b, step

    w, b, step = make()
    ew, eb, estep = make()
    jstep = jit(step)
    w_obj = w
    losses = [float(jstep(xs, ys).asnumpy()) for _ in range(5)]
    eager = [float(estep(xs, ys).asnumpy()) for _ in range(5)]
    np.testing.assert_allclose(losses, eager, rtol=1e-5)
    assert losses[-1] < losses[0]
    assert w is w_obj
    np.testing.assert_allclose(w.asnumpy(), ew.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(b.asnumpy(), eb.asnumpy(), rtol=1e-5)
    assert jstep.stats["compiles"] == 1
    assert "update" in jstep.get_ir(xs, ys)


def test_higher_order_through_the_boundary():
    cube = jit(lambda x: x * x * x)
    x = t([1.0, 2.0])
    np.testing.assert_allclose(ms.grad(cube)(x).asnumpy(), [3.0, 12.0])
    np.testing.assert_allclose(ms.grad(ms.grad(cube))(x).asnumpy(), [6.0, 12.0])
    second = jit(ms.grad(ms.grad(lambda x: x * x * x)))
    np.testing.assert_allclose(second(x).asnumpy(), [6.0, 12.0])
