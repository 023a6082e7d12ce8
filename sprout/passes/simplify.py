"""Algebraic simplification: a table of local rewrite rules, each with a one-line rationale."""
from __future__ import annotations

from typing import NamedTuple
from collections.abc import Callable

import numpy as np

from ..ir.effects import pure
from ..ir.graph import Const, Graph, Node, Var, remap_graph_tail, remap_node


class Rule(NamedTuple):
    op: str
    rewrite: Callable  # (node, producers) -> replacement Value | Node | None
    why: str


def _is_const(x, value) -> bool:
    if not isinstance(x, Const):
        return False
    v = x.value
    if isinstance(v, bool) or isinstance(v, np.ndarray) and v.dtype == np.bool_:
        return False
    try:
        return bool(np.all(np.asarray(v) == value))
    except (TypeError, ValueError):
        return False


def _same_type(x, node: Node) -> bool:
    return isinstance(x, Var) and x.type == node.outputs[0].type


def _identity_if(pos: int, const_pos: int, value):
    def rewrite(node: Node, producers: dict):
        x = node.inputs[pos]
        if _is_const(node.inputs[const_pos], value) and _same_type(x, node):
            return x
        return None

    return rewrite


def _passthrough(node: Node, producers: dict):
    x = node.inputs[0]
    return x if _same_type(x, node) else None


def _double_neg(node: Node, producers: dict):
    src = producers.get(node.inputs[0].uid) if isinstance(node.inputs[0], Var) else None
    if src is not None and src.op.name == "Neg":
        return src.inputs[0]
    return None


def _reshape_chain(node: Node, producers: dict):
    x = node.inputs[0]
    if _same_type(x, node):
        return x
    src = producers.get(x.uid) if isinstance(x, Var) else None
    if src is not None and src.op.name == "Reshape":
        if _same_type(src.inputs[0], node):
            return src.inputs[0]
        return Node(node.op, [src.inputs[0]], node.attrs, node.outputs, node.loc)
    return None


def _identity_perm(node: Node, producers: dict):
    perm = tuple(node.attrs.get("perm", ()))
    if perm == tuple(range(len(perm))) and _same_type(node.inputs[0], node):
        return node.inputs[0]
    return None


def _square(node: Node, producers: dict):
    from ..ops.elementwise import MUL

    x = node.inputs[0]
    if _is_const(node.inputs[1], 2) and _same_type(x, node) and np.ndim(node.inputs[1].value) == 0:
        return Node(MUL, [x, x], {}, node.outputs, node.loc)
    return None


RULES: list[Rule] = [
    Rule("Mul", _identity_if(0, 1, 1), "x*1 -> x"),
    Rule("Mul", _identity_if(1, 0, 1), "1*x -> x"),
    Rule("Add", _identity_if(0, 1, 0), "x+0 -> x"),
    Rule("Add", _identity_if(1, 0, 0), "0+x -> x"),
    Rule("Sub", _identity_if(0, 1, 0), "x-0 -> x"),
    Rule("RealDiv", _identity_if(0, 1, 1), "x/1 -> x"),
    Rule("Pow", _identity_if(0, 1, 1), "x**1 -> x"),
    Rule("Pow", _square, "x**2 -> x*x (one multiply instead of a general power)"),
    Rule("Neg", _double_neg, "-(-x) -> x"),
    Rule("Cast", _passthrough, "cast to the dtype x already has -> x"),
    Rule("Reshape", _reshape_chain, "reshape to x's own shape -> x; reshape(reshape(x)) -> reshape(x)"),
    Rule("Transpose", _identity_perm, "transpose with the identity permutation -> x"),
    Rule("BroadcastTo", _passthrough, "broadcast to x's own shape -> x"),
    Rule("SumTo", _passthrough, "sum down to x's own shape -> x"),
    Rule("Identity", _passthrough, "identity(x) -> x (graphs have no aliasing to preserve)"),
    # No StopGradient -> x rule: jit builds a graph's gradient from its *optimized* graph (grad of a jitted
    # function), so dropping it here let gradients flow through stop_gradient (op table, grad-of-jit check).
    # Its kernel returns x unchanged and fuses as "identity", so keeping the node costs nothing.
]

