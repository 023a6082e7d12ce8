"""Structural passes: inline graph calls, fold constants, CSE, DCE and pruning of unused inputs."""
from __future__ import annotations

import numpy as np

from ..ir.effects import pure, removable
from ..ir.graph import Const, Graph, Node, Var, numel, remap_graph_tail, remap_node, resolve, substitute
from ..ir.verify import IRError

FOLD_LIMIT = 1 << 16  # largest array (elements) constant folding materialises
_NO_FOLD_KINDS = ("random", "control", "effect")


def inline(graph: Graph) -> Graph:
    """Expand every ``GraphCall`` node into the callee's nodes (fresh Vars, the caller's locations kept)."""
    if not any(n.op.name == "GraphCall" for n in graph.nodes):
        return graph
    mapping: dict = {}
    nodes: list[Node] = []
    for node in graph.nodes:
        node = remap_node(node, mapping)
        callee = node.attrs.get("graph") if node.op.name == "GraphCall" else None
        if not isinstance(callee, Graph):
            nodes.append(node)
            continue
        if callee.updates:  # the builder turns a callee's writes into outputs (GraphBuilder._emit_call)
            raise IRError(f"inline: the graph called by GraphCall ({callee.name}) writes its inputs in place")
        callee = inline(callee)
        inner: dict = {v.uid: a for v, a in zip(callee.inputs, node.inputs)}
        for sub in callee.nodes:
            outs = [Var(o.type, o.name) for o in sub.outputs]
            for old, new in zip(sub.outputs, outs):
                inner[old.uid] = new
            nodes.append(Node(sub.op, [substitute(x, inner) for x in sub.inputs], sub.attrs, outs, sub.loc))
        for out, ret in zip(node.outputs, callee.outputs):
            mapping[out.uid] = substitute(ret, inner)
    return remap_graph_tail(graph, nodes, mapping)


def _foldable(node: Node) -> bool:
    return (pure(node) and node.op.kind not in _NO_FOLD_KINDS and not node.subgraphs()
            and all(isinstance(x, Const) for x in node.inputs))


def fold_constants(graph: Graph) -> Graph:
    """Evaluate nodes whose inputs are all constants (with the op's own impl) at compile time."""
    mapping: dict = {}
    nodes: list[Node] = []
    changed = False
    for node in graph.nodes:
        node = remap_node(node, mapping)
        if not _foldable(node) or any((numel(getattr(o.type, "shape", None)) or FOLD_LIMIT + 1) > FOLD_LIMIT
                                      for o in node.outputs):
            nodes.append(node)
            continue
        try:
            result = node.op.impl(*[x.value for x in node.inputs], **node.attrs)
        except Exception:  # noqa: BLE001 - leave it to fail at run time with the node's location
            nodes.append(node)
            continue
        results = [result] if len(node.outputs) == 1 and node.op.n_out == 1 else list(result)
        for out, value in zip(node.outputs, results):
            mapping[out.uid] = Const(np.asarray(value, dtype=out.type.dtype.np))
        changed = True
    if not changed:
        return graph
    return remap_graph_tail(graph, nodes, mapping)


def _freeze(value):
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_freeze(v) for v in value))
    hash(value)
    return value


def _value_key(x) -> tuple:
    return ("var", x.uid) if isinstance(x, Var) else ("const",) + (x.key(),)


def cse(graph: Graph) -> Graph:
    """Common-subexpression elimination: one node per (op, inputs, attrs) among pure nodes (``ir.effects``:
    a state write's result depends on the version it reads, io is never merged)."""
    seen: dict = {}
    mapping: dict = {}
    nodes: list[Node] = []
    for node in graph.nodes:
        node = remap_node(node, mapping)
        op = node.op
        key = None
        if pure(node) and op.kind not in _NO_FOLD_KINDS and not node.subgraphs():
            try:
                key = (op.name, id(op), tuple(_value_key(x) for x in node.inputs), _freeze(node.attrs))
            except TypeError:
                key = None
        prev = seen.get(key) if key is not None else None
        if prev is None:
            if key is not None:
                seen[key] = node
            nodes.append(node)
            continue
        for old, new in zip(node.outputs, prev.outputs):
            mapping[old.uid] = new
    if not mapping:
        return graph
    return remap_graph_tail(graph, nodes, mapping)


def dce(graph: Graph) -> Graph:
    """Dead-code elimination: drop nodes whose results are not used. io nodes always stay (``ir.effects``);
    a state write whose new value nobody reads or writes back is dead like any other value."""
    live: set[int] = set()
    for o in list(graph.outputs) + [v for _, v in graph.updates]:
        if isinstance(o, Var):
            live.add(o.uid)
    kept: list[Node] = []
    for node in reversed(graph.nodes):
        if not removable(node) or any(o.uid in live for o in node.outputs):
            kept.append(node)
            for x in node.inputs:
                if isinstance(x, Var):
                    live.add(x.uid)
            for _, sub in node.subgraphs():
                for v in sub.captured:
                    if isinstance(v, Var):
                        live.add(v.uid)
    if len(kept) == len(graph.nodes):
        return graph
    kept.reverse()
    return graph.replace(nodes=kept)


def prune_inputs(graph: Graph) -> Graph:
    """Drop graph inputs nothing reads (callers match inputs by Var identity, not position)."""
    used: set[int] = {t.uid for t, _ in graph.updates}
    for node in graph.nodes:
        used.update(x.uid for x in node.inputs if isinstance(x, Var))
    used.update(o.uid for o in graph.outputs if isinstance(o, Var))
    used.update(v.uid for _, v in graph.updates if isinstance(v, Var))
    kept = [v for v in graph.inputs if v.uid in used]
    if len(kept) == len(graph.inputs):
        return graph
    return graph.replace(inputs=kept)


__all__ = ["inline", "fold_constants", "cse", "dce", "prune_inputs", "resolve"]
