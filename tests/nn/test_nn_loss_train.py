"""Losses against MindSpore 2.10 values, the training wrappers, and small MLPs that learn."""
import json
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

REF = {k: np.array(v) for k, v in json.loads((Path(__file__).parent / "fixtures" / "mindspore_layers.json")
                                              .read_text()).items()}
LOGITS = np.array([[1.0, 2.0, 0.5, -1.0], [0.3, -0.2, 2.5, 1.0], [0.0, 0.0, 0.0, 3.0]], np.float32)
LABELS = np.array([1, 2, 3], np.int32)
ONE_HOT = np.eye(4, dtype=np.float32)[[0, 2, 1]] * 0.8 + 0.05
TARGET = np.array([[1.0, 0.0, 0.5, 1.0], [0.0, 1.0, 1.0, 0.2], [0.3, 0.3, 0.0, 1.0]], np.float32)
CLASS_W = Tensor(np.array([1.0, 2.0, 0.5, 1.5], np.float32))
POS_W = Tensor(np.array([2., 1., 1., 3.], np.float32))
IGNORED = Tensor(np.array([1, -100, 3], np.int32))


def check(name, value, atol=2e-5):
    np.testing.assert_allclose(value.asnumpy(), REF[name], rtol=1e-4, atol=atol, err_msg=name)


def test_regression_losses():
    lg, tg = Tensor(LOGITS), Tensor(TARGET)
    check("mse_mean", nn.MSELoss()(lg, tg))
    check("l1_sum", nn.L1Loss(reduction="sum")(lg, tg))
    check("smoothl1_none", nn.SmoothL1Loss(beta=0.5)(lg, tg))
    base = nn.LossBase(reduction="sum")
    w = Tensor(np.array([[2.0], [0.0], [1.0]], np.float32))
    np.testing.assert_allclose(base.get_loss(tg, w).asnumpy(), (TARGET * w.asnumpy()).sum(), rtol=1e-6)
    with pytest.raises(ValueError):
        nn.MSELoss(reduction="avg")


def test_softmax_cross_entropy_with_logits():
    lg = Tensor(LOGITS)
    check("sce_sparse_mean", nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(lg, Tensor(LABELS)))
    check("sce_sparse_sum", nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="sum")(lg, Tensor(LABELS)))
    check("sce_dense_none", nn.SoftmaxCrossEntropyWithLogits()(lg, Tensor(ONE_HOT)))
    g = ops.grad(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))(lg, Tensor(LABELS))
    check("sce_grad", g)


def test_cross_entropy_and_nll():
    lg = Tensor(LOGITS)
    check("ce_mean", nn.CrossEntropyLoss()(lg, Tensor(LABELS)))
    check("ce_weight_ignore", nn.CrossEntropyLoss(weight=CLASS_W)(lg, IGNORED))
    check("ce_weight_none", nn.CrossEntropyLoss(weight=CLASS_W, reduction="none")(lg, IGNORED))
    check("ce_smooth", nn.CrossEntropyLoss(label_smoothing=0.2)(lg, Tensor(LABELS)))
    check("ce_smooth_weight_sum",
          nn.CrossEntropyLoss(weight=CLASS_W, label_smoothing=0.1, reduction="sum")(lg, Tensor(LABELS)))
    check("ce_probs", nn.CrossEntropyLoss()(lg, Tensor(ONE_HOT)))
    check("ce_grad", ops.grad(nn.CrossEntropyLoss(weight=CLASS_W, label_smoothing=0.1))(lg, IGNORED))
    log_p = ops.log_softmax(lg, 1)
    check("nll_mean", nn.NLLLoss()(log_p, Tensor(LABELS)))
    check("nll_weight_ignore", nn.NLLLoss(weight=CLASS_W, ignore_index=3)(log_p, Tensor(LABELS)))


def test_binary_cross_entropy():
    lg, tg = Tensor(LOGITS), Tensor(TARGET)
    check("bcel_mean", nn.BCEWithLogitsLoss()(lg, tg))
    weight = Tensor(np.array([1., 2., 1., .5], np.float32))
    check("bcel_w_pw_none", nn.BCEWithLogitsLoss(reduction="none", weight=weight, pos_weight=POS_W)(lg, tg))
    check("bce_mean", nn.BCELoss()(Tensor(1 / (1 + np.exp(-LOGITS))), tg))


def test_binary_cross_entropy_gradient():
    check("bcel_grad", ops.grad(nn.BCEWithLogitsLoss(pos_weight=POS_W))(Tensor(LOGITS), Tensor(TARGET)))


