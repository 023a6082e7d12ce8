"""PIJit at run time: guarded entries per (code object, resume offset), segment compilation, the
replay loop (compiled segment, Python instruction, compiled segment ...) and the public report."""
from __future__ import annotations

import functools
import linecache
import types
from typing import Any, NamedTuple

import numpy as np

from ...backend import pool as _pool
from ...backend.buffers import store
from ... import context
from ...autodiff.compiled import CompiledGraph
from ...core import dispatch
from ...core.pytree import NODES, rebuild
from ...core.tensor import Tensor
from ...ir.builder import Tracer
from ...ir.effects import has_io
from ...ir.scalars import ScalarTracer
from ...passes.pipeline import default_level
from ...core.errors import JitSyntaxError, SourceLoc
from . import py311
from .capture import Capture, Break, _is_cell, _is_library_code, _is_sprout
from .executor import UNBOUND, Frame, Real, Return
from .guards import SymIter, check_part, exit_part, fast_part, guard_text, link, method_recipe, path_key
from .py311 import NULL
from .report import BreakRecord, GuardFailure, Report

# entries kept per resume point (LRU); ask for a context flag "pijit_cache_size" to replace it
_new = object.__new__
EMPTY: list = []
MISS = object()   # what a fused fast function returns when its guards fail (or a tape records)
_STALE: list = []  # CodeRuntime.first after set_context: no entry answers before run() checks the flags
_FLAG_TABLES = 8   # entry tables kept per runtime, one per resolved SegmentFlags (LRU)


class SegmentFlags(NamedTuple):
    """The resolved settings a captured segment bakes in: its pipeline level (the decorator's, else the
    context's), the syntax level (``context.jit_syntax_level()``: AST-jitted callees are converted with it) and the
    mixed-precision policy active at the call (its casts are recorded into the graph)."""

    jit_level: str
    syntax_level: str
    precision: Any
    streams: int = 1  # executor streams its generated code is scheduled on (``backend.pool.streams()``)


def flags_change(old: tuple, new: tuple) -> str:
    """'the compile flags changed: jit_level O0 -> O1' for two flag tuples of one NamedTuple type."""
    changed = [f"{name} {a} -> {b}" for name, a, b in zip(type(new)._fields, old, new) if a != b]
    return f"the compile flags changed: {', '.join(changed)}"


class GraphBreakError(JitSyntaxError):
    """``fullgraph=True`` and the function has a graph break: file:line, the source line and why."""


# ---- report (records in report.py) ------------------------------------------------------------------
_REPORT = Report()
# Public hook: fn(record: BreakRecord) for every graph break recorded (the process-wide record, its count
# already incremented: count == 1 the first time this break is seen since the last reset_report()).
break_listeners: list = []


def report() -> Report:
    """The process-wide PIJit report (every jitted function adds to it)."""
    return _REPORT


def reset_report() -> None:
    global _REPORT
    _REPORT = Report()
    for rt in _RUNTIMES.values():
        rt.report = Report()


_LOCS: dict = {}


def _loc(code: types.CodeType, offset: int) -> SourceLoc:
    """The SourceLoc of an instruction (cached: nodes of every capture point at them)."""
    key = (code, code.co_filename, offset)  # equal code objects of two files: each keeps its own file
    loc = _LOCS.get(key)
    if loc is None:
        line, col, end = py311.positions(code, offset)
        line = line or code.co_firstlineno
        loc = _LOCS[key] = SourceLoc(code.co_filename, line, col,
                                                linecache.getline(code.co_filename, line), end)
    return loc


