"""MindSpore's ``mindspore.parallel``: parallel modes, strategy-search parameters, ``Layout`` and the device
mesh, ``shard`` (the SPMD pass) and the checkpoint functions of sharded training (docs/distributed.md)."""
from ..context import ParallelMode, get_algo_parameters, reset_algo_parameters, set_algo_parameters  # noqa: F401
from .layout import DeviceMesh, Layout  # noqa: F401
from ..ops.spmd_ops import reshard  # noqa: F401
from .spmd import shard  # noqa: F401
from .ckpt_transform import rank_list_for_transform, transform_checkpoint_by_rank, unified_safetensors  # noqa: F401
from .spmd_ckpt import (build_searched_strategy, load_distributed_checkpoint, merge_sliced_parameter,  # noqa: F401
                        transform_checkpoints)
from .pipeline_ckpt import (load_segmented_checkpoints, merge_pipeline_strategys,  # noqa: F401
                            sync_pipeline_shared_parameters)

__all__ = ["ParallelMode", "set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "Layout",
           "DeviceMesh", "shard", "reshard", "build_searched_strategy", "load_distributed_checkpoint",
           "merge_sliced_parameter", "transform_checkpoints", "rank_list_for_transform",
           "transform_checkpoint_by_rank", "unified_safetensors", "load_segmented_checkpoints",
           "merge_pipeline_strategys", "sync_pipeline_shared_parameters"]


def __getattr__(name):
    if name == "nn":  # mindspore.parallel.nn (the pipeline wrappers) sits above sprout.nn: imported on first use
        import importlib

        return importlib.import_module(f"{__name__}.nn")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
