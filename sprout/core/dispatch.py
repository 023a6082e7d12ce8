"""The one dispatch entry every op call goes through: run NumPy now, record on a tape, or
append a node to a graph under construction. Nothing else in sprout branches on mode."""
from __future__ import annotations

import time
from typing import Any

import numpy as np

from .. import dtype as _mstype
from . import bf16 as _bf16
from .op import KernelError, Op, OpError
from .types import type_of
from .views import settle as _settle

# Active gradient tapes, outermost first, graph builders, innermost last, observers (push_observer) and
# precision policies (push_policy), innermost last. ``_slow`` is true when any is non-empty: the eager fast
# path checks one global. ``_holders``: the tapes whose records a later backward will read (pushed ones,
# active or suspended, and ones a vjp function keeps): a write to a tensor they recorded goes through
# ``will_write`` first, so each keeps the value its bprops read (value at use time).
_tapes: list = []
_holders: list = []
_held: list = []  # (tape, the builder active when hold_tape was called, or None)
_home: dict = {}  # id(pushed tape) -> the builder current when it was pushed (None: eager)
_builders: list = []
_observers: list = []
_policies: list = []
_slow = False
_bf16_on = False  # a bfloat16 array may exist: eager calls check for one (core/bf16.py)
_checked = False  # _slow or _bf16_on: the eager fast paths (bind, ops/_binary_call) step aside
_clock = time.perf_counter_ns


def _refresh() -> None:
    global _slow, _checked
    _slow = bool(_tapes or _builders or _observers or _policies or _holders)
    _checked = _slow or _bf16_on


def _enable_bf16() -> None:
    """The first bfloat16 array is about to exist: from now on eager ops take the checked path, which lowers an
    op touching bfloat16 (core/bf16.py). ``_slow`` keeps meaning "tapes, graphs, observers or policies are
    active". Processes without bfloat16 keep the fast path untouched."""
    global _bf16_on
    _bf16.activate()
    _bf16_on = True
    _refresh()


_mstype.on_first_use(_enable_bf16)


class Observer:
    """Base class for ``push_observer`` (public hook; the profiler uses it). Override what you need.

    ``on_op(op, t0_ns, t1_ns)``: one eager op ran (``time.perf_counter_ns()`` before and after its kernel),
    including ops run by a tape's backward; ops going into a graph under construction are not reported.
    ``on_graph(executable, t0_ns, t1_ns)``: a jitted function ran its compiled graph (called by
    ``sprout.jit``; while observers exist the jit skips its pre-key fast path so every call is seen)."""

    def on_op(self, op: Op, t0_ns: int, t1_ns: int) -> None:
        pass

    def on_graph(self, executable: Any, t0_ns: int, t1_ns: int) -> None:
        pass


def push_observer(obs: Observer) -> None:
    """Start reporting executed ops and compiled-graph calls to ``obs``. While any observer is active
    every op takes the slow path (timed); with none, the eager fast path is untouched."""
    if obs not in _observers:
        _observers.append(obs)
    _refresh()


def pop_observer(obs: Observer) -> None:
    """Stop reporting to ``obs`` (no error if it is not active)."""
    if obs in _observers:
        _observers.remove(obs)
    _refresh()


def push_policy(policy) -> None:
    """Route every op call through ``policy(op, args, attrs, run)`` until ``pop_policy``; the innermost policy
    decides. ``run(op, args, attrs)`` is the normal (tape / graph / eager) path; a policy may bind other ops
    (a Cast of an input) before it, each of which comes back through the policy. Mixed precision
    (``Cell.to_float``, ``sprout.amp``) is the user; a policy must be hashable (it is part of jit cache keys)."""
    _policies.append(policy)
    _refresh()


def pop_policy(policy) -> None:
    assert _policies and _policies[-1] is policy, "precision policies must nest"
    _policies.pop()
    _refresh()


def current_policy():
    """The innermost active policy (None when there is none): what a graph compiled now would bake in."""
    return _policies[-1] if _policies else None


def push_tape(tape) -> None:
    _tapes.append(tape)
    _holders.append(tape)
    _home[id(tape)] = _builders[-1] if _builders else None
    _refresh()


def pop_tape(tape) -> None:
    _tapes.remove(tape)
    _holders.remove(tape)
    _home.pop(id(tape), None)
    _refresh()


def hold_tape(tape) -> None:
    """Keep ``tape``'s recorded values safe from later writes while it is not active (``ops.vjp``'s backward
    runs when its function is called); ``release_tape`` ends that, and so does the end of the graph being
    built (a tape of tracers means nothing after it). Every op takes the slow path meanwhile."""
    _holders.append(tape)
    _held.append((tape, _builders[-1] if _builders else None))
    _refresh()


