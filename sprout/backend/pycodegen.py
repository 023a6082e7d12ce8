"""Graph -> readable straight-line Python over NumPy, one line per node, compiled with ``compile()``."""
from __future__ import annotations

import itertools
import keyword
import linecache
import os
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

import numpy as np

from ..core.tensor import Tensor
from ..ir.effects import TokenType, is_io_op, node_writes, op_inputs, op_outputs, takes_token, written_vars
from ..ir.graph import Graph, Node, Var, last_uses, numel
from ..ops.elementwise import CAST
from ..ops.linalg import MATMUL
from ..ops.shape import BROADCAST_TO
from . import concat_dest, pool, schedule
from .buffers import SLOW_IN_PLACE, Buffers, store
from .interpret import bind_attrs
from .reuse import residual_call, residual_pairs, static as _static, transposed_copies

# binary ops whose NumPy impl is exactly the ufunc behind a Python operator
_BINOPS = {np.add: "+", np.subtract: "-", np.multiply: "*", np.equal: "==", np.not_equal: "!=",
           np.greater: ">", np.greater_equal: ">=", np.less: "<", np.less_equal: "<="}
# results at least this big (elements) are written into a dead input (out=) and freed early (del)
_BIG = 1 << 15
_counter = itertools.count()


def _numel(t) -> int | None:
    return numel(getattr(t, "shape", None))


@dataclass
class Generated:
    """Generated source, the compiled functions, and which node each source line belongs to."""

    source: str
    filename: str
    namespace: dict
    line_nodes: dict = field(default_factory=dict)
    graph: Graph | None = None
    schedule: str = ""  # the two streams (``schedule.Plan.describe``) when the code was scheduled on two

    def function(self, name: str) -> Callable:
        return self.namespace[name]

    def node_at(self, lineno: int) -> Node | None:
        return self.line_nodes.get(lineno)


class _Emitter:
    def __init__(self, graph: Graph):
        self.graph = graph
        self.ns: dict[str, Any] = {"_np": np, "_nd": np.ndarray, "_asarray": np.asarray,
                                   "_new": object.__new__, "_Tensor": Tensor}
        self.names: dict[int, str] = {}
        self.consts: dict[int, str] = {}
        self.n_var = 0
        self.tasks: list[tuple[str, Node]] = []  # top-level functions the worker stream runs (``_task<k>``)
        self.task_of: dict[int, str] = {}          # id(worker node) -> the local holding its task
        self.schedule = ""
        self.transposed: dict[int, str] = {}  # uid -> name of its C-contiguous transpose (see reuse.transposed_copies)
        self.transposed_users: set[int] = set()  # id of the MatMul nodes that read those copies

    def bind(self, prefix: str, value: Any) -> str:
        for k, v in self.ns.items():
            if v is value and k.startswith(prefix):
                return k
        name = f"{prefix}{sum(1 for k in self.ns if k.startswith(prefix))}"
        self.ns[name] = value
        return name

    def ufunc(self, u: np.ufunc) -> str:
        return f"_np.{u.__name__}" if getattr(np, u.__name__, None) is u else self.bind("_u", u)

    def op_name(self, node: Node) -> str:
        base = f"_{node.op.name}"
        name = base if base.isidentifier() else f"_op{next(_counter)}"
        k = 1
        while name in self.ns and self.ns[name] is not node.op.impl:
            name = f"{base}_{k}"
            k += 1
        self.ns[name] = node.op.impl
        return name

    def ref(self, x: Any) -> str:
        if isinstance(x, Var):
            return self.names[x.uid]
        v = x.value
        if type(v) in (int, bool) or (type(v) is float and np.isfinite(v)):
            return repr(v)
        if v is None or isinstance(v, TokenType):  # an effect token has no run-time value
            return "None"
        return self.bind("_k", v)

    def literal(self, v: Any) -> str:
        if v is None or type(v) in (int, bool, str) or (type(v) is float and np.isfinite(v)):
            return repr(v)
        if type(v) is tuple and all(type(e) in (int, bool) or e is None for e in v):
            return repr(v)
        return self.bind("_k", v)

    def define(self, v: Var) -> str:
        name = f"v{self.n_var}"
        self.n_var += 1
        self.names[v.uid] = name
        return name


