"""Model.train / eval / fit / predict: hook order, cb_params, printed lines, errors, graph mode."""
import logging
import re

import numpy as np
import pytest

import sprout as ms
from sprout import nn
from sprout.train import Callback, EarlyStopping, History, LearningRateScheduler, LossMonitor, Model, TimeMonitor

from ._nets import X, Y, MLP, make_data, make_model


class Recorder(Callback):
    """Logs every hook Model calls (new names only: the legacy ones are called through them)."""

    def __init__(self):
        self.log = []

    def _rec(name):
        def hook(self, rc):
            cb = rc.original_args()
            self.log.append((name, cb.get("cur_epoch_num"), cb.cur_step_num))
        return hook

    for _n in ("on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
               "on_train_epoch_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_step_begin",
               "on_eval_step_end", "on_eval_epoch_end", "on_eval_end"):
        locals()[_n] = _rec(_n)
    del _n


def test_train_hook_order_and_counters():
    model, _, _ = make_model()
    rec = Recorder()
    model.train(2, make_data(batch=12), callbacks=rec)
    step = ["on_train_step_begin", "on_train_step_end"]
    names = [n for n, _, _ in rec.log]
    assert names == (["on_train_begin"] + (["on_train_epoch_begin"] + step * 2 + ["on_train_epoch_end"]) * 2
                     + ["on_train_end"])
    ends = [(e, s) for n, e, s in rec.log if n == "on_train_step_end"]
    assert ends == [(1, 1), (1, 2), (2, 3), (2, 4)]


def test_legacy_hooks_are_called_in_train_and_eval(caplog):
    calls = []

    class Old(Callback):
        def begin(self, rc):
            calls.append(("begin", rc.original_args().mode))

        def step_end(self, rc):
            calls.append(("step_end", rc.original_args().cur_step_num))

        def end(self, rc):
            calls.append(("end", rc.original_args().mode))

    model, _, _ = make_model(metrics={"mae"})
    with caplog.at_level(logging.WARNING, logger="sprout.train"):
        model.train(1, make_data(batch=12), callbacks=[Old()])
    assert "may not be supported in later version" in caplog.text
    model.eval(make_data(batch=24), callbacks=Old())
    assert calls == [("begin", "train"), ("step_end", 1), ("step_end", 2), ("end", "train"),
                     ("begin", "eval"), ("step_end", 1), ("end", "eval")]
    with pytest.raises(ValueError, match="methods may not be supported"):
        model.fit(1, make_data(), callbacks=[Old()])


def test_cb_params_fields():
    seen = {}

    class Grab(Callback):
        def on_train_step_end(self, rc):
            seen["train"] = dict(rc.original_args())

        def on_eval_end(self, rc):
            seen["eval"] = dict(rc.original_args())

    model, net, opt = make_model(metrics={"mae"})
    data = make_data()
    model.train(3, data, callbacks=[Grab()], initial_epoch=1)
    t = seen["train"]
    assert t["train_network"] is model.train_network and t["network"] is net and t["optimizer"] is opt
    assert isinstance(t["loss_fn"], nn.MSELoss) and t["train_dataset"] is data
    assert (t["epoch_num"], t["batch_num"], t["cur_epoch_num"], t["cur_step_num"]) == (2, 4, 3, 8)
    assert t["mode"] == "train" and t["dataset_sink_mode"] is False and isinstance(t["net_outputs"], ms.Tensor)
    assert len(t["train_dataset_element"]) == 2 and t["list_callback"][0].__class__ is Grab
    model.eval(data, callbacks=[Grab()])
    e = seen["eval"]
    assert e["eval_network"] is model.eval_network and e["valid_dataset"] is data and e["mode"] == "eval"
    assert e["batch_num"] == 4 and e["cur_step_num"] == 4 and set(e["metrics"]) == {"mae"}
    assert isinstance(e["net_outputs"], tuple) and len(e["net_outputs"]) == 3


def test_loss_monitor_and_time_monitor_lines(capsys):
    model, _, _ = make_model()
    model.train(2, make_data(), callbacks=[LossMonitor(3), TimeMonitor()])
    lines = capsys.readouterr().out.splitlines()
    loss_re = r"epoch: (\d+) step: (\d+), loss is (\d+\.\d+(e-?\d+)?)"
    time_re = r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms"
    assert [re.fullmatch(loss_re, ln).group(1, 2) if ln.startswith("epoch") else re.fullmatch(time_re, ln) is not None
            for ln in lines] == [("1", "3"), True, ("2", "2"), True]


