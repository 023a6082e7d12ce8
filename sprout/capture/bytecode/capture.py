"""Symbolic execution of one segment: tensors become Tracers of a GraphBuilder, Python values are
computed for real under guards, and the first thing that cannot be captured ends the segment."""
from __future__ import annotations

import math
import operator
import sys
import types

import numpy as np

from ...core import dispatch
from ...core.tensor import Parameter, Tensor
from ...core.types import TensorType
from ...ir.builder import GraphBuilder, Tracer
from ...ir.scalars import as_scalar
from ...core.errors import is_library
from ...core.host import HostList
from ...core.pytree import NODES
from . import py311
from .aliases import Converted
from .executor import UNBOUND, Frame, Handlers, Return
from .guards import SymIter, path_key

SCALARS = (int, float, bool, str, bytes, complex, type(None), type(Ellipsis), range, slice)
_PLAIN = (Tensor, Tracer, tuple, list, dict) + SCALARS  # results the exit recipes rebuild by themselves
OPAQUE = (np.ndarray, np.generic, BaseException, types.TracebackType, types.GeneratorType, HostList)
HOST_METHODS = {"asnumpy", "numpy", "item", "tolist", "__array__", "__bool__", "__int__", "__float__",
                "__index__", "__repr__", "__str__", "__format__", "assign_value", "set_data", "set_dtype"}
PURE_BUILTINS = {"len", "isinstance", "issubclass", "range", "tuple", "list", "dict", "zip", "enumerate", "min",
                 "max", "abs", "sum", "int", "float", "bool", "str", "type", "getattr", "hasattr", "callable",
                 "round", "divmod", "pow", "sorted", "reversed", "slice", "any", "all", "repr", "hash", "frozenset",
                 "set", "chr", "ord", "id"}
PURE_MODULES = {"math", "operator", "_operator", "builtins", "itertools", "functools"}
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "update", "setdefault",
            "popitem", "add", "discard", "difference_update", "intersection_update", "__setitem__", "__delitem__"}
_FIXED_ATTRS = frozenset((list, tuple, dict, set, frozenset, str, bytes, int, float, bool, complex, range, slice))
MAX_INLINE_DEPTH = 24
MAX_INSTRUCTIONS = 200_000


class Break(Exception):
    """The instruction being simulated cannot be captured: the segment ends before it."""

    def __init__(self, reason: str, where=None, inner: Break | None = None, dynamic_failure: bool = False):
        super().__init__(reason)
        self.reason, self.where, self.inner, self.dynamic_failure = reason, where, inner, dynamic_failure

    def innermost(self) -> Break:
        b = self
        while b.inner is not None:
            b = b.inner
        return b


def _module_of(obj) -> str:
    return getattr(obj, "__module__", None) or ""


def _is_sprout(obj) -> bool:
    m = _module_of(obj)
    return m == "sprout" or m.startswith("sprout.")


def _is_library_code(code: types.CodeType) -> bool:
    """Code from the standard library or site-packages (called, never inlined)."""
    return is_library(code.co_filename)


