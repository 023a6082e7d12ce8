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


# ---- a Cell with a custom bprop whose construct writes a Parameter ------------------------------------------
SRC_BPROP_WRITES = _prog('''
class Counted(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name='p')
        self.calls = Parameter(Tensor(np.array(0.0, np.float32)), name='calls', requires_grad=False)

    def construct(self, x, y):
        ops.assign_add(self.calls, 1.0)
        ops.assign_add(self.p, x * 0.5)
        return x * self.p + y, ops.sin(y)

    def bprop(self, x, y, out, dout):
        return dout[0] * 10 + dout[1], dout[0] * y - 3 * dout[1]


net = Counted()


def f(x, y):
    a, b = net(x, y)
    return a * b + net.calls * net.p
''', [0.5, 1.0, -1.5], "x, y", (0, 1))
ARGS_BPROP_WRITES = [("x", "tensor", [1.0, 1.0, 2.0], [-1.0, 0.5, 0.25]), ("y", "tensor", [0.5, -2.0, 1.5],
                                                                          [2.0, 1.0, -0.5])]


@pytest.mark.parametrize("check,mode", ALL_CHECKS)
def test_custom_bprop_of_a_cell_that_writes_a_parameter(check, mode):
    """A Cell with a custom ``bprop`` whose construct assigns to Parameters was traced inline under jit and its
    bprop ignored (grad-of-jit differentiated construct: a different gradient, silently). The call is now a
    GraphCall carrying the bprop that also returns the written values (MindSpore GRAPH mode uses the bprop too);
    as eagerly, the writes are not differentiated through."""
    assert_agrees(SRC_BPROP_WRITES, ARGS_BPROP_WRITES, check=check, mode=mode)


@pytest.mark.parametrize("check,mode", ALL_CHECKS)
def test_custom_bprop_of_a_cell_that_writes_a_parameter_weights(check, mode):
    """The same with the gradient w.r.t. the written Parameter requested (``weights=[net.p]``)."""
    src = SRC_BPROP_WRITES.replace("weights=None", "weights=[net.p]")
    assert_agrees(src, ARGS_BPROP_WRITES, check=check, mode=mode, weights=["net.p"])


# ---- one syntax level for AST jit entries and PIJit segments -------------------------------------------------
@pytest.mark.parametrize("env", [None, "0", "1", "2"])
@pytest.mark.parametrize("ctx", ["STRICT", "LAX"])
def test_pijit_segments_resolve_the_syntax_level_as_ast_entries_do(monkeypatch, env, ctx):
    """PIJit's segment flags read set_context's level and ignored ``MS_DEV_JIT_SYNTAX_LEVEL`` (which AST jit entries
    honour, as MindSpore does): both now resolve it through ``context.jit_syntax_level``."""
    def f(x):
        return x * 2

    if env is None:
        monkeypatch.delenv("MS_DEV_JIT_SYNTAX_LEVEL", raising=False)
    else:
        monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", env)
    ms.set_context(jit_syntax_level=ctx)
    want = {None: ctx, "0": "STRICT", "1": "COMPATIBLE", "2": "LAX"}[env]
    pijit = ms.jit(f, capture_mode="bytecode")
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(pijit(x).asnumpy(), [2.0, 4.0])
    assert pijit.rt.resolve_flags().syntax_level == want
    assert ms.jit(f).flags().syntax_level == want
    assert ms.context.jit_syntax_level() == want