# ---- entries -------------------------------------------------------------------------------------------
class Entry:
    """One captured segment: ``check`` (guards + input fetch), the compiled graph, ``exit`` (rebuilds
    the frame or the return value), and what follows (return, or the Python instruction at ``pc``)."""

    __slots__ = ("check", "fn", "exit", "ret", "pc", "kwnames", "n_out", "updates", "cg", "guards", "graph", "source",
                 "const_outs", "hits", "fast")

    def run(self, L, S, E, inputs):
        fn = self.fn
        if fn is None:
            return self.exit(L, S, E, EMPTY)
        if dispatch._tapes:
            return self.exit(L, S, E, self.run_taped(inputs))
        if dispatch._holders and self.updates:  # tapes keep the values their records read
            for idx in self.updates:
                dispatch.will_write(inputs[idx])
        res = fn(*[t._data for t in inputs])
        n = self.n_out
        if n == 1 and not self.updates and not self.const_outs:
            a = res[0]
            t = _new(Tensor)
            t._data = a if a.__class__ is np.ndarray else np.asarray(a)
            return self.exit(L, S, E, (t,))
        outs = []
        for k in range(n):
            a = res[k]
            t = _new(Tensor)
            t._data = a if a.__class__ is np.ndarray else np.asarray(a)
            outs.append(t)
        if self.const_outs:
            for k in self.const_outs:
                outs[k]._data = np.array(outs[k]._data)
        if self.updates:
            for k, idx in enumerate(self.updates):
                v = res[n + k]
                store(inputs[idx], v)  # into the array the tensor holds, as an eager assign does
        return self.exit(L, S, E, outs)

    def run_taped(self, inputs) -> list:
        """Under a gradient tape the segment is one differentiable call: its forward also returns the
        residuals, its backward is compiled from them (the segment never runs twice)."""
        cg = self.cg
        if cg is None:
            cg = self.cg = CompiledGraph(self.graph, source=self.source)
        outs = cg.call_differentiable(list(inputs))
        for k in self.const_outs:
            outs[k]._data = np.array(outs[k]._data)
        return outs


