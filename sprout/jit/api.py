"""``jit`` / ``ms_function`` / ``JitConfig`` / ``mutable``: the decorator, its call path and cache use."""
from __future__ import annotations

import functools
import inspect
import os
import time
import types
from collections.abc import Callable

from .. import context
from ..capture.trace import trace
from ..core.pytree import MutableFloat, MutableInt, flatten, is_input_leaf, leaf_type
from ..core import dispatch
from ..core import hooks as _hooks
from ..core.tensor import Parameter, Tensor
from ..backend import pool as _pool
from ..passes import pipeline as _pipeline
from ..passes import run_pipeline
from ..core.errors import JitSyntaxError
from . import cache as _cache
from . import events as _events
from . import host as _host
from .cache import CompileCache, Flags, State, logger
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
# MindSpore's backend options: infer_boost and exec_order are checked; the Ascend/GE ones have no effect on a
# CPU run (as in MindSpore's CPU backend)
_KNOWN_OPTIONS = {"infer_boost", "exec_order", "disable_format_transform", "ge_options", "ascend_options"}


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
    unknown = sorted(set(options) - _KNOWN_OPTIONS)
    if unknown:
        raise TypeError(f"jit: unknown option(s) {unknown}; jit takes capture_mode, jit_level, dynamic, fullgraph, "
                        f"backend and the options {sorted(_KNOWN_OPTIONS)}")
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
    """A jitted function (or method: binds per instance as a descriptor). Compiles nothing until called.
    Every form (function, method, Cell instance or class, GRAPH_MODE ``construct``) calls through
    ``call`` and looks up its one ``CompileCache`` with the resolved ``Flags`` in the key."""

    def __init__(self, fn: Callable, opts: dict, cell_config: bool = False):
        self.fn = fn
        self.opts = opts
        self.cell_config = cell_config  # GRAPH_MODE: the Cell's jit_config (set_jit_config) applies
        functools.update_wrapper(self, fn)
        code = fn.__code__
        self.code = code
        self.where = f"{os.path.basename(code.co_filename)}:{code.co_firstlineno}"
        try:
            self.arg_names = list(inspect.signature(fn).parameters)
        except (TypeError, ValueError):
            self.arg_names = []
        self.cache = CompileCache(fn.__qualname__, self.where, self.arg_names)
        self.stats_record = self.cache.stats
        self._free = self.cache.free
        self._targets: dict = {}
        self._compiling: Flags | None = None

    def __repr__(self) -> str:
        return f"<jit {self.fn.__qualname__} at {self.where}>"

    @property
    def entries(self) -> dict:
        return self.cache.entries

    # ---- binding ------------------------------------------------------------------------------
    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return BoundJit(self, instance, self.cache.state_for(instance))

    def flags(self, instance=None) -> Flags:
        """The settings this call compiles with: the decorator's, else (GRAPH_MODE) the Cell's
        jit_config, else the context's (``jit_level``, then ``jit_config``, then O1; ``jit_syntax_level``)."""
        cfg = (getattr(instance, "jit_config_dict", None) or {}) if self.cell_config else {}
        level = self.opts["jit_level"] or cfg.get("jit_level") or _pipeline.default_level()
        syntax = (self.opts["syntax_level"] if self.opts["fullgraph"] else None) or \
            context.jit_syntax_level(self.opts["syntax_level"], cfg.get("jit_syntax_level"))
        return Flags(self.opts["capture_mode"], level, syntax, self.opts["dynamic"], dispatch.current_policy(),
                     _pool.streams())

    @property
    def syntax_level(self) -> str:
        """STRICT / COMPATIBLE / LAX of the compile in progress (else as resolved for a free call)."""
        return (self._compiling or self.flags()).syntax_level

    def target(self, level: str | None = None) -> Callable:
        level = level or self.syntax_level
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

    def call(self, instance, st: State, args: tuple, kwargs: dict):
        """The one call path (functions, bound methods, Cells, GRAPH_MODE)."""
        if dispatch._builders:  # called while another graph is built: trace inline
            fn = self.target(self.flags(instance).syntax_level)
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
        if not kwargs and not dispatch._slow:  # the runner lookup just made for these arguments: the entry
            fe = st.fast.get(_prekey(args))      # over flat leaves is then never generated
            if fe is not None and fe.ex is ex:
                return fe.run(args)
        return ex.run(leaves)

    def lookup(self, instance, st: State, leaves: list, in_spec, args, kwargs) -> Executable:
        flags = self.flags(instance)
        ex = self.cache.lookup(st, leaves, in_spec, self.code, flags,
                               lambda: self.compile(instance, st, leaves, args, kwargs, flags), instance is not None)
        if not kwargs and flags.precision is None:  # the fast path runs only while no precision policy is active
            pk = _prekey(args)  # only plain tensors and scalars: the fast path sees the same leaves
            if pk is not None:
                st.fast[pk] = ex.fast_entry(args, st.iref) if ex.host else ex.fast_entry(args)
        return ex

    def compile(self, instance, st: State, leaves: list, args, kwargs, flags: Flags) -> Executable:
        """Trace, optimize and generate code; ``sprout.jit.events.compile_listeners`` (if any) get a CompileEvent."""
        self._compiling = flags
        try:
            if _events.compile_listeners:
                return _events.observe_compile(self, self._compile, (instance, st, leaves, args, kwargs, flags))
            return self._compile(instance, st, leaves, args, kwargs, flags, [])
        finally:
            self._compiling = None

    def _compile(self, instance, st: State, leaves: list, args, kwargs, flags: Flags, timings: list) -> Executable:
        try:
            return self._capture(instance, st, leaves, args, kwargs, flags, timings)
        except (JitSyntaxError, RecursionError) as exc:
            ex = _host.fallback(self, exc)  # LAX: what a graph cannot express runs as host segments
            if ex is None:
                reported = _host.standing(exc)
                if reported is exc:
                    raise
                raise reported from None
            log = logger.warning if context.get_context("jit_log") else logger.info
            log("sprout.jit: %s (%s) runs with host segments: %s", self.fn.__qualname__, self.where, ex.record.reason)
            return ex

    def _capture(self, instance, st: State, leaves: list, args, kwargs, flags: Flags, timings: list) -> Executable:
        t0 = time.perf_counter()
        if flags.syntax_level not in self._targets:
            self.target(flags.syntax_level)
            timings.append(("ast_convert", (time.perf_counter() - t0) * 1e3))
            t0 = time.perf_counter()
        fn = self.target(flags.syntax_level)
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
        scope = _hooks.installed(_callee_hook(flags.syntax_level) if attr_writes else None)
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
        if flags.syntax_level == "STRICT":  # MindSpore's STRICT graphs return a dict as the tuple of its values
            traced.out_spec = _dicts_as_tuples(traced.out_spec)
        stages = [("trace", traced.graph)]
        timings.append(("trace", (time.perf_counter() - t0) * 1e3))
        level = flags.jit_level
        graph = run_pipeline(traced.graph, on_stage=lambda name, g: stages.append((name, g)), level=level)
        timings.extend((f"pass:{name}", sec * 1e3) for name, sec in _pipeline.LAST_TIMINGS.items())
        t0 = time.perf_counter()
        ex = Executable(traced, graph, leaves, stages, level)
        if not dispatch._tapes:  # the entry this call runs (generated on first use), made here: timed as codegen
            if not kwargs and flags.precision is None and _prekey(args) is not None:
                ex.fast_entry(args)  # (lookup registers it for the fast path)
            else:
                _ = ex.gen
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


