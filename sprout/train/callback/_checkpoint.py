"""CheckpointConfig and ModelCheckpoint: ``{prefix}-{epoch}_{step}.ckpt`` files with a keep-max policy."""
from __future__ import annotations

import logging
import contextlib
import os
import re
import time

from ._callback import Callback

logger = logging.getLogger("sprout.train")

_INFO_KEYS = ("epoch_num", "step_num")


def _non_negative_int(name: str, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"CheckpointConfig: '{name}' must be a non-negative int, got {value!r}")
    return value


class CheckpointConfig:
    """When and what ModelCheckpoint saves. ``save_checkpoint_steps`` takes priority over
    ``save_checkpoint_seconds``; ``keep_checkpoint_max`` over ``keep_checkpoint_per_n_minutes``.
    ``append_info`` may list ``"epoch_num"``, ``"step_num"`` and one dict of extra entries.
    ``async_save`` is accepted but saving is synchronous; encryption is not supported."""

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode="AES-GCM", exception_save=False, crc_check=False,
                 remove_redundancy=False, format="ckpt", **kwargs):
        steps = _non_negative_int("save_checkpoint_steps", save_checkpoint_steps)
        seconds = _non_negative_int("save_checkpoint_seconds", save_checkpoint_seconds)
        keep_max = _non_negative_int("keep_checkpoint_max", keep_checkpoint_max)
        per_min = _non_negative_int("keep_checkpoint_per_n_minutes", keep_checkpoint_per_n_minutes)
        if saved_network is not None and not hasattr(saved_network, "parameters_and_names"):
            raise TypeError(f"CheckpointConfig: 'saved_network' must be None or a Cell, "
                            f"got {type(saved_network).__name__}")
        if not steps and not seconds and not keep_max and not per_min:
            raise ValueError("CheckpointConfig: 'save_checkpoint_steps', 'save_checkpoint_seconds', "
                             "'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' can't all be None or 0.")
        for name, flag in (("integrated_save", integrated_save), ("exception_save", exception_save),
                           ("crc_check", crc_check), ("remove_redundancy", remove_redundancy)):
            if not isinstance(flag, bool):
                raise TypeError(f"CheckpointConfig: '{name}' must be a bool, got {type(flag).__name__}")
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"CheckpointConfig: 'format' must be 'ckpt' or 'safetensors', got {format!r}")
        if enc_key is not None:
            raise NotImplementedError("CheckpointConfig: sprout does not support encrypted checkpoints (enc_key)")
        if remove_redundancy:
            raise NotImplementedError("CheckpointConfig: remove_redundancy is for parallel training, which sprout's "
                                      "checkpoints do not support")
        unknown = set(kwargs) - {"incremental", "enable_redundance"}  # MindSpore 2.10 reads these, drops the rest
        if unknown:
            raise TypeError(f"CheckpointConfig got unexpected keyword arguments {sorted(unknown)} (MindSpore reads "
                            "only 'incremental' and 'enable_redundance')")
        if kwargs.get("incremental"):
            raise NotImplementedError("CheckpointConfig: sprout does not support incremental MapParameter checkpoints")
        # enable_redundance only tunes MindSpore's Ascend checkpoint accelerator (aiturbo): kept, no effect here
        self.enable_redundance = kwargs.get("enable_redundance", False)
        if async_save:
            logger.warning("CheckpointConfig: async_save is not supported; checkpoints are saved synchronously")
        self._save_checkpoint_steps = steps
        self._save_checkpoint_seconds = None if steps else seconds
        self._keep_checkpoint_max = keep_max
        self._keep_checkpoint_per_n_minutes = per_min
        if keep_max:
            self._keep_checkpoint_per_n_minutes = None
        elif not per_min:
            self._keep_checkpoint_max = 1
        self._integrated_save = integrated_save
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._enc_key = enc_key
        self._enc_mode = enc_mode
        self.exception_save = exception_save
        self._crc_check = crc_check
        self._format = format
        self.remove_redundancy = remove_redundancy

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)
    crc_check = property(lambda self: self._crc_check)
    format = property(lambda self: self._format)
    append_dict = property(lambda self: self._append_dict)

    def get_checkpoint_policy(self) -> dict:
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _handle_append_info(append_info):
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(f"CheckpointConfig: 'append_info' must be a list, got {type(append_info).__name__}")
        out = {key: 0 for key in _INFO_KEYS if key in append_info}
        dicts = 0
        for item in append_info:
            if isinstance(item, str):
                if item not in _INFO_KEYS:
                    raise ValueError(f"CheckpointConfig: string items of 'append_info' must be in {list(_INFO_KEYS)}, "
                                     f"got {item!r}")
            elif isinstance(item, dict):
                dicts += 1
                if dicts > 1:
                    raise TypeError("CheckpointConfig: 'append_info' may hold only one dict")
                for key, value in item.items():
                    if not isinstance(key, str) or not (isinstance(value, (int, float, bool, str))
                                                        or hasattr(value, "asnumpy")):
                        raise TypeError("CheckpointConfig: 'append_info' dict keys must be str and values int, "
                                        f"float, bool, str or Tensor; got {type(key).__name__}: "
                                        f"{type(value).__name__}")
                    out[key] = value
            else:
                raise TypeError(f"CheckpointConfig: 'append_info' items must be str or dict, got {type(item).__name__}")
        return out


