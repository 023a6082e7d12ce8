"""More wrappers: ForwardValueAndGrad, micro-batch accumulation cells, ParameterUpdate, Jvp/Vjp cells."""
from __future__ import annotations

from types import FunctionType, MethodType

from .. import ops
from ..core.tensor import Parameter, Tensor
from .cell import Cell


class ForwardValueAndGrad(Cell):
    """``(network(*inputs), grads)`` in one call: gradients w.r.t. the inputs (``get_all``) and/or ``weights``
    (``get_by_list``), as GradOperation gives them; with ``sens_param`` the last input is the output's sensitivity
    (not passed to the network)."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError("For 'ForwardValueAndGrad', the argument 'network' must be cell, function type or "
                            f"method type, but got '{type(network)}'")
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'ForwardValueAndGrad', the type of '{name}' must be bool, but got '{type(v)}'")
        if get_by_list and not isinstance(weights, (tuple, list)):
            raise TypeError("For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the argument 'weights' "
                            f"must be Parameters array, but got '{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            network.set_grad()
        self.weights, self.get_all, self.get_by_list, self.sens_param = weights, get_all, get_by_list, sens_param
        self.grad = ops.GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs):
        loss = self.network(*(inputs[:-1] if self.sens_param else inputs))
        grad_fn = self.grad(self.network, self.weights) if self.get_by_list else self.grad(self.network)
        return loss, grad_fn(*inputs)


def _micro_batch(owner: str, inputs: tuple, parts: int, i: int) -> tuple:
    """Slice ``i`` of ``parts`` equal slices of every tensor input along axis 0."""
    out = []
    for x in inputs:
        if not isinstance(x, Tensor):
            raise TypeError(f"For '{owner}', every input must be a Tensor to be split into micro-batches, "
                            f"but got {type(x).__name__}.")
        if x.ndim == 0 or x.shape[0] % parts:
            raise ValueError(f"For '{owner}', the first dimension of every input must be divisible by {parts}, "
                             f"but got shape {tuple(x.shape)}.")
        step = x.shape[0] // parts
        out.append(x[i * step:(i + 1) * step])
    return tuple(out)


def _positive_count(owner: str, name: str, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{owner}', the argument '{name}' must be integer, but got the type : {type(value)}.")
    if value <= 0:
        raise ValueError(f"For '{owner}', the argument '{name}' must be large than 0, but got {value}.")
    return value


class GradAccumulationCell(Cell):
    """Split each input into ``micro_size`` micro-batches along axis 0, run ``network`` on each and return the sum
    of the outputs (so the gradients of one backward pass are the accumulated micro-batch gradients)."""

    _what = "micro_size"

    def __init__(self, network, micro_size):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"For '{self.cls_name}', the argument 'network' must cell type, but got the type : "
                            f"{type(network)}.")
        self.network = network
        self.micro_size = _positive_count(self.cls_name, self._what, micro_size)

    def construct(self, *inputs):
        total = None
        for i in range(self.micro_size):
            out = self.network(*_micro_batch(self.cls_name, inputs, self.micro_size, i))
            total = out if total is None else ops.add(total, out)
        return total


class PipelineCell(GradAccumulationCell):
    """Micro-batch accumulation for pipeline parallelism: the sum of ``network`` over ``micro_size`` slices of the
    batch. With ``pipeline_stages > 1`` (semi-auto / auto parallel, one rank per stage) each rank runs the cells of
    its ``pipeline_stage`` and passes activations and gradients on with Send/Receive (GPipe: ``sprout.nn.pipeline``);
    the loss is on the last stage (zeros on the others). In one process every stage runs here. ``stage_config``
    ({sub-cell name: stage}) is checked against the network's cells and recorded as each cell's ``pipeline_stage``;
    ``segment_config`` likewise sets ``pipeline_segment``."""

    def __call__(self, *args, **kwargs):
        from . import pipeline

        if pipeline.engaged():
            if kwargs:
                raise TypeError("PipelineCell: keyword arguments are not supported in a pipelined call (pass the "
                                "inputs positionally)")
            return pipeline.run(self, args)
        return super().__call__(*args, **kwargs)

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        super().__init__(network, micro_size)
        cells = dict(network.cells_and_names())
        for config, attr in ((stage_config, "pipeline_stage"), (segment_config, "pipeline_segment")):
            if config is None:
                continue
            if not isinstance(config, dict):
                raise TypeError(f"For 'PipelineCell', '{attr.replace('pipeline_', '')}_config' must be a dict, "
                                f"but got {type(config).__name__}.")
            for name, value in config.items():
                key = name[len("network."):] if name.startswith("network.") else name
                if key not in cells:
                    raise KeyError(f"For 'PipelineCell', the cell {name!r} of the config is not in the network.")
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise ValueError(f"For 'PipelineCell', the {attr} of {name!r} must be a non-negative int, "
                                     f"but got {value!r}.")
                setattr(cells[key], attr, value)


class MicroBatchInterleaved(GradAccumulationCell):
    """Split each input into ``interleave_num`` slices along axis 0 and sum the network's outputs over them (in
    MindSpore this lets communication overlap computation; the value is the same)."""

    _what = "interleave_num"

    def __init__(self, network, interleave_num=2):
        super().__init__(network, interleave_num)
        self.interleave_num = interleave_num


class ParameterUpdate(Cell):
    """``construct(x)`` assigns x to the Parameter and returns x."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x):
        ops.assign(self._param, x)
        return x


class VirtualDatasetCellTriple(Cell):
    """``backbone(a, b, c)``: MindSpore's (deprecated) auto-parallel marker for a three-input dataset; the virtual
    dataset split it marks is the identity in one process."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, a, b, c):
        return self._backbone(a, b, c)


class Jvp(Cell):
    """``Jvp(fn)(*inputs, v)`` -> (fn(*inputs), J v); ``v`` is a tuple with one tangent per input, or one
    tensor for a single input (MindSpore's deprecated cell; ops.jvp is the function)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        return ops.jvp(self.fn, inputs if len(inputs) > 1 else inputs[0], v)


class Vjp(Cell):
    """``Vjp(fn)(*inputs, v)`` -> (fn(*inputs), v^T J): one gradient per input (a tuple for several inputs,
    a tensor for one), ``v`` shaped like the output (a tuple for a tuple output)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        out, backward = ops.vjp(self.fn, *inputs)
        grads = backward(v)
        return out, grads[0] if len(inputs) == 1 and isinstance(grads, tuple) else grads
