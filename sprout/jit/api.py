"""``jit`` / ``ms_function`` / ``JitConfig`` / ``mutable``: the decorator, its call path and cache use."""
from __future__ import annotations

import functools
import inspect
import os
import time
import types
import weakref
from collections.abc import Callable

from .. import context
from ..capture.trace import trace
from ..core.pytree import MutableFloat, MutableInt, flatten, is_input_leaf, leaf_type
from ..core import dispatch
from ..core import hooks as _hooks
from ..core.tensor import Parameter, Tensor
from ..passes import pipeline as _pipeline
from ..passes import run_pipeline
from ..core.errors import JitSyntaxError
from . import cache as _cache
from . import events as _events
from . import host as _host
from .cache import CacheKey, InstanceRef, explain_miss, freeze_spec, logger
from .executable import Executable

_CAPTURE = ("ast", "bytecode", "trace")
_LEVELS = ("O0", "O1", "O2")
_MODES = {"PSJit": "ast", "PIJit": "bytecode"}
_SCALARS = frozenset((int, float, bool, str, type(None)))


class JitConfig:
    """``JitConfig(jit_level, exc_mode, jit_syntax_level, debug_level, infer_boost)`` (MindSpore's values)."""

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE",
                 infer_boost="off", **kwargs):
        if jit_level not in ("",) + _LEVELS:
            raise ValueError(f"JitConfig: jit_level must be one of ['O0', 'O1', 'O2'], got {jit_level!r}")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError(f"JitConfig: exc_mode must be one of ['auto', 'sink', 'no_sink'], got {exc_mode!r}")
        if jit_syntax_level not in ("", "STRICT", "COMPATIBLE", "LAX"):
            raise ValueError(f"JitConfig: jit_syntax_level must be one of ['STRICT', 'LAX'], got {jit_syntax_level!r}")
        if debug_level not in ("RELEASE", "DEBUG"):
            raise ValueError(f"JitConfig: debug_level must be one of ['RELEASE', 'DEBUG'], got {debug_level!r}")
        if infer_boost not in ("", "on", "off"):
            raise ValueError(f"JitConfig: infer_boost must be one of ['on', 'off'], got {infer_boost!r}")
        self.jit_config_dict = dict(kwargs, jit_level=jit_level, exc_mode=exc_mode,
                                    jit_syntax_level=jit_syntax_level, debug_level=debug_level,
                                    infer_boost=infer_boost)

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"


def mutable(input_data, dynamic_len: bool = False):
    """Mark a value as a variable input of jitted functions: a new value does not recompile.
    Tensors already are; scalars become 0-d tensor inputs; tuples/lists/dicts are marked element-wise
    (their length stays part of the key: ``dynamic_len`` is accepted, a new length recompiles)."""
    if not isinstance(dynamic_len, bool):
        raise TypeError(f"mutable: dynamic_len must be a bool, got {dynamic_len!r}")
    if isinstance(input_data, Tensor):
        return input_data
    if isinstance(input_data, bool) or isinstance(input_data, int) and not isinstance(input_data, MutableInt):
        return MutableInt(input_data)
    if isinstance(input_data, float) and not isinstance(input_data, MutableFloat):
        return MutableFloat(input_data)
    if isinstance(input_data, (MutableInt, MutableFloat)):
        return input_data
    if isinstance(input_data, (tuple, list)):
        return type(input_data)(mutable(x) for x in input_data)
    if isinstance(input_data, dict):
        return {k: mutable(v) for k, v in input_data.items()}
    raise TypeError(f"mutable: input_data must be a Tensor, a scalar, or a tuple/list/dict of them, "
                    f"got {type(input_data).__name__}")


