"""``GraphCall``: a compiled graph used as an op (a call the inline pass can expand)."""
from __future__ import annotations

from ..core.op import Op, register
from .graph import Graph


def _impl(*args, graph, bprop=None):  # bprop: a custom backward, read by autodiff/control.py only
    return graph(*args)


def _infer(*types, graph: Graph, bprop=None):
    return tuple(graph.output_types)


GRAPH_CALL = register(Op("GraphCall", _impl, _infer, None, kind="control", n_out=-1,
                         doc="outputs = graph(*inputs) (differentiated by autodiff/control.py; with attr "
                             "bprop=vjp(read, out, dout) -> grads, by that function: a Cell's custom bprop)"))


def call_with_bprop(fn, args: tuple, name: str, bprop) -> tuple:
    """While a graph is built: ``fn(*args)`` as a GraphCall of its traced body that carries a custom backward
    ``bprop(inputs, out, dout) -> one gradient per entry of args`` (out/dout as ``fn`` returns: a tuple when it
    returns one, else the single value), so every gradient of the graph uses it instead of ``fn``'s own
    derivative. Returns ``(out, True)``; ``(None, False)`` when no argument is a tensor (nothing to carry)."""
    from ..core.dispatch import bind
    from ..core.tensor import Tensor
    from ..core.types import type_of
    from .builder import trace_subgraph

    pos = [k for k, a in enumerate(args) if isinstance(a, Tensor)]
    if not pos:
        return None, False
    shape: dict = {}

    def body(*vals):
        full = list(args)
        for k, v in zip(pos, vals):
            full[k] = v
        out = fn(*full)
        shape["tuple"] = isinstance(out, (tuple, list))
        return out

    graph, _ = trace_subgraph(body, [type_of(args[k]) for k in pos], name)
    n, n_out = len(pos), len(graph.outputs)
    where = {v.uid: k for k, v in enumerate(graph.inputs)}
    written = [where[t.uid] for t, _ in graph.updates]  # the operands fn writes, in update order

    def vjp(read, out, douts):
        # a body that writes state (graph.updates): the call also returns the written values (and the effect
        # token); as in eager, where it runs off the tape, the writes are not differentiated through
        inputs = list(args)
        for k, v in zip(pos, read[:n]):
            inputs[k] = v
        writes = list(douts)[n_out:n_out + len(written)]
        out, douts = list(out)[:n_out], list(douts)[:n_out]
        o = tuple(out) if shape["tuple"] else out[0]
        d = tuple(douts) if shape["tuple"] else douts[0]
        grads = bprop(inputs, o, d)
        full = list(grads[k] for k in pos) + [None] * (len(read) - n)
        for k, g in zip(written, writes):  # a later read of a written tensor reads that tensor (as eagerly)
            if g is not None:
                full[k] = g if full[k] is None else full[k] + g
        return tuple(full)

    outs = bind(GRAPH_CALL, tuple(args[k] for k in pos) + tuple(graph.captured), {"graph": graph, "bprop": vjp})
    return (tuple(outs) if shape["tuple"] else outs[0]), True