def test_loss_monitor_value_is_the_step_loss(capsys):
    model, net, _ = make_model()
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    model.train(1, make_data(batch=24), callbacks=[LossMonitor()])
    w1, b1, w2, b2 = before
    pred = np.maximum(X @ w1.T + b1, 0) @ w2.T + b2
    want = float(np.float32(np.mean((pred - Y) ** 2)))
    printed = float(capsys.readouterr().out.split("loss is ")[1])
    assert printed == pytest.approx(want, rel=1e-5)


def test_request_stop_ends_training_after_the_step():
    class StopAt(Callback):
        def on_train_step_end(self, rc):
            if rc.original_args().cur_step_num == 3:
                rc.request_stop()

    model, _, _ = make_model()
    rec = Recorder()
    model.train(5, make_data(), callbacks=[StopAt(), rec])
    names = [n for n, _, _ in rec.log]
    assert names.count("on_train_step_end") == 3 and names[-2:] == ["on_train_epoch_end", "on_train_end"]


def test_eval_and_predict_match_numpy():
    model, net, _ = make_model(metrics={"mae", "mse", "loss"})
    out = model.predict(ms.Tensor(X))
    w1, b1, w2, b2 = [p.asnumpy() for p in net.trainable_params()]
    want = np.maximum(X @ w1.T + b1, 0) @ w2.T + b2
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)
    res = model.eval(make_data(batch=8))
    assert list(res) == ["loss", "mae", "mse"]
    assert res["mae"] == pytest.approx(np.abs(want - Y).sum() / len(Y), rel=1e-5)
    assert res["mse"] == pytest.approx(np.square(want - Y).sum() / len(Y), rel=1e-5)
    batch_losses = [np.mean((want[i:i + 8] - Y[i:i + 8]) ** 2) for i in range(0, 24, 8)]
    assert res["loss"] == pytest.approx(np.mean(batch_losses), rel=1e-5)


def test_custom_eval_network_and_indexes():
    net = MLP()

    class Eval(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x, y):
            return self.net(x), y

    from sprout.train import MAE
    model = Model(net, metrics={"mae": MAE()}, eval_network=Eval(net))
    res = model.eval(make_data())
    pred = model.predict(ms.Tensor(X)).asnumpy()
    assert res["mae"] == pytest.approx(np.abs(pred - Y).sum() / len(Y), rel=1e-5)
    with pytest.raises(ValueError, match="eval_indexes"):
        Model(net, metrics={"mae"}, eval_network=Eval(net), eval_indexes=[0, 1])


def test_fit_metrics_eval_results_and_history(capsys):
    got = []

    class Grab(Callback):
        def on_train_epoch_end(self, rc):
            cb = rc.original_args()
            got.append((cb.cur_epoch_num, cb.get("metrics"), cb.get("eval_results"), cb.mode, cb.batch_num))

    model, _, _ = make_model(metrics={"mae", "loss"})
    history = History()
    model.fit(4, make_data(), make_data(batch=10, n=20), valid_frequency=2,
              callbacks=[LossMonitor(100), TimeMonitor(), history, Grab()])
    assert [g[0] for g in got] == [1, 2, 3, 4] and got[0][1] is None and got[2][2] is None
    _, metrics, results, mode, batch_num = got[1]
    assert set(metrics) == {"loss", "mae"} and set(results) == {"loss", "mae", "eval_loss"}
    assert (mode, batch_num) == ("train", 4)
    out = capsys.readouterr().out.splitlines()
    assert sum(ln.startswith("Eval epoch time: ") for ln in out) == 2  # TimeMonitor takes part in evaluation
    assert [ln for ln in out if ln.startswith("Eval result")] == [
        f"Eval result: epoch {e}, metrics: {got[e - 1][1]}" for e in (2, 4)]
    assert history.epoch == {"epoch": [1, 2, 3, 4]} and len(history.history["net_output"]) == 4
    assert len(history.history["mae"]) == 2


