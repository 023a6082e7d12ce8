"""The differential checker: a fuzz program runs eagerly, under ``jit`` (AST) and ``jit(capture_mode="bytecode")``;
forward outputs, Parameter / argument state, grad-of-jit and jit-of-grad are compared over two input sets.

Outcomes per (check, mode): ``agree``; ``disagree`` (values, types, dtypes, shapes or state differ);
``refused`` (jit raised a located ``JitSyntaxError`` family error although eager ran the program);
``crash`` (jit raised anything else); ``hang`` (a time limit passed). A program eager rejects is
``invalid`` (not a test case).

Time limit: ``TIME_LIMIT`` seconds of the process's CPU time per run (``time_limit``, ``ITIMER_PROF``), not
wall-clock: on the shared machine a correct but slow program no longer shows up as a hang when other processes
take the cores. A run that waits without computing (a deadlock) is stopped by a wall-clock backstop of
``WALL_FACTOR`` times the limit. The CPU time counts every thread of the process (NumPy's BLAS threads too).

Tolerance: float32 results may differ from eager by the rounding of reordered operations, nothing more.
First the jit result must lie within ``8 * eps32 * max|eager|`` of eager (per output array). If not, the
program's own float32 rounding noise is measured by running it eagerly in float64 (``shadow``): the bound
becomes ``8 * (max|eager32 - eager64| + spread + eps32 * max|eager64|)`` — a reordering's error is of the order
of the rounding error eager itself makes. ``spread`` is that rounding error measured where eager happens to make
none: an output that cancels exactly (``b - b`` summed in two places, a gradient that is 0 by symmetry) is 0 in
eager and in float64, while jit, summing the same terms in another order, leaves ``eps32 * |terms|``. The
float64 shadow runs ``PERTURB_RUNS`` more times with every arithmetic op's result multiplied by ``1 + eps32 * u``
(u uniform in [-1, 1], Monte Carlo arithmetic; not the ops whose results are exact, such as min/max, abs or
sign, whose backward masks compare the result with the input), which moves a cancelling sum by the size of its
terms' rounding;
``spread`` is the largest such move. It is dropped when a perturbed run moves an output by much more than
rounding could (a branch on a value near its threshold went the other way), keeping the tight bound. A wrong
value stays wrong: it differs by more than the terms' rounding (tests/fuzz/test_harness_tolerance.py).
Integers, booleans and Python ints compare exactly.

Float32 overflow (``invalid``, "float32 overflow"): a check whose only difference is where values are non-finite
(jit NaN or inf where eager is finite, or the other way) is numerically invalid when eager's own float32 run of that
check makes an infinity out of finite operands (an op's exact result lies beyond float32's range, or at a pole):
from there on which value is inf or NaN depends on how the dead or cancelling terms are evaluated, not on the
program (fuzz-27: eager's tape skips the last iteration's unused loop value, 0 * inf in a jitted loop's backward
gives NaN). Found out by running eager again under ``overflow_watch`` only when such a difference shows; a
program that makes no infinity keeps every NaN-vs-finite difference a disagreement (test_harness_overflow.py).

Compiled or not: agreement says nothing about how much ran as graphs. Each (check, mode) outcome also says
``compiled``: "graph" (whole graphs), "host" (AST capture refused a function and jit_syntax_level=LAX, the default,
ran it as host segments: Python between graph segments) or "break" (PIJit graph breaks), with the normalized reasons
(compile_watch.py); a "host" check is run once more under STRICT, which must refuse it (``strict``). The run
summary counts them per check and mode and lists the commonest reasons (runner.Summary.compilation)."""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import signal
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import sprout as ms

try:
    from sprout.core.errors import JitSyntaxError
except ImportError:  # before the errors module moved down to core/
    from sprout.capture.errors import JitSyntaxError

from .compile_watch import compile_watch
from .program import Arg, Program, SourceProgram

