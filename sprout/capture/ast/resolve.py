"""The resolve table: what calling a Python object means inside jitted code. Builtins with graph
meaning are replaced; user functions, methods and Cells are converted recursively; sprout's own
functions run as they are; other library code runs at compile time on constants and is refused on
tensors (under LAX the jit then runs it as Python between graph segments: jit/host.py)."""
from __future__ import annotations

import builtins
import functools
import itertools
import types

from ...core import dispatch
from ...core.tensor import Tensor
from .. import control
from ...ops.host_ops import print_
from ...core.errors import JitSyntaxError, JitTypeError, JitValueError, is_internal, is_library
from ...ir import scalars



# ---- builtins with a graph meaning ------------------------------------------------------------------
def range_(*args):
    for a in args:
        if isinstance(a, scalars.ScalarTracer):
            raise JitTypeError("range() with a variable scalar bound (int(t), t.item() of a tensor) is not supported "
                               "inside a jitted function: its length must be known while compiling", None,
                               "use a while loop on the value, or jit_syntax_level=LAX to run it as Python")
        if control.is_symbolic(a):
            raise JitTypeError("range() over a tensor is not supported inside a jitted function", None,
                               "use a Python int bound, or a while loop on the tensor")
    return builtins.range(*args)


def len_(x):
    if control.is_symbolic(x):
        if not x.shape:
            raise JitTypeError("len() of a 0-d tensor", None, "")
        if x.shape[0] is None:
            raise JitValueError("len() of a tensor whose first dimension is dynamic", None,
                                "use ops.shape(x)[0] arithmetic on tensors, or a fixed shape")
        return x.shape[0]
    return builtins.len(x)


def _extreme(pick, reduce_name):
    def fn(*args, **kwargs):
        if len(args) == 1 and isinstance(args[0], Tensor) and not kwargs:
            return getattr(args[0], reduce_name)()
        if len(args) > 1 and any(isinstance(a, Tensor) for a in args) and not kwargs:
            from ...ops import functional as F

            out = args[0]
            for a in args[1:]:
                out = getattr(F, pick)(out, a)
            kinds = [scalars.kind_of(a) for a in args]
            if None not in kinds:  # all Python scalars (some traced): a Python scalar
                kind = kinds[0]
                for k in kinds[1:]:
                    kind = scalars.join_kinds(kind, k)
                return scalars.as_scalar(out, kind)
            return out
        return getattr(builtins, reduce_name)(*args, **kwargs)

    return fn


def _number(kind: type):
    """``float(t)`` / ``int(t)`` / ``bool(t)`` of a traced tensor or scalar: a variable scalar of the graph
    (MindSpore's graph mode), not a Python value; any other argument: the builtin."""
    def conv(*args, **kwargs):
        if len(args) == 1 and not kwargs and control.is_symbolic(args[0]):
            return scalars.to_scalar(args[0], kind, f"{kind.__name__}(tensor)")
        return kind(*args, **kwargs)

    conv.__name__ = kind.__name__
    return conv


def isinstance_(obj, classinfo):
    """A traced scalar is an instance of its Python kind (``isinstance(float(t), float)``), not of Tensor."""
    if isinstance(obj, scalars.ScalarTracer):
        return isinstance(obj.py_kind(), classinfo)
    return isinstance(obj, classinfo)


def type_(*args, **kwargs):
    if len(args) == 1 and not kwargs and isinstance(args[0], scalars.ScalarTracer):
        return args[0].py_kind
    return type(*args, **kwargs)


def tensor_(*args, **kwargs):
    """``Tensor(s)`` of a variable scalar: a 0-d tensor of its value (float32 / int64 / bool, or ``dtype``)."""
    if args and isinstance(args[0], scalars.ScalarTracer) and set(kwargs) <= {"dtype"} and len(args) <= 2:
        from ...ops import functional as F

        s = args[0]
        dtype = args[1] if len(args) > 1 else kwargs.get("dtype")
        return F.identity(s) if dtype is None or dtype == s.dtype else F.cast(s, dtype)
    return Tensor(*args, **kwargs)