def _unique_prefix(directory: str, prefix: str) -> str:
    """MindSpore's rule: if files ``{prefix}-*.ckpt`` (or ``{prefix}_N-*``) exist, use ``{prefix}_{N+1}``."""
    suffix = 0
    for name in os.listdir(directory):
        stem, ext = os.path.splitext(name)
        if ext not in (".ckpt", ".safetensors") or name.endswith("_breakpoint.ckpt"):
            continue
        if not name.startswith(prefix) or len(name) <= len(prefix) or name[len(prefix)].isalpha():
            continue
        rest = name[len(prefix):]
        dash = rest.find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash > 0 and rest[1:dash].isdigit():
            suffix = max(suffix, int(rest[1:dash]) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class ModelCheckpoint(Callback):
    """Save ``cb_params.train_network`` (so the network's and the optimizer's parameters: moments,
    learning_rate, global_step ...) or ``config.saved_network`` to ``{directory}/{prefix}-{epoch}_{step}.ckpt``
    every ``save_checkpoint_steps`` steps and at the end of training, keeping at most
    ``keep_checkpoint_max`` files. ``prefix`` and ``directory`` may be callables of ``cb_params`` (a callable
    prefix names the file ``{prefix}.ckpt``). MindSpore's ``{prefix}-graph.meta`` file is not written."""

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        if not callable(prefix) and (not isinstance(prefix, str) or "/" in prefix):
            raise ValueError("ModelCheckpoint: 'prefix' must be a callable or a string without '/', "
                             f"got {prefix!r}")
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError(f"ModelCheckpoint: 'config' must be a CheckpointConfig, got {type(config).__name__}")
        self._config = config
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        self._prefix = prefix
        self._exception_prefix = prefix
        self._directory = None
        if self._directory_func is None:
            self._directory = os.path.realpath(directory if directory is not None else os.getcwd())
            os.makedirs(self._directory, exist_ok=True)
        if self._prefix_func is None and self._directory_func is None:
            self._prefix = _unique_prefix(self._directory, prefix)
        self._latest_ckpt_file_name = ""
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._append_dict = config.append_dict or {}
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)
        self._saved = []  # files this callback wrote, oldest first (breaks mtime ties)
        self._marker = _claim_directory(self._directory, self._prefix) if self._directory is not None else None
        self._defer = None

    @property
    def latest_ckpt_file_name(self) -> str:
        return self._latest_ckpt_file_name

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if self._prefix_func is not None:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError("ModelCheckpoint: a callable 'prefix' must return a string without '/', "
                                 f"got {self._prefix!r}")
        if self._directory_func is not None:
            self._directory = os.path.realpath(self._directory_func(cb_params))
            os.makedirs(self._directory, exist_ok=True)
        self._save_ckpt(cb_params)

    def end(self, run_context):
        self._save_ckpt(run_context.original_args(), force=True)
        if self._marker is not None:
            with contextlib.suppress(OSError):
                os.remove(self._marker)

    def _should_save(self, cb_params, force: bool) -> bool:
        cfg = self._config
        if cfg.save_checkpoint_steps:
            return force or cb_params.cur_step_num >= self._last_triggered_step + cfg.save_checkpoint_steps
        if cfg.save_checkpoint_seconds:
            now = time.time()
            if force or now - self._last_time > cfg.save_checkpoint_seconds:
                self._last_time = now
                return True
        return False

    def _existing(self) -> list:
        """Checkpoint files of this prefix in the directory, oldest first."""
        ext = "." + self._config.format
        found = []
        for name in os.listdir(self._directory):
            if not (name.endswith(ext) and name.startswith(self._prefix + "-")):
                continue
            middle = name[len(self._prefix):-len(ext)]
            if not any(ch.isalpha() for ch in middle):
                found.append(os.path.join(self._directory, name))
        order = {path: i for i, path in enumerate(self._saved)}
        # files from earlier runs first (by mtime), then the ones this callback wrote, in save order
        return sorted(found, key=lambda p: (p in order, order.get(p, 0), os.path.getmtime(p), _numbers(p)))

    def _apply_keep_policy(self):
        cfg = self._config
        files = self._existing()
        if cfg.keep_checkpoint_max and 0 < cfg.keep_checkpoint_max <= len(files):
            self._remove(files[0])
        elif cfg.keep_checkpoint_per_n_minutes:
            now = time.time()
            if now - self._last_time_for_keep < cfg.keep_checkpoint_per_n_minutes * 60:
                recent = [f for f in files if now - os.path.getmtime(f) < 60 * cfg.keep_checkpoint_per_n_minutes]
                for path in recent[1:]:  # keep the oldest file of the window
                    self._remove(path)

    def _remove(self, path: str):
        try:
            os.remove(path)
        except OSError:
            logger.warning("ModelCheckpoint: failed to remove the older checkpoint file %s", path)
        if path in self._saved:
            self._saved.remove(path)

    def _save_ckpt(self, cb_params, force: bool = False):
        if cb_params.cur_step_num == self._last_triggered_step or not self._should_save(cb_params, force):
            return
        if self._marker is not None and self._defer is None:
            # decided at the first save, while every rank of the job is still training (markers present)
            self._defer = _lower_rank_writes(self._directory, self._prefix)
        if self._defer:
            self._last_triggered_step = cb_params.cur_step_num  # data parallel: that rank saves the same weights
            return
        from ..serialization import save_checkpoint
        cfg = self._config
        step_in_epoch = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
        if self._prefix_func is not None:
            file_name = f"{self._prefix}.{cfg.format}"
        else:
            file_name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.{cfg.format}"
        self._apply_keep_policy()
        path = os.path.join(self._directory, file_name)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + cb_params.cur_epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + cb_params.cur_step_num
        network = cfg.saved_network if cfg.saved_network is not None else cb_params.train_network
        save_checkpoint(network, path, cfg.integrated_save, False, self._append_dict or None,
                        crc_check=cfg.crc_check, format=cfg.format)
        if path in self._saved:
            self._saved.remove(path)
        self._saved.append(path)
        self._latest_ckpt_file_name = path


def _claim_directory(directory: str, prefix: str) -> str | None:
    """Data parallel over several ranks (every rank holds the same weights): leave a marker naming this rank in
    the checkpoint directory, so that ranks sharing a directory let the lowest rank write (no races on one
    file), while ranks given their own directories (``./ckpt_{rank}``, as MindSpore's tutorials) each write."""
    from ...communication import management

    if management.get_group_size() <= 1:
        return None
    path = os.path.join(directory, f".{prefix}.rank{management.get_rank()}.writer")
    with open(path, "w"):
        pass
    return path


def _lower_rank_writes(directory: str, prefix: str) -> bool:
    from ... import context
    from ...communication import management

    if context.get_auto_parallel_context("parallel_mode") not in (context.ParallelMode.DATA_PARALLEL,
                                                                   context.ParallelMode.HYBRID_PARALLEL):
        return False
    mine = management.get_rank()
    return any(os.path.exists(os.path.join(directory, f".{prefix}.rank{r}.writer")) for r in range(mine))


def _numbers(path: str) -> tuple:
    return tuple(int(n) for n in re.findall(r"\d+", os.path.basename(path)))