MODES = ("ast", "bytecode")
CHECKS = ("fwd", "grad_of_jit", "jit_of_grad")
SEEDS = {"a": 11, "b": 12}  # the global seed set before each call (dropout masks)
EPS32 = float(np.finfo(np.float32).eps)
FACTOR = 8.0
PERTURB_RUNS = 2   # Monte Carlo arithmetic runs of the float64 shadow (see the module docstring)
PERTURB_LIMIT = 1e4  # a perturbed run moving an output by more than this many eps32 * (max|value| + 1): discontinuous
TIME_LIMIT = 30.0  # CPU seconds of the process per (check, mode) run: a hang, not a slow compile (time_limit)
WALL_FACTOR = 20.0  # the wall-clock backstop for a run that waits without using CPU (a deadlock)
OVERFLOW = "float32 overflow"  # the detail of a check invalid by the float32 overflow rule
_ORDER = {"agree": 0, "invalid": 0, "refused": 1, "disagree": 2, "crash": 3, "hang": 4}


class Hang(BaseException):
    """The time limit passed. Not an ``Exception``: sprout code that turns any failure into its own error (the IR
    verifier's infer check made seed 2475's time-out an ``IRError`` crash) must not swallow it."""


@dataclass
class Outcome:
    check: str
    mode: str
    status: str
    detail: str = ""
    kind: str = ""  # what differs (value/type/dtype/shape/structure/state) or the exception class
    # how much of the run compiled (``compile_watch``): "graph" (every jitted call one graph each), "host" (AST
    # capture refused a function, jit_syntax_level=LAX ran it as host segments), "break" (PIJit graph breaks);
    # ``reasons``: the normalized refusal / break reasons; ``strict``: for "host", what STRICT did ("refused",
    # or "ran" when STRICT compiled what LAX demoted -- a contradiction)
    compiled: str = ""
    reasons: tuple = ()
    strict: str = ""

    def key(self) -> tuple:
        """What identifies a failure for shrinking and deduplication."""
        return (self.check, self.mode, self.status, self.kind)


@dataclass
class Result:
    program: Program
    source: str
    outcomes: list = field(default_factory=list)
    invalid: str = ""

    @property
    def status(self) -> str:
        if self.invalid:
            return "invalid"
        return max((o.status for o in self.outcomes), key=_ORDER.get, default="agree")

    def failures(self) -> list:
        return [o for o in self.outcomes if o.status not in ("agree", "invalid")]


# ---- loading --------------------------------------------------------------------------------------
_DIR: list = []
_count = [0]


def _dir() -> str:
    if not _DIR:
        _DIR.append(tempfile.mkdtemp(prefix="sprout_fuzz_"))
    return _DIR[0]


def load(src: str):
    """Import ``src`` as a fresh module from a real file (AST capture reads the source back)."""
    h = hashlib.sha1(src.encode()).hexdigest()[:16]
    path = os.path.join(_dir(), f"fuzzprog_{h}.py")
    if not os.path.exists(path):
        with open(path + ".tmp", "w") as fh:
            fh.write(src)
        os.replace(path + ".tmp", path)
    _count[0] += 1
    name = f"fuzzprog_{h}_{_count[0]}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return mod


def unload(mod) -> None:
    sys.modules.pop(mod.__name__, None)


def forget_runtimes() -> None:
    """Drop PIJit's per-code-object runtimes of fuzz programs (they would pile up over thousands)."""
    from sprout.capture.bytecode import runtime

    d = _dir()
    for key in [k for k, rt in runtime._RUNTIMES.items() if rt.code.co_filename.startswith(d)]:
        del runtime._RUNTIMES[key]


