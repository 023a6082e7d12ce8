"""Traced Python scalars: a ``mutable()`` int/float argument, or a Python number a tensor branch or loop turned
into a graph value, is a 0-d tracer that keeps its Python kind through scalar arithmetic, so a jitted function
returns a Python scalar there (as MindSpore's graphs do)."""
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
ScalarTracer.__hash__ = Tracer.__hash__


__all__ = ["ScalarTracer", "IntTracer", "FloatTracer", "BoolTracer", "as_scalar", "kind_of", "join_kinds"]
