"""Eager results that share memory with an input: MindSpore's view ops give views, every other op a tensor of its
own (an in-place write, ``x[i] = v``, reaches exactly the tensors MindSpore's would)."""
from __future__ import annotations

import numpy as np

from .op import Op


def root(a: np.ndarray) -> object:
    """The object owning ``a``'s memory (NumPy views chain to it through ``base``)."""
    while True:
        b = a.base
        if b is None:
            return a
        if not isinstance(b, np.ndarray):
            return b
        a = b


def settle(op: Op, args: tuple, out: np.ndarray, t) -> None:
    """``t`` is ``op``'s eager result ``out``, a NumPy view (``out.base`` is set): a view op's result sharing an
    input's memory is marked a view (``ops.assign`` refuses it, as MindSpore does); any other op's result sharing
    an input's memory (NumPy's flip, real, ... are views) gets memory of its own."""
    b = out.base
    r = None
    for a in args:
        d = getattr(a, "_data", None)
        if d.__class__ is not np.ndarray:
            continue
        if b is not d and b is not d.base:  # (NumPy points a view's base at the array owning the memory)
            if r is None:
                r = root(out)
            if root(d) is not r:
                continue
        if op.view:
            t._view = True
            t._data = out
        else:
            t._data = out.copy()
        return
    t._data = out


def is_view(t) -> bool:
    """Whether ``t`` came from a view op and shares its input's memory."""
    return getattr(t, "_view", False)
