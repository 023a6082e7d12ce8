"""Readable text for graphs: ``%3:f32[3,3] = Mul(%1, %2)    # seed.py:12  x = x * x``.

Effects (``ir.effects``) show: ``!`` marks a node that writes state or does io; a state write ends in
``writes %k`` (the operand whose new value its output is); the effect token is typed ``!io`` and starts
as ``world``; ``update %k <- %m`` lines are the write-back epilogue."""
from __future__ import annotations

import os

import numpy as np

from .. import dtype as mstype
from .effects import TokenType, node_writes
from .graph import Const, Graph, Node, Var

_SHORT = {"Bool": "bool", "Float16": "f16", "Float32": "f32", "Float64": "f64", "Int8": "i8", "Int16": "i16",
          "Int32": "i32", "Int64": "i64", "UInt8": "u8", "UInt16": "u16", "UInt32": "u32", "UInt64": "u64"}


def format_type(t) -> str:
    """``f32[3,?]`` for a TensorType (``?`` is a symbolic dimension); ``!io`` for the effect token."""
    if isinstance(t, TokenType):
        return "!io"
    shape = getattr(t, "shape", None)
    dtype = getattr(t, "dtype", None)
    if shape is None or dtype is None:
        return repr(t)
    name = _SHORT.get(getattr(dtype, "name", ""), str(dtype))
    return f"{name}[{','.join('?' if d is None else str(d) for d in shape)}]"


def _format_array(arr: np.ndarray) -> str:
    try:
        t = format_type(_ArrType(arr))
    except TypeError:
        t = f"{arr.dtype}{list(arr.shape)}"
    if arr.size <= 6:
        body = np.array2string(arr.ravel(), separator=", ", formatter=None)[1:-1].strip()
        return f"{t}{{{body}}}"
    return f"{t}{{...}}"


class _ArrType:
    def __init__(self, arr: np.ndarray):
        self.shape = arr.shape
        self.dtype = mstype.from_numpy(arr.dtype)


def format_const(value) -> str:
    if isinstance(value, TokenType):
        return "world"  # the effect token a top-level graph starts from
    if isinstance(value, np.ndarray):
        return _format_array(value)
    if isinstance(value, np.generic):
        return _format_array(np.asarray(value))
    if isinstance(value, mstype.Type):
        return value.name
    if callable(value) and not isinstance(value, type):
        return f"<{getattr(value, '__name__', type(value).__name__)}>"
    return repr(value)


class _Names:
    """Numbers Vars in order of first appearance (stable text across passes)."""

    def __init__(self):
        self.table: dict[int, str] = {}

    def define(self, v: Var) -> str:
        name = f"%{len(self.table)}"
        self.table[v.uid] = name
        return name

    def ref(self, v) -> str:
        if isinstance(v, Var):
            return self.table.get(v.uid) or f"%?{v.name or v.uid}"
        if isinstance(v, Const):
            return format_const(v.value)
        return repr(v)


def _loc_comment(node: Node) -> str:
    loc = node.loc
    if loc is None:
        return ""
    text = (loc.source_line or "").strip()
    return f"    # {os.path.basename(loc.filename)}:{loc.lineno}" + (f"  {text}" if text else "")


def _lines(graph: Graph, names: _Names, indent: str, title: str = "graph") -> list[str]:
    params = []
    for v in graph.inputs:
        n = names.define(v)
        hint = f" ({v.name})" if v.name.startswith("param ") else ""
        params.append(f"{n}:{format_type(v.type)}{hint}")
    out = [f"{indent}{title} {graph.name}({', '.join(params)}) {{"]
    body = indent + "  "
    for node in graph.nodes:
        lhs = ", ".join(f"{names.define(o)}:{format_type(o.type)}" for o in node.outputs)
        args = [names.ref(a) for a in node.inputs]
        subs = []
        for k, v in node.attrs.items():
            if isinstance(v, Graph):
                args.append(f"{k}=@{v.name}")
                subs.append((k, v))
            else:
                args.append(f"{k}={format_const(v)}")
        effect = "!" if node.side_effect else ""
        w = node_writes(node)
        wrote = f" writes {', '.join(names.ref(node.inputs[p]) for p in w)}" if w else ""
        out.append(f"{body}{lhs} = {effect}{node.op.name}({', '.join(args)}){wrote}{_loc_comment(node)}")
        for _, sub in subs:
            out.extend(_lines(sub, names, body + "  ", "subgraph"))
    for target, value in graph.updates:
        out.append(f"{body}update {names.ref(target)} <- {names.ref(value)}")
    rets = [names.ref(o) for o in graph.outputs]
    out.append(f"{body}return {rets[0] if len(rets) == 1 else '(' + ', '.join(rets) + ')'}")
    out.append(indent + "}")
    return out


def format_graph(graph: Graph) -> str:
    """The whole graph (sub-graphs nested under the node that owns them) as text."""
    return "\n".join(_lines(graph, _Names(), ""))
