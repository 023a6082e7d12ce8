"""The one effect analysis every pass and backend consults: state writes are functional, io is token-ordered.

Two kinds of effect exist in the IR (docs/architecture.md, "Effects are data"):

* **State writes** (Assign, AssignAdd, optimizer kernels: ops with ``extra["mutates"]``) are
  functionalized. A node never writes its inputs: its outputs are the *new values* of the inputs it
  would write, one per written position, and reads of the old Var still mean the old value. A
  top-level graph's ``updates`` epilogue writes the final values back into Parameters / arguments;
  control-flow bodies return their writes as extra outputs. The backend performs a write in place
  only when the old value is dead (``backend.pycodegen``), otherwise on a copy.
* **io** (Print, PyCall, RandomSeed: anything whose order or count the outside world can observe)
  is ordered by an effect token: such a node takes the current token as its first input and gives
  the next token as its first output; a Cond / WhileLoop whose body does io takes and returns the
  token too. The token is a value like any other, so no pass can reorder, merge or duplicate io.
  io nodes are the roots of dead-code elimination.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .. import dtype as mstype
from ..core.op import Op
from ..core.types import TensorType
from .graph import Const, Graph, Node, Var


class TokenType(TensorType):
    """The type of an effect token (prints as ``!io``). Its run-time value is meaningless."""

    __slots__ = ()

    def __str__(self) -> str:
        return "!io"


TOKEN = TokenType((), mstype.int32)
WORLD = Const(TOKEN)  # the token a top-level graph starts from


def is_token(v: Any) -> bool:
    """A Var or Const of the token type, or a tracer holding one."""
    var = getattr(v, "_var", None)
    return isinstance(var.type if var is not None else getattr(v, "type", None), TokenType)


# ---- ops ------------------------------------------------------------------------------------------
def writes(op: Op) -> tuple:
    """Input positions a state op writes (its node outputs are their new values, in this order)."""
    return op.extra.get("mutates", ()) if op.extra else ()


def is_io_op(op: Op) -> bool:
    """Ops ordered by the token: host effects (print, Python calls) and draws from the global random
    stream (``RandomSeed``; the random ops themselves are pure functions of the seed they are given)."""
    return op.side_effect and not writes(op)


# ---- nodes ----------------------------------------------------------------------------------------
def takes_token(node: Node) -> bool:
    return bool(node.inputs) and is_token(node.inputs[0])


def is_io(node: Node) -> bool:
    """The node does io (a primitive io op, or a control-flow node whose bodies do): it is ordered by
    the token and never removed."""
    return is_io_op(node.op) or (node.op.kind == "control" and _threads_token(node))


def _threads_token(node: Node) -> bool:
    return any(is_token(x) for x in node.inputs) or any(has_io(g) for _, g in node.subgraphs())


def has_io(graph: Graph) -> bool:
    return any(is_io(n) for n in graph.nodes)


def node_writes(node: Node) -> tuple:
    return writes(node.op)


def has_effect(node: Node) -> bool:
    """Writes state or does io (the printer marks such nodes with ``!``)."""
    return bool(node_writes(node)) or is_io(node)


def is_collective(node: Node) -> bool:
    """Communication between ranks (``ops/comm_ops.py``, kind "collective"): every rank must issue the same
    collectives in the same order, so they are never merged, folded or dropped, and passes that re-sort keep
    them in program order (``order_deps``). They take no token: a backward collective belongs with the
    cotangents it reads, and its data inputs already order it after what it communicates."""
    return node.op.kind == "collective"


def pure(node: Node) -> bool:
    """A function of its inputs alone: may be merged (CSE), folded, moved or dropped when unused."""
    return not node_writes(node) and not is_io(node) and not is_collective(node)


def removable(node: Node) -> bool:
    """May be dropped when no output is used (state writes are values: unused ones are dead)."""
    return not is_io(node) and not is_collective(node)


def op_inputs(node: Node) -> list:
    """The op's own operands (the token, if any, stripped)."""
    return node.inputs[1:] if is_io_op(node.op) and takes_token(node) else node.inputs


def op_outputs(node: Node) -> list:
    """The Vars the op's results bind to (the token output, if any, stripped)."""
    return node.outputs[1:] if is_io_op(node.op) and takes_token(node) else node.outputs


def token_in(node: Node) -> Any:
    return node.inputs[0] if takes_token(node) and is_io_op(node.op) else None


def written_vars(graph: Graph) -> set[int]:
    """uids of the Vars some state node of ``graph`` writes (a new version is made from them)."""
    out: set[int] = set()
    for n in graph.nodes:
        for p in node_writes(n):
            if p < len(n.inputs) and isinstance(n.inputs[p], Var):
                out.add(n.inputs[p].uid)
    return out


# ---- scheduling ------------------------------------------------------------------------------------
def order_deps(nodes: list) -> dict[int, list]:
    """Order beyond data dependence, for passes that re-sort nodes: a state write comes after every
    earlier reader of the value it replaces (then the backend can write in place; the IR is correct
    either way), and each collective after the previous one (required: ranks must match them up).
    Returns id(node) -> [nodes it must follow]."""
    readers: dict[int, list] = {}
    deps: dict[int, list] = {}
    last_collective = None
    for node in nodes:
        if is_collective(node):  # collectives keep their program order among themselves
            if last_collective is not None:
                deps.setdefault(id(node), []).append(last_collective)
            last_collective = node
        for p in node_writes(node):
            x = node.inputs[p] if p < len(node.inputs) else None
            if isinstance(x, Var):
                before = [r for r in readers.get(x.uid, ()) if r is not node]
                if before:
                    deps.setdefault(id(node), []).extend(before)
        for x in node.inputs:
            if isinstance(x, Var):
                readers.setdefault(x.uid, []).append(node)
    return deps


# ---- running a node on values (interpreter, replay) ----------------------------------------------------
def apply(node: Node, args: list, copy: Callable[[Any], Any], attrs: dict | None = None) -> list:
    """Run ``node`` functionally on concrete ``args`` (its inputs, token included): written operands are
    first replaced by ``copy(value)``, so the caller's values are never mutated. Returns one value per
    node output (the token output, if any, included)."""
    op = node.op
    attrs = node.attrs if attrs is None else attrs
    tok = is_io_op(op) and takes_token(node)
    vals = list(args[1:] if tok else args)
    w = writes(op)
    for p in w:
        vals[p] = copy(vals[p])
    out = op.impl(*vals, **attrs)
    if w:
        return [vals[p] for p in w]
    res = [out] if op.n_out == 1 else list(out)
    return ([args[0]] + res) if tok else res


def with_token(graph: Graph) -> Graph:
    """``graph`` (a top-level graph whose io starts from ``WORLD``) as a callee that threads the caller's
    token: a trailing token input where its chain starts and a trailing output with its last token."""
    if not has_io(graph) or any(is_token(v) for v in graph.inputs):
        return graph
    tok = Var(TOKEN, "token")
    nodes, last = [], tok
    for n in graph.nodes:
        if any(x is WORLD for x in n.inputs):
            n = Node(n.op, [tok if x is WORLD else x for x in n.inputs], n.attrs, n.outputs, n.loc)
        nodes.append(n)
        last = next((o for o in n.outputs if is_token(o)), last)
    return graph.replace(inputs=list(graph.inputs) + [tok], nodes=nodes, outputs=list(graph.outputs) + [last])


def token_chain(graph: Graph) -> Iterable[tuple[int, Node]]:
    """(index, node) of every node that consumes a token, in program order."""
    for i, n in enumerate(graph.nodes):
        if any(is_token(x) for x in n.inputs):
            yield i, n
