"""Elementwise fusion: maximal same-shape elementwise DAGs become one FusedElementwise node (Graph -> Graph)."""
from __future__ import annotations

import heapq
from typing import Any

from ..core.op import Op, register
from ..ir.effects import is_collective, order_deps
from ..ir.graph import Const, Graph, Node, Var, numel

FUSE_MIN = 1 << 14  # fewer elements than this: per-call overhead dominates, the group stays plain NumPy

# what fusion did, summed over every graph compiled in this process (sprout.passes.fuse.stats())
STATS: dict[str, Any] = {"graphs": 0, "groups_fused": 0, "nodes_fused": 0, "groups_unfused_by_cost": 0,
                         "strategies": {}, "seconds": 0.0}


def _fused_impl(*args, graph, strategy="numpy_blocked"):
    """Run the sub-graph: ``graph`` is a Graph (eager call) or the callable the backend made of it."""
    if isinstance(graph, Graph):
        from ..backend.kernels import build

        return build(graph, strategy)(*args)
    return graph(*args)


def _fused_infer(*types, graph, strategy="numpy_blocked"):
    return tuple(o.type for o in graph.outputs)


def fused_bprop(*xs_out_dout, graph, strategy="numpy_blocked"):
    from ..ops import functional as F

    *xs, _out, dout = xs_out_dout
    douts = list(dout) if isinstance(dout, tuple) else [dout]
    env: dict[int, Any] = {v.uid: x for v, x in zip(graph.inputs, xs)}

    def val(x):
        return x.value if isinstance(x, Const) else env[x.uid]

    for node in graph.nodes:
        env[node.outputs[0].uid] = node.op(*[val(x) for x in node.inputs], **node.attrs)
    grads: dict[int, Any] = {}

    def acc(uid, g):
        grads[uid] = g if uid not in grads else F.add(grads[uid], g)

    for o, d in zip(graph.outputs, douts):
        if isinstance(o, Var) and d is not None:
            acc(o.uid, d)
    for node in reversed(graph.nodes):
        g = grads.get(node.outputs[0].uid)
        if g is None or node.op.bprop is None:
            continue
        ins = [val(x) for x in node.inputs]
        gs = node.op.bprop(*ins, env[node.outputs[0].uid], g, **node.attrs)
        for x, gx in zip(node.inputs, gs):
            if isinstance(x, Var) and gx is not None:
                acc(x.uid, gx() if callable(gx) else gx)  # a bprop may defer a gradient (see Tape)
    return tuple(grads.get(v.uid) for v in graph.inputs)


def _fused_emit(ctx, node, args):
    """Generated code calls the kernel chosen for the group (``backend/kernels.py``) directly."""
    from ..backend.kernels import build

    kern = build(node.attrs["graph"], node.attrs.get("strategy", "numpy_blocked"))
    return f"{ctx.bind('_fused', kern)}({', '.join(args)})", None


FUSED = register(Op("FusedElementwise", _fused_impl, _fused_infer, fused_bprop, "opaque", n_out=0, emit=_fused_emit,
                    fresh_output=True))


def _shape(v) -> tuple | None:
    t = getattr(v, "type", None)
    shape = getattr(t, "shape", None)
    return tuple(shape) if shape is not None else None


# Dependency sets are bit masks over group ids (a group's id is the index of its first node), so a union is one
# integer OR. A merge check walks groups' outside inputs transitively; it costs one step per group id reached
# (each id once), and a walk that reaches more than CLOSURE_BUDGET ids answers "depends" (no merge). Before the
# masks a walk cost one step per element of every reached group's outside-input set: fuzz seed 133420's graph (27
# gradients inlined in nested loops) walked ~14k per check, and an unrolled LSTM's backward (M3, 32 steps) spent
# 2.3-3.8 s in the pass and still left ~400 multiplies unfused when walks hit the old 4096-step bound.
CLOSURE_BUDGET = 4096
WALKED = [0]  # group ids visited by all walks so far (a work count for tests)


