"""Compile-time two-stream schedule of a graph: heavy pure nodes handed to the worker stream between a fork and
a join, and big MatMuls whose rows are split over both streams (docs/performance.md)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..ir.effects import pure
from ..ir.graph import Graph, Node, Var, numel

# multiply-adds below which a node stays where it is: a hand-off costs ~15 us of CPU and ~35 us of wall time on
# this machine, a 2M multiply-add GEMM ~100 us on one core
HEAVY = 1 << 21
# the work the main stream does while the worker runs a node must be at least this fraction of the node's
OVERLAP = 0.5
_CONV = {"Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter"}


def _shape(x) -> tuple | None:
    s = getattr(getattr(x, "type", None), "shape", None)
    return None if s is None or None in s else tuple(s)


def cost(node: Node) -> int:
    """Multiply-adds of a GEMM or convolution node with known shapes; 0 for any other node."""
    name = node.op.name
    if name == "MatMul" and len(node.inputs) == 2 and len(node.outputs) == 1:
        a, out = _shape(node.inputs[0]), _shape(node.outputs[0])
        if a is None or out is None or len(a) != 2 or len(out) != 2:
            return 0
        k = a[0] if node.attrs.get("transpose_a") else a[1]
        return out[0] * out[1] * k
    if name in _CONV and len(node.inputs) >= 2 and len(node.outputs) == 1:
        out = _shape(node.outputs[0])
        if name == "Conv2D":
            w = _shape(node.inputs[1])
        elif name == "Conv2DBackpropInput":
            w, out = _shape(node.inputs[1]), _shape(node.inputs[0])
        else:
            w, out = node.attrs.get("filter_shape"), _shape(node.inputs[0])
            w = tuple(w) if w is not None else None
        if out is None or w is None or not w or not w[0]:
            return 0
        return (numel(out) or 0) * ((numel(w) or 0) // w[0])
    return 0


def splittable(node: Node) -> bool:
    """A 2-D MatMul of one float32/float64 dtype whose result rows can be computed in two halves."""
    if node.op.name != "MatMul" or set(node.attrs) - {"transpose_a", "transpose_b"}:
        return False
    if not all(isinstance(x, Var) and _shape(x) is not None and len(_shape(x)) == 2 for x in node.inputs):
        return False
    dts = {x.type.dtype.np for x in node.inputs} | {node.outputs[0].type.dtype.np}
    return len(dts) == 1 and dts.pop() in (np.dtype(np.float32), np.dtype(np.float64)) \
        and _shape(node.outputs[0])[0] >= 2


def _barrier(node: Node) -> bool:
    """A node the worker's task may not run across: an effect, or a node running sub-graphs (control flow)."""
    return not pure(node) or any(isinstance(v, Graph) for v in node.attrs.values())


@dataclass
class Plan:
    """Where the two streams meet. Positions index ``graph.nodes``: a fork or join at position p is emitted
    before node p (p == len(nodes): before the return)."""

    forks: dict[int, list[Node]] = field(default_factory=dict)
    joins: dict[int, list[Node]] = field(default_factory=dict)
    worker: dict[int, tuple[int, int]] = field(default_factory=dict)   # id(node) -> (fork, join)
    split: set[int] = field(default_factory=set)                         # id(node) of row-split MatMuls
    moved: dict[int, int] = field(default_factory=dict)  # id(MatMul) -> the update position it is done at

    def __bool__(self) -> bool:
        return bool(self.worker or self.split)

    def describe(self, graph: Graph) -> str:
        """The two streams as text: one line per node on the main stream, the worker's nodes beside their fork
        and join (tests assert this)."""
        lines = []
        index = {id(n): i for i, n in enumerate(graph.nodes)}
        done_at: dict[int, list] = {}
        for i, node in enumerate(graph.nodes):
            if id(node) not in self.worker and (cost(node) >= HEAVY or id(node) in self.split):
                done_at.setdefault(self.moved.get(id(node), i), []).append(node)

        def tag(n: Node) -> str:
            return f"{n.op.name}#{index[id(n)]}"

        for i in range(len(graph.nodes) + 1):
            lines += [f"join   {tag(b)}" for b in self.joins.get(i, ())]
            lines += [f"fork   {tag(b)}" for b in self.forks.get(i, ())]
            lines += [f"{'split' if id(b) in self.split else 'main'}   {tag(b)}" for b in done_at.get(i, ())]
        return "\n".join(lines)


def plan(graph: Graph, deferred: dict | None = None) -> Plan:
    """Fork-join pairs first: a heavy pure node may go to the worker when the main stream has at least OVERLAP
    of its cost to do between the earliest point its inputs exist and the first of (its first use, the next
    effect); the pairs overlapping the most work are taken first, one task at a time. Then every heavy MatMul
    outside a task's interval splits its rows.
    ``deferred``: {id(MatMul): position of the parameter update the code generator fuses it into} (it runs
    there; a worker node is taken out of that fusion by the caller)."""
    nodes = graph.nodes
    n = len(nodes)
    costs = [cost(x) for x in nodes]
    producer: dict[int, int] = {}
    for i, node in enumerate(nodes):
        for o in node.outputs:
            producer[o.uid] = i
    first_use: dict[int, int] = {}
    for i, node in enumerate(nodes):
        for x in node.inputs:
            if isinstance(x, Var):
                first_use.setdefault(x.uid, i)
    barriers = [i for i, node in enumerate(nodes) if _barrier(node)] + [n]
    deferred = deferred or {}
    at = [deferred.get(id(node), i) for i, node in enumerate(nodes)]  # where each node's work is done
    result = Plan()
    options = []
    for i, node in enumerate(nodes):
        if costs[i] < HEAVY or len(node.outputs) != 1 or not node.op.fresh_output or _barrier(node):
            continue
        fork = max([producer.get(x.uid, -1) + 1 for x in node.inputs if isinstance(x, Var)]
                   + [b + 1 for b in barriers if b < i] + [0])   # its inputs exist, no effect in between
        join = min([first_use.get(node.outputs[0].uid, n)] + [b for b in barriers if b > i])
        main = sum(costs[k] for k in range(n) if fork <= at[k] < join and k != i)
        if main >= OVERLAP * costs[i]:
            options.append((min(costs[i], main), main, -i, i, fork, join))
    # the most overlapped work first (ties: the more slack), one task at a time
    for _gain, _main, _, i, fork, join in sorted(options, reverse=True):
        if any(f < join and fork < j for f, j in result.worker.values()):
            continue
        main = sum(costs[k] for k in range(n) if fork <= at[k] < join and k != i and id(nodes[k]) not in result.worker)
        if main < OVERLAP * costs[i]:
            continue
        result.forks.setdefault(fork, []).append(nodes[i])
        result.joins.setdefault(join, []).append(nodes[i])
        result.worker[id(nodes[i])] = (fork, join)
    result.moved = {k: v for k, v in deferred.items() if k not in result.worker}
    spans = list(result.worker.values())
    for i, node in enumerate(nodes):
        if costs[i] >= HEAVY and id(node) not in result.worker and splittable(node) \
                and not any(f <= at[i] < j for f, j in spans):
            result.split.add(id(node))
    return result
