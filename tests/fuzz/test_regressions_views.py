"""Views of a tensor written in place (issue 9, fuzz seed 70281): eagerly (as in MindSpore 2.10's PyNative mode)
``x.reshape``/``ops.reshape``/``transpose``/``x.T``/``expand_dims``/``squeeze``/basic indexing return views, so a
later ``ops.assign``/``assign_add``/``assign_sub`` (or optimizer update) of the base is seen through them, and a
write to a view (``x[i] = v``; ``ops.assign*`` refuses a view, as MindSpore does) reaches its base. Both captures
track views (``sprout/ir/views.py``); each program runs through the fuzz harness in every check and both captures
(two input sets; forward, grad-of-jit and jit-of-grad)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, ops

from .harness import assert_agrees
from .test_regressions_capture import ALL_CHECKS, _fresh_context, _prog  # noqa: F401 - an autouse fixture


W32 = [[0.25, 0.75], [1.25, 0.5], [1.0, 0.25]]
X32 = [("x", "tensor", [[1.09, 0.61], [2.03, -1.79], [-0.93, 0.19]], [[-0.83, -0.71], [-0.14, -1.51], [-1.35, 0.27]])]

# seed 70281: ``assign_sub(x, x)`` zeroes x and the view of it, so the second ``assign_sub`` subtracts 0; neither
# capture modelled views (a Reshape node was a new value) and jit subtracted the entry value
VIEWS = {
    "seed_70281": """
def f(x):
    xs4 = [x, ops.reshape(x.reshape((6,)), (3, 2))]
    for e8 in xs4:
        ops.assign_sub(x, e8)
    return ops.ones((3, 2)) + x
""",
    "views_of_an_argument": """
def f(x):
    y = x.reshape(6)
    z = x.T
    w = x[1]
    ops.assign(x, ops.sin(x) * 2 + 1)
    return (y.reshape(3, 2) * z.T + w) * x
""",
    "views_of_a_parameter": """
p0 = Parameter(Tensor(np.array([[0.5, -1.0], [2.0, 0.25], [1.5, -0.5]], np.float32)), name='p0')


def f(x):
    y = ops.expand_dims(p0, 0)
    z = ops.transpose(p0, (1, 0))
    ops.assign_add(p0, x * 0.5)
    return ops.squeeze(y, 0) * x + z.T
""",
    "write_in_a_tensor_while": """
def f(x):
    y = x.reshape(6)
    i = x.sum() * 0
    while i < 2:
        i = i + 1
        ops.assign(x, x * 0.5 + y.reshape(3, 2))
    return y.reshape(3, 2) * x
""",
    "write_in_a_tensor_if": """
def f(x):
    y = x.T
    if x.sum() > 0:
        ops.assign_sub(x, y.T * 0.25)
    else:
        ops.assign_add(x, ops.tanh(y.T))
    return y.T * 2 + x
""",
    "view_of_a_copy_is_no_view": """
def f(x):
    v = ops.reshape(x.reshape(6).reshape(2, 3).T, (6,))
    ops.assign(x, x + 1)
    return v.reshape(3, 2) * x
""",
    "view_returned_by_a_branch": """
def f(x):
    if x.sum() > 0:
        y = x.reshape(6)
    else:
        y = x.reshape(6) * 2
    ops.assign(x, x * 3)
    return y.reshape(3, 2) + x
""",
}


@pytest.mark.parametrize("body", [pytest.param(b, id=k) for k, b in VIEWS.items()])
@pytest.mark.parametrize("check, mode", ALL_CHECKS)
def test_view_sees_a_write_to_its_base(body, check, mode):
    weights = ("p0",) if "p0 =" in body else ()
    assert_agrees(_prog(body, W32, "x", weights=weights), X32, check=check, mode=mode, weights=list(weights))


def test_eager_views_follow_mindspore():
    """MindSpore 2.10 PyNative (run in /work/msvenv): these results see a later ``ops.assign`` to ``x``."""
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    views = [x.reshape((3, 2)), ops.reshape(x, (3, 2)), x.view((3, 2)), x.transpose(1, 0), ops.transpose(x, (1, 0)),
             ops.expand_dims(x, 0), ops.squeeze(ops.expand_dims(x, 0)), x[0], x[:, 1:], x.flatten(), x.T]
    ops.assign(x, ops.ones_like(x) * 100)
    for v in views:
        assert (v.asnumpy() == 100).all()


def _refused_under_strict(f, x: np.ndarray, want: np.ndarray, match: str) -> None:
    """STRICT raises the located error; LAX runs ``f`` as host segments and gets eager's ``want``."""
    ms.set_context(jit_syntax_level=ms.STRICT)
    with pytest.raises(ValueError, match=match):
        ms.jit(f)(Tensor(x.copy()))
    ms.set_context(jit_syntax_level=ms.LAX)
    np.testing.assert_array_equal(ms.jit(f)(Tensor(x.copy())).asnumpy(), want)


