"""Trace capture: run a Python function on symbolic tensors and record the ops it calls as a Graph."""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Parameter, Tensor
from ..core.types import TensorType
from ..ir.builder import GraphBuilder, Tracer
from ..ir.graph import Graph


# ---- pytrees: tuples, lists and dicts of leaves ---------------------------------------------------
class Slot:
    """Where the i-th flat leaf goes back in a rebuilt structure."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __repr__(self) -> str:
        return f"Slot({self.index})"


def flatten(tree: Any, leaves: list, is_leaf: Callable[[Any], bool]) -> Any:
    """Append the leaves of ``tree`` (values where ``is_leaf`` holds) to ``leaves``; return the
    structure with Slots in their place (non-leaf scalars stay in the structure as constants)."""
    if is_leaf(tree):
        leaves.append(tree)
        return Slot(len(leaves) - 1)
    if isinstance(tree, tuple):
        items = [flatten(x, leaves, is_leaf) for x in tree]
        if hasattr(tree, "_fields"):  # namedtuple
            return ("namedtuple", type(tree), items)
        return ("tuple", type(tree), items)
    if isinstance(tree, list):
        return ("list", type(tree), [flatten(x, leaves, is_leaf) for x in tree])
    if isinstance(tree, dict):
        return ("dict", type(tree), [(k, flatten(v, leaves, is_leaf)) for k, v in tree.items()])
    return ("const", tree)


def unflatten(spec: Any, leaves: list) -> Any:
    if spec.__class__ is Slot:
        return leaves[spec.index]
    kind = spec[0]
    if kind == "const":
        return spec[1]
    if kind == "tuple":
        items = tuple(unflatten(x, leaves) for x in spec[2])
        return items if spec[1] is tuple else spec[1](items)
    if kind == "namedtuple":
        return spec[1](*[unflatten(x, leaves) for x in spec[2]])
    if kind == "list":
        return [unflatten(x, leaves) for x in spec[2]]
    return {k: unflatten(v, leaves) for k, v in spec[2]}


def is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


# ---- mutable scalars ------------------------------------------------------------------------------
class MutableInt(int):
    """``mutable(3)``: an int that a jitted function receives as a variable (no recompile on change)."""

    __slots__ = ()
    sprout_dtype = mstype.int64


class MutableFloat(float):
    """``mutable(0.5)``: a float that a jitted function receives as a variable."""

    __slots__ = ()
    sprout_dtype = mstype.float32


def is_input_leaf(x: Any) -> bool:
    """Leaves that become graph inputs: tensors and mutable() scalars."""
    return isinstance(x, (Tensor, MutableInt, MutableFloat))


def leaf_type(x: Any) -> TensorType:
    if isinstance(x, Tensor):
        return TensorType(tuple(x._data.shape), x.dtype)
    return TensorType((), x.sprout_dtype)


def leaf_array(x: Any) -> np.ndarray:
    if isinstance(x, Tensor):
        return x._data
    return np.asarray(x, x.sprout_dtype.np)


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
        tracers.append(builder.add_input(t, "", ("arg", i)))
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
    out_spec = flatten(result, outs, is_tensor)
    slots = []
    for obj, attr, _old, new in written:
        if isinstance(new, Tensor):
            outs.append(new)
            slots.append(AttrSlot(obj, attr))
    graph = builder.finish(outs)
    return Traced(graph, in_spec, out_spec, dict(builder.sources), slots), written


def replay(graph: Graph, args: list) -> list:
    """Re-issue ``graph``'s nodes through ``dispatch.bind`` on ``args`` (Tensors or Tracers): runs it
    eagerly, records it on active tapes, or copies it into the graph being built. Returns the
    output values followed by the updated values (``graph.updates``)."""
    from ..core.dispatch import bind
    from ..ir.graph import Const

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


__all__ = ["trace", "replay", "flatten", "unflatten", "Slot", "Traced", "Tracer", "MutableInt", "MutableFloat",
           "AttrSlot", "write_attrs"]
