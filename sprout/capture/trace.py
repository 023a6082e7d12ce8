"""Trace capture: run a Python function on symbolic tensors and record the ops it calls as a Graph."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from ..core.types import TensorType
from ..ir.builder import GraphBuilder, Tracer
from ..ir.graph import Graph


# ---- pytrees: tuples, lists and dicts of leaves ---------------------------------------------------
class Slot:
    """Where the i-th flat leaf goes back in a rebuilt structure."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __repr__(self) -> str:
        return f"Slot({self.index})"


def flatten(tree: Any, leaves: list, is_leaf: Callable[[Any], bool]) -> Any:
    """Append the leaves of ``tree`` (values where ``is_leaf`` holds) to ``leaves``; return the
    structure with Slots in their place (non-leaf scalars stay in the structure as constants)."""
    if is_leaf(tree):
        leaves.append(tree)
        return Slot(len(leaves) - 1)
    if isinstance(tree, tuple):
        items = [flatten(x, leaves, is_leaf) for x in tree]
        if hasattr(tree, "_fields"):  # namedtuple
            return ("namedtuple", type(tree), items)
        return ("tuple", type(tree), items)
    if isinstance(tree, list):
        return ("list", type(tree), [flatten(x, leaves, is_leaf) for x in tree])
    if isinstance(tree, dict):
        return ("dict", type(tree), [(k, flatten(v, leaves, is_leaf)) for k, v in tree.items()])
    return ("const", tree)


def unflatten(spec: Any, leaves: list) -> Any:
    if spec.__class__ is Slot:
        return leaves[spec.index]
    kind = spec[0]
    if kind == "const":
        return spec[1]
    if kind == "tuple":
        items = tuple(unflatten(x, leaves) for x in spec[2])
        return items if spec[1] is tuple else spec[1](items)
    if kind == "namedtuple":
        return spec[1](*[unflatten(x, leaves) for x in spec[2]])
    if kind == "list":
        return [unflatten(x, leaves) for x in spec[2]]
    return {k: unflatten(v, leaves) for k, v in spec[2]}


def is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


# ---- mutable scalars ------------------------------------------------------------------------------
class MutableInt(int):
    """``mutable(3)``: an int that a jitted function receives as a variable (no recompile on change)."""

    __slots__ = ()
    sprout_dtype = mstype.int64


class MutableFloat(float):
    """``mutable(0.5)``: a float that a jitted function receives as a variable."""

    __slots__ = ()
    sprout_dtype = mstype.float32


def is_input_leaf(x: Any) -> bool:
    """Leaves that become graph inputs: tensors and mutable() scalars."""
    return isinstance(x, (Tensor, MutableInt, MutableFloat))


def leaf_type(x: Any) -> TensorType:
    if isinstance(x, Tensor):
        return TensorType(tuple(x._data.shape), x.dtype)
    return TensorType((), x.sprout_dtype)


def leaf_array(x: Any) -> np.ndarray:
    if isinstance(x, Tensor):
        return x._data
    return np.asarray(x, x.sprout_dtype.np)


# ---- the trace ------------------------------------------------------------------------------------
@dataclass
class Traced:
    graph: Graph
    in_spec: Any           # structure of (args, kwargs) with Slots for the input leaves
    out_spec: Any          # structure of the result with Slots for the graph outputs
    sources: dict          # input uid -> ("arg", leaf index) | ("param", Parameter)


def trace(fn: Callable, args: tuple, kwargs: dict, *, name: str, types: list | None = None) -> Traced:
    """Run ``fn(*args, **kwargs)`` with every tensor / mutable leaf replaced by a Tracer.
    ``types`` optionally overrides the leaves' TensorTypes (symbolic dimensions)."""
    leaves: list = []
    in_spec = flatten((tuple(args), dict(kwargs)), leaves, is_input_leaf)
    builder = GraphBuilder(name)
    tracers = []
    for i, leaf in enumerate(leaves):
        t = types[i] if types is not None else leaf_type(leaf)
        tracers.append(builder.add_input(t, "", ("arg", i)))
    targs, tkwargs = unflatten(in_spec, tracers)
    with builder:
        result = fn(*targs, **tkwargs)
    outs: list = []
    out_spec = flatten(result, outs, is_tensor)
    graph = builder.finish(outs)
    return Traced(graph, in_spec, out_spec, dict(builder.sources))


def replay(graph: Graph, args: list) -> list:
    """Re-issue ``graph``'s nodes through ``dispatch.bind`` on ``args`` (Tensors or Tracers): runs it
    eagerly, records it on active tapes, or copies it into the graph being built. Returns the
    output values followed by the updated values (``graph.updates``)."""
    from ..core.dispatch import bind
    from ..ir.graph import Const

    env: dict[int, Any] = {v.uid: a for v, a in zip(graph.inputs, args)}
    consts: dict[int, Tensor] = {}

    def val(x):
        if isinstance(x, Const):
            v = x.value
            if isinstance(v, np.ndarray):
                t = consts.get(id(v))
                if t is None:
                    t = consts[id(v)] = Tensor.__new__(Tensor)
                    t._data = v
                return t
            return v
        return env[x.uid]

    for node in graph.nodes:
        out = bind(node.op, tuple(val(x) for x in node.inputs), node.attrs)
        if len(node.outputs) == 1 and node.op.n_out == 1:
            env[node.outputs[0].uid] = out
        else:
            for v, o in zip(node.outputs, out):
                env[v.uid] = o
    return [val(o) for o in graph.outputs] + [val(v) for _, v in graph.updates]


__all__ = ["trace", "replay", "flatten", "unflatten", "Slot", "Traced", "Tracer", "MutableInt", "MutableFloat"]
