"""Gradients of the ops whose attributes are graphs (Cond, WhileLoop, GraphCall). Each body is split
once (``grad_graph.split``) into a forward that also returns residuals and a backward that reads only
residuals and cotangents; the node is emitted with the split forward, and its vjp emits the backward.
A WhileLoop stacks its per-iteration residuals and runs the body's backward in a reverse loop.
Nothing re-runs a forward, so random draws and in-place reads are the forward's own."""
from __future__ import annotations

import numpy as np

from ..core.dispatch import bind
from ..core.tensor import Tensor
from ..core.types import TensorType
from ..ir.builder import _new_tracer, trace_subgraph
from ..ir.callop import GRAPH_CALL
from ..ir.effects import is_token
from ..ir.graph import Const, Var
from ..ir.replay import replay
from ..ops import functional as F
from ..ops.control import COND, WHILE_LOOP
from .grad_graph import Split, differentiable, split
from .trips import sure_trips
from .absent import specialise
from .guards import guarded

_PEEL = 2  # reverse steps of a WhileLoop's backward peeled to skip cotangents zero at first (absent.py)


def _differentiable(x) -> bool:
    return isinstance(x, Tensor) and differentiable(x)


def _as_list(dout, n: int) -> list:
    d = list(dout) if isinstance(dout, (tuple, list)) else [dout]
    return d + [None] * (n - len(d))


def _filler(t: TensorType) -> Const:
    """A stand-in output of the branch not taken for the other branch's residuals: the backward runs
    the same branch as the forward, so it is never read (a read-only zero view; symbolic axes 0)."""
    return Const(np.broadcast_to(np.zeros((), t.dtype.np), tuple(0 if d is None else d for d in t.shape)))


def _computed(s: Split) -> list:
    return s.forward.outputs[s.n_out:]


def _residuals(s: Split, inputs: list, computed: list) -> list:
    return [inputs[i] if kind == "in" else computed[i] for kind, i in s.res_from]


def _cotangents(s: Split, douts: list, outs: list) -> list:
    """The backward's cotangent inputs; an absent one (``None``) is fed zeros, read by a backward specialised to
    its absence (``_specialised``) at most for a zero's symbolic shape."""
    return [F.zeros_like(outs[i]) if douts[i] is None else douts[i] for i in s.dout_of]


def _specialised(s: Split, douts: list):
    """``s.backward`` for the cotangents ``douts`` marks absent (``None``) and the positions (``grad_of`` order)
    of its gradients that are then absent."""
    n_res = len(s.res_from)
    return specialise(s.backward, n_res, frozenset(n_res + c for c, i in enumerate(s.dout_of) if douts[i] is None))


# ---- Cond -------------------------------------------------------------------------------------------
def _cond_residual_vjp(args: tuple, attrs: dict, emit=bind):
    pred, ins = args[0], list(args[1:])
    n_then, n_out = attrs["n_then"], attrs["n_out"]
    s_then, s_else = split(attrs["then"]), split(attrs["else"])
    c_then, c_else = _computed(s_then), _computed(s_else)
    f_then = s_then.forward.replace(outputs=s_then.forward.outputs[:n_out] + c_then
                                    + [_filler(v.type) for v in c_else])
    f_else = s_else.forward.replace(outputs=s_else.forward.outputs[:n_out] + [_filler(v.type) for v in c_then]
                                    + c_else)
    outs = emit(COND, args, {**attrs, "then": f_then, "else": f_else, "n_out": n_out + len(c_then) + len(c_else)})
    primal = list(outs[:n_out])
    c_t, c_e = list(outs[n_out:n_out + len(c_then)]), list(outs[n_out + len(c_then):])
    # one gradient per distinct float tensor among the operands (the same tensor often feeds both branches)
    groups: dict[int, list] = {}
    for p, a in enumerate(ins):
        if _differentiable(a):
            groups.setdefault(id(a), []).append(p)

    def vjp(read, _out, dout):  # read: the operands' values when the node ran (the tape keeps them)
        douts = _as_list(dout, n_out)
        if not groups:
            return (None,) * len(args)
        r_then = _residuals(s_then, list(read[1:1 + n_then]), c_t)
        r_else = _residuals(s_else, list(read[1 + n_then:]), c_e)
        # absent cotangents (absent.py) pass through each branch's backward; an operand whose gradient is absent
        # in both branches gets none (an outer backward skips what only it reaches), one absent in a single
        # branch is a zero there (the merge with the other branch's value)
        b_then, a_then = _specialised(s_then, douts)
        b_else, a_else = _specialised(s_else, douts)
        present = {lo + p for s, a, lo in ((s_then, a_then, 0), (s_else, a_else, n_then))
                   for g, p in enumerate(s.grad_of) if g not in a}
        live = [ps for ps in groups.values() if any(p in present for p in ps)]
        if not live:
            return (None,) * len(args)

        def side(s: Split, bwd, res: list, lo: int, hi: int):
            def fn():
                grads = dict(zip((lo + k for k in s.grad_of), replay(bwd, res + _cotangents(s, douts, primal))))
                result = []
                for ps in live:
                    mine = [grads[p] for p in ps if lo <= p < hi and p in present]
                    g = mine[0] if mine else F.zeros_like(read[1 + ps[0]])
                    for extra in mine[1:]:
                        g = F.add(g, extra)
                    result.append(g)
                return result
            return fn

        g_t, _ = trace_subgraph(side(s_then, b_then, r_then, 0, n_then), [], "cond_then_bwd")
        g_e, _ = trace_subgraph(side(s_else, b_else, r_else, n_then, len(ins)), [], "cond_else_bwd")
        grads = bind(COND, (pred, *g_t.captured, *g_e.captured),
                     {"then": g_t, "else": g_e, "n_then": len(g_t.captured), "n_out": len(live)})
        full: list = [None] * len(args)
        for ps, g in zip(live, grads):
            # present in one branch only: absent when the other runs, a guarded cotangent (guards.py)
            in_then, in_else = (any(p in present and lo <= p < hi for p in ps) for lo, hi in ((0, n_then),
                                                                                              (n_then, len(ins))))
            if in_then != in_else:
                g = guarded(g, read[0] if in_then else F.logical_not(read[0]))
            full[1 + ps[0]] = g
        return tuple(full)

    return tuple(primal), vjp


