"""Graph-level reverse mode: the joint forward+backward graph of a Graph (by replaying it under a
tape on tracers), and its split into a forward that also returns residuals and a backward that
reads only residuals and cotangents. The one mechanism behind the gradients of jitted functions,
Cond / WhileLoop bodies, GraphCall callees and PIJit segments: nothing re-runs a forward."""
from __future__ import annotations

import weakref
from dataclasses import dataclass

from ..core import dispatch
from ..ir.builder import GraphBuilder, Tracer
from ..ir.effects import WORLD, is_collective, is_io, is_token
from ..ir.graph import Graph, Node, Var
from .guards import mask
from .tape import Tape


def differentiable(t) -> bool:
    """A value a gradient flows through: a number tensor (ints too, as eagerly), not a bool nor an effect token."""
    return t.dtype.is_differentiable and not is_token(t)


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
    in the same builder: the bprops (written with sprout ops) emit the backward nodes, and control
    nodes split themselves into a forward with residuals and a backward reading them."""
    from ..ir.replay import replay

    builder = GraphBuilder(f"{graph.name}_joint")
    tracers = [builder.add_input(v.type, v.name, ("in", k)) for k, v in enumerate(graph.inputs)]
    tape = Tape()
    for t in tracers:
        if differentiable(t):
            tape.watch(t)
    with builder:
        dispatch.push_tape(tape)
        try:
            results = replay(graph, tracers)
        finally:
            dispatch.pop_tape(tape)
        outs = results[:len(graph.outputs)]
        new_values = [builder.output_value(v) for v in results[len(graph.outputs):]]
        dout_of = [i for i, o in enumerate(outs) if isinstance(o, Tracer) and differentiable(o)]
        douts = [builder.add_input(outs[i]._var.type, "dout", ("dout", i)) for i in dout_of]
        start = len(builder.nodes)
        table = mask(builder, start, douts, tape.backward([outs[i] for i in dout_of], douts))
        grads, grad_of = [], []
        for k, t in enumerate(tracers):
            g = table.get(id(t))
            if g is not None:
                grads.append(g)
                grad_of.append(k)
    joint = builder.finish(list(outs) + grads)
    # the graph's own write-backs (replay returns their values); writes the replay recorded against the
    # input tracers are not write-backs of their own (a body's writes are already its outputs)
    pos = {v.uid: k for k, v in enumerate(graph.inputs)}
    joint = joint.replace(updates=[(joint.inputs[pos[t.uid]], v) for (t, _), v in zip(graph.updates, new_values)])
    return Joint(joint, len(graph.inputs), len(outs), dout_of, grad_of)


@dataclass
class Split:
    """A graph differentiated once, for every use (jit boundary, control-flow bodies, segments).

    ``forward``: the primal inputs -> primal outputs + computed residuals (+ the primal updates).
    ``backward``: residuals (``res_from`` order) + douts (``dout_of`` order) -> gradients (``grad_of``
    order). ``res_from[k]`` says where residual k comes from: ``("in", i)`` the primal input i (not
    returned by the forward: the caller has it), ``("out", j)`` the forward's output ``n_out + j``."""

    forward: Graph
    backward: Graph
    n_in: int
    n_out: int
    res_from: list
    dout_of: list
    grad_of: list

    @property
    def n_computed(self) -> int:
        return sum(1 for kind, _ in self.res_from if kind == "out")


def _partition(joint: Joint) -> tuple[list, list, list]:
    """Nodes the primal outputs, the updates, the forward's io or the forward's collectives (those that read no
    cotangent, used or not) need run in the forward, every other node in the backward; forward values
    the backward reads are the residuals. io that reads a cotangent (a gradient dump, a print in a bprop) runs
    in the backward, its token chain restarting there (the backward runs after the forward). Returns (fwd, bwd,
    residuals)."""
    g = joint.graph
    primal_out, grads = g.outputs[:joint.n_out], g.outputs[joint.n_out:]
    need = {o.uid for o in primal_out if isinstance(o, Var)}
    need.update(v.uid for _, v in g.updates if isinstance(v, Var))
    from_dout = {v.uid for v in g.inputs[joint.n_in:]}  # values computed from a cotangent
    fwd_collective, fwd_io = set(), set()
    for i, node in enumerate(g.nodes):
        if any(isinstance(x, Var) and x.uid in from_dout for x in node.inputs):
            from_dout.update(o.uid for o in node.outputs)
        elif is_collective(node):
            fwd_collective.add(i)
        elif is_io(node):
            fwd_io.add(i)
    in_fwd = [False] * len(g.nodes)
    for i in range(len(g.nodes) - 1, -1, -1):
        node = g.nodes[i]
        if i in fwd_io or i in fwd_collective or any(o.uid in need for o in node.outputs):
            in_fwd[i] = True
            need.update(x.uid for x in node.inputs if isinstance(x, Var))
    fwd_nodes = [n for n, f in zip(g.nodes, in_fwd) if f]
    bwd_nodes = [n for n, f in zip(g.nodes, in_fwd) if not f]
    fwd_defined = {v.uid for v in g.inputs[:joint.n_in]}
    for n in fwd_nodes:
        fwd_defined.update(o.uid for o in n.outputs)
    bwd_nodes = [_restart_token(n, fwd_defined) for n in bwd_nodes]
    residuals: dict[int, Var] = {}
    for n in bwd_nodes:
        for x in n.inputs:
            if isinstance(x, Var) and x.uid in fwd_defined:
                residuals.setdefault(x.uid, x)
    for o in grads:
        if isinstance(o, Var) and o.uid in fwd_defined:
            residuals.setdefault(o.uid, o)
    return fwd_nodes, bwd_nodes, list(residuals.values())


def _restart_token(node: Node, fwd_defined: set) -> Node:
    """A backward io node whose token the forward made takes the backward's initial token instead."""
    if not any(is_token(x) and isinstance(x, Var) and x.uid in fwd_defined for x in node.inputs):
        return node
    ins = [WORLD if is_token(x) and isinstance(x, Var) and x.uid in fwd_defined else x for x in node.inputs]
    return Node(node.op, ins, node.attrs, node.outputs, node.loc)


def split_joint(joint: Joint) -> Split:
    g = joint.graph
    primal_in, dout_in = g.inputs[:joint.n_in], g.inputs[joint.n_in:]
    primal_out, grads = g.outputs[:joint.n_out], g.outputs[joint.n_out:]
    fwd_nodes, bwd_nodes, res = _partition(joint)
    pos = {v.uid: k for k, v in enumerate(primal_in)}
    updated = {t.uid for t, _ in g.updates}
    res_from, computed = [], []
    for r in res:
        if r.uid in pos and r.uid not in updated:
            res_from.append(("in", pos[r.uid]))
        else:  # computed, or an input the forward updates in place (its old value must be kept)
            res_from.append(("out", len(computed)))
            computed.append(r)
    forward = Graph(f"{g.name}_fwd", list(primal_in), fwd_nodes, list(primal_out) + computed, list(g.updates))
    backward = Graph(f"{g.name}_bwd", res + list(dout_in), bwd_nodes, list(grads))
    return Split(forward, backward, joint.n_in, joint.n_out, res_from, joint.dout_of, joint.grad_of)


_SPLITS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def split(graph: Graph) -> Split:
    """``graph``'s forward-with-residuals and backward (built once per Graph object)."""
    s = _SPLITS.get(graph)
    if s is None:
        with dispatch.suspend_tapes(dispatch.active_tapes()), dispatch.no_builder():
            s = _SPLITS[graph] = split_joint(joint_graph(graph))
    return s
