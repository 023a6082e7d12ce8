"""Every resolved flag that changes a compile is in the cache key (``jit.cache.Flags``); a flag changed
after the first call reaches the key even through the per-call fast path; one CompileCache per jitted
callable for functions, methods and GRAPH_MODE Cells."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, context, nn
from sprout.backend import kernels
from sprout.jit.cache import CacheKey, Flags


@pytest.fixture
def always_fuse(monkeypatch):
    monkeypatch.setattr(kernels, "choose", lambda sub, n, allow_numba=True: "numpy_blocked")


def big():
    return Tensor(np.ones((128, 128), np.float32))


def test_context_jit_level_after_the_first_call_recompiles_and_switching_back_hits(always_fuse):
    @ms.jit
    def f(x):
        return x * 2 + 1

    x = big()
    context.set_context(jit_level="O0")
    f(x)
    f(x)  # fast path
    assert "FusedElementwise" not in f.get_ir(x)
    context.set_context(jit_level="O1")
    out = f(x)  # the fast table was emptied by set_context: this call builds the key again
    assert f.stats["compiles"] == 2 and "FusedElementwise" in f.get_ir(x)
    assert f.stats["miss_reasons"][-1] == "the compile flags changed: jit_level O0 -> O1"
    np.testing.assert_array_equal(out.asnumpy(), 3.0)
    context.set_context(jit_level="O0")
    hits = f.stats["hits"]
    f(x)
    assert f.stats["compiles"] == 2 and f.stats["hits"] == hits + 1  # the O0 entry is still cached


def test_jit_config_level_and_decorator_level_resolve_in_order(always_fuse):
    @ms.jit
    def f(x):
        return x * 2 + 1

    @ms.jit(jit_level="O0")
    def g(x):
        return x * 2 + 1

    x = big()
    context.set_context(jit_config={"jit_level": "O0"})
    f(x), g(x)
    context.set_context(jit_config={"jit_level": "O1"})
    f(x), g(x)
    assert f.stats["compiles"] == 2 and g.stats["compiles"] == 1  # the decorator's level wins
    keys = list(f.entries)
    assert all(isinstance(k, CacheKey) and isinstance(k.flags, Flags) for k in keys)
    assert [k.flags.jit_level for k in keys] == ["O0", "O1"]


def test_context_syntax_level_is_in_the_key():
    @ms.jit
    def f(x):
        return x + 1

    x = Tensor(np.ones(2, np.float32))
    f(x)
    context.set_context(jit_syntax_level=ms.STRICT)
    f(x)
    assert f.stats["compiles"] == 2
    assert [k.flags.syntax_level for k in f.entries] == ["LAX", "STRICT"]


class _Net(nn.Cell):
    def construct(self, x):
        return x * 2 + 1


def test_graph_mode_cells_use_their_own_jit_config(always_fuse):
    context.set_context(mode=ms.GRAPH_MODE)
    a, b = _Net(), _Net()
    b.set_jit_config(ms.JitConfig(jit_level="O0"))
    x = big()
    np.testing.assert_array_equal(a(x).asnumpy(), 3.0)
    np.testing.assert_array_equal(b(x).asnumpy(), 3.0)
    from sprout.jit import graph_mode_entry

    levels = {k.instance.ref() is b: k.flags.jit_level for k in graph_mode_entry(a).entries}
    assert levels == {False: "O1", True: "O0"}


def test_methods_share_one_cache_with_per_instance_keys():
    class M:
        @ms.jit
        def step(self, x):
            return x + 1

    m1, m2 = M(), M()
    x = Tensor(np.ones(2, np.float32))
    m1.step(x), m1.step(x), m2.step(x)
    assert M.step.stats["compiles"] == 2 and len(M.step.entries) == 2
    del m1
    import gc

    gc.collect()
    assert len(M.step.entries) == 1  # entries of a dead instance are dropped


def test_pijit_segments_recompile_when_the_jit_level_changes(always_fuse):
    def f(x):
        return x * 2 + 1

    g = ms.jit(f, capture_mode="bytecode")
    x = big()
    context.set_context(jit_level="O0")
    g(x)
    assert not any("FusedElementwise" in str(gr) for gr in g.graphs())
    context.set_context(jit_level="O1")
    np.testing.assert_array_equal(g(x).asnumpy(), 3.0)
    assert any("FusedElementwise" in str(gr) for gr in g.graphs())


def _flag_misses(rep) -> list:
    return [(g.guard, g.count) for g in rep.guard_failures.values() if g.guard.startswith("the compile flags")]


def test_pijit_entries_are_keyed_by_the_resolved_flags(always_fuse):
    """set_context(jit_level / jit_syntax_level) after the first call: the next call misses with the
    reason, captures and compiles again (also where the fast path answered before); switching back finds
    the earlier entries (a hit, nothing captured)."""
    def helper(x):
        z = x * 3 - 1
        print("break")  # a graph break: the callee's segments run through their own runtime
        return z * 2 + 1

    def f(x):
        return helper(x * 2 + 1) + 1

    def plain(x):
        return x * 2 + 1

    x = big()
    context.set_context(jit_level="O0")
    g, p = ms.jit(f, capture_mode="bytecode"), ms.jit(plain, capture_mode="bytecode")
    g(x), g(x), p(x), p(x)
    rep = p.report()
    assert (rep.captures, rep.compiles, rep.hits, rep.misses) == (1, 1, 1, 1)
    assert not any("FusedElementwise" in str(gr) for gr in g.graphs() + p.graphs())
    captures = g.report().captures
    context.set_context(jit_level="O1")
    np.testing.assert_array_equal(g(x).asnumpy(), 18.0)
    np.testing.assert_array_equal(p(x).asnumpy(), 3.0)
    assert (rep.captures, rep.compiles, rep.hits, rep.misses) == (2, 2, 1, 2)
    assert _flag_misses(rep) == [("the compile flags changed: jit_level O0 -> O1", 1)]
    assert g.report().captures > captures and _flag_misses(g.report())
    assert any("FusedElementwise" in str(gr) for gr in p.graphs())
    context.set_context(jit_level="O0")
    p(x)
    assert (rep.captures, rep.hits, rep.misses) == (2, 2, 2)  # the O0 entries were kept: a hit
    assert len(_flag_misses(rep)) == 1
    assert not any("FusedElementwise" in str(gr) for gr in p.graphs())
    context.set_context(jit_syntax_level="STRICT")
    p(x)
    assert rep.captures == 3
    assert _flag_misses(rep)[-1] == ("the compile flags changed: syntax_level LAX -> STRICT", 1)
    d = ms.jit(plain, capture_mode="bytecode", jit_level="O0")  # the decorator's level: the context's does not matter
    d(x)
    context.set_context(jit_level="O1")
    d(x)
    assert d.report().captures == 1 and d.report().hits == 1


def test_pijit_under_a_precision_policy_matches_eager():
    """A PIJit function called inside a Cell's to_float policy and outside it: each call runs the graph
    captured under its own policy (the policy's casts are recorded into the graph), in either order."""
    def f(x):
        return x * 2 + 1

    class Net(nn.Cell):
        def __init__(self, fn):
            super().__init__()
            self.fn = fn

        def construct(self, x):
            return self.fn(x)

    x = Tensor(np.ones((3,), np.float32))
    for fn in (f, lambda x: x * 2 + 1):  # one runtime per code object: a second function starts empty
        g = ms.jit(fn, capture_mode="bytecode")
        order = (False, True, False, True) if fn is f else (True, False, True, False)
        for half in order:
            want = Net(fn).to_float(ms.float16)(x) if half else fn(x)
            got = Net(g).to_float(ms.float16)(x) if half else g(x)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
        assert g.report().captures == 2 and g.report().hits == 2
        half_policy = "CastAll(dtype=mindspore.float16, out=None)"
        assert [m for m, _ in _flag_misses(g.report())] == [
            f"the compile flags changed: precision None -> {half_policy}" if fn is f else
            f"the compile flags changed: precision {half_policy} -> None"]


def test_pijit_decorator_levels_reach_its_segments(always_fuse):
    """jit(..., capture_mode="bytecode") with jit_level / jit_config: the segments compile at that level,
    whatever the context's, and so do those of functions its Python parts call."""
    from sprout.capture.bytecode.runtime import runtime_for

    def helper(x):
        z = x * 3 - 1
        print("break")  # a graph break inside the callee: PIJit calls it from a Python part
        return z * 2 + 1

    def f(x):
        return helper(x * 2 + 1)

    def fused(graphs):
        return any("FusedElementwise" in str(gr) for gr in graphs)

    x = big()
    context.set_context(jit_level="O1")
    for g in (ms.jit(f, capture_mode="bytecode", jit_level="O0"),
              ms.jit(f, capture_mode="bytecode", jit_config=ms.JitConfig(jit_level="O0"))):
        np.testing.assert_array_equal(g(x).asnumpy(), 17.0)
        assert g.graphs() and not fused(g.graphs())
        callee = [e.graph for v in runtime_for(helper, False, "O0").entries.values() for e in v if e.graph]
        assert callee and not fused(callee)
    g = ms.jit(f, capture_mode="bytecode")
    np.testing.assert_array_equal(g(x).asnumpy(), 17.0)
    assert fused(g.graphs())


def test_host_segments_compile_at_the_jits_level(always_fuse):
    def f(x):
        y = x * 2 + 1
        n = int(y.asnumpy()[0, 0])  # JIT Fallback (LAX): host segments through PIJit
        return y * n + 1

    x = big()
    context.set_context(jit_level="O1")
    g = ms.jit(f, jit_level="O0")
    np.testing.assert_array_equal(g(x).asnumpy(), 10.0)
    ex = next(iter(g.cache.entries.values()))
    assert ex.host and ex.segments and not any("FusedElementwise" in str(s) for s in ex.segments)
