"""Sources (where a value came from), guards on them, and exit recipes, compiled to Python functions."""
from __future__ import annotations

import types
from typing import Any

import numpy as np

from ...backend.buffers import store
from .aliases import apart, layout_of

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

    def __init__(self, prefix: str = "K"):
        self.prefix = prefix
        self.ns: dict[str, Any] = {"MISSING": MISSING, "SymIter": SymIter, "_cell": types.CellType,
                                   "_float_tensor": _float_tensor}
        self.lines: list[str] = []
        self._ids: dict[int, str] = {}
        self._paths: dict[tuple, str] = {}
        self.arity = -1          # >= 0: fast-locals 0..arity-1 are the parameters a0, a1, ... (no L, S)
        self.out_names = False   # graph output i is the local O<i> (not O[i])
        self.data: dict = {}     # path key -> the local holding that tensor's array (read by its guard)

    def const(self, value: Any) -> str:
        name = self._ids.get(id(value))
        if name is None:
            name = f"{self.prefix}{len(self._ids)}"
            self._ids[id(value)] = name
            self.ns[name] = value
        return name

    def path(self, p: tuple) -> str:
        k = p[0]
        if k == "L":
            if self.arity >= 0:
                if p[1] >= self.arity:
                    raise _NoFast
                return f"a{p[1]}"
            return f"L[{p[1]}]"
        if k == "S":
            if self.arity >= 0:
                raise _NoFast
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
            if self.arity >= 0:
                raise _NoFast
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
            rhs = self.path(p)  # first: it may name the parent path's variable (the next free number)
            name = f"v{len(self._paths)}"
            self.lines.append(f"    {name} = {rhs}")
            self._paths[key] = name
        return name

    def compile(self, name: str, params: str) -> types.FunctionType:
        return link([(self, name, params)])[0]


def link(parts: list) -> list:
    """Compile several generated functions ``(gen, name, params)`` in one ``compile`` call (the cost of a
    first call is dominated by compiles; an entry's check, exit and fast functions share one)."""
    ns: dict = {}
    sources = []
    for gen, name, params in parts:
        ns.update(gen.ns)
        sources.append(f"def {name}({params}):\n" + "\n".join(gen.lines) + "\n")
    exec(compile("\n".join(sources), f"<pijit {' '.join(p[1] for p in parts)}>", "exec"), ns)  # noqa: S102
    fns = []
    for (_, name, _), src in zip(parts, sources):
        fn = ns[name]
        fn.source = src
        fns.append(fn)
    return fns


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
    if kind == "SAME":
        return f"{p} is the same object as {describe_path(g[2])}"
    if kind == "DIFF":
        return f"{p} is not the same object as {describe_path(g[2])}"
    if kind == "VIEWOF":
        return f"{p} shares memory with {describe_path(g[2])} at element offset {g[3][0]}, strides {g[3][1]}"
    if kind == "APART":
        return f"{', '.join(describe_path(x) for x in g[2])} share no memory"
    if kind == "METH":
        return f"{p} is the method {g[2].__qualname__} of the same object"
    if kind == "BMETH":
        return f"{p} is the builtin method {g[3]} of the same object"
    return repr(g)


class _NoFast(Exception):
    """The entry reads frame slots a fused fast function cannot see (stack, non-argument locals)."""