def _build_entry(cap: Capture, kind: str, payload) -> Entry:
    from ...backend.pycodegen import generate
    from ...passes import run_pipeline

    outs: list = []
    out_index: dict = {}
    memo: dict = {}
    conv, fresh, remakes = cap.conv_src, cap.fresh_ids, cap.remakes

    def recipe(v):
        if v is UNBOUND:
            return ("U",)
        if v is NULL or v is None or v.__class__ in (bool, int, float, str):
            return ("K", v)
        i = id(v)
        r = memo.get(i)
        if r is not None:
            return r
        if isinstance(v, Tracer):
            p = conv.get(i)
            # an input, unchanged or written in place (the write-back puts the new value into its object,
            # which stays the frame's: later writes in Python or in the next segment reach the caller's tensor)
            base = cap.builder.views.base_of(v) if kind != "return" else None
            if p is not None and (cap.builder.origin(v) is v._var or cap.builder.writes_back(v)
                                  or id(v) in cap.aliases.related):  # related: a view of another input's buffer
                r = ("P", p)
            elif base is not None and base[1] is not None:
                # a view crossing the graph break: made again from (the new value of) what it was taken of, so
                # that it shares that buffer as eagerly (later writes in Python or the next segment reach it)
                r = ("VIEW", recipe(base[0]), base[1])
            else:
                if i not in out_index:
                    out_index[i] = len(outs)
                    outs.append(v)
                r = ("O", out_index[i])
                if isinstance(v, ScalarTracer):  # a Python number carried by a graph loop: a Python number again
                    r = ("CALL", ("K", v.py_kind), [r], [])
        elif i in conv:
            r = ("P", conv[i])
        elif isinstance(v, list):
            r = ("LST", [])
            memo[i] = r
            r[1].extend(recipe(x) for x in v)
        elif isinstance(v, tuple):
            r = ("T", type(v), [recipe(x) for x in v])
        elif isinstance(v, dict):
            r = ("DCT", [])
            memo[i] = r
            r[1].extend((k, recipe(x)) for k, x in v.items())
        elif isinstance(v, SymIter):
            r = ("IT", ("LST", [recipe(x) for x in v.items]), v.pos)
        elif isinstance(v, (types.MethodType, types.BuiltinMethodType)) and \
                not isinstance(getattr(v, "__self__", None), (types.ModuleType, type(None))):
            r = method_recipe(v, recipe)
        elif isinstance(v, types.CellType) and i in fresh:
            try:
                r = ("CELL", recipe(v.cell_contents))
            except ValueError:  # an empty cell; the id keeps the recipe a new tuple (a constant ("CELL", None)
                r = ("CELL", None, i)  # is one object, and the exit makes one temp per recipe object)
        elif v.__class__ in NODES:  # a sparse tensor: made again from its tensors
            node = NODES[v.__class__]
            r = ("CALL", ("K", rebuild), [("K", v.__class__), ("K", getattr(v, node.aux))] +
                 [recipe(x) for x in node.children(v)], [])
        elif i in remakes:  # made by sprout code from this graph's values: the exit makes it again
            fn, args, kwargs = remakes[i]
            r = ("CALL", recipe(fn), [recipe(x) for x in args], [(k, recipe(x)) for k, x in kwargs.items()])
        elif isinstance(v, types.FunctionType) and i in fresh:
            r = ("FN", v.__code__, v.__globals__, v.__name__,
                 recipe(v.__defaults__) if v.__defaults__ is not None else None,
                 [recipe(c) for c in (v.__closure__ or ())],
                 recipe(v.__kwdefaults__) if v.__kwdefaults__ is not None else None)
        else:
            r = ("K", v)
        memo[i] = r
        return r

    f = cap.top
    e = Entry()
    e.hits = 0
    if kind == "return":
        ret_r = recipe(payload)
        e.ret, e.pc, e.kwnames = True, None, ()
        exit_args = (None, None, ret_r, UNBOUND)
    else:
        # a slot still holding the object the segment started with passes it through, also when its conversion
        # was begun (``converted_slots``) and broke off (fuzz-29: ``x`` sharing memory with ``y`` was otherwise
        # held as the first call's constant); never a slot the segment assigned (fuzz-30: ``i5 = 0`` when i5 was
        # the cached 0 left the next call's i5 = 2 in place)
        stored = cap.stored_slots
        loc_r = [("P", ("L", k)) if v is cap.orig[k] and k not in stored and (k not in cap.converted_slots or (
                     isinstance(v, Tensor) and not isinstance(v, Tracer))) else recipe(v)
                 for k, v in enumerate(f.locals)]
        stk_r = [recipe(v) for v in f.stack]
        exc_r = recipe(f.exc) if f.exc is not None else None
        e.ret, e.pc, e.kwnames = False, payload, f.kwnames
        exit_args = (loc_r, stk_r, None, UNBOUND, exc_r)
    graph = cap.builder.finish(outs)
    e.fn, e.graph, e.cg, e.updates, e.const_outs, e.n_out = None, None, None, (), (), len(outs)
    inputs: list = []
    e.source = graph  # as captured: what gradients differentiate (autodiff.compiled.CompiledGraph)
    if outs or graph.updates or has_io(graph):  # a segment that only draws random numbers or prints still runs
        graph = run_pipeline(graph, level=cap.rt.jit_level or None)
        e.graph = graph
        e.fn = generate(graph).function("graph_fn")
        for v in graph.inputs:
            src = cap.builder.sources.get(v.uid)
            inputs.append(("H", src[1]) if isinstance(src, tuple) and src[0] == "param" else src)
        pos = {v.uid: k for k, v in enumerate(graph.inputs)}
        e.updates = tuple(pos[t.uid] for t, _ in graph.updates)
        e.const_outs = tuple(k for k, o in enumerate(graph.outputs)
                             if not hasattr(o, "uid") or o.uid in pos)
    roots = cap.aliases.roots()
    if cap.builder._updates and len(roots) > 1:  # written in place: captured with no two sharing memory
        cap.guard(("APART", roots[0], roots))
    parts = [check_part(cap.guards, inputs), exit_part(*exit_args)]
    arity = cap.rt.arity
    if kind == "return" and cap.pc == 0 and arity >= 0:
        fast = fast_part(cap.guards, inputs, ret_r, arity, e.fn, e.n_out, e.updates, e.const_outs, MISS)
        if fast is not None:
            parts.append(fast)
    fns = link(parts)
    e.check, e.exit = fns[0], fns[1]
    e.fast = fns[2] if len(fns) > 2 else None
    e.guards = list(cap.guards)
    return e


def _no_guards(L, S):
    return ()


def _same_frame(L, S, E, outs):
    return L, S, E


