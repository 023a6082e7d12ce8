"""MindSpore's functional loop primitives ``ops.WhileLoop``, ``ops.ForiLoop`` and ``ops.Scan``.

Eagerly they are Python loops (as in MindSpore PyNative). While a graph is built, a loop over symbolic values is
lowered through the capture layer's loop tracer (``core.hooks.while_loop``) onto the WhileLoop node a tensor
``while`` makes, so it differentiates the same way (stacked residuals, ``autodiff/control.py``); a loop whose
trip count is a Python constant is unrolled unless ``unroll=False`` asks for one loop node.
"""
from __future__ import annotations

import types

import numpy as np

from .. import dtype as mstype
from ..core import dispatch, hooks
from ..core.hooks import call_user
from ..core.pytree import flatten, unflatten
from ..core.tensor import Tensor
from . import functional as F
from .host_ops import is_symbolic
from .primitive import Primitive

_FUNCS = (types.FunctionType, types.MethodType)


def _check_func(op: str, name: str, f) -> None:
    if not isinstance(f, _FUNCS):
        raise TypeError(f"For '{op}', the type of '{name}' should be one of '['function', 'method']', "
                        f"but got type '{type(f).__name__}'.")


def _invalid(op: str, exc: Exception) -> ValueError:
    """MindSpore reports any failure inside the loop as a ValueError about ``loop_func``."""
    return ValueError(f"For '{op}', invalid loop_func, please check input arguments and return value, "
                      f"error info: {type(exc).__name__}: {exc}")


def _building() -> bool:
    return dispatch.current_builder() is not None and hooks.while_loop is not None


def _counter(start, like=None) -> Tensor:
    """A loop counter that is a graph value (so the loop stays one node instead of unrolling)."""
    if isinstance(start, Tensor):
        return F.add(F.reshape(start, ()), 0)
    return F.add(Tensor(np.asarray(start, np.int64)), 0)


class WhileLoop(Primitive):
    """``WhileLoop()(cond_func, loop_func, init_val)``: ``while cond_func(val): val = loop_func(val)``; returns the
    final ``val``. Inside ``jit`` a loop on a tensor condition is one WhileLoop node (differentiable)."""

    def __call__(self, cond_func, loop_func, init_val):
        _check_func("WhileLoop", "cond_func", cond_func)
        _check_func("WhileLoop", "loop_func", loop_func)
        try:
            if _building():
                return hooks.while_loop(lambda v: call_user(cond_func, v), lambda v: (call_user(loop_func, v),),
                                        (init_val,))[0]
            val = init_val
            while call_user(cond_func, val):
                val = call_user(loop_func, val)
            return val
        except Exception as exc:
            raise _invalid("WhileLoop", exc) from exc


def _check_bound(name: str, v) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, Tensor)):
        raise TypeError(f"For 'ForiLoop', the type of '{name}' should be one of '['int', 'Tensor']', "
                        f"but got type '{type(v).__name__}'.")


class ForiLoop(Primitive):
    """``ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``: ``for i in range(lower, upper): val =
    loop_func(i, val)``. Inside ``jit`` tensor bounds (or ``unroll=False``) give one WhileLoop node whose
    ``i`` is an int tensor; constant bounds with ``unroll=True`` unroll the loop (``i`` a Python int)."""

    def __call__(self, lower, upper, loop_func, init_val, unroll=True):
        _check_bound("lower", lower)
        _check_bound("upper", upper)
        _check_func("ForiLoop", "loop_func", loop_func)
        if not isinstance(unroll, (bool, np.bool_, int)):
            raise TypeError(f"For 'ForiLoop', the type of 'unroll' should be 'bool', but got type "
                            f"'{type(unroll).__name__}'.")
        try:
            if _building() and (is_symbolic(lower) or is_symbolic(upper) or not unroll):
                return self._node(lower, upper, loop_func, init_val)
            val = init_val
            for i in range(int(lower), int(upper)):
                val = call_user(loop_func, i, val)
            return val
        except Exception as exc:
            raise _invalid("ForiLoop", exc) from exc

    @staticmethod
    def _node(lower, upper, loop_func, init_val):
        hi = F.reshape(upper, ()) if isinstance(upper, Tensor) else upper

        def cond(i, val):
            return F.less(i, hi)

        def body(i, val):
            return F.add(i, 1), call_user(loop_func, i, val)

        return hooks.while_loop(cond, body, (_counter(lower), init_val))[1]


def _is_leaf(x) -> bool:
    return isinstance(x, Tensor) or x is None or isinstance(x, (bool, int, float, np.number, np.bool_))


