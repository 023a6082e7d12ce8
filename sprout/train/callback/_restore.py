"""Fault-tolerance callbacks: BackupAndRestore (a rolling backup checkpoint) and OnRequestExit (save and stop on a
signal or a config-file request)."""
from __future__ import annotations

import json
import os
import signal

from ._callback import Callback


def _check_bool(owner: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"For '{owner}', '{name}' must be a bool, but got {type(value).__name__}.")
    return value


class BackupAndRestore(Callback):
    """Keep ``backup_dir/backup.ckpt`` of the training network every ``save_freq`` epochs (``"epoch"``: every
    epoch); a training run that finds one at its start loads it into the network first (resuming after a crash);
    ``delete_checkpoint`` removes it when training ends normally."""

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        if not isinstance(backup_dir, str):
            raise ValueError(f"For 'BackupAndRestore', 'backup_dir' must be a str, "
                             f"but got {type(backup_dir).__name__}.")
        if save_freq == "epoch":
            save_freq = 1
        elif isinstance(save_freq, bool) or not isinstance(save_freq, int) or save_freq <= 0:
            raise ValueError(f"For 'BackupAndRestore', 'save_freq' must be 'epoch' or a positive int, "
                             f"but got {save_freq!r}.")
        self.save_freq = save_freq
        self.delete_checkpoint = _check_bool("BackupAndRestore", "delete_checkpoint", delete_checkpoint)
        os.makedirs(backup_dir, exist_ok=True)
        self.backup_file = os.path.join(os.path.realpath(backup_dir), "backup.ckpt")

    def on_train_begin(self, run_context):
        if os.path.exists(self.backup_file):
            from ..serialization import load_checkpoint

            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            from ..serialization import save_checkpoint

            save_checkpoint(cb_params.train_network, self.backup_file)  # atomic: a crash keeps the last backup

    def on_train_end(self, run_context):
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            os.remove(self.backup_file)


class OnRequestExit(Callback):
    """Stop training or evaluation cleanly on request: the signal ``sig`` (default SIGTERM) or ``config_file``'s
    JSON key ``"GracefulExit"`` set to 1. The current step finishes; then the network is saved to
    ``directory/rank_{id}/{file_name}_train.ckpt`` (``_eval`` when evaluating; with ``save_mindir`` the forward
    network also as MINDIR on the last batch's data) and Model stops. A run that finds the checkpoint at its start
    loads it first."""

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./", config_file=None,
                 sig=signal.SIGTERM):
        super().__init__()
        self.save_ckpt = _check_bool("OnRequestExit", "save_ckpt", save_ckpt)
        self.save_mindir = _check_bool("OnRequestExit", "save_mindir", save_mindir)
        for name, value in (("file_name", file_name), ("directory", directory)):
            if not isinstance(value, str):
                raise ValueError(f"For 'OnRequestExit', '{name}' must be a str, but got {type(value).__name__}.")
        if isinstance(sig, bool) or not isinstance(sig, int):
            raise ValueError(f"For 'OnRequestExit', 'sig' must be an int, but got {type(sig).__name__}.")
        if sig == getattr(signal, "SIGKILL", None):
            raise ValueError("Not support send exit request by signal SIGKILL.")
        if config_file is not None and not isinstance(config_file, str):
            raise ValueError(f"For 'OnRequestExit', 'config_file' must be a str or None, "
                             f"but got {type(config_file).__name__}.")
        self.sig, self.config_file = sig, config_file
        self.exit = False
        self._previous_handler = None
        from ...communication import management

        folder = os.path.join(os.path.realpath(directory), f"rank_{management.get_rank()}")
        self.train_name = os.path.join(folder, f"{file_name}_train")
        self.eval_name = os.path.join(folder, f"{file_name}_eval")

    # ---- the request --------------------------------------------------------------------------------
    def _on_signal(self, signum, frame):
        self.exit = True

    def _requested(self) -> bool:
        if not self.exit and self.config_file and os.path.isfile(self.config_file):
            try:
                with open(self.config_file, encoding="utf-8") as f:
                    self.exit = json.load(f).get("GracefulExit") == 1
            except (OSError, ValueError):
                pass  # a half-written config file is read again at the next step
        return self.exit

    def _listen(self):
        self._previous_handler = signal.signal(self.sig, self._on_signal)

    def _stop_listening(self):
        if self._previous_handler is not None:
            signal.signal(self.sig, self._previous_handler)
            self._previous_handler = None

    def _save(self, cb_params, net, name, inputs):
        os.makedirs(os.path.dirname(name), exist_ok=True)
        if self.save_ckpt:
            from ..serialization import save_checkpoint

            save_checkpoint(net, name + ".ckpt")
        if self.save_mindir and inputs is not None:
            from ...deploy import export

            # a MINDIR is an inference model: the forward network on the batch's data columns (the last column
            # is the label when Model computes the loss). MindSpore exports the whole training graph instead.
            if cb_params.get("loss_fn") is None:
                raise ValueError("OnRequestExit: save_mindir needs Model(network, loss_fn, ...) to know which "
                                 "network to export (the checkpoint was saved); pass save_mindir=False")
            export(cb_params.network, *inputs[:-1], file_name=name, file_format="MINDIR")

    @staticmethod
    def _resume(net, name):
        if os.path.isfile(name + ".ckpt"):
            from ..serialization import load_checkpoint

            load_checkpoint(name + ".ckpt", net=net)
            return True
        return False

    # ---- training -----------------------------------------------------------------------------------
    def on_train_begin(self, run_context):
        self._listen()
        if self.save_ckpt:
            self._resume(run_context.original_args().train_network, self.train_name)

    def on_train_step_end(self, run_context):
        if self._requested():
            run_context.request_stop()

    def on_train_end(self, run_context):
        self._stop_listening()
        if self.exit:
            cb_params = run_context.original_args()
            self._save(cb_params, cb_params.train_network, self.train_name, cb_params.train_dataset_element)

    # ---- evaluation ---------------------------------------------------------------------------------
    def on_eval_begin(self, run_context):
        self._listen()
        if self.save_ckpt:
            net = run_context.original_args().eval_network
            if not self._resume(net, self.eval_name):
                self._resume(net, self.train_name)

    def on_eval_step_end(self, run_context):
        if self._requested():
            run_context.request_stop()

    def on_eval_end(self, run_context):
        self._stop_listening()
        if self.exit:
            cb_params = run_context.original_args()
            self._save(cb_params, cb_params.eval_network, self.eval_name, cb_params.eval_dataset_element)
