"""The reference interpreter: evaluates a Graph node by node with each op's NumPy impl."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

import numpy as np

from ..ir.effects import apply
from ..ir.graph import Const, Graph


class GraphRuntimeError(RuntimeError):
    """An op failed while a compiled graph ran; names the node and the user's source line."""


def describe_node(graph: Graph, node, exc: BaseException) -> str:
    loc = node.loc
    where = f"{loc.filename}:{loc.lineno}" if loc is not None else "<unknown location>"
    text = f"\n    {loc.source_line.strip()}" if loc is not None and loc.source_line.strip() else ""
    index = graph.nodes.index(node) if node in graph.nodes else -1
    return (f"{node.op.name} (node {index} of graph {graph.name}) failed at run time, from {where}{text}\n"
            f"{type(exc).__name__}: {exc}")


def bind_attrs(attrs: dict, compile_sub: Callable[[Graph], Callable]) -> dict:
    """Attrs with every sub-graph replaced by a callable (arrays in -> tuple of arrays out)."""
    if not any(isinstance(v, Graph) for v in attrs.values()):
        return attrs
    return {k: compile_sub(v) if isinstance(v, Graph) else v for k, v in attrs.items()}


def interpret(graph: Graph, *args: Any) -> tuple:
    """Run ``graph`` on NumPy arrays / scalars; returns outputs followed by updated values."""
    env: dict[int, Any] = {}
    for v, a in zip(graph.inputs, args):
        env[v.uid] = a
    if len(args) != len(graph.inputs):
        raise TypeError(f"graph {graph.name} takes {len(graph.inputs)} inputs, got {len(args)}")

    def val(x):
        return x.value if isinstance(x, Const) else env[x.uid]

    for node in graph.nodes:
        attrs = bind_attrs(node.attrs, interpreted)
        try:  # functional: written operands are copies (the reference never writes in place)
            outs = apply(node, [val(x) for x in node.inputs], _copy, attrs)
        except Exception as exc:
            raise GraphRuntimeError(describe_node(graph, node, exc)) from exc
        for v, o in zip(node.outputs, outs):
            env[v.uid] = o
    return tuple(_as_array(val(o)) for o in graph.outputs) + tuple(_as_array(val(v)) for _, v in graph.updates)


def _copy(x: Any) -> Any:
    return np.array(x, copy=True)


def _as_array(x: Any) -> Any:
    return x if isinstance(x, np.ndarray) else np.asarray(x)


def interpreted(graph: Graph) -> Callable:
    """A callable running ``graph`` through the interpreter."""
    def run(*args):
        return interpret(graph, *args)

    run.__name__ = f"interpret_{graph.name}"
    return run
