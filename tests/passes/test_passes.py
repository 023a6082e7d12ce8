"""Passes: each is a pure Graph -> Graph function, verified after every step."""
import numpy as np

import sprout as ms
from sprout import ops
from sprout.backend.interpret import interpret
from sprout.capture.trace import trace
from sprout.core.op import Op, register
from sprout.core.types import TensorType
from sprout.ir import verify
from sprout.ir.callop import GRAPH_CALL
from sprout.ir.graph import Node, Var
from sprout.passes import run_pipeline
from sprout.passes.basic import cse, dce, fold_constants, inline, prune_inputs
from sprout.passes.simplify import RULES, simplify


def t(shape, value=1.0):
    return ms.Tensor(np.full(shape, value, np.float32))


def graph_of(fn, *args):
    return trace(fn, args, {}, name=fn.__name__).graph


def ops_of(g):
    return [n.op.name for n in g.nodes]


def test_fold_constants_evaluates_constant_subtrees():
    c = t((2,), 3.0)

    def f(x):
        k = c * 2 + 1  # all constant
        return x * k

    g = graph_of(f, t((2,)))
    folded = verify(fold_constants(g))
    assert ops_of(folded) == ["Mul"]
    assert "f32[2]{7., 7.}" in str(folded)
    assert fold_constants(folded) is folded  # nothing left: the same object back


def test_simplify_rule_table_has_rationales_and_rewrites():
    assert all(r.why and "->" in r.why for r in RULES)

    def f(x):
        y = x * 1 + 0
        z = ops.neg(ops.neg(y))
        return ops.reshape(ops.reshape(z, (4,)), (2, 2)) / 1

    g = graph_of(f, t((2, 2)))
    s = verify(dce(simplify(g)))
    # everything folds onto x except the output's own node: an output is a new tensor, as eagerly, never the
    # input's buffer (an in-place write to x after the call must not change it: fuzz-26)
    assert ops_of(s) == ["RealDiv"]
    assert s.nodes[0].inputs[0] is s.inputs[0]

    def g2(x):
        return ops.neg(ops.neg(x * 1)) + 1

    assert ops_of(verify(dce(simplify(graph_of(g2, t((2, 2))))))) == ["Add"]


def test_simplify_keeps_broadcasting_identities():
    def f(x):
        return x * ms.Tensor(np.ones((3, 2), np.float32))  # changes the shape: not an identity

    g = graph_of(f, t((2,)))
    assert ops_of(simplify(g)) == ["Mul"]


def test_cse_merges_repeated_pure_nodes():
    def f(x, y):
        return (x * y) + (x * y)

    g = verify(dce(cse(graph_of(f, t((2,)), t((2,))))))
    assert ops_of(g) == ["Mul", "Add"]
    assert g.nodes[1].inputs[0] is g.nodes[1].inputs[1]


_STORE = []


def _record(x):
    _STORE.append(np.array(x))
    return x


RECORD = register(Op("TestRecord", _record, lambda x: x, None, kind="effect", side_effect=True))


def test_dce_drops_unused_nodes_but_keeps_side_effects():
    def f(x):
        unused = x * 3  # noqa: F841
        RECORD(x + 1)
        return x - 1

    g = graph_of(f, t((2,)))
    d = verify(dce(g))
    assert ops_of(d) == ["Add", "TestRecord", "Sub"]
    _STORE.clear()
    interpret(d, np.ones(2, np.float32))
    assert np.allclose(_STORE[0], 2.0)


def test_prune_drops_unused_inputs_by_identity():
    def f(x, y):
        return x + 1

    g = graph_of(f, t((2,)), t((2,)))
    p = verify(prune_inputs(g))
    assert p.inputs == [g.inputs[0]]


def test_inline_expands_graph_calls():
    inner = graph_of(lambda a: a * a, t((2,)))
    x = Var(TensorType((2,), ms.float32))
    out = Var(TensorType((2,), ms.float32))
    outer = inner.replace(name="outer", inputs=[x], nodes=[Node(GRAPH_CALL, [x], {"graph": inner}, [out])],
                          outputs=[out])
    verify(outer)
    flat = verify(inline(outer))
    assert ops_of(flat) == ["Mul"]
    arr = np.array([2.0, 3.0], np.float32)
    assert np.allclose(interpret(flat, arr)[0], arr * arr)


def test_pipeline_stages_verified_and_semantics_kept():
    c = t((3,), 2.0)

    def f(x, y):
        a = x * 1 + c * 0
        b = a * y + a * y
        dead = ops.exp(b)  # noqa: F841
        return b - 0

    g = graph_of(f, t((3,), 1.5), t((3,), 2.0))
    seen = []
    opt = run_pipeline(g, check=True, on_stage=lambda name, gg: seen.append(name), level="O0")   # (O1 fuses)
    assert seen == ["dce_traced", "fold_constants", "simplify", "cse"]  # the dead exp goes first
    args = (np.full(3, 1.5, np.float32), np.full(3, 2.0, np.float32))
    assert np.allclose(interpret(opt, *args)[0], interpret(g, *args)[0])
    assert ops_of(opt) == ["Mul", "Add"]


def test_square_becomes_multiply():
    g = verify(simplify(graph_of(lambda x: x ** 2, t((3,), 3.0))))
    assert ops_of(g) == ["Mul"] and g.nodes[0].inputs[0] is g.nodes[0].inputs[1]
    assert np.allclose(interpret(g, np.full(3, 3.0, np.float32))[0], 9.0)
