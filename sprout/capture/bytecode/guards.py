"""Sources (where a value came from), guards on them, and exit recipes, compiled to Python functions."""
from __future__ import annotations

import types
from typing import Any

import numpy as np

MISSING = object()


class SymIter:
    """A for-loop iterator the executor can snapshot: the items and the next position."""

    __slots__ = ("items", "pos")

    def __init__(self, items: list, pos: int = 0):
        self.items, self.pos = items, pos

    def __iter__(self):
        return self

    def __next__(self):
        if self.pos < len(self.items):
            self.pos += 1
            return self.items[self.pos - 1]
        raise StopIteration

    def __repr__(self) -> str:
        return f"SymIter({len(self.items)} items, at {self.pos})"


def _float_tensor(v: float):
    from ...core.tensor import Tensor

    t = Tensor.__new__(Tensor)
    t._data = np.asarray(v, np.float32)
    return t


def path_key(p):
    """A hashable key for a source path (objects inside it by identity)."""
    if isinstance(p, tuple):
        return tuple(path_key(x) for x in p)
    if p is None or isinstance(p, (str, int)):
        return p
    return ("id", id(p))


def describe_path(p: tuple) -> str:
    """Readable text of a source path (for reports and guard-failure messages)."""
    k = p[0]
    if k == "L":
        return p[2] if len(p) > 2 else f"local[{p[1]}]"
    if k == "S":
        return f"stack[{p[1]}]"
    if k == "D":
        return f"global {p[2]!r}"
    if k == "GB":
        return f"builtin {p[3]!r}"
    if k == "A":
        return f"{describe_path(p[1])}.{p[2]}"
    if k in ("I", "K"):
        return f"{describe_path(p[1])}[{p[2]!r}]"
    if k == "H":
        return f"<{type(p[1]).__name__}>"
    return repr(p)


class _Gen:
    """Builds the source of one generated function; constants are bound by name."""

    def __init__(self):
        self.ns: dict[str, Any] = {"MISSING": MISSING, "SymIter": SymIter, "_cell": types.CellType,
                                   "_float_tensor": _float_tensor}
        self.lines: list[str] = []
        self._ids: dict[int, str] = {}
        self._paths: dict[tuple, str] = {}

    def const(self, value: Any) -> str:
        name = self._ids.get(id(value))
        if name is None:
            name = f"K{len(self._ids)}"
            self._ids[id(value)] = name
            self.ns[name] = value
        return name

    def path(self, p: tuple) -> str:
        k = p[0]
        if k == "L":
            return f"L[{p[1]}]"
        if k == "S":
            return f"S[{p[1]}]"
        if k == "D":
            return f"{self.const(p[1])}.get({p[2]!r}, MISSING)"
        if k == "GB":
            g, b = self.const(p[1]), self.const(p[2])
            return f"({g}[{p[3]!r}] if {p[3]!r} in {g} else {b}.get({p[3]!r}, MISSING))"
        if k == "A":
            return f"getattr({self.path_var(p[1])}, {p[2]!r}, MISSING)"
        if k == "I":
            return f"{self.path_var(p[1])}[{p[2]!r}]"
        if k == "K":
            return f"{self.path_var(p[1])}[{self.const(p[2])}]"
        if k == "H":
            return self.const(p[1])
        if k == "E":
            return "E"
        if k == "FLOAT":
            return f"_float_tensor({self.path_var(p[1])})"
        raise ValueError(f"unknown source path {p!r}")

    def path_var(self, p: tuple) -> str:
        """A local variable holding the path's value (evaluated once, in guard order)."""
        if p[0] in ("L", "S", "H", "E", "FLOAT"):
            return self.path(p)
        key = path_key(p)
        name = self._paths.get(key)
        if name is None:
            name = f"v{len(self._paths)}"
            self.lines.append(f"    {name} = {self.path(p)}")
            self._paths[key] = name
        return name

    def compile(self, name: str, params: str) -> types.FunctionType:
        src = f"def {name}({params}):\n" + "\n".join(self.lines) + "\n"
        exec(compile(src, f"<pijit {name}>", "exec"), self.ns)  # noqa: S102 - our own generated code
        fn = self.ns[name]
        fn.source = src
        return fn


