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
