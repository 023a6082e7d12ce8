"""``ms.saved_tensors_hooks(pack_hook, unpack_hook)``: while the context is open, every op a gradient tape records
passes the tensors its backward may read (its tensor inputs and outputs) through ``pack_hook``; the backward
reads ``unpack_hook(packed)`` instead. Eager (PyNative) only, as in MindSpore."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..core import dispatch
from ..core.tensor import Tensor

stack: list[tuple[Callable, Callable]] = []  # the open contexts, innermost last


class Packed:
    """A saved tensor in the form ``pack_hook`` gave it, and the unpack hook that restores it."""

    __slots__ = ("obj", "unpack")

    def __init__(self, obj: Any, unpack: Callable):
        self.obj, self.unpack = obj, unpack

    def restore(self) -> Tensor:
        t = self.unpack(self.obj)
        if not isinstance(t, Tensor):
            raise TypeError(f"saved_tensors_hooks: unpack_hook must return a Tensor, got {type(t).__name__}")
        return t


def _outside(fn, values: list) -> list:
    """``fn`` over ``values`` as plain code: no tape records the hooks' own ops, and no hook packs them."""
    saved = stack[:]
    stack.clear()
    try:
        with dispatch.suspend_tapes(list(dispatch.active_tapes())):
            return [fn(v) for v in values]
    finally:
        stack[:] = saved


def pack(values: list) -> list:
    """The values of a record, each tensor through the innermost context's pack hook."""
    pack_hook, unpack_hook = stack[-1]
    return _outside(lambda v: Packed(pack_hook(v), unpack_hook) if isinstance(v, Tensor) else v, values)


def unpack(values: list) -> list:
    return _outside(lambda v: v.restore() if v.__class__ is Packed else v, values)


class saved_tensors_hooks:  # noqa: N801 - MindSpore's name
    """``with saved_tensors_hooks(pack_hook, unpack_hook):`` -- customise how the tensors saved for the backward
    pass are stored (``pack_hook(tensor) -> Any``) and restored (``unpack_hook(packed) -> Tensor``)."""

    def __init__(self, pack_hook: Callable, unpack_hook: Callable):
        for name, fn in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(fn):
                raise TypeError(f"saved_tensors_hooks: {name} must be callable, got {type(fn).__name__}")
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook

    def __enter__(self):
        if dispatch._builders:
            raise RuntimeError("saved_tensors_hooks is not supported in a jitted function (Graph or Jit mode), as "
                               "in MindSpore: open it in eager code")
        stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc) -> None:
        stack.pop()