def guard_text(g: tuple) -> str:
    kind, p = g[0], describe_path(g[1])
    if kind == "TEN":
        dims = ",".join("?" if d is None else str(d) for d in g[3])
        return f"{p} is a {g[2].__name__} of shape [{dims}] and dtype {g[4]}"
    if kind == "V":
        return f"{p} == {g[2]!r}"
    if kind == "ID":
        return f"{p} is the same {type(g[2]).__name__} object"
    if kind == "LEN":
        return f"{p} is a {g[2].__name__} of length {g[3]}"
    if kind == "KEYS":
        return f"{p} is a dict with keys {list(g[2])}"
    if kind == "TY":
        return f"{p} is a {g[2].__name__}"
    if kind == "METH":
        return f"{p} is the method {g[2].__qualname__} of the same object"
    if kind == "BMETH":
        return f"{p} is the builtin method {g[3]} of the same object"
    return repr(g)


def build_check(guards: list, inputs: list) -> types.FunctionType:
    """``check(L, S)``: the tuple of input tensor objects if every guard holds, else the 1-based
    index of the first guard that failed. One generated function; guards run in capture order."""
    gen = _Gen()
    for i, g in enumerate(guards, 1):
        kind = g[0]
        x = gen.path_var(g[1]) if kind != "V" or g[1][0] not in ("L", "S") else gen.path(g[1])
        if kind == "TEN":
            cls, shape, npdt = gen.const(g[2]), g[3], gen.const(g[5])
            gen.lines.append(f"    if {x}.__class__ is not {cls}: return {i}")
            if None in shape:
                conds = [f"len({x}._data.shape) != {len(shape)}"]
                conds += [f"{x}._data.shape[{a}] != {d}" for a, d in enumerate(shape) if d is not None]
                gen.lines.append(f"    if {' or '.join(conds)}: return {i}")
            else:
                gen.lines.append(f"    if {x}._data.shape != {tuple(shape)!r}: return {i}")
            gen.lines.append(f"    if {x}._data.dtype is not {npdt} and {x}._data.dtype != {npdt}: return {i}")
        elif kind == "V":
            v = g[2]
            if v is None:
                gen.lines.append(f"    if {x} is not None: return {i}")
            elif isinstance(v, (bool, int, float, str, bytes, complex)):
                gen.lines.append(f"    if {x}.__class__ is not {gen.const(type(v))} or {x} != {v!r}: return {i}")
            else:
                gen.lines.append(f"    if {x} != {gen.const(v)}: return {i}")
        elif kind == "ID":
            gen.lines.append(f"    if {x} is not {gen.const(g[2])}: return {i}")
        elif kind == "LEN":
            gen.lines.append(f"    if {x}.__class__ is not {gen.const(g[2])} or len({x}) != {g[3]}: return {i}")
        elif kind == "KEYS":
            gen.lines.append(f"    if {x}.__class__ is not dict or tuple({x}) != {gen.const(g[2])}: return {i}")
        elif kind == "TY":
            gen.lines.append(f"    if {x}.__class__ is not {gen.const(g[2])}: return {i}")
        elif kind == "METH":
            gen.lines.append(f"    if {x}.__class__ is not {gen.const(types.MethodType)} or "
                             f"{x}.__func__ is not {gen.const(g[2])} or {x}.__self__ is not {gen.const(g[3])}: "
                             f"return {i}")
        elif kind == "BMETH":
            gen.lines.append(f"    if getattr({x}, '__self__', MISSING) is not {gen.const(g[2])} or "
                             f"getattr({x}, '__name__', None) != {g[3]!r}: return {i}")
        else:
            raise ValueError(f"unknown guard {g!r}")
    items = [gen.path_var(p) for p in inputs]
    gen.lines.append(f"    return ({', '.join(items)}{',' if len(items) == 1 else ''})")
    return gen.compile("check", "L, S")


