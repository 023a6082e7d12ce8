"""Graph -> readable straight-line Python over NumPy, one line per node, compiled with ``compile()``."""
from __future__ import annotations

import itertools
import keyword
import linecache
import os
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import numpy as np

from ..core.tensor import Tensor
from ..ir.graph import Graph, Node, Var
from .interpret import bind_attrs

# binary ops whose NumPy impl is exactly the ufunc behind a Python operator
_BINOPS = {np.add: "+", np.subtract: "-", np.multiply: "*", np.equal: "==", np.not_equal: "!=",
           np.greater: ">", np.greater_equal: ">=", np.less: "<", np.less_equal: "<="}
# elementwise templates that allocate a fresh array (safe to reuse in place when big and dead)
_BIG = 1 << 15
_counter = itertools.count()


def _numel(t) -> int | None:
    n = 1
    for d in getattr(t, "shape", (None,)):
        if d is None:
            return None
        n *= d
    return n


@dataclass
class Generated:
    """Generated source, the compiled functions, and which node each source line belongs to."""

    source: str
    filename: str
    namespace: dict
    line_nodes: dict = field(default_factory=dict)
    graph: Graph | None = None

    def function(self, name: str) -> Callable:
        return self.namespace[name]

    def node_at(self, lineno: int) -> Node | None:
        return self.line_nodes.get(lineno)


class _Emitter:
    def __init__(self, graph: Graph):
        self.graph = graph
        self.ns: dict[str, Any] = {"_np": np, "_nd": np.ndarray, "_asarray": np.asarray,
                                   "_new": object.__new__, "_Tensor": Tensor}
        self.names: dict[int, str] = {}
        self.consts: dict[int, str] = {}
        self.n_var = 0

    def bind(self, prefix: str, value: Any) -> str:
        for k, v in self.ns.items():
            if v is value and k.startswith(prefix):
                return k
        name = f"{prefix}{sum(1 for k in self.ns if k.startswith(prefix))}"
        self.ns[name] = value
        return name

    def ufunc(self, u: np.ufunc) -> str:
        return f"_np.{u.__name__}" if getattr(np, u.__name__, None) is u else self.bind("_u", u)

    def op_name(self, node: Node) -> str:
        base = f"_{node.op.name}"
        name = base if base.isidentifier() else f"_op{next(_counter)}"
        k = 1
        while name in self.ns and self.ns[name] is not node.op.impl:
            name = f"{base}_{k}"
            k += 1
        self.ns[name] = node.op.impl
        return name

    def ref(self, x: Any) -> str:
        if isinstance(x, Var):
            return self.names[x.uid]
        v = x.value
        if type(v) in (int, bool) or (type(v) is float and np.isfinite(v)):
            return repr(v)
        if v is None:
            return "None"
        return self.bind("_k", v)

    def literal(self, v: Any) -> str:
        if v is None or type(v) in (int, bool, str) or (type(v) is float and np.isfinite(v)):
            return repr(v)
        if type(v) is tuple and all(type(e) in (int, bool) or e is None for e in v):
            return repr(v)
        return self.bind("_k", v)

    def define(self, v: Var) -> str:
        name = f"v{self.n_var}"
        self.n_var += 1
        self.names[v.uid] = name
        return name


def _last_uses(graph: Graph) -> dict[int, int]:
    last: dict[int, int] = {}
    for i, node in enumerate(graph.nodes):
        for x in node.inputs:
            if isinstance(x, Var):
                last[x.uid] = i
    end = len(graph.nodes)
    for o in list(graph.outputs) + [v for _, v in graph.updates]:
        if isinstance(o, Var):
            last[o.uid] = end
    return last


