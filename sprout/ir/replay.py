"""Replay a graph's nodes through ``dispatch.bind``: run it eagerly, record it on tapes, or copy it into
the graph being built."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.dispatch import bind
from ..core.tensor import Tensor
from .graph import Const, Graph


def replay(graph: Graph, args: list) -> list:
    """Re-issue ``graph``'s nodes through ``dispatch.bind`` on ``args`` (Tensors or Tracers): runs it
    eagerly, records it on active tapes, or copies it into the graph being built. Returns the
    output values followed by the updated values (``graph.updates``)."""
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
            return v
        return env[x.uid]

    for node in graph.nodes:
        out = bind(node.op, tuple(val(x) for x in node.inputs), node.attrs)
        if len(node.outputs) == 1 and node.op.n_out == 1:
            env[node.outputs[0].uid] = out
        else:
            for v, o in zip(node.outputs, out):
                env[v.uid] = o
    return [val(o) for o in graph.outputs] + [val(v) for _, v in graph.updates]
