"""IR pictures: DOT and Mermaid text for a Graph (source lines on nodes, bodies and fused kernels as clusters)."""
from __future__ import annotations

import os
import shutil
import subprocess
from typing import Any

from ..ir.graph import Const, Graph, Node, Var
from ..ir.printer import format_const, format_type

__all__ = ["to_dot", "to_mermaid", "render_svg", "graph_of", "is_fused", "fused_groups"]

_LINE_MAX = 60


def is_fused(node: Node) -> bool:
    """A fused kernel: an op named ``Fused...`` or a non-control op carrying a sub-graph."""
    if node.op.name.startswith("Fused"):
        return True
    return node.op.kind != "control" and bool(node.subgraphs())


def fused_groups(graph: Graph) -> list[dict]:
    """Every fused kernel in ``graph`` (and its bodies): name, member ops and source line."""
    out: list[dict] = []
    for node in graph.nodes:
        subs = node.subgraphs()
        if is_fused(node):
            members = [n.op.name for _, g in subs for n in g.nodes]
            if not members:
                members = list(node.attrs.get("ops", ()) or ())
            loc = node.loc
            out.append({"kernel": node.op.name, "ops": members,
                        "where": f"{os.path.basename(loc.filename)}:{loc.lineno}" if loc else ""})
        for _, g in subs:
            if not is_fused(node):
                out.extend(fused_groups(g))
    return out


def graph_of(fn: Any, *args: Any, stage: str | None = None, **kwargs: Any) -> Graph:
    """The optimized Graph jit made of ``fn`` for these arguments (compiles if needed).

    ``fn`` is a jitted function / method, a Cell (its construct is jitted), or already a Graph.
    ``stage`` picks an intermediate stage instead ("trace", "inline", "simplify", ...)."""
    if isinstance(fn, Graph):
        return fn
    from ..jit.api import BoundJit, JitFunction, jit

    if not isinstance(fn, (JitFunction, BoundJit)):
        if hasattr(fn, "construct") or callable(fn):
            fn = jit(fn)
        else:
            raise TypeError(f"graph_of: expects a jitted function, a Cell or a Graph, got {type(fn).__name__}")
    ex = fn.explain(*args, **kwargs).executable
    if stage is None:
        return ex.graph
    for name, g in ex.stages:
        if name == stage:
            return g
    known = [name for name, _ in ex.stages]
    raise ValueError(f"graph_of: stage {stage!r} did not change the graph or does not exist; stages: {known}")