def _groups(graph: Graph, fusible) -> list[list[int]]:
    """Greedy grouping in program order. A fusible node joins (and merges) the groups of its
    producers that have its output shape, unless a path leaves one of those groups and comes
    back through a node outside (that would make a cycle)."""
    parent: dict[int, int] = {}        # union-find over group ids

    def find(g: int) -> int:
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    producer: dict[int, int] = {}      # Var uid -> node index
    group_of: dict[int, int] = {}      # node index -> group id (resolve with find)
    deps: dict[int, int] = {}          # Var uid -> mask of group ids it depends on through any path
    ext: dict[int, int] = {}           # group id -> mask of group ids its outside inputs depend on
    shape_of: dict[int, tuple] = {}
    members: dict[int, list[int]] = {}

    def gid_of(x) -> int | None:
        if not isinstance(x, Var) or x.uid not in producer:
            return None
        g = group_of.get(producer[x.uid])
        return None if g is None else find(g)

    def closure(mask: int) -> int | None:
        """Mask of the groups (roots) a value depending on ``mask`` depends on, counting that a group's fused
        node needs every outside input of the group (its ``ext``), which may have grown since the value was
        made. None past ``CLOSURE_BUDGET`` ids: the caller then assumes a dependency (a merge is never needed)."""
        roots = done = 0
        todo = mask
        steps = 0
        while todo:
            low = todo & -todo
            todo ^= low
            done |= low
            r = find(low.bit_length() - 1)
            rb = 1 << r
            if roots & rb:
                continue
            roots |= rb
            steps += 1
            if steps > CLOSURE_BUDGET:
                WALKED[0] += steps
                return None
            todo |= ext[r] & ~done
        WALKED[0] += steps
        return roots

    # Collectives keep their program order (ir.effects.order_deps) but take no token, so data dependence alone
    # does not order them: a group with a member before a Send and one after a Receive of the same stage sat at
    # its last member, so the Send that reads the early member waited for it and followed the Receive (a
    # pipeline stage's ranks then both waited in Receive). A group stays between two consecutive collectives.
    segment = 0
    segment_of: dict[int, int] = {}
    for i, node in enumerate(graph.nodes):
        if is_collective(node):
            segment += 1
        in_deps = 0
        for x in node.inputs:
            if isinstance(x, Var):
                in_deps |= deps.get(x.uid, 0)
        gid = None
        if fusible(node):
            shape = _shape(node.outputs[0])
            join: list[int] = []
            for x in node.inputs:
                g = gid_of(x)
                if g is None or g in join or shape_of[g] != shape or segment_of[g] != segment:
                    continue
                cand = join + [g]
                cand_mask = 0
                for c in cand:
                    cand_mask |= 1 << c
                outside = 0
                for y in node.inputs:
                    if isinstance(y, Var) and gid_of(y) not in cand:
                        outside |= deps.get(y.uid, 0)
                # no outside input may need a candidate (one walk over what they all need) ...
                need = closure(outside)
                ok = need is not None and not need & cand_mask
                # ... nor may a candidate need (through other groups' outside inputs, transitively) another one
                for c in cand if ok else ():
                    need = closure(ext[c])
                    if need is None or need & cand_mask & ~(1 << c):
                        ok = False
                        break
                if ok:
                    join = cand
            if join:
                gid = join[0]
                for h in join[1:]:
                    parent[h] = gid
                    members[gid] += members.pop(h)
                    ext[gid] |= ext.pop(h)
            else:
                gid = i
                parent[gid] = gid
                members[gid] = []
                ext[gid] = 0
                shape_of[gid] = shape
                segment_of[gid] = segment
            members[gid].append(i)
            group_of[i] = gid
            for y in node.inputs:
                if isinstance(y, Var) and gid_of(y) != gid:
                    ext[gid] |= deps.get(y.uid, 0)
        own = in_deps | (1 << gid if gid is not None else 0)
        for o in node.outputs:
            producer[o.uid] = i
            deps[o.uid] = own
    return [sorted(m) for m in members.values()]


def _subgraph(graph: Graph, members: list[int], used_outside: set) -> tuple[Graph, list, list]:
    """The group as a Graph with fresh Vars; returns (sub-graph, outer inputs, outer outputs)."""
    mapping: dict[int, Var] = {}
    outer_in: list = []
    sub_in: list = []
    nodes = []
    for i in members:
        node = graph.nodes[i]
        ins = []
        for x in node.inputs:
            if isinstance(x, Var) and x.uid not in mapping:
                v = Var(x.type, x.name)
                mapping[x.uid] = v
                outer_in.append(x)
                sub_in.append(v)
            ins.append(mapping[x.uid] if isinstance(x, Var) else x)
        out = Var(node.outputs[0].type, node.outputs[0].name)
        mapping[node.outputs[0].uid] = out
        nodes.append(Node(node.op, ins, node.attrs, [out], node.loc))
    outer_out = [graph.nodes[i].outputs[0] for i in members if graph.nodes[i].outputs[0].uid in used_outside]
    sub = Graph(f"fused_{graph.name}", sub_in, nodes, [mapping[o.uid] for o in outer_out])
    return sub, outer_in, outer_out