# ---- options ------------------------------------------------------------------------------------
def _options(capture_mode, jit_level, dynamic, fullgraph, backend, options) -> dict:
    options = dict(options)
    mode = options.pop("mode", None)
    if mode is not None:
        if mode not in _MODES:
            raise ValueError(f"jit: mode must be 'PSJit' or 'PIJit', got {mode!r}")
        capture_mode = _MODES[mode]
    cfg = options.pop("jit_config", None)
    syntax = "STRICT" if fullgraph else ""  # "": the context's jit_syntax_level (LAX unless set)
    if cfg is not None:
        if isinstance(cfg, dict):
            cfg = JitConfig(**cfg)
        if not isinstance(cfg, JitConfig):
            raise TypeError(f"jit: jit_config must be a JitConfig, got {type(cfg).__name__}")
        d = cfg.jit_config_dict
        jit_level = d["jit_level"] or jit_level
        syntax = d["jit_syntax_level"] or syntax
    options.pop("input_signature", None)
    options.pop("hash_args", None)
    options.pop("compile_once", None)
    if capture_mode not in _CAPTURE:
        raise ValueError(f"jit: capture_mode must be one of {list(_CAPTURE)}, got {capture_mode!r}")
    if jit_level not in ("",) + _LEVELS:
        raise ValueError(f"jit: jit_level must be one of ['O0', 'O1', 'O2'], got {jit_level!r}")
    if dynamic not in (0, 1) or isinstance(dynamic, bool):
        raise ValueError(f"jit: dynamic must be 0 or 1, got {dynamic!r}")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"jit: fullgraph must be a bool, got {fullgraph!r}")
    if backend not in ("", "ms_backend", "GE"):
        raise ValueError(f"jit: backend must be '' or 'ms_backend', got {backend!r}")
    infer_boost = options.get("infer_boost", "off")
    if infer_boost not in ("on", "off"):
        raise ValueError(f"jit: infer_boost must be 'on' or 'off', got {infer_boost!r}")
    exec_order = options.get("exec_order", "bfs")
    if exec_order not in ("bfs", "dfs"):
        raise ValueError(f"jit: exec_order must be 'bfs' or 'dfs', got {exec_order!r}")
    return {"capture_mode": capture_mode, "jit_level": jit_level, "dynamic": dynamic,
            "syntax_level": syntax, "backend": backend, "fullgraph": fullgraph}


def _callee_hook(level: str):
    from ..capture.ast.runtime import callee_hook

    return callee_hook(level)


def _converter():
    """The AST front-end's ``convert`` if it is installed (the one place jit calls it)."""
    try:
        from ..capture.ast import convert
    except ImportError:
        return None
    return convert if callable(convert) and not isinstance(convert, types.ModuleType) else None


class _State:
    """Per (function, bound instance): the fast pre-key table and dynamic-shape tracking."""

    __slots__ = ("fast", "iref", "sizes", "symbolic", "static", "watch", "__weakref__")

    def __init__(self, iref: InstanceRef | None):
        self.watch = None
        self.static = False  # symbolic tracing failed once: compile per shape
        self.fast: dict = {}
        self.iref = iref
        self.sizes: dict = {}
        self.symbolic: frozenset = frozenset()


def _prekey(args: tuple):
    """(shape, dtype) per tensor and (class, value) per plain scalar; None when anything else appears."""
    key = []
    for a in args:
        c = a.__class__
        if c is Tensor or c is Parameter:
            d = a._data
            key.append((d.shape, d.dtype))
        elif c in _SCALARS:
            key.append((c, a))
        else:
            return None
    return tuple(key)


