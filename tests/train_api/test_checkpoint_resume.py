"""ModelCheckpoint file names, keep_checkpoint_max, saved optimizer state, and resuming with initial_epoch."""
import os

import numpy as np
import pytest

import sprout as ms
from sprout.train import CheckpointConfig, LossMonitor, ModelCheckpoint, load_checkpoint, load_param_into_net

from ._nets import make_data, make_model


def test_names_keep_max_and_prefix_reuse(tmp_path):
    # MindSpore 2.10, same settings (3 epochs x 4 steps, every 3 steps, keep 2): ['net-3_1.ckpt', 'net-3_4.ckpt'];
    # a second ModelCheckpoint with the same prefix writes net_1-*.ckpt
    d = str(tmp_path)
    model, _, _ = make_model()
    ckpt = ModelCheckpoint("net", d, CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2))
    model.train(3, make_data(), callbacks=[ckpt])
    assert sorted(os.listdir(d)) == ["net-3_1.ckpt", "net-3_4.ckpt"]
    assert ckpt.latest_ckpt_file_name == os.path.join(os.path.realpath(d), "net-3_4.ckpt")
    again = ModelCheckpoint("net", d, CheckpointConfig(save_checkpoint_steps=5, keep_checkpoint_max=3,
                                                       append_info=["epoch_num", "step_num"]))
    model.train(2, make_data(), callbacks=[again])
    assert sorted(os.listdir(d)) == ["net-3_1.ckpt", "net-3_4.ckpt", "net_1-2_1.ckpt", "net_1-2_4.ckpt"]
    extra = load_checkpoint(again.latest_ckpt_file_name)
    assert int(extra["epoch_num"].asnumpy()) == 2 and int(extra["step_num"].asnumpy()) == 8


def test_every_step_keeps_newest_five(tmp_path):
    model, _, _ = make_model()
    model.train(2, make_data(), callbacks=[ModelCheckpoint(directory=str(tmp_path))])
    assert sorted(os.listdir(tmp_path)) == ["CKP-1_4.ckpt", "CKP-2_1.ckpt", "CKP-2_2.ckpt", "CKP-2_3.ckpt",
                                            "CKP-2_4.ckpt"]


def test_checkpoint_holds_network_and_optimizer_state(tmp_path):
    model, net, opt = make_model()
    ckpt = ModelCheckpoint("m", str(tmp_path), CheckpointConfig(save_checkpoint_steps=100))
    model.train(1, make_data(), callbacks=[ckpt])
    saved = load_checkpoint(ckpt.latest_ckpt_file_name)
    assert os.path.basename(ckpt.latest_ckpt_file_name) == "m-1_4.ckpt"  # saved at the end of training
    want = {p.name: p.asnumpy() for _, p in model.train_network.parameters_and_names()}
    assert set(saved) == set(want)
    assert {"fc1.weight", "fc2.bias", "global_step", "learning_rate", "momentum", "moments.fc1.weight"} <= set(saved)
    for name, value in want.items():
        np.testing.assert_array_equal(saved[name].asnumpy(), value)
    assert int(saved["global_step"].asnumpy().reshape(())) == 4


def test_saved_network_and_callable_prefix(tmp_path):
    model, net, _ = make_model()
    cfg = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=10, saved_network=net)
    ckpt = ModelCheckpoint(lambda cb: f"e{cb.cur_epoch_num}s{cb.cur_step_num}", str(tmp_path), cfg)
    model.train(1, make_data(), callbacks=[ckpt])
    assert sorted(os.listdir(tmp_path)) == ["e1s2.ckpt", "e1s4.ckpt"]
    assert set(load_checkpoint(str(tmp_path / "e1s4.ckpt"))) == {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}


@pytest.mark.parametrize("stop_after", [1, 2])
def test_resume_matches_uninterrupted_run(tmp_path, capsys, stop_after):
    total = 4
    ms.set_seed(7)
    full, full_net, full_opt = make_model(seed=1)
    full.train(total, make_data(), callbacks=[LossMonitor()])
    full_lines = capsys.readouterr().out.splitlines()

    ms.set_seed(7)
    first, _, _ = make_model(seed=1)
    ckpt = ModelCheckpoint("run", str(tmp_path), CheckpointConfig(save_checkpoint_steps=4))
    first.train(stop_after, make_data(), callbacks=[ckpt])
    capsys.readouterr()

    resumed, net, opt = make_model(seed=99)  # different initial weights: everything comes from the file
    params = load_checkpoint(ckpt.latest_ckpt_file_name)
    assert load_param_into_net(net, params)[0] == []
    assert load_param_into_net(opt, params)[0] == []
    resumed.train(total, make_data(), callbacks=[LossMonitor()], initial_epoch=stop_after)
    assert capsys.readouterr().out.splitlines() == full_lines[4 * stop_after:]
    pairs = zip(full.train_network.parameters_and_names(), resumed.train_network.parameters_and_names())
    for (name, a), (_, b) in pairs:
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy(), err_msg=name)


def test_exception_save_writes_breakpoint_checkpoint(tmp_path):
    from sprout.train import Callback

    class Boom(Callback):
        def on_train_step_end(self, rc):
            if rc.original_args().cur_step_num == 6:
                raise RuntimeError("boom")

    model, _, _ = make_model()
    cfg = CheckpointConfig(save_checkpoint_steps=100, exception_save=True)
    with pytest.raises(RuntimeError, match="boom"):
        model.train(3, make_data(), callbacks=[ModelCheckpoint("x", str(tmp_path), cfg), Boom()])
    assert os.listdir(tmp_path) == ["x-2_2_breakpoint.ckpt"]
    saved = load_checkpoint(str(tmp_path / "x-2_2_breakpoint.ckpt"))
    assert int(saved["global_step"].asnumpy().reshape(())) == 6
