"""Elementwise fusion: grouping, every kernel strategy against the reference interpreter, jit levels."""
import json
import os
import numpy as np
import pytest

import sprout as ms
from sprout import context, ops
from sprout.backend import kernels
from sprout.backend.interpret import interpret
from sprout.ir.verify import verify
from sprout.jit.api import jit
from sprout.passes import fuse
from sprout.passes.fuse import fuse_elementwise


def expr16(x, y):
    a = x * y
    b = a + x
    c = b - y
    e = ops.abs(y) + 1.0
    f = c / e
    g = ops.tanh(f)
    i = ops.exp(g * 0.5)
    k = ops.maximum(i - 1.0, 0.0)
    m = ops.sqrt(ops.abs(f))
    return (k * m + g) * y


def bias_act(x, b, s):
    h = x * s + b                     # b broadcasts over rows, s is a 0-d tensor
    r = ops.relu(h)
    q = ops.sigmoid(h) * 2.0
    w = ops.where(h > 0.0, r, q)      # bool intermediate
    return w - ops.cast(h > 1.0, ms.float32), r   # two outputs leave the group


def arith(x, y):
    return ((x + y) * 0.5 - y) * (x - 2.0) + ops.maximum(x, y)


def _graph(fn, *arrays):
    context.set_context(jit_level="O0")
    g = jit(fn).explain(*[ms.Tensor(a) for a in arrays]).executable.graph
    context.set_context(jit_level="")
    return g


