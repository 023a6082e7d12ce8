"""Which outer tensor objects a tensor while's loop variables are, eagerly, at each iteration: one carried bool flag
per (loop variable, object) pair, so in-place writes reach the object only while the variable is it."""
from __future__ import annotations

import numpy as np

from ..core.tensor import Parameter, Tensor
from ..ir.builder import Tracer
from ..ir.graph import Const
from ..ops import functional as F

# A pair's record: {(leaf index, id(obj)): (obj, flag)}. ``obj`` is the loop variable's entry object, or an outer
# object the body binds the variable to (a Parameter or written tensor, a tensor of an enclosing graph), directly
# (``v = p``) or through a tensor if or an inner while (``alias_when``). ``flag`` is a concrete bool tensor: True
# for the entry object, False for a bound one; the body writes it, so it becomes a carried state value of the loop
# (a flag the body never writes stays what it was and is not carried).


def entry_pairs(leaves: list, carry: dict, kinds: dict) -> dict:
    """The pairs of the loop variables that start as a tensor object: each is its entry object."""
    return {(i, id(leaves[i])): (leaves[i], Tensor(np.array(True)))
            for i in carry if i not in kinds and isinstance(leaves[i], Tensor)}


def seed_body(b, pairs: dict, order: list, ts: tuple, extra: list) -> None:
    """At the body's entry a loop variable is each object whose flag holds: a write to one reaches the other."""
    at = dict(zip(order, ts))
    for (i, _), (obj, flag) in pairs.items():
        if i not in at:
            continue
        if any(flag is e for e in extra):
            b.alias_when(at[i], obj, b.target(flag))
        elif bool(flag.asnumpy()):  # never written by the body: still its first value
            b.alias_when(at[i], obj, None)


def _facts(b, out) -> list:
    """``out`` itself and what it is the object of on some path (``alias_when``): [(obj, pred, negate)]."""
    entry = b._when.get(id(out))
    return [(out, None, False)] + (list(entry[1]) if entry is not None and entry[0] is out else [])


def _outer(b, obj) -> bool:
    """``obj`` is an object from outside the body that an in-place write can reach: a Parameter (or a tensor
    written in place), or a tensor of an enclosing graph."""
    if isinstance(obj, Tracer):
        return obj._builder is not b
    return isinstance(obj, Parameter) or (isinstance(obj, Tensor) and (id(obj) in b._state or id(obj) in b._params))


def discover(b, pairs: dict, order: list, ts: tuple, outs: list, leaves: list) -> bool:
    """New pairs from the body's results ``outs`` (one per leaf): a variable the body binds to an outer object,
    or to another loop variable that may be one. True when there are new ones (the body is traced again)."""
    var_of = {id(t): i for i, t in zip(order, ts)}
    new = False
    for i in order:
        if i >= len(outs) or not isinstance(outs[i], Tensor):
            continue
        for other, _, _ in _facts(b, outs[i]):
            objs = []
            if id(other) in var_of and var_of[id(other)] != i:
                j = var_of[id(other)]
                objs = [obj for (k, _), (obj, _) in pairs.items() if k == j]
            elif _outer(b, other):
                objs = [other]
            for obj in objs:
                if (i, id(obj)) not in pairs:
                    pairs[(i, id(obj))] = (obj, Tensor(np.array(leaves[i] is obj)))
                    new = True
    return new


def rebind(b, pairs: dict, order: list, ts: tuple, outs: list, extra: list) -> None:
    """After the body: each flag says whether the variable's new value ``outs[i]`` is the object — kept when the
    variable is unchanged, True when the body bound it to the object, another loop variable's flag when bound to
    that one, on the path a branch took (``alias_when``) — else False. All computed from the flags at the body's
    entry, then written."""
    at = dict(zip(order, ts))
    var_of = {id(t): i for i, t in zip(order, ts)}
    # the flags at the body's entry: a carried one's tracer, else its value
    now = {key: b.target(flag) if any(flag is e for e in extra) else bool(flag.asnumpy())
           for key, (_, flag) in pairs.items()}
    values = {}
    for (i, key), (obj, _) in pairs.items():
        out = outs[i] if i < len(outs) else None
        if i not in at or out is at[i]:
            continue
        value = False  # a Python bool, or a bool tracer
        for other, pred, negate in (_facts(b, out) if out is not None else ()):
            if other is obj:
                src = True
            elif id(other) in var_of and (var_of[id(other)], key) in now:
                src = now[(var_of[id(other)], key)]
            else:
                continue
            if src is False:
                continue
            if pred is not None:
                cond = F.logical_not(pred) if negate else pred
                src = cond if src is True else F.logical_and(src, cond)
            if src is True:
                value = True
                break
            value = src if value is False else F.logical_or(value, src)
        values[(i, key)] = value
    for k, value in values.items():
        target = b.target(pairs[k][1])
        b.write(target, value._var if isinstance(value, Tensor) else Const(np.array(value)))


def after_loop(b, pairs: dict, final: list, flag_out: dict) -> None:
    """After the loop a variable is each object whose flag held at the end (a flag never written: its value)."""
    for (i, _), (obj, flag) in pairs.items():
        if not isinstance(final[i], Tracer):
            continue
        out = flag_out.get(id(flag))
        if out is not None:
            b.alias_when(final[i], obj, out)
        elif bool(flag.asnumpy()):
            b.alias_when(final[i], obj, None)
