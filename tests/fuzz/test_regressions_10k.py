"""Shrunk findings of the 10,000 fresh fuzz programs (seeds 210000-219999) run on 74d2e6d at the end of the
2026-12-06 third session (issue 9): each program runs eagerly, under jit(ast) and jit(bytecode) through the fuzz
harness (two input sets; forward, grad-of-jit and jit-of-grad) and must agree in every check."""
import pytest

from .harness import assert_agrees
from .test_regressions_capture import ALL_CHECKS

# ---- seed 213660: a Parameter bound two tensor ifs deep, then written -------------------------------------------
# ``x = p0`` inside two nested tensor ifs, ``ops.assign(p0, ...)`` after them: eagerly x is p0 and sees the write,
# AST capture returned p0's old mean (silent wrong forward). The inner Cond's result was recorded as p0 on the inner
# branch's path (``alias_when``), but the outer branch's ``_result_aliases`` kept such a record only when the result
# was the Parameter itself; it now keeps any Parameter or state object a result may be (capture/control.py).
SRC_S213660 = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops

p0 = Parameter(Tensor(np.array([-0.76, -0.39, 0.32], np.float32)), name='p0')

def f():
    x = ops.ones((3,))
    if (ops.ones(()) < 1.5):
        if ((-ops.ones(())) <= 0.5):
            x = p0
    ops.assign(p0, ops.ones((3,)))
    return ops.mean(x)


FUZZ_W0 = Tensor(np.array(0.25, np.float32))

def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss():
    return fuzz_combine(f())


def fuzz_grad():
    return ops.grad(fuzz_loss, grad_position=(), weights=None)()
