"""Side effects of jitted code: attribute writes (``self.x = t``) written back; prints in branches kept."""
import gc
import weakref

import numpy as np

import sprout as ms
import sprout.nn as nn
from sprout import Tensor, context, jit, ops
from sprout.passes.basic import dce


def t(*shape, value=1.0):
    return Tensor(np.full(shape, value, np.float32))


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = t(2)

    @jit
    def construct(self, x):
        self.total = self.total + x
        self.last = x * 3
        return x * 2


def test_attr_write_back_each_call_reads_current_value():
    net = Counter()
    x = t(2, value=1.0)
    out = net(x)
    assert np.array_equal(out.asnumpy(), [2, 2])
    assert np.array_equal(net.total.asnumpy(), [2, 2])  # MindSpore 2.10: [2, 2] then [3, 3]
    assert np.array_equal(net.last.asnumpy(), [3, 3])
    net(x)
    assert np.array_equal(net.total.asnumpy(), [3, 3])
    net(t(2, value=5.0))
    assert np.array_equal(net.total.asnumpy(), [8, 8])
    assert np.array_equal(net.last.asnumpy(), [15, 15])
    assert net.construct.stats["compiles"] == 1
    assert "Add" in net.construct.get_ir(x)


def test_attr_write_under_graph_mode_and_tape():
    class Acc(nn.Cell):
        def __init__(self):
            super().__init__()
            self.seen = t(3, value=0.0)

        def construct(self, x):
            self.seen = self.seen + x
            return (x * x).sum()

    context.set_context(mode=context.GRAPH_MODE)
    net = Acc()
    net(t(3, value=2.0))
    net(t(3, value=1.0))
    assert np.array_equal(net.seen.asnumpy(), [3, 3, 3])
    context.set_context(mode=context.PYNATIVE_MODE)
    g = ms.grad(jit(net.construct))(t(3, value=2.0))
    assert np.allclose(g.asnumpy(), 4.0)
    assert np.array_equal(net.seen.asnumpy(), [5, 5, 5])


def test_attr_write_does_not_keep_instance_alive():
    net = Counter()
    net(t(2))
    ref = weakref.ref(net)
    del net
    gc.collect()
    assert ref() is None


def test_print_in_tensor_branch_survives_dce(capsys):
    @jit
    def f(x):
        if x.sum() > 0:
            print("positive", x)
        return x * 2

    assert np.array_equal(f(t(2)).asnumpy(), [2, 2])
    assert capsys.readouterr().out == "positive [1. 1.]\n"
    f(t(2, value=-1.0))
    assert capsys.readouterr().out == ""
    assert "!Cond" in f.get_ir(t(2)) and "Print" in f.get_ir(t(2))


def test_print_in_tensor_while_body_survives(capsys):
    @jit
    def f(x, n):
        i = ops.zeros((), ms.int32)
        while i < n:
            print("step")
            i = i + 1
        return x + 1

    f(t(2), Tensor(np.array(3, np.int32)))
    assert capsys.readouterr().out == "step\nstep\nstep\n"


def test_control_node_with_effect_counts_as_side_effect():
    @jit
    def f(x):
        if x.sum() > 0:
            print("p")
        return x

    graph = f.explain(t(2)).executable.graph
    cond = [n for n in graph.nodes if n.op.name == "Cond"][0]
    assert cond.side_effect and not cond.op.side_effect
    assert dce(graph) is graph