def _python_entry(pc: int, kwnames: tuple) -> Entry:
    """The segment at ``pc`` breaks at its first instruction: nothing to compile or guard (running an
    instruction as Python is right for any values), the frame passes through unchanged."""
    e = Entry()
    e.check, e.exit, e.fn, e.fast, e.graph, e.cg, e.source = _no_guards, _same_frame, None, None, None, None, None
    e.ret, e.pc, e.kwnames, e.n_out, e.updates, e.const_outs, e.guards, e.hits = False, pc, kwnames, 0, (), (), [], 0
    return e


# ---- per-code runtime ----------------------------------------------------------------------------------
class CodeRuntime:
    """The entries of one code object, keyed by the offset where a segment starts (0 = the call)."""

    def __init__(self, code: types.CodeType, fullgraph: bool = False, jit_level: str = ""):
        self.code = code
        self.fullgraph = fullgraph
        self.jit_level = jit_level     # the decorator's level ("": the context's, read when a segment compiles)
        self.entries: dict[int, list] = {0: []}
        self.first = self.entries[0]
        self.fast = None               # the fused fast function of the last whole-function entry used
        self.arity = py311.simple_arity(code)
        self.pad = [UNBOUND] * (py311.n_localsplus(code) - max(self.arity, 0))
        self.exc_table = py311.exception_table(code)
        self.shapes: dict = {}
        self.no_dynamic: set = set()
        self.float_inputs: dict = {}   # pc -> path keys of floats that are graph inputs there
        self.report = Report()
        self.flags: SegmentFlags | None = None  # what ``entries`` were captured under
        self.tables: dict = {}         # SegmentFlags -> entries, least recently used first

    # -- flags
    def resolve_flags(self) -> SegmentFlags:
        ctx = _CONTEXT_FLAGS
        if not ctx:  # the context's level and streams, read once after each set_context
            ctx.extend((default_level(), _pool.streams()))
        # the syntax level as AST jit entries resolve it (MS_DEV_JIT_SYNTAX_LEVEL, read at each call, beats the context)
        return SegmentFlags(self.jit_level or ctx[0], context.jit_syntax_level(), dispatch.current_policy(), ctx[1])

    def use_flags(self, flags: SegmentFlags) -> None:
        """Make the entries captured under ``flags`` current (none yet: a miss explained by the change)."""
        old = self.flags
        entries = self.tables.pop(flags, None)
        if entries is None:
            entries = {0: []}
            if old is not None:
                reason = flags_change(old, flags)
                loc = _loc(self.code, 0)
                for rep in (self.report, _REPORT):
                    rec = rep.guard_failures.get((self.code.co_qualname, reason))
                    if rec is None:
                        rec = rep.guard_failures[(self.code.co_qualname, reason)] = GuardFailure(
                            self.code.co_qualname, reason, loc.filename, loc.lineno)
                    rec.count += 1
        self.tables[flags] = entries
        while len(self.tables) > _FLAG_TABLES:
            dropped = self.tables.pop(next(iter(self.tables)))
            self._count("evictions", sum(map(len, dropped.values())))
        self.entries, self.flags, self.fast = entries, flags, None

    # -- dynamic shapes
    def dynamic_axes(self, pc: int) -> dict:
        if pc in self.no_dynamic:
            return {}
        after = context.get_context("jit_dynamic_after")
        out = {}
        for (p_pc, path), sizes in self.shapes.items():
            if p_pc == pc:
                axes = {a for a, s in enumerate(sizes) if len(s) >= after}
                if axes:
                    out[path_key(path)] = axes
        return out

    def note_shapes(self, pc: int, guards: list) -> None:
        for g in guards:
            if g[0] == "TEN":
                sizes = self.shapes.setdefault((pc, path_key(g[1])), [set() for _ in g[3]])
                if len(sizes) == len(g[3]):
                    for a, d in enumerate(g[3]):
                        if d is not None:
                            sizes[a].add(d)

    # -- counters
    def _count(self, name: str, n: int = 1) -> None:
        setattr(self.report, name, getattr(self.report, name) + n)
        setattr(_REPORT, name, getattr(_REPORT, name) + n)

    def _record_break(self, b: Break) -> None:
        code, off = b.where
        loc = _loc(code, off)
        reason = b.reason
        inner = b.inner
        while inner is not None:
            icode, ioff = inner.where
            reason += f"; inside: {inner.reason} at {icode.co_filename}:{_loc(icode, ioff).lineno}"
            inner = inner.inner
        key = (loc.filename, loc.lineno, reason)
        for rep in (self.report, _REPORT):
            rec = rep.breaks.get(key)
            if rec is None:
                rec = rep.breaks[key] = BreakRecord(reason, loc.filename, loc.lineno, loc.source_line)
            rec.count += 1
        for fn in tuple(break_listeners):
            fn(rec)

    def _record_guard_failure(self, entry: Entry, index: int, pc: int) -> None:
        g = entry.guards[index - 1] if 0 < index <= len(entry.guards) else None
        if pc and g is not None and g[0] == "V" and g[2].__class__ is float:
            self.float_inputs.setdefault(pc, set()).add(path_key(g[1]))
        text = guard_text(entry.guards[index - 1]) if 0 < index <= len(entry.guards) else "?"
        loc = _loc(self.code, pc)
        key = (self.code.co_qualname, text)
        for rep in (self.report, _REPORT):
            rec = rep.guard_failures.get(key)
            if rec is None:
                rec = rep.guard_failures[key] = GuardFailure(self.code.co_qualname, text, loc.filename, loc.lineno)
            rec.count += 1

    # -- capture
    def capture(self, frame: Frame, pc: int) -> Entry:
        dyn = self.dynamic_axes(pc)
        cap = Capture(self, frame, pc, dyn)
        kind, payload = cap.start(pc)
        if kind == "break" and cap.used_dynamic and _dynamic_failure(payload[0]):
            self.no_dynamic.add(pc)
            cap = Capture(self, frame, pc, {})
            kind, payload = cap.start(pc)
        self._count("captures")
        if kind == "break":
            b, b_pc = payload
            if self.fullgraph:
                inner = b.innermost()
                code, off = inner.where
                raise GraphBreakError(f"graph break (fullgraph=True): {inner.reason}", _loc(code, off),
                                      "remove fullgraph=True to run this part as Python, or rewrite it with "
                                      "tensor ops") from None
            self._record_break(b)
            payload = b_pc
        if kind == "break" and payload == pc and not cap.builder.nodes:
            entry = _python_entry(pc, cap.top.kwnames)
        else:
            self.note_shapes(pc, cap.guards)
            entry = _build_entry(cap, kind, payload)
        if entry.fn is not None:
            self._count("compiles")
        lst = self.entries.setdefault(pc, [])
        lst.insert(0, entry)
        if len(lst) > context.get_context("pijit_cache_size"):
            lst.pop()
            self._count("evictions")
        return entry

    # -- running
    def lookup(self, f: Frame, pc: int):
        lst = self.entries.get(pc)
        if lst:
            first_fail = 0
            for i, e in enumerate(lst):
                r = e.check(f.locals, f.stack)
                if r.__class__ is tuple:
                    if i:
                        lst.insert(0, lst.pop(i))
                    e.hits += 1
                    self.report.hits += 1
                    _REPORT.hits += 1
                    if not pc and self.first is not _STALE:
                        self.fast = e.fast
                    return e, r
                if i == 0:
                    first_fail = r
            self._count("misses")
            self._record_guard_failure(lst[0], first_fail, pc)
        else:
            self._count("misses")
        e = self.capture(f, pc)
        if not pc and self.first is not _STALE:
            self.fast = e.fast
        r = e.check(f.locals, f.stack)
        if r.__class__ is not tuple:
            raise AssertionError(f"PIJit: a fresh entry failed its own guard {guard_text(e.guards[r - 1])}")
        return e, r

    def run(self, fn: types.FunctionType, args, kwargs):
        flags = self.resolve_flags()
        if flags != self.flags:
            self.use_flags(flags)
        # the per-call fast path (BytecodeFunction.__call__) may answer only for calls without a policy
        self.first = self.entries[0] if flags.precision is None else _STALE
        if not kwargs and len(args) == self.arity:
            f = Frame(fn, [*args, *self.pad])
        else:
            f = Frame(fn, py311.bind_arguments(fn, self.code, tuple(args), kwargs, UNBOUND))
        pc = 0
        while True:
            e, r = self.lookup(f, pc)
            out = e.run(f.locals, f.stack, f.exc, r)
            if e.ret:
                return out
            f.locals, f.stack, f.exc = out
            f.kwnames = e.kwnames
            try:
                pc = self.python_step(f, e.pc)
            except Return as ret:  # a segment ended just before the return: the return ran as Python
                return ret.value

    def python_step(self, f: Frame, pc: int) -> int:
        """Run the instruction at ``pc`` as Python (exceptions go to the frame's handlers)."""
        ins = f.ins[pc]
        self.report.python_steps += 1
        _REPORT.python_steps += 1
        handler = getattr(_REAL, "op_" + ins.opname, None)
        if handler is None:  # never routed to the function's own exception handlers
            raise JitSyntaxError(f"PIJit cannot execute the opcode {ins.opname}", _loc(self.code, pc),
                                 "rewrite this statement, or call the function without jit")
        try:
            nxt = handler(f, ins)
        except Return:  # the function returned: not an exception of the user's code
            raise
        except BaseException as exc:
            h = py311.find_handler(self.exc_table, pc)
            if h is None or not isinstance(exc, Exception):
                raise
            target, depth, lasti = h
            del f.stack[depth:]
            if lasti:
                f.stack.append(pc)
            f.stack.append(exc)
            return target
        return ins.next if nxt is None else nxt