# ---- exit recipes ------------------------------------------------------------------------------------
# A recipe rebuilds one frame value after a segment ran:
#   ("O", i) graph output i        ("P", path) a value of the entry frame / a held object
#   ("K", v) a constant            ("U",) an unbound slot
#   ("T", type, [r...]) tuple      ("LST", [r...]) fresh list   ("DCT", [(key, r)...]) fresh dict
#   ("GA", r, name) bound method   ("IT", r_items, pos) iterator  ("CELL", r) fresh cell
#   ("FN", code, globals, name, r_defaults, [r_cells], r_kwdefaults) a function made by MAKE_FUNCTION
def _expr(gen: _Gen, r: tuple, temps: dict) -> str:
    kind = r[0]
    if kind == "O":
        return f"O[{r[1]}]"
    if kind == "P":
        return gen.path(r[1]) if r[1][0] in ("L", "S", "H") else f"({gen.path(r[1])})"
    if kind == "K":
        v = r[1]
        if v is None or isinstance(v, (bool, int)) or (isinstance(v, str) and len(v) < 40):
            return repr(v)
        return gen.const(v)
    if kind == "U":
        return "UNBOUND"
    if kind == "GA":
        return f"getattr({_expr(gen, r[1], temps)}, {r[2]!r})"
    if kind == "T":
        items = [_expr(gen, x, temps) for x in r[2]]
        body = f"({', '.join(items)}{',' if len(items) == 1 else ''})"
        if r[1] is tuple:
            return body
        return f"{gen.const(r[1])}._make({body})" if hasattr(r[1], "_fields") else f"{gen.const(r[1])}({body})"
    # mutable objects: one temp each, so two references stay one object
    name = temps.get(id(r))
    if name is not None:
        return name
    name = f"t{len(temps)}"
    temps[id(r)] = name
    if kind == "LST":
        rhs = f"[{', '.join(_expr(gen, x, temps) for x in r[1])}]"
    elif kind == "DCT":
        rhs = "{" + ", ".join(f"{gen.const(k)}: {_expr(gen, x, temps)}" for k, x in r[1]) + "}"
    elif kind == "IT":
        rhs = f"SymIter({_expr(gen, r[1], temps)}, {r[2]})"
    elif kind == "CELL":
        rhs = "_cell()" if r[1] is None else f"_cell({_expr(gen, r[1], temps)})"
    elif kind == "FN":
        _, code, glb, fname, defaults, cells, kwdefaults = r
        cl = f"({', '.join(_expr(gen, c, temps) for c in cells)}{',' if len(cells) == 1 else ''})" if cells else "None"
        rhs = (f"_FunctionType({gen.const(code)}, {gen.const(glb)}, {fname!r}, "
               f"{_expr(gen, defaults, temps) if defaults is not None else 'None'}, {cl})")
        gen.ns["_FunctionType"] = types.FunctionType
        if kwdefaults is not None:
            gen.lines.append(f"    {name} = {rhs}")
            gen.lines.append(f"    {name}.__kwdefaults__ = {_expr(gen, kwdefaults, temps)}")
            return name
    else:
        raise ValueError(f"unknown recipe {r!r}")
    gen.lines.append(f"    {name} = {rhs}")
    return name


def build_exit(locals_r: list | None, stack_r: list | None, ret_r: tuple | None, unbound: Any,
               exc_r: tuple | None = None) -> types.FunctionType:
    """``exit(L, S, E, O)``: the return value (``ret_r``) or the new ``(locals, stack)`` lists."""
    gen = _Gen()
    gen.ns["UNBOUND"] = unbound
    temps: dict = {}
    if ret_r is not None:
        gen.lines.append(f"    return {_expr(gen, ret_r, temps)}")
    else:
        loc = [_expr(gen, r, temps) for r in locals_r]
        stk = [_expr(gen, r, temps) for r in stack_r]
        exc = _expr(gen, exc_r, temps) if exc_r is not None else "None"
        gen.lines.append(f"    return [{', '.join(loc)}], [{', '.join(stk)}], {exc}")
    return gen.compile("exit", "L, S, E, O")