def test_a_view_a_branch_returned_is_refused_under_strict():
    """A branch returns a view of x on one path only: a later write to x cannot be computed in one graph."""
    def f(x):
        if x.sum() > 0:
            y = x.reshape(6)
        else:
            y = x.reshape(6) * 2
        ops.assign(x, x * 3)
        return y * 1

    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    _refused_under_strict(f, x, (x * 3).ravel(), "view")


# a write to a view (x[i] = v: ops.assign* refuses a view, as MindSpore 2.10's PyNative does) reaches its base; the
# eager reference refuses x[i] = v on a differentiated tensor, so these run the forward check only
VIEW_WRITES = {  # (on a Parameter: AST capture writes x[i] = v back to a Parameter, not to an argument)
    "setitem_to_a_view": """
p0 = Parameter(Tensor(np.array([[0.5, -1.0], [2.0, 0.25], [1.5, -0.5]], np.float32)), name='p0')


def f(x):
    y = p0.reshape(6)
    w = p0.T[1]
    y[:] = y * 2 + x.reshape(6)
    w[0:2] = w[1:] + 1
    return x * y.reshape(3, 2) + p0
""",
    "setitem_to_a_base": """
p0 = Parameter(Tensor(np.array([[0.5, -1.0], [2.0, 0.25], [1.5, -0.5]], np.float32)), name='p0')


def f(x):
    y = p0.T
    p0[1] = x[0] * 3
    return y * 2 + x.T
""",
}


@pytest.mark.parametrize("body", [pytest.param(b, id=k) for k, b in VIEW_WRITES.items()])
@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_a_write_to_a_view_reaches_its_base(body, mode):
    assert_agrees(_prog(body, W32, "x", weights=("p0",)), X32, check="fwd", mode=mode, weights=["p0"])


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_assign_into_a_view_is_refused_eagerly_and_in_jit(mode):
    def f(x):
        y = x.reshape(6)
        ops.assign(y, y * 2 + 1)
        return x * 1

    for g in (f, ms.jit(f, capture_mode=mode)):
        x = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
        with pytest.raises(RuntimeError, match="Assign: variable is a view"):
            g(x)
        np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(3, 2))


def test_write_to_a_view_that_cannot_be_written_back_is_refused_under_strict():
    """``ops.split``'s pieces are views; writing one back into x is not modelled."""
    def f(x):
        y = ops.split(x, 1, axis=0)[0]
        y[:] = y + 10
        return x * 1

    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    want = x.copy()
    want[0] += 10
    _refused_under_strict(f, x, want, "SplitV")


def test_parameter_view_in_a_training_step():
    """A view of a Parameter taken before the optimizer-style update sees the update, in both captures."""
    def step(p, g):
        v = p.reshape(-1)
        ops.assign_sub(p, g * 0.1)
        return v * 1

    for mode in ("ast", "bytecode"):
        p = Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")
        out = ms.jit(step, capture_mode=mode)(p, Tensor(np.full((2, 2), 2.0, np.float32)))
        np.testing.assert_allclose(out.asnumpy(), np.full(4, 0.8, np.float32))


# views crossing a PIJit graph break (``.asnumpy()`` ends a segment): the exit makes a view again from what it was
# taken of, and a segment reading two tensors that share memory expresses one through the other (guarded by their
# layout; a segment that writes is guarded on the rest sharing nothing: capture/bytecode/aliases.py)
BREAKS = {
    "write_base_after_the_break": """
def f(x):
    y = x.T
    s = float(x.sum().asnumpy()) * 0.25
    z = y * 2
    ops.assign(x, x + s)
    return y.T * 1 + z.T
""",
    "view_of_a_parameter_across_a_break": """
p0 = Parameter(Tensor(np.array([[0.5, -1.0], [2.0, 0.25], [1.5, -0.5]], np.float32)), name='p0')


def f(x):
    y = ops.transpose(p0, (1, 0))
    s = float(p0.sum().asnumpy())
    ops.assign_sub(p0, x * 0.5 + s)
    return y.T * x + p0
""",
    "view_read_first_after_the_break": """
def f(x):
    y = ops.expand_dims(x, 0)
    s = float(x.sum().asnumpy())
    z = y * s
    ops.assign_add(x, ops.cos(x))
    return ops.squeeze(y + z, 0) * x
""",
}


