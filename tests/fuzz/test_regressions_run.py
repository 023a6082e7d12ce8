"""Shrunk findings of the fresh fuzz batches of the 2026-12-06 run (issue 9, helper `fuzzrun`): each program runs
eagerly, under jit(ast) and jit(bytecode) through the fuzz harness (two input sets; forward, grad-of-jit and
jit-of-grad) and must agree in every check."""
import pytest

import sprout as ms

from .harness import assert_agrees
from .test_regressions_capture import ALL_CHECKS, _prog


@pytest.fixture(autouse=True)
def _fresh_context():
    ms.context.reset_context()
    yield
    ms.context.reset_context()


# ---- seed 100032: a third-order gradient through a tensor if whose other branch has a while loop -------------------
# The gradient of a Cond returns the taken branch's residuals and zero stand-ins for the other branch's; a stand-in
# for a stacked loop residual ([?, 3, 2]) is a [0, 3, 2] constant, and the Cond took its output types from the then
# branch only, so the else branch's backward loop indexed a [0, 3, 2] tensor and shape inference refused the index
# (IndexError at compile time, jit_of_grad and grad_of_jit under AST capture). Fixed in ops/control.py: a Cond's
# output type joins both branches' (differing sizes become symbolic).
SRC_COND_STANDIN_STACK = _prog("""
def h0(a, b):
    if a.sum() > 0:
        b = a * 2
    else:
        i = 0
        while b.sum() > -10.0 and i < 2:
            i = i + 1
            b = ops.tanh(b - a)
    return b


def h1(a, b):
    g = ops.value_and_grad(h0)(a, b)[1]
    return (g * a * b).sum()


def f(x, y):
    return ops.value_and_grad(h1)(x * 1.0, y * 1.0)[1] + x
""", [[0.25, 0.75], [1.25, 0.5], [1.0, 0.25]], "x, y", (0, 1))
ARGS_COND_STANDIN_STACK = [("x", "tensor", [[0.76, -0.82], [1.62, 0.27], [-0.52, -1.24]],
                            [[-1.89, -0.13], [-1.54, 0.1], [2.02, -0.02]]),
                           ("y", "tensor", [[0.5, 1.0], [-0.5, 0.25], [1.5, -1.0]],
                            [[-0.5, 0.75], [1.0, -1.25], [0.5, 0.5]])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_higher_order_gradient_of_if_with_a_loop_in_the_branch_not_taken(check, mode):
    assert_agrees(SRC_COND_STANDIN_STACK, ARGS_COND_STANDIN_STACK, check=check, mode=mode)


# ---- seed 110232: a closure reads a variable assigned after a tensor if with an early return -----------------------
# The code after an ``if`` whose branch returns moves into the other branch, so the branch functions assign the
# variable; a variable a nested function reads is ``nonlocal`` in them, and the enclosing function no longer bound it:
# the converted code did not compile (SyntaxError: no binding for nonlocal 'v8'). Fixed in capture/ast/convert.py.
CLOSURE_AFTER_EARLY_RETURN = {
    "seed_110232": """
def f(x):
    if x.sum() > 0.25:
        x = x * 2
    elif x.sum() < -5.0:
        return x
    v8 = x * 3
    def g9():
        return v8 + 1
    return g9()
""",
    "closure_defined_before_the_if": """
def f(x):
    def g():
        return v * 2
    if x.sum() > 0.25:
        return x
    v = x * 3
    return g()
""",
    "nested_ifs": """
def f(x):
    if x.sum() > 0:
        if x[0] > 0.5:
            return x
        v = x * 2
    else:
        v = x - 1
    def g():
        return v + 1
    return g()
""",
}
X3 = [("x", "tensor", [0.76, -0.82, 1.62], [-1.89, -0.13, 0.6])]


@pytest.mark.parametrize("body", [pytest.param(b, id=k) for k, b in CLOSURE_AFTER_EARLY_RETURN.items()])
@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_closure_reads_a_variable_assigned_after_an_early_return(body, check, mode):
    assert_agrees(_prog(body, [0.25, 0.75, 1.25], "x"), X3, check=check, mode=mode)
