"""The op record: one definition per primitive, read by eager, graph, autodiff and tests."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

KINDS = ("elementwise", "reduce", "shape", "opaque", "control", "random", "effect")


class OpError(ValueError):
    """Bad input to an op: the message names the op and the offending shapes/dtypes."""


@dataclass(eq=False)
class Op:
    """A primitive. ``impl`` works on NumPy arrays (and Python scalars); ``infer`` maps input
    TensorTypes (or scalars) and attrs to the output TensorType(s) and raises OpError on bad input;
    ``bprop(*inputs, out, dout, **attrs)`` returns one gradient (or None) per input, written
    with sprout ops so that it runs eagerly, records on a tape and builds graphs alike."""

    name: str
    impl: Callable[..., Any]
    infer: Callable[..., Any]
    bprop: Callable[..., Any] | None = None
    kind: str = "opaque"
    n_out: int = 1
    # elementwise ops: the NumPy ufunc / scalar expression the fuser uses
    fuse: Any = None
    # the op mutates its first input (assign); it must never be removed by DCE
    side_effect: bool = False
    doc: str = ""
    extra: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Op({self.name})"

    def __call__(self, *args, **attrs):
        from .dispatch import bind

        return bind(self, args, attrs)


REGISTRY: dict[str, Op] = {}


def register(op: Op) -> Op:
    if op.name in REGISTRY:
        raise ValueError(f"op {op.name!r} is registered twice")
    if op.kind not in KINDS:
        raise ValueError(f"op {op.name!r}: unknown kind {op.kind!r}")
    REGISTRY[op.name] = op
    return op


def primitive(name: str, *, infer: Callable, kind: str = "opaque", bprop: Callable | None = None,
              n_out: int = 1, fuse: Any = None, side_effect: bool = False):
    """Decorator form: ``@primitive("Add", infer=..., kind="elementwise")`` over the NumPy impl."""

    def wrap(impl: Callable) -> Op:
        return register(Op(name, impl, infer, bprop, kind, n_out, fuse, side_effect, impl.__doc__ or ""))

    return wrap


def defbprop(op: Op):
    """Attach a bprop to an op defined earlier: ``@defbprop(ADD) def _(x, y, out, dout): ...``."""

    def wrap(fn: Callable) -> Callable:
        op.bprop = fn
        return fn

    return wrap