def release_tape(tape) -> None:
    for k, (t, _) in enumerate(_held):
        if t is tape:
            del _held[k]
            _holders.remove(tape)
            break
    _refresh()


def will_write(t) -> None:
    """``t``'s value is about to change in place (its buffer written or its array or tracer rebound): each
    tape holding records keeps the values they read (gradients read values at use time, as a graph does).
    Callers check ``_holders`` first, so the plain eager path pays nothing."""
    kept: dict = {}  # one copy per written tensor, shared by the tapes
    for tape in tuple(_holders):
        tape.keep(t, kept)


def pass_through(args, out, dout):
    """The vjp of a recorded call whose output is its input's value (an alias, a kept copy)."""
    return (dout,)


def push_builder(builder) -> None:
    _builders.append(builder)
    _refresh()


def pop_builder(builder) -> None:
    assert _builders and _builders[-1] is builder, "graph builders must nest"
    _builders.pop()
    for tape in [t for t, b in _held if b is builder]:
        release_tape(tape)
    _refresh()


def current_builder():
    return _builders[-1] if _builders else None


def active_tapes() -> tuple:
    return tuple(_tapes)


class suspend_tapes:
    """Run a block with the given tapes inactive (a tape does not record its own backward)."""

    def __init__(self, tapes):
        self.tapes = [t for t in tapes if t in _tapes]

    def __enter__(self):
        self.saved = list(_tapes)  # restored as it was: the nesting order of tapes matters
        for t in self.tapes:
            _tapes.remove(t)
        _refresh()

    def __exit__(self, *exc):
        _tapes[:] = self.saved
        _refresh()


class no_builder:
    """Run a block eagerly even while a graph is being built (compile-time evaluation)."""

    def __enter__(self):
        self.saved = list(_builders)
        _builders.clear()
        _refresh()

    def __exit__(self, *exc):
        _builders.extend(self.saved)
        _refresh()


def bind(op: Op, args: tuple, attrs: dict) -> Any:
    """Apply ``op`` to ``args`` (Tensors or Python scalars) with keyword ``attrs``."""
    if _checked:
        return _bind_slow(op, args, attrs) if _slow else run_eager(op, args, attrs)
    # run_eager, inlined and unrolled for one and two inputs: this is the per-op cost every eager call pays
    try:
        n = len(args)
        if n == 2:
            a, b = args
            a = a._data if isinstance(a, Tensor) else a
            b = b._data if isinstance(b, Tensor) else b
            out = op.impl(a, b, **attrs) if attrs else op.impl(a, b)
        elif n == 1:
            a = args[0]
            a = a._data if isinstance(a, Tensor) else a
            out = op.impl(a, **attrs) if attrs else op.impl(a)
        else:
            out = op.impl(*[a._data if isinstance(a, Tensor) else a for a in args], **attrs)
    except OpError:
        raise
    except Exception as exc:  # turn NumPy's complaint into one that names the op
        raise explain_failure(op, args, attrs, exc) from None
    if op.n_out == 1:
        if out.__class__ is not np.ndarray:
            out = np.asarray(out)
        t = _new(Tensor)
        if out.base is None:
            t._data = out
        else:  # a view: of an input only if the op is a view op (core/views.py)
            _settle(op, args, out, t)
        return t
    return _wrap_all(op, args, out)


def run_eager(op: Op, args: tuple, attrs: dict) -> Any:
    # unrolled for the common arities: this is the per-op overhead every eager call pays
    if _bf16_on and _bf16.touches(args, attrs):
        op = _bf16.route(op, args, attrs)
    try:
        n = len(args)
        if n == 2:
            a, b = args
            out = op.impl(a._data if isinstance(a, Tensor) else a, b._data if isinstance(b, Tensor) else b, **attrs)
        elif n == 1:
            a = args[0]
            out = op.impl(a._data if isinstance(a, Tensor) else a, **attrs)
        else:
            out = op.impl(*[a._data if isinstance(a, Tensor) else a for a in args], **attrs)
    except OpError:
        raise
    except Exception as exc:  # turn NumPy's complaint into one that names the op
        raise explain_failure(op, args, attrs, exc) from None
    if op.n_out == 1:
        if out.__class__ is not np.ndarray:
            out = np.asarray(out)
        t = _new(Tensor)
        if out.base is None:
            t._data = out
        else:
            _settle(op, args, out, t)
        return t
    return _wrap_all(op, args, out)


