"""Gradient hooks on tensors (``Tensor.register_hook``): a side table from a live tensor to its hooks, read by the
tape when a tensor's gradient is complete. Tensors have ``__slots__``, so the table is keyed by id and cleaned when
the tensor dies; an alias made for differentiation (``grad``'s distinct input objects) shares its original's
hooks."""
from __future__ import annotations

import itertools
import weakref
from typing import Any
from collections.abc import Callable

# id(tensor) -> (weak reference to it, {handle id: hook}); several ids may share one hook dict (aliases)
_table: dict[int, tuple[weakref.ref, dict[int, Callable]]] = {}
_ids = itertools.count(1)
_owner: dict[int, dict[int, Callable]] = {}  # handle id -> the hook dict holding it


def _forget(key: int) -> Callable[[Any], None]:
    def drop(_ref) -> None:
        entry = _table.get(key)
        if entry is not None and entry[0] is _ref:
            del _table[key]
            hooks = entry[1]
            if not any(e[1] is hooks for e in _table.values()):  # no alias left: its handles are void
                for hid in hooks:
                    _owner.pop(hid, None)

    return drop


def _entry(t: Any, create: bool) -> dict[int, Callable] | None:
    entry = _table.get(id(t))
    if entry is not None and entry[0]() is t:
        return entry[1]
    if not create:
        return None
    hooks: dict[int, Callable] = {}
    _table[id(t)] = (weakref.ref(t, _forget(id(t))), hooks)
    return hooks


def register(t: Any, hook: Callable) -> int:
    """Add ``hook`` to ``t``'s hooks; returns the handle id that ``remove`` takes."""
    hid = next(_ids)
    hooks = _entry(t, True)
    hooks[hid] = hook
    _owner[hid] = hooks
    return hid


def remove(hid: int) -> None:
    hooks = _owner.pop(hid, None)
    if hooks is not None:
        hooks.pop(hid, None)


def hooks_of(t: Any) -> list[Callable]:
    hooks = _entry(t, False) if _table else None
    return list(hooks.values()) if hooks else []


def share(original: Any, alias: Any) -> None:
    """``alias`` (a distinct object standing for ``original`` in a gradient computation) runs its hooks."""
    hooks = _entry(original, False) if _table else None
    if hooks:
        _table[id(alias)] = (weakref.ref(alias, _forget(id(alias))), hooks)


def active() -> bool:
    return bool(_table)


def apply(t: Any, g: Any) -> Any:
    """``g`` (the complete gradient of ``t``) through ``t``'s hooks in registration order; a hook returning None
    leaves the gradient as it is."""
    for hook in hooks_of(t):
        new = hook(g)
        if new is not None:
            g = new
    return g
