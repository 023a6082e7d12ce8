"""What converted code calls at trace time: each helper runs plain Python when its condition is a
Python value (or a concrete tensor) and builds Cond / WhileLoop nodes when it is symbolic."""
from __future__ import annotations

import functools
import operator
import sys
import warnings

from ...core import dispatch
from ...core.tensor import Tensor
from .. import control
from ..control import UNDEF, Undefined, is_symbolic  # noqa: F401  (UNDEF is read by generated code)
from ...core.errors import JitSyntaxError, JitTypeError, JitValueError, JitWarning, SourceLoc
from . import resolve


class FunctionContext:
    """Per converted function: its name, file, syntax level and the SourceLoc of every rewritten construct."""

    __slots__ = ("name", "filename", "level", "locs", "warned")

    def __init__(self, name: str, filename: str, level: str, locs: list[SourceLoc]):
        self.name, self.filename, self.level, self.locs = name, filename, level, locs
        self.warned: set = set()

    def loc(self, k: int) -> SourceLoc:
        return self.locs[k]

    def warn_once(self, k: int, message: str) -> None:
        if k in self.warned:
            return
        self.warned.add(k)
        loc = self.locs[k]
        warnings.warn_explicit(f"{message}\n{loc.render()}", JitWarning, loc.filename, loc.lineno)


def _located(exc: JitSyntaxError, ctx: FunctionContext, k: int) -> JitSyntaxError:
    if exc.loc is None:
        new = type(exc)(exc.message, ctx.loc(k), exc.hint)
        new.__dict__.update(exc.__dict__)  # keeps host_ok
        new.loc = ctx.loc(k)
        exc = new
    return exc


def values(local_vars: dict, names: tuple) -> tuple:
    return tuple(local_vars.get(n, UNDEF) for n in names)


# ---- control flow -----------------------------------------------------------------------------------
def if_stmt(ctx, k, test, then_fn, else_fn, vals, names, ret=False, dead=()):
    if is_symbolic(test):
        if ret:
            return control.cond(test, then_fn, else_fn, *vals, loc=ctx.loc(k))
        return control.cond(test, then_fn, else_fn, *vals, names=names, dead=dead, loc=ctx.loc(k))
    return (then_fn if control.truth(test, ctx.loc(k)) else else_fn)(*vals)


def while_stmt(ctx, k, test_fn, body_fn, vals, names, live_out):
    return control.while_loop(test_fn, body_fn, vals, names=names, live_out=live_out, loc=ctx.loc(k))


def for_iter(ctx, k, iterable, broke):
    if is_symbolic(iterable):
        shape = iterable.shape
        if not shape:
            raise JitTypeError("iteration over a 0-d tensor", ctx.loc(k), "iterate over a tensor with a first axis")
        if shape[0] is None:
            raise JitSyntaxError("a for loop over a tensor whose first dimension is dynamic", ctx.loc(k),
                                 "use a while loop with an index tensor (i < x.shape[0] on a fixed shape)")
        items = (iterable[i] for i in range(shape[0]))
    elif isinstance(iterable, Undefined):
        raise iterable.error()
    else:
        items = iter(iterable)
    if broke is None:
        return items
    return _until(items, broke)


def _until(items, broke):
    for item in items:
        flag = broke()
        if not is_symbolic(flag) and control.truth(flag):
            return
        yield item


def ret(ctx, k, value):
    """A returned value must be defined on every path (a variable from one tensor branch is not)."""
    if isinstance(value, Undefined):
        raise value.error()
    if isinstance(value, (tuple, list)):
        for v in value:
            if isinstance(v, Undefined):
                raise v.error()
    return value


def if_exp(ctx, k, test, then_thunk, else_thunk):
    return control.cond(test, then_thunk, else_thunk, loc=ctx.loc(k))


def _operand(ctx, k, thunk, test: bool):
    value = thunk()
    if test and is_symbolic(value):  # only its truth is used: a one-element bool[] predicate
        return control.predicate(value, ctx.loc(k))
    return value


def and_(ctx, k, *thunks, test=False):
    value = _operand(ctx, k, thunks[0], test)
    if len(thunks) == 1:
        return value
    if is_symbolic(value):
        return control.cond(value, lambda: and_(ctx, k, *thunks[1:], test=test), lambda: value, loc=ctx.loc(k))
    if not control.truth(value, ctx.loc(k)):
        return value
    return and_(ctx, k, *thunks[1:], test=test)


