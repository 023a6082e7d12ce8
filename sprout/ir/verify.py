"""The IR verifier: SSA (each Var defined once, before use), types agree with each op's infer rule."""
from __future__ import annotations

from .graph import Const, Graph, Var


class IRError(Exception):
    """A malformed graph (a pass or front-end bug); the message names the node and graph."""


def _types_match(expected, actual) -> bool:
    if not hasattr(expected, "shape") or not hasattr(actual, "shape"):
        return True
    if expected.dtype is not actual.dtype or len(expected.shape) != len(actual.shape):
        return False
    return all(a is None or b is None or a == b for a, b in zip(expected.shape, actual.shape))


def verify(graph: Graph, *, check_types: bool = True) -> Graph:
    """Raise IRError if ``graph`` is malformed; return it unchanged (so passes can chain)."""
    defined: set[int] = set()

    def define(v, where: str) -> None:
        if not isinstance(v, Var):
            raise IRError(f"{graph.name}: {where} defines {v!r}, which is not a Var")
        if v.uid in defined:
            raise IRError(f"{graph.name}: {where} redefines {v!r} (SSA: one definition per Var)")
        defined.add(v.uid)

    def use(v, where: str) -> None:
        if isinstance(v, Const):
            return
        if not isinstance(v, Var):
            raise IRError(f"{graph.name}: {where} uses {v!r}, which is neither a Var nor a Const")
        if v.uid not in defined:
            raise IRError(f"{graph.name}: {where} uses {v!r} before it is defined")

    for v in graph.inputs:
        define(v, "the input list")
    for i, node in enumerate(graph.nodes):
        where = f"node {i} ({node.op.name})"
        for a in node.inputs:
            use(a, where)
        n_out = node.op.n_out
        if n_out > 0 and len(node.outputs) != n_out:
            raise IRError(f"{graph.name}: {where} has {len(node.outputs)} outputs, the op has {n_out}")
        for o in node.outputs:
            define(o, where)
        for _, sub in node.subgraphs():
            verify(sub, check_types=check_types)
        if check_types and node.op.kind != "control":
            _check_node_types(graph, where, node)
    for o in graph.outputs:
        use(o, "the return")
    inputs = {v.uid for v in graph.inputs}
    for target, value in graph.updates:
        if not isinstance(target, Var) or target.uid not in inputs:
            raise IRError(f"{graph.name}: update target {target!r} is not a graph input")
        use(value, "an update")
    return graph


def _check_node_types(graph: Graph, where: str, node) -> None:
    args = [a.type for a in node.inputs]
    try:
        inferred = node.op.infer(*args, **node.attrs)
    except Exception as exc:  # noqa: BLE001 - any failure of the rule is a verifier finding
        raise IRError(f"{graph.name}: {where}: the op's infer rule rejects its inputs: {exc}") from None
    inferred = [inferred] if node.op.n_out == 1 else list(inferred)
    if len(inferred) != len(node.outputs):
        raise IRError(f"{graph.name}: {where}: infer gives {len(inferred)} outputs, node has {len(node.outputs)}")
    for exp, out in zip(inferred, node.outputs):
        if not _types_match(exp, out.type):
            raise IRError(f"{graph.name}: {where}: output typed {out.type} but the op infers {exp}")
