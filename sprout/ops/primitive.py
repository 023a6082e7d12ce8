"""``mindspore.ops.primitive``: the Primitive base classes, ``prim_attr_register`` and ``constexpr``."""
from __future__ import annotations

import functools
import inspect
import warnings

from .host_ops import is_symbolic
from .primitive_classes import Primitive


class PrimitiveWithInfer(Primitive):
    """A primitive whose subclass gives shape/dtype rules (``infer_shape``/``infer_dtype``/``infer_value``) and
    computes in ``__call__``; ``infer_value`` (when defined and all inputs are constants) gives the result."""

    def __call__(self, *args):
        infer_value = getattr(self, "infer_value", None)
        if infer_value is not None and not any(is_symbolic(a) for a in args):
            out = infer_value(*args)
            if out is not None:
                return out
        raise TypeError(f"{self.name}: a PrimitiveWithInfer subclass must define __call__ (or an infer_value that "
                        "returns the result)")


class PrimitiveWithCheck(PrimitiveWithInfer):
    """Like PrimitiveWithInfer, with ``check_shape``/``check_dtype`` hooks run by the subclass."""


def prim_attr_register(fn):
    """Decorate a primitive's ``__init__``: its bound arguments become attributes (``add_prim_attr``)."""

    @functools.wraps(fn)
    def init(self, *args, **kwargs):
        if not hasattr(self, "name"):
            Primitive.__init__(self)
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        for k, v in list(bound.arguments.items())[1:]:
            self.add_prim_attr(k, v)
        return fn(self, *args, **kwargs)

    return init


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """Mark a function whose arguments are compile-time constants: it runs in Python when called (also while a
    graph is built) and its result enters the graph as a constant. ``reuse_result`` caches results by argument;
    ``check`` warns when an argument is a graph value (not a constant)."""

    def deco(func):
        op_name = name or func.__name__

        class CompileOp(Primitive):
            __doc__ = func.__doc__

            def __init__(self):
                super().__init__(op_name)
                self._cache: dict = {}

            def __call__(self, *args):
                if check and any(is_symbolic(a) for a in args):
                    warnings.warn(f"constexpr {op_name}: an argument is not a constant while the graph is built",
                                  stacklevel=2)
                if not reuse_result:
                    return func(*args)
                try:
                    key = tuple(args)
                    hash(key)
                except TypeError:
                    return func(*args)
                if key not in self._cache:
                    self._cache[key] = func(*args)
                return self._cache[key]

        CompileOp.__name__ = CompileOp.__qualname__ = op_name
        return CompileOp() if get_instance else CompileOp

    return deco if fn is None else deco(fn)


__all__ = ["Primitive", "PrimitiveWithInfer", "PrimitiveWithCheck", "prim_attr_register", "constexpr"]