def _dynamic_failure(b: Break) -> bool:
    while b is not None:
        if b.dynamic_failure:
            return True
        b = b.inner
    return False


_RUNTIMES: dict = {}


def _flags_changed(key: str) -> None:
    """``set_context`` changed a flag: the resolved flags of a segment may differ now, so no runtime's fast
    path may answer before ``CodeRuntime.run`` has resolved them again (and switched entry tables)."""
    _CONTEXT_FLAGS.clear()
    for rt in _RUNTIMES.values():
        rt.fast = None
        rt.first = _STALE


_CONTEXT_FLAGS: list = []


context.on_change(_flags_changed)


_LEVEL = [""]  # the jit_level of the PIJit function running: functions its Python parts call inherit it


def runtime_for(fn: types.FunctionType, fullgraph: bool = False, jit_level: str | None = None) -> CodeRuntime:
    # closures of one code object (functions made by one factory) read their free variables from the
    # cells captured in their entries: each closure gets its own runtime (its cells are kept alive by it).
    # Code objects compare by value (not by file), so two modules defining the same function would share
    # entries that read the first module's globals: the key is the identity of the code and of the globals
    # (the runtime keeps both alive, so the ids stay theirs).
    closure = fn.__closure__
    level = _LEVEL[0] if jit_level is None else jit_level
    code, glb = fn.__code__, fn.__globals__
    key = (id(code), id(glb), fullgraph, level, tuple(map(id, closure)) if closure else ())
    rt = _RUNTIMES.get(key)
    if rt is None:
        rt = _RUNTIMES[key] = CodeRuntime(code, fullgraph, level)
        rt.closure, rt.globals = closure, glb
    return rt


