"""Collectives are kind "collective": the passes never fold, merge (CSE), drop (DCE), fuse or reorder them,
at any jit level; the generated code calls them in program order."""
import re

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.communication import get_rank, init, simulate


def f(x):
    a = ops.AllReduce()(x)              # two identical all-reduces: both must run
    b = ops.AllReduce()(x)
    ops.AllGather()(x * 1.0)            # result unused: every rank must still issue it
    c = ops.AllReduce()(ms.Tensor(np.ones(2, np.float32)))  # constant input: never folded
    ops.Barrier()()
    return a + b + c


_ORDER = ["AllReduce", "AllReduce", "AllGather", "AllReduce", "Barrier"]


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_the_optimized_graph_keeps_every_collective_in_order(level):
    def body():
        init()
        jitted = ms.jit(f, jit_config=ms.JitConfig(jit_level=level))
        x = ms.Tensor(np.full(2, get_rank() + 1.0, np.float32))
        ex = jitted.explain(x)
        names = [n.op.name for n in ex.executable.graph.nodes if n.op.kind == "collective"]
        calls = re.findall(r"_(AllReduce|AllGather|Barrier)\w*\(", ex.source)
        return names, calls, jitted(x).asnumpy()

    for names, calls, out in simulate(body, 2):
        assert names == _ORDER
        assert calls == _ORDER
        np.testing.assert_array_equal(out, np.full(2, 3.0 + 3.0 + 2.0))


def test_gradient_graphs_keep_the_backward_collectives():
    def loss(x):
        return (ops.AllGather()(x) * ops.AllReduce()(x)[0]).sum()

    def body():
        init()
        x = ms.Tensor(np.array([get_rank() + 1.0, 2.0], np.float32))
        return ms.grad(ms.jit(loss))(x).asnumpy(), ms.grad(loss)(x).asnumpy()

    for jitted, eager in simulate(body, 2):
        np.testing.assert_array_equal(jitted, eager)


def test_a_forward_collective_whose_result_is_unused_stays_in_the_forward():
    """The split of a differentiated graph keeps a collective that reads no cotangent in the forward
    (it was moved to the backward, where it still ran once, but after the forward's return)."""
    from sprout.autodiff.grad_graph import split

    def loss(x):
        ops.AllGather()(x * 2.0)     # unused
        y = ops.AllReduce()(x)       # used by the output
        return (y * x).sum()

    def body():
        init()
        x = ms.Tensor(np.array([get_rank() + 1.0, 2.0], np.float32))
        jitted = ms.jit(loss, jit_config=ms.JitConfig(jit_level="O0"))
        g = ms.grad(jitted)(x).asnumpy()
        s = split(next(iter(jitted.entries.values())).traced.graph)
        fwd = [n.op.name for n in s.forward.nodes if n.op.kind == "collective"]
        bwd = [n.op.name for n in s.backward.nodes if n.op.kind == "collective"]
        return fwd, bwd, g, ms.grad(loss)(x).asnumpy()

    for fwd, bwd, jitted, eager in simulate(body, 2):
        assert fwd == ["AllGather", "AllReduce"] and bwd == ["AllReduce"]
        np.testing.assert_array_equal(jitted, eager)
