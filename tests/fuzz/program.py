"""Fuzz programs as trees (typed expressions, statements, arguments) that render to a Python module."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# Types: a shape tuple is a float tensor; "i" a Python int; "n" a number that may be a Python int eagerly
# and a 0-d tensor in a graph (a counter a tensor loop carried); "f" a Python float; "bt" a tensor
# condition; "bp" a Python condition; ("list" | "tuple" | "dict", shape) containers of tensors.
HEADER = "import numpy as np\nimport sprout as ms\nfrom sprout import Parameter, Tensor, nn, ops\n"


@dataclass
class Expr:
    """``fmt.format(*children)``; ``ty`` is the value's type (see above)."""

    fmt: str
    args: list = field(default_factory=list)
    ty: Any = None
    keep: bool = False  # the shrinker must not replace this node by a child (it guards a known divergence)

    def render(self) -> str:
        return self.fmt.format(*(a.render() for a in self.args))

    def walk(self):
        yield self
        for a in self.args:
            yield from a.walk()


@dataclass
class Stmt:
    """A statement. ``kind``: "line" (``fmt`` over ``exprs``), "if" (``orelse`` may hold one "if" rendered
    as ``elif``), "while", "for", "def" (``fmt`` is the header), "class" (body of defs), "return".
    ``keep`` marks statements the shrinker must not delete (the final return, a class's __init__)."""

    kind: str
    fmt: str
    exprs: list = field(default_factory=list)
    body: list = field(default_factory=list)
    orelse: list = field(default_factory=list)
    keep: bool = False
    elif_: bool = False

    def head(self) -> str:
        return self.fmt.format(*(e.render() for e in self.exprs))

    def render(self, indent: int = 0) -> list[str]:
        pad = "    " * indent
        if self.kind in ("line", "return"):
            return [pad + self.head()]
        lines = [pad + self.head()]
        lines += _block(self.body, indent + 1)
        if self.kind == "if" and self.orelse:
            if len(self.orelse) == 1 and self.orelse[0].kind == "if" and self.orelse[0].elif_:
                sub = self.orelse[0].render(indent)
                lines.append(pad + "el" + sub[0].lstrip())
                lines += sub[1:]
            else:
                lines.append(pad + "else:")
                lines += _block(self.orelse, indent + 1)
        return lines


def _block(stmts: list, indent: int) -> list[str]:
    out = []
    for s in stmts:
        out += s.render(indent)
    return out or ["    " * indent + "pass"]


@dataclass
class Arg:
    """A parameter of the entry: ``kind`` "tensor" (``a``/``b`` arrays), "int", "float", "mutable" (an int
    passed as ``ms.mutable``) or "tuple" (a tuple of arrays)."""

    name: str
    kind: str
    a: Any
    b: Any

    def value(self, which: str, dtype=np.float32) -> Any:
        """The call's argument for input set ``which`` ("a" or "b"); tensors in ``dtype``."""
        import sprout as ms

        v = self.a if which == "a" else self.b
        if self.kind == "tensor":
            return ms.Tensor(np.array(v, dtype))
        if self.kind == "tuple":
            return tuple(ms.Tensor(np.array(x, dtype)) for x in v)
        if self.kind == "mutable":
            return ms.mutable(v)
        return v

    def literal(self, which: str) -> str:
        v = self.a if which == "a" else self.b
        if self.kind == "tensor":
            return f"Tensor(np.array({_round(v)!r}, np.float32))"
        if self.kind == "tuple":
            inner = ", ".join(f"Tensor(np.array({_round(x)!r}, np.float32))" for x in v)
            return f"({inner},)"
        if self.kind == "mutable":
            return f"ms.mutable({v!r})"
        return repr(v)


def slots(n: int) -> str:
    """``"{0}, {1}, ..."``: format fields for n operands."""
    return ", ".join("{" + str(i) + "}" for i in range(n))


def _round(a) -> Any:
    return np.asarray(a, np.float64).tolist()


