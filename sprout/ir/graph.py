"""The IR: typed SSA values (Var), constants (Const), op applications (Node) and graphs."""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import SourceLoc
from ..core.op import Op
from ..core.types import TensorType

_ids = itertools.count()

__all__ = ["Var", "Const", "Node", "Graph", "SourceLoc", "Value"]


class Var:
    """A value defined once (a graph input or a node output). ``name`` is a hint; the printer numbers."""

    __slots__ = ("type", "name", "uid")

    def __init__(self, type: TensorType, name: str = ""):  # noqa: A002 - the contract's field name
        self.type = type
        self.name = name
        self.uid = next(_ids)

    def __repr__(self) -> str:
        return f"Var({self.name or self.uid}:{self.type})"


class Const:
    """A compile-time constant: a NumPy array or a Python scalar / tuple / dtype / None."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    @property
    def type(self) -> Any:
        v = self.value
        if isinstance(v, np.ndarray):
            from ..core.types import type_of

            return type_of(v)
        return v

    def key(self) -> Any:
        """A hashable identity for CSE: arrays by object identity, everything else by (type, value)."""
        v = self.value
        if isinstance(v, np.ndarray):
            return ("array", id(v))
        try:
            hash(v)
        except TypeError:
            return ("object", id(v))
        return (type(v), v)

    def __repr__(self) -> str:
        return f"Const({self.value!r:.40})"


Value = Var | Const


@dataclass(eq=False)
class Node:
    """``outputs = op(*inputs, **attrs)`` at the user's source line ``loc``."""

    op: Op
    inputs: list
    attrs: dict
    outputs: list
    loc: SourceLoc | None = None

    @property
    def side_effect(self) -> bool:
        """The node writes state or does io (``ir.effects.has_effect``; printed with ``!``)."""
        from .effects import has_effect

        return has_effect(self)

    def subgraphs(self) -> list[tuple[str, Graph]]:
        return [(k, v) for k, v in self.attrs.items() if isinstance(v, Graph)]


@dataclass(eq=False)
class Graph:
    """A function: inputs -> nodes (in execution order) -> outputs.

    ``updates`` is the write-back epilogue of a top-level graph: ``(input_var, new_value)`` pairs the
    caller stores into the Parameter / argument behind ``input_var`` after a run (``ops.assign``,
    optimizer steps; see ``ir.effects``). Nodes never write their inputs. ``captured`` holds, for a
    sub-graph traced by ``trace_subgraph``, the outer tracers lifted into its trailing inputs."""

    name: str
    inputs: list
    nodes: list
    outputs: list
    updates: list = field(default_factory=list)
    captured: list = field(default_factory=list)

    def __str__(self) -> str:
        from .printer import format_graph

        return format_graph(self)

    def replace(self, **changes) -> Graph:
        """A shallow copy with some fields replaced (passes build new graphs, never mutate)."""
        fields = {"name": self.name, "inputs": list(self.inputs), "nodes": list(self.nodes),
                  "outputs": list(self.outputs), "updates": list(self.updates), "captured": list(self.captured)}
        fields.update(changes)
        return Graph(**fields)

    @property
    def output_types(self) -> list:
        return [o.type for o in self.outputs]


def substitute(value: Any, mapping: dict) -> Any:
    """``value`` with Vars replaced through ``mapping`` (uid -> Var | Const)."""
    if isinstance(value, Var):
        return mapping.get(value.uid, value)
    return value


def remap_node(node: Node, mapping: dict) -> Node:
    """The node with its inputs renamed through ``mapping`` (a new Node only if something changed)."""
    if not mapping:
        return node
    new_inputs = [substitute(v, mapping) for v in node.inputs]
    if all(a is b for a, b in zip(new_inputs, node.inputs)):
        return node
    return Node(node.op, new_inputs, node.attrs, node.outputs, node.loc)


def remap_graph_tail(graph: Graph, nodes: list, mapping: dict) -> Graph:
    """A new graph with ``nodes`` and outputs/updates renamed through ``mapping``."""
    return graph.replace(nodes=nodes, outputs=[substitute(o, mapping) for o in graph.outputs],
                         updates=[(t, substitute(v, mapping)) for t, v in graph.updates])


def numel(shape) -> int | None:
    """Element count of a shape; None when an axis is symbolic (None) or there is no shape."""
    if shape is None:
        return None
    n = 1
    for d in shape:
        if d is None:
            return None
        n *= d
    return n


def last_uses(graph: Graph) -> dict[int, int]:
    """Var uid -> index of the last node reading it; outputs and updated values live to ``len(nodes)``."""
    last: dict[int, int] = {}
    for i, node in enumerate(graph.nodes):
        for x in node.inputs:
            if isinstance(x, Var):
                last[x.uid] = i
    end = len(graph.nodes)
    for o in list(graph.outputs) + [v for _, v in graph.updates]:
        if isinstance(o, Var):
            last[o.uid] = end
    return last


def resolve(mapping: dict, value: Any) -> Any:
    """Follow a chain of substitutions to its end."""
    while isinstance(value, Var) and value.uid in mapping:
        value = mapping[value.uid]
    return value