class EmitContext:
    """What an op record's ``emit(ctx, node, args)`` may ask of the code generator: literals and bound
    objects for the generated source, and whether an input may be overwritten in place. ``emit`` returns
    ``(expression, uid of the input whose buffer the expression writes, or None)`` or None (no fast path)."""

    def __init__(self, em: _Emitter, owned: set, last: dict, i: int):
        self.em, self.owned, self.last, self.i = em, owned, last, i

    def literal(self, v: Any) -> str:
        return self.em.literal(v)

    def bind(self, prefix: str, value: Any) -> str:
        return self.em.bind(prefix, value)

    @staticmethod
    def is_var(x: Any) -> bool:
        return isinstance(x, Var)

    @staticmethod
    def static(t: Any) -> bool:
        return _static(t)

    @staticmethod
    def static_float(x: Any) -> bool:
        """``x`` is a graph value of a float dtype and fully known shape."""
        return isinstance(x, Var) and _static(x.type) and x.type.dtype.np.kind == "f"

    def transposed(self, node: Node, x: Any) -> str | None:
        """Name of a C-contiguous copy of ``x.T`` made earlier in this graph for ``node``, if the generator made one."""
        if id(node) not in self.em.transposed_users or not isinstance(x, Var):
            return None
        return self.em.transposed.get(x.uid)

    def dead_big_input(self, node: Node, x: Any) -> bool:
        """``x`` is a fresh buffer of this graph, used last by ``node`` and big enough to reuse in place."""
        return (isinstance(x, Var) and x.uid in self.owned and self.last.get(x.uid) == self.i
                and (_numel(node.outputs[0].type) or 0) >= _BIG)


def _node_expr(em: _Emitter, node: Node, owned: set, last: dict, i: int) -> tuple[str, int | None]:
    """Python expression for a one-output node; returns (expr, uid of an input reused in place)."""
    op, ins, attrs = node.op, node.inputs, node.attrs
    args = [em.ref(x) for x in ins]
    out_t = node.outputs[0].type if len(node.outputs) == 1 else None
    impl = op.impl
    if isinstance(impl, np.ufunc) and not attrs and out_t is not None:
        size = _numel(out_t)
        if size is not None and size >= _BIG and impl not in SLOW_IN_PLACE:  # big: write into a dead input
            for x in ins:
                if isinstance(x, Var) and x.uid in owned and last.get(x.uid) == i and x.type == out_t:
                    return f"{em.ufunc(impl)}({', '.join(args)}, out={em.names[x.uid]})", x.uid
        if impl in _BINOPS and len(args) == 2:
            return f"{args[0]} {_BINOPS[impl]} {args[1]}", None
        if impl is np.negative:
            return f"-{args[0]}", None
        return f"{em.ufunc(impl)}({', '.join(args)})", None
    if op.emit is not None:  # the op record's own fast path (ops/*.py)
        fast = op.emit(EmitContext(em, owned, last, i), node, args)
        if fast is not None:
            return fast
    return _impl_call(em, node, args), None


def _impl_call(em: _Emitter, node: Node, args: list) -> str:
    """``_Op(args..., attr=literal, ...)``: a call of the op's impl, sub-graph attrs compiled to callables."""
    from . import compile_subgraph

    bound = bind_attrs(node.attrs, compile_subgraph)
    if all(k.isidentifier() and not keyword.iskeyword(k) for k in bound):
        args = args + [f"{k}={em.literal(v)}" for k, v in bound.items()]
    else:
        args = args + [f"**{em.bind('_kw', dict(bound))}"]
    return f"{em.op_name(node)}({', '.join(args)})"


def _result_uids(graph: Graph) -> set:
    """Vars the graph returns or writes back."""
    return {v.uid for v in list(graph.outputs) + [u for _, u in graph.updates] if isinstance(v, Var)}


def _implicit_broadcasts(graph: Graph, uses: dict, outs: set) -> set:
    """BroadcastTo results whose every use is a NumPy binary operator whose other operand already has the
    broadcast shape: the operator broadcasts by itself (np.broadcast_to costs more than the op here)."""
    found = set()
    for node in graph.nodes:
        if node.op is not BROADCAST_TO or len(node.outputs) != 1 or not isinstance(node.inputs[0], Var):
            continue
        out = node.outputs[0]
        if out.uid in outs or None in out.type.shape or node.inputs[0].type.dtype != out.type.dtype:
            continue
        # the other operand must really have the shape (not be a broadcast this pass already dropped)
        if _operator_uses_only(uses, out, lambda o, out: o.uid not in found
                               and tuple(o.type.shape) == tuple(out.type.shape)):
            found.add(out.uid)
    return found


