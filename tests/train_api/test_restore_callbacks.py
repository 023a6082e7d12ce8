"""BackupAndRestore (rolling backup, resume after a crash) and OnRequestExit (stop and save on a signal or a config
file request), driven through Model.train / Model.eval."""
import json
import os
import signal

import numpy as np
import pytest

from sprout.train import BackupAndRestore, Callback, OnRequestExit, load_checkpoint

from ._nets import make_data, make_model


class _CrashAt(Callback):
    def __init__(self, epoch):
        super().__init__()
        self.epoch = epoch

    def on_train_epoch_begin(self, run_context):
        if run_context.original_args().cur_epoch_num == self.epoch:
            raise KeyboardInterrupt("simulated crash")


def _weights(net):
    return {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def test_backup_survives_a_crash_and_is_restored_then_deleted(tmp_path):
    backup = BackupAndRestore(str(tmp_path / "bk"))
    model, net, _ = make_model()
    with pytest.raises(KeyboardInterrupt):
        model.train(3, make_data(), callbacks=[backup, _CrashAt(3)])
    saved = load_checkpoint(backup.backup_file)
    assert np.array_equal(saved["fc1.weight"].asnumpy(), net.fc1.weight.asnumpy())  # the epoch-2 backup
    fresh_model, fresh, _ = make_model(seed=5)
    seen = {}

    class Peek(Callback):
        def on_train_begin(self, run_context):
            seen.update(_weights(run_context.original_args().network))

    fresh_model.train(1, make_data(), callbacks=[backup, Peek()])
    assert np.array_equal(seen["fc1.weight"], saved["fc1.weight"].asnumpy())  # restored before training
    assert not os.path.exists(backup.backup_file)  # deleted at the normal end
    with pytest.raises(ValueError, match="'save_freq' must be 'epoch' or a positive int"):
        BackupAndRestore(str(tmp_path), save_freq=0)


def test_backup_every_second_epoch_kept_on_request(tmp_path):
    backup = BackupAndRestore(str(tmp_path), save_freq=2, delete_checkpoint=False)
    model, net, _ = make_model()
    model.train(3, make_data(), callbacks=[backup])
    assert os.path.exists(backup.backup_file)
    assert not np.array_equal(load_checkpoint(backup.backup_file)["fc1.weight"].asnumpy(), net.fc1.weight.asnumpy())


class _SignalAt(Callback):
    def __init__(self, step):
        super().__init__()
        self.step = step

    def on_train_step_begin(self, run_context):
        if run_context.original_args().cur_step_num == self.step:
            os.kill(os.getpid(), signal.SIGUSR1)


def test_on_request_exit_stops_after_the_signalled_step_and_saves(tmp_path):
    exit_cb = OnRequestExit(save_mindir=False, directory=str(tmp_path), sig=signal.SIGUSR1)
    model, net, _ = make_model()
    steps = []

    class Count(Callback):
        def on_train_step_end(self, run_context):
            steps.append(run_context.original_args().cur_step_num)

    model.train(3, make_data(), callbacks=[exit_cb, _SignalAt(6), Count()])
    assert steps == [1, 2, 3, 4, 5, 6]  # stops after the step during which the signal came
    saved = load_checkpoint(exit_cb.train_name + ".ckpt")
    assert exit_cb.train_name.endswith(os.path.join("rank_0", "Net_train"))
    assert np.array_equal(saved["fc1.weight"].asnumpy(), net.fc1.weight.asnumpy())
    assert signal.getsignal(signal.SIGUSR1) is signal.SIG_DFL  # the handler is given back


def test_on_request_exit_reads_the_config_file_and_resumes(tmp_path):
    config = tmp_path / "exit.json"
    config.write_text(json.dumps({"GracefulExit": 0}))
    exit_cb = OnRequestExit(save_mindir=False, directory=str(tmp_path), config_file=str(config))
    model, net, _ = make_model()

    class Request(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 2:
                config.write_text(json.dumps({"GracefulExit": 1}))

    model.train(2, make_data(), callbacks=[Request(), exit_cb])
    assert os.path.exists(exit_cb.train_name + ".ckpt")
    resumed_model, resumed, _ = make_model(seed=9)
    again = OnRequestExit(save_mindir=False, directory=str(tmp_path))
    seen = {}

    class Peek(Callback):
        def on_train_begin(self, run_context):
            seen.update(_weights(run_context.original_args().network))

    resumed_model.train(1, make_data(), callbacks=[again, Peek()])
    assert np.array_equal(seen["fc1.weight"], load_checkpoint(exit_cb.train_name + ".ckpt")["fc1.weight"].asnumpy())
    with pytest.raises(ValueError, match="SIGKILL"):
        OnRequestExit(sig=signal.SIGKILL)
    with pytest.raises(ValueError, match="'save_ckpt' must be a bool"):
        OnRequestExit(save_ckpt=1)


def test_on_request_exit_in_eval_saves_the_eval_network_and_a_mindir(tmp_path):
    exit_cb = OnRequestExit(directory=str(tmp_path), sig=signal.SIGUSR1)
    model, net, _ = make_model(metrics={"mae"})
    evaluated = []

    class SignalFirst(Callback):
        def on_eval_step_end(self, run_context):
            evaluated.append(run_context.original_args().cur_step_num)
            os.kill(os.getpid(), signal.SIGUSR1)

    model.eval(make_data(), callbacks=[SignalFirst(), exit_cb])
    assert evaluated == [1]
    assert sorted(os.listdir(os.path.dirname(exit_cb.eval_name))) == ["Net_eval.ckpt", "Net_eval.mindir"]