@contextlib.contextmanager
def time_limit(seconds: float, wall_s: float | None = None):
    """Raise ``Hang`` in the block after ``seconds`` of this process's CPU time (user + system, ``ITIMER_PROF``):
    a program that is only slow because the shared machine is loaded gets its full budget. A deadlock burns no
    CPU: a wall-clock backstop (``wall_s``, default ``WALL_FACTOR`` times ``seconds``) catches it."""
    if seconds <= 0 or not hasattr(signal, "setitimer") or not _main_thread():
        yield
        return
    wall = WALL_FACTOR * seconds if wall_s is None else wall_s
    t0, c0 = time.perf_counter(), time.process_time()

    def on_cpu(signum, frame):
        raise Hang(f"no result after {seconds:g} s of CPU time ({time.perf_counter() - t0:.0f} s wall-clock)")

    def on_wall(signum, frame):
        raise Hang(f"no result after {wall:g} s wall-clock (only {time.process_time() - c0:.1f} s of CPU time: "
                   "waiting, or a heavily loaded machine)")

    old = signal.signal(signal.SIGPROF, on_cpu), signal.signal(signal.SIGALRM, on_wall)
    # re-armed every second: an alarm raised inside a GC / weakref callback is printed and dropped by Python
    signal.setitimer(signal.ITIMER_PROF, seconds, 1.0)
    signal.setitimer(signal.ITIMER_REAL, wall, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, old[0])
        signal.signal(signal.SIGALRM, old[1])


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


# ---- running --------------------------------------------------------------------------------------
def snapshot(v: Any) -> Any:
    """A detached copy: Tensors -> NumPy arrays (tagged), containers kept, Python values as they are."""
    if isinstance(v, ms.Tensor):
        return ("T", np.array(v.asnumpy(), copy=True))
    if isinstance(v, (tuple, list)):
        return (type(v).__name__, [snapshot(x) for x in v])
    if isinstance(v, dict):
        return ("dict", {k: snapshot(x) for k, x in v.items()})
    if isinstance(v, (bool, int, float)) or v is None:
        return ("py", type(v).__name__ if not isinstance(v, int) or isinstance(v, bool) else "int", v)
    return ("obj", type(v).__name__, repr(v))


def _resolve(mod, name: str):
    obj = mod
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _jit(fn, mode: str):
    return fn if mode == "eager" else ms.jit(fn, capture_mode=mode)


def run(prog: Program, src: str, check: str, mode: str, dtype=np.float32) -> list:
    """``check`` of ``prog`` in ``mode`` for both input sets: [{"out", "args", "params"}, ...]."""
    mod = load(src)
    try:
        entry = getattr(mod, prog.entry)
        params = [_resolve(mod, w) for w in prog.weights]
        if check == "fwd":
            fn = _jit(entry, mode)
        elif check == "grad_of_jit":
            inner = _jit(entry, mode)

            def loss(*a):
                return mod.fuzz_combine(inner(*a))

            fn = ms.grad(loss, grad_position=prog.grad_positions(), weights=params or None)
        else:
            fn = _jit(mod.fuzz_grad, mode)
        records = []
        for which in ("a", "b"):
            args = [a.value(which, dtype) for a in prog.args]
            ms.set_seed(SEEDS[which])
            out = fn(*args)
            records.append({"out": snapshot(out),
                            "args": [snapshot(x) for x, a in zip(args, prog.args) if a.kind == "tensor"],
                            "params": [snapshot(p) for p in params]})
        return records
    finally:
        unload(mod)


# results that are one of the inputs' values or exactly representable (no rounding to model): perturbing a
# ReduceMin's result broke its backward's ``x == min`` mask, 0/0 made the whole shadow NaN and the spread was lost
_EXACT = frozenset({"Abs", "Neg", "Sign", "CopySign", "Floor", "Ceil", "Round", "ReLU", "Maximum", "Minimum",
                    "ReduceMax", "ReduceMin", "Select", "Sort", "TopK", "MaxPool"})


@contextlib.contextmanager
def perturbed(seed: int):
    """Every arithmetic op's float result (a new array) times ``1 + eps32 * u``, u uniform in [-1, 1]."""
    from sprout.core import dispatch

    rng = np.random.default_rng(seed)

    def jiggle(t, ins):
        d = getattr(t, "_data", None)
        if d.__class__ is not np.ndarray or d.dtype.kind != "f" or any(np.may_share_memory(d, x) for x in ins):
            return
        t._data = d * (1.0 + EPS32 * rng.uniform(-1.0, 1.0, d.shape))

    def policy(op, args, attrs, bind):
        out = bind(op, args, attrs)
        if op.kind in ("elementwise", "reduce", "opaque") and not op.side_effect and op.name not in _EXACT:
            ins = [a._data for a in args if isinstance(a, ms.Tensor) and a._data.__class__ is np.ndarray]
            for t in out if isinstance(out, tuple) else (out,):
                jiggle(t, ins)
        return out

    dispatch.push_policy(policy)
    try:
        yield
    finally:
        dispatch.pop_policy(policy)


