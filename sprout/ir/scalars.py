"""Traced Python scalars: a ``mutable()`` int/float argument, a Python number a tensor branch or loop turned
into a graph value, or ``float(t)``/``int(t)``/``bool(t)``/``t.item()``/``t.tolist()`` of a traced tensor (a
"variable scalar" of MindSpore's graph mode) is a 0-d tracer that keeps its Python kind through scalar
arithmetic, so a jitted function returns a Python scalar there (as MindSpore's graphs do)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.tensor import Tensor
from .builder import Tracer


class ScalarTracer(Tracer):
    """A symbolic Python scalar (``py_kind`` is int, float or bool). Arithmetic and comparisons with other
    scalars keep the kind; with a tensor the result is a tensor, as in eager code."""

    __slots__ = ()
    py_kind: type = float

    def describe(self) -> str:
        return f"ScalarTracer({self.py_kind.__name__}, {self._var.type})"

    def _no_value(self, what: str) -> Exception:
        from ..core.errors import JitValueError, user_loc

        return JitValueError(f"{what}: a variable scalar ({self.py_kind.__name__} computed from a tensor in the "
                             "graph) has no value while the graph is compiled", user_loc(3),
                             "keep it in arithmetic, comparisons and if/while conditions, or jit_syntax_level=LAX "
                             "to run this as Python")

    def __repr__(self) -> str:  # reached when an op formats an argument it needs as a constant
        raise self._no_value("an argument that must be known while compiling (an axis, a size, a shape, a slice "
                             "bound...)")

    def __index__(self) -> int:
        from ..core.errors import JitTypeError, user_loc

        raise JitTypeError("a variable scalar (int(t), t.item() of a tensor) used as a Python index, size or range() "
                           "bound inside jitted code: it must be known while compiling", user_loc(2),
                           "index a tensor with it (x[i]), or jit_syntax_level=LAX to run it as Python")


class IntTracer(ScalarTracer):
    __slots__ = ()
    py_kind = int


class FloatTracer(ScalarTracer):
    __slots__ = ()
    py_kind = float


class BoolTracer(ScalarTracer):
    __slots__ = ()
    py_kind = bool


_BY_KIND = {int: IntTracer, float: FloatTracer, bool: BoolTracer}


def as_scalar(t: Tracer, kind: type) -> ScalarTracer:
    """Mark the 0-d tracer ``t`` as a Python scalar of ``kind``."""
    t.__class__ = _BY_KIND[kind]
    return t


def kind_of(x: Any) -> type | None:
    """The Python scalar kind ``x`` stands for (int, float, bool), or None (a tensor, anything else)."""
    if isinstance(x, ScalarTracer):
        return x.py_kind
    if isinstance(x, Tensor):
        return None
    if isinstance(x, bool):
        return bool
    if isinstance(x, int):
        return int
    if isinstance(x, float):
        return float
    if isinstance(x, np.generic):  # NumPy scalars act as Python numbers
        return bool if isinstance(x, np.bool_) else int if isinstance(x, np.integer) else \
            float if isinstance(x, np.floating) else None
    return None


_DTYPE_OF_KIND = {float: "float32", int: "int64", bool: "bool_"}  # MindSpore's graph: float scalars are float32
TOLIST_LIMIT = 1024  # elements; Tensor.tolist() of more stays a Python call (LAX host segments)


def to_scalar(t: Tensor, kind: type, what: str, loc=None) -> ScalarTracer:
    """``kind(t)`` of a traced one-element tensor (``float(t)``, ``int(t)``, ``bool(t)``): a new 0-d scalar of
    ``kind``. As in MindSpore 2.10 (graph and PyNative) the conversion cuts the gradient; ``int`` truncates
    toward zero; a float is computed in float32 (MindSpore's graph scalars), an int in int64."""
    from .. import dtype as mstype
    from ..core.errors import JitTypeError, JitValueError, user_loc
    from ..ops import functional as F

    shape = t.shape
    if any(d is None for d in shape):
        raise JitValueError(f"{what} of a tensor with a dynamic shape {list(shape)}: the number of elements is not "
                            "known while the graph is compiled", loc or user_loc(3),
                            "convert a tensor with a static shape of one element")
    if int(np.prod(shape, dtype=np.int64)) != 1:
        text = "using a tensor as a Python bool is ambiguous" if kind is bool else \
            "only a tensor with one element converts to a Python scalar"
        raise JitValueError(f"{what}: {text}, this one has shape {list(shape)}", loc or user_loc(3),
                            "reduce it first (t.sum(), t.any(), t[i])")
    if t.dtype.is_complex:
        raise JitTypeError(f"{what} of a complex tensor ({t.dtype}) is not supported in a graph", loc or user_loc(3),
                           "take .real or .imag first")
    if isinstance(t, ScalarTracer) and t.py_kind is kind:
        return t
    v = F.reshape(t, ()) if shape else t
    dt = getattr(mstype, _DTYPE_OF_KIND[kind])
    if v.dtype is not dt:
        v = F.cast(v, dt)
    return as_scalar(F.stop_gradient(v), kind)  # stop_gradient: a fresh node, never an alias of ``t``


def kind_of_dtype(dtype) -> type:
    """The Python kind ``Tensor.item()`` gives for a tensor of ``dtype``."""
    return bool if dtype.category == 0 else float if dtype.is_float else int


def item(t: Tensor, loc=None) -> ScalarTracer:
    """``t.item()`` of a traced one-element tensor."""
    return to_scalar(t, kind_of_dtype(t.dtype), "Tensor.item()", loc)


def tolist(t: Tensor, loc=None) -> Any:
    """``t.tolist()`` of a traced tensor with a static shape: nested lists of scalars (a scalar for a 0-d one)."""
    from ..core.errors import JitValueError, user_loc

    if any(d is None for d in t.shape):
        raise JitValueError(f"Tensor.tolist() of a tensor with a dynamic shape {list(t.shape)}", loc or user_loc(3),
                            "use a static shape")
    if not t.shape:
        return item(t, loc)
    if int(np.prod(t.shape, dtype=np.int64)) > TOLIST_LIMIT:  # one graph node per element: compile time explodes
        raise JitValueError(f"Tensor.tolist() of a tensor with {int(np.prod(t.shape, dtype=np.int64))} elements in a "
                            f"graph (one variable scalar per element; at most {TOLIST_LIMIT})", loc or user_loc(3),
                            "keep it a tensor, or jit_syntax_level=LAX to run it as Python")
    return [tolist(t[i], loc) for i in range(t.shape[0])]



def _weak(s: ScalarTracer, t: Tensor) -> tuple:
    """``s`` and ``t`` cast as eager code types ``t op <Python scalar>`` (``dtype.promote_scalar``)."""
    from .. import dtype as mstype
    from ..ops import functional as F

    dt = mstype.promote_scalar(t.dtype, s.py_kind())
    return (s if s.dtype is dt else F.cast(s, dt)), (t if t.dtype is dt else F.cast(t, dt))


def _arith(a: type, b: type) -> type:
    return float if float in (a, b) else int  # bool + bool is an int in Python


def join_kinds(a: type | None, b: type | None) -> type | None:
    """The kind of a variable that is ``a`` on one path and ``b`` on another (None: a tensor)."""
    if a is None or b is None:
        return None
    if a is b:
        return a
    return float if float in (a, b) else int


_RULES = {
    "add": _arith, "sub": _arith, "mul": _arith, "mod": _arith, "floordiv": _arith, "pow": _arith,
    "truediv": lambda a, b: float,
    "lt": lambda a, b: bool, "le": lambda a, b: bool, "gt": lambda a, b: bool, "ge": lambda a, b: bool,
    "eq": lambda a, b: bool, "ne": lambda a, b: bool,
}


def _binary(name: str, rule, reflected: bool):
    dunder = f"__r{name}__" if reflected else f"__{name}__"

    def method(self, other):
        base = getattr(Tensor, dunder)  # looked up per call: ops installs Tensor's operators after ir loads
        other_kind = kind_of(other)
        if other_kind is None:
            if isinstance(other, Tensor):  # a tensor meets a Python scalar: the tensor's dtype wins (weak scalar)
                return base(*_weak(self, other))
            return base(self, other)
        out = base(self, other)
        if not isinstance(out, Tracer) or out.shape != ():
            return out
        return as_scalar(out, rule(self.py_kind, other_kind) if not reflected else rule(other_kind, self.py_kind))

    method.__name__ = dunder
    return method


def _round(self, *ndigits):
    """``round(s)`` of a scalar is an int (round half to even, as Python); ``round(s, n)`` keeps the kind."""
    from .. import dtype as mstype
    from ..core.errors import JitTypeError, user_loc
    from ..ops import functional as F

    if ndigits and ndigits[0] is not None:
        n = ndigits[0]
        if self.py_kind is float or not isinstance(n, int) or n < 0:  # an int rounds to tens for n < 0
            raise JitTypeError(f"round(x, ndigits) of a traced {self.py_kind.__name__} is not supported in a graph",
                               user_loc(2), "round a scaled value: round(x * 10**n) / 10**n")
        return self if self.py_kind is int else as_scalar(F.cast(self, mstype.int64), int)
    out = F.round(self) if self.py_kind is float else self
    return as_scalar(F.cast(out, mstype.int64), int)


def _unary(dunder: str):
    def method(self):
        base = getattr(Tensor, dunder)
        out = base(self)
        if not isinstance(out, Tracer) or out is self:
            return out
        return as_scalar(out, int if self.py_kind is bool else self.py_kind)

    method.__name__ = dunder
    return method


for _name, _rule in _RULES.items():
    setattr(ScalarTracer, f"__{_name}__", _binary(_name, _rule, False))
    if _name not in ("lt", "le", "gt", "ge", "eq", "ne"):
        setattr(ScalarTracer, f"__r{_name}__", _binary(_name, _rule, True))
for _dunder in ("__neg__", "__abs__"):
    setattr(ScalarTracer, _dunder, _unary(_dunder))
ScalarTracer.__round__ = _round
ScalarTracer.__hash__ = Tracer.__hash__


__all__ = ["ScalarTracer", "IntTracer", "FloatTracer", "BoolTracer", "as_scalar", "kind_of", "join_kinds", "to_scalar",
           "item", "tolist", "kind_of_dtype"]
