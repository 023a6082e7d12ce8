"""``mindspore.lazy_inline`` / ``mindspore.no_inline``: compile-strategy marks for repeated Cells and functions.

In MindSpore they choose whether a repeated block is compiled once as a shared subgraph or inlined at every call;
the values computed are the same either way. sprout's capture always inlines (it traces each call), so the marks
are recorded on the object for inspection and checked for misuse as MindSpore checks them, and change nothing else.
"""
from __future__ import annotations

import functools


def lazy_inline(fn=None, attrs=None, policy=None):
    """Mark a Cell's ``__init__``: instances of the class are flagged ``_lazy_inline = True``. Decorating anything
    but an ``__init__`` is a ValueError, as in MindSpore."""
    if attrs is not None and not isinstance(attrs, (str, list, tuple)):
        raise TypeError(f"lazy_inline: 'attrs' must be a str, list or tuple, got {type(attrs).__name__}")
    if policy not in (None, "front", "back"):
        raise ValueError(f"lazy_inline: 'policy' must be None, 'front' or 'back', got {policy!r}")

    def wrap(init):
        if getattr(init, "__name__", None) != "__init__":
            line = getattr(getattr(init, "__code__", None), "co_firstlineno", "?")
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the function: "
                             f"{getattr(init, '__name__', init)}. line: {line}")

        @functools.wraps(init)
        def marked_init(self, *args, **kwargs):
            init(self, *args, **kwargs)
            self._lazy_inline = True

        return marked_init

    return wrap(fn) if fn is not None else wrap


def no_inline(fn=None):
    """Mark a function or Cell method as one MindSpore keeps as its own subgraph (``fn.no_inline is True``)."""

    def wrap(f):
        if not callable(f):
            raise TypeError(f"no_inline: expected a function, got {type(f).__name__}")
        f.no_inline = True
        return f

    return wrap(fn) if fn is not None else wrap
