"""Compile time of gradients through nested tensor ifs (fuzz seeds 1684, 2475, 3045, 60511, 80190 timed out at
compile time): each branch is traced once, and a control-flow node is differentiated only by the tapes of the graph
it is in (a body being traced is differentiated as a whole by the node holding it), so the graphs built grow
linearly with the nesting depth. The counts asserted here are of graphs built, never times."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops
from sprout.autodiff import grad_graph

from .harness import check_program
from .program import Arg, SourceProgram

ALL_CHECKS = [(c, m) for c in ("fwd", "grad_of_jit", "jit_of_grad") for m in ("ast", "bytecode")]


def _nested(depth: int, traces: list):
    """``y`` through ``depth`` nested tensor ifs; the innermost branch passes ``x`` through (so each enclosing
    branch's result is ``x``'s own object only on some path: a conditional alias) and counts its traces."""
    def f(x):
        y = x * 2

        def level(k, y):
            if k == depth:
                traces.append(k)
                return x
            if x.sum() > k:
                y = level(k + 1, y)
            else:
                y = ops.sin(y) * (k + 1)
            return y

        y = level(0, y)
        ops.assign_add(y, x)  # reaches x where the innermost branch ran (eager: y is x there)
        return (y * x).sum()
    return f


@pytest.mark.parametrize("depth", [2, 4, 6])
def test_each_branch_is_traced_once(depth):
    """A branch result that is an operand's object only on an inner path used to re-trace the whole branch to add
    the flag output saying so: 2**depth traces of the innermost branch (and of its Python side effects)."""
    traces: list = []
    x = np.array([3.0, 4.5], np.float32)
    xe, xj = Tensor(x.copy()), Tensor(x.copy())
    want = _nested(depth, [])(xe)
    got = ms.jit(_nested(depth, traces))(xj)
    assert len(traces) == 1
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(xj.asnumpy(), xe.asnumpy(), rtol=1e-6)


def _splits(monkeypatch) -> list:
    names: list = []
    real = grad_graph.joint_graph

    def counted(graph):
        names.append(graph.name)
        return real(graph)
    monkeypatch.setattr(grad_graph, "joint_graph", counted)
    return names


@pytest.mark.parametrize("depth", [1, 3, 5])
def test_gradient_splits_grow_linearly_with_nesting(depth, monkeypatch):
    """jit(grad(f)) of ``depth`` ifs, each in the then-branch of the one before, and the same under a second grad:
    every branch body is split once per gradient level (2 * depth graphs at first order; at second order each body
    and its split forward once more, and each backward body once: 6 * depth). Before, each enclosing split
    re-split every body inside it, and the tapes of the enclosing graph split bodies while they were traced."""
    def nested(x):
        y = x * 2
        cond = [x.sum() > k for k in range(depth)]

        def level(k, y):
            if k == depth:
                return y * x
            if cond[k]:
                y = level(k + 1, y)
            else:
                y = ops.sin(y) + k
            return y
        return (level(0, y) * x).sum()

    def second(x):
        return ops.grad(nested)(x).sum()

    x = Tensor(np.array([1.5, 2.0], np.float32))
    names = _splits(monkeypatch)
    got = ms.jit(ops.grad(nested))(x)
    assert len(names) == 2 * depth, names
    np.testing.assert_allclose(got.asnumpy(), ops.grad(nested)(x).asnumpy(), rtol=1e-5)
    names.clear()
    got = ms.jit(ops.grad(second))(x)
    assert len(names) == 6 * depth, names
    np.testing.assert_allclose(got.asnumpy(), ops.grad(second)(x).asnumpy(), rtol=1e-5)


def test_fuzz_S60511():
    """Seed 60511 reduced by hand: a Cell whose nested tensor ifs call ``grad``/``value_and_grad`` of helpers that
    take ``grad``/``GradOperation`` of a helper with nested tensor ifs (third-order tapes over Conds), under an outer
    ``grad`` (jit_of_grad) or around the jitted Cell (grad_of_jit). Timed out at compile time (graphs re-split at
    every nesting level, branches re-traced per level); every check agrees in both captures."""
    args = [Arg("x", "tensor", [-2.1, -1.3, -0.7], [1.2, 0.4, 3.0]),
            Arg("y", "tensor", [2.3, 0.5, -1.0], [-0.6, 1.1, 0.9])]
    res = check_program(SourceProgram(SRC_S60511, args, "net", ["net.w0", "net.w1"]))
    assert not res.invalid, res.invalid
    assert [(o.check, o.mode) for o in res.outcomes] == ALL_CHECKS
    bad = res.failures()
    assert not bad, "; ".join(f"{o.check}/{o.mode}: {o.status} ({o.kind}) {o.detail}" for o in bad)


SRC_S60511 = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops


def h0(a, b):
    if ops.amin(b) >= 1.5:
        b = ops.exp(ops.tanh(a))
        a = b
        if (ops.amax(a) - b.sum()) > -0.5:
            b = a * 0.1
        else:
            a = a + a
    else:
        b = b - ops.neg(a) * 0.5
    return a * b


def h1(a, c=0.1):
    if ops.mean(a) > 2.0:
        v6 = ops.grad(h0)(h0(a, a) * 1.0, a * 0.5)
        v7 = a
        if ops.amin(a) < 0.5:
            a = ops.add(ops.GradOperation()(h0)(a * 1.0, a * 1.0), a / (ops.abs(v7) + 1))
    return ops.tanh(h0(a, a)).sum()


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = Parameter(Tensor(np.array([0.2, 0.06, 1.83], np.float32)), name='w0')
        self.w1 = Parameter(Tensor(np.array([-0.01, 0.14, -0.71], np.float32)), name='w1')

    def construct(self, x, y):
        v10 = ops.sin(x)
        if ops.exp(ops.tanh(x.sum())) < 0.5:
            if (x.mean() - 1.0) > 0.25:
                y = ops.grad(h0, grad_position=(0, 1))(ops.log(ops.abs(self.w0) + 1), ops.cos(x))[1]
            elif ops.minimum(ops.sum(y), ops.mean(x)) <= 0.1:
                x = v10 / (ops.abs(h1(self.w1)) + 1)
            else:
                y = h0(ops.square(ops.value_and_grad(h1)(self.w0 * 1.0)[1]), h1(self.w1) - y)
            v10 = v10 - (h1(x, c=2.0) + 1.5)
        y = ops.value_and_grad(h1)(ops.maximum(v10, ops.sub(self.w1, self.w0)) * 1.0)[1]
        return (y + 1.0) * x


net = Net()
FUZZ_W0 = Tensor(np.array([0.25, 0.75, 1.25], np.float32))


def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss(x, y):
    return fuzz_combine(net(x, y))


def fuzz_grad(x, y):
    return ops.grad(fuzz_loss, grad_position=(0, 1), weights=[net.w0, net.w1])(x, y)
'''


def test_a_branch_no_gradient_reaches_is_never_split(monkeypatch):
    """A tensor if whose result nothing differentiated uses is not split (the split happens on the backward's first
    use of the node): seed 2475 had ten such ifs with 1272-node branches (a grad of a helper with unrolled loops),
    each split for nothing at every gradient order. Only the live if's bodies are split: 2 at first order, 6 at
    second (as in test_gradient_splits_grow_linearly_with_nesting)."""
    def f(x):
        dead = x * 3
        if x.sum() > 0:
            dead = ops.sin(dead) * ops.grad(lambda a: (a * a).sum())(x)
        else:
            dead = ops.cos(dead)
        y = x * 2
        if x.sum() > 1:
            y = y * x
        else:
            y = ops.sin(y)
        return (y * x).sum()

    def second(x):
        return ops.grad(f)(x).sum()

    x = Tensor(np.array([1.5, 2.0], np.float32))
    names = _splits(monkeypatch)
    got = ms.jit(ops.grad(f))(x)
    assert len(names) == 2, names
    np.testing.assert_allclose(got.asnumpy(), ops.grad(f)(x).asnumpy(), rtol=1e-5)
    names.clear()
    got = ms.jit(ops.grad(second))(x)
    assert len(names) == 6, names
    np.testing.assert_allclose(got.asnumpy(), ops.grad(second)(x).asnumpy(), rtol=1e-5)