class Capture(Handlers):
    """Simulates from ``pc`` on a copy of ``frame`` (concrete values), building one graph."""

    def __init__(self, runtime, frame: Frame, pc: int, dyn: dict):
        self.rt = runtime
        self.dyn = dyn                                 # path -> set of symbolic axes
        self.builder = GraphBuilder(f"{frame.code.co_name}@{pc}")
        self.guards: list = []
        self._guard_keys: set = set()
        self.conv_src: dict[int, tuple] = {}           # id(converted value) -> its source path
        self.param_of: dict[int, Parameter] = {}       # id(Parameter tracer) -> the Parameter it reads
        self.keep: list = []                           # keeps ids stable
        self.fresh_ids: set = set()
        self.remakes: dict[int, tuple] = {}            # id(object sprout code made from graph values) -> the call
        self.opaque: set = set()
        self.log: list = []                            # (object, saved state) before in-place changes
        self.depth = 0
        self.n_ins = 0
        self.used_dynamic = False
        self.aliases = Converted()                     # tensors read, to relate ones sharing memory
        self.loc = (frame.code, pc)
        self.pc = pc
        self.top = Frame(frame.fn, list(frame.locals))
        self.orig = list(frame.locals)
        self.top.kwnames = frame.kwnames
        self.top.exc = frame.exc
        if frame.exc is not None:
            self._register(frame.exc, ("E",))
            self.opaque.add(id(frame.exc))
        self.pending: Break | None = None
        self.converted_slots: set = set()
        self.stored_slots: set = set()                 # top-frame slots this segment assigned (STORE_FAST)
        try:
            self.top.stack = [self.convert(v, ("S", i)) for i, v in enumerate(frame.stack)]
        except Break as b:  # two stack values share memory in a way a graph cannot express: break at once
            self.pending, self.top.stack = b, list(frame.stack)
            del self.builder.nodes[:]

    # ---- sources and guards -------------------------------------------------------------------------
    def _register(self, v, path):
        self.conv_src[id(v)] = path
        self.keep.append(v)

    def guard(self, g: tuple) -> None:
        key = (g[0], path_key(g[1])) if g[0] != "DIFF" else (g[0], path_key(g[1]), path_key(g[2]))
        if key not in self._guard_keys:
            self._guard_keys.add(key)
            self.guards.append(g)

    def convert(self, v, path: tuple):
        """The value to simulate for ``v`` read from ``path`` (guarded): tensors become graph inputs."""
        cls = v.__class__
        if cls is float and self.pc and path_key(path) in self.rt.float_inputs.get(self.pc, ()):
            return self._float_input(v, path)
        if cls in SCALARS or (isinstance(v, (int, float, str)) and not isinstance(v, OPAQUE)):
            self.guard(("V", path, v))
            return v
        if isinstance(v, Tensor):
            return self._convert_tensor(v, path)
        if cls is tuple or cls is list or (isinstance(v, tuple) and hasattr(v, "_fields")):
            self.guard(("LEN", path, cls, len(v)))
            items = [self.convert(x, ("I", path, i)) for i, x in enumerate(v)]
            if all(a is b for a, b in zip(items, v)):
                new = v
            else:
                new = cls(*items) if hasattr(v, "_fields") else cls(items)
            self._register(new, path)
            return new
        if cls is dict:
            self.guard(("KEYS", path, tuple(v)))
            items = {k: self.convert(x, ("K", path, k)) for k, x in v.items()}
            new = v if all(items[k] is v[k] for k in v) else items
            self._register(new, path)
            return new
        node = NODES.get(cls)
        if node is not None:  # a sparse tensor: its tensors become inputs, its shape is guarded
            self.guard(("TY", path, cls))
            aux = getattr(v, node.aux)
            self.guard(("V", ("A", path, node.aux), aux))
            old = node.children(v)
            items = [self.convert(x, ("A", path, f)) for f, x in zip(node.fields, old)]
            new = v if all(a is b for a, b in zip(items, old)) else node.build(aux, items)
            self._register(new, path)
            return new
        if cls is SymIter:
            self.guard(("V", ("A", path, "pos"), v.pos))
            items = self.convert(v.items, ("A", path, "items"))
            new = self.fresh(SymIter(list(items), v.pos))
            return new
        if cls is types.CellType:
            self.guard(("TY", path, cls))
            self._register(v, path)
            return v
        if isinstance(v, OPAQUE) or cls.__name__ in ("list_iterator", "tuple_iterator", "dict_itemiterator"):
            self.guard(("TY", path, cls))
            self._register(v, path)
            self.opaque.add(id(v))
            return v
        if cls in (types.MethodType, types.BuiltinMethodType) and not self._stable(getattr(v, "__self__", None)) \
                or (not self._stable(v) and cls not in (types.MethodType, types.BuiltinMethodType)):
            self.guard(("TY", path, cls))
            self._register(v, path)
            self.opaque.add(id(v))
            return v
        if cls is types.MethodType:
            self.guard(("METH", path, v.__func__, v.__self__))
            self._register(v, path)
            return v
        if cls is types.BuiltinMethodType and not isinstance(v.__self__, types.ModuleType):
            self.guard(("BMETH", path, v.__self__, v.__name__))
            self._register(v, path)
            return v
        self.guard(("ID", path, v))
        self._register(v, path)
        return v

    def _float_input(self, v: float, path: tuple):
        """A Python float that changed between calls at this resume point: a 0-d float32 graph input."""
        from ... import dtype as mstype

        self.guard(("TY", path, float))
        key = ("float", path_key(path))
        t = self.conv_src.get(key)
        if t is None:
            t = self.builder.add_input(TensorType((), mstype.float32), _path_name(path), ("FLOAT", path))
            as_scalar(t, float)  # stays a Python float through scalar arithmetic and when it leaves the graph
            self.conv_src[key] = t
            self._register(t, path)
        return t

    def _stable(self, obj) -> bool:
        """Objects whose identity is guarded; others (at a resume point) are host-only values."""
        if self.pc == 0 and not isinstance(obj, OPAQUE):
            return True
        return obj is None or isinstance(obj, (types.ModuleType, types.FunctionType, type, types.BuiltinFunctionType,
                                               np.ufunc, types.CellType)) or _is_cell(obj) or _is_sprout(type(obj))

    def _convert_tensor(self, v: Tensor, path: tuple):
        if isinstance(v, Tracer):
            raise Break("a symbolic tensor escaped into Python state", dynamic_failure=True)
        if isinstance(v, Parameter):
            self.guard(("ID", path, v))
            known = id(v) in self.builder._params
            t = self.builder.param_tracer(v)
            self._register(t, ("H", v))
            self.param_of[id(t)] = v
            return t if known else self.aliases.add(self, v, t, ("H", v))
        shape = tuple(v._data.shape)
        axes = self.dyn.get(path_key(path))
        if axes:
            shape = tuple(None if a in axes else d for a, d in enumerate(shape))
            self.used_dynamic = True
        self.guard(("TEN", path, v.__class__, shape, v.dtype, v._data.dtype))
        key = ("tensor", id(v))
        prev = self.conv_src.get(key)
        if prev is not None:  # the same tensor object under another path: one input, if they stay one object
            first = self.conv_src[id(prev)]
            if path_key(first) != path_key(path):
                self.guard(("SAME", path, first))
            return prev
        t = self.builder.add_input(TensorType(shape, v.dtype), _path_name(path), path)
        t = self.aliases.add(self, v, t, path)  # a tensor sharing memory with one read before: through it
        self.conv_src[key] = t
        self._register(t, path)
        self.keep.append(v)
        return t

    # ---- hooks -------------------------------------------------------------------------------------------
    def load_local(self, f, k):
        v = f.locals[k]
        if f is self.top and k not in self.converted_slots:
            self.converted_slots.add(k)
            if v is not UNBOUND and v is self.orig[k] and k not in self.stored_slots:
                v = f.locals[k] = self.convert(v, ("L", k, py311.localsplus_names(f.code)[k]))
        if v is UNBOUND:
            return super().load_local(f, k)
        return v

    def op_STORE_FAST(self, f, ins):
        # an assigned slot no longer holds what the frame had, even when the value is that very object (the
        # cached int 0 assigned to ``i = 0`` that was 0): it is neither the frame's value nor passed through
        if f is self.top:
            self.stored_slots.add(ins.arg)
        super().op_STORE_FAST(f, ins)

    def load_cell(self, f, k):
        cell = f.locals[k]
        if f is self.top and k not in self.converted_slots:
            self.load_local(f, k)
            cell = f.locals[k]
        if id(cell) in self.fresh_ids:
            return super().load_cell(f, k)
        path = self.conv_src.get(id(cell)) or ("H", cell)
        try:
            v = cell.cell_contents
        except ValueError:
            return super().load_cell(f, k)
        return self.convert(v, ("A", path, "cell_contents"))

    def op_LOAD_CLOSURE(self, f, ins):
        # a cell of the frame being resumed is read through its slot (a guarded source), never held: the exit
        # of the previous segment builds a fresh cell every call, so a held one would be last call's value
        if f is self.top and ins.arg not in self.converted_slots:
            self.load_local(f, ins.arg)
        super().op_LOAD_CLOSURE(f, ins)

    def op_MAKE_CELL(self, f, ins):
        if f.locals[ins.arg] is not UNBOUND:  # an argument captured by an inner function: convert it first
            self.load_local(f, ins.arg)
        super().op_MAKE_CELL(f, ins)

    def store_cell(self, f, k, v):
        cell = f.locals[k]
        if f is self.top and k not in self.converted_slots:
            self.load_local(f, k)
            cell = f.locals[k]
        if id(cell) not in self.fresh_ids:
            raise Break("assignment to a variable of an enclosing scope (nonlocal) is a Python side effect")
        self.mutate(cell)
        cell.cell_contents = v

    def load_global(self, f, name):
        if name in f.glb:
            return self.convert(f.glb[name], ("D", f.glb, name))
        if name in f.bltn:
            return self.convert(f.bltn[name], ("GB", f.glb, f.bltn, name))
        raise Break(f"name {name!r} is not defined")

    def store_global(self, f, name, v):
        raise Break(f"assignment to the global {name!r} is a Python side effect")

    def getattr(self, obj, name):
        self.use(obj)
        if isinstance(obj, Tracer):
            if name in ("shape", "size", "__len__") and None in obj.shape:
                raise Break(f"reads .{name} of a tensor with a symbolic dimension", dynamic_failure=True)
            return getattr(obj, name)
        v = getattr(obj, name)
        if obj.__class__ in _FIXED_ATTRS or obj.__class__ in NODES:  # the class is guarded already, its
            return v  # attributes cannot change (a sparse tensor's tensors were converted with it)
        src = self.conv_src.get(id(obj))
        if src is None or (isinstance(obj, types.ModuleType) and (_is_sprout(v) or obj.__name__ in PURE_MODULES
                                                                     or obj.__name__.startswith("numpy"))):
            return v
        return self.convert(v, ("A", src, name))

    def setattr(self, obj, name, v):
        raise Break(f"assignment to the attribute .{name} is a Python side effect")

    def truth(self, v):
        if isinstance(v, Tensor):
            raise Break("branch on a tensor's value (its value is only known when the graph runs)")
        self.use(v)
        return bool(v)

    def use(self, *vals):
        opaque = self.opaque
        for v in vals:
            if id(v) in opaque:
                raise Break(f"uses a {type(v).__name__} computed outside the graph")

    def mutate(self, obj):
        if id(obj) not in self.fresh_ids:
            raise Break(f"changes a {type(obj).__name__} that existed before the graph (a Python side effect)")
        if isinstance(obj, list):
            self.log.append((obj, list(obj)))
        elif isinstance(obj, (dict, set)):
            self.log.append((obj, obj.copy()))
        elif isinstance(obj, SymIter):
            self.log.append((obj, obj.pos))
        elif isinstance(obj, types.CellType):
            try:
                self.log.append((obj, ("cell", obj.cell_contents)))
            except ValueError:
                self.log.append((obj, ("cell",)))

    def rollback(self, mark: int) -> None:
        while len(self.log) > mark:
            obj, saved = self.log.pop()
            if isinstance(obj, list):
                obj[:] = saved
            elif isinstance(obj, (dict, set)):
                obj.clear()
                obj.update(saved)
            elif isinstance(obj, SymIter):
                obj.pos = saved
            elif len(saved) == 2:
                obj.cell_contents = saved[1]

    def fresh(self, obj):
        self.fresh_ids.add(id(obj))
        self.keep.append(obj)
        return obj

    def make_iter(self, v):
        if isinstance(v, Tracer):
            if not v.shape or v.shape[0] is None:
                raise Break("iterates over a tensor whose length is not known")
            return SymIter([v[i] for i in range(v.shape[0])])
        if isinstance(v, Tensor):
            raise Break("iterates over a concrete tensor")
        it = super().make_iter(v)
        if not isinstance(it, SymIter):
            raise Break(f"iterates over a {type(v).__name__} (not a range or container)")
        return it

    def subscr(self, c, k):
        v = c[k]
        src = self.conv_src.get(id(c))
        if src is not None and not isinstance(c, Tensor) and isinstance(k, (int, str)) and c.__class__ not in (
                tuple, list, dict):
            return self.convert(v, ("I", src, k))
        return v

    def store_item(self, f, c, k, v):
        if isinstance(c, Tracer):
            from ...ops import functional as F

            # a write (eager's): its views and base see it, an argument's or Parameter's new value is written back
            self.builder.write(self.builder.target(c), F.tensor_setitem(c, k, v)._var)
            return
        self.mutate(c)
        c[k] = v

    def unsupported(self, f, ins):
        raise Break(f"the opcode {ins.opname} is not captured")

    def op_IS_OP(self, f, ins):
        a, b = f.stack[-2], f.stack[-1]
        if a is not b and isinstance(a, Tracer) and isinstance(b, Tracer):
            pa, pb = self.conv_src.get(id(a)), self.conv_src.get(id(b))
            if pa is not None and pb is not None:  # two inputs that are different objects now: guard that
                self.guard(("DIFF", pa, pb))
        return super().op_IS_OP(f, ins)

    def op_BEFORE_WITH(self, f, ins):
        raise Break("enters a with-block (its __enter__/__exit__ run as Python)")

    def op_RAISE_VARARGS(self, f, ins):
        raise Break("raises an exception")

    op_RERAISE = op_RAISE_VARARGS

    def op_IMPORT_NAME(self, f, ins):
        raise Break("imports a module")

    # ---- calls ---------------------------------------------------------------------------------------------
    def _real(self, args, kwargs) -> tuple:
        """Arguments for sprout code called for real: a Parameter's tracer becomes the Parameter again, so that
        sprout code sees what eager code sees (the builder maps the Parameter back to the same tracer). A tape
        watching ``weights=[p]`` must meet the object that callbacks such as a loss function read from their
        globals, or the gradient w.r.t. ``p`` is lost."""
        if not self.param_of:
            return args, kwargs
        return self._unparam(list(args)), {k: self._unparam(v) for k, v in kwargs.items()}

    def _call_sprout(self, fn, args, kwargs):
        """Call sprout code for real. An object it makes from values of this graph (``ops.grad(lambda a: a * y)``
        holds the lambda whose cell holds ``y``'s tracer) is only valid while the graph is built: the exit
        makes it again by the same call on the exit's values (``remakes``; the ``("CALL", ...)`` recipe)."""
        args, kwargs = self._real(args, kwargs)
        out = fn(*args, **kwargs)
        if not isinstance(out, _PLAIN) and any(map(self._holds_graph_values, (fn, *args, *kwargs.values()))):
            self.remakes[id(out)] = (fn, list(args), dict(kwargs))
            self.keep.append(out)
        return out

    def _holds_graph_values(self, v) -> bool:
        if isinstance(v, Tracer) or id(v) in self.fresh_ids or id(v) in self.remakes:
            return True
        if v.__class__ in (list, tuple):
            return any(map(self._holds_graph_values, v))
        if v.__class__ is dict:
            return any(map(self._holds_graph_values, v.values()))
        node = NODES.get(v.__class__)
        if node is not None:
            return any(map(self._holds_graph_values, node.children(v)))
        return False

    def _unparam(self, v):
        if isinstance(v, Tracer):
            return self.param_of.get(id(v), v)
        if v.__class__ in (list, tuple):
            return v.__class__(self._unparam(x) for x in v)
        if v.__class__ is dict:
            return {k: self._unparam(x) for k, x in v.items()}
        return v

    def call(self, f, fn, args, kwargs):
        vals = list(args) + list(kwargs.values())
        self.use(fn, *vals)
        self_obj = getattr(fn, "__self__", None)
        name = getattr(fn, "__name__", type(fn).__name__)
        if isinstance(self_obj, Tracer):
            if name in HOST_METHODS:
                raise Break(f"Tensor.{name}() needs the tensor's value")
            return fn(*args, **kwargs)
        if fn is super and not args:
            from .executor import _zero_arg_super

            return _zero_arg_super(f)
        from .runtime import BytecodeFunction

        if isinstance(fn, BytecodeFunction):
            return self.inline(fn.fn, args, kwargs)
        if isinstance(fn, type):
            return self._call_class(fn, args, kwargs)
        if isinstance(fn, (types.BuiltinFunctionType, types.MethodWrapperType, types.WrapperDescriptorType,
                           types.MethodDescriptorType)):
            return self._call_builtin(fn, self_obj, name, args, kwargs)
        if isinstance(fn, types.FunctionType):
            if _is_sprout(fn):
                return self._call_sprout(fn, args, kwargs)
            if _is_library_code(fn.__code__):
                raise Break(f"calls {_module_of(fn)}.{name}() (library code runs as Python)")
            return self.inline(fn, args, kwargs)
        if isinstance(fn, types.MethodType):
            func = fn.__func__
            if isinstance(func, types.FunctionType) and not _is_sprout(func) and \
                    not _is_library_code(func.__code__):
                return self.inline(func, [self_obj] + list(args), kwargs)
            if _is_sprout(func):
                return self._call_sprout(fn, args, kwargs)
            raise Break(f"calls the method {name}()")
        cls = type(fn)
        if _is_sprout(cls):
            return self._call_sprout(fn, args, kwargs)
        construct = getattr(cls, "construct", None)
        if _is_cell(fn) and getattr(fn, "_has_bprop", False):  # Cell.__call__ records its custom bprop
            args, kwargs = self._real(args, kwargs)
            return fn(*args, **kwargs)
        if _is_cell(fn) and isinstance(construct, types.FunctionType):
            return self.inline(construct, [fn] + list(args), kwargs)
        call = cls.__dict__.get("__call__") if callable(fn) else None
        if isinstance(call, types.FunctionType) and not _is_library_code(call.__code__):
            return self.inline(call, [fn] + list(args), kwargs)
        raise Break(f"calls {cls.__name__} object")

    def _call_class(self, cls, args, kwargs):
        if cls in (tuple, list, dict, set, frozenset, range, slice, zip, enumerate, reversed, int, float, bool, str,
                   complex, object, type):
            if any(isinstance(a, Tracer) for a in args) and cls in (int, float, bool, complex):
                raise Break(f"{cls.__name__}(tensor) needs the tensor's value")
            out = cls(*args, **kwargs)
            return self.fresh(out) if cls in (list, dict, set) else out
        if _is_sprout(cls) and not _module_of(cls).startswith("sprout.nn"):
            return self._call_sprout(cls, args, kwargs)
        raise Break(f"creates a {cls.__name__} object (runs as Python)")

    def _call_builtin(self, fn, self_obj, name, args, kwargs):
        if self_obj is None or isinstance(self_obj, types.ModuleType):
            mod = self_obj.__name__ if isinstance(self_obj, types.ModuleType) else _module_of(fn)
            if (mod == "builtins" and name in PURE_BUILTINS) or (mod != "builtins" and mod in PURE_MODULES):
                if name in ("min", "max", "sorted") and "key" in kwargs:
                    raise Break(f"{name}(key=...) calls Python code")
                if name == "len" and args and isinstance(args[0], Tracer):
                    shape = args[0].shape
                    if not shape or shape[0] is None:
                        raise Break("len() of a tensor with an unknown first dimension", dynamic_failure=True)
                    return shape[0]
                if name in ("id", "hash") and args and id(args[0]) in self.fresh_ids:
                    raise Break(f"{name}() of an object created in the graph")
                out = fn(*args, **kwargs)
                return self.fresh(out) if out.__class__ in (list, dict, set) else out
            where = f"{mod}." if mod and mod != "builtins" else ""
            raise Break(f"calls {where}{name}() (runs as Python)")
        if isinstance(self_obj, (list, dict, set)):
            if name in MUTATORS:
                self.mutate(self_obj)
            out = fn(*args, **kwargs)
            return self.fresh(out) if out.__class__ in (list, dict, set) and out is not self_obj else out
        if isinstance(self_obj, (tuple, str, int, float, bytes, frozenset, range, type({}.items()))):
            return fn(*args, **kwargs)
        if isinstance(self_obj, Tensor) or _is_sprout(type(self_obj)):
            return fn(*args, **kwargs)
        raise Break(f"calls the builtin method {type(self_obj).__name__}.{name}()")

    # ---- running frames ------------------------------------------------------------------------------------
    def inline(self, fn: types.FunctionType, args, kwargs):
        code = fn.__code__
        if py311.is_generator_expression(code):
            return self.run_genexpr(fn, args, kwargs)
        if not py311.is_plain_function_code(code):
            raise Break(f"calls the generator/coroutine {fn.__qualname__}()")
        if self.depth >= MAX_INLINE_DEPTH:
            raise Break(f"calls {fn.__qualname__}() nested too deeply to inline")
        locals_ = py311.bind_arguments(fn, code, tuple(args), kwargs, UNBOUND)
        frame = Frame(fn, locals_)
        self.depth += 1
        try:
            self.run_frame(frame, 0)
        except Return as r:
            return r.value
        except Break as b:
            raise Break(f"the call to {fn.__qualname__}() has a graph break inside (it runs as its own "
                        f"PIJit function)", inner=b) from None
        finally:
            self.depth -= 1
        raise AssertionError("frame ended without RETURN_VALUE")

    def run_genexpr(self, fn, args, kwargs):
        """A generator expression runs to the end at once; its values become a SymIter."""
        frame = Frame(fn, py311.bind_arguments(fn, fn.__code__, tuple(args), kwargs, UNBOUND))
        frame.yields = []
        self.depth += 1
        try:
            self.run_frame(frame, 0)
        except Return:
            return self.fresh(SymIter(frame.yields))
        except Break as b:
            raise Break("a generator expression has a graph break inside", inner=b) from None
        finally:
            self.depth -= 1
        raise AssertionError("generator ended without RETURN_VALUE")

    def op_RETURN_GENERATOR(self, f, ins):
        if f.yields is None:
            raise Break("creates a generator")
        f.stack.append(None)

    def op_YIELD_VALUE(self, f, ins):
        if f.yields is None:
            raise Break("yields")
        f.yields.append(f.stack.pop())
        f.stack.append(None)

    def run_frame(self, f: Frame, pc: int):
        top = f is self.top
        ins_table = f.ins
        while True:
            ins = ins_table[pc]
            self.n_ins += 1
            if self.n_ins > MAX_INSTRUCTIONS:
                raise Break("the function runs too many Python instructions to capture")
            if top:
                f.snap = (pc, list(f.stack), self.builder.mark(), len(self.log), f.kwnames)
            n_nodes = len(self.builder.nodes)
            try:
                nxt = self.step(f, ins)
                if len(self.builder.nodes) > n_nodes:
                    self._locate(f, ins, n_nodes)
            except Break as b:
                if b.where is None:
                    b.where = (f.code, ins.offset)
                raise
            except Return:
                raise
            except Exception as exc:  # noqa: BLE001 - anything Python raises while capturing ends the segment
                raise Break(f"{type(exc).__name__}: {_first_line(exc)}", (f.code, ins.offset),
                            dynamic_failure=True) from None
            pc = ins.next if nxt is None else nxt

    def _locate(self, f: Frame, ins, start: int) -> None:
        """Nodes emitted by this instruction point at the user's line (not the caller's)."""
        from .runtime import _loc

        loc = _loc(f.code, ins.offset)
        for node in self.builder.nodes[start:]:
            node.loc = loc

    def start(self, pc: int):
        """Simulate the top frame from ``pc``; returns ("return", value) or ("break", Break)."""
        if self.pending is not None:
            self.pending.where = (self.top.code, pc)
            return "break", (self.pending, pc)
        dispatch.push_builder(self.builder)
        try:
            try:
                self.run_frame(self.top, pc)
            except Return as r:
                return "return", r.value
            except Break as b:
                f = self.top
                b_pc, stack, mark, n_log, kw = f.snap
                f.stack = stack
                f.kwnames = kw
                self.builder.rewind(mark)  # the nodes and tracer writes of the breaking instruction
                self.rollback(n_log)
                if b.where is None:
                    b.where = (f.code, b_pc)
                return "break", (b, b_pc)
        finally:
            dispatch.pop_builder(self.builder)


_CELL: list = []


def _is_cell(obj) -> bool:
    if not _CELL:
        try:
            from ...nn.cell import Cell
        except ImportError:  # nn not available: no Cell to inline
            return False
        _CELL.append(Cell)
    return isinstance(obj, _CELL[0])


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else ""


def _path_name(path: tuple) -> str:
    if path[0] == "L" and len(path) > 2:
        return path[2]
    return ""


_ = (math, operator, sys)
