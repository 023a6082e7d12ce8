"""What the training wrappers read from the auto-parallel context (MindSpore's ``parallel/_utils.py``)."""
from __future__ import annotations

from .. import context
from ..communication import management
from ..context import ParallelMode

_DATA_PARALLEL_MODES = (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL)


def _get_parallel_mode() -> str:
    return context.get_auto_parallel_context("parallel_mode")


def _get_gradients_mean() -> bool:
    return context.get_auto_parallel_context("gradients_mean")


def _get_device_num() -> int:
    """1 in stand_alone; else ``device_num`` if it was set, else the world's size."""
    if _get_parallel_mode() == ParallelMode.STAND_ALONE:
        return 1
    if context.auto_parallel_is_set("device_num"):
        return context.get_auto_parallel_context("device_num")
    return management.get_group_size()


def _get_global_rank() -> int:
    if context.auto_parallel_is_set("global_rank"):
        return context.get_auto_parallel_context("global_rank")
    return management.get_rank()


def _device_number_check(parallel_mode: str, device_number: int) -> None:
    if parallel_mode == ParallelMode.STAND_ALONE and device_number != 1:
        raise ValueError("If parallel_mode is stand_alone, device_number must be 1, "
                         f"device_number: {device_number}, parallel_mode:{parallel_mode}")


def parallel_optimizer_enabled() -> bool:
    """A training wrapper built now shards the optimizer state: ``enable_parallel_optimizer`` in data parallel, or in
    semi-auto / auto parallel over several ranks (not with pipeline stages)."""
    if not context.get_auto_parallel_context("enable_parallel_optimizer"):
        return False
    if context.get_auto_parallel_context("parallel_optimizer_config").get("gradient_accumulation_shard"):
        raise NotImplementedError("parallel_optimizer_config gradient_accumulation_shard=True (gradient accumulation "
                                  "buffers sharded across the ranks) is not supported by sprout; leave it False")
    mode = _get_parallel_mode()
    if mode in _DATA_PARALLEL_MODES:
        return True
    if mode in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL) and management.get_group_size() > 1:
        if context.get_auto_parallel_context("pipeline_stages") > 1:
            raise NotImplementedError("enable_parallel_optimizer with pipeline_stages > 1 (optimizer sharding across "
                                      "pipeline stages) is not supported by sprout")
        return True
    return False


def data_parallel_reducer_needed(where: str) -> bool:
    """Whether a training wrapper built now must all-reduce gradients (MindSpore's ``reducer_flag``): data
    parallel and hybrid parallel do. Semi-auto / auto parallel do not: the wrapper runs its network through the
    SPMD pass (``sprout.parallel.spmd.semi_auto_network``), whose Mirror ops sum the gradients."""
    mode = _get_parallel_mode()
    if mode in _DATA_PARALLEL_MODES:  # enable_parallel_optimizer: sprout.nn.parallel_optimizer
        if context.get_auto_parallel_context("pipeline_stages") > 1:
            raise RuntimeError(f"{where}: pipeline_stages > 1 (pipeline parallel) needs parallel_mode "
                               "'semi_auto_parallel' or 'auto_parallel'")
        return True
    # semi-auto / auto parallel: the SPMD pass's Mirror ops sum the gradients (sprout.parallel.spmd)
    return False


def check_search_mode(where: str) -> None:
    """AUTO_PARALLEL runs sprout's SPMD pass only as MindSpore's ``sharding_propagation`` search (the strategies given
    by ``shard`` propagate to the other operators, which is what the pass does); the strategy searches
    ``recursive_programming`` (MindSpore's default) and ``dynamic_programming`` are refused."""
    if _get_parallel_mode() != ParallelMode.AUTO_PARALLEL:
        return
    mode = context.get_auto_parallel_context("search_mode")
    if mode == "sharding_propagation" or context.get_auto_parallel_context("sharding_propagation"):
        return
    raise NotImplementedError(
        f"{where}: parallel_mode 'auto_parallel' with search_mode={mode!r} searches a strategy for every operator, "
        "which sprout does not do; set search_mode='sharding_propagation' (the strategies given by shard propagate to "
        "the other operators) or use parallel_mode='semi_auto_parallel'")


def parameter_broadcast_pending() -> bool:
    """``parameter_broadcast=True`` in a parallel mode over several ranks: a training wrapper built now starts every
    rank from rank 0's parameters (MindSpore broadcasts when the network is compiled; sprout stores whole parameters
    in every mode, so all of them take part except ``layerwise_parallel`` ones)."""
    return bool(context.get_auto_parallel_context("parameter_broadcast")
                and _get_parallel_mode() != ParallelMode.STAND_ALONE and management.get_group_size() > 1)


def broadcast_parameters(params) -> None:
    """Every rank takes rank 0's value of each Parameter of ``params`` (``layerwise_parallel`` ones excepted)."""
    from ..communication import collective

    for p in params:
        if not getattr(p, "layerwise_parallel", False):
            p.set_data(collective.broadcast(p.asnumpy(), 0, management.HCCL_WORLD_COMM_GROUP))
