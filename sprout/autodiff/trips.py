"""How many iterations a WhileLoop is sure to run, known at compile time when its condition reads only constants in
the first iterations (``i = 0; while ops.ones(()) > 0 and i < 4``): its backward's first reverse steps then run
unconditionally, and what is absent after them is absent structurally (``autodiff/control.py``)."""
from __future__ import annotations

import math

import numpy as np

from ..ir.effects import apply, pure
from ..ir.graph import Const, Graph

UNKNOWN = object()  # a value only known when the graph runs
_SMALL = 4096  # elements: a constant larger than this is not computed at compile time


def evaluate(graph: Graph, inputs: list) -> list:
    """``graph``'s outputs from ``inputs`` (NumPy values, or ``UNKNOWN``): each pure node whose operands are all
    known and whose results are small is run; a ``Cond`` on a known predicate evaluates the branch it takes."""
    env = {v.uid: a for v, a in zip(graph.inputs, inputs)}

    def val(x):
        return x.value if isinstance(x, Const) else env.get(x.uid, UNKNOWN)

    for node in graph.nodes:
        args = [val(x) for x in node.inputs]
        outs = [UNKNOWN] * len(node.outputs)
        if node.op.name == "Cond" and args and args[0] is not UNKNOWN and np.ndim(args[0]) == 0:
            n_then = node.attrs["n_then"]
            branch, ins = (node.attrs["then"], args[1:1 + n_then]) if bool(args[0]) else \
                (node.attrs["else"], args[1 + n_then:])
            outs = evaluate(branch, list(ins))
        elif (UNKNOWN not in args and not node.subgraphs() and pure(node)
              and all(_small(o.type.shape) for o in node.outputs)):
            try:
                outs = list(apply(node, args, np.copy, node.attrs))
            except Exception:  # noqa: BLE001 - an error is the run's to raise: only known when it runs
                outs = [UNKNOWN] * len(node.outputs)
        for v, o in zip(node.outputs, outs):
            env[v.uid] = o
    return [val(o) for o in graph.outputs]


def _small(shape: tuple) -> bool:
    return all(d is not None for d in shape) and math.prod(shape) <= _SMALL


def _known(a):
    """A loop operand's value when it is a compile-time constant, else ``UNKNOWN``."""
    from ..core.tensor import Parameter, Tensor
    from ..ir.builder import Tracer

    if isinstance(a, Const):
        return a.value
    if isinstance(a, Tracer):
        return UNKNOWN
    if isinstance(a, Tensor):  # a constant the graph holds; never a Parameter (a later run may see it changed)
        return UNKNOWN if isinstance(a, Parameter) else a._data
    if isinstance(a, (bool, int, float, np.ndarray, np.generic)):
        return np.asarray(a)
    return UNKNOWN


def sure_trips(attrs: dict, args: tuple, limit: int) -> int:
    """How many iterations (at most ``limit``) the WhileLoop with ``attrs`` on operands ``args`` runs whatever
    its unknown inputs are: its condition evaluated on the known state, iteration by iteration."""
    n, k = attrs["n_vars"], attrs["n_cond"]
    state = [_known(a) for a in args[:n]]
    ccap = [_known(a) for a in args[n:n + k]]
    bcap = [_known(a) for a in args[n + k:]]
    body = attrs["body"]
    for r in range(limit):
        go = evaluate(attrs["cond"], state + ccap)[0]
        if go is UNKNOWN or np.ndim(go) != 0 or not bool(go):
            return r
        if r + 1 < limit:
            state = evaluate(body, state + bcap)[:n]
    return limit
