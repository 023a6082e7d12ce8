"""The op record: one definition per primitive, read by eager, graph, autodiff, the backend and tests."""
from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import numpy as np

# "collective": communication between ranks (ops/comm_ops.py); never folded, merged, dropped or reordered
KINDS = ("elementwise", "reduce", "shape", "opaque", "control", "random", "effect", "collective")


class OpError(ValueError):
    """Bad input to an op: the message names the op and the offending shapes/dtypes."""


class KernelError(Exception):
    """Mixin for an error a kernel raises on purpose with its own message (a collective's CommError): dispatch
    re-raises it unchanged instead of re-explaining it as bad input."""


@dataclass(frozen=True)
class FuseSpec:
    """How the elementwise fuser computes an op inside a fused kernel (``backend/kernels.py``).

    Exactly one of ``ufunc`` (a NumPy ufunc, called as ``ufunc(*inputs, out=buffer)``) and ``lines``
    (NumPy statements that write ``{out}`` from the inputs ``{0}``, ``{1}`` ...; ``_np`` is NumPy and
    ``{impl}`` the op's own kernel). ``scalar`` is an expression over ``{0}``, ``{1}`` ... for the numba
    loop (float dtypes; ``np`` is NumPy, ``_z`` a zero of the output dtype); without it (or ``poly``) a group
    holding the op never goes to numba. ``poly``: the float32 form over ``backend/fastmath.py``'s vectorisable
    polynomials (``_fexp``, ``_ftanh``; <= 1.5 ulp), used instead of ``scalar`` for float32 in large numba loops.
    ``transcendental``: a libm call per element (numba's scalar exp/tanh lose to NumPy's SIMD ones, so the cost
    model keeps such groups off numba unless the op has ``poly`` and NumPy's kernels measure slow).
    ``float_only``: fusible only when the output is a float (pow, reciprocal). ``attrs``: fusible although the
    node has attrs (Cast's dtype is the output buffer's). ``inplace``: ``{out}`` may be a dead input's buffer
    (false when a line writes ``{out}`` before it has read every input)."""

    ufunc: Any = None
    lines: tuple = ()
    scalar: str | None = None
    poly: str | None = None
    transcendental: bool = False
    float_only: bool = False
    attrs: bool = False
    inplace: bool = True
    nin: int | None = None

    @property
    def arity(self) -> int:
        return self.ufunc.nin if self.ufunc is not None else int(self.nin or 0)

    def validate(self, op: str) -> None:
        """Raise ValueError naming ``op`` when the spec could not generate a kernel."""
        if (self.ufunc is None) == (not self.lines):
            raise ValueError(f"op {op!r}: a FuseSpec needs exactly one of ufunc= and lines=")
        if self.ufunc is not None and not isinstance(self.ufunc, np.ufunc):
            raise ValueError(f"op {op!r}: FuseSpec ufunc must be a NumPy ufunc, got {self.ufunc!r}")
        if self.lines and not isinstance(self.nin, int):
            raise ValueError(f"op {op!r}: a FuseSpec with lines= must give nin= (the number of inputs)")
        if isinstance(self.lines, str):
            raise ValueError(f"op {op!r}: FuseSpec lines must be a tuple of statements, got a string")
        args = [f"i{k}" for k in range(self.arity)]
        if self.lines:
            fields = {name for line in self.lines for _, name, _, _ in string.Formatter().parse(line) if name}
            if "out" not in fields:
                raise ValueError(f"op {op!r}: FuseSpec lines never write {{out}}: {self.lines}")
            for line in self.lines:
                _compile(op, line, "exec", args, out="o0", impl="_impl")
        if self.scalar is not None:
            _compile(op, self.scalar, "eval", args)


def _compile(op: str, template: str, mode: str, args: list, **names) -> None:
    try:
        compile(template.format(*args, **names), f"<fuse spec of {op}>", mode)
    except (IndexError, KeyError, ValueError, SyntaxError) as exc:
        raise ValueError(f"op {op!r}: bad FuseSpec template {template!r} for {len(args)} inputs: {exc}") from None


