"""Algebraic simplification: a table of local rewrite rules, each with a one-line rationale."""
from __future__ import annotations

from typing import NamedTuple
from collections.abc import Callable

import numpy as np

from ..ir.graph import Const, Graph, Node, Var, remap_graph_tail, remap_node


class Rule(NamedTuple):
    op: str
    rewrite: Callable  # (node, producers) -> replacement Value | Node | None
    why: str


def _is_const(x, value) -> bool:
    if not isinstance(x, Const):
        return False
    v = x.value
    if isinstance(v, bool) or isinstance(v, np.ndarray) and v.dtype == np.bool_:
        return False
    try:
        return bool(np.all(np.asarray(v) == value))
    except (TypeError, ValueError):
        return False


def _same_type(x, node: Node) -> bool:
    return isinstance(x, Var) and x.type == node.outputs[0].type


def _identity_if(pos: int, const_pos: int, value):
    def rewrite(node: Node, producers: dict):
        x = node.inputs[pos]
        if _is_const(node.inputs[const_pos], value) and _same_type(x, node):
            return x
        return None

    return rewrite


def _passthrough(node: Node, producers: dict):
    x = node.inputs[0]
    return x if _same_type(x, node) else None


def _double_neg(node: Node, producers: dict):
    src = producers.get(node.inputs[0].uid) if isinstance(node.inputs[0], Var) else None
    if src is not None and src.op.name == "Neg":
        return src.inputs[0]
    return None


def _reshape_chain(node: Node, producers: dict):
    x = node.inputs[0]
    if _same_type(x, node):
        return x
    src = producers.get(x.uid) if isinstance(x, Var) else None
    if src is not None and src.op.name == "Reshape":
        if _same_type(src.inputs[0], node):
            return src.inputs[0]
        return Node(node.op, [src.inputs[0]], node.attrs, node.outputs, node.loc)
    return None


def _identity_perm(node: Node, producers: dict):
    perm = tuple(node.attrs.get("perm", ()))
    if perm == tuple(range(len(perm))) and _same_type(node.inputs[0], node):
        return node.inputs[0]
    return None


def _square(node: Node, producers: dict):
    from ..ops.elementwise import MUL

    x = node.inputs[0]
    if _is_const(node.inputs[1], 2) and _same_type(x, node) and np.ndim(node.inputs[1].value) == 0:
        return Node(MUL, [x, x], {}, node.outputs, node.loc)
    return None


RULES: list[Rule] = [
    Rule("Mul", _identity_if(0, 1, 1), "x*1 -> x"),
    Rule("Mul", _identity_if(1, 0, 1), "1*x -> x"),
    Rule("Add", _identity_if(0, 1, 0), "x+0 -> x"),
    Rule("Add", _identity_if(1, 0, 0), "0+x -> x"),
    Rule("Sub", _identity_if(0, 1, 0), "x-0 -> x"),
    Rule("RealDiv", _identity_if(0, 1, 1), "x/1 -> x"),
    Rule("Pow", _identity_if(0, 1, 1), "x**1 -> x"),
    Rule("Pow", _square, "x**2 -> x*x (one multiply instead of a general power)"),
    Rule("Neg", _double_neg, "-(-x) -> x"),
    Rule("Cast", _passthrough, "cast to the dtype x already has -> x"),
    Rule("Reshape", _reshape_chain, "reshape to x's own shape -> x; reshape(reshape(x)) -> reshape(x)"),
    Rule("Transpose", _identity_perm, "transpose with the identity permutation -> x"),
    Rule("BroadcastTo", _passthrough, "broadcast to x's own shape -> x"),
    Rule("SumTo", _passthrough, "sum down to x's own shape -> x"),
    Rule("Identity", _passthrough, "identity(x) -> x (graphs have no aliasing to preserve)"),
    Rule("StopGradient", _passthrough, "stop_gradient(x) -> x once gradients are built"),
]

_BY_OP: dict[str, list[Rule]] = {}
for _r in RULES:
    _BY_OP.setdefault(_r.op, []).append(_r)


def simplify(graph: Graph) -> Graph:
    """Apply the rule table once over the graph in order (rules see rewritten producers)."""
    mapping: dict = {}
    producers: dict[int, Node] = {}
    nodes: list[Node] = []
    changed = False
    for node in graph.nodes:
        node = remap_node(node, mapping)
        replacement = None
        if not node.side_effect:
            for rule in _BY_OP.get(node.op.name, ()):
                replacement = rule.rewrite(node, producers)
                if replacement is not None:
                    break
        if replacement is None:
            nodes.append(node)
        elif isinstance(replacement, Node):
            nodes.append(replacement)
            node = replacement
            changed = True
        else:
            mapping[node.outputs[0].uid] = replacement
            changed = True
            continue
        for o in node.outputs:
            producers[o.uid] = node
    if not changed:
        return graph
    return remap_graph_tail(graph, nodes, mapping)
