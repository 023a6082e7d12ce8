"""The compile cache: structured keys, per-function state, counters and miss explanations."""
from __future__ import annotations

import logging
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .. import context
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


class Flags(NamedTuple):
    """Every resolved setting that changes what a compile produces (decorator, else the Cell's
    jit_config in GRAPH_MODE, else the context): part of every cache key."""

    capture: str       # "ast" | "trace"
    jit_level: str     # "O0" | "O1" | "O2"
    syntax_level: str  # "STRICT" | "COMPATIBLE" | "LAX"
    dynamic: int       # 1: axis 0 of every tensor symbolic
    precision: Any = None  # the mixed-precision policy active at the call (dispatch.current_policy())
    streams: int = 1       # executor streams the generated code is scheduled on (backend.pool.streams())


@dataclass(frozen=True)
class CacheKey:
    """What a compiled graph depends on. Tensors by TensorType (symbolic axes as None), Python
    constants by value (structurally), mutable() scalars by dtype only, the bound instance and the
    resolved flags."""

    code: types.CodeType
    instance: InstanceRef | None
    args: Any
    flags: Flags


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
    if not any(k.flags == new.flags for k in same_instance):
        old = same_instance[-1].flags
        changed = [f"{name} {a} -> {b}" for name, a, b in zip(Flags._fields, old, new.flags) if a != b]
        return f"the compile flags changed: {', '.join(changed)}"
    same_instance = [k for k in same_instance if k.flags == new.flags]
    new_parts = flat_components(new.args, names)
    best, best_score = None, float("-inf")  # a call with more or fewer *args than every earlier one scores < 0
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


# ---- the cache ------------------------------------------------------------------------------------
class State:
    """Per (jitted function, bound instance): the fast pre-key table and dynamic-shape tracking."""

    __slots__ = ("fast", "iref", "sizes", "symbolic", "static", "watch", "__weakref__")

    def __init__(self, iref: InstanceRef | None):
        self.watch = None
        self.static = False  # symbolic tracing failed once: compile per shape
        self.fast: dict = {}
        self.iref = iref
        self.sizes: dict = {}
        self.symbolic: frozenset = frozenset()


_caches: weakref.WeakSet = weakref.WeakSet()


class CompileCache:
    """The one compile cache of a jitted callable (function, method, Cell, GRAPH_MODE construct):
    ``CacheKey -> executable`` in LRU order (``jit_cache_size``), counters and miss reasons, and one
    ``State`` per bound instance (held weakly). Fast tables map a plain call's pre-key straight to a
    runner; they are emptied whenever a context flag changes, so the per-call path never looks at flags."""

    def __init__(self, name: str, where: str, arg_names: list):
        self.name, self.where, self.arg_names = name, where, arg_names
        self.entries: dict[CacheKey, Any] = {}
        self.stats = new_stats(name, where)
        self.free = State(None)
        self.states: dict = {}
        _caches.add(self)

    def state_for(self, instance: Any) -> State:
        try:
            ref = weakref.ref(instance)
            st = self.states.get(ref)
        except TypeError:  # unhashable or not weak-referenceable instance
            raise TypeError(f"jit: cannot bind {self.name} to a {type(instance).__name__} instance") from None
        if st is None:
            st = State(InstanceRef(instance))
            self_ref = weakref.ref(self)

            def forget(_r, ref=ref, st=st):
                cache = self_ref()
                if cache is not None:
                    cache.forget(ref, st)

            st.watch = weakref.ref(instance, forget)
            self.states[ref] = st
        return st

    def forget(self, ref, st: State) -> None:
        """The instance behind ``st`` died: drop its state and entries."""
        self.states.pop(ref, None)
        for k in [k for k in self.entries if k.instance is st.iref]:
            del self.entries[k]

    def lookup(self, st: State, leaves: list, in_spec: Any, code: types.CodeType, flags: Flags,
               compile_fn: Callable[[], Any], bound: bool) -> Any:
        """The executable for these leaves: a hit (refreshing its recency), else ``compile_fn()`` (after
        logging why the nearest earlier key differs)."""
        key = CacheKey(code, st.iref, freeze_spec(in_spec, leaves, st.symbolic), flags)
        ex = self.entries.get(key)
        stats = self.stats
        if ex is None:
            stats.misses += 1
            if self._track_sizes(st, leaves, flags.dynamic):
                key = CacheKey(code, st.iref, freeze_spec(in_spec, leaves, st.symbolic), flags)
                ex = self.entries.get(key)
        if ex is None:
            if self.entries:
                reason = explain_miss(key, list(self.entries), self.arg_names[1:] if bound else self.arg_names)
                stats.miss_reasons.append(reason)
                log = logger.warning if context.get_context("jit_log") else logger.info
                log("sprout.jit: recompiling %s (%s): %s", self.name, self.where, reason)
            ex = compile_fn()
            if ex.static_fallback:  # compiled for the concrete shapes: key it by them
                key = CacheKey(code, st.iref, freeze_spec(in_spec, leaves, st.symbolic), flags)
            self.entries[key] = ex
            stats.compiles += 1
            self._evict()
        else:
            stats.hits += 1
            self.entries[key] = self.entries.pop(key)  # most recently used last
        return ex

    def _evict(self) -> None:
        """Keep at most ``jit_cache_size`` entries: drop the least recently used (slow-path hits and
        compiles refresh an entry; fast-path hits do not, to keep that path free of bookkeeping)."""
        limit = context.get_context("jit_cache_size")
        while limit and len(self.entries) > limit:
            victim = self.entries.pop(next(iter(self.entries)))
            self.stats.evictions += 1
            for st in (self.free, *self.states.values()):
                for k in [k for k, fe in st.fast.items() if fe.ex is victim]:
                    del st.fast[k]

    def clear_fast(self) -> None:
        for st in (self.free, *self.states.values()):
            st.fast.clear()

    @staticmethod
    def _track_sizes(st: State, leaves: list, dynamic: int) -> bool:
        """Record sizes per (leaf, axis); make an axis symbolic after ``jit_dynamic_after`` sizes
        (or at once for ``dynamic=1``, on axis 0). Returns True when the symbolic set grew."""
        if st.static:
            return False
        limit = context.get_context("jit_dynamic_after")
        new = set(st.symbolic)
        for i, leaf in enumerate(leaves):
            if not isinstance(leaf, Tensor):
                continue
            for ax, d in enumerate(leaf._data.shape):
                if dynamic == 1 and ax == 0:
                    new.add((i, ax))
                    continue
                seen = st.sizes.setdefault((i, ax), set())
                seen.add(d)
                if limit and len(seen) >= limit:
                    new.add((i, ax))
        if new != st.symbolic:
            st.symbolic = frozenset(new)
            return True
        return False


def clear_all() -> int:
    """Drop every compiled entry of every jitted callable (each compiles again on its next call); the number
    dropped."""
    dropped = 0
    for cache in list(_caches):
        dropped += len(cache.entries)
        cache.entries.clear()
        cache.clear_fast()
    return dropped


def _on_context_change(key: str) -> None:
    """A flag changed: resolved flags may differ now, so no fast table may answer before the slow path
    has built the key again."""
    for cache in list(_caches):
        cache.clear_fast()


context.on_change(_on_context_change)