# ---- WhileLoop --------------------------------------------------------------------------------------
def _while_residual_vjp(args: tuple, attrs: dict, emit=bind):
    """The body's residuals are stacked per iteration (state inputs and computed values; loop-invariant
    captured inputs are read from outside), with the trip count. The backward is a reverse loop
    ``i = count .. 1`` running the body's backward on row ``i - 1`` of every stack."""
    n, k = attrs["n_vars"], attrs["n_cond"]
    recorded = attrs.get("stacked") is not None
    s0 = len(attrs["stacked"]) if recorded else 0
    s = split(attrs["body"])
    inits, bcap = list(args[:n]), list(args[n + k:])
    stack_vars, res_src = [], []
    for kind, i in s.res_from:
        if kind == "in" and i >= n:
            res_src.append(("cap", i - n))
        else:
            res_src.append(("stack", s0 + len(stack_vars)))
            stack_vars.append(s.forward.inputs[i] if kind == "in" else _computed(s)[i])
    body = s.forward.replace(outputs=s.forward.outputs[:n + s0] + stack_vars)
    stacked = tuple(attrs["stacked"] if recorded else ()) + tuple(v.type for v in stack_vars)
    outs = emit(WHILE_LOOP, args, {**attrs, "body": body, "stacked": stacked})
    n_primal = n + 1 + s0 if recorded else n
    primal = list(outs[:n_primal])
    count, stacks = outs[n], list(outs[n + 1:])
    f_state = [j for j in range(n) if s.forward.inputs[j].type.dtype.is_differentiable
               and not is_token(s.forward.inputs[j])]
    f_cap = [i for i, c in enumerate(bcap) if _differentiable(c)]

    n_res = len(s.res_from)
    pos = {o: n_res + c for c, o in enumerate(s.dout_of)}  # body output -> its cotangent's backward input
    gpos = {p: g for g, p in enumerate(s.grad_of)}  # body input -> its gradient's position

    def vjp(read, _out, dout):  # read: the operands' values when the loop ran (the tape keeps them)
        douts = _as_list(dout, n_primal)
        caps = list(read[n + k:])
        if not f_state and not f_cap:
            return (None,) * len(args)
        # structurally zero (absent) cotangents (absent.py): the stacked outputs nothing differentiates, in every
        # iteration; a carried value nothing reads after the loop until a live one's backward reaches it
        fixed = frozenset(pos[o] for o in s.dout_of if o >= n and douts[n + 1 + (o - n)] is None)

        def zero_after(z: frozenset) -> frozenset:
            """The carried values whose cotangent is structurally zero after a reverse step entered with ``z``."""
            _, zg = specialise(s.backward, n_res, fixed | {pos[o] for o in z if o in pos})
            return frozenset(p for p in f_state if p not in gpos or gpos[p] in zg)

        peel, z = [], frozenset(j for j in f_state if douts[j] is None)
        sets = [z]  # sets[r]: zero after r reverse steps
        while len(peel) < _PEEL:  # the first reverse steps, one each, while the zero set changes
            after = zero_after(z)
            if after == z:
                break
            peel.append(z)
            z = after
            sets.append(z)
        # the loop ran at least ``sure`` times (its condition on constants, trips.py): those steps always run; the
        # state leaving the peeled steps is zero where it is after every number of them the loop may stop at
        sure = sure_trips(attrs, args, len(peel)) if peel else 0
        z = frozenset.intersection(*sets[sure:])
        while True:  # zero whatever the count: the largest part of that which every step keeps zero
            after = z & zero_after(z)
            if after == z:
                break
            z = after
        live = [p for p in f_state if p not in z]
        # the loop runs only after every peeled step ran: it is entered with sets[-1] absent, and keeps absent the
        # largest part of it each step keeps absent. A live value absent once r0 reverse steps ran and in the loop is
        # present only when the loop ran fewer than r0 times: its gradient is guarded by that (guards.py)
        after_peel = sets[-1]
        while True:
            shrunk = after_peel & zero_after(after_peel)
            if shrunk == after_peel:
                break
            after_peel = shrunk
        fresh = {}
        for p in live:
            if p in after_peel:
                r0 = len(sets) - 1
                while r0 > 0 and p in sets[r0 - 1]:
                    r0 -= 1
                fresh[p] = r0
        # a captured input gets a gradient only from a step whose backward gives it a present one
        cap_live = [c for c in f_cap if (n + c) in gpos and any(
            gpos[n + c] not in specialise(s.backward, n_res, fixed | {pos[o] for o in zs if o in pos})[1]
            for zs in (*peel, after_peel))]
        if not live and not cap_live:
            return (None,) * len(args)  # nothing present reaches an input: no gradient at all
        d_state = {j: F.zeros_like(primal[j]) if douts[j] is None else douts[j] for j in f_state}
        d_caps = [F.zeros_like(caps[i]) for i in cap_live]

        def step(i, state: dict, acc: list, zero: frozenset) -> list:
            j = F.sub(i, 1)
            res = [stacks[idx][j] if where == "stack" else caps[idx] for where, idx in res_src]
            cot = []
            for o in s.dout_of:
                if o < n:
                    cot.append(state[o] if o in state else F.zeros_like(primal[o]))
                else:  # a stacked output of an already-recorded loop: its cotangent is a row of dout
                    d = douts[n + 1 + (o - n)]
                    cot.append(F.zeros_like(stacks[o - n][j]) if d is None else d[j])
            bwd, zg = specialise(s.backward, n_res, fixed | {pos[o] for o in zero if o in pos})
            grads = {p: g for g, (p, g) in enumerate(zip(s.grad_of, replay(bwd, res + cot))) if g not in zg}
            new_state = [grads[p] if p in grads else F.zeros_like(d) for p, d in state.items()]
            new_caps = [F.add(a, grads[n + c]) if (n + c) in grads else a for a, c in zip(acc, cap_live)]
            return [j, *new_state, *new_caps]

        carry = [count, *d_state.values(), *d_caps]
        for r, zero in enumerate(peel):  # each peeled step only when the loop ran that many times
            def peeled(c, zero=zero):
                return step(c[0], dict(zip(f_state, c[1:1 + len(f_state)])), c[1 + len(f_state):], zero)
            carry = peeled(carry) if r < sure else _if_positive(carry, peeled)
        carry = [carry[0], *(carry[1 + f_state.index(p)] for p in live), *carry[1 + len(f_state):]]
        carry_types = [t._var.type for t in carry]

        def rcond(i, *_):
            return [F.greater(i, 0)]

        def rbody(i, *c):
            return step(i, dict(zip(live, c[:len(live)])), list(c[len(live):]), after_peel)

        g_cond, _ = trace_subgraph(rcond, carry_types, "while_cond_bwd")
        g_body, _ = trace_subgraph(rbody, carry_types, "while_body_bwd")
        final = bind(WHILE_LOOP, (*carry, *g_cond.captured, *g_body.captured),
                     {"cond": g_cond, "body": g_body, "n_vars": len(carry_types), "n_cond": len(g_cond.captured)})
        full: list = [None] * len(args)
        for p, g in zip(live, final[1:1 + len(live)]):
            if _differentiable(inits[p]):
                full[p] = g if p not in fresh else guarded(g, F.less(count, fresh[p]))
        for i, g in zip(cap_live, final[1 + len(live):]):
            full[n + k + i] = g
        return tuple(full)

    return tuple(primal), vjp


