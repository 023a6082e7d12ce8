"""Execution modes the op table runs every case in. The jit team extends ``MODES`` and
``run_in_mode`` (e.g. "jit_ast", "jit_bytecode"); every mode must give the eager result."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

MODES = ["eager"]


def run_in_mode(fn: Callable, args: list, mode: str) -> Any:
    """Call ``fn(*args)`` the way ``mode`` runs code."""
    if mode == "eager":
        return fn(*args)
    raise ValueError(f"unknown op-table mode {mode!r}; known: {MODES}")
