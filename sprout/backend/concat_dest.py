"""Concatenations built in place: the pieces' producers write into slices of one buffer allocated up front."""
from __future__ import annotations

import numpy as np

from ..ir.graph import Graph, Node, Var

# Why: an unrolled loop's backward concatenates one piece per step for its weight gradient (W6: two concatenations
# of 50 (16, 128) float32 pieces per call, ~17 us each on a quiet core, more when caches are cold). A piece made by
# a GEMM, a ufunc or a small fused kernel can be written straight into its rows of the result instead: the
# concatenation then costs one np.empty. Only leading-axis concatenations: each piece is then a C-contiguous block
# of the buffer, which BLAS and the kernels write at full speed.


def _axis0(node: Node) -> bool:
    t = node.outputs[0].type
    shape = getattr(t, "shape", None)
    if shape is None or None in shape or not shape or not t.dtype.is_float:
        return False
    axis = node.attrs.get("axis", 0)
    return isinstance(axis, int) and axis % len(shape) == 0 and set(node.attrs) <= {"axis"}


def _writer(node: Node, piece: Var) -> bool:
    """Can ``node`` write its output ``piece`` into a given array (``out=`` or a kernel's output argument)?"""
    from ..ops.linalg import MATMUL

    if node.op is MATMUL:
        ins = node.inputs
        return (len(node.outputs) == 1 and all(isinstance(x, Var) for x in ins)
                and set(node.attrs) <= {"transpose_a", "transpose_b"}
                and all(len(x.type.shape) == 2 and x.type.dtype == piece.type.dtype for x in ins)
                and piece.type.dtype.np in (np.float32, np.float64))
    if isinstance(node.op.impl, np.ufunc):
        return len(node.outputs) == 1 and not node.attrs and node.op.impl.nout == 1
    if node.op.name == "Concat":  # np.concatenate(out=): an LSTM step's gate gradients, joined on axis 1
        return len(node.outputs) == 1 and set(node.attrs) <= {"axis"} and type(node.attrs.get("axis", 0)) is int
    return node.op.name == "FusedElementwise" and node.attrs.get("strategy") == "numba_small"


class ConcatPlan:
    """Which Concat nodes are built in place: ``allocs`` {node index: [line, ...]} allocates each buffer before
    the first piece is made; ``pieces`` {id(producer): {output index: slice text}}; ``concats`` {id(concat):
    (buffer name, [(slice text, piece Var) copied in at the concat: pieces no producer could write])};
    ``shared``: uids of the pieces and the results (views of one buffer: never written in place)."""

    def __init__(self):
        self.allocs: dict[int, list] = {}
        self.pieces: dict[int, dict] = {}
        self.concats: dict[int, tuple] = {}
        self.shared: set[int] = set()

    def expr(self, em, node: Node, transposed, lines: list, indent: str) -> str:
        """The expression of a planned piece producer or Concat (a Concat's copied-in pieces go to ``lines``)."""
        if id(node) in self.pieces:
            return piece_expr(em, node, self.pieces[id(node)], [em.ref(x) for x in node.inputs], transposed)
        name, copied = self.concats[id(node)]
        lines.extend(f"{indent}{cut} = {em.ref(x)}" for cut, x in copied)
        return name


def plan(graph: Graph, skip: set, em) -> ConcatPlan:
    """Plan every leading-axis Concat of static float pieces made in this graph; ``skip``: ids of nodes emitted
    another way (the worker stream's, a parameter update's, a residual's), which keep their own outputs."""
    out = ConcatPlan()
    producer = {o.uid: (i, n, k) for i, n in enumerate(graph.nodes) for k, o in enumerate(n.outputs)}
    results = {v.uid for v in list(graph.outputs) + [u for _, u in graph.updates] if isinstance(v, Var)}
    taken: set[int] = set()  # uids of pieces already written into some buffer
    for node in graph.nodes:
        if node.op.name != "Concat" or len(node.outputs) != 1 or id(node) in skip or not _axis0(node):
            continue
        ins = node.inputs
        vs = [x for x in ins if isinstance(x, Var)]
        if len(ins) < 2 or len({x.uid for x in vs}) != len(vs):
            continue
        dtype = node.outputs[0].type.dtype
        rows, written, copied, first = 0, [], [], None
        for x in ins:
            n = x.type.shape[0] if x.type.shape else None
            if n is None or x.type.dtype != dtype:
                rows = None
                break
            cut = (rows, rows + n)
            rows += n
            src = producer.get(x.uid) if isinstance(x, Var) else None
            if (src is not None and id(src[1]) not in skip and x.uid not in results and x.uid not in taken
                    and not (id(src[1]) in out.pieces and src[2] in out.pieces[id(src[1])]) and _writer(src[1], x)):
                written.append((src, cut, x))
                first = src[0] if first is None else min(first, src[0])
            else:
                copied.append((cut, x))
        if rows is None or len(written) < 2:
            continue
        name = f"cat{em.n_var}"
        em.n_var += 1
        shape = tuple(node.outputs[0].type.shape)
        out.allocs.setdefault(first, []).append(
            f"{name} = _np.empty({shape!r}, _np.{dtype.np.name})")
        for (_, prod, k), (a, b), x in written:
            out.pieces.setdefault(id(prod), {})[k] = f"{name}[{a}:{b}]"
            taken.add(x.uid)
            out.shared.add(x.uid)
        out.concats[id(node)] = (name, [(f"{name}[{a}:{b}]", x) for (a, b), x in copied])
        out.shared.add(node.outputs[0].uid)
    return out


def piece_expr(em, node: Node, dests: dict, args: list, transposed) -> str:
    """The expression that makes ``node``'s outputs with those in ``dests`` {output index: slice} written there;
    ``transposed(node, x)``: the name of a C-contiguous copy of ``x.T`` when the generator made one."""
    from ..ops.linalg import MATMUL

    if node.op is MATMUL:
        ta = ".T" if node.attrs.get("transpose_a") else ""
        b = args[1] + (".T" if node.attrs.get("transpose_b") else "")
        if node.attrs.get("transpose_b"):
            b = transposed(node, node.inputs[1]) or b
        return f"_np.matmul({args[0]}{ta}, {b}, out={dests[0]})"
    if isinstance(node.op.impl, np.ufunc):
        return f"{em.ufunc(node.op.impl)}({', '.join(args)}, out={dests[0]})"
    if node.op.name == "Concat":
        return f"_np.concatenate(({', '.join(args)},), axis={node.attrs.get('axis', 0)}, out={dests[0]})"
    from .kernels import build

    kern = em.bind("_fused", build(node.attrs["graph"], "numba_small"))
    slots = ", ".join(dests.get(k, "None") for k in range(len(node.outputs)))
    return f"{kern}.into(({slots},), {', '.join(args)})"