# writes to views across a break: x[i] = v (ops.assign* refuses a view), which the eager reference refuses on a
# differentiated tensor: the forward check only
BREAK_WRITES = {
    "write_view_after_the_break": """
def f(x):
    y = x.reshape(6)
    w = x[1:]
    s = float(x.sum().asnumpy()) * 0.25
    y[:] = y + ops.sin(y) + s
    w[:] = w * 2
    return x * 3 + ops.concat((w, w), 0)[:3]
""",
    "two_breaks_and_a_python_write": """
def f(x):
    y = x[:, 1]
    s = float(y.sum().asnumpy())
    ops.assign(x, x * s)
    t = float(x.sum().asnumpy())
    y[:] = y + ops.ones((3,)) * t
    return x + y.reshape(3, 1)
""",
}


@pytest.mark.parametrize("body", [pytest.param(b, id=k) for k, b in BREAK_WRITES.items()])
def test_write_to_a_view_across_a_graph_break_agrees(body):
    assert_agrees(_prog(body, W32, "x"), X32, check="fwd", mode="bytecode")


@pytest.mark.parametrize("body", [pytest.param(b, id=k) for k, b in BREAKS.items()])
@pytest.mark.parametrize("check", ["fwd", "grad_of_jit", "jit_of_grad"])
def test_view_across_a_graph_break_agrees(body, check):
    weights = ("p0",) if "p0 =" in body else ()
    assert_agrees(_prog(body, W32, "x", weights=weights), X32, check=check, mode="bytecode", weights=list(weights))


def _view_across_a_break(x):
    y = x.T
    s = int(x.sum().asnumpy())  # a graph break under bytecode capture: y and x enter the next segment as inputs
    z = y * 2
    ops.assign(x, x + s)
    return y * 1 + z


def test_view_across_a_graph_break():
    """The view ``y`` leaves the first segment as a view of ``x`` again (it was a copy, or a Transpose output
    sharing x's buffer by chance, an input of its own in the next segment): eager and MindSpore give
    ``(x+s).T + 2x.T``; jit gave ``3*(x+s).T``."""
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    want = _view_across_a_break(Tensor(x.copy())).asnumpy()
    for _ in range(2):  # the second call runs the cached entries
        got = ms.jit(_view_across_a_break, capture_mode="bytecode")(Tensor(x.copy())).asnumpy()
        np.testing.assert_array_equal(got, want)


def _write_one_of_two(x, y):
    z = y * 2
    x[:] = x + 1  # (x may be a view: ops.assign refuses one)
    return y * 1 + z


@pytest.mark.parametrize("second", ["T", "row", "flat", "same", "apart"])
def test_arguments_sharing_memory_under_bytecode(second):
    """Two arguments sharing a buffer, one written: the later-read one is expressed through the other, and the
    cached entries are guarded on the layout (a call with unrelated arguments, then a related one, again)."""
    f = ms.jit(_write_one_of_two, capture_mode="bytecode")
    for k in range(3):
        x = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2) + k)
        make = {"T": lambda t: t.T.T, "row": lambda t: t[1:2], "flat": lambda t: t.reshape(3, 2),
                "same": lambda t: t, "apart": lambda t: Tensor(t.asnumpy().copy())}[second]
        ys = [make(x), Tensor(np.ones((3, 2) if second != "row" else (1, 2), np.float32))]
        for y in ys:
            x_e, x_j = Tensor(x.asnumpy().copy()), Tensor(x.asnumpy().copy())
            y_e = make(x_e) if y is ys[0] else Tensor(y.asnumpy().copy())
            y_j = make(x_j) if y is ys[0] else Tensor(y.asnumpy().copy())
            want = _write_one_of_two(x_e, y_e).asnumpy()
            np.testing.assert_array_equal(f(x_j, y_j).asnumpy(), want)
            np.testing.assert_array_equal(x_j.asnumpy(), x_e.asnumpy())
            np.testing.assert_array_equal(y_j.asnumpy(), y_e.asnumpy())


def test_arguments_overlapping_without_containment_run_as_python():
    """x[0:2] and x[1:3] overlap, neither lies in the other: no graph expresses the write of one reaching the
    other, so that part runs as Python (eager's values, a graph break in the report)."""
    base = np.arange(6, dtype=np.float32).reshape(3, 2)
    te, tj = Tensor(base.copy()), Tensor(base.copy())
    want = _write_one_of_two(te[0:2], te[1:3]).asnumpy()
    f = ms.jit(_write_one_of_two, capture_mode="bytecode")
    np.testing.assert_array_equal(f(tj[0:2], tj[1:3]).asnumpy(), want)
    np.testing.assert_array_equal(tj.asnumpy(), te.asnumpy())
    assert any("share memory" in b.reason for b in f.report().breaks.values())