class Scan(Primitive):
    """``Scan()(loop_func, init, xs, length=None, unroll=True)``: ``carry = init; for x in xs: carry, y =
    loop_func(carry, x)``; returns ``(carry, [y...])``. ``xs=None`` scans ``length`` times over ``None``. Inside
    ``jit`` ``unroll=False`` makes one WhileLoop node over the stacked ``xs`` (the ``ys`` are stacked inside the
    loop and split after it); ``unroll=True`` unrolls."""

    def __call__(self, loop_func, init, xs, length=None, unroll=True):
        _check_func("Scan", "loop_func", loop_func)
        if length is not None and (isinstance(length, bool) or not isinstance(length, int)):
            raise TypeError(f"For 'Scan', the type of 'length' should be one of '['int', 'None']', but got type "
                            f"'{type(length).__name__}'.")
        if xs is None:
            if length is None:
                raise TypeError("For 'Scan', 'length' must be an int when 'xs' is None, but got None.")
            if length < 0:
                raise ValueError(f"For 'Scan', 'length' must be non-negative, but got {length}.")
            xs = [None] * length
        elif not isinstance(xs, (list, tuple)):
            raise TypeError(f"For 'Scan', the type of 'xs' should be one of '['list', 'tuple', 'None']', but got "
                            f"type '{type(xs).__name__}'.")
        elif length is not None and length != len(xs):
            raise ValueError(f"For 'Scan', 'length' ({length}) must equal the length of 'xs' ({len(xs)}).")
        if not isinstance(unroll, (bool, np.bool_, int)):
            raise TypeError(f"For 'Scan', the type of 'unroll' should be 'bool', but got type "
                            f"'{type(unroll).__name__}'.")
        if not xs:
            return init, []
        try:
            carry, y = call_user(loop_func, init, xs[0])
            ys = [y]
            if _building() and not unroll and len(xs) > 1:
                carry, rest = _scan_node(loop_func, carry, xs[1:], y)
                return carry, ys + rest
            for x in xs[1:]:
                carry, y = call_user(loop_func, carry, x)
                ys.append(y)
            return carry, ys
        except Exception as exc:
            raise _invalid("Scan", exc) from exc


def _stack_xs(xs) -> Tensor | None:
    """The elements of ``xs`` (all None, or all tensors / numbers of one type) as one stacked tensor."""
    if all(x is None for x in xs):
        return None
    items = [x if isinstance(x, Tensor) else Tensor(x) for x in xs]
    first = items[0]
    if any(t.shape != first.shape or t.dtype != first.dtype for t in items):
        raise TypeError("Scan with unroll=False inside a graph needs the elements of 'xs' to be tensors (or numbers) "
                        "of one shape and dtype (use unroll=True for mixed elements)")
    return F.stack(items)


def _scan_node(loop_func, carry, xs, y0):
    """Iterations 1.. of a scan as one WhileLoop node: the ``ys`` go into preallocated ``[n, ...]`` buffers (one
    per tensor leaf of the first iteration's ``y``), written row by row with a one-hot select."""
    n = len(xs)
    stacked = _stack_xs(xs)
    leaves: list = []
    spec = flatten(y0, leaves, _is_leaf)
    if not all(isinstance(v, Tensor) for v in leaves):
        raise TypeError("Scan with unroll=False inside a graph needs every 'y' that loop_func returns to be made of "
                        "tensors (use unroll=True otherwise)")
    bufs = tuple(F.zeros((n, *v.shape), v.dtype) for v in leaves)

    def cond(i, c, bs):
        return F.less(i, n)

    def body(i, c, bs):
        c, y = call_user(loop_func, c, None if stacked is None else stacked[i])
        ys: list = []
        flatten(y, ys, _is_leaf)
        if len(ys) != len(bs) or any(not isinstance(v, Tensor) or v.shape != b.shape[1:] for v, b in zip(ys, bs)):
            raise TypeError("loop_func returns a 'y' of another structure than in the first iteration")
        rows = F.equal(F.arange(n, dtype=mstype.int64), i)
        out = []
        for b, v in zip(bs, ys):
            mask = F.reshape(rows, (n,) + (1,) * len(v.shape))
            out.append(F.select(F.broadcast_to(mask, b.shape), F.broadcast_to(F.expand_dims(v, 0), b.shape), b))
        return F.add(i, 1), c, tuple(out)

    _, carry, bufs = hooks.while_loop(cond, body, (_counter(0), carry, bufs))
    rest = [unflatten(spec, [b[k] for b in bufs]) for k in range(n)]
    return carry, rest


__all__ = ["WhileLoop", "ForiLoop", "Scan"]