def spread(base: Any, runs: list) -> Any:
    """``base`` (a float64 shadow snapshot) with each float leaf carrying ``max |run - base|`` over ``runs``
    (perturbed shadows) as a third item; None when a run moved a value discontinuously (see the module doc)."""
    tag = base[0]
    if tag in ("tuple", "list"):
        return (tag, [spread(b, [r[1][i] for r in runs]) for i, b in enumerate(base[1])])
    if tag == "dict":
        return (tag, {k: spread(b, [r[1][k] for r in runs]) for k, b in base[1].items()})
    if tag == "T" and base[1].dtype.kind == "f" or tag == "py" and base[1] == "float":
        v = np.asarray(base[1] if tag == "T" else base[2], np.float64)
        fin = np.isfinite(v)
        move = 0.0
        for r in runs:
            w = np.asarray(r[1] if tag == "T" else r[2], np.float64)
            if w.shape != v.shape or not np.array_equal(np.isfinite(w), fin):
                return base
            move = max(move, float(np.max(np.abs(w - v)[fin], initial=0.0)))
        if move > PERTURB_LIMIT * EPS32 * (float(np.max(np.abs(v[fin]), initial=0.0)) + 1.0):
            return base
        return base + (move,)
    return base


def _spread_records(base: list | None, runs: list) -> list | None:
    if base is None or not runs:
        return base
    out = []
    for k, rec in enumerate(base):
        out.append({key: (spread(rec[key], [r[k][key] for r in runs]) if key == "out" else
                          [spread(x, [r[k][key][i] for r in runs]) for i, x in enumerate(rec[key])])
                    for key in ("out", "args", "params")})
    return out


def shadow_source(src: str) -> str:
    """The same program in float64 (the rounding-noise reference)."""
    return src.replace("np.float32", "np.float64").replace("ms.float32", "ms.float64")


# ---- comparing ------------------------------------------------------------------------------------
class Mismatch(Exception):
    def __init__(self, kind: str, where: str, msg: str, nonfinite: bool = False):
        super().__init__(f"{where}: {msg}")
        self.kind, self.where, self.nonfinite = kind, where, nonfinite


def compare(e: Any, j: Any, s: Any, where: str = "", skip_nonfinite: bool = False) -> None:
    """Raise ``Mismatch`` where ``j`` (jit) differs from ``e`` (eager); ``s`` is the float64 shadow or None;
    ``skip_nonfinite``: float positions where either is non-finite are not compared (a float32 overflow)."""
    if e[0] != j[0]:
        raise Mismatch("type", where, f"eager gives {_kind(e)}, jit gives {_kind(j)}")
    tag = e[0]
    if tag in ("tuple", "list"):
        if len(e[1]) != len(j[1]):
            raise Mismatch("structure", where, f"{len(e[1])} vs {len(j[1])} items")
        for i, (a, b) in enumerate(zip(e[1], j[1])):
            compare(a, b, _sub(s, i), f"{where}[{i}]", skip_nonfinite)
        return
    if tag == "dict":
        if list(e[1]) != list(j[1]):
            raise Mismatch("structure", where, f"keys {list(e[1])} vs {list(j[1])}")
        for k in e[1]:
            compare(e[1][k], j[1][k], _sub(s, k), f"{where}[{k!r}]", skip_nonfinite)
        return
    if tag == "py":
        if e[1] != j[1]:
            raise Mismatch("type", where, f"eager gives {e[1]}, jit gives {j[1]}")
        if e[1] == "float":
            _close(np.float32(e[2]), np.float32(j[2]), None if s is None else np.float64(s[2]), where,
                   _move(s, 3), skip_nonfinite)
        elif e[2] != j[2]:
            raise Mismatch("value", where, f"{e[2]!r} vs {j[2]!r}")
        return
    if tag == "obj":
        if e[1:] != j[1:]:
            raise Mismatch("value", where, f"{e[2]} vs {j[2]}")
        return
    a, b = e[1], j[1]
    if a.shape != b.shape:
        raise Mismatch("shape", where, f"shape {a.shape} vs {b.shape}")
    if a.dtype != b.dtype:
        raise Mismatch("dtype", where, f"dtype {a.dtype} vs {b.dtype}")
    _close(a, b, None if s is None or s[0] != "T" else s[1], where, _move(s, 2), skip_nonfinite)


