"""Structurally zero (absent) cotangents across the graph backward (autodiff/absent.py, guards.py, trips.py): a
cotangent known at compile time to be zero is absent, a bprop reached by absent cotangents only is not emitted, a
Cond/WhileLoop backward passes absence through, and a cotangent absent only on some runs is masked, never fed to a
bprop as a zero (``0 * inf`` would be NaN where an eager tape gives a finite gradient)."""
import re

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

X0 = np.array([0.0, 1.0, 4.0], np.float32)  # sqrt and log have an infinite derivative at 0


def cond_unused(x):
    if x.sum() > 0:
        a, b = ops.sqrt(x), x * 2
    else:
        a, b = ops.log(x), x * 3
    return b.sum() + ops.stop_gradient(a).sum()  # a reaches no gradient: its cotangent is absent


def _nodes(graph) -> int:
    return sum(1 + sum(_nodes(g) for _, g in n.subgraphs()) for n in graph.nodes)


def _subgraph(text: str, name: str) -> list:
    """The body lines of sub-graph ``name`` in a printed graph, value numbers replaced by %N."""
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if f"subgraph {name}(" in line)
    body = []
    for line in lines[k + 1:]:
        if line.strip() == "}":
            break
        body.append(re.sub(r"%\d+", "%N", line.split("#")[0].strip()))
    return body


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_cond_output_nothing_differentiates_gets_no_backward(mode):
    """The branch backward of the unused output (sqrt's and log's bprops, fed a zero: 0 / 0 = NaN at x = 0) is not
    emitted; jit's gradient is eager's."""
    x = Tensor(X0)
    eager = ms.grad(cond_unused)(x).asnumpy()
    np.testing.assert_array_equal(eager, [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(ms.jit(ms.grad(cond_unused), capture_mode=mode)(x).asnumpy(), eager)
    np.testing.assert_array_equal(ms.grad(ms.jit(cond_unused, capture_mode=mode))(x).asnumpy(), eager)


def test_cond_backward_ir_has_no_zero_cotangent_path():
    """The IR of jit(grad) (before: each branch backward had ZerosLike, a Mul, a RealDiv and an Add for the absent
    cotangent, 9 backward nodes for the two branches and 8 Cond operands; now 2 and 4)."""
    g = ms.jit(ms.grad(cond_unused))
    graph = ms.debug.graph_of(g, Tensor(X0))
    text = str(graph)
    assert _subgraph(text, "cond_then_bwd") == ["%N:f32[3] = Mul(%N, 2)", "return %N"]
    assert _subgraph(text, "cond_else_bwd") == ["%N:f32[3] = Mul(%N, 3)", "return %N"]
    bwd = [n for n in graph.nodes if n.op.name == "Cond" and "cond_then_bwd" in n.attrs["then"].name]
    assert len(bwd) == 1 and len(bwd[0].inputs) == 5  # pred + (residual, cotangent) per branch
    assert _nodes(bwd[0].attrs["then"]) + _nodes(bwd[0].attrs["else"]) == 2
    assert "ZerosLike" not in text and "RealDiv" not in text


def overwritten_by_constant_loop(y):
    for _ in range(3):
        y = y * y  # overflows for y = 1e13: its bprop meets an infinite residual
    i = 0
    while ops.ones(()) >= 0.5 and i < 4:  # runs at least once: known at compile time (trips.py)
        i = i + 1
        y = ops.ones((4,))
    return y.mean()


def overwritten_by_data_loop(y, x):
    for _ in range(3):
        y = y * y
    i = 0
    while x.sum() >= 0.5 and i < 4:  # how often it runs is known only at run time (guards.py)
        i = i + 1
        y = ops.ones((4,)) * x
    return y.mean()


def overwritten_counter_used(y, x):
    for _ in range(3):
        y = y - y * y
    i = 0
    while x.sum() >= 0.5 and i < 4:  # every cotangent is present on entry: the first reverse step makes y's absent
        i = i + 1
        y = ops.ones((4,)) * x
    return (y - i).mean()


Y = np.array([1.11, -0.45, 1e13, -2.05], np.float32)


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_value_a_loop_overwrites_gets_no_cotangent(mode):
    """y's cotangent is absent once the loop ran: eagerly y * y's bprop never runs; jit gave NaN (0 * inf)."""
    y = Tensor(Y)
    eager = ms.grad(overwritten_by_constant_loop)(y).asnumpy()
    np.testing.assert_array_equal(eager, np.zeros(4, np.float32))
    np.testing.assert_array_equal(ms.grad(ms.jit(overwritten_by_constant_loop, capture_mode=mode))(y).asnumpy(), eager)
    np.testing.assert_array_equal(ms.jit(ms.grad(overwritten_by_constant_loop), capture_mode=mode)(y).asnumpy(), eager)


def test_a_loop_sure_to_overwrite_leaves_no_backward():
    """The loop surely runs, so y's gradient is absent at compile time: jit(grad)'s IR is one ZerosLike (before:
    29 nodes, the loop, its reverse loop and the bprops of y * y)."""
    text = str(ms.debug.graph_of(ms.jit(ms.grad(overwritten_by_constant_loop)), Tensor(Y))).splitlines()
    assert [line.split("#")[0].strip() for line in text] == [
        "graph wrapped(%0:f32[4]) {", "%1:f32[4] = ZerosLike(%0)", "return %1", "}"]


@pytest.mark.parametrize("fn", [overwritten_by_data_loop, overwritten_counter_used])
@pytest.mark.parametrize("x, loops", [([1.0, 1.0, 1.0, 1.0], True), ([0.0, 0.0, 0.0, 0.0], False)])
def test_value_a_loop_may_overwrite_is_masked_by_the_trip_count(fn, x, loops):
    """When the loop runs, y's cotangent is absent (masked: not NaN); when it does not, it is y's gradient."""
    y, xt = Tensor(Y), Tensor(np.array(x, np.float32))
    eager = [g.asnumpy() for g in ms.grad(fn, (0, 1))(y, xt)]
    assert np.all(eager[0] == 0) == loops and np.isfinite(eager[0]).all() == loops
    for got in (ms.grad(ms.jit(fn), (0, 1))(y, xt), ms.jit(ms.grad(fn, (0, 1)))(y, xt)):
        for e, j in zip(eager, got):
            np.testing.assert_array_equal(j.asnumpy(), e)


def test_specialise_reports_absent_outputs_and_zeros_of_symbolic_shape():
    """``absent.specialise``: an output reached by absent cotangents only is reported absent (a zeros value in the
    graph); a node mixing a present and an absent cotangent of symbolic shape reads ``ZerosLike`` of it."""
    from sprout.autodiff.absent import specialise
    from sprout.backend.interpret import interpret
    from sprout.core.op import REGISTRY
    from sprout.core.types import TensorType
    from sprout.ir import Graph, Node, Var

    t = TensorType((None,), ms.float32)
    res, d0, d1 = Var(t, "r"), Var(t, "d0"), Var(t, "d1")
    p0, cat, p1 = Var(t), Var(TensorType((None,), ms.float32)), Var(t)
    g = Graph("bwd", [res, d0, d1], [Node(REGISTRY["Mul"], [d0, res], {}, [p0]),
                                     Node(REGISTRY["Concat"], [p0, d1], {"axis": 0}, [cat]),
                                     Node(REGISTRY["Mul"], [d1, res], {}, [p1])], [cat, p0, p1])
    h, gone = specialise(g, 1, frozenset({1}))
    assert gone == {1}
    inf, zero, two = np.full(2, np.inf, np.float32), np.zeros(2, np.float32), np.full(2, 2.0, np.float32)
    out = interpret(h, inf, zero, two)
    np.testing.assert_array_equal(out[0], [0.0, 0.0, 2.0, 2.0])  # not NaN: 0 * inf is never read
    np.testing.assert_array_equal(out[1], [0.0, 0.0])
    np.testing.assert_array_equal(out[2], [np.inf, np.inf])


def overwritten_in_one_branch(y, x):
    y = ops.exp(y)  # inf for y = 100: exp's bprop reads it
    if x.sum() > 0:
        y = ops.ones((4,)) * x
    else:
        y = y + 1
    return y.mean()


@pytest.mark.parametrize("x", [[1.0, 1.0, 1.0, 1.0], [-1.0, -1.0, -1.0, -1.0]])
def test_cotangent_present_in_one_branch_is_guarded_by_the_predicate(x):
    """y's cotangent out of the if is absent when the then branch runs: masked by the predicate, not NaN."""
    y, xt = Tensor(np.array([1.0, -0.5, 100.0, 2.0], np.float32)), Tensor(np.array(x, np.float32))
    eager = [g.asnumpy() for g in ms.grad(overwritten_in_one_branch, (0, 1))(y, xt)]
    for got in (ms.grad(ms.jit(overwritten_in_one_branch), (0, 1))(y, xt),
                ms.jit(ms.grad(overwritten_in_one_branch, (0, 1)))(y, xt)):
        for e, j in zip(eager, got):
            np.testing.assert_array_equal(j.asnumpy(), e)


def weight_in_one_branch(x, w):
    if x.sum() > 0:
        y = ops.sin(x) * w
    else:
        y = x * 2
    return y.sum()


def test_a_guard_nothing_meets_adds_no_node():
    """w's gradient is present in one branch only (guarded by the predicate) but nothing computes from it: the IR
    returns the backward Cond's outputs as they are (exactly zero when the else branch ran), no Select."""
    x, w = Tensor(np.ones(4, np.float32)), Tensor(np.ones(4, np.float32))
    g = ms.jit(ms.grad(weight_in_one_branch, (0, 1)))
    gx, gw = g(x, w)
    np.testing.assert_allclose(gw.asnumpy(), np.sin(np.ones(4, np.float32)), rtol=1e-6)
    graph = ms.debug.graph_of(g, x, w)
    assert "Select" not in str(graph)
    assert graph.nodes[-1].op.name == "Cond" and list(graph.outputs) == list(graph.nodes[-1].outputs)
