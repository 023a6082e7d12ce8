"""IR: builder typing, printed text, verifier, located errors from tracing."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.core.errors import JitValueError
from sprout.capture.trace import trace
from sprout.core.op import OpError
from sprout.ir import Const, Graph, IRError, Node, Var, verify
from sprout.ir.builder import GraphBuilder, trace_subgraph
from sprout.core.types import TensorType


def t(shape, dtype=np.float32):
    return ms.Tensor(np.ones(shape, dtype))


def square_sum(x, y):
    z = x * y
    return ops.reduce_sum(z + 1, 1)


def test_printed_graph_has_types_ops_and_user_lines():
    g = trace(square_sum, (t((3, 3)), t((3, 3))), {}, name="square_sum").graph
    assert str(g) == (
        "graph square_sum(%0:f32[3,3], %1:f32[3,3]) {\n"
        "  %2:f32[3,3] = Mul(%0, %1)    # test_ir.py:20  z = x * y\n"
        "  %3:f32[3,3] = Add(%2, 1)    # test_ir.py:21  return ops.reduce_sum(z + 1, 1)\n"
        "  %4:f32[3] = ReduceSum(%3, axis=(1,), keep_dims=False)    # test_ir.py:21  return ops.reduce_sum(z + 1, 1)\n"
        "  return %4\n"
        "}")
    verify(g)


def test_concrete_tensors_become_consts_and_parameters_inputs():
    w = ms.Parameter(np.ones(3, np.float32), name="w")
    c = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))

    def f(x):
        return x * w + c

    tr = trace(f, (t((3,)),), {}, name="f")
    text = str(tr.graph)
    assert "%1:f32[3] (param w)" in text
    assert "Add(%2, f32[3]{1., 2., 3.})" in text
    assert tr.sources[tr.graph.inputs[1].uid] == ("param", w)


def test_infer_error_names_the_user_line():
    def bad(x, y):
        return ops.matmul(x, y)  # the failing line

    with pytest.raises(OpError) as info:
        trace(bad, (t((2, 3)), t((2, 3))), {}, name="bad")
    msg = str(info.value)
    assert "MatMul" in msg and "test_ir.py" in msg and "the failing line" in msg


def test_tracer_refuses_python_bool_with_location():
    def branchy(x):
        if x > 0:  # data-dependent
            return x
        return -x

    with pytest.raises(JitValueError) as info:
        trace(branchy, (t((3,)),), {}, name="branchy")
    assert "data-dependent" in str(info.value) and "ops.select" in str(info.value)


def test_tracer_shape_and_python_constant_control_flow():
    def f(x, n):
        for _ in range(n):
            x = x + x
        if x.shape[0] == 2:
            x = x * 3
        return x

    g = trace(f, (t((2, 2)), 3), {}, name="f").graph
    assert [n.op.name for n in g.nodes] == ["Add", "Add", "Add", "Mul"]


def test_multi_output_and_setitem_rebinds():
    def f(x):
        a, b = ops.split_sizes(x, (1, 2), 0)
        x[0] = 5.0
        return a, b, x

    g = trace(f, (t((3, 2)),), {}, name="f").graph
    verify(g)
    assert "%1:f32[1,2], %2:f32[2,2] = SplitV(%0" in str(g)
    setitem = [n for n in g.nodes if n.op.name == "SetItem"]
    assert len(setitem) == 1 and g.outputs[2] is setitem[0].outputs[0]
    # a and b are views of x (split pieces, as eagerly): taken again from the written value, they see the write
    maker = {o.uid: n for n in g.nodes for o in n.outputs}
    for k in (0, 1):
        split = maker[g.outputs[k].uid]
        assert split.op.name == "SplitV" and split.inputs[0] is setitem[0].outputs[0]


def test_trace_subgraph_lifts_outer_tracers():
    b = GraphBuilder("outer")
    x = b.add_input(TensorType((3,), ms.float32))
    with b:
        sub, out_types = trace_subgraph(lambda y: y * x, [TensorType((3,), ms.float32)], "body")
    assert len(sub.inputs) == 2 and sub.captured == [x]
    assert out_types == [TensorType((3,), ms.float32)]
    verify(sub)


def test_verifier_catches_use_before_def_and_bad_types():
    from sprout.ops.elementwise import ADD
    a, b = Var(TensorType((3,), ms.float32)), Var(TensorType((3,), ms.float32))
    out = Var(TensorType((3,), ms.float32))
    with pytest.raises(IRError, match="before it is defined"):
        verify(Graph("g", [a], [Node(ADD, [a, b], {}, [out])], [out]))
    wrong = Var(TensorType((4,), ms.float32))
    with pytest.raises(IRError, match="infers"):
        verify(Graph("g", [a, b], [Node(ADD, [a, b], {}, [wrong])], [wrong]))
    with pytest.raises(IRError, match="redefines"):
        verify(Graph("g", [a, a], [], [a]))
    verify(Graph("g", [a], [Node(ADD, [a, Const(1.0)], {}, [out])], [out]))
