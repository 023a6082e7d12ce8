"""Graph construction: symbolic tensors (Tracer) and the GraphBuilder that dispatch appends nodes to."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

import numpy as np

from ..core.errors import JitTypeError, JitValueError, SourceLoc, user_loc
from ..core import dispatch
from ..core.op import Op
from ..core.tensor import Parameter, Tensor
from ..core.types import TensorType
from .graph import Const, Graph, Node, Var

def with_location(exc: Exception, loc: SourceLoc | None) -> Exception:
    """The same kind of exception with the user's file, line and source appended to its message."""
    if loc is None or getattr(exc, "_sprout_located", False):
        return exc
    text = f"{exc}\n{loc.render()}"
    try:
        new = type(exc)(text)
    except Exception:  # noqa: BLE001 - exotic exception signature: annotate instead
        exc.add_note(loc.render())
        new = exc
    new._sprout_located = True
    return new


class Tracer(Tensor):
    """A symbolic tensor: its shape and dtype are known while a graph is built, its value is not."""

    __slots__ = ("_var", "_builder")

    @property
    def shape(self) -> tuple:
        return self._var.type.shape

    @property
    def dtype(self):
        return self._var.type.dtype

    @property
    def ndim(self) -> int:
        return len(self._var.type.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self._var.type.shape:
            if d is None:
                raise self._no_value("size of a tensor with a dynamic dimension")
            n *= d
        return n

    def _no_value(self, what: str) -> Exception:
        return JitValueError(f"{what}: the value of a tensor is not known while the graph is compiled "
                             f"(tensor {self._var.type})", user_loc(3),
                             "use tensor ops (ops.select / ops.where) instead of Python-level decisions on tensor "
                             "values, or remove @jit to run this eagerly")

    def __bool__(self) -> bool:
        raise self._no_value("using a tensor as a Python bool")

    def asnumpy(self):
        raise self._no_value("Tensor.asnumpy()")

    numpy = asnumpy

    def item(self, index=None):
        raise self._no_value("Tensor.item()")

    def tolist(self):
        raise self._no_value("Tensor.tolist()")

    def __array__(self, dtype=None, copy=None):
        raise self._no_value("converting a tensor to a NumPy array")

    def __int__(self) -> int:
        raise self._no_value("int(tensor)")

    def __float__(self) -> float:
        raise self._no_value("float(tensor)")

    def __index__(self) -> int:
        raise JitTypeError("a tensor used as a Python index or range bound inside jitted code", user_loc(2),
                           "use a Python int, or index with the tensor (x[t]) instead")

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d tensor")
        if self.shape[0] is None:
            raise self._no_value("len() of a tensor with a dynamic first dimension")
        return self.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        return f"Tracer({self._var.type}, {self._var.name or self._var.uid})"

    def __str__(self) -> str:  # the text of a tensor is its value: not known while compiling
        raise self._no_value("str(tensor)")

    def __format__(self, spec: str) -> str:
        raise self._no_value("formatting a tensor (an f-string or format())")

    def __reduce__(self):
        raise self._no_value("pickling a tensor")

    def __copy__(self):
        from ..ops import functional as F

        return F.identity(self)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def _rebind(self, other) -> None:
        """In-place update (``x[i] = v``): later reads of this tracer see the new value."""
        self._var = other._var


def _new_tracer(var: Var, builder: GraphBuilder) -> Tracer:
    t = object.__new__(Tracer)
    t._var = var
    t._builder = builder
    return t


def _refuse_symbolic_attrs(op: Op, attrs: dict) -> None:
    """A size tuple attr holding None (a symbolic dim read from ``x.shape``) works only for ops whose
    kernels resolve it at run time (``op.extra["symbolic_attrs"]``); others fail here, while tracing,
    so the jit compiles per shape instead of failing at run time."""
    for name, value in attrs.items():
        if value.__class__ is tuple and any(d is None for d in value):
            raise TypeError(f"{op.name}: attribute {name}={value} holds a symbolic (None) size, which this op "
                            "needs concretely")


class GraphBuilder:
    """Collects nodes while ``dispatch.bind`` is redirected here (``push_builder``)."""

    def __init__(self, name: str, parent: GraphBuilder | None = None):
        self.name = name
        self.parent = parent
        self.inputs: list[Var] = []
        self.nodes: list[Node] = []
        self.sources: dict[int, Any] = {}          # input uid -> where its value comes from
        self._consts: dict[int, tuple] = {}        # id(concrete tensor) -> (tensor, Const)
        self._params: dict[int, tuple] = {}        # id(Parameter) -> (Parameter, Tracer)
        self._origin: dict[int, Var] = {}          # id(input tracer) -> its input Var (for updates)
        self._updates: dict[int, tuple] = {}       # input uid -> (input Var, Tracer holding the new value)
        self._lifted: dict[int, tuple] = {}        # id(outer tracer) -> (outer tracer, inner Tracer)
        self.captured_inputs: list[Var] = []

    # ---- inputs ---------------------------------------------------------------------------------
    def add_input(self, type: TensorType, name: str = "", source: Any = None) -> Tracer:  # noqa: A002
        v = Var(type, name)
        self.inputs.append(v)
        self.sources[v.uid] = source
        t = _new_tracer(v, self)
        self._origin[id(t)] = v
        return t

    def param_tracer(self, p: Parameter) -> Tracer:
        entry = self._params.get(id(p))
        if entry is not None:
            return entry[1]
        if self.parent is not None:
            t = self._lift(self.parent.param_tracer(p))
        else:
            t = self.add_input(TensorType(tuple(p._data.shape), p.dtype), f"param {p.name}", ("param", p))
        self._params[id(p)] = (p, t)
        return t

    def _lift(self, outer: Tracer) -> Tracer:
        entry = self._lifted.get(id(outer))
        if entry is not None:
            return entry[1]
        if self.parent is not None and outer._builder is not self.parent:
            outer = self.parent._lift(outer)
        v = Var(outer._var.type, "captured")
        self.captured_inputs.append(v)
        self.sources[v.uid] = ("captured", outer)
        t = _new_tracer(v, self)
        self._lifted[id(outer)] = (outer, t)
        return t

    def value_of(self, a: Any) -> Any:
        """The Var or Const standing for a bind argument."""
        if isinstance(a, Tensor):
            if a.__class__ is Tracer:
                if a._builder is self:
                    return a._var
                return self._lift(a)._var
            if isinstance(a, Parameter):
                return self.param_tracer(a)._var
            if isinstance(a, Tracer):
                return a._var if a._builder is self else self._lift(a)._var
            entry = self._consts.get(id(a))
            if entry is None:
                entry = self._consts[id(a)] = (a, Const(a._data))
            return entry[1]
        return Const(a)

    # ---- nodes ----------------------------------------------------------------------------------
    def emit(self, op: Op, args: tuple, attrs: dict) -> Any:
        if op.side_effect and args and isinstance(args[0], Parameter):
            args = (self.param_tracer(args[0]),) + tuple(args[1:])
        ins = [self.value_of(a) for a in args]
        if attrs and not op.extra.get("symbolic_attrs"):
            _refuse_symbolic_attrs(op, attrs)
        try:
            out_type = op.infer(*[v.type for v in ins], **attrs)
        except Exception as exc:
            raise with_location(exc, user_loc(3)) from None
        loc = user_loc(3)
        if op.n_out == 1:
            outs = [Var(out_type)]
        else:
            outs = [Var(t) for t in out_type]
        self.nodes.append(Node(op, ins, dict(attrs), outs, loc))
        tracers = [_new_tracer(v, self) for v in outs]
        if op.side_effect and args and isinstance(args[0], Tracer) and len(tracers) == 1:
            target = args[0]
            target._var = outs[0]
            origin = self._origin.get(id(target))
            if origin is not None:
                self._updates[origin.uid] = (origin, target)
            return target
        return tracers[0] if op.n_out == 1 else tuple(tracers)

    # ---- results --------------------------------------------------------------------------------
    def output_value(self, x: Any) -> Any:
        """Var/Const for a returned tensor (concrete tensors become Consts)."""
        if isinstance(x, Tensor):
            return self.value_of(x)
        return Const(x)

    def finish(self, outputs: list) -> Graph:
        outs = [self.output_value(o) for o in outputs]
        updates = [(v, t._var) for v, t in self._updates.values() if t._var is not v]
        return Graph(self.name, self.inputs + self.captured_inputs, list(self.nodes), outs, updates,
                     [self._lifted_outer(v) for v in self.captured_inputs])

    def _lifted_outer(self, v: Var):
        return self.sources[v.uid][1]

    def __enter__(self) -> GraphBuilder:
        dispatch.push_builder(self)
        return self

    def __exit__(self, *exc) -> None:
        dispatch.pop_builder(self)


def trace_subgraph(fn: Callable, in_types: list, name: str = "subgraph") -> tuple[Graph, list]:
    """Trace ``fn(*tracers)`` into a fresh Graph. Outer tracers it uses become trailing inputs,
    listed (as the outer tracers the caller passes) in ``graph.captured``. Returns (graph, out_types)."""
    parent = dispatch.current_builder()
    builder = GraphBuilder(name, parent)
    args = [builder.add_input(t) if isinstance(t, TensorType) else t for t in in_types]
    with builder:
        out = fn(*args)
    flat = list(out) if isinstance(out, (tuple, list)) else [out]
    graph = builder.finish(flat)
    return graph, [o.type for o in graph.outputs]


def const_array(value: Any) -> np.ndarray:
    """A constant as an array (for folding and codegen)."""
    return value if isinstance(value, np.ndarray) else np.asarray(value)
