"""Gradients taken inside a graph (jit-of-grad, GRAPH_MODE GradNet wrappers) of functions and Cells with
tensor control flow: compiled as one graph (no host fallback) with Cond / WhileLoop nodes split into
forward + residuals, giving PyNative's values."""
import numpy as np
import pytest

import sprout as ms
import sprout.jit as jit_mod
from sprout import Parameter, context, nn, ops


@pytest.fixture(autouse=True)
def _fresh_context():
    context.reset_context()
    yield
    context.reset_context()


def t(*rows):
    return ms.Tensor(np.asarray(rows, np.float32))


class IfNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(np.array([0.5, -1.0, 2.0], np.float32), name="w")

    def construct(self, x, y):
        if (x * self.w).sum() > y.sum():
            out = ops.sin(x) * self.w + y
        else:
            out = x * y * self.w
        return out.sum()


class WhileNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(np.array([1.1, 0.9, 1.2], np.float32), name="w")

    def construct(self, x, y):
        while x.sum() < 10:
            x = x * self.w + y
        return (x * x).sum()


class GradAll(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, *inputs):
        return ops.GradOperation(get_all=True)(self.net)(*inputs)


class GradWeights(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.weights = ms.ParameterTuple(net.trainable_params())
        self.grad = ops.GradOperation(get_by_list=True, sens_param=True)

    def construct(self, x, y, sens):
        return self.grad(self.net, self.weights)(x, y, sens)


class ValueAndGrad(nn.Cell):
    """The MindSpore 2.x training-step pattern: value_and_grad built in __init__, called in construct."""

    def __init__(self, net):
        super().__init__()
        self.net = net
        self.fn = ops.value_and_grad(net, grad_position=(0, 1), weights=net.trainable_params())

    def construct(self, x, y):
        return self.fn(x, y)


def _np(tree):
    if isinstance(tree, (tuple, list)):
        return [_np(v) for v in tree]
    return tree.asnumpy()


def _assert_close(a, b):
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for u, v in zip(a, b):
            _assert_close(u, v)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("net_cls", [IfNet, WhileNet], ids=["if", "while"])
@pytest.mark.parametrize("wrapper", [GradAll, GradWeights, ValueAndGrad], ids=lambda c: c.__name__)
def test_graph_mode_grad_wrappers_with_tensor_control_flow(net_cls, wrapper):
    inputs = [(t(0.5, 1.0, 1.5), t(0.2, 0.1, 0.3)), (t(-1.0, 0.5, 0.25), t(2.0, 2.0, 2.0))]
    for x, y in inputs:
        args = (x, y, ms.Tensor(np.float32(1.5))) if wrapper is GradWeights else (x, y)
        cell = wrapper(net_cls())
        want = _np(cell(*args))
        context.set_context(mode=ms.GRAPH_MODE)
        jit_mod.reset_stats()
        got = _np(cell(*args))
        stats = jit_mod.stats()
        context.set_context(mode=ms.PYNATIVE_MODE)
        _assert_close(got, want)
        assert stats["compiles"] == 1
        assert all(s["host_fallbacks"] == 0 for s in stats["functions"].values())


def _helper(x):
    return ops.exp(x) if x.sum() < 0 else ops.sin(x) * 2


def _through_helper(x):
    y = x
    i = x.sum() * 0
    while i < 3:
        y = _helper(y) + x
        i = i + 1
    return y.sum()


@pytest.mark.parametrize("make", [
    lambda: ops.grad(_through_helper),
    lambda: ops.GradOperation()(_through_helper),
    lambda: (lambda x: ops.value_and_grad(_through_helper)(x)[1]),
    lambda: ops.grad(ops.Partial()(lambda s, x: _through_helper(x * s), 2.0)),
], ids=["grad", "GradOperation", "value_and_grad", "Partial"])
def test_jit_of_grad_with_control_flow_in_helpers(make):
    x = t(0.3, -0.2, 0.4)
    g = make()
    want = g(x).asnumpy()
    jg = ms.jit(lambda x: g(x))
    np.testing.assert_allclose(jg(x).asnumpy(), want, rtol=1e-5)
    ir = jg.get_ir(x)
    assert "WhileLoop(" in ir and "Cond(" in ir
    assert jit_mod.stats(jg)["host_fallbacks"] == 0


def _if_then_double(x):
    y = ops.sin(x) * x
    if x.sum() > 0:
        y = y * 2
    return y.sum()


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_jit_of_the_grad_function_itself(mode):
    # jit(ops.grad(f), capture_mode="bytecode") stepped through sprout's own grad code: zeros
    x = t(0.3, 0.5, 0.7)
    g = ops.grad(_if_then_double)
    want = g(x).asnumpy()
    jg = ms.jit(g, capture_mode=mode)
    for _ in range(2):
        np.testing.assert_allclose(jg(x).asnumpy(), want, rtol=1e-5)
    g2 = ops.grad(lambda x: (ops.cos(x) * x).sum())  # another grad function: its own entries
    np.testing.assert_allclose(ms.jit(g2, capture_mode=mode)(x).asnumpy(), g2(x).asnumpy(), rtol=1e-5)
