"""Tracing Python control flow into Cond / WhileLoop nodes: ``cond`` / ``while_loop`` run plain Python
on concrete predicates and trace both branches / the body on symbolic ones, joining branch results
(Python numbers facing tensors, variables defined on one path only: ``Undefined``). Used by the AST
front-end's converted code; the op records live in ``ops/control.py``."""
from __future__ import annotations

import contextlib

import numpy as np

from .. import dtype as mstype
from ..core.errors import JitSyntaxError, JitTypeError, JitValueError
from ..core.pytree import Slot, flatten, unflatten
from ..core import dispatch
from ..core.dispatch import bind
from ..core.tensor import Parameter, Tensor
from ..core.types import TensorType, type_of
from ..ir import views as _views
from ..ir.builder import (Tracer, trace_subgraph, user_loc, write_back, writes_as_outputs,
                          written_outer)
from ..ir.graph import Const
from ..ir.scalars import as_scalar, join_kinds, kind_of
from ..ops import functional as F
from ..ops.control import COND, WHILE_LOOP
from . import loop_alias as _loop_alias

_NUMBERS = (bool, int, float, np.bool_, np.integer, np.floating)


# ---- values that are not defined on every path ------------------------------------------------------
class Undefined:
    """A variable that has no value here (assigned only in one branch, or only inside a tensor loop).
    Using it raises a located error saying why."""

    __slots__ = ("name", "reason", "loc")

    def __init__(self, name: str = "", reason: str = "", loc=None):
        self.name, self.reason, self.loc = name, reason, loc

    def error(self) -> JitSyntaxError:
        what = f"'{self.name}'" if self.name else "a variable"
        return JitSyntaxError(f"{what} is not defined here: {self.reason or 'it is never assigned'}", self.loc,
                              "assign it before the if/while, or in every branch")

    def __repr__(self) -> str:
        return f"<undefined {self.name}>"

    def __getattr__(self, item):
        raise self.error()


def _raise_undefined(self, *args, **kwargs):
    raise self.error()


for _dunder in ("add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow rpow matmul rmatmul "
                "neg pos abs invert lt le gt ge getitem setitem call iter len bool int float index and or xor "
                "rand ror rxor lshift rshift").split():
    setattr(Undefined, f"__{_dunder}__", _raise_undefined)

UNDEF = Undefined()


def is_symbolic(x) -> bool:
    return isinstance(x, Tracer)


def _is_value_leaf(x) -> bool:
    return isinstance(x, (Tensor, Undefined) + _NUMBERS)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _scalar_type(v) -> TensorType:
    if isinstance(v, (bool, np.bool_)):
        return TensorType((), mstype.bool_)
    if isinstance(v, (int, np.integer)):
        return TensorType((), mstype.int64)
    return TensorType((), mstype.float32)


def _const_tensor(value, t: TensorType) -> Tensor:
    if any(d is None for d in t.shape):
        raise JitTypeError(f"cannot make a constant of dynamic shape {t}", user_loc(3))
    return Tensor(np.full(t.shape, value, dtype=t.dtype.np))