def _if_positive(carry: list, fn) -> list:
    """``fn(carry)`` (the same types) when ``carry[0] > 0``, else ``carry``: one Cond."""
    g_t, _ = trace_subgraph(lambda: fn(carry), [], "while_peel_bwd")
    g_e, _ = trace_subgraph(lambda: list(carry), [], "while_peel_skip")
    return list(bind(COND, (F.greater(carry[0], 0), *g_t.captured, *g_e.captured),
                     {"then": g_t, "else": g_e, "n_then": len(g_t.captured), "n_out": len(carry)}))


# ---- GraphCall --------------------------------------------------------------------------------------
def _call_residual_vjp(args: tuple, attrs: dict):
    if attrs.get("bprop") is not None:  # a Cell's custom bprop: the call as traced, the user's backward
        return _custom_call_vjp(args, attrs)
    s = split(attrs["graph"])
    outs = bind(GRAPH_CALL, args, {"graph": s.forward})
    primal = list(outs[:s.n_out])
    computed = list(outs[s.n_out:])

    def vjp(read, _out, dout):  # read: the operands' values when the call ran (the tape keeps them)
        douts = _as_list(dout, s.n_out)
        res = _residuals(s, list(read), computed)
        bwd, gone = _specialised(s, douts)  # absent cotangents pass through the callee's backward
        full: list = [None] * len(args)
        if len(gone) == len(s.grad_of):
            return tuple(full)
        grads = bind(GRAPH_CALL, (*res, *_cotangents(s, douts, primal)), {"graph": bwd})
        for g, (p, v) in enumerate(zip(s.grad_of, grads)):
            if g not in gone:
                full[p] = v
        return tuple(full)

    vjp.sparse_dout = True  # None for an output nothing differentiates
    return tuple(primal), vjp