def _guard_lines(gen: _Gen, guards: list, fail) -> None:
    """One ``if <guard fails>: return <fail(i)>`` per guard, in capture order (values read once)."""
    for i, g in enumerate(guards, 1):
        kind = g[0]
        x = gen.path_var(g[1]) if kind != "V" or g[1][0] not in ("L", "S") else gen.path(g[1])
        r = fail(i)
        if kind == "TEN":
            cls, shape, npdt = gen.const(g[2]), g[3], gen.const(g[5])
            d = f"d{i}"
            gen.data.setdefault(path_key(g[1]), d)
            gen.lines.append(f"    if {x}.__class__ is not {cls}: return {r}")
            gen.lines.append(f"    {d} = {x}._data")
            if None in shape:
                conds = [f"len({d}.shape) != {len(shape)}"]
                conds += [f"{d}.shape[{a}] != {n}" for a, n in enumerate(shape) if n is not None]
                gen.lines.append(f"    if {' or '.join(conds)}: return {r}")
            else:
                gen.lines.append(f"    if {d}.shape != {tuple(shape)!r}: return {r}")
            gen.lines.append(f"    if {d}.dtype is not {npdt} and {d}.dtype != {npdt}: return {r}")
        elif kind == "V":
            v = g[2]
            if v is None:
                gen.lines.append(f"    if {x} is not None: return {r}")
            elif isinstance(v, (float, complex)) and v != v:  # NaN equals nothing: same class, same text
                gen.lines.append(f"    if {x}.__class__ is not {gen.const(type(v))} or repr({x}) != {repr(v)!r}: "
                                 f"return {r}")
            elif isinstance(v, (bool, int, float, str, bytes, complex)):
                lit = gen.const(v) if isinstance(v, (float, complex)) and not np.isfinite(v) else repr(v)  # inf
                gen.lines.append(f"    if {x}.__class__ is not {gen.const(type(v))} or {x} != {lit}: return {r}")
            else:
                gen.lines.append(f"    if {x} != {gen.const(v)}: return {r}")
        elif kind == "ID":
            gen.lines.append(f"    if {x} is not {gen.const(g[2])}: return {r}")
        elif kind == "LEN":
            gen.lines.append(f"    if {x}.__class__ is not {gen.const(g[2])} or len({x}) != {g[3]}: return {r}")
        elif kind == "KEYS":
            gen.lines.append(f"    if {x}.__class__ is not dict or tuple({x}) != {gen.const(g[2])}: return {r}")
        elif kind == "TY":
            gen.lines.append(f"    if {x}.__class__ is not {gen.const(g[2])}: return {r}")
        elif kind == "SAME":
            gen.lines.append(f"    if {x} is not {gen.path_var(g[2])}: return {r}")
        elif kind == "DIFF":
            gen.lines.append(f"    if {x} is {gen.path_var(g[2])}: return {r}")
        elif kind == "VIEWOF":  # two tensors sharing memory, one at this layout in the other (capture/aliases)
            gen.ns["_layout_of"] = layout_of
            gen.lines.append(f"    if _layout_of({x}, {gen.path_var(g[2])}) != {g[3]!r}: return {r}")
        elif kind == "APART":  # the tensors a writing segment reads share no memory
            gen.ns["_apart"] = apart
            gen.lines.append(f"    if not _apart({', '.join(gen.path_var(p) for p in g[2])}): return {r}")
        elif kind == "METH":
            gen.lines.append(f"    if {x}.__class__ is not {gen.const(types.MethodType)} or "
                             f"{x}.__func__ is not {gen.const(g[2])} or {x}.__self__ is not {gen.const(g[3])}: "
                             f"return {r}")
        elif kind == "BMETH":
            gen.lines.append(f"    if getattr({x}, '__self__', MISSING) is not {gen.const(g[2])} or "
                             f"getattr({x}, '__name__', None) != {g[3]!r}: return {r}")
        else:
            raise ValueError(f"unknown guard {g!r}")


def build_check(guards: list, inputs: list) -> types.FunctionType:
    """``check(L, S)``: the tuple of input tensor objects if every guard holds, else the 1-based
    index of the first guard that failed. One generated function; guards run in capture order."""
    return link([check_part(guards, inputs)])[0]


def check_part(guards: list, inputs: list) -> tuple:
    gen = _Gen("C")
    _guard_lines(gen, guards, str)
    items = [gen.path_var(p) for p in inputs]
    gen.lines.append(f"    return ({', '.join(items)}{',' if len(items) == 1 else ''})")
    return gen, "check", "L, S"


def build_fast(guards: list, inputs: list, ret_r: tuple, arity: int, graph_fn, n_out: int, updates: tuple,
               const_outs: tuple, miss) -> types.FunctionType | None:
    part = fast_part(guards, inputs, ret_r, arity, graph_fn, n_out, updates, const_outs, miss)
    return None if part is None else link([part])[0]


def fast_part(guards: list, inputs: list, ret_r: tuple, arity: int, graph_fn, n_out: int, updates: tuple,
              const_outs: tuple, miss) -> tuple | None:
    """``fast(a0, a1, ...)`` for a whole-function entry: guards, the compiled graph, the output Tensors and
    the return value in one generated function; ``miss`` when a guard fails or a tape is recording
    (the general path then runs). None when the entry reads more than the arguments."""
    from ...core import dispatch
    from ...core.tensor import Tensor

    gen = _Gen("F")
    gen.arity, gen.out_names = arity, True
    gen.ns.update(_MISS=miss, _d=dispatch, _new=object.__new__, _T=Tensor, _nd=np.ndarray, _asarray=np.asarray)
    try:
        _guard_lines(gen, guards, lambda i: "_MISS")
        items = [gen.path_var(p) for p in inputs]
        if graph_fn is not None:
            gen.ns["_G"] = graph_fn
            gen.lines.append("    if _d._holders: return _MISS")  # tapes (active or held) take the slow path
            arrays = [gen.data.get(path_key(p)) or f"{x}._data" for p, x in zip(inputs, items)]
            gen.lines.append(f"    res = _G({', '.join(arrays)})")
            for k in range(n_out):
                gen.lines.append(f"    O{k} = _new(_T); r = res[{k}]; "
                                 f"O{k}._data = r if r.__class__ is _nd else _asarray(r)")
            for k in const_outs:
                gen.lines.append(f"    O{k}._data = _np.array(O{k}._data)")
                gen.ns["_np"] = np
            for j, idx in enumerate(updates):  # into the array the tensor holds, as an eager assign does
                gen.ns["_store"] = store
                gen.lines.append(f"    _store({items[idx]}, res[{n_out + j}])")
        gen.lines.append(f"    return {_expr(gen, ret_r, {})}")
    except _NoFast:
        return None
    return gen, "fast", ", ".join(f"a{k}" for k in range(arity))


