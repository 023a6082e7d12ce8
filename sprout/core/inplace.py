"""Eager in-place writes: a tensor's memory takes a new value (its base and views see it), and the gradient
tapes recording it rebase its history on that value (autodiff/inplace.py)."""
from __future__ import annotations

import numpy as np

from . import dispatch, views


def check_result(t, new, name: str) -> None:
    """An in-place write keeps the tensor's dtype and shape."""
    if new.dtype != t.dtype:
        raise TypeError(f"{name}: the result has dtype {new.dtype}, which cannot be written into the tensor of dtype "
                        f"{t.dtype} in place; use the out-of-place op, or cast the tensor first")
    if tuple(new.shape) != tuple(t.shape):
        raise RuntimeError(f"{name}: the result has shape {tuple(new.shape)}, but an in-place update must keep the "
                           f"tensor's shape {tuple(t.shape)}")


def write(t, new, name: str) -> None:
    """Write ``new`` (a tensor of ``t``'s shape computed from ``t`` by recorded ops) into ``t``'s memory."""
    check_result(t, new, name)
    d = t._data
    if not d.flags.writeable and views.is_view(t):  # a broadcast view: several elements are one of its base
        raise RuntimeError(f"{name}: cannot write into a broadcast view (ops.broadcast_to, Tensor.expand_as): its "
                           "elements share memory; write into its base, or into a copy")
    tapes = [tape for tape in dispatch._tapes if tape.sees((t, new))] if dispatch._slow else ()
    for tape in tapes:  # before anything changes: a write a tape cannot differentiate raises
        tape.check_write(t, name)
    if dispatch._holders:  # records that read the old value keep a copy of it
        dispatch.will_write(t)
    if d.flags.writeable:
        np.copyto(d, new._data)
    else:  # a read-only array (memory of the tensor alone): the tensor takes the new array
        t._data = new._data
    for tape in tapes:
        tape.rebase(t, new)


def write_graph(b, t, new, name: str, item: bool = False) -> None:
    """``t`` takes the value ``new`` while the graph builder ``b`` runs: a write of the builder (``item``: a
    ``t[i] = v``, not written back to an AST argument), its views and base following. A gradient tape recording
    ``t`` (a gradient taken inside the graph) rebases ``t`` on ``new`` as eagerly when the write changed ``t``
    alone; the other tracers a write reaches (views, a base, aliases) raise if a gradient reaches them through a
    use after the write (the tape does not see how they follow the write)."""
    # the tapes differentiating this graph's nodes: pushed while it was current (a tape of an enclosing eager
    # ``grad`` records the graph's uses of a Parameter it watches, but differentiates the compiled call)
    home = dispatch._home
    seeing = [tape for tape in dispatch._tapes if home.get(id(tape)) is not None and tape.sees((t, new))] \
        if dispatch._slow else ()
    tapes = [tape for tape in seeing if home.get(id(tape)) is b]
    for tape in tapes:
        tape.check_write(t, name)
    target = b.target(t)
    n = len(b._journal)
    if item:
        b.write_item(t, new)
    else:
        b.write(target, b.target(new)._var)
    if len(tapes) < len(seeing) and any(entry[0]() is not t for entry in b._journal[n:]):
        # a body (a branch, a loop) of a graph whose tape records the write's operands: the body's write of t alone
        # becomes an output of the control node, which that tape differentiates; views and bases it changed are not
        raise RuntimeError(f"{name}: in-place write, inside a tensor branch or loop body, that reaches other tensors "
                           "(a view, its base, the outer tensor) being differentiated while the graph is built (a "
                           "gradient taken inside jit): not supported; differentiate the jitted function (grad of "
                           "jit), or build a new tensor (ops.where)")
    if not tapes:
        return
    if target is not t:
        raise RuntimeError(f"{name}: in-place write, while a graph is built, to a tensor of an enclosing graph that "
                           "is being differentiated: a gradient taken inside jit does not follow it; differentiate "
                           "the jitted function (grad of jit), or build a new tensor (ops.where, ops.masked_fill)")
    others = {id(u): u for u in (entry[0]() for entry in b._journal[n:]) if u is not None and u is not t}
    for tape in tapes:
        tape.rebase(t, new)
        for u in others.values():  # a view or base the write changed: its later uses cannot be differentiated
            if tape.is_live(u):
                tape.record_custom((u,), u, _Unfollowed(name))


class _Unfollowed:
    """The vjp of a tracer a write inside a graph changed besides the written one (a view, its base, an alias): a
    gradient reaching it through a later use raises (a use before the write, or none, is fine)."""

    reads_nothing = True

    def __init__(self, name: str):
        self.name = name

    def __call__(self, args, out, dout):
        raise RuntimeError(f"{self.name}: in-place write, while a graph is built, to a tensor that is being "
                           "differentiated and shares its value with other tensors (a view, its base, an alias in a "
                           "branch) used after the write: a gradient taken inside jit does not follow them; "
                           "differentiate the jitted function (grad of jit), or build a new tensor (ops.where, "
                           "ops.masked_fill)")
