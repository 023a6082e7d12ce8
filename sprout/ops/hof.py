"""MindSpore's higher-order helpers for composite code: MultitypeFuncGraph, HyperMap, Map, Partial,
depend, clip_by_global_norm (plain Python over the functional API)."""
from __future__ import annotations

import functools
from typing import Any
from collections.abc import Callable

from ..core.hooks import call_user
from ..core.tensor import Tensor
from . import functional as F

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "Partial", "partial", "depend", "clip_by_global_norm"]


def _type_name(value: Any) -> str:
    """The MindSpore type name ``MultitypeFuncGraph.register`` matches a value against."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, (int, float)):
        return "Number"
    if isinstance(value, str):
        return "String"
    if isinstance(value, tuple):
        return "Tuple"
    if isinstance(value, list):
        return "List"
    if isinstance(value, dict):
        return "Dictionary"
    if value is None:
        return "None"
    if callable(value):
        return "Function"
    return type(value).__name__


_WIDER = {"Bool": ("Number",), "Tuple": (), "List": ()}


class MultitypeFuncGraph:
    """A function overloaded on the MindSpore type names of its arguments::

        add = MultitypeFuncGraph("add")
        @add.register("Tensor", "Number")
        def _(x, y): ...
    """

    def __init__(self, name: str, read_value: bool = False, doc_url: str = ""):
        self.name = name
        self.entries: list[tuple[tuple, Callable]] = []

    def register(self, *type_names):
        names = tuple(t if isinstance(t, str) else getattr(t, "__name__", str(t)) for t in type_names)

        def deco(fn):
            self.entries.append((names, fn))
            return fn

        return deco

    def __call__(self, *args):
        kinds = [_type_name(a) for a in args]
        for names, fn in self.entries:
            if len(names) == len(kinds) and all(n == k or n in _WIDER.get(k, ()) for n, k in zip(names, kinds)):
                return call_user(fn, *args)
        raise TypeError(f"MultitypeFuncGraph {self.name!r}: no overload registered for argument types "
                        f"({', '.join(kinds)}); registered: {[n for n, _ in self.entries]}")


class HyperMap:
    """``HyperMap(fn)(*sequences)`` / ``HyperMap()(fn, *sequences)``: apply ``fn`` element by element,
    recursing into nested tuples and lists; returns tuples."""

    def __init__(self, ops: Callable | None = None, reverse: bool = False):
        self.ops, self.reverse = ops, reverse

    def __call__(self, *args):
        fn, seqs = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        return self._map(fn, seqs)

    def _map(self, fn, seqs):
        if seqs and all(isinstance(s, (tuple, list)) for s in seqs):
            n = len(seqs[0])
            if any(len(s) != n for s in seqs):
                raise ValueError(f"HyperMap: sequences of different lengths {[len(s) for s in seqs]}")
            order = range(n - 1, -1, -1) if self.reverse else range(n)
            out = {i: self._map(fn, [s[i] for s in seqs]) for i in order}
            return tuple(out[i] for i in range(n))
        return call_user(fn, *seqs)


class Map(HyperMap):
    """Like HyperMap, but only over the top level of the sequences."""

    def _map(self, fn, seqs):
        if seqs and all(isinstance(s, (tuple, list)) for s in seqs):
            return tuple(call_user(fn, *items) for items in zip(*seqs))
        return call_user(fn, *seqs)


class Partial:
    """``ops.Partial()(fn, *args)``: bind leading arguments."""

    def __call__(self, fn, *args):
        return functools.partial(fn, *args)


def partial(func, *args):
    return functools.partial(func, *args)


def depend(value, expr):
    """Return ``value``; ``expr`` has already run (eager order is program order)."""
    return value


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale the tensors in ``x`` so that their joint L2 norm is at most ``clip_norm``."""
    items = tuple(x)
    if use_norm is None:
        total = None
        for t in items:
            s = F.sum(F.square(F.cast(t, "float32") if not t.dtype.is_float else t))
            total = s if total is None else F.add(total, s)
        use_norm = F.sqrt(total)
    scale = F.div(clip_norm, F.maximum(use_norm, clip_norm))
    return tuple(F.mul(t, F.cast(scale, t.dtype)) for t in items)