def _custom_call_vjp(args: tuple, attrs: dict):
    # the call keeps its bprop: a gradient of the graph built here (a higher order, or the forward a split
    # differentiates again) must use it too, never construct's own derivative
    bprop = attrs["bprop"]
    primal = tuple(bind(GRAPH_CALL, args, {"graph": attrs["graph"], "bprop": bprop}))

    def vjp(read, _out, dout):
        douts = _as_list(dout, len(primal))
        return bprop(read, primal, douts)

    return primal, vjp


# ---- split on first use -----------------------------------------------------------------------------
def _lazy_vjp(builder, node, args: tuple, out, tapes: list) -> None:
    """Record ``node`` (a Cond / WhileLoop just emitted as traced) on each of ``tapes`` with a vjp that, on its
    first call, splits the node as it is then (``residual_vjp``) by extending it in place: the split bodies,
    the residuals as appended outputs, which the other tapes' records gain too (an outer tape differentiates
    the backward through them; its own split, later, is of the extended node, as when splitting eagerly)."""
    out = tuple(out) if isinstance(out, tuple) else (out,)
    slots = {}
    for tape in tapes:
        slots[id(tape)] = (tape, len(tape.records))
        tape.record_custom(args, out, _first_use(builder, node, args, tape, slots))


def _first_use(builder, node, args: tuple, tape, slots: dict):
    done: list = []

    def vjp(read, cur, dout):
        if not done:
            def extend(op, _args, attrs):
                n_old = len(node.outputs)
                types = op.infer(*[x.type for x in node.inputs], **attrs)
                new = [Var(t) for t in list(types)[n_old:]]
                node.attrs = dict(attrs)
                node.outputs = list(node.outputs) + new
                fresh = tuple(_new_tracer(v, builder) for v in new)
                for other, i in slots.values():
                    if other is not tape:
                        other.extend_record(i, fresh)
                return tuple(cur) + fresh
            done.append(node.op.residual_vjp(args, dict(node.attrs), extend)[1])
        return done[0](read, cur, dout)
    vjp.sparse_dout = True  # None for an output nothing differentiates: a loop's backward skips what only it reaches
    return vjp


COND.residual_vjp = _cond_residual_vjp
WHILE_LOOP.residual_vjp = _while_residual_vjp
GRAPH_CALL.residual_vjp = _call_residual_vjp
COND.extra["lazy_vjp"] = WHILE_LOOP.extra["lazy_vjp"] = _lazy_vjp