def or_(ctx, k, *thunks, test=False):
    value = _operand(ctx, k, thunks[0], test)
    if len(thunks) == 1:
        return value
    if is_symbolic(value):
        return control.cond(value, lambda: value, lambda: or_(ctx, k, *thunks[1:], test=test), loc=ctx.loc(k))
    if control.truth(value, ctx.loc(k)):
        return value
    return or_(ctx, k, *thunks[1:], test=test)


def not_(ctx, k, value):
    if is_symbolic(value):
        if any(d != 1 for d in value.shape):
            raise JitValueError(f"'not' on a tensor of shape {list(value.shape)} is ambiguous", ctx.loc(k),
                                "use ops.logical_not for an elementwise not")
        from ...ops import functional as F
        from ...ir.scalars import ScalarTracer, as_scalar

        out = F.logical_not(value)
        return as_scalar(out, bool) if isinstance(value, ScalarTracer) else out
    return not control.truth(value, ctx.loc(k))


def is_(ctx, k, a, b, negate=False):
    """``a is b`` / ``a is not b``. For traced tensors the answer is known only when both are the same
    tracer (True) or one of them is a fresh op result (False); two graph inputs, or an input and a concrete
    tensor, may or may not be one object at run time (a graph cannot tell): refused (LAX runs it as Python)."""
    same = a is b
    if not same and (is_symbolic(a) or is_symbolic(b)):
        if isinstance(a, Tensor) and isinstance(b, Tensor) and _maybe_alias(a) and _maybe_alias(b):
            raise JitValueError("'is' between two tensors that may be one object at run time", ctx.loc(k),
                                "compare values (ops.equal), or jit_syntax_level=LAX to run it as Python")
        if isinstance(a, _NUMBERS) or isinstance(b, _NUMBERS):
            # a traced value may stand for a Python number (a loop counter or branch result that started as
            # one): eager's ``a is 3`` compares Python objects the graph does not have
            raise JitValueError("'is' between a traced value and a number", ctx.loc(k),
                                "compare with ==, or jit_syntax_level=LAX to run it as Python")
    return same != negate


_NUMBERS = (bool, int, float, complex)


def _maybe_alias(t) -> bool:
    """A tensor that may be a caller's object at run time: a concrete tensor or a graph input tracer."""
    if not is_symbolic(t):
        return True
    return id(t) in t._builder._origin


_CMP = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
        "ge": operator.ge, "is": None, "is_not": None,
        "in": lambda a, b: a in b, "not_in": lambda a, b: a not in b}


def compare_chain(ctx, k, ops, *thunks):
    """``a < b < c`` with each operand evaluated once, lazily, as Python does."""
    return _chain(ctx, k, thunks[0](), ops, thunks[1:])


def _chain(ctx, k, left, ops, thunks):
    right = thunks[0]()
    if ops[0] in ("is", "is_not"):
        result = is_(ctx, k, left, right, ops[0] == "is_not")
    else:
        result = _CMP[ops[0]](left, right)
    if len(ops) == 1:
        return result
    if is_symbolic(result):
        return control.cond(result, lambda: _chain(ctx, k, right, ops[1:], thunks[1:]), lambda: result,
                            loc=ctx.loc(k))
    if not control.truth(result, ctx.loc(k)):
        return result
    return _chain(ctx, k, right, ops[1:], thunks[1:])


def truth(ctx, k, value):
    if is_symbolic(value):
        raise JitValueError("a tensor used as the filter of a comprehension", ctx.loc(k),
                            "filter with Python values, or compute with ops.where / ops.masked_select")
    return control.truth(value, ctx.loc(k))


def assert_(ctx, k, test, msg):
    if is_symbolic(test):
        ctx.warn_once(k, "an assert on a tensor is not checked inside a jitted function")
        return
    if not control.truth(test, ctx.loc(k)):
        raise AssertionError(msg()) if msg is not None else AssertionError()


# ---- side effects -----------------------------------------------------------------------------------
class AttrWrites:
    """Collects ``obj.attr = tensor`` made while a jitted function is traced. The jit makes the
    written values extra outputs and assigns them after each call (``apply``); on exit the traced
    objects get their old attribute values back, so no symbolic tensor leaks out of the trace."""

    _stack: list = []

    def __init__(self):
        self.writes: dict = {}  # (id(obj), name) -> [obj, name, old value (or _MISSING), new value]

    def __enter__(self) -> AttrWrites:
        AttrWrites._stack.append(self)
        return self

    def __exit__(self, *exc) -> None:
        AttrWrites._stack.remove(self)
        for obj, name, old, _ in self.writes.values():
            if old is _MISSING:
                try:
                    delattr(obj, name)
                except AttributeError:
                    pass
            else:
                setattr(obj, name, old)

    def outputs(self) -> list:
        """``[(obj, name, value)]`` in write order: the values the jitted graph must return."""
        return [(obj, name, new) for obj, name, _, new in self.writes.values()]

    @staticmethod
    def apply(targets: list, values: list) -> None:
        """After a call: ``setattr(obj, name, value)`` for each (obj, name) and computed value."""
        for (obj, name, _), value in zip(targets, values):
            setattr(obj, name, value)


