"""The gradient tape: records ops on watched tensors and runs their bprops in reverse, on the values read."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..core import dispatch
from ..core import tensor_hooks
from ..core.dispatch import pass_through
from ..ir.effects import is_token
from ..core.op import Op, register
from ..core.tensor import Tensor
from . import inplace, saved_hooks
from ..ir.builder import Tracer, _new_tracer


def _custom_only_on_tape(*args, **attrs):  # both impl and infer: the node is never run or compiled
    raise TypeError("custom_vjp nodes exist only on a gradient tape")


def _custom_bprop(*args_out_dout, vjp: Callable, n_in: int):
    args = args_out_dout[:n_in]
    out, dout = args_out_dout[n_in], args_out_dout[n_in + 1]
    return vjp(args, out, dout)


# A recorded call whose backward is a user function (Cell.bprop, a jitted graph's backward).
CUSTOM_VJP = register(Op("custom_vjp", _custom_only_on_tape, _custom_only_on_tape, _custom_bprop, kind="control"))


class Tape:
    """One level of differentiation. ``watch`` marks the inputs; ``record`` is called by dispatch. Tapes nest
    (higher-order gradients) and record tracers too, so a gradient taken while a graph is built is part of it.

    A bprop reads the values its op read (value at use time): a write to a recorded tensor first calls
    ``keep`` (``dispatch.will_write``), which gives the records holding it a copy of the old value; the
    recorded objects stay the keys gradients accumulate under. A bprop may return a zero-argument callable
    instead of a gradient for an input whose gradient is expensive (a matmul operand): the tape calls it only
    when that input is being differentiated."""

    __slots__ = ("records", "live", "_index", "_indexed", "_tracers", "escapes", "watched", "_roots", "_rooted")

    def __init__(self):
        # (op, args, attrs, out, values): ``values`` is None, or args + outputs as a list once a write made
        # some of them differ from what the objects hold now
        self.records: list[tuple] = []
        self.live: dict[int, Tensor] = {}
        self._index: dict[int, list] = {}  # buffer or tracer id -> [(record, position in args + outputs)]
        self._indexed = 0                  # records[:_indexed] are in _index (built on the first write)
        self._tracers: dict[int, dict] = {}  # record -> {arg position: tracer holding that Parameter's value}
        self.escapes: list[str] = []       # how recorded tensors left for NumPy (asnumpy(), ...)
        self.watched: set[int] = set()     # ids of the differentiated inputs (no record made them)
        self._roots: dict[int, list] = {}  # memory owner id -> eager tensors of view records sharing it
        self._rooted = 0                   # records[:_rooted] are in _roots

    def watch(self, t: Tensor) -> None:
        self.live[id(t)] = t
        self.watched.add(id(t))

    def is_live(self, t: Any) -> bool:
        return id(t) in self.live

    def sees(self, args: tuple) -> bool:
        """Whether a call on ``args`` would be recorded (one of them descends from a watched tensor)."""
        live = self.live
        return any(id(a) in live and isinstance(a, Tensor) for a in args)

    def record(self, op: Op, args: tuple, attrs: dict, out: Any) -> None:
        live = self.live
        for a in args:
            if id(a) in live and isinstance(a, Tensor):
                break
        else:
            return
        if dispatch._builders:  # a Parameter's value here is its tracer, which later writes rebind
            held = dispatch._builders[-1].state_tracers(args)
            if held is not None:
                self._tracers[len(self.records)] = held
        values = None
        if saved_hooks.stack and op is not CUSTOM_VJP:  # ms.saved_tensors_hooks: saved values go through pack
            values = saved_hooks.pack(list(args) + (list(out) if isinstance(out, tuple) else [out]))
        self.records.append((op, args, attrs, out, values))
        if isinstance(out, tuple):
            for o in out:
                live[id(o)] = o
        else:
            live[id(out)] = out

    def record_custom(self, args: tuple, out: Any, vjp: Callable) -> None:
        """Record a call whose backward is ``vjp(args, out, dout) -> grads per arg``."""
        self.record(CUSTOM_VJP, args, {"vjp": vjp, "n_in": len(args)}, out)

    def extend_record(self, i: int, extra: tuple) -> None:
        """Record ``i`` (a call whose node gained outputs after it was recorded) also gave ``extra``."""
        op, args, attrs, out, values = self.records[i]
        out = (tuple(out) if isinstance(out, tuple) else (out,)) + tuple(extra)
        if values is not None:
            values = list(values) + list(extra)
        self.records[i] = (op, args, attrs, out, values)
        for t in extra:
            self.live[id(t)] = t

    def check_write(self, t: Tensor, name: str) -> None:
        """Raise before an in-place write to ``t`` this tape cannot differentiate (core/inplace.py)."""
        inplace.check_write(self, t, name)

    def rebase(self, t: Tensor, new: Tensor) -> None:
        """``t``'s memory now holds ``new``'s value: later uses of ``t`` are uses of ``new`` (autodiff/inplace.py)."""
        inplace.rebase(self, t, new)

    # ---- values at use time -----------------------------------------------------------------------
    def keep(self, t: Tensor, kept: dict) -> None:
        """``t`` is about to be written (in place, or rebound): every record reading its buffer (its tracer,
        in a graph) reads a copy of the current value instead. ``kept`` shares the copies between tapes."""
        records = self.records
        if self._indexed < len(records):
            self._extend_index()
        slots = self._index.pop(_key(t), None)
        if not slots:
            return
        for i, k in slots:
            op, args, attrs, out, values = records[i]
            if values is None:
                values = list(args) + (list(out) if isinstance(out, tuple) else [out])
                records[i] = (op, args, attrs, out, values)
            cur = self._tracers.get(i, {}).get(k, values[k])  # a Parameter read in a graph: its tracer
            snap = kept.get(id(cur))
            if snap is None:
                snap = kept[id(cur)] = _snapshot(cur)
                # tapes outside this one differentiate the backward, which reads the copy: it stands for the
                # recorded object (a gradient reaching the copy reaches it)
                n = len(args)
                record_custom((args[k] if k < n else out[k - n] if isinstance(out, tuple) else out,), snap,
                              pass_through)
            values[k] = snap

    def _extend_index(self) -> None:
        index, records = self._index, self.records
        for i in range(self._indexed, len(records)):
            op, args, attrs, out, values = records[i]
            if op is CUSTOM_VJP and (attrs["vjp"] is pass_through or getattr(attrs["vjp"], "reads_nothing", False)):
                continue
            if values is None:
                values = args + out if isinstance(out, tuple) else args + (out,)
            held = self._tracers.get(i, {})
            for k, a in enumerate(values):
                if isinstance(a, Tensor):
                    key = _key(held.get(k, a))
                    slots = index.get(key)
                    if slots is None:
                        index[key] = [(i, k)]
                    else:
                        slots.append((i, k))
        self._indexed = len(records)

    def backward(self, outputs: list, senses: list) -> dict[int, Tensor]:
        """Run bprops in reverse from ``outputs`` seeded with ``senses``; returns id -> gradient."""
        from ..ops import functional as F

        grads: dict[int, Tensor] = {}
        for o, s in zip(outputs, senses):
            if s is not None:
                _accumulate(grads, o, s, F)
        live = self.live
        hooked: set | None = set() if tensor_hooks.active() else None  # ids whose gradient went through hooks
        with dispatch.suspend_tapes([self]):
            for op, args, attrs, out, values in reversed(self.records):
                if isinstance(out, tuple):
                    douts = [grads.get(id(o)) for o in out]
                    if hooked is not None:
                        douts = [d if d is None else _hooked(o, d, grads, hooked) for o, d in zip(out, douts)]
                    if all(d is None for d in douts):
                        continue
                    # an effect token has no cotangent; a vjp marked ``sparse_dout`` gets None for an output
                    # nothing downstream used (it knows which inputs reach only those: they get no gradient)
                    sparse = op is CUSTOM_VJP and getattr(attrs["vjp"], "sparse_dout", False)
                    dout = tuple(None if d is None and (sparse or is_token(o)) else F.zeros_like(o) if d is None
                                 else d for o, d in zip(out, douts))
                else:
                    dout = grads.get(id(out))
                    if dout is None:
                        continue
                    if hooked is not None:
                        dout = _hooked(out, dout, grads, hooked)
                    if op is CUSTOM_VJP and args[0] is out:  # an in-place write (inplace.py): the cotangent so far
                        del grads[id(out)]  # is the new value's; what earlier records add is the old value's
                if op.bprop is None:
                    raise TypeError(f"{op.name} is not differentiable (it has no bprop)")
                if values is None:
                    in_grads = op.bprop(*args, out, dout, **attrs)
                else:  # some values were overwritten after the op read them (or were packed): the bprop reads
                    n = len(args)  # the kept (unpacked) ones
                    if saved_hooks.Packed in map(type, values):
                        values = saved_hooks.unpack(values)
                    value_out = tuple(values[n:]) if isinstance(out, tuple) else values[n]
                    in_grads = op.bprop(*values[:n], value_out, dout, **attrs)
                for a, g in zip(args, in_grads):
                    if g is not None and id(a) in live and isinstance(a, Tensor):
                        if callable(g):  # a deferred gradient: computed only for inputs that need it
                            g = g()
                        if (a.dtype.is_complex or g.dtype.is_complex) and not _complex_ok(op):
                            _refuse_complex(op)
                        _accumulate(grads, a, g, F)
            if hooked is not None:  # the inputs (no record made them): their gradients are complete now
                for key, g in list(grads.items()):
                    t = live.get(key)
                    if t is not None and key not in hooked:
                        _hooked(t, g, grads, hooked)
        return grads


def _hooked(t: Tensor, g: Tensor, grads: dict, done: set) -> Tensor:
    """``t``'s complete gradient through its ``register_hook`` hooks (once per backward pass)."""
    key = id(t)
    if key in done:
        return grads[key]
    done.add(key)
    g = grads[key] = tensor_hooks.apply(t, g)
    return g


