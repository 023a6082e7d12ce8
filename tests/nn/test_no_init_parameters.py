"""nn.no_init_parameters / nn.utils.no_init_parameters: Parameters made from ``initializer(...)`` inside keep their
initializer (MindSpore 2.10: ``has_init`` True, ``init`` the initializer object, values drawn on first use, by
``init_parameters_data()`` or never when a checkpoint fills them)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn
from sprout.common.initializer import HeUniform, initializer


def _dense():
    with nn.no_init_parameters():
        return nn.Dense(3, 2)


def test_parameters_keep_their_initializer_until_used():
    net = _dense()
    w = net.weight
    assert isinstance(w, ms.Parameter) and w.has_init and isinstance(w.init, HeUniform)
    assert (w.shape, w.dtype, w.name) == ((2, 3), ms.float32, "weight")
    assert "shape=(2, 3)" in repr(w)
    assert net(Tensor(np.ones((1, 3), np.float32))).shape == (1, 2)  # running the net draws the values
    assert not w.has_init and w.init is None and w.asnumpy().shape == (2, 3)


def test_values_are_drawn_as_the_initializer_draws_them():
    net = _dense()
    ms.set_seed(3)
    net.init_parameters_data()
    ms.set_seed(3)
    eager = nn.Dense(3, 2)  # weight then bias, in the same order from the same seed
    np.testing.assert_array_equal(net.weight.asnumpy(), eager.weight.asnumpy())
    np.testing.assert_array_equal(net.bias.asnumpy(), eager.bias.asnumpy())


def test_a_checkpoint_fills_them_without_drawing(tmp_path):
    src = nn.Dense(3, 2)
    ms.save_checkpoint(src, str(tmp_path / "d.ckpt"))
    net = _dense()
    ms.load_checkpoint(str(tmp_path / "d.ckpt"), net)
    assert not net.weight.has_init and not net.bias.has_init
    np.testing.assert_array_equal(net.weight.asnumpy(), src.weight.asnumpy())
    net2 = _dense()
    with pytest.raises(ValueError, match="does not match"):
        net2.weight.set_data(Tensor(np.zeros((3, 3), np.float32)))
    assert net2.weight.has_init  # a refused set_data leaves it pending


def test_first_read_anywhere_draws_the_values():
    net = _dense()
    assert ms.jit(lambda x: net(x))(Tensor(np.ones((1, 3), np.float32))).shape == (1, 2)
    assert not net.weight.has_init
    with nn.no_init_parameters():
        p = ms.Parameter(initializer("ones", (2, 2)), name="p")
    assert p.has_init
    np.testing.assert_array_equal((p + 1).asnumpy(), np.full((2, 2), 2.0, np.float32))
    assert not p.has_init


def test_only_initializer_parameters_are_deferred():
    with nn.no_init_parameters():
        p = ms.Parameter(Tensor(np.ones(2, np.float32)), name="p")
    assert not p.has_init and p.init is None
    assert not initializer("zeros", (2,)).has_init  # outside the context
    assert nn.utils.no_init_parameters is nn.no_init_parameters