def _dicts_as_tuples(spec):
    """An output spec whose dicts (at any depth) become tuples of their values, as STRICT returns them."""
    if not isinstance(spec, tuple) or not spec or not isinstance(spec[0], str):
        return spec  # a Slot
    tag = spec[0]
    if tag == "dict":
        return ("tuple", tuple, [_dicts_as_tuples(v) for _, v in spec[2]])
    if tag in ("tuple", "namedtuple", "list", "node"):
        return (tag, spec[1], [_dicts_as_tuples(x) for x in spec[2]])
    return spec  # "pyscalar", "const"


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

    def __init__(self, jf: JitFunction, instance, st: State):
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
    def entries(self) -> dict:
        """The compiled entries of the whole method (every instance's; a key's ``instance`` names its own)."""
        return self._jf.entries

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

    @property
    def schedule(self) -> str:
        """The two executor streams of the generated code (``inter_op_parallel_num=2``; empty on one stream)."""
        return self.executable.gen.schedule

    def __str__(self) -> str:
        parts = [f"== {name} ==\n{text}" for name, text in self.stages]
        streams = [f"== two streams ==\n{self.schedule}"] if self.schedule else []
        return "\n".join(parts + [f"== generated source ==\n{self.source}"] + streams)


def compile_graph(fn, args: tuple, kwargs: dict | None = None, jit_level: str = "O0") -> Executable:
    """A fresh compile of ``fn`` (a Cell, a plain or jitted function or method) for these arguments at
    ``jit_level``, outside any cache the user's own calls use: ``.graph`` is the optimized IR, ``.traced.sources``
    says which graph input is which argument leaf or Parameter. Used by model export (``sprout.deploy``)."""
    inst = None
    if hasattr(fn, "construct") and not isinstance(fn, (types.FunctionType, JitFunction, BoundJit)):
        inst, fn = fn, type(fn).construct
    elif isinstance(fn, BoundJit):
        inst, fn = fn._inst, fn._jf.fn
    elif isinstance(fn, types.MethodType):
        inst, fn = fn.__self__, fn.__func__
    if isinstance(fn, JitFunction):
        fn = fn.fn
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"compile_graph: expects a Cell or a function, got {type(fn).__name__}")
    jf = JitFunction(fn, _options("ast", jit_level, 0, False, "", {}))
    if inst is not None:
        return jf.__get__(inst, type(inst)).explain(*args, **(kwargs or {})).executable
    return jf.explain(*args, **(kwargs or {})).executable


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
    where the CPU wins come from; its cost model gives small tensors only tiered numba kernels (docs/fusion.md)."""
    opts = _options(capture_mode, jit_level, dynamic, fullgraph, backend, options)

    def wrap(func):
        if isinstance(func, (JitFunction, BoundJit)):
            return func
        if opts["capture_mode"] == "bytecode":
            return _wrap_bytecode(func, opts["fullgraph"], opts["jit_level"])
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


def _wrap_bytecode(func, fullgraph: bool, jit_level: str):
    """PIJit: the same decorator forms, dispatched to the bytecode capture front-end."""
    from ..capture.bytecode import BytecodeFunction, compile_bytecode

    def make(fn):
        return compile_bytecode(fn, fullgraph=fullgraph, jit_level=jit_level)

    if isinstance(func, BytecodeFunction):
        return make(func)
    if isinstance(func, type):  # a Cell class
        if not hasattr(func, "construct"):
            raise TypeError(f"jit: a class must be a Cell subclass with construct, got {func.__name__}")
        func.construct = make(func.__dict__.get("construct", func.construct))
        return func
    if hasattr(func, "construct") and not isinstance(func, types.FunctionType):  # a Cell instance
        raw = getattr(func.construct, "__func__", func.construct)
        return types.MethodType(make(raw), func)
    if isinstance(func, types.MethodType):
        return types.MethodType(make(func.__func__), func.__self__)
    if not isinstance(func, types.FunctionType):
        raise TypeError(f"jit: expects a function, method or Cell, got {type(func).__name__}")
    return make(func)  # BytecodeFunction binds like a function in a class body


_graph_mode_jits: dict = {}  # construct function -> its GRAPH_MODE JitFunction


def graph_mode_entry(cell) -> BoundJit:
    """The compiled ``construct`` that GRAPH_MODE calls of ``cell`` run: one AST-capture JitFunction per
    ``construct`` (the Cell's own ``set_jit_config`` resolved per call), bound to ``cell``. Calling it runs the
    graph whatever the execution mode; ``.explain(*args)`` compiles for those inputs without running."""
    construct = type(cell).construct
    if isinstance(construct, JitFunction):
        jf = construct
    else:
        jf = _graph_mode_jits.get(construct)
        if jf is None:
            jf = _graph_mode_jits[construct] = JitFunction(construct, _options("ast", "", 0, False, "", {}),
                                                           cell_config=True)
    return jf.__get__(cell, type(cell))


def run_cell_graph_mode(cell, args: tuple, kwargs: dict):
    """GRAPH_MODE: run ``cell``'s compiled construct (called by ``Cell.__call__``)."""
    return graph_mode_entry(cell)(*args, **kwargs)


jit.stats = _cache.stats
jit.reset_stats = _cache.reset_stats
jit.explain = explain
