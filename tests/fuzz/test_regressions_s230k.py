"""Shrunk findings of the fresh fuzz programs run from seed 230000 on 388d8a4 (2026-12-06, fourth session, issue 9):
each program runs eagerly, under jit(ast) and jit(bytecode) through the fuzz harness (two input sets; forward,
grad-of-jit and jit-of-grad) and must agree in every check."""
import pytest

from .harness import assert_agrees
from .test_regressions_capture import ALL_CHECKS, _prog

# ---- seed 230313: a write to an argument inside a tensor while inside a tensor if -------------------------------
# ``if``: a tensor while binds ``z = x`` and writes ``ops.assign_add(x, ...)``; ``else``: ``x = cos(z)``. Under AST
# capture the argument x lost the write (silent wrong: x after the call kept its old value). Inside the then-branch
# x was the branch's operand, but the write, spread to x's outer object, lifted that object into the branch as a
# second input: the loop carried both, wrote one, and the branch's update of x came from the other. A branch now
# reads and writes an outer tensor it receives as an operand through that operand (capture/control.py).
SRC_S230313 = '''\
import numpy as np
import sprout as ms
from sprout import Parameter, Tensor, nn, ops

p0 = Parameter(Tensor(np.array([-0.31, -0.56, 0.75, -1.45], np.float32)), name='p0')

def f(x, y, z):
    if ((ops.mean(y) + ops.sum(z)) > -0.5):
        i1 = (x.sum() * 0)
        while (ops.maximum(ops.amin(z), ops.sum(z)) < 0.1) and i1 < 1:
            i1 = i1 + 1
            ops.assign_add(p0, ops.tanh((x * 0.5)))
            z = x
            ops.assign_add(x, ops.tanh(ops.minimum((x * 0.5), ops.minimum(p0, x))))
    else:
        x = ops.cos(ops.sub((p0 + z), ops.mul(z.mean(), ops.mean(x))))
        ops.assign_sub(p0, ops.tanh(ops.exp(ops.tanh((x / (ops.abs(ops.amin(x)) + 1))))))
    v2 = ops.relu(ops.sqrt(ops.abs(z) + 0.5))
    x += ops.sqrt(ops.abs(ops.abs(x)) + 0.5)
    v3 = ops.sin(ops.maximum(v2, x))
    v3 = (v3 - ((x + p0) - 0.25).abs())
    return ops.where(ops.cos(ops.sum(v3)) > 0, (y.sum() / (ops.abs(ops.mean(x)) + 1)), ops.log(ops.abs(v2.sum()) + 1))


FUZZ_W0 = Tensor(np.array(0.25, np.float32))

def fuzz_combine(out):
    return (out * FUZZ_W0).sum()


def fuzz_loss(x, y, z):
    return fuzz_combine(f(x, y, z))


def fuzz_grad(x, y, z):
    return ops.grad(fuzz_loss, grad_position=(0, 1, 2), weights=[p0])(x, y, z)
'''
X_S230313 = [("x", "tensor", [0.46, 0.64, 0.03, -0.74], [0.17, 1.53, -0.32, -1.14]),
             ("y", "tensor", [-0.46, -0.44, -0.68, -0.06], [1.59, -0.3, 1.47, 0.18]),
             ("z", "tensor", [0.18, 0.59, 1.88, -0.14], [-1.39, -0.83, 1.62, -0.15])]


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_230313_argument_written_in_a_while_inside_an_if(check, mode):
    assert_agrees(SRC_S230313, X_S230313, check=check, mode=mode, entry="f", weights=["p0"])


# the same, shrunk by hand: no Parameter, one loop iteration writes x on the second input set only
SRC_S230313_SHRUNK = _prog('''\
def f(x, y, z):
    if z.sum() > -5:
        i1 = x.sum() * 0
        while z.sum() < 0.1 and i1 < 1:
            i1 = i1 + 1
            z = x
            ops.assign_add(x, ops.ones_like(x))
    else:
        x = ops.cos(z)
    return z * 2
''', [0.5, -0.25, 1.0, 0.75], "x, y, z", pos=(0, 1, 2))


@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_seed_230313_shrunk(check, mode):
    assert_agrees(SRC_S230313_SHRUNK, X_S230313, check=check, mode=mode, entry="f")

