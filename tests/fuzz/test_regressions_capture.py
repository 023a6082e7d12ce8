"""Shrunk findings in bytecode capture / PIJit, autodiff and the executor (issue 9, helper `capture`): each runs
eagerly, under jit(ast) and jit(bytecode) through the fuzz harness (two input sets; forward, grad-of-jit and
jit-of-grad), or checks the clear error where a result cannot be computed."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

from .harness import assert_agrees

ALL_CHECKS = [(c, m) for c in ("fwd", "grad_of_jit", "jit_of_grad") for m in ("ast", "bytecode")]


def _prog(body: str, w0: list, args: str, pos: tuple = (0,), entry: str = "f", weights: tuple = ()) -> str:
    """A fuzz program: ``body`` (defining ``entry``) plus the harness's loss and gradient functions (``weights``:
    the Parameters differentiated too; pass the same names to ``assert_agrees``)."""
    wts = "[" + ", ".join(weights) + "]" if weights else "None"
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
    return ops.grad(fuzz_loss, grad_position={pos!r}, weights={wts})({args})
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


# ---- a host value of a differentiated tensor that comes back into the computation ----------------------------
def _partly_through_numpy(x):
    return (x * 3).sum() + Tensor(x.asnumpy() * 2).sum()


def _partly_through_tolist(x):
    return (x * Tensor(x.tolist())).sum()


def _host_value_in_a_graph(x):
    y = x * 2
    a = y.asnumpy()
    return (Tensor(a + 1) * x).sum()


def _logs_only(x):
    _ = x.asnumpy().mean()
    return (x * 3).sum()


def _constant_by_stop_gradient(x):
    return (x * 3).sum() + Tensor(ops.stop_gradient(x * 1).asnumpy() * 2).sum()


GRAD_MODES = {
    "eager": lambda f: ops.grad(f),
    "jit_of_grad_ast": lambda f: ms.jit(ops.grad(f)),
    "jit_of_grad_bytecode": lambda f: ms.jit(ops.grad(f), capture_mode="bytecode"),
    "grad_of_jit_ast": lambda f: ops.grad(ms.jit(f)),
    "grad_of_jit_bytecode": lambda f: ops.grad(ms.jit(f, capture_mode="bytecode")),
}


@pytest.mark.parametrize("mode", list(GRAD_MODES))
@pytest.mark.parametrize("fn", [_partly_through_numpy, _partly_through_tolist, _host_value_in_a_graph])
def test_gradient_partly_through_numpy_is_an_error(fn, mode):
    """Only outputs cut from the inputs entirely were caught: an output that also depends on its inputs through a
    host value (``asnumpy()``/``numpy()``/``tolist()`` coming back as a Tensor) silently lost that path's
    gradient (3 instead of 5 for ``_partly_through_numpy``; MindSpore 2.10 gives 3 in PyNative, 0 under jit).
    Host values of recorded tensors now remember their tensor; a gradient reaching their way back raises."""
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    with pytest.raises(RuntimeError, match=r"depends on its inputs through NumPy: .* \((asnumpy|tolist)\(\)\)"):
        GRAD_MODES[mode](fn)(x)


@pytest.mark.parametrize("mode", ["eager", "jit_of_grad_ast", "jit_of_grad_bytecode"])
@pytest.mark.parametrize("fn,want", [(_logs_only, 3.0), (_constant_by_stop_gradient, 3.0)])
def test_host_values_off_the_gradient_path_are_fine(fn, want, mode):
    """Reading a host value (logging) or leaving after ops.stop_gradient stays allowed."""
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_allclose(GRAD_MODES[mode](fn)(x).asnumpy(), [want] * 3)