def _operator_uses_only(uses: dict, out: Var, other_ok: Callable[[Var, Var], bool]) -> bool:
    """``out`` is used, and only as one operand of NumPy binary operators whose other operand is a Var
    accepted by ``other_ok(other, out)``."""
    users = uses.get(out.uid)
    if not users:
        return False
    for user in users:
        other = [y for y in user.inputs if not (isinstance(y, Var) and y.uid == out.uid)]
        if not (user.op.impl in _BINOPS and not user.attrs and len(user.inputs) == 2 and len(other) == 1
                and isinstance(other[0], Var) and other_ok(other[0], out)):
            return False
    return True


def _bool_casts(graph: Graph) -> set:
    """Casts of a bool Var to a float dtype whose every use is a NumPy binary operator with a Var of that
    dtype: NumPy's promotion (float op bool -> float) makes the cast pass unnecessary; and BroadcastTo
    results used only by operators that broadcast anyway (``_implicit_broadcasts``)."""
    uses: dict[int, list] = {}
    for node in graph.nodes:
        for x in node.inputs:
            if isinstance(x, Var):
                uses.setdefault(x.uid, []).append(node)
    outs = _result_uids(graph)
    found = set()
    for node in graph.nodes:
        if node.op is not CAST or len(node.outputs) != 1 or not isinstance(node.inputs[0], Var):
            continue
        src, out = node.inputs[0], node.outputs[0]
        if src.type.dtype.np != np.bool_ or out.type.dtype.np.kind != "f" or out.uid in outs:
            continue
        if _operator_uses_only(uses, out, lambda o, out: o.type.dtype == out.type.dtype):
            found.add(out.uid)
    return found | _implicit_broadcasts(graph, uses, outs)


def _fresh(op) -> bool:
    """The op's result is always a fresh array (never a view of an input): reusable in place once dead."""
    return isinstance(op.impl, np.ufunc) or op.fresh_output


def _descend(var, alpha, delta):
    var -= alpha * delta
    return var


def _gemm_descent(var, alpha, a, b, ta: bool, tb: bool, update: Callable = _descend, mm: Callable = np.matmul):
    """``var -= alpha * (op(a) @ op(b))`` with NumPy's own BLAS, the gradient transposes as views (``mm``:
    ``pool.matmul_rows`` when the schedule splits the GEMM over both streams).
    (A scipy ``sgemm(beta=1)`` writing straight into ``var`` saves one pass, but it is a second
    OpenBLAS with its own thread pool: on 2 cores the two pools spin against each other and the MLP
    step measured 2.9x slower with default threads. One BLAS per process.)"""
    return update(var, alpha, mm(a.T if ta else a, b.T if tb else b))


def _gemm_updates(graph: Graph, last: dict) -> dict:
    """MatMul nodes whose only use is the delta of a plain descent update (an op whose record says
    ``extra["gemm_delta"] == 2``: ``var -= alpha * delta``, ApplyGradientDescent): {matmul output uid: update node}.
    The pair is emitted as one ``_gemm_descent`` at the update's position (``last`` is extended)."""
    uses: dict[int, int] = {}
    for node in graph.nodes:
        for x in node.inputs:
            if isinstance(x, Var):
                uses[x.uid] = uses.get(x.uid, 0) + 1
    outs = _result_uids(graph)
    producers = {n.outputs[0].uid: (i, n) for i, n in enumerate(graph.nodes) if len(n.outputs) == 1}
    effected = written_vars(graph)
    found = {}
    for j, node in enumerate(graph.nodes):
        if node.op.extra.get("gemm_delta") != 2 or node.attrs or len(node.inputs) != 3:
            continue
        var, _lr, delta = node.inputs
        if not isinstance(delta, Var) or uses.get(delta.uid) != 1 or delta.uid in outs or delta.uid not in producers:
            continue
        i, mm = producers[delta.uid]
        if (mm.op is not MATMUL or set(mm.attrs) - {"transpose_a", "transpose_b"} or not isinstance(var, Var)
                or len(var.type.shape) != 2 or not all(isinstance(x, Var) and len(x.type.shape) == 2
                                                       and x.uid not in effected for x in mm.inputs)):
            continue
        found[delta.uid] = mm
        for x in mm.inputs:
            last[x.uid] = max(last.get(x.uid, j), j)
    return found


