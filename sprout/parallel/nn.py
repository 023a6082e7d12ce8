"""``mindspore.parallel.nn`` (MindSpore 2.6+): the micro-batch and pipeline wrappers under their new names."""
from ..nn.pipeline import PipelineGradReducer  # noqa: F401
from ..nn.wrap_extra import GradAccumulationCell as GradAccumulation  # noqa: F401
from ..nn.wrap_extra import MicroBatchInterleaved, PipelineCell


class Pipeline(PipelineCell):
    """``mindspore.parallel.nn.Pipeline(network, micro_size, stage_config=None, segment_config=None)``: PipelineCell
    under its new name (the same micro-batches, stages and pipelined calls)."""


__all__ = ["Pipeline", "PipelineCell", "PipelineGradReducer", "GradAccumulation", "MicroBatchInterleaved"]
