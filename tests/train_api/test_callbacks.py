"""Callbacks in isolation (hand-made cb_params): dispatch, printed formats, EarlyStopping, History ..."""
import re

import numpy as np
import pytest

from sprout import Tensor
from sprout.train import (Callback, CheckpointConfig, EarlyStopping, History, LambdaCallback, LossMonitor,
                          ModelCheckpoint, ProgressBar, RunContext, TimeMonitor)
from sprout.train.callback import _CallbackManager, _InternalCallbackParam


def params(**fields):
    cb = _InternalCallbackParam()
    cb.update(dict(cur_epoch_num=1, cur_step_num=1, batch_num=4, epoch_num=2, mode="train",
                   dataset_sink_mode=False, net_outputs=Tensor(np.float32(1.0))))
    cb.update(fields)
    return cb


def test_run_context_and_cb_params():
    cb = params()
    rc = RunContext(cb)
    assert rc.original_args() is cb and cb.cur_step_num == 1 and cb["mode"] == "train"
    cb.extra = 3
    assert cb["extra"] == 3
    with pytest.raises(AttributeError, match="no field 'missing'"):
        _ = cb.missing
    assert not rc.get_stop_requested()
    rc.request_stop()
    assert rc.get_stop_requested()
    with pytest.raises(TypeError, match="dict"):
        RunContext([1])


def test_new_hooks_fall_back_to_legacy_names():
    calls = []

    class Legacy(Callback):
        def begin(self, rc):
            calls.append("begin")

        def step_end(self, rc):
            calls.append("step_end")

    class New(Callback):
        def on_train_step_end(self, rc):
            calls.append("on_train_step_end")

        def on_eval_begin(self, rc):
            calls.append("on_eval_begin")

    with _CallbackManager([Legacy(), New()]) as manager:
        rc = RunContext(params())
        manager.on_train_begin(rc)
        manager.on_train_step_end(rc)
        manager.on_eval_begin(rc)
        manager.on_train_end(rc)
    assert calls == ["begin", "step_end", "on_train_step_end", "begin", "on_eval_begin"]


def test_manager_enters_and_exits_callbacks():
    log = []

    class Ctx(Callback):
        def __enter__(self):
            log.append("enter")
            return self

        def __exit__(self, *exc):
            log.append("exit")

    with _CallbackManager(Ctx()):
        log.append("body")
    assert log == ["enter", "body", "exit"]
    with pytest.raises(TypeError, match="Callback"):
        _CallbackManager([object()])
    with pytest.raises(TypeError, match="Callback"):
        _CallbackManager(3)


def test_loss_monitor_exact_line(capsys):
    # MindSpore 2.10 printed "epoch: 1 step: 2, loss is 1.0388481616973877" for this float32 loss
    monitor = LossMonitor()
    rc = RunContext(params(cur_step_num=2, net_outputs=Tensor(np.float32(1.0388481616973877))))
    monitor.on_train_step_end(rc)
    assert capsys.readouterr().out == "epoch: 1 step: 2, loss is 1.0388481616973877\n"


def test_loss_monitor_per_print_times_and_step_in_epoch(capsys):
    monitor = LossMonitor(per_print_times=3)
    for step in range(1, 9):
        epoch = (step - 1) // 4 + 1
        monitor.on_train_step_end(RunContext(params(cur_step_num=step, cur_epoch_num=epoch,
                                                    net_outputs=Tensor(np.float32(step)))))
    assert capsys.readouterr().out.splitlines() == ["epoch: 1 step: 3, loss is 3.0", "epoch: 2 step: 2, loss is 6.0"]
    # a new train() call restarts cur_step_num; the monitor keeps printing
    monitor.on_train_step_end(RunContext(params(cur_step_num=1)))
    monitor.on_train_step_end(RunContext(params(cur_step_num=3)))
    assert capsys.readouterr().out.splitlines() == ["epoch: 1 step: 3, loss is 1.0"]


def test_loss_monitor_tuple_output_nan_and_args(capsys):
    LossMonitor().on_train_step_end(RunContext(params(net_outputs=(Tensor(np.float32(0.5)), Tensor(True)))))
    assert capsys.readouterr().out.startswith("epoch: 1 step: 1, loss is ")
    LossMonitor(0).on_train_step_end(RunContext(params()))
    assert capsys.readouterr().out == ""
    with pytest.raises(ValueError, match="NAN or INF"):
        LossMonitor().on_train_step_end(RunContext(params(net_outputs=Tensor(np.float32(np.nan)))))
    with pytest.raises(ValueError):
        LossMonitor(-1)


