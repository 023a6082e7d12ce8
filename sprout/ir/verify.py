"""The IR verifier: SSA, types against each op's infer rule, and the effect discipline of ``ir.effects``
(functional state writes, one linear token chain through io, write-backs only at the top level)."""
from __future__ import annotations

from .effects import is_io, is_io_op, is_token, op_inputs, op_outputs, writes
from .graph import Const, Graph, Var


class IRError(Exception):
    """A malformed graph (a pass or front-end bug); the message names the node and graph."""


def _types_match(expected, actual) -> bool:
    if not hasattr(expected, "shape") or not hasattr(actual, "shape"):
        return True
    if expected.dtype is not actual.dtype or len(expected.shape) != len(actual.shape):
        return False
    return all(a is None or b is None or a == b for a, b in zip(expected.shape, actual.shape))


def verify(graph: Graph, *, check_types: bool = True, body: bool = False) -> Graph:
    """Raise IRError if ``graph`` is malformed; return it unchanged (so passes can chain). ``body``:
    a control-flow body or fused sub-graph (its writes must be outputs, never ``updates``)."""
    defined: set[int] = set()
    name = graph.name

    def define(v, where: str) -> None:
        if not isinstance(v, Var):
            raise IRError(f"{name}: {where} defines {v!r}, which is not a Var")
        if v.uid in defined:
            raise IRError(f"{name}: {where} redefines {v!r} (SSA: one definition per Var)")
        defined.add(v.uid)

    def use(v, where: str) -> None:
        if isinstance(v, Const):
            return
        if not isinstance(v, Var):
            raise IRError(f"{name}: {where} uses {v!r}, which is neither a Var nor a Const")
        if v.uid not in defined:
            raise IRError(f"{name}: {where} uses {v!r} before it is defined")

    for v in graph.inputs:
        define(v, "the input list")
    tokens = _TokenChain(graph)
    for i, node in enumerate(graph.nodes):
        where = f"node {i} ({node.op.name})"
        for a in node.inputs:
            use(a, where)
        _check_arity(graph, where, node)
        tokens.step(where, node)
        for o in node.outputs:
            define(o, where)
        for _, sub in node.subgraphs():
            verify(sub, check_types=check_types, body=True)
        if check_types and node.op.kind != "control":
            _check_node_types(graph, where, node)
    for o in graph.outputs:
        use(o, "the return")
    tokens.finish(body)
    _check_updates(graph, body, use)
    return graph


def _check_arity(graph: Graph, where: str, node) -> None:
    op = node.op
    w = writes(op)
    if is_io_op(op):
        if not (node.inputs and is_token(node.inputs[0]) and node.outputs and is_token(node.outputs[0])):
            raise IRError(f"{graph.name}: {where} does io but does not take and give the effect token")
    elif any(is_token(x) for x in node.inputs) and op.kind != "control":
        raise IRError(f"{graph.name}: {where} is not an io op but reads the effect token")
    n = len(op_outputs(node))
    if w:
        if n != len(w):
            raise IRError(f"{graph.name}: {where} writes {len(w)} operands but has {n} outputs (one new value each)")
        for k, p in enumerate(w[1:], 1):
            src = node.inputs[p] if p < len(node.inputs) else None
            if src is not None and not _types_match(src.type, node.outputs[k].type):
                raise IRError(f"{graph.name}: {where}: the new value of operand {p} is typed {node.outputs[k].type}, "
                              f"the operand {src.type}")
    elif op.n_out > 0 and n != op.n_out:
        raise IRError(f"{graph.name}: {where} has {n} outputs, the op has {op.n_out}")


class _TokenChain:
    """io nodes must consume the token in program order: each takes the one the previous io node gave
    (the first takes the graph's initial token: the WORLD constant or a token input), and a token is
    consumed at most once. A body returns the last token it made."""

    def __init__(self, graph: Graph):
        self.graph = graph
        ins = [v for v in graph.inputs if is_token(v)]
        if len(ins) > 1:
            raise IRError(f"{graph.name}: {len(ins)} effect-token inputs (at most one)")
        self.current = ins[0] if ins else None
        self.used: set[int] = set()

    def step(self, where: str, node) -> None:
        toks = list({id(x): x for x in node.inputs if is_token(x)}.values())  # a Cond passes it to each branch
        if not toks:
            if is_io(node):
                raise IRError(f"{self.graph.name}: {where} does io but does not take the effect token")
            return
        if len(toks) > 1:
            raise IRError(f"{self.graph.name}: {where} reads {len(toks)} effect tokens")
        tok = toks[0]
        if isinstance(tok, Var):
            if tok.uid in self.used:
                raise IRError(f"{self.graph.name}: {where} reuses an effect token another io node consumed "
                              "(io would run twice or out of order)")
            self.used.add(tok.uid)
        if self.current is not None and tok is not self.current:
            raise IRError(f"{self.graph.name}: {where} does not take the latest effect token (io out of order)")
        if self.current is None and isinstance(tok, Var):
            raise IRError(f"{self.graph.name}: {where} takes a token that is not the graph's initial one")
        outs = [o for o in node.outputs if is_token(o)]
        if len(outs) != 1:
            raise IRError(f"{self.graph.name}: {where} takes the effect token but gives {len(outs)} back")
        self.current = outs[0]

    def finish(self, body: bool) -> None:
        outs = [o for o in self.graph.outputs if is_token(o)]
        if len(outs) > 1 or (outs and outs[0] is not self.current):
            raise IRError(f"{self.graph.name}: returns an effect token that is not its latest one")
        made = isinstance(self.current, Var) and self.current not in self.graph.inputs
        if body and made and not outs:
            raise IRError(f"{self.graph.name}: a body does io but does not return its last effect token")


def _check_updates(graph: Graph, body: bool, use) -> None:
    if body and graph.updates:
        raise IRError(f"{graph.name}: a body writes its inputs in place ({len(graph.updates)} updates); writes "
                      "inside a body must be outputs of the control-flow node")
    inputs = {v.uid: v for v in graph.inputs}
    seen: set[int] = set()
    for target, value in graph.updates:
        if not isinstance(target, Var) or target.uid not in inputs:
            raise IRError(f"{graph.name}: update target {target!r} is not a graph input")
        if target.uid in seen:
            raise IRError(f"{graph.name}: input {target!r} is written back twice")
        seen.add(target.uid)
        use(value, "an update")
        if not _types_match(target.type, getattr(value, "type", target.type)):
            raise IRError(f"{graph.name}: update of {target!r} with a value typed {value.type}")


def _check_node_types(graph: Graph, where: str, node) -> None:
    args = [a.type for a in op_inputs(node)]
    try:
        inferred = node.op.infer(*args, **node.attrs)
    except Exception as exc:  # noqa: BLE001 - any failure of the rule is a verifier finding
        raise IRError(f"{graph.name}: {where}: the op's infer rule rejects its inputs: {exc}") from None
    outs = op_outputs(node)
    if writes(node.op):
        inferred, outs = [inferred], outs[:1]
    else:
        inferred = [inferred] if node.op.n_out == 1 else list(inferred)
    if len(inferred) != len(outs):
        raise IRError(f"{graph.name}: {where}: infer gives {len(inferred)} outputs, node has {len(outs)}")
    for exp, out in zip(inferred, outs):
        if not _types_match(exp, out.type):
            raise IRError(f"{graph.name}: {where}: output typed {out.type} but the op infers {exp}")
