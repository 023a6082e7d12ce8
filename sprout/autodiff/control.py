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
from ..ir.graph import Const, Var
from ..ir.replay import replay
from ..ops import functional as F
from ..ops.control import COND, WHILE_LOOP
from .grad_graph import Split, split


def _is_float(x) -> bool:
    return isinstance(x, Tensor) and x.dtype.is_inexact


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
    return [F.zeros_like(outs[i]) if douts[i] is None else douts[i] for i in s.dout_of]


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
        if _is_float(a):
            groups.setdefault(id(a), []).append(p)

    def vjp(read, _out, dout):  # read: the operands' values when the node ran (the tape keeps them)
        douts = _as_list(dout, n_out)
        if not groups:
            return (None,) * len(args)
        r_then = _residuals(s_then, list(read[1:1 + n_then]), c_t)
        r_else = _residuals(s_else, list(read[1 + n_then:]), c_e)

        def side(s: Split, res: list, lo: int, hi: int):
            def fn():
                grads = dict(zip((lo + k for k in s.grad_of), replay(s.backward, res + _cotangents(s, douts, primal))))
                result = []
                for ps in groups.values():
                    mine = [grads[p] for p in ps if lo <= p < hi and p in grads]
                    g = mine[0] if mine else F.zeros_like(read[1 + ps[0]])
                    for extra in mine[1:]:
                        g = F.add(g, extra)
                    result.append(g)
                return result
            return fn

        g_t, _ = trace_subgraph(side(s_then, r_then, 0, n_then), [], "cond_then_bwd")
        g_e, _ = trace_subgraph(side(s_else, r_else, n_then, len(ins)), [], "cond_else_bwd")
        grads = bind(COND, (pred, *g_t.captured, *g_e.captured),
                     {"then": g_t, "else": g_e, "n_then": len(g_t.captured), "n_out": len(groups)})
        full: list = [None] * len(args)
        for ps, g in zip(groups.values(), grads):
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
    f_state = [j for j in range(n) if s.forward.inputs[j].type.dtype.is_inexact]
    f_cap = [i for i, c in enumerate(bcap) if _is_float(c)]

    def vjp(read, _out, dout):  # read: the operands' values when the loop ran (the tape keeps them)
        douts = _as_list(dout, n_primal)
        caps = list(read[n + k:])
        d_final = [F.zeros_like(primal[j]) if douts[j] is None else douts[j] for j in f_state]
        d_caps = [F.zeros_like(caps[i]) for i in f_cap]
        if not d_final and not d_caps:
            return (None,) * len(args)
        carry_types = [count._var.type] + [t._var.type for t in d_final] + [t._var.type for t in d_caps]

        def rcond(i, *_):
            return [F.greater(i, 0)]

        def rbody(i, *carry):
            j = F.sub(i, 1)
            d_state = dict(zip(f_state, carry[:len(f_state)]))
            res = [stacks[idx][j] if where == "stack" else caps[idx] for where, idx in res_src]
            cot = []
            for o in s.dout_of:
                if o < n:
                    cot.append(d_state[o])
                else:  # a stacked output of an already-recorded loop: its cotangent is a row of dout
                    d = douts[n + 1 + (o - n)]
                    cot.append(F.zeros_like(stacks[o - n][j]) if d is None else d[j])
            grads = dict(zip(s.grad_of, replay(s.backward, res + cot)))
            new_state = [grads[p] if p in grads else F.zeros_like(d_state[p]) for p in f_state]
            new_caps = [F.add(acc, grads[n + c]) if (n + c) in grads else acc
                        for acc, c in zip(carry[len(f_state):], f_cap)]
            return [j, *new_state, *new_caps]

        g_cond, _ = trace_subgraph(rcond, carry_types, "while_cond_bwd")
        g_body, _ = trace_subgraph(rbody, carry_types, "while_body_bwd")
        final = bind(WHILE_LOOP, (count, *d_final, *d_caps, *g_cond.captured, *g_body.captured),
                     {"cond": g_cond, "body": g_body, "n_vars": len(carry_types), "n_cond": len(g_cond.captured)})
        full: list = [None] * len(args)
        for j, g in zip(f_state, final[1:1 + len(f_state)]):
            if _is_float(inits[j]):
                full[j] = g
        for i, g in zip(f_cap, final[1 + len(f_state):]):
            full[n + k + i] = g
        return tuple(full)

    return tuple(primal), vjp


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
        grads = bind(GRAPH_CALL, (*res, *_cotangents(s, douts, primal)), {"graph": s.backward}) if s.grad_of else ()
        full: list = [None] * len(args)
        for p, g in zip(s.grad_of, grads):
            full[p] = g
        return tuple(full)

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
    return vjp


COND.residual_vjp = _cond_residual_vjp
WHILE_LOOP.residual_vjp = _while_residual_vjp
GRAPH_CALL.residual_vjp = _call_residual_vjp
COND.extra["lazy_vjp"] = WHILE_LOOP.extra["lazy_vjp"] = _lazy_vjp
