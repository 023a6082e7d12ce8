"""Trace capture: run a Python function on symbolic tensors and record the ops it calls as a Graph."""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from ..core.pytree import (MutableFloat, MutableInt, Slot, flatten, is_input_leaf, is_tensor,  # noqa: F401
                           leaf_array, leaf_type, unflatten)
from ..core.tensor import Parameter, Tensor
from ..core.types import TensorType
from ..ir.builder import GraphBuilder, Tracer
from ..ir.graph import Graph
from ..ir.replay import replay  # noqa: F401
from ..ir.scalars import as_scalar


# ---- the trace ------------------------------------------------------------------------------------
@dataclass
class Traced:
    graph: Graph
    in_spec: Any           # structure of (args, kwargs) with Slots for the input leaves
    out_spec: Any          # structure of the result with Slots for the graph outputs
    sources: dict          # input uid -> ("arg", leaf index) | ("param", Parameter or AttrSlot)
    attr_targets: list = field(default_factory=list)  # [AttrSlot]: written back from the trailing outputs


class AttrSlot:
    """``obj.name`` (a tensor attribute the jitted function assigns): read as a graph input at every
    call (``_data`` like a Parameter) and written back after the call (``set``). Holds ``obj`` weakly
    when it can, so a cache entry does not keep a Cell alive."""

    __slots__ = ("_ref", "_obj", "name")

    def __init__(self, obj: Any, name: str):
        try:
            self._ref, self._obj = weakref.ref(obj), None
        except TypeError:
            self._ref, self._obj = None, obj
        self.name = name

    @property
    def obj(self) -> Any:
        return self._obj if self._ref is None else self._ref()

    def current(self) -> Any:
        return getattr(self.obj, self.name)

    @property
    def _data(self) -> Any:
        return getattr(self.obj, self.name)._data

    @_data.setter
    def _data(self, value) -> None:
        getattr(self.obj, self.name)._data = value

    def __repr__(self) -> str:
        return f"AttrSlot({type(self.obj).__name__}.{self.name})"


def write_attrs(slots: list, values: list) -> None:
    """After a run: assign each computed value (a Tensor) to its attribute (``AttrWrites.apply``)."""
    from .ast import AttrWrites

    live = [((s.obj, s.name, None), v) for s, v in zip(slots, values) if s.obj is not None]
    AttrWrites.apply([t for t, _ in live], [v for _, v in live])


def trace(fn: Callable, args: tuple, kwargs: dict, *, name: str, types: list | None = None,
          attr_writes: bool = False) -> Traced:
    """Run ``fn(*args, **kwargs)`` with every tensor / mutable leaf replaced by a Tracer.
    ``types`` optionally overrides the leaves' TensorTypes (symbolic dimensions). With ``attr_writes``
    the tensors assigned to attributes (``self.x = t``, collected by the AST front-end's
    ``AttrWrites``) become trailing graph outputs (``Traced.attr_targets``); an assigned attribute
    that held a tensor of the same type is re-traced as an input, so each call reads its current value."""
    traced, written = _trace_once(fn, args, kwargs, name, types, attr_writes, [])
    feed = [(obj, attr, old) for obj, attr, old, new in written
            if isinstance(old, Tensor) and not isinstance(old, (Tracer, Parameter)) and isinstance(new, Tensor)
            and _tensor_type(old) == _tensor_type(new)]
    if feed:
        traced, _ = _trace_once(fn, args, kwargs, name, types, attr_writes, feed)
    return traced


def _tensor_type(t: Tensor) -> Any:
    return t._var.type if isinstance(t, Tracer) else TensorType(tuple(t._data.shape), t.dtype)


def _trace_once(fn, args, kwargs, name, types, attr_writes, feed) -> tuple[Traced, list]:
    leaves: list = []
    in_spec = flatten((tuple(args), dict(kwargs)), leaves, is_input_leaf)
    builder = GraphBuilder(name)
    tracers = []
    for i, leaf in enumerate(leaves):
        t = types[i] if types is not None else leaf_type(leaf)
        tracer = builder.add_input(t, "", ("arg", i))
        if isinstance(leaf, (MutableInt, MutableFloat)):  # keeps its Python kind (a scalar result stays one)
            tracer = as_scalar(tracer, int if isinstance(leaf, MutableInt) else float)
        tracers.append(tracer)
    targs, tkwargs = unflatten(in_spec, tracers)
    written: list = []
    for obj, attr, old in feed:
        setattr(obj, attr, builder.add_input(_tensor_type(old), f"attr {attr}", ("param", AttrSlot(obj, attr))))
    try:
        with builder:
            if attr_writes:
                from .ast import AttrWrites

                with AttrWrites() as collector:
                    result = fn(*targs, **tkwargs)
                    written = [tuple(w) for w in collector.writes.values()]
            else:
                result = fn(*targs, **tkwargs)
    finally:
        for obj, attr, old in feed:
            setattr(obj, attr, old)
    outs: list = []
    out_spec = _mark_scalars(flatten(result, outs, is_tensor), outs)
    slots = []
    for obj, attr, _old, new in written:
        if isinstance(new, Tensor):
            outs.append(new)
            slots.append(AttrSlot(obj, attr))
    graph = builder.finish(outs)
    return Traced(graph, in_spec, out_spec, dict(builder.sources), slots), written



def _mark_scalars(spec: Any, outs: list) -> Any:
    """Output slots holding traced Python scalars become ("pyscalar", kind, slot): returned as Python values."""
    if spec.__class__ is Slot:
        kind = getattr(outs[spec.index], "py_kind", None)
        return spec if kind is None else ("pyscalar", kind, spec)
    tag = spec[0]
    if tag in ("tuple", "namedtuple", "list", "node"):
        return (tag, spec[1], [_mark_scalars(x, outs) for x in spec[2]])
    if tag == "dict":
        return (tag, spec[1], [(k, _mark_scalars(v, outs)) for k, v in spec[2]])
    return spec


__all__ = ["trace", "replay", "flatten", "unflatten", "Slot", "Traced", "Tracer", "MutableInt", "MutableFloat",
           "AttrSlot", "write_attrs"]
