"""``GraphCall``: a compiled graph used as an op (a call the inline pass can expand)."""
from __future__ import annotations

from ..core.op import Op, register
from .graph import Graph


def _impl(*args, graph):
    return graph(*args)


def _infer(*types, graph: Graph):
    return tuple(graph.output_types)


GRAPH_CALL = register(Op("GraphCall", _impl, _infer, None, kind="control", n_out=-1,
                         doc="outputs = graph(*inputs) (differentiated by autodiff/control.py)"))