# ---- shared walk -----------------------------------------------------------------------------------
class _Walk:
    """Numbers Vars like the text printer (%0, %1, ... in definition order) and gives each element an id."""

    def __init__(self):
        self.names: dict[int, str] = {}
        self.producer: dict[int, str] = {}
        self.count = 0

    def new_id(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def define(self, v: Var, element: str) -> str:
        name = f"%{len(self.names)}"
        self.names[v.uid] = name
        self.producer[v.uid] = element
        return name


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LINE_MAX else text[:_LINE_MAX - 3] + "..."


def _loc_text(node: Node) -> str:
    loc = node.loc
    if loc is None:
        return ""
    src = _short((loc.source_line or "").strip())
    return f"{os.path.basename(loc.filename)}:{loc.lineno}" + (f"  {src}" if src else "")


def _node_lines(node: Node, walk: _Walk, element: str) -> list[str]:
    outs = ", ".join(f"{walk.define(o, element)}: {format_type(o.type)}" for o in node.outputs)
    attrs = [f"{k}={_short(format_const(v))}" for k, v in node.attrs.items() if not isinstance(v, Graph)]
    head = ("!" if node.side_effect else "") + node.op.name
    lines = [head + (f" ({_short(', '.join(attrs))})" if attrs else ""), outs]
    loc = _loc_text(node)
    if loc:
        lines.append(loc)
    return lines


class _Emitter:
    """Builds the element/edge/cluster structure once; DOT and Mermaid print it."""

    def __init__(self, graph: Graph):
        self.walk = _Walk()
        self.elements: list = []   # ("node", id, lines, shape) | ("open", id, title, style) | ("close",)
        self.edges: list = []      # (src, dst, label, dashed)
        self.graph(graph, top=True)

    def value_source(self, v: Any) -> str:
        if isinstance(v, Var) and v.uid in self.walk.producer:
            return self.walk.producer[v.uid]
        cid = self.walk.new_id("c")
        text = format_const(v.value) if isinstance(v, Const) else repr(v)
        self.elements.append(("node", cid, [_short(text)], "const"))
        return cid

    def graph(self, graph: Graph, top: bool = False) -> str:
        for v in graph.inputs:
            iid = self.walk.new_id("i")
            name = self.walk.define(v, iid)
            hint = f" ({v.name})" if v.name.startswith("param ") else ""
            self.elements.append(("node", iid, [f"{name}: {format_type(v.type)}{hint}"], "input"))
        for node in graph.nodes:
            self.node(node)
        for target, value in graph.updates:
            uid = self.walk.new_id("u")
            self.elements.append(("node", uid, [f"update {self.walk.names.get(target.uid, '?')}"], "update"))
            self.edges.append((self.value_source(value), uid, "", True))
        rid = self.walk.new_id("r")
        self.elements.append(("node", rid, ["return" if top else f"return ({graph.name})"], "return"))
        for k, o in enumerate(graph.outputs):
            self.edges.append((self.value_source(o), rid, str(k) if len(graph.outputs) > 1 else "", False))
        return rid

    def node(self, node: Node) -> None:
        nid = self.walk.new_id("n")
        fused = is_fused(node)
        if fused:
            self.elements.append(("open", self.walk.new_id("cluster_f"), f"fused kernel {node.op.name}", "fused"))
        sources = [self.value_source(v) for v in node.inputs]
        lines = _node_lines(node, self.walk, nid)
        self.elements.append(("node", nid, lines, "fused" if fused else ("effect" if node.side_effect else "op")))
        for k, src in enumerate(sources):
            self.edges.append((src, nid, str(k) if len(sources) > 1 else "", False))
        for attr, sub in node.subgraphs():
            if not fused:
                self.elements.append(("open", self.walk.new_id("cluster_g"), f"{node.op.name}.{attr}: {sub.name}",
                                      "body"))
            ret = self.graph(sub)
            self.edges.append((ret, nid, attr, True))
            if not fused:
                self.elements.append(("close",))
        if fused:
            self.elements.append(("close",))


# ---- DOT ---------------------------------------------------------------------------------------------
_DOT_SHAPES = {"op": 'shape=box, style="rounded"', "effect": 'shape=box, style="rounded,bold", color=red',
               "fused": 'shape=box, style="rounded,filled", fillcolor="#ffe8b0"',
               "input": 'shape=ellipse, style=filled, fillcolor="#e0f0ff"', "const": "shape=plaintext",
               "return": 'shape=doubleoctagon', "update": 'shape=box, style="dashed"'}
_DOT_CLUSTERS = {"body": 'style="dashed"; color="#5070a0"', "fused": 'style="filled"; fillcolor="#fff6dc"'}


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def to_dot(graph: Any, *args: Any, **kwargs: Any) -> str:
    """Graphviz DOT text of ``graph`` (or of ``graph_of(fn, *args)``): one box per node with its
    outputs, attributes and source line; control-flow bodies and fused kernels are clusters."""
    graph = graph_of(graph, *args, **kwargs) if not isinstance(graph, Graph) else graph
    em = _Emitter(graph)
    out = [f'digraph "{_dot_escape(graph.name)}" {{', "  rankdir=TB; compound=true;",
           '  node [fontname="monospace", fontsize=10]; edge [fontsize=9];',
           f'  label="{_dot_escape(graph.name)}"; labelloc=t;']
    depth = 1
    for el in em.elements:
        pad = "  " * depth
        if el[0] == "node":
            label = "\\l".join(_dot_escape(x) for x in el[2]) + ("\\l" if len(el[2]) > 1 else "")
            out.append(f'{pad}{el[1]} [label="{label}", {_DOT_SHAPES[el[3]]}];')
        elif el[0] == "open":
            out.append(f'{pad}subgraph {el[1]} {{ label="{_dot_escape(el[2])}"; {_DOT_CLUSTERS[el[3]]};')
            depth += 1
        else:
            depth -= 1
            out.append("  " * depth + "}")
    for src, dst, label, dashed in em.edges:
        attrs = []
        if label:
            attrs.append(f'label="{_dot_escape(label)}"')
        if dashed:
            attrs.append("style=dashed")
        out.append(f"  {src} -> {dst}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    out.append("}")
    return "\n".join(out) + "\n"


# ---- Mermaid -----------------------------------------------------------------------------------------
_MM_SHAPES = {"op": ('["', '"]'), "effect": ('["', '"]'), "fused": ('["', '"]'), "input": ('(["', '"])'),
              "const": ('["', '"]'), "return": ('[["', '"]]'), "update": ('[/"', '"/]')}


def _mm_escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace('"', "#quot;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("[", "&#91;").replace("]", "&#93;"))


def to_mermaid(graph: Any, *args: Any, **kwargs: Any) -> str:
    """Mermaid ``flowchart`` text of ``graph`` (or of ``graph_of(fn, *args)``), same structure as ``to_dot``."""
    graph = graph_of(graph, *args, **kwargs) if not isinstance(graph, Graph) else graph
    em = _Emitter(graph)
    out = ["flowchart TD"]
    classes: dict[str, list[str]] = {}
    depth = 1
    for el in em.elements:
        pad = "  " * depth
        if el[0] == "node":
            left, right = _MM_SHAPES[el[3]]
            out.append(f"{pad}{el[1]}{left}{'<br/>'.join(_mm_escape(x) for x in el[2])}{right}")
            classes.setdefault(el[3], []).append(el[1])
        elif el[0] == "open":
            out.append(f'{pad}subgraph {el[1]}["{_mm_escape(el[2])}"]')
            depth += 1
        else:
            depth -= 1
            out.append("  " * depth + "end")
    for src, dst, label, dashed in em.edges:
        arrow = "-.->" if dashed else "-->"
        out.append(f"  {src} {arrow}" + (f"|{_mm_escape(label)}|" if label else "") + f" {dst}")
    styles = {"fused": "fill:#ffe8b0", "effect": "stroke:#d00,stroke-width:2px", "input": "fill:#e0f0ff",
              "const": "fill:#ffffff,stroke:#bbb"}
    for kind, style in styles.items():
        if kind in classes:
            out.append(f"  classDef {kind} {style}")
            out.append(f"  class {','.join(classes[kind])} {kind}")
    return "\n".join(out) + "\n"


# ---- SVG ---------------------------------------------------------------------------------------------
def render_svg(graph: Any, path: str, *args: Any, **kwargs: Any) -> str:
    """Write ``graph`` as SVG to ``path`` with Graphviz's ``dot``; returns ``path``."""
    exe = shutil.which("dot")
    if exe is None:
        raise RuntimeError("render_svg: Graphviz's `dot` program is not on PATH. Install graphviz "
                           "(apt-get install graphviz, brew install graphviz or conda install graphviz), "
                           "or use sprout.debug.to_dot() / to_mermaid() and render the text elsewhere.")
    text = to_dot(graph, *args, **kwargs)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    proc = subprocess.run([exe, "-Tsvg", "-o", path], input=text.encode(), capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"render_svg: dot failed ({proc.returncode}): {proc.stderr.decode(errors='replace')}")
    return path