_BY_OP: dict[str, list[Rule]] = {}
for _r in RULES:
    _BY_OP.setdefault(_r.op, []).append(_r)


def _own_array(v: Var, producers: dict, shared: set) -> bool:
    """``v`` is a new array its producer made (a ufunc's or a fresh-output op's) that is not also an output or a
    value written into state."""
    node = producers.get(v.uid)
    return node is not None and v.uid not in shared and (isinstance(node.op.impl, np.ufunc) or node.op.fresh_output)


def simplify(graph: Graph) -> Graph:
    """Apply the rule table once over the graph in order (rules see rewritten producers), then the GEMM and
    concatenation rewrites, and the table once more over what those made (reshape chains of a merged sum)."""
    ruled = _apply_rules(graph)
    merged = concat_runs(merge_matmul_sums(hoist_sliced_matmuls(batched_weight_grads(ruled))))
    return ruled if merged is ruled else _apply_rules(merged)


def batched_weight_grads(graph: Graph) -> Graph:
    """``SumTo(a^T @ b, (M, P))`` over every batch axis of a (..., K, M) and b (..., K, P) is one GEMM of the two
    flattened to (N*K, M) and (N*K, P): the weight gradient of a layer applied to a batch of sequences. As a
    batched GEMM it made N (M, P) products and summed them (M2's Transformer: 6 per step, (32, 128, 128) each)."""
    from ..ops.linalg import MATMUL
    from ..ops.shape import RESHAPE

    uses = _use_counts(graph)
    producers = {o.uid: n for n in graph.nodes for o in n.outputs}
    plans: dict[int, list] = {}
    drop: set[int] = set()
    for node in graph.nodes:
        if node.op.name != "SumTo" or len(node.inputs) != 1 or not isinstance(node.inputs[0], Var):
            continue
        x = node.inputs[0]
        mm = producers.get(x.uid)
        if (mm is None or mm.op is not MATMUL or not pure(mm) or uses.get(x.uid) != 1
                or mm.attrs != {"transpose_a": True} or not all(isinstance(v, Var) for v in mm.inputs)):
            continue
        a, b = mm.inputs
        sa, sb, out = tuple(a.type.shape), tuple(b.type.shape), tuple(node.attrs["shape"])
        if (len(sa) < 3 or sa[:-1] != sb[:-1] or None in sa or None in sb or a.type.dtype != b.type.dtype
                or out != (sa[-1], sb[-1]) or not a.type.dtype.is_float):
            continue
        rows = int(np.prod(sa[:-1]))
        a2 = Var(type(a.type)((rows, sa[-1]), a.type.dtype))
        b2 = Var(type(b.type)((rows, sb[-1]), b.type.dtype))
        plans[id(node)] = [Node(RESHAPE, [a], {"shape": (rows, sa[-1])}, [a2], mm.loc),
                           Node(RESHAPE, [b], {"shape": (rows, sb[-1])}, [b2], mm.loc),
                           Node(MATMUL, [a2, b2], {"transpose_a": True}, node.outputs, node.loc)]
        drop.add(id(mm))
    if not plans:
        return graph
    nodes = []
    for n in graph.nodes:
        if id(n) not in drop:
            nodes.extend(plans.get(id(n), [n]))
    return graph.replace(nodes=nodes)


