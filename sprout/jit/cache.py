"""The compile cache: structured keys, per-function state, counters and miss explanations."""
from __future__ import annotations

import logging
import types
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.pytree import MutableFloat, MutableInt, Slot
from ..core.tensor import Tensor
from ..core.types import TensorType

logger = logging.getLogger("sprout.jit")


class InstanceRef:
    """An object held weakly and compared by identity (the ``self`` of a jitted method)."""

    __slots__ = ("ref", "_hash", "type_name", "__weakref__")

    def __init__(self, obj: Any):
        self.ref = weakref.ref(obj)
        self._hash = object.__hash__(obj)
        self.type_name = type(obj).__name__

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        if not isinstance(other, InstanceRef):
            return NotImplemented
        a = self.ref()
        return a is not None and a is other.ref()

    def __repr__(self) -> str:
        return f"<{self.type_name} instance>"


@dataclass(frozen=True)
class CacheKey:
    """What a compiled graph depends on. Tensors by TensorType (symbolic axes as None), Python
    constants by value (structurally), mutable() scalars by dtype only, plus the bound instance."""

    code: types.CodeType
    instance: InstanceRef | None
    args: Any
    flags: tuple


def freeze_const(value: Any) -> Any:
    """A hashable, structural stand-in for a non-tensor argument."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return (type(value), value)
    if isinstance(value, np.ndarray):
        return ("ndarray", value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, np.generic):
        return ("npscalar", value.dtype.str, value.item())
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type, types.ModuleType)):
        return ("object", value)
    try:
        hash(value)
    except TypeError:
        return ("instance", InstanceRef(value))
    if type(value).__hash__ is object.__hash__:
        return ("instance", InstanceRef(value))
    return ("value", type(value), value)


def leaf_descriptor(leaf: Any, symbolic: frozenset, index: int) -> Any:
    if isinstance(leaf, Tensor):
        shape = tuple(None if (index, ax) in symbolic else d for ax, d in enumerate(leaf._data.shape))
        return ("tensor", TensorType(shape, leaf.dtype))
    if isinstance(leaf, MutableInt):
        return ("mutable", "int")
    if isinstance(leaf, MutableFloat):
        return ("mutable", "float")
    raise TypeError(f"not an input leaf: {leaf!r}")


def freeze_spec(spec: Any, leaves: list, symbolic: frozenset) -> Any:
    """The structural key of flattened (args, kwargs)."""
    if spec.__class__ is Slot:
        return leaf_descriptor(leaves[spec.index], symbolic, spec.index)
    kind = spec[0]
    if kind == "const":
        return ("const", freeze_const(spec[1]))
    if kind == "dict":
        return ("dict", spec[1], tuple((freeze_const(k), freeze_spec(v, leaves, symbolic)) for k, v in spec[2]))
    return (kind, spec[1], tuple(freeze_spec(x, leaves, symbolic) for x in spec[2]))


def describe(desc: Any) -> str:
    """Human text for one key component."""
    if isinstance(desc, tuple) and desc:
        tag = desc[0]
        if tag == "tensor":
            from ..ir.printer import format_type

            return f"Tensor {format_type(desc[1])}"
        if tag == "const":
            return describe(desc[1])
        if tag == "mutable":
            return f"mutable {desc[1]}"
        if tag in ("instance",):
            return repr(desc[1])
        if tag == "ndarray":
            return f"ndarray{list(desc[1])}"
        if tag in ("object", "value"):
            return repr(desc[-1])
        if len(desc) == 2 and isinstance(desc[0], type):
            return repr(desc[1])
        if tag in ("tuple", "list", "namedtuple", "dict"):
            return f"{tag} of {len(desc[2])}"
    return repr(desc)


def flat_components(key_args: Any, names: list[str]) -> list[tuple[str, Any]]:
    """(path, component) pairs of a frozen (args, kwargs) spec, for explaining misses."""
    out: list[tuple[str, Any]] = []

    def walk(desc, path):
        if isinstance(desc, tuple) and desc and desc[0] in ("tuple", "list", "namedtuple") and len(desc) == 3 \
                and isinstance(desc[2], tuple):
            out.append((path + "<structure>", (desc[0], len(desc[2]))))
            for i, d in enumerate(desc[2]):
                walk(d, f"{path}[{i}]")
            return
        if isinstance(desc, tuple) and desc and desc[0] == "dict" and len(desc) == 3:
            out.append((path + "<keys>", tuple(k for k, _ in desc[2])))
            for k, d in desc[2]:
                walk(d, f"{path}[{describe(k)}]")
            return
        out.append((path, desc))

    args_desc, kwargs_desc = key_args[2]
    for i, d in enumerate(args_desc[2]):
        walk(d, names[i] if i < len(names) else f"args[{i}]")
    if kwargs_desc[2]:
        for k, d in kwargs_desc[2]:
            walk(d, describe(k).strip("'"))
    return out


def explain_miss(new: CacheKey, old_keys: list[CacheKey], names: list[str]) -> str:
    """One line: which argument differs from the nearest earlier key, old and new."""
    if not old_keys:
        return "first call"
    same_instance = [k for k in old_keys if k.instance == new.instance]
    if not same_instance:
        return f"a new instance of {new.instance.type_name if new.instance else 'the owner'} (self)"
    new_parts = flat_components(new.args, names)
    best, best_score = None, -1
    for k in same_instance:
        parts = flat_components(k.args, names)
        score = sum(1 for a, b in zip(parts, new_parts) if a == b) - abs(len(parts) - len(new_parts))
        if score > best_score:
            best, best_score = parts, score
    for (path, old), (npath, cur) in zip(best, new_parts):
        if path != npath:
            return f"argument structure changed at '{npath}'"
        if old != cur:
            return f"argument '{path}' changed from {describe(old)} to {describe(cur)}"
    if len(best) != len(new_parts):
        return f"the number of arguments changed from {len(best)} to {len(new_parts)}"
    return "the compile flags changed"


# ---- counters -------------------------------------------------------------------------------------
@dataclass
class FunctionStats:
    """Per jitted function: compiles, cache hits and misses, and the explanation of each miss."""

    name: str
    where: str
    compiles: int = 0
    hits: int = 0
    misses: int = 0
    evictions: int = 0
    static_fallbacks: int = 0  # symbolic-dimension traces that failed and were compiled per shape
    host_fallbacks: int = 0    # entries whose AST capture was refused and that run as host segments (LAX)
    miss_reasons: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"compiles": self.compiles, "hits": self.hits, "misses": self.misses,
                "evictions": self.evictions,
                "static_fallbacks": self.static_fallbacks, "host_fallbacks": self.host_fallbacks,
                "miss_reasons": list(self.miss_reasons)}


_all_stats: list[FunctionStats] = []


def new_stats(name: str, where: str) -> FunctionStats:
    s = FunctionStats(name, where)
    _all_stats.append(s)
    return s


def stats(fn: Any = None) -> dict:
    """Counters: for one jitted function (``stats(f)``), or global totals plus a per-function table."""
    if fn is not None:
        s = getattr(fn, "stats_record", None)
        if s is None:
            raise TypeError(f"stats: {fn!r} is not a jitted function")
        return s.as_dict()
    total = {"compiles": 0, "hits": 0, "misses": 0, "evictions": 0}
    per: dict[str, dict] = {}
    for s in _all_stats:
        total["compiles"] += s.compiles
        total["hits"] += s.hits
        total["misses"] += s.misses
        total["evictions"] += s.evictions
        per[f"{s.name} ({s.where})"] = s.as_dict()
    total["functions"] = per
    return total


def reset_stats() -> None:
    for s in _all_stats:
        s.compiles = s.hits = s.misses = s.evictions = s.static_fallbacks = s.host_fallbacks = 0
        s.miss_reasons.clear()