def test_loss_monitor_prints_fit_metrics(capsys):
    LossMonitor().on_train_epoch_end(RunContext(params(cur_epoch_num=3, metrics={"acc": 0.5})))
    assert capsys.readouterr().out == "Eval result: epoch 3, metrics: {'acc': 0.5}\n"


TIME_LINE = re.compile(r"^(Train|Eval) epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms\n$")


def test_time_monitor_line(capsys):
    tm = TimeMonitor()
    rc = RunContext(params())
    tm.on_train_epoch_begin(rc)
    tm.on_train_epoch_end(rc)
    out = capsys.readouterr().out
    assert TIME_LINE.match(out), out
    tm.on_eval_epoch_begin(RunContext(params(mode="eval")))
    tm.on_eval_epoch_end(RunContext(params(mode="eval")))
    assert capsys.readouterr().out.startswith("Eval epoch time: ")
    with_data = TimeMonitor(data_time=True)
    with_data.on_train_epoch_begin(rc)
    with_data.on_train_step_begin(rc)
    with_data.on_train_step_end(rc)
    with_data.on_train_epoch_end(rc)
    assert re.match(r"^Train epoch time: .* ms \(data time: \d+\.\d{3} ms\)\n$", capsys.readouterr().out)


def test_time_monitor_data_size():
    tm = TimeMonitor(data_size=5)
    cb = params()
    del cb["batch_num"]
    tm.on_train_epoch_end(RunContext(cb))  # uses data_size
    with pytest.raises(ValueError):
        TimeMonitor(data_size=0)
    with pytest.raises(ValueError, match="data_size"):
        TimeMonitor().on_train_epoch_end(RunContext(cb))


def run_early_stopping(es, values, key="eval_loss"):
    """Feed one monitored value per epoch; returns the epoch at which stop was requested (or None)."""
    rc = RunContext(params())
    es.on_train_begin(rc)
    for epoch, value in enumerate(values, 1):
        cb = rc.original_args()
        cb.cur_epoch_num = epoch
        cb.eval_results = {key: value}
        es.on_train_epoch_end(rc)
        if rc.get_stop_requested():
            return epoch
    return None


def test_early_stopping_patience_and_modes(capsys):
    assert run_early_stopping(EarlyStopping(patience=2), [1.0, 0.9, 0.95, 0.93, 0.8]) == 4
    assert run_early_stopping(EarlyStopping(patience=0), [1.0]) == 1  # patience 0 stops at once (as MindSpore)
    assert run_early_stopping(EarlyStopping(monitor="acc", patience=1), [0.5, 0.6, 0.7], key="acc") is None
    assert run_early_stopping(EarlyStopping(monitor="acc", patience=1), [0.5, 0.6, 0.6], key="acc") == 3
    assert run_early_stopping(EarlyStopping(monitor="acc", mode="min", patience=1), [0.5, 0.6], key="acc") == 2
    assert run_early_stopping(EarlyStopping(patience=1, min_delta=0.2), [1.0, 0.9]) == 2
    # baseline: improving the best is not enough while the value has not beaten the baseline
    assert run_early_stopping(EarlyStopping(patience=2, baseline=0.5), [1.0, 0.9, 0.8]) == 2
    es = EarlyStopping(patience=1, verbose=True)
    run_early_stopping(es, [1.0, 1.0])
    es.on_train_end(RunContext(params()))
    assert capsys.readouterr().out == "Epoch 00002: early stopping\n"
    with pytest.raises(ValueError, match="mode"):
        EarlyStopping(mode="up")


def test_early_stopping_on_training_loss_and_missing_key(caplog):
    es = EarlyStopping(monitor="loss", patience=1)
    rc = RunContext(params(net_outputs=Tensor(np.float32(2.0))))
    es.on_train_begin(rc)
    es.on_train_epoch_end(rc)
    assert not rc.get_stop_requested() and es.best == 2.0
    missing = EarlyStopping(monitor="val_acc")
    rc = RunContext(params())
    missing.on_train_begin(rc)
    with caplog.at_level("WARNING", logger="sprout.train"):
        missing.on_train_epoch_end(rc)
    assert "val_acc" in caplog.text and not rc.get_stop_requested()


def test_history_records_outputs_and_metrics():
    history = History()
    rc = RunContext(params())
    history.on_train_begin(rc)
    for epoch, loss in enumerate([2.0, 1.0], 1):
        cb = rc.original_args()
        cb.cur_epoch_num, cb.net_outputs, cb.metrics = epoch, Tensor(np.float32(loss)), {"acc": epoch / 4}
        history.on_train_epoch_end(rc)
    assert history.epoch == {"epoch": [1, 2]}
    assert history.history == {"net_output": [2.0, 1.0], "acc": [0.25, 0.5]}


