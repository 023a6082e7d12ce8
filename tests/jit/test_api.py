"""jit API: decorator forms, option validation, compile cache, counters, miss log, IR access."""
import logging
import os

import numpy as np
import pytest

import sprout as ms
import sprout.nn as nn
from sprout import JitConfig, Tensor, jit, mutable, ops


def t(*shape, value=1.0, dtype=np.float32):
    return Tensor(np.full(shape, value, dtype))


def test_decorator_forms():
    def f(x, y):
        return x * y + 1

    x, y = t(2, value=2.0), t(2, value=3.0)
    expected = f(x, y).asnumpy()
    for wrapped in (jit(f), jit()(f), jit(capture_mode="ast")(f), ms.ms_function(f), jit(f, mode="PSJit"),
                    jit(f, jit_config=JitConfig(jit_level="O1"))):
        assert np.array_equal(wrapped(x, y).asnumpy(), expected)


class Net(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k

    def helper(self, x):
        return x + self.k


def test_cells_and_methods():
    x = t(3, value=2.0)
    a, b = Net(2.0), Net(3.0)
    assert np.allclose(jit(a)(x).asnumpy(), 4.0)
    assert np.allclose(jit(b.helper)(x).asnumpy(), 5.0)
    Jitted = jit(type("JNet", (Net,), {}))
    c, d = Jitted(4.0), Jitted(5.0)
    assert np.allclose(c(x).asnumpy(), 8.0) and np.allclose(d(x).asnumpy(), 10.0)
    stats = Jitted.construct.stats
    assert stats["compiles"] == 2  # one per instance: self is part of the key, by identity


@pytest.mark.parametrize("kwargs", [dict(capture_mode="graph"), dict(jit_level="O7"), dict(dynamic=2),
                                    dict(fullgraph="yes"), dict(backend="tpu"), dict(mode="Fast"),
                                    dict(infer_boost="maybe")])
def test_invalid_options_raise_at_decoration(kwargs):
    with pytest.raises((ValueError, TypeError)):
        jit(lambda x: x, **kwargs)


def test_bytecode_capture_dispatches_to_pijit():
    from sprout.capture.bytecode import BytecodeFunction

    assert isinstance(jit(lambda x: x, capture_mode="bytecode"), BytecodeFunction)
    assert isinstance(jit(mode="PIJit")(lambda x: x), BytecodeFunction)


def test_jit_config_values():
    with pytest.raises(ValueError):
        JitConfig(jit_level="O5")
    with pytest.raises(ValueError):
        JitConfig(jit_syntax_level="LOOSE")
    assert JitConfig(jit_level="O2", exc_mode="no_sink").jit_config_dict["exc_mode"] == "no_sink"


def test_cache_hits_and_recompiles_with_log(caplog):
    @jit
    def scale(x, n):
        return x * n

    caplog.set_level(logging.INFO, logger="sprout.jit")
    x = t(2, 3)
    scale(x, 2)
    scale(x, 2)
    scale(t(2, 3, value=5.0), 2)
    assert scale.stats == {"compiles": 1, "hits": 2, "misses": 1, "evictions": 0, "static_fallbacks": 0,
                           "host_fallbacks": 0, "miss_reasons": []}
    assert caplog.records == []
    scale(x, 3)
    scale(t(4, 3), 3)
    scale(x.astype(ms.float64), 3)
    assert scale.stats["compiles"] == 4
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3
    assert lines[0].startswith("sprout.jit: recompiling test_cache_hits_and_recompiles_with_log.<locals>.scale "
                               "(test_api.py:")
    assert lines[0].endswith("argument 'n' changed from 2 to 3")
    assert lines[1].endswith("argument 'x' changed from Tensor f32[2,3] to Tensor f32[4,3]")
    assert lines[2].endswith("argument 'x' changed from Tensor f32[2,3] to Tensor f64[2,3]")
    total = ms.jit.stats()
    assert total["compiles"] >= 4 and any("scale" in k for k in total["functions"])


def test_strings_tuples_and_kwargs_are_constants():
    @jit
    def f(x, mode, dims=(0,)):
        return ops.reduce_sum(x, dims) if mode == "sum" else ops.amax(x, dims)

    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert np.allclose(f(x, "sum").asnumpy(), [3, 5, 7])
    assert np.allclose(f(x, "max").asnumpy(), [3, 4, 5])
    assert np.allclose(f(x, "sum", dims=(1,)).asnumpy(), [3, 12])
    assert np.allclose(f(x, "sum", dims=(1,)).asnumpy(), [3, 12])
    assert f.stats["compiles"] == 3 and f.stats["hits"] == 1


def test_mutable_values_do_not_recompile():
    @jit
    def f(x, k, pair):
        return x * k + pair[0] - pair[1]

    x = t(3)
    assert np.allclose(f(x, mutable(2.0), mutable((1.0, 0.5))).asnumpy(), 2.5)
    assert np.allclose(f(x, mutable(4.0), mutable((2.0, 1.0))).asnumpy(), 5.0)
    assert f.stats["compiles"] == 1
    assert mutable(x) is x and isinstance(mutable(3), int) and mutable([1, 2]) == [1, 2]
    with pytest.raises(TypeError):
        mutable("text")


def test_dynamic_shapes_stop_recompiling():
    @jit(dynamic=1)
    def f(x):
        return ops.reduce_sum(x * 2, 1)

    for n in (2, 3, 5, 7):
        assert np.allclose(f(t(n, 4)).asnumpy(), np.full(n, 8.0))
    assert f.stats["compiles"] == 1
    assert "f32[?,4]" in f.get_ir(t(9, 4))

    @jit
    def g(x):
        return x + 1

    for n in range(1, 8):
        g(t(n, 2))
    assert g.stats["compiles"] == ms.get_context("jit_dynamic_after")


def test_get_ir_and_explain():
    @jit
    def f(x):
        y = x * 1  # simplified away
        return ops.exp(y) + y

    x = t(2)
    ir = f.get_ir(x)
    # float32 exp and the add: one small fused kernel (fastmath's polynomial exp)
    assert ir.startswith("graph f(%0:f32[2]) {\n  %1:f32[2] = FusedElementwise(%0")
    e = ms.jit.explain(f, x)
    assert [name for name, _ in e.stages] == ["trace", "simplify", "fuse"]
    assert "def entry(a0):" in e.source and "_fused0(x0)" in e.source
    assert f.stats["compiles"] == 1


def test_save_graphs_writes_each_changed_stage(tmp_path):
    ms.set_context(save_graphs=True, save_graphs_path=str(tmp_path))

    @jit
    def saved(x):
        return x * 1 + 2

    saved(t(2))
    files = sorted(os.listdir(tmp_path))
    assert files == ["saved_0_00_trace.ir", "saved_0_01_simplify.ir", "saved_0_source.py"]
    assert "Mul(%0, 1)" in (tmp_path / "saved_0_00_trace.ir").read_text()


EAGER_CASES = [
    lambda x, y: (x + y) * (x - y) / (ops.abs(y) + 1),
    lambda x, y: ops.matmul(x, ops.transpose(y, (1, 0))),
    lambda x, y: (ops.reduce_sum(x, 0), ops.mean(y, 1, True)),
    lambda x, y: ops.where(x > y, ops.exp(x), ops.tanh(y)),
    lambda x, y: ops.concat([x, y], 1)[:, 1:3].reshape(-1),
    lambda x, y: {"a": x * 2, "b": [y, ops.sigmoid(x)]},
    lambda x, y: ops.cast(x > 0, ms.int32) + 1,
    lambda x, y: x.sum() * y.max(),
]


@pytest.mark.parametrize("k", range(len(EAGER_CASES)))
def test_eager_equals_jit(k):
    fn = EAGER_CASES[k]
    rng = np.random.default_rng(k)
    x, y = (Tensor(rng.standard_normal((3, 4)).astype(np.float32)) for _ in range(2))
    eager, jitted = fn(x, y), jit(fn)(x, y)

    def leaves(v):
        if isinstance(v, dict):
            return [a for k in v for a in leaves(v[k])]
        if isinstance(v, (tuple, list)):
            return [a for item in v for a in leaves(item)]
        return [v]

    assert type(eager) is type(jitted)
    for a, b in zip(leaves(eager), leaves(jitted)):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_nested_jit_calls_inline():
    @jit
    def inner(x):
        return x * 3

    @jit
    def outer(x):
        return inner(x) + inner(x + 1)

    assert np.allclose(outer(t(2)).asnumpy(), 9.0)
    assert inner.stats["compiles"] == 0 and outer.stats["compiles"] == 1
