"""What every exporter starts from: the optimized graph jit builds for a network and its example inputs."""
from __future__ import annotations

import inspect
from dataclasses import dataclass

import numpy as np

from ..core.pytree import flatten, is_input_leaf
from ..core.tensor import Parameter, Tensor
from ..core.types import TensorType
from ..ir.graph import Const, Graph, Var


class ExportError(NotImplementedError):
    """The network uses something the chosen file format cannot express (the message names it)."""


@dataclass
class ExportedInput:
    name: str
    var: Var | None  # None: the network does not read this input (it is still part of the model's signature)
    type: TensorType


@dataclass
class ExportedParam:
    name: str
    var: Var
    value: np.ndarray


def _arg_names(net, n: int) -> list[str]:
    fn = getattr(type(net), "construct", None) if hasattr(net, "construct") else net
    fn = getattr(fn, "fn", fn)
    names = []
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        params = []
    if params and params[0].name == "self" and hasattr(net, "construct"):
        params = params[1:]
    for p in params:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
    names += [f"input_{i}" for i in range(len(names), n)]
    return names[:n]


class ExportGraph:
    """``net`` (a Cell, in inference mode while it is traced, or a function) compiled for ``inputs`` at jit level
    O0 (folding, simplification, CSE and DCE; no fusion): its graph, its tensor inputs in order, the Parameters it
    reads with their current values, and its outputs."""

    def __init__(self, net, inputs: tuple):
        from ..jit.api import compile_graph

        leaves: list = []
        flatten((tuple(inputs), {}), leaves, is_input_leaf)
        for i, leaf in enumerate(leaves):
            if not isinstance(leaf, Tensor) and not isinstance(leaf, (bool, int, float, str, type(None))):
                raise ExportError(f"export: input {i} is a {type(leaf).__name__}; only Tensors (and Python constants, "
                                  "which are baked into the model) can be inputs")
        training = getattr(net, "training", None)
        if training:
            net.set_train(False)
        try:
            ex = compile_graph(net, tuple(inputs), jit_level="O0")
        finally:
            if training:
                net.set_train(True)
        graph: Graph = ex.graph
        if graph.updates:
            raise ExportError("export: the network writes Parameters when it runs (for example a BatchNorm still in "
                              "training mode, or ops.assign in construct); an exported model is inference only")
        sources = ex.traced.sources
        by_leaf = {sources[v.uid][1]: v for v in graph.inputs if sources[v.uid][0] == "arg"}
        tensor_leaves = [i for i, leaf in enumerate(leaves) if isinstance(leaf, Tensor)]
        names = _arg_names(net, len(tensor_leaves)) if len(tensor_leaves) == len(inputs) else \
            [f"input_{k}" for k in range(len(tensor_leaves))]
        self.inputs = []
        for k, i in enumerate(tensor_leaves):
            leaf = leaves[i]
            self.inputs.append(ExportedInput(names[k], by_leaf.get(i),
                                             TensorType(tuple(leaf.shape), leaf.dtype)))
        self.params = []
        seen = set()
        for v in graph.inputs:
            kind, obj = sources[v.uid][0], sources[v.uid][1]
            if kind == "arg":
                continue
            if isinstance(obj, Parameter):
                name, value = obj.name, obj.asnumpy()
            else:  # a tensor attribute the network reads: exported with its current value
                name, value = obj.name, obj.current().asnumpy()
            if name in seen:
                raise ExportError(f"export: two different Parameters are both named {name!r}; give them unique names")
            seen.add(name)
            self.params.append(ExportedParam(name, v, np.ascontiguousarray(value)))
        self.graph = graph
        self.outputs = list(graph.outputs)
        self.single_output = len(self.outputs) == 1 and ex.single
        self.name = getattr(type(net), "__name__", "graph") if hasattr(net, "construct") else \
            getattr(net, "__name__", "graph")


def op_table(table: dict):
    """``@op_table(TABLE)("Name", ...)`` registers an emitter function for sprout ops by name."""
    def names(*ops):
        def register(fn):
            for n in ops:
                table[n] = fn
            return fn
        return register
    return names


def like_dtype(node):
    """The dtype a Python-scalar operand of ``node`` takes: that of its first tensor input (else its output's)."""
    for v in node.inputs:
        if isinstance(v, Var) or isinstance(getattr(v, "value", None), np.ndarray):
            return v.type.dtype
    return node.outputs[0].type.dtype


class ValueNames:
    """The names graph values have in the file being written; constants are materialized by ``const``."""

    fmt = ""

    def __init__(self):
        self.names: dict = {}
        self.current = None  # the node being emitted (for messages)

    def const(self, arr) -> str:
        raise NotImplementedError

    def value(self, v, like=None) -> str:
        """The name of a sprout value; a Python-scalar constant becomes a 0-d tensor of dtype ``like``."""
        if isinstance(v, Var):
            name = self.names.get(v.uid)
            if name is None:
                raise ExportError(f"{self.fmt} export: value {v} is used before it is defined")
            return name
        if isinstance(v, Const):
            val = v.value
            if isinstance(val, np.ndarray):
                return self.const(val)
            if isinstance(val, (bool, int, float)):
                return self.const(np.asarray(val, like.np if like is not None else np.float32))
        op = self.current.op.name if self.current is not None else "the output"
        raise ExportError(f"{self.fmt} export: the constant operand {v!r} of {op} cannot be stored")