def _check(fn, arrays, strategy, min_elements=1):
    g = _graph(fn, *arrays)
    before = fuse.stats()["groups_unfused_by_cost"]
    fused = fuse_elementwise(g, choose=lambda sub, n: strategy, min_elements=min_elements)
    if strategy == "unfused":  # the cost model expects a loss: graph unchanged, and counted
        assert fused is g and fuse.stats()["groups_unfused_by_cost"] > before
        return None
    verify(fused)
    assert any(n.op.name == "FusedElementwise" for n in fused.nodes)
    ref = interpret(g, *arrays)
    got = interpret(fused, *arrays)
    from sprout.backend.pycodegen import generate

    gen = generate(fused).function("graph_fn")(*arrays)
    for r, a, b in zip(ref, got, gen):
        np.testing.assert_allclose(a, r, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(b, r, rtol=1e-5, atol=1e-6)
    return fused


def _data(rng, *shapes):
    return [rng.standard_normal(s).astype(np.float32) for s in shapes]


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(kernels, "BLOCK", 256)   # many blocks, ragged last block
    monkeypatch.setattr(kernels, "MT_MIN", 0)


@pytest.mark.parametrize("strategy", ["numpy_blocked", "numpy_mt", "unfused"])
def test_strategies_match_interpreter(strategy, small_blocks):
    rng = np.random.default_rng(1)
    fused = _check(expr16, _data(rng, (3001,), (3001,)), strategy)
    assert fused is None or len([n for n in fused.nodes if n.op.name == "FusedElementwise"]) == 1
    _check(bias_act, _data(rng, (37, 50), (50,), ()), strategy)
    _check(arith, _data(rng, (1000, 3), (1, 3)), strategy)


def test_whole_w3_chain_is_one_group():
    rng = np.random.default_rng(2)
    g = _graph(expr16, *_data(rng, (1 << 15,), (1 << 15,)))
    fused = fuse_elementwise(g, choose=lambda sub, n: "numpy_blocked")
    assert [n.op.name for n in fused.nodes] == ["FusedElementwise"]
    assert len(fused.nodes[0].attrs["graph"].nodes) == 16


def test_no_cycle_through_an_outside_node():
    def f(x):
        a = x * 2.0
        s = ops.reshape(ops.transpose(ops.reshape(a, (64, 256)), (1, 0)), (-1,))  # leaves the group
        return a + s                  # joining would need `s` inside the group
    x = np.random.default_rng(3).standard_normal(1 << 14).astype(np.float32)
    g = _graph(f, x)
    fused = fuse_elementwise(g, choose=lambda sub, n: "numpy_blocked", min_elements=1)
    verify(fused)
    np.testing.assert_allclose(interpret(fused, x)[0], interpret(g, x)[0], rtol=1e-6)


def test_no_cycle_between_two_groups_that_feed_each_other():
    """Group A (a Mul and later a Minimum) needs a reduction of group B's Sub; B's RealDiv then wants A's
    Add: each fused node would wait for the other (graph fuzzer seed 84). The join is refused."""
    def f(x):
        r = ops.stack((x, x * 2)).sum(0)
        a = r * ops.amax(r, 1, keepdims=True)       # A
        sq = ops.square(r)                           # B
        b = sq - ops.reshape(x, (-1,))[:3]           # B
        m = ops.minimum(a, b.sum())                  # A (reads B through a reduction)
        c = ops.abs(a) + 1                           # A
        return sq / c, m                             # B (reads A)

    x = np.arange(9, dtype=np.float32).reshape(3, 3) / 9
    _check(f, [x], "numpy_blocked")


def test_tiny_tensors_fuse_only_into_small_kernels():
    g = _graph(arith, *_data(np.random.default_rng(4), (3, 3), (3, 3)))
    assert fuse_elementwise(g, choose=lambda s, n: "numpy_blocked") is g   # under FUSE_MIN: no blocked kernel
    fused = fuse_elementwise(g)
    if kernels.numba_available():   # the default chooser: one serial numba kernel (backend/small.py)
        assert [n.attrs["strategy"] for n in fused.nodes] == ["numba_small"]
    else:
        assert fused is g


def test_cost_model_candidates():
    kernels.COUNTERS["measured"] = 0
    g = _graph(expr16, *_data(np.random.default_rng(5), (1 << 18,), (1 << 18,)))
    sub = fuse_elementwise(g, choose=lambda s, n: "numpy_blocked").nodes[0].attrs["graph"]
    # exp/tanh in float32 have vectorisable polynomial forms (backend/fastmath.py): the numba loops are timed too
    want = kernels.numba_available()
    assert ("numba" in kernels.candidates(sub, 1 << 22)) is want
    assert ("numba_mt" in kernels.candidates(sub, 1 << 22)) is (want and (os.cpu_count() or 1) >= 2)
    assert kernels.choose(sub, kernels.SMALL_MAX) == "unfused"   # cache-resident: the driver overhead loses
    measured = kernels.choose(sub, 1 << 18)
    assert measured in ["unfused"] + kernels.candidates(sub, 1 << 18)   # measured once
    assert fuse.stats()["kernels"]["measured"] == 1
    assert kernels.choose(sub, 1 << 18) == measured
    assert fuse.stats()["kernels"]["measured"] == 1        # second time: from the decision cache


def _fake_timings(wall: dict, cpu: dict):
    """A stand-in for kernels._timings: these (wall, CPU) seconds for the strategies it is asked about."""
    def timings(fns, args, rounds=3):
        return {s: (wall.get(s, 1.0), cpu.get(s, 1.0)) for s in fns}
    return timings


def test_choice_under_load_is_by_cpu_time_and_not_kept_on_disk(monkeypatch):
    g = _graph(expr16, *_data(np.random.default_rng(7), (1 << 18,), (1 << 18,)))
    sub = fuse_elementwise(g, choose=lambda s, n: "numpy_blocked").nodes[0].attrs["graph"]
    path = os.path.join(context.get_context("kernel_cache_dir"), "fusion_decisions.json")
    # the 2-thread kernel wins on wall time, the serial one on CPU time (what a second thread costs without a
    # free core); busy machine: CPU time decides and nothing is written for later processes
    monkeypatch.setattr(kernels, "_timings", _fake_timings({"numpy_mt": 0.1, "numpy_blocked": 0.3},
                                                           {"numpy_mt": 0.4, "numpy_blocked": 0.3}))
    monkeypatch.setattr(kernels, "busy", lambda: True)
    monkeypatch.setattr(kernels, "_busy_decisions", {})
    n = 1 << 18
    assert kernels.choose(sub, n, allow_numba=False) == "numpy_blocked"
    assert not os.path.exists(path) or "numpy_blocked" not in open(path).read()
    assert kernels.choose(sub, n, allow_numba=False) == "numpy_blocked"   # kept for this process
    measured = fuse.stats()["kernels"]["measured"]
    cache_dir = context.get_context("kernel_cache_dir")
    context.set_context(kernel_cache_dir=cache_dir + "_other")             # ... per cache dir
    assert kernels.choose(sub, n, allow_numba=False) == "numpy_blocked"
    assert fuse.stats()["kernels"]["measured"] == measured + 1
    context.set_context(kernel_cache_dir=cache_dir)
    # quiet machine: wall time decides and the decision is stored
    monkeypatch.setattr(kernels, "_busy_decisions", {})
    monkeypatch.setattr(kernels, "busy", lambda: False)
    assert kernels.choose(sub, n, allow_numba=False) == "numpy_mt"
    with open(path) as f:
        assert list(json.load(f).values()) == ["numpy_mt"]
    measured = fuse.stats()["kernels"]["measured"]
    assert kernels.choose(sub, n, allow_numba=False) == "numpy_mt"      # read back, not measured again
    assert fuse.stats()["kernels"]["measured"] == measured
    # the stored 2-thread choice is measured again (by CPU time) when the machine is busy now
    monkeypatch.setattr(kernels, "busy", lambda: True)
    assert kernels.choose(sub, n, allow_numba=False) == "numpy_blocked"
    assert fuse.stats()["kernels"]["measured"] == measured + 1


def test_timings_measure_every_candidate_that_runs():
    calls = []

    def broken():
        raise RuntimeError("cannot build")

    times = kernels._timings({"ok": lambda: (lambda *a: calls.append(a)), "bad": broken}, (1, 2), rounds=2)
    assert list(times) == ["ok"] and len(calls) == 3        # one warm call, two timed rounds
    wall, cpu = times["ok"]
    assert 0 <= wall < 1 and 0 <= cpu < 1


@pytest.fixture
def always_fuse(monkeypatch):
    monkeypatch.setattr(kernels, "choose", lambda sub, n: "numpy_blocked")


def test_jit_levels_and_counters(always_fuse):
    rng = np.random.default_rng(6)
    x, y = (ms.Tensor(a) for a in _data(rng, (1 << 15,), (1 << 15,)))
    f0 = jit(expr16)
    context.set_context(jit_level="O0")
    assert "FusedElementwise" not in f0.explain(x, y).ir
    context.set_context(jit_level="O1")
    fuse.reset_stats()
    f1 = jit(arith)
    e = f1.explain(x, y)
    assert "FusedElementwise" in e.ir and "_fused" in e.source
    assert fuse.stats()["groups_fused"] == 1
    np.testing.assert_allclose(f1(x, y).asnumpy(), arith(x, y).asnumpy(), rtol=1e-6)
    from sprout.passes import pipeline

    assert "fuse" in pipeline.LAST_TIMINGS
    with pytest.raises(ValueError):
        context.set_context(jit_level="O7")


def test_gradient_through_fused_graph(always_fuse):
    rng = np.random.default_rng(7)
    xa, ya = _data(rng, (1 << 15,), (1 << 15,))
    context.set_context(jit_level="O1")
    jf = jit(expr16)

    def loss_jit(x, y):
        return ops.sum(jf(x, y))

    def loss_eager(x, y):
        return ops.sum(expr16(x, y))

    x, y = ms.Tensor(xa), ms.Tensor(ya)
    gj = ms.grad(loss_jit, grad_position=(0, 1))(x, y)
    ge = ms.grad(loss_eager, grad_position=(0, 1))(x, y)
    for a, b in zip(gj, ge):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-4, atol=1e-5)