def concat_runs(graph: Graph) -> Graph:
    """A leading-axis Concat of a contiguous run of an earlier leading-axis Concat's inputs is a slice of it (a
    view, no copy): an LSTM's weight gradient over steps 1..T-1 beside the input-weight gradient over 0..T-1."""
    from ..ops.indexing import GETITEM

    outs = {o.uid for o in list(graph.outputs) + [v for _, v in graph.updates] if isinstance(o, Var)}
    seen: list[tuple] = []  # (input uids, row offsets, output Var) of earlier Concats
    replaced: dict[int, Node] = {}
    for node in graph.nodes:
        if node.op.name != "Concat" or len(node.outputs) != 1 or node.attrs.get("axis", 0) != 0 or not pure(node):
            continue
        ins = node.inputs
        if len(ins) < 2 or any(not isinstance(x, Var) or not x.type.shape or x.type.shape[0] is None for x in ins):
            continue
        uids = tuple(x.uid for x in ins)
        if node.outputs[0].uid not in outs:
            for prior, offsets, whole in seen:
                if len(prior) == len(uids):  # the same Concat twice: CSE merges them
                    continue
                k = next((k for k in range(len(prior) - len(uids) + 1) if prior[k:k + len(uids)] == uids), None)
                if k is not None and whole.type.dtype == node.outputs[0].type.dtype:
                    spec = (("s", offsets[k], offsets[k + len(uids)], None),)
                    replaced[id(node)] = Node(GETITEM, [whole], {"spec": spec}, node.outputs, node.loc)
                    break
        if id(node) not in replaced:
            offsets = [0]
            for x in ins:
                offsets.append(offsets[-1] + x.type.shape[0])
            seen.append((uids, offsets, node.outputs[0]))
    if not replaced:
        return graph
    return graph.replace(nodes=[replaced.get(id(n), n) for n in graph.nodes])


def _apply_rules(graph: Graph) -> Graph:
    mapping: dict = {}
    producers: dict[int, Node] = {}
    nodes: list[Node] = []
    changed = False
    # A graph output is a tensor of its own, as eagerly: a rule may make it another Var (x*1 -> x) only when that
    # Var is an array no one else holds. An input, another output, a value written into state or a possible view
    # would be returned as that buffer, and an in-place write after the call changed the result (fuzz-26: a jitted
    # `return p0 * 1.0` followed the later assign_add of p0).
    outputs = {o.uid for o in graph.outputs if isinstance(o, Var)}
    shared = outputs | {v.uid for _, v in graph.updates if isinstance(v, Var)}
    for node in graph.nodes:
        node = remap_node(node, mapping)
        replacement = None
        if pure(node):
            for rule in _BY_OP.get(node.op.name, ()):
                replacement = rule.rewrite(node, producers)
                if replacement is not None:
                    break
            if isinstance(replacement, Var) and node.outputs[0].uid in outputs \
                    and not _own_array(replacement, producers, shared):
                replacement = None
        if replacement is None:
            nodes.append(node)
        elif isinstance(replacement, Node):
            nodes.append(replacement)
            node = replacement
            changed = True
        else:
            mapping[node.outputs[0].uid] = replacement
            changed = True
            continue
        for o in node.outputs:
            producers[o.uid] = node
    if changed:
        graph = remap_graph_tail(graph, nodes, mapping)
    return graph


# ---- x[t] @ W for many t -> one GEMM over all of x ----------------------------------------------------
def _row_index(node: Node):
    """(base Var, t) when ``node`` is ``x[t]`` with an int t on axis 0 of a static rank-3 x."""
    if node.op.name != "GetItem" or len(node.inputs) != 1 or not isinstance(node.inputs[0], Var):
        return None
    spec = node.attrs.get("spec")
    x = node.inputs[0]
    if (not isinstance(spec, tuple) or len(spec) != 1 or spec[0][0] != "i" or len(x.type.shape) != 3
            or None in x.type.shape or not x.type.dtype.is_float):
        return None
    return x, spec[0][1]