def _body(em: _Emitter, graph: Graph, lines: list, line_nodes: dict, indent: str,
          writable: set | None = None) -> Buffers:
    """One line per node. ``writable``: uids of inputs whose arrays the code may overwrite (inputs the
    graph updates); state writes (``ir.effects``) go in place when ``Buffers`` allows, else on a copy."""
    last = last_uses(graph)
    gemm = _gemm_updates(graph, last)
    plan = _plan(em, graph, gemm, last)
    deferred = {id(mm) for mm in gemm.values()}
    owned: set[int] = set()
    viewed = set()  # inputs of ops that may return views or mutate: never written in place by out=
    for node in graph.nodes:
        if not _fresh(node.op):
            viewed.update(x.uid for x in node.inputs if isinstance(x, Var))
    aliases = _bool_casts(graph)
    for node in graph.nodes:  # the bool source lives (no del, no in-place reuse) as long as its alias
        if aliases and node.outputs and node.outputs[0].uid in aliases:
            src, out = node.inputs[0].uid, node.outputs[0].uid
            last[src] = max(last.get(src, -1), last.get(out, -1))
    bufs = Buffers(graph, last, writable or set())
    skip = set(plan.worker) | set(plan.split) if plan else set()
    hoist, users = transposed_copies(graph, deferred | skip)
    em.transposed_users |= users
    prods, cons = residual_pairs(graph, skip)
    cats = concat_dest.plan(graph, deferred | skip | set(prods) | set(cons), em)
    viewed |= cats.shared  # pieces and results share one buffer: never written in place by out=
    kept: dict = {}
    for i, node in enumerate(graph.nodes):
        lines.extend(indent + a for a in cats.allocs.get(i, ()))
        if plan:
            _streams(em, plan, i, node, bufs, owned, viewed, lines, line_nodes, indent)
            if id(node) in plan.worker:
                continue
        for x in hoist.get(i, ()):
            name = f"xT{em.n_var}"
            em.n_var += 1
            lines.append(f"{indent}{name} = _np.ascontiguousarray({em.ref(x)}.T)")
            em.transposed[x.uid] = name
        if aliases and node.outputs and node.outputs[0].uid in aliases:  # float(bool) used by operators only
            em.names[node.outputs[0].uid] = em.names[node.inputs[0].uid]
            bufs.same(node.outputs[0], node.inputs[0])
            continue
        if id(node) in deferred:  # computed inside the parameter update that consumes it
            continue
        comment = ""
        if node.loc is not None:
            src = (node.loc.source_line or "").strip()
            comment = f"  # {os.path.basename(node.loc.filename)}:{node.loc.lineno}" + (f"  {src}" if src else "")
        if node_writes(node):
            _emit_state(em, node, i, bufs, gemm, lines, indent, comment, plan)
            line_nodes[len(lines)] = node
            continue
        view = node
        if is_io_op(node.op) and takes_token(node):  # the token is an IR value only: no code
            em.names[node.outputs[0].uid] = em.ref(node.inputs[0])
            view = Node(node.op, op_inputs(node), node.attrs, op_outputs(node), node.loc)
        if len(view.outputs) == 1 and view.op.n_out == 1:
            more = ""
            if plan and id(node) in plan.split:
                expr, reused = _split_expr(em, node), None
            elif id(node) in prods or id(node) in cons:
                (expr, more), reused = residual_call(em, node, prods, cons, kept), None
            elif id(node) in cats.pieces or id(node) in cats.concats:
                expr, reused = cats.expr(em, node, EmitContext(em, owned, last, i).transposed, lines, indent), None
            else:
                expr, reused = _node_expr(em, view, owned, last, i)
            out = view.outputs[0]
            lhs = em.define(out) + more
            fresh = _fresh(node.op)
            if fresh and out.uid not in viewed:
                owned.add(out.uid)
            if reused is not None:
                bufs.same(out, next(x for x in node.inputs if isinstance(x, Var) and x.uid == reused))
            elif fresh and id(node) not in cats.concats:
                bufs.fresh(out)
            else:
                bufs.alias(out, node.inputs)
        else:
            expr, reused = (cats.expr(em, node, EmitContext(em, owned, last, i).transposed, lines, indent)
                            if id(node) in cats.pieces else _node_expr_multi(em, view, owned, last, i)), None
            lhs = ", ".join(em.define(o) for o in view.outputs)
            if node.op.fresh_output:  # fresh arrays (a fused kernel's): reusable in place
                owned.update(o.uid for o in view.outputs if o.uid not in viewed)
            for o in view.outputs:
                bufs.fresh(o) if node.op.fresh_output else bufs.alias(o, node.inputs)
            if len(view.outputs) == 1:
                lhs += ","
            if not view.outputs:
                lhs = "_"
        lines.append(f"{indent}{lhs} = {expr}{comment}")
        line_nodes[len(lines)] = node
        dead = [x for x in node.inputs if isinstance(x, Var) and last.get(x.uid) == i and x.uid != reused
                and x.uid in owned and (_numel(x.type) or 0) >= _BIG]
        if dead:
            lines.append(f"{indent}del {', '.join(dict.fromkeys(em.names[x.uid] for x in dead))}")
    if plan:
        _streams(em, plan, len(graph.nodes), None, bufs, owned, viewed, lines, line_nodes, indent)
    return bufs