def fuse_elementwise(graph: Graph, *, choose=None, min_elements: int = FUSE_MIN) -> Graph:
    """Replace every group of >= 2 fusible same-shape nodes with a FusedElementwise node.

    ``choose(sub, n) -> strategy`` picks the kernel ("unfused" leaves the group as it was)."""
    import time

    from ..backend import kernels

    t0 = time.perf_counter()
    small = choose is None and kernels.numba_available()  # tiny groups only for the default chooser (small.py)
    from ..backend.small import node_ok as small_node
    choose = choose or kernels.choose
    STATS["graphs"] += 1

    def fusible(node):
        if not kernels.fusible(node):
            return False
        n = numel(_shape(node.outputs[0]))
        return n is not None and (n >= min_elements or small and n < kernels.SMALL_MAX and small_node(node))

    groups = [g for g in _groups(graph, fusible) if len(g) >= 2]
    if not groups:
        STATS["seconds"] += time.perf_counter() - t0
        return graph
    member_group = {i: k for k, g in enumerate(groups) for i in g}
    used_outside: set[int] = set()
    for i, node in enumerate(graph.nodes):  # uses by non-members and by members of other groups
        k = member_group.get(i)
        own = {graph.nodes[j].outputs[0].uid for j in groups[k]} if k is not None else ()
        used_outside.update(x.uid for x in node.inputs if isinstance(x, Var) and x.uid not in own)
    used_outside.update(o.uid for o in graph.outputs if isinstance(o, Var))
    used_outside.update(v.uid for _, v in graph.updates if isinstance(v, Var))

    replace_at: dict[int, Node] = {}
    drop: set[int] = set()
    for g in groups:
        sub, outer_in, outer_out = _subgraph(graph, g, used_outside)
        if not outer_out:
            continue
        n = numel(_shape(outer_out[0]))
        strategy = choose(sub, n)
        if strategy == "unfused":
            STATS["groups_unfused_by_cost"] += 1
            continue
        STATS["groups_fused"] += 1
        STATS["nodes_fused"] += len(g)
        STATS["strategies"][strategy] = STATS["strategies"].get(strategy, 0) + 1
        last = graph.nodes[g[-1]]
        replace_at[g[-1]] = Node(FUSED, outer_in, {"graph": sub, "strategy": strategy}, outer_out, last.loc)
        drop.update(g[:-1])
    if not replace_at:
        STATS["seconds"] += time.perf_counter() - t0
        return graph
    nodes = _stable_topo([replace_at.get(i, node) for i, node in enumerate(graph.nodes) if i not in drop],
                         {v.uid for v in graph.inputs})
    STATS["seconds"] += time.perf_counter() - t0
    return graph.replace(nodes=nodes)


def _stable_topo(nodes: list, defined: set) -> list:
    """Program order, except that a node waits until its inputs are defined (a fused node sits at its
    last member, so an outside user of an earlier member moves after it). A state write also waits for
    the earlier readers of the value it replaces (``ir.effects.order_deps``) while they can still be
    placed, so the backend can write in place; the IR means the same in either order.

    Each step places the earliest node (in program order, among those seen so far) that is ready, as a
    rescan of the pending nodes would; counters of what each node still waits for and two heaps of ready
    positions make that O(n log n) (the rescan was quadratic: seconds on a ResNet step's backward)."""
    deps = order_deps(nodes)
    where = {id(node): k for k, node in enumerate(nodes)}
    n = len(nodes)
    placed = [False] * n
    wants_inputs = [0] * n  # inputs not defined yet
    wants_deps = [0] * n    # order dependencies not placed yet
    on_uid: dict[int, list[int]] = {}
    on_node: dict[int, list[int]] = {}
    strict: list[int] = []  # ready: inputs defined and order dependencies placed
    loose: list[int] = []   # inputs defined
    out: list = []

    def place(k: int) -> None:
        placed[k] = True
        out.append(nodes[k])
        for o in nodes[k].outputs:
            if o.uid in defined:
                continue
            defined.add(o.uid)
            for j in on_uid.pop(o.uid, ()):
                wants_inputs[j] -= 1
                if not wants_inputs[j]:
                    heapq.heappush(loose, j)
                    if not wants_deps[j]:
                        heapq.heappush(strict, j)
        for j in on_node.pop(k, ()):
            wants_deps[j] -= 1
            if not wants_deps[j] and not wants_inputs[j]:
                heapq.heappush(strict, j)

    def drain(heap: list) -> bool:
        moved = False
        while heap:
            k = heapq.heappop(heap)
            if not placed[k]:
                place(k)
                moved = True
        return moved

    for k, node in enumerate(nodes):
        for uid in {x.uid for x in node.inputs if isinstance(x, Var) and x.uid not in defined}:
            wants_inputs[k] += 1
            on_uid.setdefault(uid, []).append(k)
        for r in {id(r): r for r in deps.get(id(node), ())}.values():
            rk = where.get(id(r))
            if rk is None or not placed[rk]:
                wants_deps[k] += 1  # (a node outside the list is never placed: this one goes in the loose phase)
                if rk is not None:
                    on_node.setdefault(rk, []).append(k)
        if not wants_inputs[k]:
            heapq.heappush(loose, k)
            if not wants_deps[k]:
                heapq.heappush(strict, k)
        drain(strict)
    while len(out) < n and (drain(strict) or drain(loose)):
        pass
    if len(out) < n:  # cannot happen for an acyclic grouping; keep the graph valid regardless
        raise RuntimeError("fuse_elementwise: grouping made a cycle")
    return out


def stats() -> dict:
    """Fusion counters: groups fused / left unfused by the cost model, strategy counts, seconds."""
    from ..backend.kernels import COUNTERS

    return {**STATS, "strategies": dict(STATS["strategies"]), "kernels": dict(COUNTERS)}


def reset_stats() -> None:
    STATS.update({"graphs": 0, "groups_fused": 0, "nodes_fused": 0, "groups_unfused_by_cost": 0,
                  "strategies": {}, "seconds": 0.0})