class _Calls:
    """How the Python parts call functions: user functions go back through PIJit."""

    def call_real(self, fn, args, kwargs):
        if isinstance(fn, types.FunctionType) and _capturable(fn):
            return runtime_for(fn).run(fn, args, kwargs)
        if isinstance(fn, types.MethodType) and isinstance(fn.__func__, types.FunctionType) and \
                _capturable(fn.__func__):
            return runtime_for(fn.__func__).run(fn.__func__, [fn.__self__, *args], kwargs)
        if not isinstance(fn, type) and _is_cell(fn) and not _is_sprout(type(fn)):
            construct = type(fn).construct
            if isinstance(construct, types.FunctionType) and _capturable(construct):
                return runtime_for(construct).run(construct, [fn, *args], kwargs)
        return fn(*args, **kwargs)


def can_run(code: types.CodeType) -> bool:
    """Whether PIJit's Python parts can execute every instruction of ``code`` (``match`` statements and
    ``except*`` cannot: such a function runs as plain Python)."""
    ok = _CAN_RUN.get(code)
    if ok is None:
        ok = _CAN_RUN[code] = all(hasattr(_REAL, "op_" + ins.opname) for ins in py311.decode(code).values())
    return ok


_CAN_RUN: dict = {}


def _capturable(fn: types.FunctionType) -> bool:
    return not _is_sprout(fn) and not _is_library_code(fn.__code__) and py311.is_plain_function_code(fn.__code__) \
        and can_run(fn.__code__)


