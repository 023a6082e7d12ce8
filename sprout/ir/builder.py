"""Graph construction: symbolic tensors (Tracer) and the GraphBuilder that dispatch appends nodes to."""
from __future__ import annotations

import weakref
from typing import Any
from collections.abc import Callable

import numpy as np

from ..core.errors import JitSyntaxError, JitTypeError, JitValueError, SourceLoc, user_loc
from ..core import bf16 as _bf16
from ..core import dispatch
from ..core.op import Op
from ..core.tensor import Parameter, Tensor
from ..core.types import TensorType, type_of
from .effects import TOKEN, WORLD, has_io, is_io_op, is_token, with_token, writes
from .graph import Const, Graph, Node, Var
from . import views as _views

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
        raise self._no_attribute("Tensor.asnumpy()")

    numpy = asnumpy

    def item(self, index=None):
        raise self._no_value("Tensor.item()")

    def tolist(self):
        raise self._no_attribute("Tensor.tolist()")

    def _no_attribute(self, what: str) -> Exception:
        exc = self._no_value(what)
        exc.graph_attribute = True  # reported as MindSpore's AttributeError when the refusal stands (STRICT)
        return exc

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
        # the text of a tensor is its value: a placeholder would reach the program (``str([t])`` in user code,
        # PIJit capturing such a call) instead of what eager code prints. ``describe()`` is the debug text.
        raise self._no_value("repr(tensor)")

    def describe(self) -> str:
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
        if dispatch._holders:  # tapes keep the value their records read
            dispatch.will_write(self)
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


def _refuse_traced_attrs(op: Op, attrs: dict) -> None:
    """An attribute is a compile-time constant: a traced value there (a variable scalar ``int(t)`` passed as a
    shape or an op parameter) would reach the kernel as a placeholder, so it is refused while tracing."""
    for name, value in attrs.items():
        if isinstance(value, Tracer) or (value.__class__ in (tuple, list) and any(isinstance(v, Tracer)
                                                                                 for v in value)):
            raise JitTypeError(f"{op.name}: argument {name} is a value computed in the graph (a traced tensor or a "
                               "variable scalar such as int(t) or t.item()), but it must be known while the graph "
                               "is compiled", user_loc(4), "pass a Python constant, or jit_syntax_level=LAX to run "
                               "it as Python")