def _kind(v) -> str:
    return {"T": "a Tensor", "py": f"a Python {v[1]}" if v[0] == "py" else ""}.get(v[0], v[0])


def _sub(s, i):
    if s is None:
        return None
    try:
        return s[1][i]
    except (KeyError, IndexError, TypeError):
        return None


def _move(s, k: int) -> float:
    """The perturbed shadows' spread carried by leaf ``s`` at position ``k`` (0.0 without one)."""
    return float(s[k]) if s is not None and len(s) > k and s[0] in ("T", "py") else 0.0


def tolerance(a: np.ndarray, s: np.ndarray | None, move: float = 0.0) -> float:
    """The bound for |jit - eager| on one output (see the module docstring); ``move``: the spread."""
    a64 = np.asarray(a, np.float64)
    fin = np.isfinite(a64)
    ref = a64 if s is None or np.shape(s) != a.shape else np.asarray(s, np.float64)
    fin = fin & np.isfinite(ref)
    scale = float(np.max(np.abs(ref[fin]), initial=0.0))
    noise = float(np.max(np.abs(a64[fin] - ref[fin]), initial=0.0)) if s is not None else 0.0
    return FACTOR * (noise + move + EPS32 * scale)


def _close(a, b, s, where: str, move: float = 0.0, skip_nonfinite: bool = False) -> None:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "biu":
        if not np.array_equal(a, b):
            raise Mismatch("value", where, f"{_first_diff(a, b)}")
        return
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    nf = ~np.isfinite(a64)
    if skip_nonfinite:
        nf |= ~np.isfinite(b64)
    elif (nf != ~np.isfinite(b64)).any() or not np.array_equal(a64[nf], b64[nf], equal_nan=True):
        raise Mismatch("value", where, f"non-finite values differ: {_first_diff(a, b)}", nonfinite=True)
    err = float(np.max(np.abs(a64 - b64)[~nf], initial=0.0))
    if err <= tolerance(a, None):
        return
    if s is None:
        raise Mismatch("value?", where, f"max |diff| {err:.3g}; {_first_diff(a, b)}")  # shadow pending
    tol = tolerance(a, s, move)
    if err > tol:
        raise Mismatch("value", where, f"max |diff| {err:.3g} > tolerance {tol:.3g}; {_first_diff(a, b)}")


def _first_diff(a, b) -> str:
    a, b = np.atleast_1d(a), np.atleast_1d(b)
    d = np.abs(a.astype(np.float64) - b.astype(np.float64))
    d[np.isnan(d)] = np.inf
    d[np.isnan(a) & np.isnan(b)] = 0
    i = np.unravel_index(int(np.argmax(d)), a.shape)
    return f"at {tuple(int(x) for x in i)}: eager {a[i]!r}, jit {b[i]!r}"


def _compare_records(ref: list, got: list, shadow: list | None, skip_nonfinite: bool = False) -> None:
    for k, (r, g) in enumerate(zip(ref, got)):
        call = f"call {k + 1}"
        sh = shadow[k] if shadow is not None else None
        compare(r["out"], g["out"], sh["out"] if sh else None, f"{call} output", skip_nonfinite)
        for i, (x, y) in enumerate(zip(r["args"], g["args"])):
            compare(x, y, sh["args"][i] if sh else None, f"{call} tensor argument {i} after the call", skip_nonfinite)
        for i, (x, y) in enumerate(zip(r["params"], g["params"])):
            compare(x, y, sh["params"][i] if sh else None, f"{call} Parameter {i} after the call", skip_nonfinite)


