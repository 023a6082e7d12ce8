"""Jit cache entries at run time: the lean generated entry for plain calls; under a tape the call goes
through ``autodiff.compiled.CompiledGraph`` (one tape node whose backward is the compiled backward)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..autodiff.compiled import CompiledGraph, located, will_write
from ..backend.interpret import GraphRuntimeError
from ..backend.pycodegen import Generated, generate_entry
from ..capture.trace import AttrSlot, Traced, write_attrs
from ..core.pytree import MutableFloat, MutableInt, Slot, unflatten
from ..core import dispatch
from ..core.tensor import Tensor
from ..ir.graph import Graph

_new = object.__new__


def _wrap(a: Any) -> Tensor:
    t = _new(Tensor)
    t._data = a if a.__class__ is np.ndarray else np.asarray(a)
    return t


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
        self._gen: Generated | None = None  # the entry over flat leaves: generated on first use (a call that
        self._entry = None                   # takes FastEntry never needs it)
        self._fast: dict = {}
        self.out_spec = traced.out_spec
        self.attr_targets = traced.attr_targets  # trailing outputs assigned to attributes after each run
        self.n_attr = len(traced.attr_targets)
        self.compiled = CompiledGraph(graph, traced.graph.inputs, level, source=traced.graph)

    @property
    def gen(self) -> Generated:
        if self._gen is None:
            self._gen = generate_entry(*self._entry_args)
            self._entry = self._gen.function("entry")
        return self._gen

    @property
    def entry(self) -> Callable:
        return self._entry or self.gen.function("entry")

    @property
    def source(self) -> str:
        return self.gen.source

    def run(self, leaves: list) -> Any:
        if dispatch._holders and self.compiled.update_pos:  # tapes keep the values their records read
            will_write(self.input_tensors(leaves), self.compiled.update_pos)
        try:
            out = (self._entry or self.entry)(*leaves)
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