def _scalar_method(name: str):
    """``t.item()`` / ``t.tolist()`` of a traced tensor, called from converted code."""
    def method(t):
        def call(*args, **kwargs):
            if args or kwargs:  # item(index): the Tracer's own method refuses it
                return getattr(type(t), name)(t, *args, **kwargs)
            return getattr(scalars, name)(t)

        return call

    return method


SCALAR_METHODS = {"item": _scalar_method("item"), "tolist": _scalar_method("tolist")}


def _text_of(fn):
    """``str``/``repr``/``format``/``ascii``: the text of a tensor is its value, not known while compiling
    (the traced placeholder must never reach the program: refused, so LAX runs it as Python)."""
    def text(*args, **kwargs):
        leaves: list = []
        control.flatten((args, kwargs), leaves, control.is_symbolic)
        if leaves:
            raise JitValueError(f"{fn.__name__}() of a tensor: the value of a tensor is not known while the graph is "
                                "compiled", None, "print(t) prints run-time values; or jit_syntax_level=LAX to run "
                                "this as Python")
        return fn(*args, **kwargs)

    return text


BUILTINS = {
    builtins.print: print_,
    builtins.range: range_,
    builtins.len: len_,
    builtins.max: _extreme("maximum", "max"),
    builtins.min: _extreme("minimum", "min"),
    builtins.str: _text_of(builtins.str),
    builtins.repr: _text_of(builtins.repr),
    builtins.format: _text_of(builtins.format),
    builtins.ascii: _text_of(builtins.ascii),
    builtins.float: _number(float),
    builtins.int: _number(int),
    builtins.bool: _number(bool),
    builtins.isinstance: isinstance_,
    builtins.type: type_,
    Tensor: tensor_,
    functools.reduce: functools.reduce,  # pure Python semantics: what it does to tensors is its function's doing
}

# Higher-order callables: the functions they are given are called as converted code calls them (a helper with a
# tensor ``if`` passed to ``map`` becomes graph control flow, as when it is called directly).
HIGHER_ORDER = frozenset({builtins.map, builtins.filter, builtins.sorted, builtins.min, builtins.max,
                          functools.reduce, itertools.starmap, itertools.accumulate, itertools.filterfalse,
                          itertools.takewhile, itertools.dropwhile, itertools.groupby})


def takes_callables(fn) -> bool:
    """Whether ``fn`` is a higher-order builtin (or ``list.sort``) whose callable arguments are converted."""
    try:
        if fn in HIGHER_ORDER:
            return True
    except TypeError:  # unhashable callable
        return False
    return getattr(fn, "__name__", None) == "sort" and isinstance(getattr(fn, "__self__", None), list)


# ---- classification of callables --------------------------------------------------------------------
@functools.cache
def _kind_of_file(filename: str) -> str:
    """"sprout", "library" (stdlib / site-packages / not a file) or "user"."""
    if not filename or filename.startswith("<"):
        return "library"
    if is_internal(filename):
        return "sprout"
    if is_library(filename):
        return "library"
    return "user"


def function_kind(fn: types.FunctionType) -> str:
    kind = _kind_of_file(fn.__code__.co_filename)
    if kind == "library" and _uses_sprout(fn.__globals__):
        return "user"  # model code installed as a package (or exec'd) that programs against sprout/mindspore
    return kind


_SPROUT_NAMES = ("sprout", "mindspore")
_uses: dict = {}  # module name -> whether its globals hold sprout modules, classes or functions


def _uses_sprout(glb: dict) -> bool:
    name = glb.get("__name__")
    hit = _uses.get(name) if name is not None else None
    if hit is None:
        hit = False
        for v in list(glb.values()):
            owner = v.__name__ if isinstance(v, types.ModuleType) else getattr(v, "__module__", None)
            if isinstance(owner, str) and owner.split(".")[0] in _SPROUT_NAMES:
                hit = True
                break
        if name is not None and not name.startswith("__"):
            _uses[name] = hit
    return hit


def _is_cell(obj) -> bool:
    return hasattr(obj, "_forward_hooks") and hasattr(obj, "construct") and hasattr(obj, "_params")