# ---- one program ----------------------------------------------------------------------------------
def check_program(prog: Program, modes=MODES, checks=CHECKS, time_limit_s: float = TIME_LIMIT) -> Result:
    """Run every (check, mode) of ``prog``; see the module docstring for the outcomes."""
    src = prog.render()
    res = Result(prog, src)
    from sprout import _seed

    saved = (_seed._seed, _seed._rng)  # the programs seed the global generator: give the caller its own back
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if "verify_ir" in ms.context._flags:  # the IR verifier after tracing and after every pass
                ms.set_context(verify_ir=True)
            _check(prog, src, res, modes, checks, time_limit_s)
        finally:
            ms.context.reset_context()
            forget_runtimes()
            _seed._seed, _seed._rng = saved
    return res


def _check(prog, src, res, modes, checks, limit) -> None:
    refs: dict = {}
    try:
        with time_limit(limit):
            refs["fwd"] = run(prog, src, "fwd", "eager")
    except (Exception, Hang) as exc:  # noqa: BLE001 - eager rejecting the program makes it no test case
        res.invalid = f"eager: {type(exc).__name__}: {exc}"
        return
    grad_checks = [c for c in checks if c != "fwd"]
    if grad_checks and prog.has_grad():
        try:
            with time_limit(limit):
                refs["grad"] = run(prog, src, "jit_of_grad", "eager")
        except (Exception, Hang) as exc:  # noqa: BLE001
            res.outcomes += [Outcome(c, m, "invalid", f"eager grad: {type(exc).__name__}: {exc}")
                             for c in grad_checks for m in modes]
            grad_checks = []
    else:
        grad_checks = []
    shadows: dict = {}
    for check in [c for c in checks if c == "fwd"] + grad_checks:
        ref = refs["fwd" if check == "fwd" else "grad"]
        for mode in modes:
            res.outcomes.append(_one(prog, src, check, mode, ref, shadows, limit))


def _one(prog, src, check, mode, ref, shadows, limit) -> Outcome:
    seen: dict = {}
    got = None
    try:
        with time_limit(limit), compile_watch(seen):
            got = run(prog, src, check, mode)
    except Hang as exc:
        out = Outcome(check, mode, "hang", str(exc), "Hang")
    except JitSyntaxError as exc:
        out = Outcome(check, mode, "refused", _short(exc), type(exc).__name__)
    except Exception as exc:  # noqa: BLE001 - any other exception is a crash of the compiler
        out = Outcome(check, mode, "crash", _short(exc), type(exc).__name__)
    if got is not None:
        out = _judge(prog, src, check, mode, ref, got, shadows, limit)
    out.compiled = "host" if seen["host"] else "break" if seen["breaks"] else "graph"
    out.reasons = tuple(sorted(set(seen["host"] or seen["breaks"])))
    if out.compiled == "host":
        out.strict = _strict(prog, src, check, mode, limit)
    return out


def _judge(prog, src, check, mode, ref, got, shadows, limit) -> Outcome:
    # a non-finite difference first asks whether eager overflows (then such differences are skipped and the rest
    # must agree), a larger finite one for the float64 shadow's noise bound; each at most once
    overflow, first, shadow, shadowed = "", None, None, False
    while True:
        try:
            _compare_records(ref, got, shadow, bool(overflow))
        except Mismatch as m:
            if m.nonfinite and not overflow:
                overflow = _overflow(prog, src, check, shadows, limit)
                if overflow:
                    first = m
                    continue
            if m.kind == "value?" and not shadowed:
                shadow, shadowed = _shadow(prog, src, check, shadows, limit), True
                continue
            return Outcome(check, mode, "disagree", str(m), "value" if m.kind == "value?" else m.kind)
        if overflow:
            return Outcome(check, mode, "invalid", f"{OVERFLOW}: eager's {overflow}; {first}", first.kind)
        return Outcome(check, mode, "agree")