class GraphBuilder:
    """Collects nodes while ``dispatch.bind`` is redirected here (``push_builder``).

    Effects (``ir.effects``): a state op's node gets one output per written operand and the written
    tracer is rebound to it (``write``); a write to an input (argument, Parameter, lifted outer value)
    becomes an entry of the finished graph's ``updates``. io ops take and give the effect token."""

    def __init__(self, name: str, parent: GraphBuilder | None = None):
        self.name = name
        self.parent = parent
        self.inputs: list[Var] = []
        self.nodes: list[Node] = []
        self.sources: dict[int, Any] = {}          # input uid -> where its value comes from
        self._consts: dict[int, tuple] = {}        # id(concrete tensor) -> (tensor, Const)
        self._params: dict[int, tuple] = {}        # id(Parameter or written tensor) -> (it, Tracer)
        self._origin: dict[int, Var] = {}          # id(input tracer) -> its input Var (for updates)
        self._updates: dict[int, tuple] = {}       # input uid -> (input Var, Tracer holding the new value)
        self._lifted: dict[int, tuple] = {}        # id(outer tracer) -> (outer tracer, inner Tracer)
        self._stands_for: dict[int, list] = {}     # id(inner Tracer) -> the outer tracers it stands for
        self._shared: dict[int, list] = {}         # id(tracer) -> the tracers sharing its buffer (alias)
        self._journal: list = []                   # (weakref(tracer), its old Var, origin uid, old update) per write
        self._when: dict[int, tuple] = {}          # id(tracer) -> (it, [(other, pred, negate)]): alias_when
        self._token: Tracer | None = None          # the current effect token (created on first io)
        self.functional = False                    # replay: a state op rebinds nothing (see emit)
        self.new_values: list = []                 # the last state op's new values (one tracer per write)
        self._state: set = parent._state if parent is not None else set()  # ids of written concrete tensors
        self.captured_inputs: list[Var] = []
        self.views = parent.views if parent is not None else _views.ViewTable()  # tracers that are views
        # ``x[i] = v`` (``write_item``): input uids whose last write was one; a top-level argument's is not
        # written back (MindSpore's graph mode leaves the caller's tensor; a Parameter's is written back)
        self._item_writes: set = set()
        self._inputs_alive: list = []              # the input tracers (their ids key _origin)
        self._writing_item = False

    # ---- inputs ---------------------------------------------------------------------------------
    def add_input(self, type: TensorType, name: str = "", source: Any = None) -> Tracer:  # noqa: A002
        v = Var(type, name)
        self.inputs.append(v)
        self.sources[v.uid] = source
        t = _new_tracer(v, self)
        self._origin[id(t)] = v
        self._inputs_alive.append(t)  # _origin is keyed by id(): a dropped input tracer's id must not be reused
        return t

    def param_tracer(self, p: Tensor) -> Tracer:
        """The tracer for a Parameter (or a written concrete tensor): a graph input read at every call."""
        entry = self._params.get(id(p))
        if entry is not None:
            return entry[1]
        if self.parent is not None:
            t = self._lift(self.parent.param_tracer(p))
            # the caller passes the Parameter itself as the operand (same Var in the outer graph), so a
            # gradient tape, which tracks the Parameter object, sees the sub-graph depend on it
            self.sources[t._var.uid] = ("captured", p)
        else:
            name = getattr(p, "name", "") or "tensor"
            t = self.add_input(TensorType(tuple(p._data.shape), p.dtype), f"param {name}", ("param", p))
        self._params[id(p)] = (p, t)
        return t

    def _lift(self, outer: Tracer) -> Tracer:
        entry = self._lifted.get(id(outer))
        if entry is not None:
            return entry[1]
        key = None
        if self.parent is not None and outer._builder is not self.parent:
            key = outer
            outer = self.parent._lift(outer)
            entry = self._lifted.get(id(outer))
            if entry is not None:
                self._lifted[id(key)] = entry
                self._stands_for.setdefault(id(entry[1]), []).append(key)
                return entry[1]
        v = Var(outer._var.type, "captured")
        self.captured_inputs.append(v)
        self.sources[v.uid] = ("captured", outer)
        t = _new_tracer(v, self)
        self._origin[id(t)] = v
        self._inputs_alive.append(t)
        self._lifted[id(outer)] = (outer, t)
        self._stands_for[id(t)] = [outer] if key is None else [outer, key]
        return t

    def seed(self, outer: Tensor, inner: Tracer) -> None:
        """Reads and writes of ``outer`` (a tracer of an enclosing builder, or a Parameter / written
        tensor, which a body's ``captured`` lists as itself) in this builder mean ``inner`` (a
        loop-carried input standing for it)."""
        if isinstance(outer, Tracer):
            self._lifted[id(outer)] = (outer, inner)
            self._stands_for.setdefault(id(inner), []).append(outer)
        else:
            self._params[id(outer)] = (outer, inner)
            if self.parent is not None:  # a write reaches what aliases the Parameter outside, as for a lifted one
                self._stands_for.setdefault(id(inner), []).append(self.parent.param_tracer(outer))

    def token_tracer(self) -> Tracer:
        """The tracer holding the current effect token (lifted from the enclosing builder in a body)."""
        if self._token is None:
            if self.parent is None:
                t = object.__new__(Tracer)
                t._var, t._builder = WORLD, self
                self._token = t
            else:
                self._token = self._lift(self.parent.token_tracer())
        return self._token

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
            if id(a) in self._state:
                return self.param_tracer(a)._var
            entry = self._consts.get(id(a))
            if entry is None:
                entry = self._consts[id(a)] = (a, Const(a._data))
            return entry[1]
        return Const(a)

    def state_tracers(self, args: tuple) -> dict | None:
        """For a gradient tape recording a call: {position: tracer} for each Parameter (or written tensor)
        argument, the tracer holding its value here (later writes rebind it); None when there is none."""
        held = None
        for k, a in enumerate(args):
            if isinstance(a, Tensor) and not isinstance(a, Tracer) and (isinstance(a, Parameter)
                                                                       or id(a) in self._state):
                if held is None:
                    held = {}
                held[k] = self.param_tracer(a)
        return held

    # ---- writes ---------------------------------------------------------------------------------
    def target(self, a: Tensor) -> Tracer:
        """This builder's tracer for a tensor an op writes."""
        if isinstance(a, Tracer):
            return a if a._builder is self else self._lift(a)
        if isinstance(a, Parameter) or id(a) in self._state or id(a) in self._params:
            return self.param_tracer(a)
        return self._promote(a)

    def write(self, target: Tracer, new: Var, _seen: set | None = None, derived: bool = False) -> None:
        """``target`` (a tracer of this builder) now holds ``new``; a write to an input is an update.
        Tracers sharing ``target``'s buffer (``alias``) hold it too, and a tracer that is ``target``'s
        object only when a branch predicate held (``alias_when``) gets ``select(pred, new, its value)``.
        Views (``ir/views.py``): a write to a view writes what it was taken of, whose views are derived again
        (``derived``: this is such a re-derivation)."""
        if not derived and _views.write_through(self, target, new):
            return
        seen = _seen if _seen is not None else set()
        group = self._shared.get(id(target), (target,))
        for t in group:
            seen.add(id(t))
            origin = self._origin.get(id(t))
            key = origin.uid if origin is not None else None
            self._journal.append((weakref.ref(t), t._var, key, self._updates.get(key)))  # weak: a dead view is not
            # derived again at the next write (ir/views.py)
            if dispatch._holders and t._var is not new and not is_token(t):  # tapes keep what they read
                dispatch.will_write(t)
            t._var = new
            if origin is not None:
                self._updates[origin.uid] = (origin, t)
                if self._writing_item:
                    self._item_writes.add(origin.uid)
                else:
                    self._item_writes.discard(origin.uid)
        self._spread(target, new, seen)
        for t in group:  # views of the written buffer see the write (ir/views.py)
            _views.follow(self, t, new, seen)

    def write_item(self, target: Tensor, new: Tracer) -> None:
        """``target[i] = v`` under AST capture, ``new`` the updated value: a write (its views and base see it, as
        eagerly) that is written back to a Parameter or a written global, not to a top-level argument."""
        self._writing_item = True
        try:
            self.write(self.target(target), new._var)
        finally:
            self._writing_item = False

    def _spread(self, obj: Tensor, new: Var, seen: set) -> None:
        """``obj`` (a tracer of this builder, or the outer tensor a body tracer aliases) now holds ``new``: so does
        each tensor recorded as ``obj``'s object when a predicate held (``alias_when``), and transitively the
        tensors recorded against it (two loop variables entering a while as the same object both alias the outer
        tensor, not each other)."""
        # a body's tracer for an outer tensor: what aliases that. The record lives with the builder that made the
        # tracer, an enclosing one when ``obj`` came up the chain from a nested body (fuzz-25: a write in an inner
        # while reached the outer while's loop-carried Parameter, but not the top graph's maybe-alias of it)
        owner = obj._builder if isinstance(obj, Tracer) and isinstance(obj._builder, GraphBuilder) else self
        for outer in owner._stands_for.get(id(obj), ()):
            if id(outer) not in seen:
                seen.add(id(outer))
                self._spread(outer, new, seen)
        b = self  # what an enclosing builder recorded about an outer tensor holds in here too (a nested body)
        entry = self._when.get(id(obj))
        while (entry is None or entry[0] is not obj) and b.parent is not None \
                and not (isinstance(obj, Tracer) and obj._builder is b):
            b = b.parent
            entry = b._when.get(id(obj))
        if entry is None or entry[0] is not obj:
            return
        from ..ops import functional as F

        # claim every direct alias before following any of them: a longer path (obj -> an alias -> its other alias)
        # must not mark a direct alias as done with that path's predicate (a tensor ternary's output reached
        # through the other operand kept its old value where it was obj: fuzz-23)
        direct = [e for e in entry[1] if id(e[0]) not in seen]
        seen.update(id(e[0]) for e in direct)
        for other, pred, negate in direct:
            o = self.target(other)
            if o._var.type != getattr(new, "type", None):
                continue
            if pred is None:  # both branches passed it through: the same object on every path
                value = new
            else:
                cond = F.logical_not(pred) if negate else pred
                value = F.select(cond, _new_tracer(new, self), _new_tracer(o._var, self))._var
            self.write(o, value, seen)
            if o is not other:  # an outer tensor (its body tracer was written): what aliases it gets the value too
                seen.add(id(other))
                self._spread(other, value, seen)

    def origin(self, t: Tracer) -> Var | None:
        """The input Var an input tracer was made for (it holds another Var after a write); None otherwise."""
        return self._origin.get(id(t))

    def writes_back(self, t: Tracer) -> bool:
        """``t`` is an input tracer written in place: the graph's update stores its value into the input's object."""
        origin = self._origin.get(id(t))
        update = self._updates.get(origin.uid) if origin is not None else None
        return update is not None and update[1] is t and t._var is not origin

    def alias_when(self, a: Tracer, b: Tensor, pred: Tracer | None, negate: bool = False) -> None:
        """``a`` is eagerly the same tensor object as ``b`` when ``pred`` held (``negate``: when it did not;
        ``None``: always): a branch passed ``b`` through. An in-place write to either then reaches the other
        on that path."""
        self._when.setdefault(id(a), (a, []))[1].append((b, pred, negate))
        if isinstance(b, Tracer):
            self._when.setdefault(id(b), (b, []))[1].append((a, pred, negate))
        elif isinstance(b, Parameter) or id(b) in self._state or id(b) in self._params:
            bt = self.param_tracer(b)  # writes to a Parameter (or state) go through its tracer: reach ``a`` too
            self._when.setdefault(id(bt), (bt, []))[1].append((a, pred, negate))

    def mark(self) -> tuple:
        """A point to ``rewind`` to (a front-end abandoning what it traced since: PIJit at a graph break)."""
        return len(self.nodes), len(self._journal)

    def rewind(self, mark: tuple) -> None:
        """Drop the nodes emitted since ``mark`` and undo the writes made since (tracers get their old Vars)."""
        n_nodes, n_writes = mark
        del self.nodes[n_nodes:]
        while len(self._journal) > n_writes:
            ref, old, key, update = self._journal.pop()
            t = ref()
            if t is not None:
                t._var = old
            if key is not None:
                if update is None:
                    self._updates.pop(key, None)
                else:
                    self._updates[key] = update

    def alias(self, t: Tracer) -> Tracer:
        """Another tracer object for ``t``'s value, as an eager Tensor sharing ``t``'s buffer: a tape tells
        them apart (the same tensor passed twice to ``grad`` gets two gradients), a write through either
        is a write to both."""
        if t._builder is not self:
            t = self._lift(t)
        a = _new_tracer(t._var, self)
        group = self._shared.get(id(t))
        if group is None:
            group = self._shared[id(t)] = [t]
        group.append(a)
        self._shared[id(a)] = group
        return a

    def _promote(self, a: Tensor) -> Tracer:
        """A concrete tensor (a global or closure value) written in place becomes state like a Parameter:
        read at every call and written back. Earlier reads of it as a constant are re-pointed."""
        chain = []
        b = self
        while b is not None:
            chain.append(b)
            b = b.parent
        for b in chain:
            for node in b.nodes:
                for _, sub in node.subgraphs():
                    if _mentions(sub, a._data):
                        raise JitSyntaxError("an in-place update of a tensor that a branch or loop body above "
                                             "already read as a constant", user_loc(4),
                                             "make it a Parameter, or pass it to the jitted function")
        self._state.add(id(a))
        t = self.param_tracer(a)
        for b in chain:
            entry = b._consts.pop(id(a), None)
            if entry is not None:
                var = b.param_tracer(a)._var
                for node in b.nodes:
                    node.inputs = [var if x is entry[1] else x for x in node.inputs]
        return t

    # ---- nodes ----------------------------------------------------------------------------------
    def emit(self, op: Op, args: tuple, attrs: dict) -> Any:
        if op.name == "GraphCall":
            return self._emit_call(op, args, attrs)
        return self._emit_plain(op, args, attrs)

    def _emit_plain(self, op: Op, args: tuple, attrs: dict) -> Any:
        w = writes(op)
        targets: dict[int, Tracer] = {}
        if w:
            args = list(args)
            for p in w:
                if p < len(args) and isinstance(args[p], Tensor):
                    args[p] = targets[p] = self.target(args[p])
        ins = [self.value_of(a) for a in args]
        if attrs:
            _refuse_traced_attrs(op, attrs)
            if not op.extra.get("symbolic_attrs"):
                _refuse_symbolic_attrs(op, attrs)
        try:
            out_type = op.infer(*[v.type for v in ins], **attrs)
        except Exception as exc:
            raise with_location(exc, user_loc(3)) from None
        loc = user_loc(3)
        if _bf16.types_touch([v.type for v in ins], out_type, op.name) and _bf16.lowerable(op):
            op = _bf16.lowered(op)  # computes in float32, rounds each result once
        if w:  # one output per written operand: its new value
            outs = [Var(out_type if k == 0 else ins[p].type) for k, p in enumerate(w)]
        elif op.n_out == 1:
            outs = [Var(out_type)]
        else:
            outs = [Var(t) for t in out_type]
        if is_io_op(op):
            tok = self.token_tracer()
            new_tok = Var(TOKEN)
            self.nodes.append(Node(op, [tok._var] + ins, dict(attrs), [new_tok] + outs, loc))
            self.write(tok, new_tok)
        else:
            self.nodes.append(Node(op, ins, dict(attrs), outs, loc))
        tracers = [_new_tracer(v, self) for v in outs]
        if not w and _views.candidate(op) and args:
            _views.record(self, op, args, attrs, tracers)
        if w:  # the result is a new tensor (as eagerly); the written tracers now hold the new values
            for k, p in enumerate(w):
                # replay (functional): the written tracer keeps meaning the old version, and the replayed
                # graph's own updates say what is written back (ir.replay)
                if p in targets and not self.functional:
                    self.write(targets[p], outs[k])
            self.new_values = tracers
            return tracers[0]
        return tracers[0] if op.n_out == 1 else tuple(tracers)

    def _emit_call(self, op: Op, args: tuple, attrs: dict) -> Any:
        """A call of a graph that does io or writes its inputs: the call threads the token (trailing
        operand and output) and returns the written values as extra outputs, written to the operands."""
        callee = attrs["graph"]
        if not isinstance(callee, Graph) or not (callee.updates or has_io(callee)):
            return self._emit_plain(op, args, attrs)
        n_out = len(callee.outputs)
        pos = {v.uid: k for k, v in enumerate(callee.inputs)}
        written = [args[pos[t.uid]] for t, _ in callee.updates]
        g = callee.replace(outputs=list(callee.outputs) + [v for _, v in callee.updates], updates=[])
        threaded = with_token(g)
        extra = (self.token_tracer(),) if threaded is not g else ()
        outs = self._emit_plain(op, tuple(args) + extra, {**attrs, "graph": threaded})
        for a, o in zip(written, outs[n_out:n_out + len(written)]):
            if isinstance(a, Tensor):
                self.write(self.target(a), o._var)
        if extra:
            self.write(self.token_tracer(), outs[-1]._var)
        return tuple(outs[:n_out])

    # ---- results --------------------------------------------------------------------------------
    def output_value(self, x: Any) -> Any:
        """Var/Const for a returned tensor (concrete tensors become Consts)."""
        if isinstance(x, Tensor):
            return self.value_of(x)
        return Const(x)

    def finish(self, outputs: list) -> Graph:
        outs = [self.output_value(o) for o in outputs]
        items = self._item_writes if self.parent is None else ()
        updates = [(v, t._var) for v, t in self._updates.values() if t._var is not v
                   and not (v.uid in items and (self.sources.get(v.uid) or ("",))[0] == "arg")]
        return Graph(self.name, self.inputs + self.captured_inputs, list(self.nodes), outs, updates,
                     [self._lifted_outer(v) for v in self.captured_inputs])

    def _lifted_outer(self, v: Var):
        return self.sources[v.uid][1]

    def __enter__(self) -> GraphBuilder:
        dispatch.push_builder(self)
        return self

    def __exit__(self, *exc) -> None:
        dispatch.pop_builder(self)


