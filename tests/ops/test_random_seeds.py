"""MindSpore's seed rules for random ops (checked against MindSpore 2.10's behaviour, not its numbers):
an op seed makes a call reproducible without set_seed; a primitive instance owns its stream (two instances
with equal seeds draw the same sequence, each call advances it); a functional seed names one shared stream;
set_seed restarts everything; jit draws what eager draws."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout import _seed


def _n(t):
    return t.asnumpy().copy()


@pytest.fixture(autouse=True)
def _fresh():
    _seed._streams.clear()
    yield
    _seed._streams.clear()


def test_functional_seed_is_one_stream_advanced_by_each_call():
    a, b = _n(ops.standard_normal((4,), seed=5)), _n(ops.standard_normal((4,), seed=5))
    assert not np.array_equal(a, b)
    _seed._streams.clear()  # a new process (no set_seed): the same sequence again
    np.testing.assert_array_equal(_n(ops.standard_normal((4,), seed=5)), a)
    np.testing.assert_array_equal(_n(ops.standard_normal((4,), seed=5)), b)


def test_instances_own_their_streams():
    p, q = ops.StandardNormal(seed=5), ops.StandardNormal(seed=5)
    p1, p2, q1 = _n(p((3,))), _n(p((3,))), _n(q((3,)))
    np.testing.assert_array_equal(p1, q1)
    assert not np.array_equal(p1, p2)
    r = ops.UniformReal(seed=5, seed2=1)
    assert not np.array_equal(_n(r((3,))), _n(ops.UniformReal(seed=5)((3,))))


def test_set_seed_restarts_global_and_op_streams():
    ms.set_seed(11)
    a, s = _n(ops.rand(3)), _n(ops.rand(3, seed=2))
    ms.set_seed(11)
    np.testing.assert_array_equal(_n(ops.rand(3)), a)
    np.testing.assert_array_equal(_n(ops.rand(3, seed=2)), s)
    ms.set_seed(12)  # the global seed takes part in an op stream's seed too
    assert not np.array_equal(_n(ops.rand(3, seed=2)), s)


def test_unseeded_primitives_use_the_global_stream():
    ms.set_seed(3)
    a = _n(ops.UniformReal()((3,)))
    ms.set_seed(3)
    np.testing.assert_array_equal(_n(ops.UniformReal(seed=0, seed2=0)((3,))), a)


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_jit_draws_what_eager_draws_with_op_seeds(mode):
    def f(x):
        return x + ops.standard_normal((3,), seed=7) + ops.gamma((3,), ms.Tensor(2.0), ms.Tensor(1.0), seed=9)

    x = ms.Tensor(np.zeros(3, np.float32))
    ms.set_seed(1)
    want = [_n(f(x)) for _ in range(2)]
    ms.set_seed(1)
    g = ms.jit(f, capture_mode=mode) if mode == "bytecode" else ms.jit(f)
    got = [_n(g(x)) for _ in range(2)]
    for w, r in zip(want, got):
        np.testing.assert_array_equal(r, w)
    assert not np.array_equal(got[0], got[1])


def test_dropout_seeds_and_bad_seeds():
    d1, d2 = ops.Dropout(0.5, Seed0=4), ops.Dropout(0.5, Seed0=4)
    x = ms.Tensor(np.ones((20,), np.float32))
    np.testing.assert_array_equal(_n(d1(x)[1]), _n(d2(x)[1]))
    with pytest.raises(ValueError, match="non-negative"):
        ops.rand(2, seed=-1)
    with pytest.raises(TypeError, match="seed"):
        ops.rand(2, seed=1.5)
