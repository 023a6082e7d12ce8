"""Structurally zero (absent) cotangents: a backward graph specialised to cotangent inputs known at compile time to
carry nothing (outputs nothing downstream differentiates), with their paths removed rather than fed zeros. As an
eager tape never runs a bprop whose output cotangents are all missing, an input reaching a used and an unused
output gets the used one's gradient only (a zero cotangent times an infinite partial would be NaN)."""
from __future__ import annotations

import weakref

import numpy as np

from ..core.op import REGISTRY
from ..ir.graph import Const, Graph, Node, Var
from ..passes.basic import dce

_ACCUMULATE = ("Add", "AddN")
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _shape_only(name: str, n: int) -> range | tuple:
    """Operand positions an op reads only the shape of (an absent cotangent there is a zeros stand-in, not an
    absent result: ``OnesLike`` of it is ones)."""
    if name in ("OnesLike", "AxesSize"):
        return range(n)
    return {"BroadcastLike": (1,), "GetItemGradLike": (n - 1,)}.get(name, ())


def specialise(graph: Graph, n_res: int, absent_in: frozenset) -> tuple[Graph, frozenset]:
    """``graph`` (inputs: ``n_res`` residuals, then cotangents) computed as if the inputs at the positions
    ``absent_in`` (counted from 0 over all inputs) did not exist. Returns the rewritten graph and the positions of
    its outputs that are absent (structurally zero: computed from absent cotangents only).

    The rule (symbolic zeros, never a numeric ``x * 0 -> 0``, ``x`` may be inf): a node all of whose
    cotangent operands are absent is not run and its results are absent (eagerly, a bprop with no cotangent is
    skipped); an accumulation (``Add``/``AddN``/``Sub``) keeps its present terms; a node mixing present and absent
    cotangents (a concatenation of pieces' cotangents, a control-flow node) reads zeros for the absent ones, as
    does an operand only the shape of which is read (``OnesLike``). An absent output is a zeros value in the
    graph (the caller may use it or, knowing it is absent, not read it). Inputs stay (an absent one is still fed,
    zeros by convention, and read only for the shape of a zero of a symbolic shape). Built once per pattern."""
    per = _CACHE.setdefault(graph, {})
    key = (n_res, frozenset(absent_in))
    hit = per.get(key)
    if hit is None:
        hit = per[key] = _specialise(graph, n_res, key[1])
    return hit


def without(graph: Graph, n_res: int, missing: tuple) -> Graph:
    """``specialise`` with one flag per cotangent input (``missing[k]``: cotangent ``k`` is absent); the absent
    outputs are zeros."""
    return specialise(graph, n_res, frozenset(n_res + k for k, m in enumerate(missing) if m))[0]


def _specialise(graph: Graph, n_res: int, absent_in: frozenset) -> tuple[Graph, frozenset]:
    if not absent_in:
        return graph, frozenset()
    absent = {graph.inputs[i].uid for i in absent_in}
    derived = {v.uid for v in graph.inputs[n_res:]}  # values computed from a cotangent (present or not)
    rename: dict[int, object] = {}
    nodes: list[Node] = []

    def zeros(v: Var):
        """A zero of ``v``'s type: a constant, or (a symbolic shape) ``ZerosLike`` of ``v`` itself, whose nodes
        stay then, run on the absent inputs' zeros only for the shape)."""
        shape, dtype = v.type.shape, v.type.dtype
        if dtype is not None and all(d is not None for d in shape):
            return Const(np.zeros(shape, dtype.np))
        z = Var(v.type)
        nodes.append(Node(REGISTRY["ZerosLike"], [v], {}, [z]))
        return z

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
        if not live and not node.subgraphs():  # only absent cotangents reach it: absent (kept for a ZerosLike's
            absent.update(o.uid for o in node.outputs)  # shape, dropped by dead code elimination otherwise)
            nodes.append(node if ins == node.inputs else _with_inputs(node, ins))
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
    absent_out = frozenset(k for k, o in enumerate(outs) if isinstance(o, Var) and o.uid in absent)
    outs = [zeros(o) if k in absent_out else o for k, o in enumerate(outs)]
    return dce(graph.replace(nodes=nodes, outputs=outs)), absent_out


def _with_inputs(node: Node, inputs: list) -> Node:
    return Node(node.op, inputs, node.attrs, node.outputs, node.loc)