def _type_of(outer: Any) -> TensorType:
    return outer._var.type if isinstance(outer, Tracer) else type_of(outer)


def _mentions(graph: Graph, array) -> bool:
    """``graph`` (or a body inside it) uses ``array`` as a constant."""
    for node in graph.nodes:
        if any(isinstance(x, Const) and x.value is array for x in node.inputs):
            return True
        if any(_mentions(sub, array) for _, sub in node.subgraphs()):
            return True
    return False


def trace_subgraph(fn: Callable, in_types: list, name: str = "subgraph", carry: list = ()) -> tuple[Graph, list]:
    """Trace ``fn(*tracers)`` into a fresh Graph. Outer tracers it uses become trailing inputs,
    listed (as the outer tracers the caller passes) in ``graph.captured``. ``carry`` lists outer
    tracers that get explicit inputs right after ``in_types`` instead (loop-carried state: reads and
    writes of them in ``fn`` use those inputs). Writes to any input are ``graph.updates``; turn them
    into outputs with ``writes_as_outputs``. Returns (graph, out_types)."""
    parent = dispatch.current_builder()
    builder = GraphBuilder(name, parent)
    args = [builder.add_input(t) if isinstance(t, TensorType) else t for t in in_types]
    for outer in carry:
        builder.seed(outer, builder.add_input(_type_of(outer), "carried"))
    with builder:
        out = fn(*args)
    flat = list(out) if isinstance(out, (tuple, list)) else [out]
    graph = builder.finish(flat)
    return graph, [o.type for o in graph.outputs]