def _plan(em: _Emitter, graph: Graph, gemm: dict, last: dict) -> schedule.Plan | None:
    """The two-stream schedule when ``inter_op_parallel_num`` asks for it: MatMuls moved to the worker leave
    the parameter-update fusion, and the inputs of every worker node stay live (no ``out=``, no in-place
    write, no ``del``) until its join."""
    if pool.streams() < 2:
        return None
    at = {}
    for j, node in enumerate(graph.nodes):
        if node.op.extra.get("gemm_delta") == 2 and len(node.inputs) == 3 and isinstance(node.inputs[2], Var) \
                and node.inputs[2].uid in gemm:
            at[id(gemm[node.inputs[2].uid])] = j
    plan = schedule.plan(graph, at)
    if not plan:
        return None
    em.schedule = plan.describe(graph)
    for uid, mm in list(gemm.items()):
        if id(mm) in plan.worker:
            del gemm[uid]
    for node in graph.nodes:
        if id(node) in plan.worker:
            join = plan.worker[id(node)][1]
            for x in node.inputs:
                if isinstance(x, Var):
                    last[x.uid] = max(last.get(x.uid, join), join)
    return plan


def _split_expr(em: _Emitter, node: Node) -> str:
    """A MatMul whose result rows the two streams compute in halves."""
    a, b = (em.ref(x) for x in node.inputs)
    ta, tb = (".T" if node.attrs.get(k) else "" for k in ("transpose_a", "transpose_b"))
    return f"{em.bind('_matmul_rows', pool.matmul_rows)}({a}{ta}, {b}{tb})"


def _streams(em: _Emitter, plan: schedule.Plan, i: int, node: Node | None, bufs: Buffers, owned: set, viewed: set,
             lines: list, line_nodes: dict, indent: str) -> None:
    """Before node ``i``: join the worker nodes whose join is here (their outputs are defined from now on),
    then fork those whose fork is here (each as a top-level ``_task<k>`` over the arrays it reads)."""
    for b in plan.joins.get(i, ()):
        out = b.outputs[0]
        task = em.task_of[id(b)]
        lines.append(f"{indent}{em.define(out)} = {em.bind('_join', pool.join)}({task})")
        line_nodes[len(lines)] = b
        bufs.fresh(out)
        if out.uid not in viewed:
            owned.add(out.uid)
    for b in plan.forks.get(i, ()):
        fork, join = plan.worker[id(b)]
        expr, _ = _node_expr(em, b, set(), {}, fork)
        params = list(dict.fromkeys(em.names[x.uid] for x in b.inputs if isinstance(x, Var)))
        k = len(em.tasks)
        em.tasks.append((f"def _task{k}({', '.join(params)}):  # {b.op.name} on the worker stream\n"
                         f"    return {expr}", b))
        em.task_of[id(b)] = f"t{k}"
        lines.append(f"{indent}t{k} = {em.bind('_submit', pool.submit)}(_task{k}{''.join(', ' + p for p in params)})")
        line_nodes[len(lines)] = b