class JitFunction:
    """A jitted function (or method: binds per instance as a descriptor). Compiles nothing until called."""

    def __init__(self, fn: Callable, opts: dict):
        self.fn = fn
        self.opts = opts
        functools.update_wrapper(self, fn)
        code = fn.__code__
        self.code = code
        self.where = f"{os.path.basename(code.co_filename)}:{code.co_firstlineno}"
        self.stats_record = _cache.new_stats(fn.__qualname__, self.where)
        self.entries: dict[CacheKey, Executable] = {}
        self._flags = (opts["capture_mode"], opts["jit_level"])
        self._free = _State(None)
        self._states: dict = {}
        self._targets: dict = {}
        try:
            self.arg_names = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            self.arg_names = []

    def __repr__(self) -> str:
        return f"<jit {self.fn.__qualname__} at {self.where}>"

    # ---- binding ------------------------------------------------------------------------------
    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return BoundJit(self, instance, self.state_for(instance))

    def state_for(self, instance) -> _State:
        try:
            ref = weakref.ref(instance)
            st = self._states.get(ref)
        except TypeError:  # unhashable or not weak-referenceable instance
            raise TypeError(f"jit: cannot bind {self!r} to a {type(instance).__name__} instance") from None
        if st is None:
            st = _State(InstanceRef(instance))
            self_ref = weakref.ref(self)

            def forget(_r, ref=ref, st=st):
                jf = self_ref()
                if jf is not None:
                    jf._forget(ref, st)

            st.watch = weakref.ref(instance, forget)
            self._states[ref] = st
        return st

    def _forget(self, ref, st) -> None:
        self._states.pop(ref, None)
        for k in [k for k in self.entries if k.instance is st.iref]:
            del self.entries[k]

    @property
    def syntax_level(self) -> str:
        """STRICT / COMPATIBLE / LAX: the decorator's (fullgraph, JitConfig) or else the context's."""
        return self.opts["syntax_level"] or context._flags["jit_syntax_level"]

    @property
    def flags(self) -> tuple:
        return (*self._flags, self.syntax_level)

    def target(self) -> Callable:
        level = self.syntax_level
        fn = self._targets.get(level)
        if fn is None:
            convert = _converter() if self.opts["capture_mode"] == "ast" else None
            fn = self._targets[level] = convert(self.fn, syntax_level=level) if convert else self.fn
        return fn

    # ---- calls --------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if not kwargs and not dispatch._slow:
            key = _prekey(args)
            ex = self._free.fast.get(key) if key is not None else None
            if ex is not None:
                self.stats_record.hits += 1
                return ex.run(args)
        return self.call(None, self._free, args, kwargs)

    def call(self, instance, st: _State, args: tuple, kwargs: dict):
        if dispatch._builders:  # called while another graph is built: trace inline
            fn = self.target()
            return fn(instance, *args, **kwargs) if instance is not None else fn(*args, **kwargs)
        leaves: list = []
        in_spec = flatten((tuple(args), dict(kwargs)), leaves, is_input_leaf)
        ex = self.lookup(instance, st, leaves, in_spec, args, kwargs)
        if ex.host:  # JIT Fallback: this entry runs as host segments (jit/host.py)
            return ex.call(instance, args, kwargs)
        if dispatch._observers:  # dispatch.push_observer: report the graph call (the profiler)
            return _observed_run(ex, leaves)
        if dispatch._tapes:
            return ex.run_differentiable(leaves)
        return ex.run(leaves)

    def lookup(self, instance, st: _State, leaves: list, in_spec, args, kwargs) -> Executable:
        key = CacheKey(self.code, st.iref, freeze_spec(in_spec, leaves, st.symbolic), self.flags)
        ex = self.entries.get(key)
        stats = self.stats_record
        if ex is None:
            stats.misses += 1
            if self._track_sizes(st, leaves):
                key = CacheKey(self.code, st.iref, freeze_spec(in_spec, leaves, st.symbolic), self.flags)
                ex = self.entries.get(key)
        if ex is None:
            earlier = list(self.entries)
            if earlier:
                reason = explain_miss(key, earlier, self.arg_names[1:] if instance is not None else self.arg_names)
                stats.miss_reasons.append(reason)
                log = logger.warning if context.get_context("jit_log") else logger.info
                log("sprout.jit: recompiling %s (%s): %s", self.fn.__qualname__, self.where, reason)
            ex = self.compile(instance, st, leaves, args, kwargs)
            if ex.static_fallback:  # compiled for the concrete shapes: key it by them
                key = CacheKey(self.code, st.iref, freeze_spec(in_spec, leaves, st.symbolic), self.flags)
            self.entries[key] = ex
            stats.compiles += 1
            self._evict()
        else:
            stats.hits += 1
            self.entries[key] = self.entries.pop(key)  # most recently used last
        if not kwargs:
            pk = _prekey(args)  # only plain tensors and scalars: the fast path sees the same leaves
            if pk is not None:
                st.fast[pk] = ex.fast_entry(args, st.iref) if ex.host else ex.fast_entry(args)
        return ex

    def _evict(self) -> None:
        """Keep at most ``jit_cache_size`` entries: drop the least recently used (slow-path hits and
        compiles refresh an entry; fast-path hits do not, to keep that path free of bookkeeping)."""
        limit = context.get_context("jit_cache_size")
        while limit and len(self.entries) > limit:
            victim = self.entries.pop(next(iter(self.entries)))
            self.stats_record.evictions += 1
            for st in (self._free, *self._states.values()):
                for k in [k for k, fe in st.fast.items() if fe.ex is victim]:
                    del st.fast[k]

    def _track_sizes(self, st: _State, leaves: list) -> bool:
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
                if self.opts["dynamic"] == 1 and ax == 0:
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

    def compile(self, instance, st: _State, leaves: list, args, kwargs) -> Executable:
        """Trace, optimize and generate code; ``sprout.jit.events.compile_listeners`` (if any) get a CompileEvent."""
        if _events.compile_listeners:
            return _events.observe_compile(self, self._compile, (instance, st, leaves, args, kwargs))
        return self._compile(instance, st, leaves, args, kwargs, [])

    def _compile(self, instance, st: _State, leaves: list, args, kwargs, timings: list) -> Executable:
        try:
            return self._capture(instance, st, leaves, args, kwargs, timings)
        except (JitSyntaxError, RecursionError) as exc:
            ex = _host.fallback(self, exc)  # LAX: what a graph cannot express runs as host segments
            if ex is None:
                raise
            log = logger.warning if context.get_context("jit_log") else logger.info
            log("sprout.jit: %s (%s) runs with host segments: %s", self.fn.__qualname__, self.where, ex.record.reason)
            return ex

    def _capture(self, instance, st: _State, leaves: list, args, kwargs, timings: list) -> Executable:
        t0 = time.perf_counter()
        if self.syntax_level not in self._targets:
            self.target()
            timings.append(("ast_convert", (time.perf_counter() - t0) * 1e3))
            t0 = time.perf_counter()
        fn = self.target()
        call = functools.partial(fn, instance) if instance is not None else fn
        types = []
        for i, leaf in enumerate(leaves):
            t = leaf_type(leaf)
            if st.symbolic:
                t = t._replace(shape=tuple(None if (i, ax) in st.symbolic else d for ax, d in enumerate(t.shape)))
            types.append(t)
        attr_writes = self.opts["capture_mode"] == "ast" and _converter() is not None
        # AST capture: user callables reached through sprout code (grad(f), a Cell called by a sprout Cell)
        # are converted as this function is (core/hooks.py)
        scope = _hooks.installed(_callee_hook(self.syntax_level) if attr_writes else None)
        fallback = False
        try:
            with scope:
                traced = trace(call, args, kwargs, name=self.fn.__name__, types=types, attr_writes=attr_writes)
        except Exception as exc:
            if not st.symbolic:
                raise
            # an op needs a concrete size (a shape attribute built from a symbolic dim): compile this
            # function per shape from now on (if the concrete trace fails too, that error is the real one)
            with scope:
                traced = trace(call, args, kwargs, name=self.fn.__name__, types=None, attr_writes=attr_writes)
            fallback = True
            st.symbolic, st.static = frozenset(), True
            self.stats_record.static_fallbacks += 1
            log = logger.warning if context.get_context("jit_log") else logger.info
            log("sprout.jit: %s (%s) cannot use symbolic dimensions (%s: %s); compiling per shape",
                self.fn.__qualname__, self.where, type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")
        stages = [("trace", traced.graph)]
        timings.append(("trace", (time.perf_counter() - t0) * 1e3))
        level = self.opts["jit_level"] or None  # "" = the context's level (passes.pipeline.default_level)
        graph = run_pipeline(traced.graph, on_stage=lambda name, g: stages.append((name, g)), level=level)
        timings.extend((f"pass:{name}", sec * 1e3) for name, sec in _pipeline.LAST_TIMINGS.items())
        t0 = time.perf_counter()
        ex = Executable(traced, graph, leaves, stages, level)
        ex.static_fallback = fallback
        if context.get_context("save_graphs"):
            _save(self, ex)
        timings.append(("codegen", (time.perf_counter() - t0) * 1e3))
        return ex

    # ---- introspection ------------------------------------------------------------------------
    def explain(self, *args, **kwargs) -> Explanation:
        return self._explain(None, self._free, args, kwargs)

    def _explain(self, instance, st, args, kwargs) -> Explanation:
        leaves: list = []
        in_spec = flatten((tuple(args), dict(kwargs)), leaves, is_input_leaf)
        return Explanation(self.lookup(instance, st, leaves, in_spec, args, kwargs))

    def get_ir(self, *args, **kwargs) -> str:
        return self.explain(*args, **kwargs).ir

    @property
    def stats(self) -> dict:
        return self.stats_record.as_dict()


def _observed_run(ex: Executable, leaves: list):
    t0 = time.perf_counter_ns()
    try:
        return ex.run_differentiable(leaves) if dispatch._tapes else ex.run(leaves)
    finally:
        t1 = time.perf_counter_ns()
        for obs in tuple(dispatch._observers):
            obs.on_graph(ex, t0, t1)


class BoundJit:
    """A jitted method bound to one instance (``self`` is held by the cache weakly, by identity)."""

    __slots__ = ("_jf", "_inst", "_st")

    def __init__(self, jf: JitFunction, instance, st: _State):
        self._jf, self._inst, self._st = jf, instance, st

    def __call__(self, *args, **kwargs):
        if not kwargs and not dispatch._slow:
            key = _prekey(args)
            ex = self._st.fast.get(key) if key is not None else None
            if ex is not None:
                self._jf.stats_record.hits += 1
                return ex.run(args)
        return self._jf.call(self._inst, self._st, args, kwargs)

    def explain(self, *args, **kwargs) -> Explanation:
        return self._jf._explain(self._inst, self._st, args, kwargs)

    def get_ir(self, *args, **kwargs) -> str:
        return self.explain(*args, **kwargs).ir

    @property
    def stats(self) -> dict:
        return self._jf.stats

    @property
    def stats_record(self):
        return self._jf.stats_record

    @property
    def __func__(self):
        return self._jf.fn

    @property
    def __self__(self):
        return self._inst

    def __repr__(self) -> str:
        return f"<bound {self._jf!r} of {type(self._inst).__name__}>"


class Explanation:
    """What jit made of a function for given inputs: the IR after each stage and the generated source."""

    def __init__(self, ex: Executable):
        self.executable = ex

    @property
    def ir(self) -> str:
        return str(self.executable.graph)

    @property
    def stages(self) -> list[tuple[str, str]]:
        return [(name, str(g)) for name, g in self.executable.stages]

    @property
    def source(self) -> str:
        return self.executable.source

    def __str__(self) -> str:
        parts = [f"== {name} ==\n{text}" for name, text in self.stages]
        return "\n".join(parts + [f"== generated source ==\n{self.source}"])


def explain(fn, *args, **kwargs) -> Explanation:
    """``sprout.jit.explain(f, *args)``: IR text per stage and generated source of jitted ``f`` for these inputs."""
    if not isinstance(fn, (JitFunction, BoundJit)):
        raise TypeError(f"explain: {fn!r} is not a jitted function")
    return fn.explain(*args, **kwargs)


def _save(jf: JitFunction, ex: Executable) -> None:
    path = context.get_context("save_graphs_path") or "."
    os.makedirs(path, exist_ok=True)
    n = jf.stats_record.compiles
    base = os.path.join(path, f"{jf.fn.__name__}_{n}")
    for i, (name, g) in enumerate(ex.stages):
        with open(f"{base}_{i:02d}_{name}.ir", "w") as f:
            f.write(str(g) + "\n")
    with open(f"{base}_source.py", "w") as f:
        f.write(ex.source)


# ---- the decorator ------------------------------------------------------------------------------
def jit(function: Callable | None = None, *, capture_mode: str = "ast", jit_level: str = "", dynamic: int = 0,
        fullgraph: bool = False, backend: str = "", **options):
    """MindSpore's ``jit``: run a function, method, Cell instance or Cell class as a compiled graph.

    ``jit_level``: "O0" runs the basic passes (fold, simplify, CSE, DCE) with the fastest compile;
    "O1"/"O2" add elementwise fusion. The default "" means the context's level
    (``set_context(jit_level=...)``), which is O1: unlike MindSpore's O0 default, because fusion is
    where the CPU wins come from and its cost model leaves small tensors unfused (docs/fusion.md)."""
    opts = _options(capture_mode, jit_level, dynamic, fullgraph, backend, options)

    def wrap(func):
        if isinstance(func, (JitFunction, BoundJit)):
            return func
        if opts["capture_mode"] == "bytecode":
            return _wrap_bytecode(func, opts["fullgraph"])
        if isinstance(func, type):
            if not hasattr(func, "construct"):
                raise TypeError(f"jit: a class must be a Cell subclass with construct, got {func.__name__}")
            construct = func.__dict__.get("construct", func.construct)
            func.construct = JitFunction(construct, opts) if not isinstance(construct, JitFunction) else construct
            return func
        if hasattr(func, "construct") and not isinstance(func, types.FunctionType):
            method = func.construct
            if isinstance(method, BoundJit):
                return method
            raw = getattr(method, "__func__", method)
            jf = raw if isinstance(raw, JitFunction) else JitFunction(raw, opts)
            return jf.__get__(func, type(func))
        if isinstance(func, types.MethodType):
            return JitFunction(func.__func__, opts).__get__(func.__self__, type(func.__self__))
        if isinstance(func, functools.partial) or not isinstance(func, types.FunctionType):
            raise TypeError(f"jit: expects a function, method or Cell, got {type(func).__name__}")
        return JitFunction(func, opts)

    if function is not None:
        return wrap(function)
    return wrap


ms_function = jit


def _wrap_bytecode(func, fullgraph: bool):
    """PIJit: the same decorator forms, dispatched to the bytecode capture front-end."""
    from ..capture.bytecode import BytecodeFunction, compile_bytecode

    if isinstance(func, BytecodeFunction):
        return func
    if isinstance(func, type):  # a Cell class
        if not hasattr(func, "construct"):
            raise TypeError(f"jit: a class must be a Cell subclass with construct, got {func.__name__}")
        func.construct = compile_bytecode(func.__dict__.get("construct", func.construct), fullgraph=fullgraph)
        return func
    if hasattr(func, "construct") and not isinstance(func, types.FunctionType):  # a Cell instance
        raw = getattr(func.construct, "__func__", func.construct)
        return types.MethodType(compile_bytecode(raw, fullgraph=fullgraph), func)
    if isinstance(func, types.MethodType):
        return types.MethodType(compile_bytecode(func.__func__, fullgraph=fullgraph), func.__self__)
    if not isinstance(func, types.FunctionType):
        raise TypeError(f"jit: expects a function, method or Cell, got {type(func).__name__}")
    return compile_bytecode(func, fullgraph=fullgraph)  # BytecodeFunction binds like a function in a class body

_graph_mode_jits: dict = {}


def run_cell_graph_mode(cell, args: tuple, kwargs: dict):
    """GRAPH_MODE: run ``type(cell).construct`` compiled for this instance (called by ``Cell.__call__``)."""
    construct = type(cell).construct
    if isinstance(construct, JitFunction):
        jf = construct
    else:
        jf = _graph_mode_jits.get(construct)
        if jf is None:
            cfg = dict(getattr(cell, "jit_config_dict", None) or {})
            cfg.pop("backend", None)
            opts = _options("ast", cfg.get("jit_level") or "", 0, False, "",
                            {"jit_config": JitConfig(**cfg)} if cfg else {})
            jf = _graph_mode_jits[construct] = JitFunction(construct, opts)
    if dispatch._builders:
        return jf.target()(cell, *args, **kwargs)
    return jf.__get__(cell, type(cell))(*args, **kwargs)


jit.stats = _cache.stats
jit.reset_stats = _cache.reset_stats
jit.explain = explain
