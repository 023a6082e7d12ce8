"""Compiled graphs at run time: the lean entry for plain calls, and the differentiable call that
puts one node on the eager tape whose backward is the compiled backward graph."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..autodiff.grad_graph import grads_only, joint_graph, partition
from ..autodiff.tape import record_custom
from ..backend.interpret import GraphRuntimeError, describe_node
from ..backend.pycodegen import Generated, generate, generate_entry
from ..capture.trace import AttrSlot, Traced, write_attrs
from ..core.pytree import MutableFloat, MutableInt, Slot, unflatten
from ..ir.replay import replay
from ..core import dispatch
from ..core.tensor import Tensor
from ..ir.graph import Graph
from ..passes import run_pipeline

_new = object.__new__


def _wrap(a: Any) -> Tensor:
    t = _new(Tensor)
    t._data = a if a.__class__ is np.ndarray else np.asarray(a)
    return t


def located(gen: Generated, exc: BaseException) -> BaseException:
    """Map an exception raised inside generated code to the node (and user line) that raised it."""
    tb = exc.__traceback__
    node = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == gen.filename:
            node = gen.node_at(tb.tb_lineno)
        tb = tb.tb_next
    if node is None or gen.graph is None:
        return exc
    return GraphRuntimeError(describe_node(gen.graph, node, exc))


class CompiledGraph:
    """A graph callable on Tensors given in the order of ``signature`` (the Vars of the graph's
    original inputs; passes may have pruned some). Returns the output Tensors and writes
    ``graph.updates`` back into the corresponding input tensors."""

    def __init__(self, graph: Graph, signature: list | None = None, level: str | None = None):
        self.graph = graph
        self.level = level  # jit_level for graphs derived from this one (forward/backward)
        sig = graph.inputs if signature is None else signature
        index = {v.uid: k for k, v in enumerate(sig)}
        self.signature = list(sig)
        self.pick = [index[v.uid] for v in graph.inputs]
        self.update_pos = [index[t.uid] for t, _ in graph.updates]
        self.n_out = len(graph.outputs)
        self._gen: Generated | None = None
        self._grad: _GradInfo | None = None

    @property
    def generated(self) -> Generated:
        if self._gen is None:
            self._gen = generate(self.graph)
        return self._gen

    def run_arrays(self, arrays: list) -> tuple:
        gen = self.generated
        try:
            return gen.function("graph_fn")(*[arrays[k] for k in self.pick])
        except GraphRuntimeError:
            raise
        except Exception as exc:
            raise located(gen, exc) from exc

    def __call__(self, *tensors) -> list:
        if dispatch._builders:  # inside a graph under construction: copy the nodes in
            pool = dict(zip((v.uid for v in self.signature), tensors))
            return replay(self.graph, [pool[v.uid] for v in self.graph.inputs])[:self.n_out]
        if dispatch._tapes:
            return self.call_differentiable(list(tensors))
        res = self.run_arrays([t._data for t in tensors])
        self._write_back(tensors, res[self.n_out:])
        return [_wrap(o) for o in res[:self.n_out]]

    def _write_back(self, tensors, values) -> None:
        for pos, value in zip(self.update_pos, values):
            tensors[pos]._data = value if value.__class__ is np.ndarray else np.asarray(value)

    # ---- gradients across the boundary ----------------------------------------------------------
    def grad_info(self) -> _GradInfo:
        if self._grad is None:
            self._grad = _GradInfo(self)
        return self._grad

    def call_differentiable(self, tensors: list) -> list:
        """Run the forward (returning residuals) and record ONE node on every active tape."""
        info = self.grad_info()
        higher = len(dispatch._tapes) > 1
        res = info.forward.run_arrays([t._data for t in tensors])
        n_out, n_res = self.n_out, info.n_res
        outs = [_wrap(o) for o in res[:n_out]]
        residuals = res[n_out:n_out + n_res]
        self._write_back(tensors, res[n_out + n_res:])
        diff_outs = [outs[i] for i in info.dout_of]
        if not diff_outs:
            return outs

        def vjp(args, out, dout):
            douts = list(dout) if isinstance(dout, tuple) else [dout]
            if higher or dispatch._builders or dispatch._tapes:
                grads = info.grads_fn(*args, *douts)
            else:
                arrays = list(residuals) + [d._data for d in douts]
                grads = [_wrap(g) for g in info.backward.run_arrays(arrays)]
            full: list = [None] * len(args)
            for k, g in zip(info.grad_of, grads):
                full[k] = g
            return tuple(full)

        record_custom(tuple(tensors), diff_outs[0] if len(diff_outs) == 1 else tuple(diff_outs), vjp)
        return outs


class _GradInfo:
    """The compiled forward(+residuals) and backward of a CompiledGraph, built once on demand.

    Every graph here is called with the CompiledGraph's *signature* (passes may have pruned inputs
    of ``cg.graph``), so gradients are indexed by signature position (``grad_of``)."""

    def __init__(self, cg: CompiledGraph):
        base = cg.graph
        joint = joint_graph(base)
        part = partition(joint)
        fwd = run_pipeline(part.forward, level=cg.level)
        bwd = run_pipeline(part.backward, level=cg.level)
        self.dout_of, self.n_res = joint.dout_of, part.n_res
        self.grad_of = [cg.pick[k] for k in joint.grad_of]
        # the joint graph's primal inputs are fresh Vars standing for base's inputs: call by signature
        primal = joint.graph.inputs[:joint.n_in]
        sig = [primal[cg.pick.index(k)] if k in cg.pick else v for k, v in enumerate(cg.signature)]
        self.forward = CompiledGraph(fwd, sig, cg.level)
        self.backward = CompiledGraph(bwd, part.backward.inputs, cg.level)
        vjp_graph = grads_only(joint)
        self.grads_fn = CompiledGraph(run_pipeline(vjp_graph, level=cg.level), sig + joint.graph.inputs[joint.n_in:],
                                      cg.level)


class Executable:
    """One cache entry: the optimized graph, its generated entry (``source``), and how the flat
    argument leaves and Parameters map onto graph inputs."""

    host = False  # jit/host.HostExecutable: the entry runs as host segments

    def __init__(self, traced: Traced, graph: Graph, leaves: list, stages: list, level: str | None = None):
        self.traced = traced
        self.graph = graph
        self.stages = stages
        self.n_leaves = len(leaves)
        reads = []
        for v in graph.inputs:
            src = traced.sources[v.uid]
            if src[0] == "arg":
                leaf = leaves[src[1]]
                dt = leaf.sprout_dtype.np if isinstance(leaf, (MutableInt, MutableFloat)) else None
                reads.append(("arg", src[1], dt))
            else:
                reads.append(src)
        targets = [traced.sources[t.uid] for t, _ in graph.updates]
        self.single = traced.out_spec.__class__ is Slot and len(graph.outputs) == 1
        self._entry_args = (graph, reads, self.n_leaves, targets, self.single)
        self.gen = generate_entry(*self._entry_args)
        self.entry = self.gen.function("entry")
        self._fast: dict = {}
        self.out_spec = traced.out_spec
        self.attr_targets = traced.attr_targets  # trailing outputs assigned to attributes after each run
        self.n_attr = len(traced.attr_targets)
        self.compiled = CompiledGraph(graph, traced.graph.inputs, level)

    @property
    def source(self) -> str:
        return self.gen.source

    def run(self, leaves: list) -> Any:
        try:
            out = self.entry(*leaves)
        except GraphRuntimeError:
            raise
        except Exception as exc:
            raise located(self.gen, exc) from exc
        if self.n_attr:
            write_attrs(self.attr_targets, out[-self.n_attr:])
        return out if self.single else unflatten(self.out_spec, out)

    def fast_entry(self, args: tuple) -> FastEntry:
        """A runner taking the positional arguments themselves (tensors and plain scalars only)."""
        positions = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
        fe = self._fast.get((len(args), positions))
        if fe is None:
            names = [f"a{i}" for i in positions]
            gen = generate_entry(*self._entry_args, leaf_names=names, n_params=len(args))
            fe = self._fast[(len(args), positions)] = FastEntry(self, gen)
        return fe

    def input_tensors(self, leaves: list) -> list:
        """Tensors for the traced graph's inputs (leaves, mutable scalars as 0-d tensors, Parameters)."""
        out = []
        for v in self.traced.graph.inputs:
            src = self.traced.sources[v.uid]
            if src[0] == "arg":
                leaf = leaves[src[1]]
                out.append(leaf if isinstance(leaf, Tensor) else _wrap(np.asarray(leaf, leaf.sprout_dtype.np)))
            else:
                out.append(src[1].current() if isinstance(src[1], AttrSlot) else src[1])
        return out

    def run_differentiable(self, leaves: list) -> Any:
        outs = self.compiled.call_differentiable(self.input_tensors(leaves))
        if self.n_attr:
            write_attrs(self.attr_targets, outs[-self.n_attr:])
        return outs[0] if self.single else unflatten(self.out_spec, outs)


class FastEntry:
    """The per-call path for flat calls: generated entry over the positional arguments."""

    __slots__ = ("ex", "gen", "entry", "single", "out_spec", "n_attr")

    def __init__(self, ex: Executable, gen: Generated):
        self.ex, self.gen, self.entry = ex, gen, gen.function("entry")
        self.single, self.out_spec, self.n_attr = ex.single, ex.out_spec, ex.n_attr

    def run(self, args: tuple) -> Any:
        try:
            out = self.entry(*args)
        except GraphRuntimeError:
            raise
        except Exception as exc:
            raise located(self.gen, exc) from exc
        if self.n_attr:
            write_attrs(self.ex.attr_targets, out[-self.n_attr:])
        return out if self.single else unflatten(self.out_spec, out)