def hoist_sliced_matmuls(graph: Graph) -> Graph:
    """``x[t] @ W`` for >= 2 rows t of the same x and the same W (an unrolled loop's input projection)
    becomes one ``(x.reshape(T*B, I) @ W).reshape(T, B, H)`` at the first use, read back by ``[t]``."""
    from ..ops.indexing import GETITEM
    from ..ops.linalg import MATMUL
    from ..ops.shape import RESHAPE

    producers = {o.uid: n for n in graph.nodes for o in n.outputs}
    groups: dict = {}
    for node in graph.nodes:
        if node.op.name != "MatMul" or node.attrs or not pure(node):
            continue
        a, w = node.inputs
        src = producers.get(a.uid) if isinstance(a, Var) else None
        row = _row_index(src) if src is not None else None
        if row is None or not isinstance(w, Var) or len(w.type.shape) != 2 or None in w.type.shape:
            continue  # (a state write makes a new Var: every member reads the same versions of x and W)
        groups.setdefault((row[0].uid, w.uid), []).append((node, row[1]))
    plans: dict[int, list] = {}
    replaced: dict[int, Node] = {}
    for (_, _), members in groups.items():
        if len(members) < MERGE_MIN:
            continue
        first = members[0][0]
        x = producers[first.inputs[0].uid].inputs[0]
        w = first.inputs[1]
        t, b, i = x.type.shape
        h = w.type.shape[1]
        flat = Var(type(x.type)((t * b, i), x.type.dtype))
        prod = Var(type(x.type)((t * b, h), x.type.dtype))
        full = Var(type(x.type)((t, b, h), x.type.dtype))
        plans[id(first)] = [Node(RESHAPE, [x], {"shape": (t * b, i)}, [flat], first.loc),
                            Node(MATMUL, [flat, w], {}, [prod], first.loc),
                            Node(RESHAPE, [prod], {"shape": (t, b, h)}, [full], first.loc)]
        for node, k in members:
            replaced[id(node)] = Node(GETITEM, [full], {"spec": (("i", k),)}, node.outputs, node.loc)
    if not replaced:
        return graph
    nodes = []
    for node in graph.nodes:
        nodes.extend(plans.get(id(node), ()))
        nodes.append(replaced.get(id(node), node))
    return graph.replace(nodes=nodes)


# ---- sums of products -> one GEMM -------------------------------------------------------------------
# sum_i op(A_i) @ op(B_i) == concat_K(op(A_i)) @ concat_K(op(B_i)): the weight gradient of a layer used
# at every step of an unrolled loop (an RNN) is one long GEMM instead of T small ones and T-1 adds.
# sum_i SumTo(x_i) over a leading axis == SumTo(concat(x_i)) likewise (the bias gradient).
MERGE_MIN = 2


def _use_counts(graph: Graph) -> dict[int, int]:
    uses: dict[int, int] = {}
    for node in graph.nodes:
        for x in node.inputs:
            if isinstance(x, Var):
                uses[x.uid] = uses.get(x.uid, 0) + 1
        for _, sub in node.subgraphs():
            for x in sub.captured:
                if isinstance(x, Var):
                    uses[x.uid] = uses.get(x.uid, 0) + 2
    for o in list(graph.outputs) + [v for _, v in graph.updates]:
        if isinstance(o, Var):
            uses[o.uid] = uses.get(o.uid, 0) + 2
    return uses


def _static2(t) -> bool:
    return len(t.shape) == 2 and None not in t.shape and t.dtype.is_float


def _mm_key(node: Node, typ):
    if node.op.name != "MatMul" or not pure(node) or set(node.attrs) - {"transpose_a", "transpose_b"}:
        return None
    a, b = node.inputs
    if not (isinstance(a, Var) and isinstance(b, Var) and _static2(a.type) and _static2(b.type)):
        return None
    if node.outputs[0].type != typ or a.type.dtype != b.type.dtype:
        return None
    return ("mm", bool(node.attrs.get("transpose_a")), bool(node.attrs.get("transpose_b")))


def _sumto_key(node: Node, typ):
    if node.op.name != "SumTo" or node.outputs[0].type != typ:
        return None
    x = node.inputs[0]
    shape = tuple(node.attrs["shape"])
    if not isinstance(x, Var) or None in x.type.shape or len(x.type.shape) <= len(shape) or None in shape:
        return None
    return ("sumto", tuple(x.type.shape), shape)