def _node_expr(em: _Emitter, node: Node, owned: set, last: dict, i: int) -> tuple[str, int | None]:
    """Python expression for a one-output node; returns (expr, uid of an input reused in place)."""
    op, ins, attrs = node.op, node.inputs, node.attrs
    args = [em.ref(x) for x in ins]
    out_t = node.outputs[0].type if len(node.outputs) == 1 else None
    impl = op.impl
    if isinstance(impl, np.ufunc) and not attrs and out_t is not None:
        size = _numel(out_t)
        if size is not None and size >= _BIG:  # big: write into a dead input of the same type
            for x in ins:
                if isinstance(x, Var) and x.uid in owned and last.get(x.uid) == i and x.type == out_t:
                    return f"{em.ufunc(impl)}({', '.join(args)}, out={em.names[x.uid]})", x.uid
        if impl in _BINOPS and len(args) == 2:
            return f"{args[0]} {_BINOPS[impl]} {args[1]}", None
        if impl is np.negative:
            return f"-{args[0]}", None
        return f"{em.ufunc(impl)}({', '.join(args)})", None
    if op.name == "MatMul" and not attrs and all(isinstance(x, Var) and len(x.type.shape) >= 2 for x in ins):
        return f"{args[0]} @ {args[1]}", None
    if op.name == "Reshape" and set(attrs) == {"shape"} and isinstance(ins[0], Var) and None not in attrs["shape"]:
        return f"{args[0]}.reshape({em.literal(tuple(attrs['shape']))})", None
    if op.name == "Transpose" and set(attrs) == {"perm"} and isinstance(ins[0], Var):
        return f"{args[0]}.transpose({em.literal(tuple(attrs['perm']))})", None
    from . import compile_subgraph

    bound = bind_attrs(attrs, compile_subgraph)
    if all(k.isidentifier() and not keyword.iskeyword(k) for k in bound):
        args += [f"{k}={em.literal(v)}" for k, v in bound.items()]
    else:
        args.append(f"**{em.bind('_kw', dict(bound))}")
    return f"{em.op_name(node)}({', '.join(args)})", None


_OWNING = {"MatMul"}


def _body(em: _Emitter, graph: Graph, lines: list, line_nodes: dict, indent: str) -> None:
    last = _last_uses(graph)
    owned: set[int] = set()
    viewed = set()  # inputs of ops that may return views or mutate: never written in place
    for node in graph.nodes:
        if not isinstance(node.op.impl, np.ufunc) and node.op.name not in _OWNING:
            viewed.update(x.uid for x in node.inputs if isinstance(x, Var))
    for i, node in enumerate(graph.nodes):
        if len(node.outputs) == 1 and node.op.n_out == 1:
            expr, reused = _node_expr(em, node, owned, last, i)
            lhs = em.define(node.outputs[0])
            if (isinstance(node.op.impl, np.ufunc) or node.op.name in _OWNING) and node.outputs[0].uid not in viewed:
                owned.add(node.outputs[0].uid)
        else:
            expr, reused = _node_expr_multi(em, node), None
            lhs = ", ".join(em.define(o) for o in node.outputs)
            if node.op.name == "FusedElementwise":  # fresh arrays from the kernel: reusable in place
                owned.update(o.uid for o in node.outputs if o.uid not in viewed)
            if len(node.outputs) == 1:
                lhs += ","
        comment = ""
        if node.loc is not None:
            src = (node.loc.source_line or "").strip()
            comment = f"  # {os.path.basename(node.loc.filename)}:{node.loc.lineno}" + (f"  {src}" if src else "")
        lines.append(f"{indent}{lhs} = {expr}{comment}")
        line_nodes[len(lines)] = node
        dead = [x for x in node.inputs if isinstance(x, Var) and last.get(x.uid) == i and x.uid != reused
                and x.uid in owned and (_numel(x.type) or 0) >= _BIG]
        if dead:
            lines.append(f"{indent}del {', '.join(dict.fromkeys(em.names[x.uid] for x in dead))}")


def _node_expr_multi(em: _Emitter, node: Node) -> str:
    from . import compile_subgraph

    args = [em.ref(x) for x in node.inputs]
    if node.op.name == "FusedElementwise":  # the kernel chosen for the group (backend/kernels.py)
        from .kernels import build

        kern = build(node.attrs["graph"], node.attrs.get("strategy", "numpy_blocked"))
        return f"{em.bind('_fused', kern)}({', '.join(args)})"
    bound = bind_attrs(node.attrs, compile_subgraph)
    if all(k.isidentifier() and not keyword.iskeyword(k) for k in bound):
        args += [f"{k}={em.literal(v)}" for k, v in bound.items()]
    else:
        args.append(f"**{em.bind('_kw', dict(bound))}")
    return f"{em.op_name(node)}({', '.join(args)})"


