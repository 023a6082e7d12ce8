"""Replay a graph's nodes through ``dispatch.bind``: run it eagerly, record it on tapes, or copy it into
the graph being built."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core import dispatch
from ..core.dispatch import bind
from ..core.tensor import Tensor
from .builder import Tracer, _new_tracer
from .effects import is_io_op, is_token, node_writes, op_inputs, op_outputs
from .graph import Const, Graph


def replay(graph: Graph, args: list) -> list:
    """Re-issue ``graph``'s nodes through ``dispatch.bind`` on ``args`` (Tensors or Tracers): runs it
    eagerly, records it on active tapes, or copies it into the graph being built. Returns the
    output values followed by the updated values (``graph.updates``).

    Effects keep their IR meaning: a state write never changes what the old value's readers see
    (run eagerly it writes a copy, so the caller's tensors are untouched: the caller applies
    ``updates`` if it wants them; while a graph is built, the updates are written into the argument
    tensors, as a call of the graph would), and io is threaded through the current builder's token."""
    env: dict[int, Any] = {v.uid: a for v, a in zip(graph.inputs, args)}
    consts: dict[int, Tensor] = {}

    def val(x):
        if isinstance(x, Const):
            v = x.value
            if isinstance(v, np.ndarray):
                t = consts.get(id(v))
                if t is None:
                    t = consts[id(v)] = Tensor.__new__(Tensor)
                    t._data = v
                return t
            return None if is_token(x) else v
        return env[x.uid]

    for node in graph.nodes:
        builder = dispatch.current_builder()
        if is_io_op(node.op):  # the builder threads its token (from the replayed graph's, if it has one)
            outs = op_outputs(node)
            if len(outs) < len(node.outputs):
                _seek(builder, val(node.inputs[0]))
            out = bind(node.op, tuple(val(x) for x in op_inputs(node)), node.attrs)
            if len(outs) < len(node.outputs):
                env[node.outputs[0].uid] = _current(builder)
        elif node_writes(node):  # one new value per written operand
            for v, o in zip(node.outputs, _replay_write(node, [val(x) for x in node.inputs], builder)):
                env[v.uid] = o
            continue
        elif node.op.kind == "control" and any(is_token(x) for x in node.inputs):
            outs, out = node.outputs, _replay_threaded(node, [val(x) for x in node.inputs], builder)
        else:
            outs = node.outputs
            out = bind(node.op, tuple(val(x) for x in node.inputs), node.attrs)
        if len(outs) == 1 and node.op.n_out == 1:
            env[outs[0].uid] = out
        else:
            for v, o in zip(outs, out):
                env[v.uid] = o
    builder = dispatch.current_builder()
    outs = [val(o) for o in graph.outputs]
    news = [val(v) for _, v in graph.updates]
    if builder is not None:  # the replayed graph's write-back epilogue writes the arguments it was given
        before = [o._var if isinstance(o, Tracer) else None for o in outs]
        for (target, _), v in zip(graph.updates, news):
            builder.write(builder.target(args[graph.inputs.index(target)]), builder.value_of(v))
        # an output that is a written argument's tracer means the value before the write (`return x`, a
        # residual): a tracer of that value, which tapes link to the argument
        outs = [_before(o, b, builder) if b is not None and o._var is not b else o for o, b in zip(outs, before)]
    return outs + news


def _before(t: Tracer, var, builder) -> Tracer:
    """A tracer of ``t``'s value ``var`` before the epilogue wrote it; tapes route its gradient to ``t``."""
    old = _new_tracer(var, builder)
    for tape in dispatch.active_tapes():
        tape.record_custom((t,), old, dispatch.pass_through)
    return old


def _replay_write(node, ins: list, builder) -> list:
    """A state node, functionally: the values it reads keep meaning the old version."""
    w = node_writes(node)
    if builder is None:
        for p in w:
            a = ins[p]
            if isinstance(a, Tensor):
                c = Tensor.__new__(Tensor)
                c._data = np.array(a._data, copy=True)
                ins[p] = c
        bind(node.op, tuple(ins), node.attrs)
        return [ins[p] for p in w]
    builder.functional = True  # new tracers for the new values (a tape links them to the operands)
    try:
        bind(node.op, tuple(ins), node.attrs)
    finally:
        builder.functional = False
    return builder.new_values


def _replay_threaded(node, ins: list, builder) -> Any:
    """A control-flow node whose bodies do io: its token operand is the current token."""
    if builder is None:
        return bind(node.op, tuple(None if is_token(x) else a for x, a in zip(node.inputs, ins)), node.attrs)
    for x, a in zip(node.inputs, ins):
        if is_token(x):
            _seek(builder, a)
    tok = builder.token_tracer()
    out = bind(node.op, tuple(tok if is_token(x) else a for x, a in zip(node.inputs, ins)), node.attrs)
    out = list(out)
    for k, v in enumerate(node.outputs):
        if is_token(v):
            builder.write(tok, out[k]._var)
            out[k] = _current(builder)
    return out


def _seek(builder, value) -> None:
    """Continue the builder's token chain from ``value`` (the replayed graph's token, when it is a tracer of
    this builder: e.g. the token input of a body being differentiated); a constant means "where it is"."""
    if builder is not None and isinstance(value, Tracer) and value._builder is builder:
        builder.token_tracer()._var = value._var


def _current(builder) -> Any:
    """A tracer holding the builder's current token (a snapshot: later io does not change it)."""
    if builder is None:
        return None
    return _new_tracer(builder.token_tracer()._var, builder)
