"""Run a function the way each execution mode runs code: "eager", "ast" (``jit``) and "bytecode" (PIJit).

The op table and the parity tests share this: ``run_in_mode(fn, args, mode)`` returns what ``fn(*args)``
returns in ``mode``; ``grad_in_mode`` the gradients w.r.t. the given argument positions. Jitted wrappers
are cached per (function, mode) so that repeated calls exercise the compile caches / guarded entries."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sprout as ms

MODES = ("eager", "ast", "bytecode")
_JITTED: dict = {}


def jitted(fn: Callable, mode: str) -> Callable:
    """``fn`` wrapped for ``mode`` (the same wrapper for the same function and mode)."""
    if mode == "eager":
        return fn
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; known: {list(MODES)}")
    key = (fn, mode)
    try:
        w = _JITTED.get(key)
    except TypeError:  # an unhashable callable: wrap every time
        w, key = None, None
    if w is None:
        w = ms.jit(fn) if mode == "ast" else ms.jit(fn, capture_mode="bytecode")
        if key is not None:
            _JITTED[key] = w
    return w


def run_in_mode(fn: Callable, args, mode: str, kwargs: dict | None = None) -> Any:
    """Call ``fn(*args, **kwargs)`` the way ``mode`` runs code."""
    return jitted(fn, mode)(*args, **(kwargs or {}))


def float_positions(args) -> tuple:
    """Positions of the floating-point Tensor arguments (what the parity tests differentiate)."""
    return tuple(i for i, a in enumerate(args) if isinstance(a, ms.Tensor) and a.dtype.is_float)


def grad_in_mode(fn: Callable, args, mode: str, positions: tuple | None = None) -> Any:
    """``ms.grad`` of ``fn`` (wrapped for ``mode``) w.r.t. ``positions`` (default: every float Tensor)."""
    pos = float_positions(args) if positions is None else positions
    return ms.grad(jitted(fn, mode), grad_position=pos)(*args)


def clear() -> None:
    """Forget the cached wrappers (their compile caches go with them)."""
    _JITTED.clear()