def test_fit_eval_loss_is_last_validation_batch_loss():
    model, _, _ = make_model(metrics={"loss"})
    results = []

    class Grab(Callback):
        def on_train_epoch_end(self, rc):
            results.append(rc.original_args().eval_results)

    model.fit(1, make_data(), make_data(batch=10, n=20), callbacks=[Grab()])
    pred = model.predict(ms.Tensor(X[10:20])).asnumpy()
    assert results[0]["eval_loss"] == pytest.approx(np.mean((pred - Y[10:20]) ** 2), rel=1e-5)


def test_early_stopping_in_fit_and_restore_best_weights(capsys):
    model, net, _ = make_model(lr=0.3, metrics={"loss"})  # a large step: the eval loss soon gets worse
    losses, snapshots = [], []

    class Watch(Callback):
        def on_train_epoch_end(self, rc):
            losses.append(rc.original_args().eval_results["eval_loss"])
            snapshots.append(net.fc1.weight.asnumpy().copy())

    es = EarlyStopping(patience=1, verbose=True, restore_best_weights=True)
    model.fit(30, make_data(), make_data(batch=24), callbacks=[Watch(), es])
    stop = len(losses)
    assert stop < 30 and es.stopped_epoch == stop
    assert losses[-1] >= min(losses[:-1])  # the last epoch did not improve
    best = int(np.argmin(losses))
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), snapshots[best])
    out = capsys.readouterr().out
    assert "Restoring model weights from the end of the best epoch." in out
    assert f"Epoch {stop:05d}: early stopping" in out


def test_learning_rate_scheduler_updates_optimizer():
    model, _, opt = make_model(lr=0.1)
    model.train(2, make_data(), callbacks=[LearningRateScheduler(lambda lr, step: lr * 0.5 if step % 4 == 0 else lr)])
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.025)


def test_sink_mode_falls_back_like_mindspore_on_cpu():
    model, _, _ = make_model()
    rec = Recorder()
    seen = []

    class Grab(Callback):
        def on_train_step_end(self, rc):
            seen.append((rc.original_args().batch_num, rc.original_args().dataset_sink_mode))

    model.train(1, make_data(), callbacks=[rec, Grab()], dataset_sink_mode=True, sink_size=2)
    assert seen == [(2, False)] * 4  # every step runs; sink_size only sets batch_num (as MindSpore on CPU)


def test_model_argument_errors():
    net = MLP()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    with pytest.raises(ValueError, match="amp_level"):
        Model(net, nn.MSELoss(), opt, amp_level="O4")
    with pytest.raises(NotImplementedError, match="boost_level"):
        Model(net, nn.MSELoss(), opt, boost_level="O1")
    with pytest.raises(ValueError, match="kwargs"):
        Model(net, nn.MSELoss(), opt, bogus=1)
    with pytest.raises(ValueError, match="eval_network"):
        Model(net, metrics={"acc"})
    with pytest.raises(TypeError, match="Cell"):
        Model(lambda x: x)
    model = Model(net, nn.MSELoss(), opt)
    with pytest.raises(ValueError, match="metrics"):
        model.eval(make_data())
    with pytest.raises(ValueError, match="initial_epoch"):
        model.train(2, make_data(), initial_epoch=2)
    with pytest.raises(ValueError, match="epoch"):
        model.train(0, make_data())
    with pytest.raises(TypeError, match="Dataset"):
        model.train(1, [(X, Y)])
    with pytest.raises(TypeError, match="Callback"):
        model.train(1, make_data(), callbacks=[print])
    with pytest.raises(TypeError, match="input data"):
        model.predict(X)
    import sprout.dataset as ds
    three = ds.NumpySlicesDataset({"x": X, "y": Y, "z": Y}, shuffle=False).batch(6)
    with pytest.raises(ValueError, match="two elements"):
        model.train(1, three)


def test_model_without_optimizer_or_loss():
    net = MLP()
    model = Model(nn.WithLossCell(net, nn.MSELoss()), optimizer=nn.SGD(net.trainable_params(), 0.1))
    before = net.fc1.weight.asnumpy().copy()
    model.train(1, make_data())
    assert not np.array_equal(before, net.fc1.weight.asnumpy())
    frozen = Model(net, nn.MSELoss())  # loss only: computes the loss, changes nothing
    after = net.fc1.weight.asnumpy().copy()
    frozen.train(1, make_data())
    np.testing.assert_array_equal(after, net.fc1.weight.asnumpy())
    assert isinstance(frozen.train_network, nn.WithLossCell) and frozen.predict_network is net


