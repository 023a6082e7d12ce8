"""The gradient tape: records ops whose inputs descend from watched tensors, and runs their
bprops in reverse. Tapes nest (higher-order gradients) and record symbolic tensors too, so a
gradient taken inside a graph under construction becomes part of that graph."""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from ..core import dispatch
from ..ir.effects import is_token
from ..core.op import Op, register
from ..core.tensor import Tensor


def _custom_only_on_tape(*args, **attrs):  # both impl and infer: the node is never run or compiled
    raise TypeError("custom_vjp nodes exist only on a gradient tape")


def _custom_bprop(*args_out_dout, vjp: Callable, n_in: int):
    args = args_out_dout[:n_in]
    out, dout = args_out_dout[n_in], args_out_dout[n_in + 1]
    return vjp(args, out, dout)


# A recorded call whose backward is a user function (Cell.bprop, a jitted graph's backward).
CUSTOM_VJP = register(Op("custom_vjp", _custom_only_on_tape, _custom_only_on_tape, _custom_bprop, kind="control"))


class Tape:
    """One level of differentiation. ``watch`` marks the inputs; ``record`` is called by dispatch.

    A bprop may return a zero-argument callable instead of a gradient for an input whose gradient
    is expensive (a matmul operand): the tape calls it only when that input is being differentiated."""

    __slots__ = ("records", "live")

    def __init__(self):
        self.records: list[tuple] = []
        self.live: dict[int, Tensor] = {}

    def watch(self, t: Tensor) -> None:
        self.live[id(t)] = t

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
        self.records.append((op, args, attrs, out))
        if isinstance(out, tuple):
            for o in out:
                live[id(o)] = o
        else:
            live[id(out)] = out

    def record_custom(self, args: tuple, out: Any, vjp: Callable) -> None:
        """Record a call whose backward is ``vjp(args, out, dout) -> grads per arg``."""
        self.record(CUSTOM_VJP, args, {"vjp": vjp, "n_in": len(args)}, out)

    def backward(self, outputs: list, senses: list) -> dict[int, Tensor]:
        """Run bprops in reverse from ``outputs`` seeded with ``senses``; returns id -> gradient."""
        from ..ops import functional as F

        grads: dict[int, Tensor] = {}
        for o, s in zip(outputs, senses):
            if s is not None:
                _accumulate(grads, o, s, F)
        live = self.live
        with dispatch.suspend_tapes([self]):
            for op, args, attrs, out in reversed(self.records):
                if isinstance(out, tuple):
                    douts = [grads.get(id(o)) for o in out]
                    if all(d is None for d in douts):
                        continue
                    dout = tuple(None if d is None and is_token(o) else F.zeros_like(o) if d is None else d
                                 for o, d in zip(out, douts))  # an effect token has no cotangent
                else:
                    dout = grads.get(id(out))
                    if dout is None:
                        continue
                if op.bprop is None:
                    raise TypeError(f"{op.name} is not differentiable (it has no bprop)")
                in_grads = op.bprop(*args, out, dout, **attrs)
                for a, g in zip(args, in_grads):
                    if g is not None and id(a) in live and isinstance(a, Tensor):
                        if callable(g):  # a deferred gradient: computed only for inputs that need it
                            g = g()
                        _accumulate(grads, a, g, F)
        return grads


def _accumulate(grads: dict, target: Tensor, g: Tensor, F) -> None:
    key = id(target)
    prev = grads.get(key)
    grads[key] = g if prev is None else F.add(prev, g)


def record_custom(args: tuple, out: Any, vjp: Callable) -> None:
    """Record a custom-backward call on every active tape that sees one of ``args``."""
    for tape in dispatch.active_tapes():
        tape.record_custom(args, out, vjp)