def _register_source(filename: str, source: str) -> None:
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def _finish(em: _Emitter, lines: list, line_nodes: dict, graph: Graph, tag: str) -> Generated:
    source = "\n".join(lines) + "\n"
    filename = f"<sprout-jit {graph.name} #{next(_counter)}{tag}>"
    _register_source(filename, source)
    exec(compile(source, filename, "exec"), em.ns)  # noqa: S102 - our own generated code
    return Generated(source, filename, em.ns, line_nodes, graph)


def generate(graph: Graph) -> Generated:
    """``def graph_fn(x0, x1, ...)`` over arrays returning (outputs..., updated values...)."""
    em = _Emitter(graph)
    lines: list[str] = []
    line_nodes: dict[int, Node] = {}
    params = []
    for k, v in enumerate(graph.inputs):
        em.names[v.uid] = f"x{k}"
        params.append(f"x{k}")
    lines.append(f"def graph_fn({', '.join(params)}):")
    _body(em, graph, lines, line_nodes, "    ")
    rets = [em.ref(o) for o in graph.outputs] + [em.ref(v) for _, v in graph.updates]
    lines.append(f"    return ({', '.join(rets)}{',' if len(rets) == 1 else ''})")
    return _finish(em, lines, line_nodes, graph, "")


def generate_entry(graph: Graph, reads: list, n_leaves: int, update_targets: list, single: bool,
                   leaf_names: list | None = None, n_params: int | None = None) -> Generated:
    """``def entry(a0, a1, ...)`` over the flat argument leaves: unwraps tensors, runs the body,
    writes updates back and wraps the outputs as Tensors (one Tensor if ``single``, else a list).

    ``reads[k]`` says where graph input k comes from: ("arg", leaf, dtype-or-None) or ("param", obj);
    ``update_targets[k]`` is ("arg", leaf) or ("param", obj) for graph.updates[k]."""
    em = _Emitter(graph)
    leaf = leaf_names or [f"a{i}" for i in range(n_leaves)]
    lines = [f"def entry({', '.join(f'a{i}' for i in range(n_leaves if n_params is None else n_params))}):"]
    line_nodes: dict[int, Node] = {}
    for k, (v, read) in enumerate(zip(graph.inputs, reads)):
        em.names[v.uid] = f"x{k}"
        if read[0] == "arg":
            if read[2] is None:
                lines.append(f"    x{k} = {leaf[read[1]]}._data")
            else:
                lines.append(f"    x{k} = _asarray({leaf[read[1]]}, {em.bind('_dt', read[2])})")
        else:
            lines.append(f"    x{k} = {em.bind('_P', read[1])}._data  # {read[1].name or 'parameter'}")
    _body(em, graph, lines, line_nodes, "    ")
    for (_target, value), dest in zip(graph.updates, update_targets):
        obj = leaf[dest[1]] if dest[0] == "arg" else em.bind("_P", dest[1])
        val = em.ref(value)
        lines.append(f"    {obj}._data = {val} if {val}.__class__ is _nd else _asarray({val})")
    outs = []
    inputs = {v.uid for v in graph.inputs}
    for k, o in enumerate(graph.outputs):
        r = f"r{k}"
        if isinstance(o, Var):
            val = em.ref(o)
            if len(o.type.shape) >= 1 or o.uid in inputs:
                lines.append(f"    {r} = _new(_Tensor); {r}._data = {val}")
            else:
                fix = f"{val} if {val}.__class__ is _nd else _asarray({val})"
                lines.append(f"    {r} = _new(_Tensor); {r}._data = {fix}")
        else:
            lines.append(f"    {r} = _new(_Tensor); {r}._data = _np.array({em.bind('_k', o.value)})")
        outs.append(r)
    lines.append(f"    return {outs[0]}" if single else f"    return [{', '.join(outs)}]")
    return _finish(em, lines, line_nodes, graph, " entry")