def _regression_data(n=64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    y = (np.sin(x[:, :1] * 2) + x[:, 1:2] * x[:, 2:3]).astype(np.float32)
    return Tensor(x), Tensor(y)


def _mlp():
    return nn.SequentialCell(nn.Dense(4, 16), nn.ReLU(), nn.Dense(16, 16), nn.Tanh(), nn.Dense(16, 1))


@pytest.mark.parametrize("make_opt", [
    lambda p: nn.SGD(p, 0.1, momentum=0.9),
    lambda p: nn.Momentum(p, 0.05, 0.9),
    lambda p: nn.Adam(p, 0.01),
    lambda p: nn.AdamWeightDecay(p, 0.01, weight_decay=1e-4),
])
def test_mlp_training_lowers_the_loss(make_opt):
    ms.set_seed(0)
    x, y = _regression_data()
    net = _mlp()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), make_opt(net.trainable_params()))
    train.set_train()
    losses = [float(train(x, y).asnumpy()) for _ in range(150)]
    assert losses[-1] < 0.25 * losses[0], (losses[0], losses[-1])
    eval_loss, out, label = nn.WithEvalCell(net, nn.MSELoss())(x, y)
    assert out.shape == (64, 1) and label is y
    assert float(eval_loss.asnumpy()) == pytest.approx(float(nn.MSELoss()(net(x), y).asnumpy()), rel=1e-6)


def test_train_one_step_matches_a_hand_written_step():
    ms.set_seed(1)
    x, y = _regression_data(16, seed=1)
    net = nn.Dense(4, 1)
    w0, b0 = net.weight.asnumpy().copy(), net.bias.asnumpy().copy()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1), sens=2.0)
    loss = train(x, y)
    xa, ya = x.asnumpy(), y.asnumpy()
    err = xa @ w0.T + b0 - ya
    np.testing.assert_allclose(loss.asnumpy(), (err ** 2).mean(), rtol=1e-5)
    gw = 2.0 * (2 * err * xa).mean(0, keepdims=True)  # sens scales the gradients
    np.testing.assert_allclose(net.weight.asnumpy(), w0 - 0.1 * gw, rtol=1e-5)
    np.testing.assert_allclose(net.bias.asnumpy(), b0 - 0.1 * 2.0 * (2 * err).mean(0), rtol=1e-5)
    train2 = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.0),
                                 return_grad=True)
    _, grads = train2(x, y)
    assert sorted(grads) == ["bias", "weight"]
    with pytest.raises(ValueError):
        nn.TrainOneStepCell(net, nn.SGD(net.trainable_params()), sens=0)
    (gw2, gb2) = nn.WithGradCell(net, nn.MSELoss())(x, y)
    np.testing.assert_allclose(gw2.asnumpy(), grads["weight"].asnumpy(), rtol=1e-6)


def test_train_step_parameter_names():
    net = _mlp()
    opt = nn.Adam(net.trainable_params())
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    names = [n for n, _ in train.parameters_and_names()]
    assert names[:6] == ["0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"]
    assert "optimizer.moment1.0.weight" in names and "optimizer.beta1_power" in names


def test_classifier_with_batchnorm_and_dropout_learns():
    ms.set_seed(2)
    rng = np.random.default_rng(2)
    centers = rng.normal(size=(3, 8)) * 3
    labels = rng.integers(0, 3, 96)
    x = Tensor((centers[labels] + rng.normal(size=(96, 8))).astype(np.float32))
    y = Tensor(labels.astype(np.int32))
    net = nn.SequentialCell(nn.Dense(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(p=0.1), nn.Dense(32, 3))
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    train.set_train()
    first = float(train(x, y).asnumpy())
    for _ in range(60):
        last = float(train(x, y).asnumpy())
    assert last < 0.2 * first
    net.set_train(False)
    acc = (net(x).asnumpy().argmax(1) == labels).mean()
    assert acc > 0.95
    assert np.abs(net[1].moving_mean.asnumpy()).sum() > 0  # running statistics were updated


@pytest.mark.parametrize("make_opt", [
    lambda p: nn.SGD(p, 0.05, momentum=0.9),
    lambda p: nn.Adam(p, 0.01),
    lambda p: nn.Momentum(p, [0.1, 0.05, 0.05], 0.9),
])
def test_graph_mode_train_step_matches_pynative(make_opt):
    """The whole TrainOneStepCell (forward, BatchNorm statistics, backward, fused optimizer update, lr list)
    run as one compiled graph gives the eager numbers and state."""
    def run(mode):
        ms.set_context(mode=mode)
        try:
            ms.set_seed(0)
            net = nn.SequentialCell([nn.Dense(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 3)])
            opt = make_opt(net.trainable_params())
            loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
            train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt).set_train()
            x = Tensor(np.random.default_rng(0).normal(size=(16, 4)).astype(np.float32))
            y = Tensor(np.arange(16, dtype=np.int32) % 3)
            losses = [float(train(x, y).asnumpy()) for _ in range(3)]
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        return losses, net[1].moving_mean.asnumpy(), net[0].weight.asnumpy(), opt.global_step.asnumpy()

    eager, graph = run(ms.PYNATIVE_MODE), run(ms.GRAPH_MODE)
    for a, b in zip(eager, graph):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    assert eager[3].tolist() == [3] and eager[0][-1] < eager[0][0]