def _row_grad_key(node: Node, typ):
    """GetItemGrad of ``x[t]`` (one int index on axis 0 of a static shape): the gradients of an unrolled loop's
    reads of one tensor, step by step. Summed as full-size scatters they cost T adds of the whole tensor (M3's
    LSTM: 32 adds of (32, 16, 512) plus the scatters, ~10 ms of a 26 ms step); one concatenation replaces them."""
    if node.op.name != "GetItemGrad" or len(node.inputs) != 1 or node.outputs[0].type != typ:
        return None
    spec, shape = node.attrs.get("spec"), tuple(node.attrs.get("shape", ()))
    if (not isinstance(spec, tuple) or len(spec) != 1 or spec[0][0] != "i" or type(spec[0][1]) is not int
            or len(shape) < 2 or None in shape or not isinstance(node.inputs[0], Var)):
        return None
    return ("rows", shape)


def _row_of(node: Node) -> int:
    return node.attrs["spec"][0][1] % node.attrs["shape"][0]


def _all_rows(srcs: list, side: int, producers: dict):
    """(base, descending) when input ``side`` of the nodes ``srcs`` is x[t] for every t of one rank-3 x, in
    ascending or descending order of t; else None."""
    rows = []
    for n in srcs:
        x = n.inputs[side]
        src = producers.get(x.uid) if isinstance(x, Var) else None
        row = _row_index(src) if src is not None else None
        if row is None:
            return None
        rows.append(row)
    base = rows[0][0]
    if any(r[0] is not base for r in rows):
        return None
    idx = [r[1] % base.type.shape[0] for r in rows]
    every = list(range(base.type.shape[0]))
    if idx == every:
        return base, False
    if idx == every[::-1]:
        return base, True
    return None


def _rows_concat(srcs: list, typ, root: Node, new_nodes: list) -> Var:
    """sum_t GetItemGrad(d_t, [t]) == concat(d_0, ..., d_{T-1}) reshaped (zeros for the rows no term has)."""
    from ..ops.shape import CONCAT, RESHAPE

    shape = tuple(typ.shape)
    by_row = {_row_of(n): n.inputs[0] for n in srcs}
    zero = Const(np.zeros(shape[1:], typ.dtype.np))
    pieces = [by_row.get(t, zero) for t in range(shape[0])]
    cat = Var(type(typ)((shape[0] * shape[1],) + shape[2:], typ.dtype))
    out = Var(typ)
    new_nodes += [Node(CONCAT, pieces, {"axis": 0}, [cat], root.loc), Node(RESHAPE, [cat], {"shape": shape}, [out],
                                                                            root.loc)]
    return out


