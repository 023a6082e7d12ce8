"""ops.InsertGradientOf with a hook that only observes (builtin print, a function returning None): the gradient
flows on unchanged and the hook sees its value, eagerly and in compiled graphs (issue 9). MindSpore 2.10 on this
program: PyNative prints ``[1. 1.]`` and gives ``[2. 4.]``; graph mode prints the gradient too (its bprop passes
``dout`` on when the hook returns None)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

X = np.array([1.0, 2.0], np.float32)


def _f(hook):
    ins = ops.InsertGradientOf(hook)

    def f(x):
        return ins(x * x).sum()
    return f


def _runs(f):
    return {"eager": ms.grad(f),
            "jit(grad) ast": ms.jit(ms.grad(f)),
            "jit(grad) bytecode": ms.jit(ms.grad(f), capture_mode="bytecode"),
            "grad(jit) ast": ms.grad(ms.jit(f)),
            "grad(jit) bytecode": ms.grad(ms.jit(f, capture_mode="bytecode"))}


@pytest.mark.parametrize("how", sorted(_runs(lambda x: x)))
def test_print_as_the_hook_prints_the_gradient_and_passes_it_on(how, capsys):
    g = _runs(_f(print))[how](Tensor(X))
    np.testing.assert_array_equal(g.asnumpy(), 2 * X)
    assert capsys.readouterr().out == "[1. 1.]\n"


@pytest.mark.parametrize("how", sorted(_runs(lambda x: x)))
def test_a_hook_returning_none_leaves_the_gradient(how):
    seen = []

    def observe(d):
        seen.append(d)  # a tracer in graphs: only that it was called

    g = _runs(_f(observe))[how](Tensor(X))
    np.testing.assert_array_equal(g.asnumpy(), 2 * X)
    assert len(seen) == 1


def test_a_replacing_hook_still_replaces():
    g = ms.jit(ms.grad(_f(lambda d: d * 3)))(Tensor(X))
    np.testing.assert_array_equal(g.asnumpy(), 6 * X)