def _emit_state(em: _Emitter, node: Node, i: int, bufs: Buffers, gemm: dict, lines: list, indent: str,
                comment: str, plan: schedule.Plan | None = None) -> None:
    """A functional state write (outputs = new values of the written operands) as an in-place call: on
    the operand's own array when nothing still needs the old value, else on a fresh copy."""
    w = node_writes(node)
    mm = gemm.get(node.inputs[2].uid) if gemm and node.op.extra.get("gemm_delta") == 2 else None
    args = [em.ref(x) for x in (node.inputs[:2] if mm is not None else node.inputs)]
    for k, p in enumerate(w):
        x = node.inputs[p]
        if not bufs.can_overwrite(x, i, node):
            name = f"c{em.n_var}"
            em.n_var += 1
            lines.append(f"{indent}{name} = _np.array({args[p]}, copy=True)")
            args[p] = name
        out = node.outputs[k]
        em.names[out.uid] = args[p]
        if args[p] == em.ref(x) and isinstance(x, Var):
            bufs.same(out, x)
        else:
            bufs.fresh(out)
    if mm is not None:
        a, b = (em.ref(x) for x in mm.inputs)
        ta, tb = (bool(mm.attrs.get(k)) for k in ("transpose_a", "transpose_b"))
        split = f", {em.bind('_matmul_rows', pool.matmul_rows)}" if plan and id(mm) in plan.split else ""
        lines.append(f"{indent}{em.bind('_gemm_descent', _gemm_descent)}({args[0]}, {args[1]}, {a}, {b}, {ta}, {tb}, "
                     f"{em.op_name(node)}{split}){comment}")
        return
    lines.append(f"{indent}{_impl_call(em, node, args)}{comment}")


def _node_expr_multi(em: _Emitter, node: Node, owned: set, last: dict, i: int) -> str:
    args = [em.ref(x) for x in node.inputs]
    if node.op.emit is not None:
        fast = node.op.emit(EmitContext(em, owned, last, i), node, args)
        if fast is not None:
            return fast[0]
    return _impl_call(em, node, args)


def _register_source(filename: str, source: str) -> None:
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def _finish(em: _Emitter, lines: list, line_nodes: dict, graph: Graph, tag: str) -> Generated:
    for text, node in em.tasks:  # after the function, each task's body line located at its node
        lines.extend(text.split("\n"))
        line_nodes[len(lines)] = node
    source = "\n".join(lines) + "\n"
    filename = f"<sprout-jit {graph.name} #{next(_counter)}{tag}>"
    _register_source(filename, source)
    exec(compile(source, filename, "exec"), em.ns)  # noqa: S102 - our own generated code
    return Generated(source, filename, em.ns, line_nodes, graph, em.schedule)


def _protect_outputs(em: _Emitter, graph: Graph, bufs: Buffers, lines: list) -> dict:
    """Outputs that may share the array of an input whose write-back is a copy into that array
    (``buffers.store``) are copied first, so they keep the value the graph gave them."""
    stored = {t.uid for t, v in graph.updates if em.ref(v) != em.names[t.uid]}
    names: dict = {}
    for o in graph.outputs:
        if isinstance(o, Var) and o.uid not in names and stored & bufs.roots.get(o.uid, frozenset()):
            names[o.uid] = f"c{em.n_var}"
            em.n_var += 1
            lines.append(f"    {names[o.uid]} = _np.array({em.ref(o)}, copy=True)")
    return names


def generate(graph: Graph) -> Generated:
    """``def graph_fn(x0, x1, ...)`` over arrays returning (outputs..., updated values...)."""
    em = _Emitter(graph)
    lines: list[str] = []
    line_nodes: dict[int, Node] = {}
    params = []
    for k, v in enumerate(graph.inputs):
        em.names[v.uid] = f"x{k}"
        params.append(f"x{k}")
    lines.append(f"def graph_fn({', '.join(params)}):")
    bufs = _body(em, graph, lines, line_nodes, "    ", {t.uid for t, _ in graph.updates})
    names = _protect_outputs(em, graph, bufs, lines)
    rets = [names.get(o.uid) or em.ref(o) if isinstance(o, Var) else em.ref(o) for o in graph.outputs]
    rets += [em.ref(v) for _, v in graph.updates]
    lines.append(f"    return ({', '.join(rets)}{',' if len(rets) == 1 else ''})")
    return _finish(em, lines, line_nodes, graph, "")


