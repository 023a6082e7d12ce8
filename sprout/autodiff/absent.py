"""A backward graph specialised to cotangents that are absent (outputs nothing downstream used): their paths are
removed rather than fed zeros, so an input reaching a used and an unused output gets the used output's gradient
only, as eagerly (a zero cotangent times an infinite partial would be NaN)."""
from __future__ import annotations

import numpy as np

from ..core.op import REGISTRY
from ..ir.graph import Const, Graph, Node, Var

_ACCUMULATE = ("Add", "AddN")


def _shape_only(name: str, n: int) -> range | tuple:
    """Operand positions an op reads only the shape of (an absent cotangent there is a zeros stand-in, not an
    absent result: ``OnesLike`` of it is ones)."""
    if name in ("OnesLike", "AxesSize"):
        return range(n)
    return {"BroadcastLike": (1,), "GetItemGradLike": (n - 1,)}.get(name, ())


def without(graph: Graph, n_res: int, missing: tuple) -> Graph | None:
    """``graph`` (inputs: ``n_res`` residuals, then one cotangent per entry of ``missing``) computing its outputs
    as if the cotangents marked ``missing`` did not exist. The backward is linear in the cotangents: a node whose
    cotangent operands are all absent gives an absent result (dropped), an accumulation (``Add``/``AddN``/``Sub``)
    keeps its present terms, and a node mixing present and absent cotangents reads zeros for the absent ones, as
    does an operand only the shape of which is read (``OnesLike``, ``BroadcastLike``'s second).
    Inputs stay as they are (a missing cotangent's input is still fed zeros by the caller). None when a zero of a
    symbolic shape would be needed (the caller then keeps feeding zeros through the whole graph)."""
    absent = {v.uid for v, m in zip(graph.inputs[n_res:], missing) if m}
    if not absent:
        return graph
    derived = {v.uid for v in graph.inputs[n_res:]}  # values computed from a cotangent (present or not)
    rename: dict[int, object] = {}
    nodes: list[Node] = []

    def zeros(v: Var):
        shape = v.type.shape
        if any(d is None for d in shape) or v.type.dtype is None:
            raise _Symbolic
        return Const(np.zeros(shape, v.type.dtype.np))

    try:
        for node in graph.nodes:
            ins = [rename.get(x.uid, x) if isinstance(x, Var) else x for x in node.inputs]
            for k in _shape_only(node.op.name, len(ins)):
                if isinstance(ins[k], Var) and ins[k].uid in absent:
                    ins[k] = zeros(ins[k])
            gone = [isinstance(x, Var) and x.uid in absent for x in ins]
            cot = [isinstance(x, Var) and x.uid in derived for x in ins]
            if any(cot):
                derived.update(o.uid for o in node.outputs)
            if not any(gone):
                nodes.append(node if ins == node.inputs else _with_inputs(node, ins))
                continue
            live = [x for x, g, c in zip(ins, gone, cot) if c and not g]
            name = node.op.name
            if not live and not node.subgraphs():
                absent.update(o.uid for o in node.outputs)  # linear in absent cotangents only: absent
                continue
            out = node.outputs[0]
            if name in _ACCUMULATE and len(node.outputs) == 1 and all(c for c in cot):
                keep = [x for x, g in zip(ins, gone) if not g]
                if len(keep) == 1 and keep[0].type == out.type:
                    rename[out.uid] = keep[0]
                    continue
                if name == "AddN" and all(x.type == out.type for x in keep):
                    nodes.append(_with_inputs(node, keep))
                    continue
            if name == "Sub" and len(node.outputs) == 1 and all(cot) and gone == [False, True] \
                    and ins[0].type == out.type:
                rename[out.uid] = ins[0]
                continue
            if name == "Sub" and len(node.outputs) == 1 and all(cot) and gone == [True, False] \
                    and ins[1].type == out.type:
                nodes.append(Node(REGISTRY["Neg"], [ins[1]], {}, list(node.outputs), node.loc))
                continue
            # a present cotangent meets an absent one (a concatenation, a control-flow node): read zeros
            nodes.append(_with_inputs(node, [zeros(x) if g else x for x, g in zip(ins, gone)]))
        outs = [rename.get(o.uid, o) if isinstance(o, Var) else o for o in graph.outputs]
        outs = [zeros(o) if isinstance(o, Var) and o.uid in absent else o for o in outs]
    except _Symbolic:
        return None
    return graph.replace(nodes=nodes, outputs=outs)


class _Symbolic(Exception):
    pass


def _with_inputs(node: Node, inputs: list) -> Node:
    return Node(node.op, inputs, node.attrs, node.outputs, node.loc)
