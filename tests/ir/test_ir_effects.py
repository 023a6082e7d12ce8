"""Effects in the IR (sprout/ir/effects.py): functional state writes with a write-back epilogue, the io token,
their printed form, the verifier's checks, and the backend writing in place only when the old value is dead."""
import inspect

import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, ops
from sprout.backend import kernels
from sprout.backend.interpret import interpret
from sprout.backend.pycodegen import generate
from sprout.capture.trace import trace
from sprout.core.op import REGISTRY
from sprout.core.types import TensorType
from sprout.ir import Const, Graph, IRError, Node, Var, verify
from sprout.ir.effects import TOKEN, WORLD
from sprout.ir.replay import replay
from sprout.capture.control import cond
from sprout.ops.host_ops import PRINT, print_
from sprout.ops.state_ops import ASSIGN
from sprout.passes import run_pipeline
from sprout.passes.basic import dce
from sprout.passes.fuse import fuse_elementwise

F32 = TensorType((3,), ms.float32)


def t(shape=(3,), value=1.0):
    return Tensor(np.full(shape, value, np.float32))


def graph_of(fn, *args):
    return trace(fn, args, {}, name=fn.__name__).graph


def line_of(fn, text: str) -> int:
    """The line number of the first source line of ``fn`` containing ``text``."""
    lines, start = inspect.getsourcelines(fn)
    return start + next(k for k, line in enumerate(lines) if text in line)


def test_state_write_prints_its_new_value_and_the_write_back():
    w = Parameter(t(), name="w")

    def f(x):
        a = w * 2
        ops.assign(w, x)
        return a, w + 1

    a, b, c = (line_of(f, s) for s in ("a = w * 2", "ops.assign", "return"))
    assert str(graph_of(f, t())) == (
        "graph f(%0:f32[3], %1:f32[3] (param w)) {\n"
        f"  %2:f32[3] = Mul(%1, 2)    # test_ir_effects.py:{a}  a = w * 2\n"
        f"  %3:f32[3] = !Assign(%1, %0) writes %1    # test_ir_effects.py:{b}  ops.assign(w, x)\n"
        f"  %4:f32[3] = Add(%3, 1)    # test_ir_effects.py:{c}  return a, w + 1\n"
        "  update %1 <- %3\n"
        "  return (%2, %4)\n"
        "}")


def test_io_is_threaded_by_the_token_through_a_branch():
    def f(x, y):
        print_("start")
        z = cond(y.sum() > 0, lambda a: (print_("then"), a + 1)[1], lambda a: a - 1, x)
        print_("end", z)
        return z

    text = str(graph_of(f, t(), t()))
    a, b = line_of(f, 'print_("start")'), line_of(f, "z = cond")
    src = 'z = cond(y.sum() > 0, lambda a: (print_("then"), a + 1)[1], lambda a: a - 1, x)'
    assert text.splitlines()[1:4] == [
        "  %2:!io, %3:i32[] = !Print(world, (('s', 'start'), ('s', '\\n')))"
        f"    # test_ir_effects.py:{a}  print_(\"start\")",
        f"  %4:f32[] = ReduceSum(%1, axis=(), keep_dims=False)    # test_ir_effects.py:{b}  {src}",
        f"  %5:bool[] = Greater(%4, 0)    # test_ir_effects.py:{b}  {src}",
    ]
    body = "\n".join(line.split("    #")[0] for line in text.splitlines()[4:])
    assert body == (
        "  %6:f32[3], %7:!io = !Cond(%5, %0, %2, %0, %2, then=@cond_then, else=@cond_else, n_then=2, n_out=2)\n"
        "    subgraph cond_then(%8:f32[3], %9:!io) {\n"
        "      %10:!io, %11:i32[] = !Print(%9, (('s', 'then'), ('s', '\\n')))\n"
        "      %12:f32[3] = Add(%8, 1)\n"
        "      return (%12, %10)\n"
        "    }\n"
        "    subgraph cond_else(%13:f32[3], %14:!io) {\n"
        "      %15:f32[3] = Sub(%13, 1)\n"
        "      return (%15, %14)\n"
        "    }\n"
        "  %16:!io, %17:i32[] = !Print(%7, (('s', 'end'), ('s', ' '), ('t', 0, 'str'), ('s', '\\n')), %6)\n"
        "  return %6\n"
        "}")


def test_write_inside_a_branch_is_an_output_and_cse_keeps_both_reads():
    w = Parameter(t(value=0.0), name="w")

    def f(y):
        a = w + 1
        cond(y.sum() > 0, lambda v: ops.assign(w, v), lambda v: v, y)
        return a, w + 1

    g = run_pipeline(graph_of(f, t()), check=True)
    adds = [n for n in g.nodes if n.op.name == "Add"]
    assert len(adds) == 2 and adds[0].inputs[0] is not adds[1].inputs[0]
    branch = [n for n in g.nodes if n.op.name == "Cond"][0]
    assert all(not sub.updates for _, sub in branch.subgraphs())
    assert g.updates and g.updates[0][1] is adds[1].inputs[0]


def test_unused_write_to_a_temporary_is_dead_code():
    def f(x):
        tmp = x * 2
        ops.assign(tmp, x)
        return x + 1

    g = dce(graph_of(f, t()))
    assert [n.op.name for n in g.nodes] == ["Add"]