def _read_apart(graph: Graph, reads: list, update_targets: list, lines: list) -> None:
    """A graph reads each argument as it was at the call: an input sharing memory with an argument the graph
    writes (the same tensor passed twice, a view and its base) is read from a copy, so the write (in place into
    the argument's array) never reaches it mid-run (docs/jit.md section 2)."""
    written = {t.uid for (t, _), dest in zip(graph.updates, update_targets) if dest[0] == "arg"}
    if not written:
        return
    pos = {v.uid: k for k, v in enumerate(graph.inputs)}
    all_written = {t.uid for t, _ in graph.updates}
    for w in written:
        for k, v in enumerate(graph.inputs):
            if v.uid not in all_written and reads[k][0] in ("arg", "param"):
                lines.append(f"    if _np.may_share_memory(x{pos[w]}, x{k}): x{k} = x{k}.copy()")


def generate_entry(graph: Graph, reads: list, n_leaves: int, update_targets: list, single: bool,
                   leaf_names: list | None = None, n_params: int | None = None) -> Generated:
    """``def entry(a0, a1, ...)`` over the flat argument leaves: unwraps tensors, runs the body,
    writes updates back and wraps the outputs as Tensors (one Tensor if ``single``, else a list).

    ``reads[k]`` says where graph input k comes from: ("arg", leaf, dtype-or-None) or ("param", obj);
    ``update_targets[k]`` is ("arg", leaf) or ("param", obj) for graph.updates[k]."""
    em = _Emitter(graph)
    leaf = leaf_names or [f"a{i}" for i in range(n_leaves)]
    lines = [f"def entry({', '.join(f'a{i}' for i in range(n_leaves if n_params is None else n_params))}):"]
    line_nodes: dict[int, Node] = {}
    for k, (v, read) in enumerate(zip(graph.inputs, reads)):
        em.names[v.uid] = f"x{k}"
        if read[0] == "arg":
            if read[2] is None:
                lines.append(f"    x{k} = {leaf[read[1]]}._data")
            else:
                lines.append(f"    x{k} = _asarray({leaf[read[1]]}, {em.bind('_dt', read[2])})")
        else:
            lines.append(f"    x{k} = {em.bind('_P', read[1])}._data  # {getattr(read[1], 'name', '') or 'parameter'}")
    _read_apart(graph, reads, update_targets, lines)
    bufs = _body(em, graph, lines, line_nodes, "    ", {t.uid for t, _ in graph.updates})
    stores = []
    for (target, value), dest in zip(graph.updates, update_targets):
        obj = leaf[dest[1]] if dest[0] == "arg" else em.bind("_P", dest[1])
        val = em.ref(value)
        if val != em.names[target.uid]:  # (else it was written in place into the array it came from)
            stores.append((target.uid, f"    {em.bind('_store', store)}({obj}, {val})"))
    names = _protect_outputs(em, graph, bufs, lines)
    lines.extend(line for _, line in stores)
    outs = []
    inputs = {v.uid for v in graph.inputs}
    for k, o in enumerate(graph.outputs):
        r = f"r{k}"
        if isinstance(o, Var):
            val = names.get(o.uid) or em.ref(o)
            if len(o.type.shape) >= 1 or o.uid in inputs:
                lines.append(f"    {r} = _new(_Tensor); {r}._data = {val}")
            else:
                fix = f"{val} if {val}.__class__ is _nd else _asarray({val})"
                lines.append(f"    {r} = _new(_Tensor); {r}._data = {fix}")
        else:
            lines.append(f"    {r} = _new(_Tensor); {r}._data = _np.array({em.bind('_k', o.value)})")
        outs.append(r)
    lines.append(f"    return {outs[0]}" if single else f"    return [{', '.join(outs)}]")
    return _finish(em, lines, line_nodes, graph, " entry")
