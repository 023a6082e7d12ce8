"""A compiled graph callable on Tensors, plainly or as one differentiable tape node (forward + residuals)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..backend.interpret import GraphRuntimeError, describe_node
from ..backend.pycodegen import Generated, generate
from ..backend.buffers import store
from ..core import dispatch
from ..core.tensor import Parameter, Tensor
from ..ir.graph import Graph
from ..ir.replay import replay
from ..passes import run_pipeline
from .absent import without
from .grad_graph import split
from . import saved_hooks
from .tape import kept_copy


def will_write(tensors: list, positions: list) -> None:
    """A run is about to write ``tensors`` at ``positions`` (in place, maybe inside the generated code):
    gradient tapes keep the values their records read."""
    if dispatch._holders:
        for pos in positions:
            dispatch.will_write(tensors[pos])

_new = object.__new__


def _wrap(a: Any) -> Tensor:
    t = _new(Tensor)
    t._data = a if a.__class__ is np.ndarray else np.asarray(a)
    return t


def located(gen: Generated, exc: BaseException) -> BaseException:
    """Map an exception raised inside generated code to the node (and user line) that raised it."""
    tb = exc.__traceback__
    node = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == gen.filename:
            node = gen.node_at(tb.tb_lineno)
        tb = tb.tb_next
    if node is None or gen.graph is None:
        return exc
    return GraphRuntimeError(describe_node(gen.graph, node, exc))


class CompiledGraph:
    """A graph callable on Tensors given in the order of ``signature`` (the Vars of the graph's
    original inputs; passes may have pruned some). Returns the output Tensors and writes
    ``graph.updates`` back into the corresponding input tensors."""

    def __init__(self, graph: Graph, signature: list | None = None, level: str | None = None,
                 source: Graph | None = None):
        self.graph = graph
        self.level = level  # jit_level for graphs derived from this one (forward/backward)
        sig = graph.inputs if signature is None else signature
        index = {v.uid: k for k, v in enumerate(sig)}
        self.signature = list(sig)
        self.pick = [index[v.uid] for v in graph.inputs]
        # what gradients differentiate: the graph as traced (before the passes) when given. Its values are
        # the user's tensors one for one, so a bprop reads what it reads eagerly: passes may merge values
        # (x * 1 -> x) that eager code keeps apart, e.g. a copy of a Parameter taken before writing it.
        if source is None or any(v.uid not in index for v in source.inputs):
            source = graph
        self.source = source
        self.source_pick = [index[v.uid] for v in source.inputs]
        self.update_pos = [index[t.uid] for t, _ in graph.updates]
        self.n_out = len(graph.outputs)
        self._gen: Generated | None = None
        self._grad: _GradInfo | None = None

    @property
    def generated(self) -> Generated:
        if self._gen is None:
            self._gen = generate(self.graph)
        return self._gen

    def run_arrays(self, arrays: list) -> tuple:
        gen = self.generated
        try:
            return gen.function("graph_fn")(*[arrays[k] for k in self.pick])
        except GraphRuntimeError:
            raise
        except Exception as exc:
            raise located(gen, exc) from exc

    def __call__(self, *tensors) -> list:
        if dispatch._builders:  # inside a graph under construction: copy the nodes in
            pool = dict(zip((v.uid for v in self.signature), tensors))
            return replay(self.graph, [pool[v.uid] for v in self.graph.inputs])[:self.n_out]
        if dispatch._tapes:
            return self.call_differentiable(list(tensors))
        will_write(tensors, self.update_pos)
        res = self.run_arrays([t._data for t in tensors])
        self._write_back(tensors, res[self.n_out:], res[:self.n_out])
        return [_wrap(o) for o in res[:self.n_out]]

    def _write_back(self, tensors, values, outputs) -> None:
        """Written inputs get their new values in their own buffers, as an eager in-place write does (a
        tensor sharing the buffer, e.g. grad's alias of an argument, sees the write), unless an output of
        this run still holds the old value there (then the tensor gets the new array)."""
        for pos, value in zip(self.update_pos, values):
            store(tensors[pos], value, outputs)

    # ---- gradients across the boundary ----------------------------------------------------------
    def grad_info(self) -> _GradInfo:
        if self._grad is None:
            self._grad = _GradInfo(self)
        return self._grad

    def call_differentiable(self, tensors: list) -> list:
        """Run the forward (which also returns the residuals) and record ONE node on the innermost tape
        that sees an input; its vjp runs the compiled backward on the residuals. Outer tapes see the
        forward as a differentiable call of its own (its outputs include the residuals), so higher
        orders differentiate the backward without re-running any forward."""
        tapes = dispatch._tapes
        tape = next((t for t in reversed(tapes) if t.sees(tensors)), None)
        if tape is None:
            will_write(tensors, self.update_pos)
            res = self.run_arrays([t._data for t in tensors])
            self._write_back(tensors, res[self.n_out:], res[:self.n_out])
            return [_wrap(o) for o in res[:self.n_out]]
        info = self.grad_info()
        n_out = self.n_out + info.n_upd  # the outputs, then the updated inputs' new values
        # the run writes inputs in place: earlier records keep the values they read, and an input this call
        # both reads (a residual) and writes is read by its backward as it was before the run
        own = {i: kept_copy(tensors[i], tape) for kind, i in info.res_from
               if kind == "in" and i in info.forward.update_pos}
        will_write(tensors, info.forward.update_pos)
        if len(tapes) == 1:  # first order (the common case): arrays, no outer tape needs the residuals
            fwd = info.forward
            res = fwd.run_arrays([t._data for t in tensors])
            n_all = n_out + info.n_computed
            fwd._write_back(tensors, res[n_all:], res[:n_all])
            outs = [_wrap(o) for o in res[:n_out]]
            computed = res[n_out:n_all]
        else:
            with dispatch.suspend_tapes([tape]):
                res = info.forward(*tensors)
            outs, computed = res[:n_out], res[n_out:]
        if own or info.forward.update_pos:  # a residual in a written input's buffer: later writes change it
            computed = _unshared(computed, [tensors[i]._data for i in info.forward.update_pos], tape)
        # as eagerly, only outputs depending on an input this tape watches are recorded (live); the others, and
        # recorded ones nothing downstream used, pass no cotangent: inputs reaching only those get no gradient
        rec = info.recorded(tuple(tape.is_live(t) for t in tensors))
        if not rec:
            return _rebased(tape, tensors, info, outs, self.n_out)
        diff_outs = [outs[info.dout_of[j]] for j in rec]
        n_d = len(info.dout_of)
        unrec = {} if len(rec) == n_d else {j: (outs[i].shape, outs[i].dtype) for j, i in enumerate(info.dout_of)
                                             if j not in rec}
        # the computed residuals are recorded as values this call read: one sharing memory with an output or an
        # input (the same array, a view) is kept by the tape when a later in-place write changes that buffer
        n_in = len(tensors)
        held = tuple(_wrap(r) if r.__class__ is np.ndarray else r for r in computed)

        def vjp(args, out, dout):
            douts: list = [None] * n_d
            like: list = [None] * n_d  # a recorded output's value: the shape of its zero cotangent
            for j, d, o in zip(rec, dout if isinstance(dout, tuple) else (dout,), out if isinstance(out, tuple)
                               else (out,)):
                douts[j], like[j] = d, o
            dead: frozenset = frozenset()
            backward = info.backward
            if any(d is None for d in douts):
                from ..ops import functional as F

                missing = tuple(d is None for d in douts)
                dead, backward = info.unreached(missing), info.backward_without(missing)
                douts = [d if d is not None else F.zeros(*unrec[j]) if j in unrec else F.zeros_like(like[j])
                         for j, d in enumerate(douts)]
            # an input residual is the value the tape kept for the input (what this call read)
            residuals = [(own[i] if i in own else args[i]) if kind == "in" else args[n_in + i]
                         for kind, i in info.res_from]
            if not info.grad_of:
                grads: Any = ()
            elif not dispatch._slow:
                arrays = [r._data if isinstance(r, Tensor) else r for r in residuals] + [d._data for d in douts]
                grads = [_wrap(g) for g in backward.run_arrays(arrays)]
            else:
                grads = backward(*[r if isinstance(r, Tensor) else _wrap(r) for r in residuals], *douts)
            full: list = [None] * len(args)
            for k, g in zip(info.grad_of, grads):
                if k not in dead:
                    full[k] = g
            return tuple(full)

        vjp.sparse_dout = True
        if saved_hooks.stack:
            raise RuntimeError("saved_tensors_hooks cannot reach what a jitted function saves for its backward (its "
                               "graph's residuals); as in MindSpore it is not supported in Graph and Jit mode: call "
                               "the function without jit inside the context")
        tape.record_custom((*tensors, *held), diff_outs[0] if len(diff_outs) == 1 else tuple(diff_outs), vjp)
        return _rebased(tape, tensors, info, outs, self.n_out)


def _rebased(tape, tensors: list, info, outs: list, n_out: int) -> list:
    """The call's outputs; the inputs it wrote in place now stand for the new values it returned after them."""
    for k, pos in enumerate(info.updated):
        t, new = tensors[pos], outs[n_out + k]
        # (a Parameter or an input being differentiated keeps the gradient of its uses, whatever wrote it)
        if isinstance(t, Tensor) and not isinstance(t, Parameter) and id(t) not in tape.watched \
                and isinstance(new, Tensor) and tape.sees((t, new)):
            tape.rebase(t, new)
    return outs[:n_out]


def _unshared(computed, written: list, tape) -> list:
    """``computed`` (arrays, or Tensors on outer tapes) with copies of those sharing memory with ``written``."""
    out = list(computed)
    for k, r in enumerate(out):
        a = r._data if isinstance(r, Tensor) else r
        if a.__class__ is np.ndarray and any(np.may_share_memory(a, w) for w in written):
            out[k] = kept_copy(r, tape) if isinstance(r, Tensor) else a.copy()
    return out


class _GradInfo:
    """The compiled forward(+residuals) and backward of a CompiledGraph, built once on demand.

    Every graph here is called with the CompiledGraph's *signature* (passes may have pruned inputs
    of ``cg.graph``), so gradients and input residuals are indexed by signature position."""

    def __init__(self, cg: CompiledGraph):
        # an input the graph writes (an update) is written in place: its new value is a differentiated output too,
        # the tape rebases the input on it (autodiff/inplace.py), as after an eager in-place write
        src = cg.source
        self.n_out = len(src.outputs)
        self.n_upd = len(src.updates)
        if src.updates:
            src = src.replace(outputs=list(src.outputs) + [v for _, v in src.updates])
        pos = {v.uid: k for k, v in enumerate(cg.source.inputs)}
        self.updated = [cg.source_pick[pos[t.uid]] for t, _ in cg.source.updates]
        s = split(src)
        fwd = run_pipeline(s.forward, level=cg.level)
        bwd = run_pipeline(s.backward, level=cg.level)
        pick = cg.source_pick
        self.dout_of = s.dout_of
        self.n_computed = s.n_computed
        self.grad_of = [pick[k] for k in s.grad_of]
        self.res_from = [(kind, pick[i] if kind == "in" else i) for kind, i in s.res_from]
        # the split's primal inputs are fresh Vars standing for the graph's inputs: call by signature
        primal = s.forward.inputs
        sig = [primal[pick.index(k)] if k in pick else v for k, v in enumerate(cg.signature)]
        self.forward = CompiledGraph(fwd, sig, cg.level)
        self.backward = CompiledGraph(bwd, s.backward.inputs, cg.level)
        self._split, self._level, self._without = s, cg.level, {}
        self._source, self._pick, self._reach, self._unreached, self._recorded = src, pick, None, {}, {}
        # per gradient (grad_of order), the douts it is computed from (the backward graph's own dependencies: a
        # bprop that gives no gradient, e.g. a zeros_like's, cuts the path)
        n_res = len(s.res_from)
        bw = _reach(s.backward, [-1] * n_res + list(range(len(s.dout_of))), range(len(s.backward.outputs)))
        self._from_douts = [r - {-1} for r in bw]

    def backward_without(self, missing: tuple) -> CompiledGraph:
        """The backward for calls where the douts marked ``missing`` are absent (``autodiff/absent.py``): their
        paths removed, not fed zeros (built once per pattern)."""
        got = self._without.get(missing)
        if got is None:
            s = self._split
            g = without(s.backward, len(s.res_from), missing)
            got = self.backward if g is None else CompiledGraph(run_pipeline(g, level=self._level), s.backward.inputs,
                                                                self._level)
            self._without[missing] = got
        return got

    def _reaches(self) -> list:
        if self._reach is None:
            self._reach = _reach(self._source, self._pick, self.dout_of)
        return self._reach

    def recorded(self, live: tuple) -> tuple:
        """The differentiable outputs (``dout_of`` positions) depending on an input marked ``live``."""
        got = self._recorded.get(live)
        if got is None:
            pos = {k for k, m in enumerate(live) if m}
            got = self._recorded[live] = tuple(j for j, r in enumerate(self._reaches()) if not r.isdisjoint(pos))
        return got

    def unreached(self, missing: tuple) -> frozenset:
        """The signature positions whose gradient is computed only from douts marked ``missing`` (no cotangent:
        eagerly, no gradient reaches them; a zero would, e.g. into a host value's no-gradient check)."""
        got = self._unreached.get(missing)
        if got is None:
            gone = {j for j, m in enumerate(missing) if m}
            got = self._unreached[missing] = frozenset(k for k, d in zip(self.grad_of, self._from_douts) if d <= gone)
        return got


def _reach(graph: Graph, pick: list, outputs) -> list:
    """Per output of ``graph`` at the positions ``outputs``, the labels ``pick`` gives its inputs that it depends on
    (a node's outputs depend on all its operands; a control-flow node's operands include what its bodies capture)."""
    deps: dict = {v.uid: frozenset((pick[k],)) for k, v in enumerate(graph.inputs)}
    empty: frozenset = frozenset()
    for node in graph.nodes:
        d = empty.union(*(deps.get(getattr(a, "uid", None), empty) for a in node.inputs))
        for o in node.outputs:
            deps[o.uid] = d
    return [deps.get(getattr(graph.outputs[j], "uid", None), empty) for j in outputs]
