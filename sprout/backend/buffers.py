"""Which arrays generated code may overwrite: alias roots plus liveness (a state write is done in place
only when no value still needed shares the buffer)."""
from __future__ import annotations

import numpy as np

from ..core import dispatch
from ..ir.graph import Graph, Node, Var

# ufuncs NumPy runs ~12x slower when out= is their own input (float32 sign, 150 Ki elements, NumPy 2.4: 790 us in
# place against 63 us into another array; W5's ReLU backward ran it on the conv activations): never in place
SLOW_IN_PLACE = frozenset({np.sign})


class Buffers:
    """Tracks, for each Var defined so far, the buffers (roots) its array may share. A root is writable
    when it is a fresh array made by this code, or an input the graph updates (its caller expects the
    new value there: a Parameter or an argument written by ``ops.assign``)."""

    def __init__(self, graph: Graph, last: dict[int, int], writable_inputs: set[int]):
        self.last = last
        self.roots: dict[int, frozenset] = {}
        self.by_root: dict[int, list] = {}
        self.writable: set[int] = set(writable_inputs)
        for v in graph.inputs:
            self._define(v, frozenset((v.uid,)))

    def _define(self, v: Var, roots: frozenset) -> None:
        self.roots[v.uid] = roots
        for r in roots:
            self.by_root.setdefault(r, []).append(v)

    def fresh(self, v: Var) -> None:
        """``v`` is a new array nobody else holds."""
        self.writable.add(v.uid)
        self._define(v, frozenset((v.uid,)))

    def alias(self, v: Var, sources: list) -> None:
        """``v`` may share memory with any of ``sources`` (a view, or an op that may return an input);
        with no Var source it may be a view of a constant: its own, unwritable root."""
        roots = frozenset().union(*[self.roots.get(x.uid, frozenset()) for x in sources if isinstance(x, Var)])
        self._define(v, roots or frozenset((v.uid,)))

    def same(self, v: Var, x: Var) -> None:
        """``v`` is ``x``'s array (written in place, or a renamed value)."""
        self._define(v, self.roots.get(x.uid, frozenset((x.uid,))))

    def can_overwrite(self, x, i: int, node: Node) -> bool:
        """May node ``i`` write ``x``'s array in place? Only if it is a writable buffer, ``x`` is dead
        after node i, and no other value sharing the buffer is read at or after node i."""
        if not isinstance(x, Var):
            return False
        roots = self.roots.get(x.uid)
        if roots is None or len(roots) != 1:
            return False
        (r,) = roots
        if r not in self.writable or self.last.get(x.uid, -1) > i:
            return False
        if sum(1 for y in node.inputs if y is x) > 1:
            return False
        return all(v is x or self.last.get(v.uid, -1) < i for v in self.by_root.get(r, ()))


def store(t, value, outputs: tuple = ()) -> None:
    """Write-back of a graph update into tensor ``t``: into the array ``t`` already holds when it can
    (as an eager in-place ``assign`` does, so tensors sharing that array see the new value too), else
    ``t`` takes ``value``'s array (also when one of ``outputs``, the arrays a run returns, may still hold
    the old value there)."""
    d = t._data
    if value is d:
        return
    if dispatch._holders:  # gradient tapes keep the value their records read
        dispatch.will_write(t)
    if value.__class__ is not np.ndarray:
        value = np.asarray(value)
    if (d.__class__ is np.ndarray and d.shape == value.shape and d.dtype == value.dtype and d.flags.writeable
            and not any(o.__class__ is np.ndarray and np.may_share_memory(o, d) for o in outputs)):
        np.copyto(d, value)
    else:
        t._data = value