# ---- exit recipes ------------------------------------------------------------------------------------
# A recipe rebuilds one frame value after a segment ran:
#   ("O", i) graph output i        ("P", path) a value of the entry frame / a held object
#   ("K", v) a constant            ("U",) an unbound slot
#   ("T", type, [r...]) tuple      ("LST", [r...]) fresh list   ("DCT", [(key, r)...]) fresh dict
#   ("GA", r, name) bound method   ("IT", r_items, pos) iterator  ("CELL", r) fresh cell
#   ("MT", function, r) a method bound again (the function is not its class's attribute of that name)
#   ("FN", code, globals, name, r_defaults, [r_cells], r_kwdefaults) a function made by MAKE_FUNCTION
#   ("CALL", r_fn, [r_args], [(name, r)]) an object sprout code made from graph values, made again by the call
#   ("VIEW", r, chain) an eager view (ir/views.py steps) of the tensor r makes, sharing its buffer
def view_of(root, chain: tuple):
    """A Tensor holding the view ``chain`` takes of ``root``'s array (as the eager ops made it)."""
    from ...core import dispatch
    from ...core.tensor import Tensor

    if dispatch._tapes:  # recorded, as the eager ops were: gradients of later reads reach ``root``
        x = root
        for step in chain:
            rest = tuple(Tensor(r) if isinstance(r, np.ndarray) else r for r in step.rest)
            x = dispatch.bind(step.op, (x,) + rest, dict(step.attrs))
            if step.index is not None:
                x = x[step.index]
        return x
    a = root._data
    for step in chain:
        a = step.run(a)
    t = Tensor.__new__(Tensor)
    t._data = a if a.__class__ is np.ndarray else np.asarray(a)
    if chain:  # an eager view op's result (core/views.py): ops.assign refuses it
        t._view = True
    return t


def method_recipe(v, recipe) -> tuple:
    """A bound method: read again by name, or, for a function installed under another name (Tensor.cumsum is
    ``_cumsum``), bound again to its rebuilt object."""
    fn = getattr(v, "__func__", None)
    if fn is not None and getattr(type(v.__self__), v.__name__, None) is not fn:
        return ("MT", fn, recipe(v.__self__))
    return ("GA", recipe(v.__self__), v.__name__)


def _expr(gen: _Gen, r: tuple, temps: dict) -> str:
    kind = r[0]
    if kind == "O":
        return f"O{r[1]}" if gen.out_names else f"O[{r[1]}]"
    if kind == "P":
        return gen.path(r[1]) if r[1][0] in ("L", "S", "H") else f"({gen.path(r[1])})"
    if kind == "K":
        v = r[1]
        if v is None or isinstance(v, (bool, int)) or (isinstance(v, str) and len(v) < 40):
            return repr(v)
        return gen.const(v)
    if kind == "U":
        return "UNBOUND"
    if kind == "VIEW":
        gen.ns["_view_of"] = view_of
        return f"_view_of({_expr(gen, r[1], temps)}, {gen.const(r[2])})"
    if kind == "GA":
        return f"getattr({_expr(gen, r[1], temps)}, {r[2]!r})"
    if kind == "MT":
        gen.ns["_MethodType"] = types.MethodType
        return f"_MethodType({gen.const(r[1])}, {_expr(gen, r[2], temps)})"
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
    elif kind == "CALL":
        args = [_expr(gen, x, temps) for x in r[2]] + [f"{k}={_expr(gen, x, temps)}" for k, x in r[3]]
        rhs = f"{_expr(gen, r[1], temps)}({', '.join(args)})"
    else:
        raise ValueError(f"unknown recipe {r!r}")
    gen.lines.append(f"    {name} = {rhs}")
    return name


def build_exit(locals_r: list | None, stack_r: list | None, ret_r: tuple | None, unbound: Any,
               exc_r: tuple | None = None) -> types.FunctionType:
    """``exit(L, S, E, O)``: the return value (``ret_r``) or the new ``(locals, stack)`` lists."""
    return link([exit_part(locals_r, stack_r, ret_r, unbound, exc_r)])[0]


def exit_part(locals_r: list | None, stack_r: list | None, ret_r: tuple | None, unbound: Any,
              exc_r: tuple | None = None) -> tuple:
    gen = _Gen("E")
    gen.ns["UNBOUND"] = unbound
    temps: dict = {}
    if ret_r is not None:
        gen.lines.append(f"    return {_expr(gen, ret_r, temps)}")
    else:
        loc = [_expr(gen, r, temps) for r in locals_r]
        stk = [_expr(gen, r, temps) for r in stack_r]
        exc = _expr(gen, exc_r, temps) if exc_r is not None else "None"
        gen.lines.append(f"    return [{', '.join(loc)}], [{', '.join(stk)}], {exc}")
    return gen, "exit", "L, S, E, O"
