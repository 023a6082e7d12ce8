"""sprout.train.metrics: values against NumPy references (and figures MindSpore 2.10 printed)."""
import numpy as np
import pytest

from sprout import Tensor
from sprout.train import (MAE, MSE, Accuracy, Loss, Metric, Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                          TopKCategoricalAccuracy, get_metric_fn, get_metrics, names)

rng = np.random.RandomState(3)
P1 = rng.randn(7, 6).astype(np.float32)
Y1 = rng.randint(0, 6, 7)
P2 = rng.randn(5, 6).astype(np.float32)
Y2 = rng.randint(0, 6, 5)
P = np.concatenate([P1, P2])
Y = np.concatenate([Y1, Y2])


def test_accuracy_two_batches():
    acc = Accuracy()
    acc.update(Tensor(P1), Tensor(Y1))
    acc.update(P2, Y2)
    want = np.mean(P.argmax(1) == Y)
    assert acc.eval() == pytest.approx(want) == pytest.approx(0.25)  # 0.25 from MindSpore
    assert isinstance(acc.eval(), float)


def test_accuracy_onehot_and_multilabel():
    acc = Accuracy()
    acc.update(P1, np.eye(6)[Y1])
    assert acc.eval() == pytest.approx(np.mean(P1.argmax(1) == Y1))
    ml = Accuracy("multilabel")
    ml.update(np.array([[0, 1, 1], [1, 0, 1]]), np.array([[0, 1, 1], [1, 1, 1]]))
    assert ml.eval() == 0.5
    with pytest.raises(ValueError, match="0 or 1"):
        ml.update(np.array([[0.5, 1, 1]]), np.array([[0, 1, 1]]))


def test_accuracy_errors():
    acc = Accuracy()
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        acc.eval()
    with pytest.raises(ValueError, match="2 inputs"):
        acc.update(P1)
    with pytest.raises(ValueError, match="shape"):
        acc.update(P1, Y2)
    acc.update(P1, Y1)
    with pytest.raises(ValueError, match="class number not match"):
        acc.update(P1[:, :3], Y1 % 3)
    with pytest.raises(TypeError, match="eval_type"):
        Accuracy("regression")
    with pytest.raises(TypeError, match="tensor, list or numpy"):
        Accuracy().update((1, 2), (1,))


@pytest.mark.parametrize("k,ms_value", [(1, 0.25), (2, 0.5), (5, 0.75)])
def test_topk(k, ms_value):
    metric = TopKCategoricalAccuracy(k)
    metric.update(P1, Y1)
    metric.update(Tensor(P2), Tensor(Y2))
    top = np.argsort(-P, axis=1)[:, :k]
    want = np.mean([Y[i] in top[i] for i in range(len(Y))])
    assert metric.eval() == pytest.approx(want) == pytest.approx(ms_value)


def test_top1_top5_and_k_checks():
    assert Top1CategoricalAccuracy().k == 1 and Top5CategoricalAccuracy().k == 5
    with pytest.raises(ValueError):
        TopKCategoricalAccuracy(0)
    with pytest.raises(TypeError):
        TopKCategoricalAccuracy(1.5)


def test_mae_mse():
    mae, mse = MAE(), MSE()
    for p in (P1, P2):
        mae.update(Tensor(p[:, :2]), Tensor(p[:, 2:4]))
        mse.update(p[:, :2], p[:, 2:4])
    diff = P[:, 2:4] - P[:, :2]
    assert mae.eval() == pytest.approx(np.abs(diff).sum() / len(P), rel=1e-6)
    assert mae.eval() == pytest.approx(2.4287314414978027, rel=1e-6)
    assert mse.eval() == pytest.approx(np.square(diff).sum() / len(P), rel=1e-6)
    assert mse.eval() == pytest.approx(4.504379590352376, rel=1e-6)


def test_loss_metric():
    loss = Loss()
    loss.update(Tensor(np.float32(0.5)))
    loss.update(np.array([1.0, 2.0], np.float32))
    assert loss.eval() == 1.0
    with pytest.raises(ValueError, match="dimension"):
        loss.update(np.ones((2, 2)))


def test_call_set_indexes_and_custom_metric():
    acc = Accuracy().set_indexes([1, 2])
    assert acc(np.zeros(1), P1, Y1) == pytest.approx(np.mean(P1.argmax(1) == Y1))

    class Count(Metric):
        def clear(self):
            self.n = 0

        def update(self, *inputs):
            self.n += len(inputs)

        def eval(self):
            return self.n

    assert Count()(1, 2, 3) == 3
    with pytest.raises(NotImplementedError):
        Metric().eval()


def test_lookup_by_name():
    assert isinstance(get_metric_fn("acc"), Accuracy) and isinstance(get_metric_fn("top_5_accuracy"),
                                                                     Top5CategoricalAccuracy)
    assert get_metric_fn("topk", 3).k == 3
    assert list(get_metrics({"mae", "acc", "loss"})) == ["acc", "loss", "mae"]
    assert {"acc", "accuracy", "loss", "mae", "mse", "topk"} <= set(names())
    with pytest.raises(KeyError, match="unsupported metric"):
        get_metric_fn("f1_macro")
    with pytest.raises(TypeError):
        get_metrics(["acc"])
    with pytest.raises(TypeError):
        get_metrics({"acc": "acc"})