@dataclass
class Program:
    """A module: global Parameters, helpers (defs and Cell classes), the entry (``def f`` or a Cell class
    ``Net`` whose instance ``net`` is the entry), its arguments and the output weights of the loss."""

    seed: int
    globals_: list  # Stmt lines (module-level Parameters)
    helpers: list   # Stmt defs / classes
    main: Stmt      # def f(...) or class Net
    args: list      # Arg
    entry: str      # "f" or "net"
    weights: list   # names of the Parameters to differentiate ("p0", "net.w")
    features: set = field(default_factory=set)

    def copy(self) -> Program:
        return copy.deepcopy(self)

    def final_return(self) -> Stmt:
        body = self.main.body if self.main.kind == "def" else _construct(self.main).body
        return body[-1]

    def outputs(self) -> list:
        """The types of the entry's return values (a tuple return lists each element)."""
        ret = self.final_return()
        return [e.ty for e in ret.exprs]

    def render(self) -> str:
        lines = [HEADER]
        lines += [s.head() for s in self.globals_]
        for h in self.helpers:
            lines.append("")
            lines += h.render()
        lines.append("")
        lines += self.main.render()
        if self.entry == "net":
            lines += ["", "net = Net()"]
        lines += ["", ""] + self._harness()
        return "\n".join(lines) + "\n"

    def arg_names(self) -> list[str]:
        return [a.name for a in self.args]

    def grad_positions(self) -> tuple:
        return tuple(i for i, a in enumerate(self.args) if a.kind == "tensor")

    def _harness(self) -> list[str]:
        """``fuzz_combine(out)`` (the weighted sum of the tensor outputs), ``fuzz_loss`` and ``fuzz_grad``
        (gradients taken inside the module, for jit-of-grad)."""
        names = ", ".join(self.arg_names())
        lines = []
        single = self.final_return().fmt == "return {0}"
        terms = []
        for i, ty in enumerate(self.outputs()):
            if isinstance(ty, tuple):
                lines.append(f"FUZZ_W{i} = Tensor(np.array({out_weight(ty, i).tolist()!r}, np.float32))")
                o = "out" if single else f"out[{i}]"
                terms.append(f"({o} * FUZZ_W{i}).sum()")
        lines.append("")
        lines.append("def fuzz_combine(out):")
        lines.append("    return " + (" + ".join(terms) if terms else "None"))
        lines.append("")
        lines.append("")
        lines.append(f"def fuzz_loss({names}):")
        lines.append(f"    return fuzz_combine({self.entry}({names}))")
        lines.append("")
        lines.append("")
        pos = self.grad_positions()
        wts = "[" + ", ".join(self.weights) + "]" if self.weights else "None"
        lines.append(f"def fuzz_grad({names}):")
        lines.append(f"    return ops.grad(fuzz_loss, grad_position={pos!r}, weights={wts})({names})")
        return lines

    def has_grad(self) -> bool:
        return bool(self.grad_positions() or self.weights) and any(isinstance(t, tuple) for t in self.outputs())


def out_weight(shape: tuple, i: int) -> np.ndarray:
    """The loss weight of output ``i``: distinct, exactly representable values (a ones cotangent would hide
    swapped or summed gradients)."""
    n = int(np.prod(shape)) if shape else 1
    return (((np.arange(n) * 7 + 3 * i) % 5 + 1) * 0.25).reshape(shape).astype(np.float32)


def _construct(cls: Stmt) -> Stmt:
    return next(s for s in cls.body if s.kind == "def" and s.fmt.startswith("def construct"))


@dataclass
class SourceProgram:
    """A program given as source (a regression test): what the harness needs from a ``Program``."""

    source: str
    args: list
    entry: str = "f"
    weights: list = field(default_factory=list)

    def render(self) -> str:
        return self.source

    def grad_positions(self) -> tuple:
        return tuple(i for i, a in enumerate(self.args) if a.kind == "tensor")

    def has_grad(self) -> bool:
        return "def fuzz_grad(" in self.source

    def check_weights(self) -> None:
        """grad-of-jit differentiates ``weights`` and is compared with the source's ``fuzz_grad``: they must name
        the same Parameters (else the two gradients differ in structure whatever the compiler does: fuzz-24)."""
        want = "weights=" + ("[" + ", ".join(self.weights) + "]" if self.weights else "None")
        if self.has_grad() and want not in self.source:
            raise ValueError(f"the program's fuzz_grad does not differentiate {want[8:]} (the weights given)")

    def copy(self) -> SourceProgram:
        return copy.deepcopy(self)
