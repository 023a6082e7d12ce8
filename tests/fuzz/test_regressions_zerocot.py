"""Shrunk findings of the 10,000-program fuzz run left classified as "float32 overflow" (seeds 311838 and 314259,
2026-12-06, issue 9): eager's forward made an infinity from finite operands, and jit's gradient was NaN where
eager's is finite, because the graph backward fed a zero cotangent to a bprop eager's tape never runs (0 * inf).
Cotangents known to be zero are absent now (autodiff/absent.py, guards.py, trips.py): both agree outright, and
``assert_agrees`` fails on a check the overflow rule would excuse."""
import pytest

from .harness import assert_agrees
from .test_regressions_capture import _fresh_context  # noqa: F401 - an autouse fixture

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
GRAD_CHECKS = ("grad_of_jit", "jit_of_grad")

# ---- seed 311838: a Cond output nothing differentiates ------------------------------------------------------------
# x, reassigned in the else branch's loop, is read after the if only by ``maximum``'s comparison side that v9's
# reassignment drops: its cotangent out of the Cond is absent. The branch backward was fed zeros_like for it and ran
# Square's bprop on the overflowed residual (eager: 0.72, jit: NaN); the branch backward is now specialised to the
# absent cotangent and that path is not emitted.
SRC_S311838 = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops


def h1(a):
    return (ops.stack([a, a]).sum(0) + a)

def f(x, s):
    v2 = ops.where((x * 3.0) > 0, ops.relu(x), x)
    if (ops.addn([v2.sum(), v2.sum()]) >= 3.0):
        v6 = v2
    else:
        j7 = 0
        while j7 < 3:
            j7 += 1
            v2 = (v2 * ops.sqrt(ops.abs(x) + 0.5))
            x = h1(x.abs())
            x = (x * ops.square((ops.mean(x) * v2)))
    v8 = ops.sigmoid(h1(h1(v2)))
    v9 = ops.maximum(ops.sigmoid(v2), ops.neg(ops.broadcast_to(x.mean(), (3,))))
    v9 = (-h1(ops.where(v9 > 0, v2, v2)))
    return (v2[1] / (ops.abs(h1(v9)) + 1))


FUZZ_W0 = Tensor(np.array([[0.25, 0.75, 1.25], [0.5, 1.0, 0.25]], np.float32))

def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss(x, s):
    return fuzz_combine(f(x, s))


def fuzz_grad(x, s):
    return ops.grad(fuzz_loss, grad_position=(0,), weights=None)(x, s)
'''


@pytest.mark.parametrize("check", GRAD_CHECKS)
def test_fuzz_S311838(check):
    assert_agrees(SRC_S311838,
        [('x', 'tensor', [[0.7, -2.39, 0.76], [-0.78, -0.46, -0.17]], [[0.56, -1.49, -0.44], [-1.06, -1.4, -3.59]]),
         ('s', 'float', 0.5, 0.5)],
        check=check, mode="ast", entry="f", weights=[])


# ---- seed 314259: a value a tensor while overwrites without reading it --------------------------------------------
# y overflowed before the loop (y - y * y); the loop body sets y = ones, so once the loop ran y's cotangent is absent.
# The loop's backward returned zeros for y and the bprops before the loop made 0 * inf = NaN (eager: 0). Now the
# first reverse step is peeled, unconditionally when the loop's condition on its constant initial state says it runs
# (here), and under the program's data-dependent condition the gradient is masked by ``count < 1`` (guards.py).
SRC_S314259 = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops


def f(y, n, tp):
    for e12 in tp:
        k14 = n + 2
        for i15 in range(k14):
            y = (y - (y * y))
    i16 = 0
    while (ops.ones(()) >= 0.5) and i16 < 4:
        i16 = i16 + 1
        y = ops.ones((4,))
    x = y
    v18 = (x - i16)
    v19 = v18
    return v19.mean()


FUZZ_W0 = Tensor(np.array(0.25, np.float32))

def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss(y, n, tp):
    return fuzz_combine(f(y, n, tp))


def fuzz_grad(y, n, tp):
    return ops.grad(fuzz_loss, grad_position=(0,), weights=None)(y, n, tp)
'''


@pytest.mark.parametrize("check", GRAD_CHECKS)
def test_fuzz_S314259(check):
    assert_agrees(SRC_S314259,
        [('y', 'tensor', [1.11, -0.45, 0.81, -2.05], [0.83, -0.86, -0.39, -1.26]),
         ('n', 'int', 3, 3),
         ('tp', 'tuple', [[-1.46, -0.44, -0.27, -1.25], [-0.93, -0.37, 0.01, 0.45]],
          [[-1.35, -0.95, -1.61, 0.36], [-0.25, 1.67, -1.29, 0.86]])],
        check=check, mode="ast", entry="f", weights=[])
