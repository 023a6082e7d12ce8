"""MindSpore's ``mindspore.parallel.auto_parallel.AutoParallel``: a Cell wrapping the top-level network or training
function whose calls run through the SPMD pass (``shard``) under the parallel configuration set on it (not the
global auto-parallel context); the settings sprout cannot apply on CPU raise saying so (docs/distributed.md)."""
from __future__ import annotations

import contextlib
import os

from .. import context
from ..communication import management
from ..nn.cell import Cell
from .layout import Layout

_MODES = {"semi_auto": ("semi_auto_parallel", None), "sharding_propagation": ("auto_parallel", "sharding_propagation"),
          "recursive_programming": ("auto_parallel", "recursive_programming")}


def _path(file_path) -> str:
    if not isinstance(file_path, str):
        raise TypeError(f"the argument 'file_path' must be str, but got the type : {type(file_path)} .")
    return file_path


def _json_abs_path(file_path) -> str:
    _path(file_path)
    if not os.path.isabs(file_path):
        raise KeyError("the argument 'file_path' must be an absolute path.")
    if os.path.splitext(file_path)[1] != ".json":
        raise KeyError("File type must be .json")
    return file_path


class AutoParallel(Cell):
    """``AutoParallel(network, parallel_mode="semi_auto")``: ``network`` (a Cell or a function, e.g. a training step
    with ``value_and_grad`` and the optimizer) runs split over the world's ranks by sprout's SPMD pass: inputs are
    this rank's slice of dim 0 (``dataset_strategy("full_batch")``: the global values), ``Primitive.shard`` /
    ``Cell.shard`` / ``reshard`` strategies inside apply, everything else follows the op rules, and Parameter
    updates inside run on whole Parameters on every rank. In a world of one it calls ``network``."""

    def __init__(self, network, parallel_mode="semi_auto"):
        super().__init__(auto_prefix=False)
        if parallel_mode not in _MODES:
            raise ValueError("the argument 'parallel_mode' must be one of ['semi_auto', 'sharding_propagation', "
                             f"'recursive_programming'], but got the value : {parallel_mode} .")
        if not callable(network):
            raise TypeError(f"For 'AutoParallel', 'network' must be a Cell or a function, but got "
                            f"{type(network).__name__}.")
        self.network = network
        self._parallel_mode = parallel_mode
        self._global_rank = management.get_rank()
        self._device_num = management.get_group_size()
        self._init_param_in_compile = True
        self._save_strategy_file_path = ""
        self._only_trainable_params = True
        self._dataset_strategy_config = "data_parallel"
        self._full_batch = False
        self._pipeline_stages = 1
        self._comm_fusion_config: dict | None = None
        self._gradients_mean = False
        self._gradient_fp32_sync = True
        self._loss_repeated_mean = True
        self._force_fp32_communication = False
        self._enable_alltoall = True  # MindSpore's AutoParallel default (the global context's is False)
        self._pipeline_interleave = False
        self._pipeline_scheduler = "1f1b"
        self._auto_shard = None

    # ---- configuration (MindSpore's methods and checks) --------------------------------------------------------
    def no_init_parameters_in_compile(self):
        """Parameters are not initialized while compiling: sprout never does (a Parameter holds its value from
        the moment it is created), so this holds already."""
        self._init_param_in_compile = False

    def load_param_strategy_file(self, file_path):
        """The parameters' layouts saved in ``file_path`` (by save_param_strategy_file) are imposed on the SPMD pass
        (sprout's JSON strategy files)."""
        _path(file_path)
        self._load_strategy_file_path = file_path

    def save_param_strategy_file(self, file_path):
        """Write the parameter layouts (MindSpore's strategy file, JSON) when the network is compiled."""
        self._save_strategy_file_path = _path(file_path)

    def disable_strategy_file_only_for_trainable_params(self):
        self._only_trainable_params = False

    def save_operator_strategy_file(self, file_path):
        _json_abs_path(file_path)
        raise NotImplementedError("AutoParallel.save_operator_strategy_file: sprout has no sharding-propagation "
                                  "search whose operator strategies could be saved")

    def load_operator_strategy_file(self, file_path):
        _json_abs_path(file_path)
        raise NotImplementedError("AutoParallel.load_operator_strategy_file: sprout has no sharding-propagation "
                                  "search to seed with operator strategies")

    def dataset_strategy(self, config):
        if config is None:
            raise ValueError("dataset_strategy is none in config!")
        if isinstance(config, str):
            if config not in ("full_batch", "data_parallel"):
                raise ValueError("For 'AutoParallel.dataset_strategy', the argument 'config' must be 'full_batch' or "
                                 f"'data_parallel', but got the value : {config}.")
            self._full_batch = config == "full_batch"
            self._dataset_strategy_config = config
            return
        if not isinstance(config, tuple):
            raise TypeError("For 'AutoParallel.dataset_strategy', the argument 'config' must be str or tuple type, "
                            f"but got the type : {type(config)}.")
        for ele in config:
            if isinstance(ele, tuple):
                if any(not isinstance(d, int) for d in ele):
                    raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' must be "
                                    "int type.")
            elif not isinstance(ele, Layout):
                raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' must be tuple "
                                f"or Layout, but got the type : {type(ele)} .")
        self._full_batch = False  # each input is this rank's block of its strategy's layout (sprout.parallel.spmd)
        self._dataset_strategy_config = config

    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        if not isinstance(shard_size, int) or (shard_size <= 0 and shard_size != -1):
            raise ValueError(f"shard_size must be a positive integer or -1, but got {shard_size}.")
        if not isinstance(threshold, int) or threshold < 0:
            raise ValueError(f"threshold must be a positive integer or 0, but got {threshold}.")
        if optimizer_level not in ("level1", "level2", "level3"):
            raise ValueError(f"Optimizer level should in ['level1', 'level2', 'level3'], but got {optimizer_level}")
        if optimizer_level == "level3":
            raise NotImplementedError("AutoParallel.hsdp: optimizer_level 'level3' (parameters sharded in the forward "
                                      "as well) is not supported by sprout; use 'level1' or 'level2'")
        # the training wrapper built around this cell shards the optimizer state (sprout.nn.parallel_optimizer)
        self._hsdp = {"optimizer_weight_shard_size": shard_size, "parallel_optimizer_threshold": threshold,
                      "optimizer_level": optimizer_level}

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        if not isinstance(stages, int):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'stages' must be int type, but got the type : "
                            f"{type(stages)}.")
        if stages <= 0:
            raise ValueError("For 'AutoParallel.pipeline', the argument 'stages' must be larger than zero, but got "
                             f"value: {stages}.")
        for name, v in (("output_broadcast", output_broadcast), ("interleave", interleave)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'AutoParallel.pipeline', the argument '{name}' must be bool type, but got the "
                                f"type : {type(v)}.")
        if not isinstance(scheduler, str):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'scheduler' must be str type, but got the "
                            f"type : {type(scheduler)}.")
        if scheduler not in ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v"):
            raise ValueError("For 'AutoParallel.pipeline', the argument 'scheduler' must be '1f1b'/'gpipe'/'seqpipe'/"
                             f"'seqvpp'/'seqsmartvpp'/'zero_bubble_v' , but got the value : {scheduler}.")
        if stages > 1:  # the PipelineCell inside runs pipelined under this cell's configuration (sprout.nn.pipeline)
            if scheduler != "gpipe" or interleave:
                raise NotImplementedError("AutoParallel.pipeline: sprout runs pipeline stages with the GPipe schedule "
                                          "only, without interleave; call pipeline(stages, scheduler='gpipe') (got "
                                          f"scheduler={scheduler!r}, interleave={interleave})")
            from ..nn.pipeline import contains_pipeline_cell

            if not contains_pipeline_cell(self.network):
                raise RuntimeError("AutoParallel.pipeline: with stages > 1 the network must contain an nn.PipelineCell "
                                   "(or parallel.nn.Pipeline), which splits the batch into micro-batches")
        self._pipeline_stages = stages
        self._output_broadcast = output_broadcast
        self._pipeline_interleave = interleave
        self._pipeline_scheduler = scheduler

    def comm_fusion(self, config):
        """Gradient all-reduce fusion of data-parallel reducers built while the network runs (MindSpore's keys)."""
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"The parameter '{config}' must be {dict}, but got {type(config)}.")
        self._comm_fusion_config = context._check_auto_parallel("comm_fusion", config) if config else None

    def enable_fp32_communication(self):
        """``force_fp32_communication``: the SPMD pass's reduce collectives of float16 / bfloat16 values run in
        float32."""
        self._force_fp32_communication = True

    def set_group_ckpt_save_file(self, file_path):
        _path(file_path)
        raise NotImplementedError("AutoParallel.set_group_ckpt_save_file: sprout does not write communication-group "
                                  "checkpoints (its strategy file names the ranks of each layout)")

    def print_local_norm(self):
        raise NotImplementedError("AutoParallel.print_local_norm: local-norm dumps are not supported by sprout")

    def dump_local_norm(self, file_path):
        _path(file_path)
        raise NotImplementedError("AutoParallel.dump_local_norm: local-norm dumps are not supported by sprout")

    def enable_device_local_norm(self):
        raise NotImplementedError("AutoParallel.enable_device_local_norm: local-norm dumps are not supported by "
                                  "sprout")

    def enable_gradients_mean(self):
        """``gradients_mean=True`` for the network (read by data-parallel gradient reducers built inside it; the SPMD
        pass itself computes the exact gradient of the global-batch loss)."""
        self._gradients_mean = True

    def disable_gradient_fp32_sync(self):
        self._gradient_fp32_sync = False

    def disable_loss_repeated_mean(self):
        self._loss_repeated_mean = False

    def get_pipeline_stages(self):
        return self._pipeline_stages

    def transformer_opt(self, file_path):
        if file_path in (None, ""):
            return
        raise NotImplementedError("AutoParallel.transformer_opt: Ascend's parallel speed-up options have no CPU "
                                  "counterpart in sprout")

    # ---- running ------------------------------------------------------------------------------------------
    def _settings(self) -> dict:
        mode, search = _MODES[self._parallel_mode]
        out = {"parallel_mode": mode, "full_batch": self._full_batch,
               "dataset_strategy": self._dataset_strategy_config, "gradients_mean": self._gradients_mean,
               "gradient_fp32_sync": self._gradient_fp32_sync, "loss_repeated_mean": self._loss_repeated_mean,
               "force_fp32_communication": self._force_fp32_communication, "enable_alltoall": self._enable_alltoall,
               "pipeline_config": {"pipeline_interleave": self._pipeline_interleave,
                                   "pipeline_scheduler": self._pipeline_scheduler},
               "strategy_ckpt_config": {"load_file": self.__dict__.get("_load_strategy_file_path", ""),
                                        "save_file": self._save_strategy_file_path,
                                        "only_trainable_params": self._only_trainable_params}}
        if search is not None:
            out["search_mode"] = search
        if self._comm_fusion_config is not None:
            out["comm_fusion"] = self._comm_fusion_config
        out["pipeline_stages"] = self._pipeline_stages
        out["pipeline_result_broadcast"] = self.__dict__.get("_output_broadcast", False)
        hsdp = self.__dict__.get("_hsdp")
        out["enable_parallel_optimizer"] = hsdp is not None
        if hsdp is not None:
            out["parallel_optimizer_config"] = hsdp
        return out

    @contextlib.contextmanager
    def scope(self):
        """The auto-parallel context as configured on this cell, for the duration of a call."""
        settings = self._settings()
        pipeline = settings.pop("pipeline_config")  # AutoParallel's rules (gpipe without interleave), not the context's
        saved = {k: context.get_auto_parallel_context(k) for k in settings}
        saved_pipeline = context.swap_pipeline_config(pipeline)
        context.set_auto_parallel_context(**settings)
        try:
            yield
        finally:
            context.set_auto_parallel_context(**saved)
            context.swap_pipeline_config(saved_pipeline)

    def construct(self, *args, **kwargs):
        from .spmd import Shard, tracing_sharded

        if management.get_group_size() == 1 or tracing_sharded():  # a world of one; or inside a sharded graph
            return self.network(*args, **kwargs)
        if kwargs:
            raise TypeError("AutoParallel: keyword arguments are not supported over several ranks (pass them "
                            "positionally)")
        if self._pipeline_stages > 1:  # the PipelineCell inside pipelines the call (no SPMD pass around it)
            with self.scope():
                return self.network(*args)
        if self._auto_shard is None:
            self.__dict__["_auto_shard"] = Shard(self.network, None)
        with self.scope():
            return self._auto_shard(*args)