def _key(t: Tensor) -> int:
    """What a write changes: a tracer (a graph value), or the array owning a tensor's memory (views share it)."""
    if isinstance(t, Tracer):
        return id(t)
    d = t._data
    while True:
        b = getattr(d, "base", None)
        if b is None:
            return id(d)
        d = b


def _snapshot(t: Tensor) -> Tensor:
    if isinstance(t, Tracer):
        return _new_tracer(t._var, t._builder)
    s = Tensor.__new__(Tensor)
    s._data = t._data.copy()
    return s


def kept_copy(t: Tensor, skip: Tape) -> Tensor:
    """A copy of ``t``'s current value for a record on ``skip`` to read later; the other active tapes that see
    ``t`` route a gradient reaching the copy to ``t``."""
    snap = _snapshot(t)
    for tape in dispatch.active_tapes():
        if tape is not skip:
            tape.record_custom((t,), snap, pass_through)
    return snap


# Kinds whose bprops only move, sum or cast cotangents (linear maps that commute with conjugation), or that are
# differentiated through the ops inside them: right for complex values as they are.
_COMPLEX_SAFE_KINDS = frozenset({"shape", "control"})


def _complex_ok(op: Op) -> bool:
    """Whether ``op``'s bprop follows the complex convention (dL/dx + i dL/dy: a holomorphic op passes back
    ``dout * conj(f'(z))``). Ops state it with ``extra["complex_grad"]``; real-only bprops would miss the conjugate."""
    return op.kind in _COMPLEX_SAFE_KINDS or op.extra.get("complex_grad", False)


def _refuse_complex(op: Op) -> None:
    raise TypeError(f"{op.name}: the gradient for complex inputs is not implemented (its backward rule is written "
                    "for real values and would miss the conjugate); differentiate through ops that support complex "
                    "gradients (see docs/ops.md, complex numbers)")


def _accumulate(grads: dict, target: Tensor, g: Tensor, F) -> None:
    key = id(target)
    prev = grads.get(key)
    grads[key] = g if prev is None else F.add(prev, g)


def record_custom(args: tuple, out: Any, vjp: Callable) -> None:
    """Record a custom-backward call on every active tape that sees one of ``args``."""
    for tape in dispatch.active_tapes():
        tape.record_custom(args, out, vjp)
