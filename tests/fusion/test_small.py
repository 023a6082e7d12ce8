"""Small fused groups (backend/small.py): one serial numba kernel over static shapes, tiered after plain NumPy."""
import os
import sys

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.backend import kernels, small
from sprout.backend.interpret import interpret
from sprout.jit.api import jit
from sprout.passes.fuse import fuse_elementwise

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_fusion import _graph  # noqa: E402

pytest.importorskip("numba")  # noqa: E402


def mixed(x, b, c):
    h = x * 0.75 + b                  # b (4,) broadcasts over rows
    m = ops.maximum(h, 0.0) - c       # c (3, 1) broadcasts over columns
    t = ops.tanh(m)                   # transcendental: splits the group
    q = (t + 1.5) / (ops.abs(h) + 1.0)
    return q * q - ops.sqrt(ops.abs(m)), h   # h also leaves the first group


def chain(x):
    for _ in range(20):
        x = x * 0.999
        x = x + 0.001
    return x


def _arrays(rng, dtype=np.float32):
    return [rng.standard_normal(s).astype(dtype) for s in ((3, 4), (4,), (3, 1))]


def _small_nodes(g):
    return [n for n in g.nodes if n.op.name == "FusedElementwise" and n.attrs["strategy"] == "numba_small"]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_small_kernels_equal_plain_numpy_bit_for_bit(dtype):
    """float64: tanh is a libm call, the group splits around it and every result is NumPy's bit for bit. float32:
    tanh joins the group as fastmath's polynomial (<= 1.34 ulp, tests/fusion/test_fastmath.py); what does not
    depend on it (h) is bit for bit, the rest within a few ulp."""
    arrays = _arrays(np.random.default_rng(0), dtype)
    g = _graph(mixed, *arrays)
    fused = fuse_elementwise(g)
    subs = [n.attrs["graph"] for n in _small_nodes(fused)]
    assert all(small.eligible(s) for s in subs)
    tanhs = [n.op.name for n in fused.nodes].count("Tanh")
    if dtype == np.float64:
        assert len(subs) == 2 and tanhs == 1                          # split around tanh
    else:
        assert len(subs) == 1 and tanhs == 0 and "_ftanh" in small.source(subs[0])
    ref = interpret(g, *arrays)
    if dtype == np.float32:
        from sprout.backend.pycodegen import generate

        for sub in subs:
            kernels.build(sub, "numba_small").load()
        got = generate(fused).function("graph_fn")(*arrays)
        np.testing.assert_allclose(got[0], ref[0], rtol=2e-6, atol=0)
        assert np.array_equal(got[1], ref[1])
        return
    for sub in subs:
        k = kernels.build(sub, "numba_small")
        k.load()
        assert k.fast is not None
    from sprout.backend.pycodegen import generate

    got = generate(fused).function("graph_fn")(*arrays)
    for a, b in zip(ref, got):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    # non-contiguous inputs (views) give the same
    xt = np.ascontiguousarray(arrays[0].T).T
    got = generate(fused).function("graph_fn")(xt, arrays[1], arrays[2])
    assert all(np.array_equal(a, b) for a, b in zip(ref, got))


def test_tier_up_after_calls_and_jit_equals_eager(monkeypatch):
    monkeypatch.setattr(small, "TIER_UP_CALLS", 3)
    x = ms.Tensor(np.random.default_rng(1).random((2, 5), dtype=np.float32))
    want = chain(x).asnumpy()
    f = jit(chain)
    results = [f(x).asnumpy() for _ in range(6)]
    g = f.explain(x).executable.graph
    (node,) = _small_nodes(g)
    k = kernels.build(node.attrs["graph"], "numba_small")
    assert k.fast is not None and k.calls == 4      # plain for three calls, then the kernel
    assert all(np.array_equal(r, want) for r in results)


def test_wrong_argument_types_run_the_plain_code():
    arrays = _arrays(np.random.default_rng(2))
    fused = fuse_elementwise(_graph(mixed, *arrays))
    sub = _small_nodes(fused)[0].attrs["graph"]
    k = kernels.build(sub, "numba_small")
    k.load()
    a64 = [a.astype(np.float64) for a in arrays[: len(sub.inputs)]]
    got = k(*a64)
    want = k.plain(*a64)
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(got, want))


def test_read_only_inputs_run_the_compiled_kernel(monkeypatch):
    arrays = _arrays(np.random.default_rng(3))
    fused = fuse_elementwise(_graph(mixed, *arrays))
    sub = _small_nodes(fused)[0].attrs["graph"]
    k = kernels.build(sub, "numba_small")
    k.load()
    ro = [np.broadcast_to(a, a.shape) for a in arrays[: len(sub.inputs)]]   # non-writeable views
    assert not any(a.flags.writeable for a in ro)
    want = k.plain(*ro)
    monkeypatch.setattr(k, "plain", None)    # a failed dispatch would fall back to it (and fail here)
    got = k(*ro)
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(got, want))


def test_ineligible_groups_stay_plain():
    def ints(x):
        return (x + 1) * 3

    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    g = _graph(ints, x)
    assert _small_nodes(fuse_elementwise(g)) == []
    forced = fuse_elementwise(g, choose=lambda s, n: "numba_small", min_elements=1)
    (node,) = [n for n in forced.nodes if n.op.name == "FusedElementwise"]
    k = kernels.build(node.attrs["graph"], "numba_small")
    assert k.source is None
    k.load()
    assert k.fast is None and np.array_equal(k(x)[0], (x + 1) * 3)


def test_source_reads_broadcast_inputs_at_index_zero():
    arrays = _arrays(np.random.default_rng(3))
    sub = _small_nodes(fuse_elementwise(_graph(mixed, *arrays)))[0].attrs["graph"]
    src = small.source(sub)
    assert "for p0 in range(3):" in src and "for p1 in range(4):" in src
    assert "[p1]" in src and "[p0, 0]" in src and "fastmath" not in src


def test_groups_of_many_ops_tier_up_sooner():
    x = np.random.default_rng(4).random((2, 5), dtype=np.float32)
    sub = _small_nodes(fuse_elementwise(_graph(chain, x)))[0].attrs["graph"]
    assert len(sub.nodes) == 40
    assert small.SmallKernel(sub).tier_up == min(small.TIER_UP_CALLS, small.TIER_UP_DISPATCHES // 40)