# ---- writes in control-flow bodies become outputs ----------------------------------------------------
def outer_of(graph: Graph, k: int, operands: list) -> Any:
    """The outer value behind input ``k`` of a body: ``operands[k]`` for an explicit input, else the
    captured outer tracer."""
    n_explicit = len(graph.inputs) - len(graph.captured)
    return operands[k] if k < n_explicit else graph.captured[k - n_explicit]


def written_outer(graphs: list, operands: list) -> list:
    """The outer values (tracers / tensors) some body writes, each once, in first-write order."""
    seen: dict[int, Any] = {}
    for g in graphs:
        index = {v.uid: k for k, v in enumerate(g.inputs)}
        for t, _ in g.updates:
            outer = outer_of(g, index[t.uid], operands)
            seen.setdefault(id(outer), outer)
    return list(seen.values())


def writes_as_outputs(graph: Graph, targets: list, operands: list) -> Graph:
    """``graph`` with one trailing output per entry of ``targets`` (outer values): the value it wrote
    there, or the value it received (a new captured input when it never touched it). No updates remain."""
    outers = [outer_of(graph, k, operands) for k in range(len(graph.inputs))]
    index = {v.uid: k for k, v in enumerate(graph.inputs)}
    final = {id(outers[index[t.uid]]): v for t, v in graph.updates}
    received = {}
    for k in range(len(graph.inputs) - 1, -1, -1):
        received[id(outers[k])] = graph.inputs[k]
    inputs, captured = list(graph.inputs), list(graph.captured)
    extra = []
    for outer in targets:
        v = final.get(id(outer), received.get(id(outer)))
        if v is None:
            v = Var(_type_of(outer), "captured")
            inputs.append(v)
            captured.append(outer)
            received[id(outer)] = v
        extra.append(v)
    return graph.replace(inputs=inputs, captured=captured, outputs=list(graph.outputs) + extra, updates=[])


def write_back(targets: list, values: list) -> None:
    """After a control-flow node: each outer value in ``targets`` now holds the matching node output."""
    b = dispatch.current_builder()
    for outer, new in zip(targets, values):
        b.write(b.target(outer), new._var)


def const_array(value: Any) -> np.ndarray:
    """A constant as an array (for folding and codegen)."""
    return value if isinstance(value, np.ndarray) else np.asarray(value)
