"""Cotangents absent at run time: a control-flow backward whose result for an operand is present only on some runs
(the branch that reads it taken; a while loop that ran fewer times than it takes to overwrite it) gives it under a
predicate, and what the backward computes from it alone is masked by that predicate where it meets other values,
so its ``0 * inf`` on the runs it is absent is dropped, never summed (an eager tape does not visit that path)."""
from __future__ import annotations

import weakref

from ..core.op import REGISTRY
from ..ir.builder import Tracer
from ..ir.graph import Node, Var
from ..ops import functional as F
from .absent import _shape_only

# per builder, a masked cotangent's Var uid -> the bool[] Var saying when it is present (gone with the builder)
_GUARDED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def guarded(value, pred):
    """``value`` (a control-flow backward's result, exactly zero on the runs ``pred`` is false) marked as a cotangent
    present only when ``pred`` (a bool scalar) holds: ``mask`` propagates that; no node is added."""
    if isinstance(value, Tracer) and isinstance(pred, Tracer) and pred._builder is value._builder:
        _GUARDED.setdefault(value._builder, {})[value._var.uid] = pred._var
    return value


def mask(builder, start: int, seeds: list, table: dict) -> dict:
    """Rewrite ``builder``'s nodes from ``start`` (a backward run from the cotangents ``seeds``) so that values
    computed from guarded cotangents only carry their guard, and where one meets another value (a sum, a node with
    sub-graphs, another guard) it is read masked (``Select(pred, v, 0)``: an infinity or NaN made from the absent
    value is dropped). Returns ``table`` (id -> gradient) with the guarded gradients masked."""
    made = _GUARDED.get(builder, {})
    derived = {t._var.uid for t in seeds if isinstance(t, Tracer)}
    guard: dict[int, Var] = {}
    exact: set[int] = set()  # guarded values exactly zero when absent (``guarded``'s): read as they are
    out: list[Node] = []
    for node in builder.nodes[start:]:
        ins = list(node.inputs)
        vs = [x for x in ins if isinstance(x, Var)]
        if any(x.uid in derived for x in vs):
            derived.update(o.uid for o in node.outputs)
        if any(x.uid in guard for x in vs):
            shape_only = set(_shape_only(node.op.name, len(ins)))
            cot = [x for k, x in enumerate(ins) if isinstance(x, Var) and x.uid in derived and k not in shape_only]
            preds = {guard[x.uid].uid if x.uid in guard else None for x in cot}
            if cot and len(preds) == 1 and None not in preds and not node.subgraphs() and not node.side_effect:
                p = guard[cot[0].uid]
                guard.update((o.uid, p) for o in node.outputs)
            elif cot:
                for k, x in enumerate(ins):
                    if isinstance(x, Var) and x.uid in guard and x.uid not in exact and k not in shape_only:
                        ins[k] = _masked(out, x, guard[x.uid], node)
                node.inputs = ins  # in place: a tape's lazy record of a control node extends this very node
        out.append(node)
        for o in node.outputs:
            p = made.pop(o.uid, None)
            if p is not None:
                guard[o.uid] = p
                exact.add(o.uid)
                derived.add(o.uid)
    builder.nodes[start:] = out
    result = dict(table)
    for key, g in table.items():
        if isinstance(g, Tracer) and g._var.uid in guard and g._var.uid not in exact:
            result[key] = F.select(_tracer(builder, guard[g._var.uid]), g, F.zeros_like(g))
    return result


def _masked(out: list, x: Var, pred: Var, node: Node) -> Var:
    zero, sel = Var(x.type), Var(x.type)
    out.append(Node(REGISTRY["ZerosLike"], [x], {}, [zero], node.loc))
    out.append(Node(REGISTRY["Select"], [pred, x, zero], {}, [sel], node.loc))
    return sel


def _tracer(builder, v: Var):
    from ..ir.builder import _new_tracer

    return _new_tracer(v, builder)