def test_codegen_writes_in_place_only_when_the_old_value_is_dead():
    w = Parameter(t((4, 4)), name="w")

    def step(x, lr):
        y = ops.matmul(x, w)
        ops.assign_sub(w, ops.matmul(x.T, y) * lr)
        return y

    src = generate(run_pipeline(graph_of(step, t((4, 4)), Tensor(np.float32(0.1))))).source
    assert "copy=True" not in src and "_AssignSub(x2, " in src

    def read_after(x):
        old = w + 0
        ops.assign(w, x)
        return old, w  # the old value is read by the Add, which runs before: still in place

    def alias_after(x):
        old = ops.reshape(w, (16,))  # a view of w's buffer
        ops.assign(w, x)
        return old

    assert "copy=True" not in generate(graph_of(read_after, t((4, 4)))).source
    # capture derives the view again after the write (it sees the write, as eagerly: ir/views.py); the graph
    # returning the view of the old value instead (a reshape of w read after the write) needs a copy
    g = graph_of(alias_after, t((4, 4)))
    assert [n.op.name for n in g.nodes] == ["Reshape", "Assign", "Reshape"]
    g = g.replace(outputs=[g.nodes[0].outputs[0]])
    src = generate(g).source
    assert "copy=True" in src
    w_in = np.ones((4, 4), np.float32)
    old, new = generate(g).function("graph_fn")(np.full((4, 4), 7.0, np.float32), w_in)
    assert np.all(old == 1.0) and np.all(new == 7.0)


def test_fusion_orders_a_write_after_the_readers_of_the_old_value(monkeypatch):
    monkeypatch.setattr(kernels, "choose", lambda sub, n, allow_numba=True: "numpy_blocked")
    p = Parameter(t((128, 128)), name="p")

    def f(x, v):
        a = x * 2
        u = ops.matmul(a, p)
        ops.assign(p, v)
        return u, a * 3 + 1

    g = fuse_elementwise(graph_of(f, t((128, 128)), t((128, 128))))
    names = [n.op.name for n in g.nodes]
    assert names.index("MatMul") < names.index("Assign") and "FusedElementwise" in names
    assert "copy=True" not in generate(verify(g)).source


def test_interpreter_and_eager_replay_never_write_their_inputs():
    def f(x, y):
        ops.assign_add(x, y)
        return x * 1

    g = graph_of(f, t(), t())
    x = np.ones(3, np.float32)
    out, new_x = interpret(g, x, np.full(3, 2.0, np.float32))
    assert np.all(x == 1.0) and np.all(out == 3.0) and np.all(new_x == 3.0)
    tx = t()
    outs = replay(g, [tx, t(value=2.0)])
    assert np.all(tx.asnumpy() == 1.0) and np.all(outs[0].asnumpy() == 3.0)


def _print_node(token_in, token_out=None):
    outs = ([token_out] if token_out is not None else []) + [Var(TensorType((), ms.int32))]
    ins = ([token_in] if token_in is not None else []) + [Const((("s", "hi\n"),))]
    return Node(PRINT, ins, {}, outs)


def test_verifier_rejects_io_without_the_token():
    with pytest.raises(IRError, match="does io but does not take"):
        verify(Graph("g", [], [_print_node(None)], []))


def test_verifier_rejects_a_token_used_twice_or_out_of_order():
    t1, t2 = Var(TOKEN), Var(TOKEN)
    good = [_print_node(WORLD, t1), _print_node(t1, t2)]
    verify(Graph("g", [], good, []))
    with pytest.raises(IRError, match="reuses an effect token"):
        verify(Graph("g", [], [_print_node(WORLD, t1), _print_node(t1, t2), _print_node(t1, Var(TOKEN))], []))
    with pytest.raises(IRError, match="latest effect token"):
        verify(Graph("g", [], [_print_node(WORLD, t1), _print_node(WORLD, t2)], []))


def test_verifier_rejects_writes_in_bodies_and_bad_write_backs():
    x, v, new = Var(F32), Var(F32), Var(F32)
    assign = Node(ASSIGN, [x, v], {}, [new])
    body = Graph("body", [x, v], [assign], [new], updates=[(x, new)])
    with pytest.raises(IRError, match="a body writes its inputs"):
        verify(body, body=True)
    verify(body)  # fine as a top-level graph
    with pytest.raises(IRError, match="written back twice"):
        verify(Graph("g", [x, v], [assign], [new], updates=[(x, new), (x, new)]))
    with pytest.raises(IRError, match="writes 1 operands but has 2 outputs"):
        verify(Graph("g", [x, v], [Node(ASSIGN, [x, v], {}, [new, Var(F32)])], [new]))
    with pytest.raises(IRError, match="not an io op but reads the effect token"):
        verify(Graph("g", [x], [Node(REGISTRY["Neg"], [WORLD, x], {}, [Var(F32)])], []), check_types=False)


def test_pipeline_names_the_pass_that_broke_the_graph():
    def bad_pass(g):
        return g.replace(outputs=[Var(F32)])

    g = graph_of(lambda x: x + 1, t())
    with pytest.raises(IRError, match="after pass 'bad'"):
        run_pipeline(g, passes=[("bad", bad_pass)], check=True)