def _strict(prog, src, check, mode, limit) -> str:
    """Runs a check whose AST capture fell back to host segments again under jit_syntax_level=STRICT: "refused"
    (a ``JitSyntaxError``, as it must be), else "ran" or the exception's class."""
    level = ms.get_context("jit_syntax_level")
    ms.set_context(jit_syntax_level="STRICT")
    try:
        with time_limit(limit):
            run(prog, src, check, mode)
    except JitSyntaxError:
        return "refused"
    except (Exception, Hang) as exc:  # noqa: BLE001 - reported, not raised
        return type(exc).__name__
    finally:
        ms.set_context(jit_syntax_level=level)
    return "ran"


def _shadow(prog, src, check, shadows: dict, limit) -> list | None:
    """The float64 shadow records of the check's eager run with their spread (None: not available)."""
    key = "fwd" if check == "fwd" else "grad"
    if key not in shadows:
        how = (prog, shadow_source(src), "fwd" if key == "fwd" else "jit_of_grad", "eager", np.float64)
        try:
            with time_limit(limit):
                shadows[key] = run(*how)
        except (Exception, Hang):  # noqa: BLE001 - no noise estimate: the tight bound stands
            shadows[key] = None
        runs = []
        try:
            for k in range(PERTURB_RUNS if shadows[key] is not None else 0):
                with time_limit(limit), perturbed(k):
                    runs.append(run(*how))
        except (Exception, Hang):  # noqa: BLE001 - a perturbed run failed: no spread
            runs = []
        try:
            shadows[key] = _spread_records(shadows[key], runs)
        except (IndexError, KeyError, TypeError):  # a perturbed run took another path: no spread
            pass
    return shadows[key]


def _overflow(prog, src, check, shadows: dict, limit) -> str:
    """What of eager's float32 run of the check made an infinity out of finite operands ("" when nothing did):
    see "Float32 overflow" in the module docstring."""
    key = ("overflow", "fwd" if check == "fwd" else "grad")
    if key not in shadows:
        made: list = []
        try:
            with time_limit(limit), overflow_watch(made):
                run(prog, src, "fwd" if check == "fwd" else "jit_of_grad", "eager")
        except (Exception, Hang):  # noqa: BLE001 - not known to overflow: the difference stands
            made = []
        shadows[key] = made[0] if made else ""
    return shadows[key]


@contextlib.contextmanager
def overflow_watch(made: list):
    """Appends to ``made`` a description of each op call whose float result has an infinity where all its float
    operands are finite (an overflow, or a pole such as 1 / 0)."""
    from sprout.core import dispatch

    def policy(op, args, attrs, bind):
        out = bind(op, args, attrs)
        if op.kind in ("elementwise", "reduce", "opaque") and not op.side_effect:
            ins = [a._data for a in args if isinstance(a, ms.Tensor) and a._data.__class__ is np.ndarray]
            if all(np.isfinite(x).all() for x in ins if x.dtype.kind == "f"):
                for t in out if isinstance(out, tuple) else (out,):
                    d = getattr(t, "_data", None)
                    if d.__class__ is np.ndarray and d.dtype.kind == "f" and np.isinf(d).any():
                        made.append(f"{op.name} made inf from finite operands")
        return out

    dispatch.push_policy(policy)
    try:
        yield
    finally:
        dispatch.pop_policy(policy)


def _short(exc: BaseException, limit: int = 300) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    first = text.splitlines()[0] if text else ""
    return first[:limit]


def assert_agrees(source: str, args: list, check: str = "fwd", mode: str = "ast", entry: str = "f",
                  weights: list | None = None) -> None:
    """A regression test's body: ``check`` of the program in ``mode`` must agree with eager."""
    prog = SourceProgram(source, [Arg(*a) for a in args], entry, list(weights or []))
    prog.check_weights()
    res = check_program(prog, modes=(mode,), checks=(check,))
    assert not res.invalid, res.invalid
    # a float32 overflow's invalid check shows no agreement either (its non-finite values differ)
    bad = res.failures() + [o for o in res.outcomes if o.status == "invalid" and o.detail.startswith(OVERFLOW)]
    assert not bad, "; ".join(f"{o.check}/{o.mode}: {o.status} ({o.kind}) {o.detail}" for o in bad)