'''


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_213660_parameter_bound_two_tensor_ifs_deep(check, mode):
    assert_agrees(SRC_S213660, [], check=check, mode=mode)


# ---- seed 211117: a bytecode segment ending just before the function's return ------------------------------------
# jit_of_grad under bytecode capture crashed with the executor's internal ``Return`` exception: a segment ended right
# before RETURN_VALUE, which then ran as a Python step, and the runtime did not expect the function to return there
# (capture/bytecode/runtime.py now returns its value, and never routes it to the user's exception handlers).
SRC_S211117 = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 0.5
        self.w1 = Parameter(Tensor(np.array([[0.94, -0.6, 0.28], [0.48, -0.9, -0.61]], np.float32)), name='w1')
    def construct(self, z):
        y = ops.transpose(ops.stack([z, self.w1]).sum(0), (1, 0))
        v14 = y.sum()
        i15 = 0
        while (ops.ones(()) > 0.5) and i15 < 1:
            i15 = i15 + 1
        return (v14 / (ops.abs(ops.ones((2, 3))) + 1))

net = Net()


FUZZ_W0 = Tensor(np.array([[0.25, 0.75, 1.25], [0.5, 1.0, 0.25]], np.float32))

def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss(z):
    return fuzz_combine(net(z))


def fuzz_grad(z):
    return ops.grad(fuzz_loss, grad_position=(0,), weights=[net.w1])(z)
'''
X_S211117 = [("z", "tensor", [[0.23, 0.87, -0.31], [0.54, 0.48, -0.54]], [[-0.35, 0.51, 0.37], [-0.18, -0.21, 1.31]])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_211117_segment_ending_before_the_return(check, mode):
    assert_agrees(SRC_S211117, X_S211117, check=check, mode=mode, entry="net", weights=["net.w1"])


# ---- seed 216476: a view bound to two names across a PIJit graph break, second call ----------------------------
# ``y = transpose(y.reshape(...)); x = y`` then a tensor ternary (a graph break): the next segment's conversion of
# ``x`` (sharing memory with ``y``) broke off, and its exit held the frame's ``x`` as a constant, so the second call
# under bytecode capture returned the first call's tensor (silent wrong forward and gradient; since ac26ee4). A slot
# still holding the tensor the segment started with now passes it through (capture/bytecode/runtime.py).
SRC_S216476 = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops


def f(y):
    y = ops.transpose(y.reshape((2, 3)), (1, 0))
    x = y
    v4 = (y if (ops.ones(()) >= 0.5) else ops.ones((3, 2)))
    return ops.sum(x)


FUZZ_W0 = Tensor(np.array(0.25, np.float32))

def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss(y):
    return fuzz_combine(f(y))


def fuzz_grad(y):
    return ops.grad(fuzz_loss, grad_position=(0,), weights=None)(y)
'''
X_S216476 = [("y", "tensor", [[-0.05, -0.74], [0.2, -0.91], [1.58, 0.29]],
              [[-0.35, 0.68], [0.36, -0.67], [0.24, 0.43]])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_216476_view_bound_to_two_names_across_a_break(check, mode):
    assert_agrees(SRC_S216476, X_S216476, check=check, mode=mode)


# ---- seed 214237: a loop counter reset to the value it already held, second call -----------------------------------
# ``i5 = 0`` before an inner tensor while nested in a Python loop over i4: the first call never entered the inner loop,
# so the segment from the inner loop's exit (outer condition) to the inner condition was captured while i5 already
# held the cached int 0. Its exit took the slot as unchanged (the object it started with) and passed it through; on
# the second call the inner loop ran, the segment kept i5 = 2, and every later inner loop was skipped: bytecode
# capture returned v3 for i4 = 1 where eager's last iteration has i4 = 4 (silent wrong forward and gradient). A slot
# the segment assigned is never passed through (capture/bytecode/capture.py ``stored_slots``).
SRC_S214237 = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = -0.5
    def construct(self, x, y):
        x = (x * y)
        v3 = ops.ones((2,))
        i4 = 0
        while (not (ops.ones(()) >= 1.5)) and i4 < 4:
            i4 = i4 + 1
            i5 = 0
            while (ops.sum(x) <= 0.5) and i5 < 2:
                i5 = i5 + 1
                v3 = (ops.ones((2, 2)) * i4).sum(1)
        return (ops.broadcast_to(v3.mean(), (2, 2)) @ ops.ones((2, 3)))

net = Net()


FUZZ_W0 = Tensor(np.array([[0.25, 0.75, 1.25], [0.5, 1.0, 0.25]], np.float32))

def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss(x, y):
    return fuzz_combine(net(x, y))


def fuzz_grad(x, y):
    return ops.grad(fuzz_loss, grad_position=(0, 1), weights=None)(x, y)
'''
X_S214237 = [("x", "tensor", [[-0.91, -0.65, 0.79], [-0.66, -0.17, 0.25]], [[-0.21, 0.57, -1.4], [1.46, 0.9, -1.53]]),
             ("y", "tensor", [[0.01, 0.82, 1.37], [-0.8, -0.71, -0.41]], [[0.87, 1.36, 0.57], [0.78, 0.69, 1.26]])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_214237_outer_counter_in_an_inner_tensor_while(check, mode):
    assert_agrees(SRC_S214237, X_S214237, check=check, mode=mode, entry="net")


# shrunk variants: the reset slot is the counter or a bool flag of an inner tensor while; the outer loop is a ``for``
# whose body starts with a tensor if, or a ``while`` with a tensor condition (either way every outer iteration resumes
# at the same point, so the reset's segment is entered after the inner loop ran too); the first call never enters the
# inner loop, the second does (x's sum changes sign)
RESET_TAIL = '''

FUZZ_W0 = Tensor(np.array([0.25, 0.75, 1.25], np.float32))

def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss(x):
    return fuzz_combine(f(x))


def fuzz_grad(x):
    return ops.grad(fuzz_loss, grad_position=(0,), weights=None)(x)
'''
SRC_RESET_COUNTER = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops


def f(x):
    out = x * 1.0
    for i in range(3):
        if x.mean() > 9:
            out = out * 2
        t = 0
        while (x.sum() > 0) and t < 1:
            t = t + 1
            out = out + i
    return out
''' + RESET_TAIL
SRC_RESET_FLAG = SRC_RESET_COUNTER.replace("t = 0", "done = False").replace("t < 1", "not done").replace(
    "t = t + 1", "done = True")
SRC_RESET_WHILE = SRC_RESET_COUNTER.replace(
    "    for i in range(3):\n        if x.mean() > 9:\n            out = out * 2\n",
    "    i = 0\n    while (x.mean() < 9) and i < 3:\n        i = i + 1\n")
X_RESET = [("x", "tensor", [-0.5, 0.25, -0.75], [0.5, -0.25, 1.5])]


@pytest.mark.parametrize("src", [SRC_RESET_COUNTER, SRC_RESET_FLAG, SRC_RESET_WHILE], ids=["counter", "flag", "while"])
@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_214237_slot_reset_to_the_value_it_held(src, check, mode):
    assert_agrees(src, X_RESET, check=check, mode=mode)