@dataclass(eq=False)
class Op:
    """A primitive. ``impl`` works on NumPy arrays (and Python scalars); ``infer`` maps input
    TensorTypes (or scalars) and attrs to the output TensorType(s) and raises OpError on bad input;
    ``bprop(*inputs, out, dout, **attrs)`` returns one gradient (or None) per input, written
    with sprout ops so that it runs eagerly, records on a tape and builds graphs alike.

    Backend knowledge lives here too: ``fuse`` (elementwise ops: a FuseSpec, or False for an op that
    never joins a fused kernel), ``emit(ctx, node, args)`` (optional: the generated-code expression for
    a node, or None to fall back to a call of ``impl``; see ``backend/pycodegen.EmitContext``) and
    ``fresh_output`` (the kernel always returns a new array, never a view of an input, so the code
    generator may overwrite the result in place once it is dead).

    Ops with sub-graphs (control flow, graph calls) differentiate with ``residual_vjp(args, attrs) ->
    (outputs, vjp)`` instead of a bprop: it emits the node's forward extended with residual outputs and
    returns ``vjp(args, out, dout)``, which emits the backward from those residuals (so no forward is
    re-run). Dispatch uses it while a graph is built and a tape records the call."""

    name: str
    impl: Callable[..., Any]
    infer: Callable[..., Any]
    bprop: Callable[..., Any] | None = None
    kind: str = "opaque"
    n_out: int = 1
    fuse: FuseSpec | bool | None = None
    # the op mutates its first input (assign); it must never be removed by DCE
    side_effect: bool = False
    doc: str = ""
    extra: dict = field(default_factory=dict)
    emit: Callable[..., Any] | None = None
    fresh_output: bool = False
    # MindSpore's view ops (Reshape, Transpose, basic GetItem, ...): an eager result sharing the input's memory is
    # a view (writes through it reach the input; ops.assign refuses it); any other op's result gets its own memory
    view: bool = False
    residual_vjp: Callable[..., Any] | None = None

    def __repr__(self) -> str:
        return f"Op({self.name})"

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name == "impl":
            watched = _IMPL_CELLS.get(id(self))
            if watched is not None:  # a fast path holding the kernel in its closure sees the new one too
                for cell in watched[1]:
                    cell.cell_contents = value

    def watch_impl(self, fn: Callable) -> Callable:
        """``fn`` (an eager fast path, ops/_binary_call.py) holds this op's kernel in its closure variable
        ``impl`` and reads it per call without an attribute lookup; assigning ``op.impl`` later (the op table's
        spy) rebinds that variable too, so ``fn`` always runs the current kernel. Returns ``fn``."""
        cell = fn.__closure__[fn.__code__.co_freevars.index("impl")]
        cell.cell_contents = self.impl
        _IMPL_CELLS.setdefault(id(self), (self, []))[1].append(cell)
        return fn

    def __call__(self, *args, **attrs):
        from .dispatch import bind

        return bind(self, args, attrs)


REGISTRY: dict[str, Op] = {}
_IMPL_CELLS: dict[int, tuple[Op, list]] = {}  # id(op) -> (op, closure cells holding op.impl): Op.watch_impl


def check_record(op: Op) -> None:
    """Registration-time checks: a mistake in a record fails at import, not as an op that silently
    never fuses or a fast path that never fires."""
    if op.kind not in KINDS:
        raise ValueError(f"op {op.name!r}: unknown kind {op.kind!r}")
    spec = op.fuse
    if isinstance(spec, FuseSpec):
        if op.kind != "elementwise":
            raise ValueError(f"op {op.name!r}: only elementwise ops fuse, this one is {op.kind!r}")
        if op.n_out != 1:
            raise ValueError(f"op {op.name!r}: a fusible op has one output")
        spec.validate(op.name)
    elif spec is None:
        if op.kind == "elementwise":
            raise ValueError(f"elementwise op {op.name!r}: say how it fuses (fuse=FuseSpec(...)) or that it "
                             "never does (fuse=False)")
    elif spec is not False:
        raise ValueError(f"op {op.name!r}: fuse must be a FuseSpec or False, got {spec!r}")
    if op.emit is not None and not callable(op.emit):
        raise ValueError(f"op {op.name!r}: emit must be callable, got {op.emit!r}")


def register(op: Op) -> Op:
    if op.name in REGISTRY:
        raise ValueError(f"op {op.name!r} is registered twice")
    check_record(op)
    REGISTRY[op.name] = op
    return op


def primitive(name: str, *, infer: Callable, kind: str = "opaque", bprop: Callable | None = None,
              n_out: int = 1, fuse: Any = None, side_effect: bool = False, emit: Callable | None = None,
              fresh_output: bool = False):
    """Decorator form: ``@primitive("Add", infer=..., kind="elementwise")`` over the NumPy impl."""

    def wrap(impl: Callable) -> Op:
        return register(Op(name, impl, infer, bprop, kind, n_out, fuse, side_effect, impl.__doc__ or "",
                           emit=emit, fresh_output=fresh_output))

    return wrap


def defbprop(op: Op):
    """Attach a bprop to an op defined earlier: ``@defbprop(ADD) def _(x, y, out, dout): ...``."""

    def wrap(fn: Callable) -> Callable:
        op.bprop = fn
        return fn

    return wrap
