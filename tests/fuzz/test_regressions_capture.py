"""Shrunk findings in bytecode capture / PIJit, autodiff and the executor (issue 9, helper `capture`): each runs
eagerly, under jit(ast) and jit(bytecode) through the fuzz harness (two input sets; forward, grad-of-jit and
jit-of-grad), or checks the clear error where a result cannot be computed."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

from .harness import assert_agrees

ALL_CHECKS = [(c, m) for c in ("fwd", "grad_of_jit", "jit_of_grad") for m in ("ast", "bytecode")]


def _prog(body: str, w0: list, args: str, pos: tuple = (0,), entry: str = "f") -> str:
    """A fuzz program: ``body`` (defining ``entry``) plus the harness's loss and gradient functions."""
    return f"""import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops

{body}

FUZZ_W0 = Tensor(np.array({w0!r}, np.float32))


def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss({args}):
    return fuzz_combine({entry}({args}))


def fuzz_grad({args}):
    return ops.grad(fuzz_loss, grad_position={pos!r}, weights=None)({args})
"""


@pytest.fixture(autouse=True)
def _fresh_context():
    ms.context.reset_context()
    yield
    ms.context.reset_context()


# ---- a gradient transform of a closure over a graph value, whose callee breaks the graph --------------------
SRC_GRAD_CLOSURE = _prog('''
def helper(a):
    if a.sum() > 0:
        return a * 2
    return a - 1


def f(x, y):
    return ops.grad(lambda a: helper(a) * y)(x) * y
''', [0.5, 1.0, -1.5], "x, y", (0, 1))
ARGS_GRAD_CLOSURE = [("x", "tensor", [1.0, 2.0, 3.0], [-1.0, -2.0, 0.5]), ("y", "tensor", [3.0, 4.0, 5.0],
                                                                          [0.5, -1.0, 2.0])]


@pytest.mark.parametrize("check,mode", ALL_CHECKS)
def test_grad_of_a_closure_whose_callee_breaks_the_graph(check, mode):
    """``jit(lambda x, y: ops.grad(lambda a: helper(a) * y)(x), capture_mode="bytecode")`` with a tensor ``if`` in
    ``helper`` crashed with "'Tracer' object has no attribute '_data'": ``ops.grad(lam)`` (sprout code) ran at
    capture time and its result, holding the lambda whose cell held ``y``'s tracer, went to the Python part as a
    constant. Objects sprout code makes from graph values are now made again at the exit (a ``CALL`` recipe)."""
    assert_agrees(SRC_GRAD_CLOSURE, ARGS_GRAD_CLOSURE, check=check, mode=mode)


def test_grad_of_a_closure_direct_call():
    """The issue's exact form: the jitted lambda itself, both branches of the helper over two calls."""
    def helper(a):
        if a.sum() > 0:
            return a * 2
        return a - 1

    def f(x, y):
        return ops.grad(lambda a: helper(a) * y)(x)

    y = Tensor(np.array([3.0, 4.0, 5.0], np.float32))
    jf = ms.jit(f, capture_mode="bytecode")
    for x in ([1.0, 2.0, 3.0], [-1.0, -2.0, -3.0], [4.0, 0.0, 1.0]):
        xt = Tensor(np.array(x, np.float32))
        np.testing.assert_allclose(jf(xt, y).asnumpy(), f(xt, y).asnumpy())
