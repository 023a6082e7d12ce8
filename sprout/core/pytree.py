"""Pytrees (tuples, lists, dicts, namedtuples of leaves) and the leaves a jitted call takes as inputs."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

import numpy as np

from .. import dtype as mstype
from .tensor import Tensor
from .types import TensorType


class Slot:
    """Where the i-th flat leaf goes back in a rebuilt structure."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __repr__(self) -> str:
        return f"Slot({self.index})"


class NodeSpec:
    """How a registered class crosses a jit boundary: its children are the attributes ``fields`` (tensors), its
    ``aux`` attribute a hashable part of the structure (and so of the cache key), ``build(aux, children)`` makes
    a new object from them."""

    __slots__ = ("fields", "aux", "build")

    def __init__(self, fields: tuple, aux: str, build: Callable):
        self.fields, self.aux, self.build = fields, aux, build

    def children(self, obj: Any) -> list:
        return [getattr(obj, f) for f in self.fields]


NODES: dict[type, NodeSpec] = {}  # registered node classes (sparse tensors)


def register_node(cls: type, fields: tuple, aux: str, build: Callable) -> None:
    NODES[cls] = NodeSpec(tuple(fields), aux, build)


def rebuild(cls: type, aux: Any, *children: Any) -> Any:
    """A registered node made again from its aux and children (used by the bytecode exit recipes)."""
    return NODES[cls].build(aux, list(children))


def flatten(tree: Any, leaves: list, is_leaf: Callable[[Any], bool]) -> Any:
    """Append the leaves of ``tree`` (values where ``is_leaf`` holds) to ``leaves``; return the
    structure with Slots in their place (non-leaf scalars stay in the structure as constants)."""
    if is_leaf(tree):
        leaves.append(tree)
        return Slot(len(leaves) - 1)
    node = NODES.get(type(tree))
    if node is not None:
        aux = getattr(tree, node.aux)
        return ("node", (type(tree), aux), [flatten(x, leaves, is_leaf) for x in node.children(tree)])
    if isinstance(tree, tuple):
        items = [flatten(x, leaves, is_leaf) for x in tree]
        if hasattr(tree, "_fields"):  # namedtuple
            return ("namedtuple", type(tree), items)
        return ("tuple", type(tree), items)
    if isinstance(tree, list):
        return ("list", type(tree), [flatten(x, leaves, is_leaf) for x in tree])
    if isinstance(tree, dict):
        return ("dict", type(tree), [(k, flatten(v, leaves, is_leaf)) for k, v in tree.items()])
    return ("const", tree)


def unflatten(spec: Any, leaves: list) -> Any:
    if spec.__class__ is Slot:
        return leaves[spec.index]
    kind = spec[0]
    if kind == "const":
        return spec[1]
    if kind == "tuple":
        items = tuple(unflatten(x, leaves) for x in spec[2])
        return items if spec[1] is tuple else spec[1](items)
    if kind == "namedtuple":
        return spec[1](*[unflatten(x, leaves) for x in spec[2]])
    if kind == "list":
        return [unflatten(x, leaves) for x in spec[2]]
    if kind == "node":
        cls, aux = spec[1]
        return NODES[cls].build(aux, [unflatten(x, leaves) for x in spec[2]])
    if kind == "pyscalar":  # a graph output standing for a Python scalar (capture/scalars.py): int/float/bool
        v = unflatten(spec[2], leaves)
        return spec[1](v._data.item() if isinstance(v, Tensor) else v)
    return {k: unflatten(v, leaves) for k, v in spec[2]}


def is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


# ---- mutable scalars ------------------------------------------------------------------------------
class MutableInt(int):
    """``mutable(3)``: an int that a jitted function receives as a variable (no recompile on change)."""

    __slots__ = ()
    sprout_dtype = mstype.int64


class MutableFloat(float):
    """``mutable(0.5)``: a float that a jitted function receives as a variable."""

    __slots__ = ()
    sprout_dtype = mstype.float32


def is_input_leaf(x: Any) -> bool:
    """Leaves that become graph inputs: tensors and mutable() scalars."""
    return isinstance(x, (Tensor, MutableInt, MutableFloat))


def leaf_type(x: Any) -> TensorType:
    if isinstance(x, Tensor):
        return TensorType(tuple(x._data.shape), x.dtype)
    return TensorType((), x.sprout_dtype)


def leaf_array(x: Any) -> np.ndarray:
    if isinstance(x, Tensor):
        return x._data
    return np.asarray(x, x.sprout_dtype.np)


