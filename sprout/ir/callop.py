"""``GraphCall``: a compiled graph used as an op (a call the inline pass can expand)."""
from __future__ import annotations

from ..core.op import Op, register
from .graph import Graph


def _impl(*args, graph):
    return graph(*args)


def _infer(*types, graph: Graph):
    return tuple(graph.output_types)


def _bprop(*args_out_dout, graph: Graph):
    """Differentiate the callee by replaying it under a tape (works eagerly and while building)."""
    from ..autodiff.tape import Tape
    from .replay import replay
    from ..core import dispatch
    from ..ops import functional as F

    n = len(graph.inputs)
    args, dout = args_out_dout[:n], args_out_dout[n + 1]
    tape = Tape()
    aliases = [F.identity(a) if hasattr(a, "shape") else a for a in args]
    for a in aliases:
        if hasattr(a, "shape") and a.dtype.is_float:
            tape.watch(a)
    dispatch.push_tape(tape)
    try:
        outs = replay(graph, aliases)[:len(graph.outputs)]
    finally:
        dispatch.pop_tape(tape)
    douts = list(dout) if isinstance(dout, tuple) else [dout]
    table = tape.backward(outs, douts)
    return tuple(table.get(id(a)) for a in aliases)


GRAPH_CALL = register(Op("GraphCall", _impl, _infer, _bprop, kind="control", n_out=-1))
