"""Backends: the reference interpreter and the Python-source code generator over NumPy."""
from __future__ import annotations

from collections.abc import Callable

from ..ir.graph import Graph


def compile_subgraph(graph: Graph) -> Callable:
    """A callable for a control-flow body: NumPy arrays in -> tuple of arrays out (generated code)."""
    from .pycodegen import generate

    return generate(graph).function("graph_fn")


__all__ = ["compile_subgraph"]
