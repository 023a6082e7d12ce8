"""ms.Generator / default_generator / manual_seed / seed / initial_seed / get_rng_state / set_rng_state, the
``generator=`` arguments of mint's and Tensor's random functions and the ops.*_ in-place random fills. State
layout and error messages were read from MindSpore 2.10 (CPU); its in-place random kernels (normal_, uniform_,
random_, exponential_, bernoulli_) and mint's random functions exist only on Ascend there, so their values follow
the documented semantics and sprout's seeded streams (eager == jit for the same seed)."""
import numpy as np
import pytest

import sprout as ms
from sprout import mint, ops


def test_generator_state_is_mindspores_16_bytes():
    g = ms.Generator()
    assert g.initial_seed() == 0 and g.get_state().asnumpy().tolist() == [0] * 16
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    assert g.get_state().dtype is ms.uint8
    seed, offset = g._step(ms.Tensor(3))
    assert (seed.item(), offset.item()) == (5, 0)
    assert g.get_state().asnumpy().tolist() == [5] + [0] * 7 + [3] + [0] * 7
    assert ms.Generator().manual_seed(2 ** 40).get_state().asnumpy().tolist() == [0] * 5 + [1] + [0] * 10
    assert g.manual_seed(-3).get_state().asnumpy().tolist() == [253] + [255] * 7 + [0] * 8
    assert g.initial_seed() == -3


def test_generator_misuse_raises_like_mindspore():
    g = ms.Generator()
    with pytest.raises(TypeError, match="Seed must be an integer"):
        g.manual_seed(1.5)
    with pytest.raises(RuntimeError, match="Invalid tensor input: State"):
        g.set_state([1] * 16)
    with pytest.raises(RuntimeError, match="State data size must be 16, but got 8"):
        g.set_state(ms.Tensor(np.zeros(8, np.uint8)))
    with pytest.raises(RuntimeError, match="State data type must be UInt8"):
        g.set_state(ms.Tensor(np.zeros(16, np.int64)))
    with pytest.raises(TypeError, match="mint.rand: 'generator' must be a mindspore.Generator"):
        mint.rand(2, generator=3)


def test_default_generator_functions():
    assert ms.manual_seed(13) is ms.default_generator and ms.initial_seed() == 13
    s = ms.seed()
    assert isinstance(s, int) and ms.initial_seed() == s
    ms.manual_seed(7)
    state = ms.get_rng_state()
    a = ops.uniform((4,), 0.0, 1.0).asnumpy()
    b = mint.randn(4).asnumpy()
    assert ms.get_rng_state().asnumpy()[8] == 2  # two draws advanced the offset
    ms.set_rng_state(state)
    assert np.array_equal(ops.uniform((4,), 0.0, 1.0).asnumpy(), a) and np.array_equal(mint.randn(4).asnumpy(), b)
    ms.set_seed(7)  # set_seed also restarts the default generator (sprout's ops seed from it)
    assert ms.initial_seed() == 7 and np.array_equal(ops.uniform((4,), 0.0, 1.0).asnumpy(), a)


def test_generators_are_independent_streams():
    g1, g2 = ms.Generator().manual_seed(1), ms.Generator().manual_seed(1)
    a = mint.rand(5, generator=g1).asnumpy()
    ms.manual_seed(99)
    ops.uniform((3,), 0.0, 1.0)  # the default generator does not move g2
    assert np.array_equal(mint.rand(5, generator=g2).asnumpy(), a)
    assert not np.array_equal(mint.rand(5, generator=g1).asnumpy(), a)


@pytest.mark.parametrize("call", [
    lambda g: mint.rand(2, 3, generator=g), lambda g: mint.randn(4, generator=g),
    lambda g: mint.randint(0, 9, (5,), generator=g), lambda g: mint.randperm(6, generator=g),
    lambda g: mint.normal(0.0, 2.0, (3,), generator=g), lambda g: mint.bernoulli(ms.Tensor([0.3, 0.6]), generator=g),
    lambda g: mint.multinomial(ms.Tensor([[0.2, 0.8, 0.5]]), 2, generator=g),
    lambda g: ms.Tensor(np.zeros(4, np.float32)).normal_(1.0, 2.0, generator=g),
    lambda g: ms.Tensor(np.zeros(4, np.float32)).uniform_(-1, ms.Tensor(2.0), generator=g),
    lambda g: ms.Tensor(np.zeros(4, np.int32)).random_(0, 7, generator=g),
    lambda g: ms.Tensor(np.zeros(4, np.float32)).exponential_(2.0, generator=g),
    lambda g: ms.Tensor(np.zeros(4, np.float32)).bernoulli_(0.4, generator=g),
    lambda g: ops.normal_(ms.Tensor(np.zeros(3, np.float32)), generator=g),
    lambda g: ops.bernoulli_ext(ms.Tensor([0.1, 0.9, 0.5]), generator=g),
])
def test_generator_argument_replays_eagerly_and_under_jit(call):
    g = ms.Generator()

    def draw(x):
        return call(g) + x

    zero = ms.Tensor(0, ms.int32)
    g.manual_seed(21)
    ref = [draw(zero).asnumpy(), draw(zero).asnumpy()]
    assert not all(np.array_equal(ref[0], r) for r in ref[1:]) or ref[0].size <= 2
    for capture in ("ast", "bytecode"):
        f = ms.jit(draw, capture_mode=capture)
        g.manual_seed(21)
        got = [f(zero).asnumpy(), f(zero).asnumpy()]
        assert all(np.array_equal(r, o) for r, o in zip(ref, got)), capture


def test_inplace_random_fills_write_the_tensor():
    ms.manual_seed(3)
    x = ms.Tensor(np.zeros((200,), np.float32))
    assert ops.uniform_(x, 2.0, 3.0) is x and 2.0 <= x.asnumpy().min() and x.asnumpy().max() < 3.0
    ops.normal_(x, 10.0, 0.5)
    assert abs(x.asnumpy().mean() - 10.0) < 0.2
    ops.exponential_(x, 4.0)
    assert x.asnumpy().min() >= 0 and abs(x.asnumpy().mean() - 0.25) < 0.1
    ops.bernoulli_(x, 0.25)
    assert set(np.unique(x.asnumpy())) <= {0.0, 1.0}
    i = ms.Tensor(np.zeros(50, np.int64))
    ops.random_(i, 3, 6)
    assert i.dtype is ms.int64 and set(np.unique(i.asnumpy())) <= {3, 4, 5}
    with pytest.raises(ValueError, match="must not exceed"):
        ops.uniform_(x, 3.0, 2.0)
    with pytest.raises(ValueError, match="one element"):
        ops.uniform_(x, ms.Tensor([0.0, 1.0]), 2.0)


@pytest.mark.parametrize("capture", ["ast", "bytecode"])
def test_a_generator_passed_into_jit(capture):
    def f(x, g):
        return mint.rand(3, generator=g) + x

    jf, zero = ms.jit(f, capture_mode=capture), ms.Tensor(0.0)
    g = ms.Generator().manual_seed(3)
    got = [jf(zero, g).asnumpy(), jf(zero, g).asnumpy()]
    g.manual_seed(3)
    assert all(np.array_equal(a, f(zero, g).asnumpy()) for a in got)
    other = ms.Generator().manual_seed(3)  # another generator: its own stream (the graph names its generator)
    assert np.array_equal(jf(zero, other).asnumpy(), got[0])