def test_graph_mode_eval_and_predict_match_pynative():
    model, _, _ = make_model(metrics={"mae"})
    want_eval, want_pred = model.eval(make_data()), model.predict(ms.Tensor(X)).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    from sprout.jit import stats
    before = stats()["compiles"]
    assert model.eval(make_data()) == pytest.approx(want_eval)
    np.testing.assert_allclose(model.predict(ms.Tensor(X)).asnumpy(), want_pred, rtol=1e-6)
    assert stats()["compiles"] > before  # the steps ran as compiled graphs


def test_graph_mode_training_matches_pynative(capsys):
    eager, eager_net, eager_opt = make_model()
    eager.train(2, make_data(), callbacks=[LossMonitor()])
    eager_lines = capsys.readouterr().out
    ms.set_context(mode=ms.GRAPH_MODE)
    from sprout.jit import stats
    before = stats()["compiles"]
    graph, graph_net, graph_opt = make_model()
    graph.train(2, make_data(), callbacks=[LossMonitor()])
    assert stats()["compiles"] > before  # the train step ran as a compiled graph
    graph_lines = capsys.readouterr().out
    assert [ln.split(", loss is ")[0] for ln in graph_lines.splitlines()] == \
        [ln.split(", loss is ")[0] for ln in eager_lines.splitlines()]
    for a, b in zip(eager.train_network.trainable_params() + [eager_opt.global_step],
                    graph.train_network.trainable_params() + [graph_opt.global_step]):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


def test_classification_against_mindspore(capsys):
    """Dense(4, 3) + SoftmaxCrossEntropyWithLogits + Momentum from fixed weights. MindSpore 2.10 printed:
    epoch: 1 step: 2, loss is 0.9343889355659485 / epoch: 1 step: 4, loss is 1.337801456451416 /
    epoch: 2 step: 2, loss is 0.6359058022499084 / epoch: 2 step: 4, loss is 0.9331579208374023
    and evaluated {'acc': 0.7083333333333334, 'loss': 0.621078260242939, 'top_1_accuracy': 0.7083333333333334}."""
    import sprout.dataset as ds
    labels = np.argmax(X[:, :3], 1).astype(np.int32)
    weight = (np.random.RandomState(1).randn(3, 4) * 0.3).astype(np.float32)
    data = ds.NumpySlicesDataset({"x": X, "y": labels}, shuffle=False).batch(6)
    net = nn.Dense(4, 3, weight_init=ms.Tensor(weight), bias_init="zeros")
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9),
                  metrics={"acc", "loss", "top_1_accuracy"})
    model.train(2, data, callbacks=[LossMonitor(2)])
    lines = capsys.readouterr().out.splitlines()
    want = [(1, 2, 0.9343889355659485), (1, 4, 1.337801456451416), (2, 2, 0.6359058022499084),
            (2, 4, 0.9331579208374023)]
    assert len(lines) == 4
    for line, (epoch, step, value) in zip(lines, want):
        head, printed = line.split(", loss is ")
        assert head == f"epoch: {epoch} step: {step}"
        assert printed == repr(float(np.float32(printed))) and float(printed) == pytest.approx(value, rel=1e-5)
    res = model.eval(data)
    assert res["acc"] == res["top_1_accuracy"] == pytest.approx(0.7083333333333334)
    assert res["loss"] == pytest.approx(0.621078260242939, rel=1e-5)


def test_fit_hook_order_with_evaluation():
    model, _, _ = make_model(metrics={"mae"})
    rec = Recorder()
    model.fit(1, make_data(batch=12), make_data(batch=24), callbacks=[rec])
    assert [n for n, _, _ in rec.log] == [
        "on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end", "on_train_step_begin",
        "on_train_step_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_step_begin", "on_eval_step_end",
        "on_eval_epoch_end", "on_eval_end", "on_train_epoch_end", "on_train_end"]
    # during evaluation cur_step_num counts evaluation steps; the train counters come back afterwards
    assert rec.log[8][2] == 1 and rec.log[-2][2] == 2
