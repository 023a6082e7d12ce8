"""Execution modes the op table runs every case in: eager, ``jit`` (AST capture) and PIJit (bytecode
capture). The mode plumbing is shared with the parity suite (``tests/capture_bytecode/modes.py``): one
cached wrapper per (function, mode), so repeated cases exercise the compile caches."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

_TESTS = str(Path(__file__).resolve().parent.parent)
if _TESTS not in sys.path:  # tests/ops is a rootdir-style test folder; the shared helpers live in a package
    sys.path.append(_TESTS)

from capture_bytecode import modes as _shared  # noqa: E402

MODES = list(_shared.MODES)  # ["eager", "ast", "bytecode"]
jitted = _shared.jitted
float_positions = _shared.float_positions
clear = _shared.clear


def run_in_mode(fn: Callable, args: list, mode: str, kwargs: dict | None = None) -> Any:
    """Call ``fn(*args, **kwargs)`` the way ``mode`` runs code."""
    if mode not in MODES:
        raise ValueError(f"unknown op-table mode {mode!r}; known: {MODES}")
    return _shared.run_in_mode(fn, args, mode, kwargs)


def grad_in_mode(fn: Callable, args: list, mode: str, positions: tuple) -> Any:
    """``ms.grad`` of ``fn`` wrapped for ``mode``, w.r.t. ``positions``."""
    return _shared.grad_in_mode(fn, args, mode, positions)