def test_fused_bprop_directly():
    rng = np.random.default_rng(8)
    arrays = _data(rng, (40, 50), (50,), ())
    g = _graph(bias_act, *arrays)
    fused = fuse_elementwise(g, choose=lambda s, n: "numpy_blocked", min_elements=1)
    node = [n for n in fused.nodes if n.op.name == "FusedElementwise"][0]
    sub = node.attrs["graph"]
    from sprout.autodiff.api import vjp  # noqa: F401  (import check: the public API exists)
    ins = [ms.Tensor(a) for a in arrays]
    outs = fuse.FUSED(*ins, graph=sub, strategy="numpy_blocked")
    ref = interpret(sub, *arrays)
    for o, r in zip(outs, ref):
        np.testing.assert_allclose(o.asnumpy(), r, rtol=1e-6)


def test_groups_never_span_a_collective():
    """A fused node sits at its last member: a group holding a value a first collective reads and a value computed
    from a second collective's result would move the first collective after the second (ranks must issue them in
    the same order; a pipeline stage's Send/Receive deadlocked). Groups stay between consecutive collectives."""
    from sprout.core.types import TensorType
    from sprout.ir.graph import Graph, Node, Var
    from sprout.ops.comm_ops import ALL_REDUCE
    from sprout.ops.elementwise import ADD, MUL

    t = TensorType((4, 4), ms.float32)
    x, y = Var(t), Var(t)
    a, s, r, b, c = (Var(t) for _ in range(5))
    nodes = [Node(MUL, [x, x], {}, [a]), Node(ALL_REDUCE, [a], {}, [s]), Node(ALL_REDUCE, [y], {}, [r]),
             Node(ADD, [a, r], {}, [b]), Node(MUL, [b, b], {}, [c])]
    g = Graph("g", [x, y], nodes, [c, s])
    fused = fuse_elementwise(g, choose=lambda sub, n: "numpy_blocked", min_elements=1)
    names = [n.op.name for n in fused.nodes]
    assert names == ["Mul", "AllReduce", "AllReduce", "FusedElementwise"]    # Mul alone before the first
    assert [n.op.name for n in fused.nodes[3].attrs["graph"].nodes] == ["Add", "Mul"]