def check_cell_hooks(cell) -> None:
    d = cell.__dict__
    if any(d.get(k) for k in ("_forward_pre_hooks", "_forward_hooks", "_backward_hooks", "_backward_pre_hooks")):
        exc = JitSyntaxError(f"the Cell {type(cell).__name__} has hooks registered and is called inside a jitted "
                             "function; hooks run only in PyNative mode", None,
                             "remove the hooks (handle.remove()) or call the Cell outside the jitted function")
        exc.host_ok = False  # refused under LAX too (seeds 000/003): no host-segment fallback
        raise exc


def new_cell(cls, args: tuple, kwargs: dict):
    """A Cell created inside jitted code (seed 002: ``model = Network()`` in a jitted ``run``) is built once,
    while compiling, as MindSpore does: its Parameters are initialised then (same random numbers as the
    first eager call with the same seed) and read by the graph at every call. Without symbolic arguments
    its ``__init__`` runs eagerly, so initialisers never become graph nodes."""
    leaves: list = []
    control.flatten((args, kwargs), leaves, lambda x: isinstance(x, Tensor))
    if any(control.is_symbolic(x) for x in leaves):
        return cls(*args, **kwargs)
    with dispatch.no_builder():
        return cls(*args, **kwargs)


def resolve_call(fn, level: str, convert):
    """``(target, mode)``: the callable to run for ``fn`` and how: "direct", "cell" (a Cell to call
    with its converted construct), "new" (a Cell class to instantiate), "external"."""
    try:
        special = BUILTINS.get(fn)
    except TypeError:  # unhashable callable
        special = None
    if special is not None:
        return special, "direct"
    cls = type(fn)
    if cls is types.FunctionType:
        kind = function_kind(fn)
        if kind == "user":
            return convert(fn, syntax_level=level), "direct"
        return fn, "direct" if kind == "sprout" else "external"
    if cls is types.MethodType:
        self_obj = fn.__self__
        if isinstance(self_obj, Tensor):
            if control.is_symbolic(self_obj) and not isinstance(self_obj, scalars.ScalarTracer) \
                    and fn.__name__ in SCALAR_METHODS:
                return SCALAR_METHODS[fn.__name__](self_obj), "direct"
            return fn, "direct"
        func = fn.__func__
        if isinstance(func, types.FunctionType):
            kind = function_kind(func)
            if kind == "user":
                return types.MethodType(convert(func, syntax_level=level), self_obj), "direct"
            return fn, "direct" if kind == "sprout" else "external"
        return fn, "external"
    if isinstance(fn, type):
        if _is_cell_class(fn):
            return fn, "new"
        return fn, "direct"
    if cls is functools.partial:
        return fn, "partial"
    if _is_cell(fn):
        return fn, "cell"
    if cls.__module__.split(".")[0] == "sprout":
        return fn, "direct"
    call = cls.__dict__.get("__call__") or next((c.__dict__["__call__"] for c in cls.__mro__
                                                 if "__call__" in c.__dict__), None)
    if isinstance(call, types.FunctionType) and function_kind(call) == "user":
        return types.MethodType(convert(call, syntax_level=level), fn), "direct"
    if isinstance(fn, (types.BuiltinFunctionType, types.BuiltinMethodType)):
        owner = getattr(fn, "__self__", None)
        if owner is None or isinstance(owner, types.ModuleType):  # a C function of a module (math.sqrt)
            return fn, "direct" if owner is builtins else "external"
        return fn, "direct"  # a method of a Python object (list.append, dict.get ...)
    if cls.__name__ in ("method-wrapper", "wrapper_descriptor", "method_descriptor"):
        return fn, "direct"
    return fn, "external"


def _is_cell_class(cls: type) -> bool:
    return any(c.__name__ == "Cell" and c.__module__.startswith("sprout.nn") for c in cls.__mro__)


def cell_construct(cell, level: str, convert):
    """The function to run for ``cell(*args)`` inside converted code."""
    check_cell_hooks(cell)
    if cell.__dict__.get("_has_bprop") or cell.__dict__.get("_shard") is not None:
        return cell  # Cell.__call__ records its custom bprop / runs its Cell.shard (nested in a sharded graph)
    construct = getattr(type(cell), "construct", None)
    if isinstance(construct, types.FunctionType) and function_kind(construct) == "user":
        return types.MethodType(convert(construct, syntax_level=level), cell)
    return cell