def test_lambda_callback():
    seen = []
    cb = LambdaCallback(on_train_step_end=lambda rc: seen.append(rc.original_args().cur_step_num))
    rc = RunContext(params(cur_step_num=7))
    cb.on_train_step_end(rc)
    cb.on_train_begin(rc)  # not given: does nothing
    assert seen == [7]
    with pytest.raises(TypeError):
        LambdaCallback(on_train_end=3)


def test_progress_bar_plain_text(capsys):
    import io
    out = io.StringIO()
    bar = ProgressBar(use_tqdm=False, file=out)
    rc = RunContext(params(cur_step_num=4))
    bar.on_train_epoch_begin(rc)
    bar.on_train_step_end(rc)
    bar.on_train_epoch_end(rc)
    assert re.match(r"^epoch 1/2 \[=+\] 4/4, loss 1\.0000, \d+\.\ds\n$", out.getvalue()), out.getvalue()


def test_checkpoint_config_validation(tmp_path):
    cfg = CheckpointConfig(save_checkpoint_steps=10, save_checkpoint_seconds=5, keep_checkpoint_max=0,
                           keep_checkpoint_per_n_minutes=0)
    assert cfg.save_checkpoint_seconds is None and cfg.keep_checkpoint_max == 1
    with pytest.raises(ValueError, match="can't all be None or 0"):
        CheckpointConfig(0, 0, 0, 0)
    with pytest.raises(ValueError):
        CheckpointConfig(save_checkpoint_steps=-1)
    with pytest.raises(ValueError, match="append_info"):
        CheckpointConfig(append_info=["epochs"])
    assert CheckpointConfig(append_info=["epoch_num", {"lr": 0.1}]).append_dict == {"epoch_num": 0, "lr": 0.1}
    with pytest.raises(NotImplementedError, match="enc_key"):
        CheckpointConfig(enc_key=b"0" * 16)
    with pytest.raises(NotImplementedError, match="incremental"):
        CheckpointConfig(incremental=True)
    assert CheckpointConfig(enable_redundance=True).enable_redundance is True  # MindSpore 2.10 keeps it too
    with pytest.raises(ValueError, match="prefix"):
        ModelCheckpoint(prefix="a/b", directory=str(tmp_path))
    with pytest.raises(TypeError, match="CheckpointConfig"):
        ModelCheckpoint(directory=str(tmp_path), config={"save_checkpoint_steps": 1})


def test_reduce_lr_on_plateau_matches_mindspore(capsys):
    from sprout import Parameter
    from sprout.train import ReduceLROnPlateau

    class Opt:
        learning_rate = Parameter(Tensor(np.float32(0.1)), name="learning_rate")

    cb = params(optimizer=Opt())
    rc = RunContext(cb)
    reducer = ReduceLROnPlateau(patience=1, verbose=True, factor=0.5)
    reducer.on_train_begin(rc)
    for epoch, value in enumerate([1.0, 1.0, 1.0, 0.5, 0.6], 1):
        cb.cur_epoch_num, cb.eval_results = epoch, {"eval_loss": value}
        reducer.on_train_epoch_end(rc)
    # MindSpore 2.10 printed exactly these lines for the same sequence
    assert capsys.readouterr().out.splitlines() == [
        "Epoch 00002: ReduceLROnPlateau reducing learning rate to 0.05.",
        "Epoch 00003: ReduceLROnPlateau reducing learning rate to 0.025.",
        "Epoch 00005: ReduceLROnPlateau reducing learning rate to 0.0125."]
    assert float(Opt.learning_rate.asnumpy()) == pytest.approx(0.0125)
    with pytest.raises(ValueError, match="factor"):
        ReduceLROnPlateau(factor=1.5)


def test_progress_bar_uses_tqdm_when_installed(monkeypatch):
    import sys
    import types
    bars = []

    class FakeTqdm:
        def __init__(self, total, desc, file, leave):
            self.total, self.desc, self.n, self.postfix, self.closed = total, desc, 0, None, False
            bars.append(self)

        def update(self, n):
            self.n += n

        def set_postfix(self, **kw):
            self.postfix = kw

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeTqdm))
    bar = ProgressBar()
    assert bar.uses_tqdm
    rc = RunContext(params())
    bar.on_train_epoch_begin(rc)
    for _ in range(4):
        bar.on_train_step_end(rc)
    bar.on_train_epoch_end(rc)
    (only,) = bars
    assert (only.total, only.desc, only.n, only.postfix, only.closed) == (4, "epoch 1/2", 4, {"loss": "1.0000"}, True)
    assert not ProgressBar(use_tqdm=False).uses_tqdm
