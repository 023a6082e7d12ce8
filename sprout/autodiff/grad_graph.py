"""Graph-level reverse mode: the joint forward+backward graph of a Graph (by replaying it under a
tape on tracers), and its partition into forward(+residuals) and backward graphs."""
from __future__ import annotations

from dataclasses import dataclass

from ..core import dispatch
from ..ir.builder import GraphBuilder, Tracer
from ..ir.graph import Graph, Var
from .tape import Tape


@dataclass
class Joint:
    """``graph``: inputs = primal inputs + douts; outputs = primal outputs + one grad per entry of
    ``grad_of`` (the primal input index each gradient belongs to). ``dout_of[k]`` is the primal
    output index the k-th dout input stands for (float tensor outputs only)."""

    graph: Graph
    n_in: int
    n_out: int
    dout_of: list
    grad_of: list


def joint_graph(graph: Graph) -> Joint:
    """Trace ``graph`` under a Tape on tracers, then run the tape backward with placeholder douts
    in the same builder: the bprops (written with sprout ops) emit the backward nodes."""
    from ..ir.replay import replay

    builder = GraphBuilder(f"{graph.name}_joint")
    tracers = [builder.add_input(v.type, v.name, ("in", k)) for k, v in enumerate(graph.inputs)]
    tape = Tape()
    for t in tracers:
        if t.dtype.is_float:
            tape.watch(t)
    with builder:
        dispatch.push_tape(tape)
        try:
            results = replay(graph, tracers)
        finally:
            dispatch.pop_tape(tape)
        outs = results[:len(graph.outputs)]
        dout_of = [i for i, o in enumerate(outs) if isinstance(o, Tracer) and o.dtype.is_float]
        douts = [builder.add_input(outs[i]._var.type, "dout", ("dout", i)) for i in dout_of]
        table = tape.backward([outs[i] for i in dout_of], douts)
        grads, grad_of = [], []
        for k, t in enumerate(tracers):
            g = table.get(id(t))
            if g is not None:
                grads.append(g)
                grad_of.append(k)
    # primal updates (assign) were recorded by the builder against the input tracers
    joint = builder.finish(list(outs) + grads)
    return Joint(joint, len(graph.inputs), len(outs), dout_of, grad_of)


@dataclass
class Partition:
    """forward: primal inputs -> primal outputs + residuals (+ updates);
    backward: residuals + douts -> gradients (in ``Joint.grad_of`` order)."""

    forward: Graph
    backward: Graph
    n_res: int


def partition(joint: Joint) -> Partition:
    """Split the joint graph: nodes the primal outputs (or side effects) need run in the forward,
    every other node in the backward; forward values the backward reads become residuals."""
    g = joint.graph
    primal_in, dout_in = g.inputs[:joint.n_in], g.inputs[joint.n_in:]
    primal_out, grads = g.outputs[:joint.n_out], g.outputs[joint.n_out:]
    need = {o.uid for o in primal_out if isinstance(o, Var)}
    need.update(v.uid for _, v in g.updates if isinstance(v, Var))
    in_fwd = [False] * len(g.nodes)
    for i in range(len(g.nodes) - 1, -1, -1):
        node = g.nodes[i]
        if node.side_effect or any(o.uid in need for o in node.outputs):
            in_fwd[i] = True
            need.update(x.uid for x in node.inputs if isinstance(x, Var))
    fwd_nodes = [n for n, f in zip(g.nodes, in_fwd) if f]
    bwd_nodes = [n for n, f in zip(g.nodes, in_fwd) if not f]
    fwd_defined = {v.uid for v in primal_in}
    for n in fwd_nodes:
        fwd_defined.update(o.uid for o in n.outputs)
    residuals: dict[int, Var] = {}
    for n in bwd_nodes:
        for x in n.inputs:
            if isinstance(x, Var) and x.uid in fwd_defined:
                residuals.setdefault(x.uid, x)
    for o in grads:
        if isinstance(o, Var) and o.uid in fwd_defined:
            residuals.setdefault(o.uid, o)
    res = list(residuals.values())
    forward = Graph(f"{g.name}_fwd", list(primal_in), fwd_nodes, list(primal_out) + res, list(g.updates))
    backward = Graph(f"{g.name}_bwd", res + list(dout_in), bwd_nodes, list(grads))
    return Partition(forward, backward, len(res))


def grads_only(joint: Joint) -> Graph:
    """The joint graph returning only the gradients (used when the backward must itself be
    differentiable: higher-order gradients recompute the forward from the primal inputs)."""
    g = joint.graph
    return g.replace(name=f"{g.name}_vjp", outputs=list(g.outputs[joint.n_out:]), updates=[])