def truth(value, loc=None) -> bool:
    """Python truth of a concrete condition (a Tensor must hold one element)."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise JitValueError(f"a tensor of shape {list(value.shape)} used as a condition is ambiguous",
                                loc or user_loc(2), "reduce it first: use .any() or .all()")
        return bool(value.asnumpy())
    return bool(value)


def _predicate(pred, loc) -> Tensor:
    """A symbolic condition as a 0-d bool tensor (one element required)."""
    shape = pred.shape
    if any(d is not None and d != 1 for d in shape) or (any(d is None for d in shape)):
        raise JitValueError(f"a tensor of shape {list(shape)} used as a condition must have exactly one element",
                            loc, "reduce it first: use .any() or .all()")
    if shape:
        pred = F.reshape(pred, ())
    if pred.dtype is not mstype.bool_:
        pred = F.cast(pred, mstype.bool_)
    return pred


predicate = _predicate  # public: a condition (one element) as a 0-d bool tensor


def _same_spec(a, b) -> bool:
    if isinstance(a, Slot) or isinstance(b, Slot):
        return isinstance(a, Slot) and isinstance(b, Slot) and a.index == b.index
    if a[0] != b[0]:
        return False
    if a[0] == "const":
        x, y = a[1], b[1]
        if x is y:
            return True
        try:
            return type(x) is type(y) and bool(x == y)
        except Exception:  # noqa: BLE001 - incomparable objects are different
            return False
    if a[1] is not b[1] or len(a[2]) != len(b[2]):
        return False
    if a[0] == "dict":
        return all(ka == kb and _same_spec(va, vb) for (ka, va), (kb, vb) in zip(a[2], b[2]))
    return all(_same_spec(x, y) for x, y in zip(a[2], b[2]))


def _leaf_names(tree, names) -> list[str]:
    """A readable name per flattened leaf: the variable it belongs to (``names`` per top-level item)."""
    if names is not None and isinstance(tree, tuple) and len(tree) == len(names):
        out: list[str] = []
        for name, item in zip(names, tree):
            out += [name] * len(_flat(item))
        return out
    return ["the result"] * len(_flat(tree))


def _flat(tree) -> list:
    leaves: list = []
    flatten(tree, leaves, _is_value_leaf)
    return leaves


# ---- Cond -----------------------------------------------------------------------------------------
def cond(pred, then_fn, else_fn, *operands, names=None, dead=(), loc=None):
    """``then_fn(*operands)`` if ``pred`` else ``else_fn(*operands)``. With a concrete predicate only the
    taken branch runs; with a symbolic one both branches are traced into a Cond node. The branches'
    results must have one structure; tensors in them must agree in shape and dtype (a Python number
    facing a tensor is converted to it; numbers that differ become tensors). ``dead``: the names (of
    ``names``) nothing reads after the if: not results of the Cond, ``Undefined`` after it."""
    if not is_symbolic(pred):
        return then_fn(*operands) if truth(pred, loc) else else_fn(*operands)
    loc = loc or user_loc(2)
    with _traced("both branches of the tensor if", loc):
        return _symbolic_cond(pred, then_fn, else_fn, operands, names, loc, dead)


@contextlib.contextmanager
def _traced(what: str, loc):
    """A Python error raised by user code while tracing a branch or loop body that this call may never run
    (eagerly the code would not fail) gets a note saying why it ran (once, innermost)."""
    try:
        yield
    except Exception as exc:
        noted = any(n.startswith("sprout:") for n in getattr(exc, "__notes__", ()))
        if not isinstance(exc, JitSyntaxError) and not noted:
            exc.add_note(f"sprout: raised while tracing {what} at {loc}; graph mode traces every branch and loop "
                         "body, also those this call does not run (as MindSpore's GRAPH mode compiles them)")
        raise


def _symbolic_cond(pred, then_fn, else_fn, operands, names, loc, dead=()):
    pred = _predicate(pred, loc)
    op_leaves: list = []
    op_spec = flatten(operands, op_leaves, _is_tensor)
    in_types = [type_of(t) for t in op_leaves]
    record: dict = {}
    fns = {"then": then_fn, "else": else_fn}
    fixes: dict = {"then": {}, "else": {}}

    def tracer_for(side):
        def traced(*ts):  # every tensor the branch gives; the Cond's results are picked from them below
            b = dispatch.current_builder()
            for t, outer in zip(ts, op_leaves):  # eagerly the operand's own object: a write to either reaches both
                b.alias_when(t, outer, None)
                if isinstance(outer, Tracer):  # and inside the branch the outer tensor is read through the operand,
                    b.seed(outer, t)  # never lifted in as a second input (fuzz seed 230313: a write reached one only)
            raw = fns[side](*unflatten(op_spec, list(ts)))
            record[side] = (b, ts, raw)
            return [x for x in _flat(raw) if isinstance(x, Tensor)]
        return traced

    graphs = {side: trace_subgraph(tracer_for(side), in_types, f"cond_{side}")[0] for side in fns}
    if names is not None:
        _branch_fixes(record["then"][2], record["else"][2], names, fixes)
        if dead and all(isinstance(record[side][2], tuple) and len(record[side][2]) == len(names) for side in fns):
            for i, name in enumerate(names):
                if name in dead:
                    fixes["then"][i] = fixes["else"][i] = Undefined(name, "it is not read after the tensor if", loc)
    outs_of = {side: _apply_fix(record[side][2], fixes[side]) for side in fns}
    (t_leaves, t_spec), (e_leaves, e_spec) = (_leaves_spec(outs_of[side]) for side in fns)
    leaf_names = _leaf_names(outs_of["then"], names)
    if not _same_spec(t_spec, e_spec) or len(t_leaves) != len(e_leaves):
        what = ", ".join(names) if names else "the result"
        raise JitTypeError(f"the two branches of this if give different kinds of values for {what}", loc,
                           "make both branches assign the same names with values of the same structure")
    plan, final = _cond_plan(t_leaves, e_leaves, leaf_names, loc)
    aliases = {side: _result_aliases(record[side][0], leaves, record[side][1], op_leaves)
               for side, leaves in (("then", t_leaves), ("else", e_leaves))}
    flags = _conditional_aliases(plan, aliases["then"], aliases["else"])
    for side, leaves in (("then", t_leaves), ("else", e_leaves)):
        graphs[side] = _pick_results(graphs[side], record[side][2], leaves, plan)
        if flags:  # a result is an operand's object only on some path inside a branch: that branch says so (a bool)
            graphs[side] = _with_flags(graphs[side], record[side][0], [aliases[side].get(key) for key in flags])
    g_then, g_else = graphs["then"], graphs["else"]
    # in-place writes (and io, through the effect token) inside a branch: new values come out as outputs
    written = written_outer([g_then, g_else], op_leaves)
    g_then, g_else = (writes_as_outputs(g, written, op_leaves) for g in (g_then, g_else))
    for (i, _), a, b in zip(plan, g_then.output_types, g_else.output_types):
        if a != b:
            raise JitTypeError(f"'{leaf_names[i]}' is {a} in the then-branch but {b} in the else-branch of this if",
                               loc, "both branches must give it the same shape and dtype")
    then_in = list(op_leaves) + list(g_then.captured)
    else_in = list(op_leaves) + list(g_else.captured)
    if not plan and not written:  # nothing assigned: a constant output keeps the node one ordinary line
        token = Const(np.zeros((), np.int32))
        g_then, g_else = g_then.replace(outputs=[token]), g_else.replace(outputs=[token])
    n_res = len(plan) + len(flags)
    outs = bind(COND, (pred, *then_in, *else_in), {"then": g_then, "else": g_else, "n_then": len(then_in),
                                                   "n_out": max(n_res + len(written), 1)})
    write_back(written, outs[n_res:])
    _join_aliases(pred, plan, aliases["then"], aliases["else"], dict(zip(flags, outs[len(plan):n_res])),
                  outs[:len(plan)])
    it = iter(outs[:len(plan)])
    leaves = [next(it) if x is _OUT else x for x in final]
    for side, side_leaves in (("then", t_leaves), ("else", e_leaves)):  # a branch returning a view (ir/views.py)
        _views.mark_escaped(_views.escaping(record[side][0], side_leaves, record[side][1], op_leaves), leaves)
    for i, _ in plan:  # Python numbers (or traced scalars) on both sides: the result is a Python scalar
        kind = join_kinds(kind_of(t_leaves[i]), kind_of(e_leaves[i]))
        if kind is not None and is_symbolic(leaves[i]):
            leaves[i] = as_scalar(leaves[i], kind)
    return unflatten(t_spec, leaves)


def _leaves_spec(tree) -> tuple:
    leaves: list = []
    return leaves, flatten(tree, leaves, _is_value_leaf)


def _pick_results(g, raw, leaves: list, plan: list):
    """The branch graph ``g`` (whose outputs are the tensors of its raw result ``raw``, in order) giving the
    Cond's results instead: each planned leaf's tensor, or a constant for a Python number (or a zeros
    placeholder) facing a tensor on the other side."""
    var_of = {id(x): v for x, v in zip((x for x in _flat(raw) if isinstance(x, Tensor)), g.outputs)}
    outs = []
    for i, t in plan:
        x = leaves[i]
        v = var_of.get(id(x)) if isinstance(x, Tensor) else None
        outs.append(v if v is not None else Const(_coerce(x, t)._data))
    return g.replace(outputs=outs)


def _with_flags(g, b, facts: list):
    """The branch graph ``g`` with one more bool output per alias fact (``_alias_flag``), emitted into the branch's
    own builder ``b`` after its trace: the branch is not traced again (a re-trace per level of nested ifs doubled
    the work at every level, and ran the branch's Python side effects twice)."""
    with b:
        flags = [_alias_flag(fact) for fact in facts]
    more = b.finish(flags)
    return more.replace(outputs=list(g.outputs) + list(more.outputs))


def _result_aliases(b, leaves: list, ins: tuple, operands: list) -> dict:
    """Which branch results are, eagerly, an outer tensor's own object (an operand, a tensor the branch reads
    from outside, a Parameter): {(leaf index, id(outer)): (outer, pred, negate)}, ``pred`` None when on every
    path through the branch, else a bool tracer (``negate``: when it is False), from ``alias_when``."""
    found: dict = {}
    for i, x in enumerate(leaves):
        if not isinstance(x, Tensor):
            continue
        entry = b._when.get(id(x))
        cands = [(x, None, False)] + (list(entry[1]) if entry is not None and entry[0] is x else [])
        for obj, pred, negate in cands:
            outer = next((o for t, o in zip(ins, operands) if obj is t), None)
            if outer is None:
                if isinstance(obj, Tracer) and obj._builder is not b:
                    outer = obj
                elif isinstance(obj, Tracer):
                    outer = next(iter(b._stands_for.get(id(obj), ())), None)
                elif isinstance(obj, Parameter) or id(obj) in b._params:
                    # a Parameter (or a tensor written in place: state) returned as it is, or what the result is on
                    # some path through an inner if (fuzz seed 213660: ``x = p0`` two tensor ifs deep)
                    outer = obj
            if not isinstance(outer, Tensor):
                continue
            key = (i, id(outer))
            if key not in found or pred is None:
                found[key] = (outer, pred, negate)
    return found


def _conditional_aliases(plan, then_al: dict, else_al: dict) -> list:
    """The (leaf, outer) alias keys of Cond results that hold only on some path inside a branch."""
    results = {i for i, _ in plan}
    keys = sorted({k for k in (*then_al, *else_al) if k[0] in results})
    return [k for k in keys if any(al.get(k) is not None and al[k][1] is not None for al in (then_al, else_al))]


def _alias_flag(fact) -> Tensor:
    """A branch's bool output saying its result is the outer object (``fact`` from ``_result_aliases``)."""
    if fact is None:
        return Tensor(np.array(False))
    _, pred, negate = fact
    if pred is None:
        return Tensor(np.array(True))
    return F.logical_not(pred) if negate else F.cast(pred, mstype.bool_)


def _join_aliases(pred, plan, then_al: dict, else_al: dict, flag_outs: dict, outs) -> None:
    """A result a branch passes through (maybe after writing it in place) is, eagerly, the outer object on
    that path: an in-place write to one after the if reaches the other only when it held (``alias_when``)."""
    b = dispatch.current_builder()
    pos = {i: j for j, (i, _) in enumerate(plan)}
    for key in sorted({k for k in (*then_al, *else_al) if k[0] in pos}):
        out = outs[pos[key[0]]]
        outer = (then_al.get(key) or else_al.get(key))[0]
        if key in flag_outs:
            b.alias_when(out, outer, flag_outs[key])
        elif key in then_al and key in else_al:
            b.alias_when(out, outer, None)  # the same object on both paths: always
        else:
            b.alias_when(out, outer, pred, key in else_al)


_OUT = object()


def _branch_fixes(t_out, e_out, names, fixes) -> bool:
    """A variable defined in one branch only becomes undefined after the if; the generated return-value
    carrier (``_sp_retval``, read only when its flag says the branch returned) gets zeros instead."""
    if not (isinstance(t_out, tuple) and isinstance(e_out, tuple) and len(t_out) == len(e_out) == len(names)):
        return False
    changed = False
    for i, (a, b) in enumerate(zip(t_out, e_out)):
        ua, ub = isinstance(a, Undefined), isinstance(b, Undefined)
        if ua == ub:
            continue
        if names[i].startswith("_sp_retval"):
            fixes["then" if ua else "else"][i] = b if ua else a
        else:
            fixes["then"][i] = fixes["else"][i] = None
        changed = True
    return changed


def _apply_fix(out, fix: dict):
    if not fix:
        return out
    items = list(out)
    for i, template in fix.items():
        items[i] = UNDEF if template is None else zeros_like_tree(template)
    return tuple(items)


def zeros_like_tree(tree):
    """``tree`` with every tensor replaced by zeros of its type and every number by 0 of its type."""
    leaves: list = []
    spec = flatten(tree, leaves, _is_value_leaf)
    out = []
    for x in leaves:
        if isinstance(x, Tensor):
            out.append(_const_tensor(0, type_of(x)))
        elif isinstance(x, Undefined):
            out.append(x)
        else:
            out.append(type(x)(0))
    return unflatten(spec, out)


def _cond_plan(t_leaves, e_leaves, leaf_names, loc):
    """Which leaves become Cond outputs (with the type a Python number must be converted to), and the
    final leaf list (``_OUT`` where an output goes, else a constant or an Undefined)."""
    plan, final = [], []
    for i, (a, b) in enumerate(zip(t_leaves, e_leaves)):
        if isinstance(a, Undefined) and a is b and a is not UNDEF:  # a name not read after the if (``dead``)
            final.append(a)
            continue
        if isinstance(a, Undefined) or isinstance(b, Undefined):
            side = "then" if isinstance(b, Undefined) else "else"
            final.append(Undefined(leaf_names[i], f"it is assigned only in the {side}-branch of a tensor if", loc))
            continue
        ta, tb = isinstance(a, Tensor), isinstance(b, Tensor)
        if ta and tb:
            plan.append((i, None))
        elif ta or tb:
            plan.append((i, type_of(a if ta else b)))
        elif type(a) is type(b) and a == b:
            final.append(a)
            continue
        else:
            ty = _scalar_type(a if isinstance(a, float) else b)
            if isinstance(a, (bool, np.bool_)) != isinstance(b, (bool, np.bool_)):
                ty = _scalar_type(1.0 if isinstance(a, float) or isinstance(b, float) else 1)
            plan.append((i, ty))
        final.append(_OUT)
    return plan, final


def _coerce(x, t: TensorType | None):
    """A branch/loop result as a tensor of type ``t`` (Python numbers become constants)."""
    if t is None or isinstance(x, Tensor):
        if t is not None and x.dtype is not t.dtype and not is_symbolic(x):
            return Tensor(x.asnumpy().astype(t.dtype.np))
        return x
    if isinstance(x, Undefined):
        raise x.error()
    return _const_tensor(x, t)


# ---- WhileLoop ------------------------------------------------------------------------------------
def while_loop(cond_fn, body_fn, init, *, names=None, live_out=None, loc=None) -> tuple:
    """``state = init; while cond_fn(*state): state = body_fn(*state)``; returns the final state (a tuple).
    Iterations whose condition is a Python value run as Python (unrolled while a graph is built); once
    the condition is symbolic the rest of the loop becomes one WhileLoop node. Loop variables that
    start as Python numbers become tensors (their dtype/shape may widen to what the body produces);
    ``Undefined`` ones are carried (zero-initialised) only if their name is in ``live_out``."""
    state = tuple(init)
    while True:
        t = cond_fn(*state)
        if is_symbolic(t):
            break
        if not truth(t, loc):
            return state
        state = tuple(body_fn(*state))
    loc = loc or user_loc(2)
    with _traced("the body of the tensor while", loc):
        return _symbolic_while(cond_fn, body_fn, state, names, live_out, loc)


def _symbolic_while(cond_fn, body_fn, state, names, live_out, loc):
    leaves: list = []
    spec = flatten(state, leaves, _is_value_leaf)
    leaf_names = _leaf_names(state, names)
    live = set(live_out) if live_out is not None else set(leaf_names)
    carry: dict = {}
    weak: set = set()
    for i, x in enumerate(leaves):
        if isinstance(x, Tensor):
            carry[i] = type_of(x)
        elif not isinstance(x, Undefined):
            carry[i], _ = _scalar_type(x), weak.add(i)
    # loop variables standing for Python scalars (a counter that starts as 0): traced as scalars, so they
    # stay Python numbers after the loop (kind None: a tensor)
    kinds = {i: k for i, x in enumerate(leaves) if (k := kind_of(x)) is not None}
    record: dict = {}
    extra: list = []  # outer values the body writes (Parameters, outer tensors, the effect token): carried too
    # loop variables that start as a tensor object: eagerly an in-place write (in the body or after the loop)
    # reaches that object while the variable is still it (until the body rebinds the name, maybe only on one
    # branch of an if). A carried bool says so (``alias_when``); the tensor is carried too when the body
    # writes it. {leaf index: flag tensor}; a flag the body never clears stays a constant True (not carried)
    # (one flag per pair of a loop variable and an object it may be: its entry object, or an outer one the body
    # binds it to, which it is after the loop when the body ran: fuzz-28, ``capture/loop_alias.py``)
    pairs: dict = _loop_alias.entry_pairs(leaves, carry, kinds)
    for _ in range(5):
        order = sorted(carry)
        in_types = [carry[i] for i in order]

        def body_traced(*ts, order=order, extra=extra):
            cur = list(leaves)
            for i, t in zip(order, ts):
                cur[i] = as_scalar(t, kinds[i]) if i in kinds else t
            b = dispatch.current_builder()
            record["builder"], record["ins"] = b, ts
            _loop_alias.seed_body(b, pairs, order, ts, extra)
            out = tuple(body_fn(*unflatten(spec, cur)))
            record["out"] = out
            out_leaves: list = []
            record["spec"] = flatten(out, out_leaves, _is_value_leaf)
            record["leaves"] = out_leaves
            outs = out_leaves if len(out_leaves) == len(leaves) else []
            # new (variable, object) pairs, then what each variable is after this iteration (a new pair's flag is
            # written here, so it is carried from the next trace on)
            record["new_pairs"] = _loop_alias.discover(b, pairs, order, ts, outs, leaves)
            _loop_alias.rebind(b, pairs, order, ts, outs, extra)
            if len(out_leaves) != len(leaves):
                return []
            return [_coerce(out_leaves[i], carry[i]) for i in order]

        g_body, out_types = trace_subgraph(body_traced, in_types, "while_body", carry=extra)
        if not _same_spec(spec, record["spec"]) or len(record["leaves"]) != len(leaves):
            fixed = _structured_undefined(state, record["out"], names, live)
            if fixed is not None:
                return _symbolic_while(cond_fn, body_fn, fixed, names, live_out, loc)
            raise JitTypeError("the body of this while loop changes the structure of its loop variables", loc,
                               "keep each loop variable a tensor (or a tuple of tensors) of a fixed structure")
        changed = False
        for i, t in zip(order, out_types):
            if t != carry[i]:
                if i in weak and t.dtype is not None:
                    carry[i], changed = t, True
                else:
                    raise JitTypeError(f"loop variable '{leaf_names[i]}' changes from {carry[i]} to {t} in the body "
                                       "of this while loop", loc, "a loop variable must keep its shape and dtype")
        for i, x in enumerate(record["leaves"]):
            if i not in carry and isinstance(leaves[i], Undefined) and leaf_names[i] in live and \
                    isinstance(x, Tensor):
                carry[i], changed = type_of(x), True
                weak.add(i)
        operands = [None] * len(order) + extra  # writes to loop variables come back as the body's results
        more = [w for w in written_outer([g_body], operands) if w is not None and all(w is not e for e in extra)]
        if more:
            extra, changed = extra + more, True
        index = {v.uid: k for k, v in enumerate(g_body.inputs)}
        for t, _ in g_body.updates:  # a loop variable written in the body: so is each object it may be
            k = index[t.uid]
            i = order[k] if k < len(order) else None
            for obj in (o for (j, _), (o, _) in pairs.items() if j == i):
                if all(obj is not e for e in extra):
                    extra, changed = extra + [obj], True
        changed = changed or record.pop("new_pairs", False)
        for i in order:
            if i in kinds:
                kind = join_kinds(kinds[i], kind_of(record["leaves"][i]))
                if kind != kinds[i]:
                    changed = True
                    if kind is None:
                        del kinds[i]
                    else:
                        kinds[i] = kind
        if not changed:
            break
    else:
        raise JitTypeError("the loop variables of this while loop do not settle on fixed types", loc)
    g_body = writes_as_outputs(g_body, extra, operands)

    def cond_traced(*ts):
        cur = list(leaves)
        for i, t in zip(order, ts):
            cur[i] = as_scalar(t, kinds[i]) if i in kinds else t
        p = cond_fn(*unflatten(spec, cur))
        if not isinstance(p, Tensor):
            p = Tensor(bool(p))
        return [_predicate(p, loc)]

    g_cond, _ = trace_subgraph(cond_traced, in_types, "while_cond", carry=extra)
    if g_cond.updates:
        raise JitSyntaxError("an in-place update or a print inside the condition of a while loop on a tensor "
                             "condition is not supported", loc, "do it in the loop body")
    inits = []
    for i in order:
        x = leaves[i]
        if isinstance(x, Undefined):
            x = _const_tensor(0, carry[i])
        elif not isinstance(x, Tensor):
            x = _const_tensor(x, carry[i])
        inits.append(x)
    outs = bind(WHILE_LOOP, (*inits, *extra, *g_cond.captured, *g_body.captured),
                {"cond": g_cond, "body": g_body, "n_vars": len(order) + len(extra), "n_cond": len(g_cond.captured)})
    flags = {id(f) for _, f in pairs.values()}
    kept = [(e, o) for e, o in zip(extra, outs[len(order):]) if id(e) not in flags]
    write_back([e for e, _ in kept], [o for _, o in kept])
    final = list(leaves)
    for i, o in zip(order, outs):
        final[i] = as_scalar(o, kinds[i]) if i in kinds else o
    flag_out = {id(e): o for e, o in zip(extra, outs[len(order):]) if id(e) in flags}
    b = dispatch.current_builder()
    _loop_alias.after_loop(b, pairs, final, flag_out)  # after the loop: each object while its flag held
    entry = [leaves[i] for i in order]  # a loop variable's view: of its entry object or of its final value
    escaped = _views.escaping(record["builder"], record["leaves"], record["ins"], entry)
    _views.mark_escaped(escaped, final, {k: final[i] for k, i in enumerate(order)})
    for i in range(len(leaves)):
        if i not in carry:
            final[i] = Undefined(leaf_names[i], "it is assigned only inside a while loop on a tensor condition", loc)
    return unflatten(spec, final)


def _structured_undefined(state, out, names, live):
    """Loop variables undefined before the loop that the body sets to a tuple/list: start them as
    zeros of that structure (None when that does not explain the mismatch)."""
    if names is None or len(out) != len(state):
        return None
    new, changed = list(state), False
    for i, (a, b) in enumerate(zip(state, out)):
        if isinstance(a, Undefined) and names[i] in live and isinstance(b, (tuple, list)):
            new[i], changed = zeros_like_tree(b), True
    return tuple(new) if changed else None


def _install() -> None:
    from ..core import hooks

    hooks.while_loop = while_loop


_install()