_REAL = Real(_Calls())


# ---- the jitted function ---------------------------------------------------------------------------------
def _calling(fn):
    """A user-level function calling ``fn`` (sprout's own code is called by captured code, not captured); a
    closure, so each ``fn`` has its own runtime."""
    entry = _ENTRY_FACTORY(fn)
    entry.__qualname__ = entry.__name__ = fn.__name__
    return entry


_ns: dict = {"__name__": "__pijit_entry__"}
exec(compile("def make(callee):\n    def entry(*args, **kwargs):\n        return callee(*args, **kwargs)\n"
             "    return entry\n", "<jit of a sprout function>", "exec"), _ns)
_ENTRY_FACTORY = _ns.pop("make")


class BytecodeFunction:
    """``jit(fn, capture_mode="bytecode")``: calls run through PIJit's guarded entries."""

    def __init__(self, fn, fullgraph: bool = False, jit_level: str = ""):
        if isinstance(fn, types.MethodType):
            self._self, fn = fn.__self__, fn.__func__
        else:
            self._self = None
        if not isinstance(fn, types.FunctionType):
            raise TypeError(f"PIJit needs a Python function, got {type(fn).__name__}")
        if not py311.is_plain_function_code(fn.__code__):
            raise TypeError(f"PIJit cannot capture the generator or coroutine {fn.__qualname__}")
        if _is_sprout(fn):  # e.g. jit(ops.grad(f)): captured as a user's call of it is (never stepped through)
            fn = _calling(fn)
        self.fn = fn
        self.fullgraph = fullgraph
        self.jit_level = jit_level
        self.rt = runtime_for(fn, fullgraph, jit_level)
        functools.update_wrapper(self, fn)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __call__(self, *args, **kwargs):
        if self._self is not None:
            args = (self._self, *args)
        if dispatch._builders:  # inside another graph being built: the ops go to that graph
            return self.fn(*args, **kwargs)
        rt = self.rt
        if not kwargs and len(args) == rt.arity and not dispatch._slow:
            fast = rt.fast
            if fast is not None:
                out = fast(*args)
                if out is not MISS:
                    rt.report.hits += 1
                    _REPORT.hits += 1
                    return out
            L = [*args, *rt.pad]
            first = rt.first
            if first:
                e = first[0]
                r = e.check(L, EMPTY)
                if r.__class__ is tuple and e.ret:
                    e.hits += 1
                    rt.report.hits += 1
                    _REPORT.hits += 1
                    return e.run(L, EMPTY, None, r)
        if rt.jit_level == _LEVEL[0]:
            return rt.run(self.fn, args, kwargs)
        outer, _LEVEL[0] = _LEVEL[0], rt.jit_level
        try:
            return rt.run(self.fn, args, kwargs)
        finally:
            _LEVEL[0] = outer

    def report(self) -> Report:
        """This function's own counters and records."""
        return self.rt.report

    def entries(self) -> dict:
        """offset -> number of cached entries (0 is the call itself)."""
        return {pc: len(v) for pc, v in self.rt.entries.items() if v}

    def graphs(self) -> list:
        """The IR of every cached segment graph (printable)."""
        return [e.graph for v in self.rt.entries.values() for e in v if e.graph is not None]


def compile_bytecode(fn, *, fullgraph: bool = False, jit_level: str = "") -> BytecodeFunction:
    """Entry point for ``jit(fn, capture_mode="bytecode")`` / ``jit(fn, mode="PIJit")``. ``jit_level``: the
    pipeline level of its segments ("": the context's, read when a segment compiles)."""
    if isinstance(fn, BytecodeFunction):
        if fn.fullgraph == fullgraph and fn.jit_level == jit_level:
            return fn
        return BytecodeFunction(fn.fn, fullgraph, jit_level)
    return BytecodeFunction(fn, fullgraph, jit_level)