def merge_matmul_sums(graph: Graph) -> Graph:
    """Rewrite trees of single-use Adds over >= MERGE_MIN same-shaped matmuls (or leading-axis SumTos, or
    GetItemGrads of distinct rows)."""
    from ..ops.linalg import MATMUL
    from ..ops.elementwise import ADD
    from ..ops.indexing import GETITEM
    from ..ops.shape import CONCAT, RESHAPE

    if sum(1 for n in graph.nodes if n.op.name in ("MatMul", "SumTo", "GetItemGrad")) < MERGE_MIN:
        return graph
    uses = _use_counts(graph)
    producers = {o.uid: n for n in graph.nodes for o in n.outputs}
    position = {id(n): k for k, n in enumerate(graph.nodes)}
    claimed: set[int] = set()  # ids of nodes folded into some tree
    plans: dict[int, list] = {}
    for pos in range(len(graph.nodes) - 1, -1, -1):
        root = graph.nodes[pos]
        if id(root) in claimed or root.op.name != "Add" or root.attrs or not pure(root):
            continue
        typ = root.outputs[0].type
        if not all(isinstance(x, Var) and x.type == typ for x in root.inputs) or None in typ.shape:
            continue
        interior, leaves, stack = [root], [], list(root.inputs)
        while stack:
            v = stack.pop()
            src = producers.get(v.uid) if isinstance(v, Var) else None
            if (src is not None and src.op.name == "Add" and not src.attrs and uses.get(v.uid) == 1
                    and id(src) not in claimed and all(isinstance(x, Var) and x.type == typ for x in src.inputs)):
                interior.append(src)
                stack.extend(src.inputs)
            else:
                leaves.append(v)
        groups: dict = {}
        others = []
        for v in reversed(leaves):
            src = producers.get(v.uid) if isinstance(v, Var) else None
            key = None
            if src is not None and uses.get(v.uid) == 1 and id(src) not in claimed and len(src.outputs) == 1:
                key = _mm_key(src, typ) or _sumto_key(src, typ) or _row_grad_key(src, typ)
            if key is not None and key[0] == "rows" and any(_row_of(n) == _row_of(src) for n in groups.get(key, ())):
                key = None  # the same row twice: one of them stays an Add
            if key is None:
                others.append(v)
            else:
                groups.setdefault(key, []).append(src)
        if not any(len(g) >= MERGE_MIN for g in groups.values()):
            continue
        new_nodes, terms = [], []
        for key, srcs in groups.items():
            if len(srcs) < MERGE_MIN:
                terms.extend(n.outputs[0] for n in srcs)
                continue
            claimed.update(id(n) for n in srcs)
            # terms latest-made operand last-first: a backward makes step t's cotangent after step t+1's, so this is
            # the forward's step order. Every sum over one unrolled loop (weight and bias gradients) then
            # concatenates a shared operand alike (one Concat after CSE), and x[t] rows come in ascending t (a
            # reshape of x, not a reversed copy)
            srcs = sorted(srcs, key=lambda n: -max(position.get(id(producers.get(x.uid)), -1)
                                                   for x in n.inputs if isinstance(x, Var)))
            if key[0] == "rows":
                terms.append(_rows_concat(srcs, typ, root, new_nodes))
                continue
            if key[0] == "mm":
                _, ta, tb = key
                parts = []
                for side, axis in ((0, 0 if ta else 1), (1, 1 if tb else 0)):
                    rows = _all_rows(srcs, side, producers) if axis == 0 else None
                    if rows is not None:  # concat(x[0], ..., x[T-1]) (or reversed) is a reshape
                        base, descending = rows
                        t, b, i = base.type.shape
                        if descending:
                            flipped = Var(base.type)
                            new_nodes.append(Node(GETITEM, [base], {"spec": (("s", None, None, -1),)}, [flipped],
                                                  root.loc))
                            base = flipped
                        cat = Var(type(base.type)((t * b, i), base.type.dtype))
                        new_nodes.append(Node(RESHAPE, [base], {"shape": (t * b, i)}, [cat], root.loc))
                    else:
                        xs = [n.inputs[side] for n in srcs]
                        cat = Var(CONCAT.infer(*[x.type for x in xs], axis=axis))
                        new_nodes.append(Node(CONCAT, xs, {"axis": axis}, [cat], root.loc))
                    parts.append(cat)
                out = Var(typ)
                new_nodes.append(Node(MATMUL, parts, dict(srcs[0].attrs), [out], root.loc))
            else:
                xs = [n.inputs[0] for n in srcs]
                cat = Var(CONCAT.infer(*[x.type for x in xs], axis=0))
                new_nodes.append(Node(CONCAT, xs, {"axis": 0}, [cat], root.loc))
                out = Var(typ)
                new_nodes.append(Node(srcs[0].op, [cat], dict(srcs[0].attrs), [out], root.loc))
            terms.append(out)
        terms.extend(others)
        acc = terms[0]
        for k, t in enumerate(terms[1:]):
            dest = root.outputs[0] if k == len(terms) - 2 else Var(typ)
            new_nodes.append(Node(ADD, [acc, t], {}, [dest], root.loc))
            acc = dest
        if acc is not root.outputs[0]:  # everything merged into one term: rename it to the root's output
            last = new_nodes[-1]
            new_nodes[-1] = Node(last.op, last.inputs, last.attrs, [root.outputs[0]], last.loc)
        claimed.update(id(n) for n in interior)
        plans[id(root)] = new_nodes
    if not plans:
        return graph
    nodes = []
    for node in graph.nodes:
        if id(node) in plans:
            nodes.extend(plans[id(node)])
        elif id(node) not in claimed:
            nodes.append(node)
    return graph.replace(nodes=nodes)