def _bind_slow(op: Op, args: tuple, attrs: dict) -> Any:
    if _policies:
        return _policies[-1](op, args, attrs, _bind_recorded)
    return _bind_recorded(op, args, attrs)


def _bind_recorded(op: Op, args: tuple, attrs: dict) -> Any:
    if _tapes and op.residual_vjp is not None and _builders:
        # only a tape pushed while this builder was current differentiates the node: in a body being traced (a
        # branch, a loop body, a backward body) an enclosing graph's tapes never see its nodes' cotangents, the
        # control node holding the body is differentiated as a whole; a split there would be thrown away (and
        # re-done by every enclosing split: the work grew with every level of nesting)
        here = _builders[-1]
        mine = [t for t in _tapes if _home.get(id(t)) is here and t.sees(args)]
        if mine:
            lazy = op.extra.get("lazy_vjp")
            if lazy is not None:
                return _bind_lazy(op, args, attrs, here, mine, lazy)
            return _bind_split(op, args, attrs, mine[-1])
    if _builders:
        out = _builders[-1].emit(op, args, attrs)
        for tape in _tapes:
            tape.record(op, args, attrs, out)
        return out
    if _holders and op.side_effect and op.extra:  # an eager in-place write: tapes keep what they read
        for p in op.extra.get("mutates", ()):
            if p < len(args) and isinstance(args[p], Tensor):
                will_write(args[p])
    if _observers:
        t0 = _clock()
        try:
            out = run_eager(op, args, attrs)
        finally:
            t1 = _clock()
            for obs in tuple(_observers):
                obs.on_op(op, t0, t1)
    else:
        out = run_eager(op, args, attrs)
    for tape in _tapes:
        tape.record(op, args, attrs, out)
    return out


def _bind_lazy(op: Op, args: tuple, attrs: dict, here, mine: list, lazy) -> Any:
    """A node with sub-graphs that tapes ``mine`` (innermost last) differentiate, split only if a backward reaches
    it: it is emitted as it is, and ``lazy(builder, node, args, out, mine)`` records a custom node on each of those
    tapes whose vjp first extends the node with its residual outputs (the forward of its split bodies, as it is
    then: an inner tape's residuals included), then emits the backward. A node nothing differentiates (its
    result unused, or unused by the differentiated outputs) is never split."""
    out = here.emit(op, args, attrs)
    for tape in _tapes:
        if tape not in mine:
            tape.record(op, args, attrs, out)
    lazy(here, here.nodes[-1], args, out, mine)
    return out


def _bind_split(op: Op, args: tuple, attrs: dict, tape) -> Any:
    """A differentiated node with sub-graphs while a graph is built: the op emits its forward with
    residual outputs (outer tapes see that extended node and split it again, so higher orders need no
    recomputation) and ``tape``, the innermost tape recording the call, gets one custom node whose vjp
    builds the backward from the residuals."""
    with suspend_tapes([tape]):
        out, vjp = op.residual_vjp(args, attrs)
    tape.record_custom(args, out, vjp)
    return out


_new = object.__new__


def _wrap(value) -> Tensor:
    if value.__class__ is not np.ndarray:
        value = np.asarray(value)
    t = _new(Tensor)
    t._data = value
    return t


def _wrap_all(op: Op, args: tuple, outs) -> tuple:
    ts = []
    for o in outs:
        t = _wrap(o)
        if t._data.base is not None:
            _settle(op, args, t._data, t)
        ts.append(t)
    return tuple(ts)


def describe_args(args: tuple) -> str:
    parts = []
    for a in args:
        t = type_of(a)
        parts.append(str(t) if hasattr(t, "shape") else repr(a))
    return ", ".join(parts)


def explain_failure(op: Op, args: tuple, attrs: dict, exc: Exception) -> Exception:
    """Re-run the op's shape/dtype rule to name what was wrong; fall back to the NumPy message."""
    if isinstance(exc, KernelError):
        return exc
    try:
        op.infer(*[type_of(a) for a in args], **attrs)
    except (OpError, TypeError, ValueError, IndexError) as bad:
        bad_type = type(bad) if not isinstance(bad, OpError) else OpError
        return bad_type(str(bad))
    except Exception:  # noqa: BLE001 - infer itself choked; report the kernel's message below
        pass
    kind = IndexError if isinstance(exc, IndexError) else RuntimeError if isinstance(exc, RuntimeError) else OpError
    attr_text = f" with {attrs}" if attrs else ""
    return kind(f"{op.name}: invalid inputs ({describe_args(args)}){attr_text}: {exc}")


from .tensor import Tensor  # noqa: E402  (Tensor's methods call bind; imported last to break the cycle)
