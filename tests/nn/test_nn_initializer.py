"""Initializers: distributions and bounds as MindSpore defines them, aliases, determinism under set_seed."""
import math

import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, nn
from sprout.common.initializer import (Constant, HeNormal, HeUniform, Identity, Normal, One, TruncatedNormal,
                                       Uniform, XavierNormal, Zero, initializer)


def _arr(init, shape, dtype=ms.float32):
    t = initializer(init, shape, dtype)
    want = (shape,) if isinstance(shape, int) else tuple(shape)
    assert isinstance(t, Tensor) and t.shape == want and t.dtype == dtype
    return t.asnumpy()


def test_constant_like_initializers():
    np.testing.assert_array_equal(_arr("zeros", (2, 3)), np.zeros((2, 3)))
    np.testing.assert_array_equal(_arr(One(), [4]), np.ones(4))
    np.testing.assert_array_equal(_arr(Zero(), 3), np.zeros(3))
    np.testing.assert_array_equal(_arr(1.5, (2,)), [1.5, 1.5])
    np.testing.assert_array_equal(_arr(Constant(2), (2,), ms.int32), [2, 2])
    np.testing.assert_array_equal(_arr(Identity(), (2, 3)), np.eye(2, 3))
    t = Tensor(np.ones((2, 2), np.float32))
    assert initializer(t, (2, 2)) is t
    with pytest.raises(ValueError):
        initializer(t, (3, 2))
    with pytest.raises(ValueError):
        initializer("nope", (2,))
    with pytest.raises(ValueError):
        initializer("ones", (0, 2))
    with pytest.raises(TypeError):
        initializer([1, 2], (2,))


def test_random_initializers_have_mindspore_scales():
    ms.set_seed(1)
    shape = (200, 300)  # fan_in 300, fan_out 200
    u = _arr(Uniform(), shape)
    assert np.abs(u).max() <= 0.07 and np.abs(u).max() > 0.069
    n = _arr("normal", shape)
    assert abs(n.std() - 0.01) < 5e-4 and abs(n.mean()) < 5e-4
    tn = _arr(TruncatedNormal(sigma=1.0, a=-0.5, b=0.5), (10000,))
    assert tn.min() >= -0.5 and tn.max() <= 0.5 and 0.25 < tn.std() < 0.32  # MindSpore: std 0.284
    bound = math.sqrt(6.0 / 500)
    xu = _arr("xavier_uniform", shape)
    assert np.abs(xu).max() <= bound and np.abs(xu).max() > 0.98 * bound
    assert abs(_arr(XavierNormal(gain=2), shape).std() - 2 * math.sqrt(2.0 / 500)) < 3e-3
    hu = _arr(HeUniform(), shape)  # leaky_relu with slope 0: gain sqrt(2), bound sqrt(6 / fan_in)
    assert np.abs(hu).max() <= math.sqrt(6.0 / 300) and np.abs(hu).max() > 0.98 * math.sqrt(6.0 / 300)
    hn = _arr(HeNormal(mode="fan_out", nonlinearity="relu"), shape)
    assert abs(hn.std() - math.sqrt(2.0 / 200)) < 3e-3
    conv = _arr("he_uniform", (8, 4, 3, 3))  # receptive field counts in the fan
    assert np.abs(conv).max() <= math.sqrt(6.0 / 36)
    assert _arr(Normal(sigma=0.1, mean=3.0), (1000,), ms.float64).mean() == pytest.approx(3.0, abs=0.02)


def test_set_seed_makes_init_deterministic():
    ms.set_seed(7)
    a = nn.Dense(5, 4).weight.asnumpy().copy()
    ms.set_seed(7)
    b = nn.Dense(5, 4).weight.asnumpy().copy()
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, nn.Dense(5, 4).weight.asnumpy())


def test_layer_default_inits_match_mindspore_bounds():
    d = nn.Dense(100, 3)  # MindSpore 2.10: weight HeUniform(sqrt(5)) -> 1/sqrt(100); bias U(1/sqrt(100))
    assert np.abs(d.weight.asnumpy()).max() <= 0.1 and np.abs(d.bias.asnumpy()).max() <= 0.1
    assert np.abs(d.weight.asnumpy()).max() > 0.09
    c = nn.Conv2d(3, 4, 3, has_bias=True)
    assert c.weight.shape == (4, 3, 3, 3) and np.abs(c.weight.asnumpy()).max() <= 1 / math.sqrt(27)
    assert np.abs(c.bias.asnumpy()).max() <= 1 / math.sqrt(27)
    assert nn.Conv2d(3, 4, 3).bias is None
    e = nn.Embedding(50, 100)
    assert abs(e.embedding_table.asnumpy().std() - 0.01) < 1e-3
    bn = nn.BatchNorm2d(3)
    np.testing.assert_array_equal(bn.gamma.asnumpy(), np.ones(3))
    np.testing.assert_array_equal(bn.moving_variance.asnumpy(), np.ones(3))
    assert bn.moving_mean.requires_grad is False and bn.moving_mean.name == "mean"
    p = Parameter(initializer("ones", [2, 2], ms.float16))
    assert p.dtype == ms.float16
    ln = nn.LayerNorm((4,))
    assert ln.epsilon == 1e-7 and ln.gamma.name == "gamma"


def test_tensor_init_argument_and_custom_initializer():
    class Twos(ms.common.initializer.Initializer):
        def _initialize(self, arr):
            arr.fill(2)

    t = Tensor(shape=(2, 3), dtype=ms.float32, init=Twos())
    np.testing.assert_array_equal(t.asnumpy(), np.full((2, 3), 2.0))
    np.testing.assert_array_equal(initializer(Twos(), (2,)).asnumpy(), [2.0, 2.0])
