"""Loss scalers, managers, update cells and TrainOneStepWithLossScaleCell (sequences from MindSpore 2.10)."""
import os

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, amp, nn

FIX = np.load(os.path.join(os.path.dirname(__file__), "fixtures", "amp_mindspore.npz"))
PATTERN = [bool(v) for v in FIX["pattern"]]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_dynamic_update_cell_sequence(mode):
    ms.set_context(mode=mode)
    upd = nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 4, scale_factor=2, scale_window=3)
    scale = ms.Parameter(Tensor(16.0, ms.float32), name="s")
    seq = []
    for ov in PATTERN:
        assert bool(upd(scale, Tensor(ov)).asnumpy()) == ov
        seq.append(float(scale.asnumpy()))
    np.testing.assert_array_equal(seq, FIX["update_cell_scales"])


def test_dynamic_scaler_and_manager_sequences():
    scaler = amp.DynamicLossScaler(scale_value=16, scale_factor=2, scale_window=3)
    states = []
    for ov in PATTERN:
        assert scaler.adjust(Tensor(not ov)) is True
        states.append((float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy())))
    np.testing.assert_array_equal(np.array(states, np.float32), FIX["scaler_states"])
    manager = amp.DynamicLossScaleManager(16, 2, 3)
    seq = []
    for ov in PATTERN:
        manager.update_loss_scale(ov)
        seq.append(manager.get_loss_scale())
    np.testing.assert_array_equal(seq, FIX["manager_scales"])
    assert isinstance(manager.get_update_cell(), nn.DynamicLossScaleUpdateCell)
    assert amp.FixedLossScaleManager(8.0, False).get_update_cell() is None


def test_static_scaler_and_all_finite():
    s = amp.StaticLossScaler(1024)
    np.testing.assert_array_equal(s.scale(Tensor([1.0])).asnumpy(), [1024.0])
    g = s.unscale((Tensor(np.array([1.5, 1.0]), ms.float16),))
    assert g[0].dtype == ms.float16
    np.testing.assert_array_equal(g[0].asnumpy(), np.array([1.4648e-03, 9.7656e-04], np.float16))
    assert s.adjust(Tensor(True)) is False
    assert not bool(amp.all_finite((Tensor(np.array([1.0, np.inf], np.float32)), Tensor([1.0]))).asnumpy())
    assert bool(amp.all_finite([Tensor([1.0, 2.0])]).asnumpy())
    assert amp.all_finite([Tensor([1.0])]).dtype == ms.bool_
    with pytest.raises(ValueError):
        amp.StaticLossScaler(0.5)
    with pytest.raises(ValueError):
        amp.DynamicLossScaler(16, 0, 3)


def test_scaler_inside_jit():
    scaler = amp.DynamicLossScaler(scale_value=8, scale_factor=2, scale_window=1)

    @ms.jit
    def step(g):
        g = scaler.unscale(g)
        finite = amp.all_finite(g)
        scaler.adjust(finite)
        return finite

    assert bool(step(Tensor([1.0, 2.0])).asnumpy()) and float(scaler.scale_value.asnumpy()) == 16.0
    assert not bool(step(Tensor([np.inf, 2.0])).asnumpy()) and float(scaler.scale_value.asnumpy()) == 8.0


def _train_cell(scale_sense):
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    opt = nn.SGD(net.trainable_params(), 0.1)
    return net, nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, scale_sense=scale_sense)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_overflow_skips_the_update_and_lowers_the_scale(mode):
    ms.set_context(mode=mode)
    net, train = _train_cell(nn.DynamicLossScaleUpdateCell(2 ** 12, 2, 2))
    x, y = Tensor(np.ones((4, 3), np.float32)), Tensor(np.zeros((4, 2), np.float32))
    bad = Tensor(np.full((4, 3), np.inf, np.float32))
    scales, overflow, weights = [], [], []
    with np.errstate(all="ignore"):
        for i in range(5):
            loss, cond, scale = train(bad if i == 2 else x, y)
            scales.append(float(scale.asnumpy()))
            overflow.append(bool(cond.asnumpy()))
            weights.append(net.weight.asnumpy().copy())
    assert overflow == [False, False, True, False, False]
    assert scales == [4096.0, 4096.0, 8192.0, 4096.0, 4096.0]
    np.testing.assert_array_equal(weights[2], weights[1])  # the overflowed step changed nothing
    assert not np.array_equal(weights[3], weights[2])


def test_loss_scale_cell_equals_unscaled_training():
    # with a finite scale, the scaled step gives the same update as a plain step (scale is a power of two)
    net1, train = _train_cell(Tensor(np.float32(1024.0)))
    ms.set_seed(0)
    net2 = nn.Dense(3, 2)
    plain = nn.TrainOneStepCell(nn.WithLossCell(net2, nn.MSELoss()), nn.SGD(net2.trainable_params(), 0.1))
    x, y = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10), Tensor(np.ones((4, 2), np.float32))
    for _ in range(3):
        loss1, _, _ = train(x, y)
        loss2 = plain(x, y)
        np.testing.assert_allclose(loss1.asnumpy(), loss2.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(net1.weight.asnumpy(), net2.weight.asnumpy(), rtol=1e-6)
    train.set_sense_scale(Tensor(np.float32(8.0)))
    assert float(train.scale_sense.asnumpy()) == 8.0
    with pytest.raises(ValueError):
        nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net1, nn.MSELoss()), nn.SGD(net1.trainable_params()),
                                         scale_sense=Tensor(np.ones(2, np.float32)))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_model_amp_o2_with_dynamic_manager(mode):
    ms.set_context(mode=mode)
    ms.set_seed(1)
    net = nn.SequentialCell([nn.Dense(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 3)])
    manager = ms.DynamicLossScaleManager(init_loss_scale=2 ** 18, scale_factor=2, scale_window=1000)
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"acc"}, amp_level="O2",
                     loss_scale_manager=manager)
    assert isinstance(model.train_network, nn.TrainOneStepWithLossScaleCell)
    rng = np.random.default_rng(0)
    data = rng.standard_normal((64, 4)).astype(np.float32)
    label = (data[:, 0] > 0).astype(np.int32) + (data[:, 1] > 0).astype(np.int32)
    ds = ms.dataset.NumpySlicesDataset((data, label), column_names=["x", "y"], shuffle=False).batch(16)
    with np.errstate(all="ignore"):
        model.train(8, ds)
    # 2**18 overflows float16 gradients: the scale came down to where float16 holds them, updates resumed
    assert manager.get_loss_scale() < 2 ** 18
    assert float(model.train_network.scale_sense.asnumpy()) == manager.get_loss_scale()
    assert model.eval(ds)["acc"] > 0.6