_MISSING = object()


def setattr_(ctx, k, obj, name, value):
    collector = AttrWrites._stack[-1] if AttrWrites._stack else None
    if collector is not None and isinstance(value, Tensor) and dispatch.current_builder() is not None:
        key = (id(obj), name)
        entry = collector.writes.get(key)
        if entry is None:
            entry = collector.writes[key] = [obj, name, getattr(obj, name, _MISSING), value]
        entry[3] = value
    elif is_symbolic(value):
        ctx.warn_once(k, f"'{name}' is set to a tensor inside a jitted function and nothing writes it back "
                         "after the call")
    setattr(obj, name, value)


def global_write(ctx, k, name):
    """A ``global`` name the jitted function assigns: graph mode never writes globals (seed 000)."""
    ctx.warn_once(k, f"the global '{name}' is assigned inside a jitted function; graph mode does not write "
                     "globals, so the assignment is dropped")
    frame_globals = sys._getframe(1).f_globals
    return frame_globals.get(name, UNDEF)


def warn_mutation(ctx, k, value, name):
    if isinstance(value, (list, dict, set, bytearray)) and dispatch.current_builder() is not None:
        ctx.warn_once(k, f"the argument '{name}' is mutated inside a jitted function; graph mode drops the "
                         "mutation (the caller's object is not changed)")


# ---- calls ------------------------------------------------------------------------------------------
def call(ctx, k, fn, /, *args, **kwargs):
    try:
        if resolve.takes_callables(fn):
            args = tuple(_as_callee(ctx, k, a) for a in args)
            kwargs = {n: _as_callee(ctx, k, a) for n, a in kwargs.items()}
        target, mode = resolve.resolve_call(fn, ctx.level, _convert)
        if mode == "direct":
            return target(*args, **kwargs)
        if mode == "cell":
            return resolve.cell_construct(target, ctx.level, _convert)(*args, **kwargs)
        if mode == "new":
            return resolve.new_cell(target, args, kwargs)
        if mode == "partial":
            return call(ctx, k, target.func, *target.args, *args, **{**target.keywords, **kwargs})
        return _external(ctx, k, target, args, kwargs)
    except JitSyntaxError as exc:
        if exc.loc is None:
            raise _located(exc, ctx, k) from None
        raise


def _as_callee(ctx, k, value):
    """A callable handed to a higher-order builtin (``map(helper, xs)``, ``sorted(key=f)``), called as this call
    site calls things: user functions and Cells converted, builtins with a graph meaning replaced."""
    if not callable(value) or isinstance(value, (type, Tensor)):
        return value
    return lambda *args, **kwargs: call(ctx, k, value, *args, **kwargs)


def _external(ctx, k, fn, args, kwargs):
    leaves: list = []
    control.flatten((args, kwargs), leaves, lambda x: isinstance(x, Tensor))
    if not any(is_symbolic(x) for x in leaves):
        return fn(*args, **kwargs)  # constants: evaluated now, at compile time
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
    module = getattr(fn, "__module__", None) or type(fn).__module__
    # LAX: the jit runs this call (and what depends on its result) as Python between graph segments
    raise JitTypeError(f"calling {module}.{name} on a tensor is not supported in a graph "
                       f"(jit_syntax_level={ctx.level})", ctx.loc(k),
                       "use sprout.ops functions, or jit_syntax_level=LAX to run it as Python")


def callee_hook(level: str):
    """What ``core.hooks.callee`` is while a function is AST-captured at ``level``: user callables reached
    through sprout code (``grad(f)``, ``GradOperation()(net)``, ``HyperMap(f)``, a Cell called by a sprout
    Cell) are converted as a direct call from converted code would convert them. For a Cell it returns the
    function to run instead of ``Cell.__call__``'s own path, or None (a sprout Cell, a custom bprop)."""
    def hook(obj):
        target, mode = resolve.resolve_call(obj, level, _convert)
        if mode == "direct":
            return target
        if mode == "cell":
            fn = resolve.cell_construct(target, level, _convert)
            return None if fn is target else fn
        if mode == "partial":
            inner = hook(target.func) or target.func
            return functools.partial(inner, *target.args, **target.keywords)
        return None

    return hook


def _convert(fn, syntax_level="LAX"):
    from .source import convert

    return convert(fn, syntax_level=syntax_level)
