"""Structurally zero cotangents: a backward graph rewritten for cotangent inputs known to be zero, so that what only
they reach is skipped as an eager tape skips the ops no cotangent reaches (their 0 * inf stays 0, never NaN)."""
from __future__ import annotations

import weakref

from ..ir.graph import Graph, Node, Var

# a zero operand (any of them) makes the result zero
_ANNIHILATE = frozenset({"Mul", "MatMul", "BatchMatMul", "ZerosLike"})
# linear in the first operand: a zero first operand makes the result zero
_LINEAR0 = frozenset({"Neg", "Reshape", "ReduceSum", "BroadcastTo", "Transpose", "Cast", "ExpandDims", "Squeeze",
                      "RealDiv", "Div", "Tile", "Conj", "Real", "Imag"})

_PRUNED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def prune(graph: Graph, zero_inputs: frozenset) -> tuple[Graph, frozenset]:
    """``graph`` (a backward: linear in its cotangent inputs) with the inputs at positions ``zero_inputs`` known to
    be zero: a sum with a zero term reads the other term, a product with a zero factor (and a linear op of a zero)
    is zero. Returns the rewritten graph and the positions of its outputs that are structurally zero: their values
    in the graph must not be read (the caller uses zeros). Nodes are kept (dead ones go in dead code elimination);
    an op without a rule reads the zero input's real value."""
    per = _PRUNED.setdefault(graph, {})
    hit = per.get(zero_inputs)
    if hit is None:
        hit = per[zero_inputs] = _prune(graph, zero_inputs)
    return hit


def _prune(graph: Graph, zero_inputs: frozenset) -> tuple[Graph, frozenset]:
    zero = {graph.inputs[i].uid for i in zero_inputs}
    alias: dict[int, Var] = {}
    nodes = []
    for node in graph.nodes:
        ins = [alias.get(x.uid, x) if isinstance(x, Var) else x for x in node.inputs]
        if any(a is not b for a, b in zip(ins, node.inputs)):
            node = Node(node.op, ins, node.attrs, node.outputs, node.loc)
        nodes.append(node)
        z = [isinstance(x, Var) and x.uid in zero for x in ins]
        if not any(z) or node.side_effect:
            continue
        name, outs = node.op.name, node.outputs
        if name in _ANNIHILATE or name in _LINEAR0 and z[0] or all(z) and name in ("Add", "Sub"):
            zero.update(o.uid for o in outs)
        elif name == "Add" and len(ins) == 2 and ins[1 - z.index(True)].type == outs[0].type:
            alias[outs[0].uid] = ins[1 - z.index(True)]
        elif name == "Sub" and len(ins) == 2 and z[1] and not z[0] and ins[0].type == outs[0].type:
            alias[outs[0].uid] = ins[0]
        elif name == "Select" and len(ins) == 3 and z[1] and z[2]:
            zero.update(o.uid for o in outs)
    outputs = [alias.get(o.uid, o) if isinstance(o, Var) else o for o in graph.outputs]
    zero_out = frozenset(k for k, o in enumerate(outputs) if isinstance(o, Var) and o.uid in zero)
    return graph.replace(nodes=nodes, outputs=outputs), zero_out
