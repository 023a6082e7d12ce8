"""The SPMD pass and MindSpore's ``shard``: a function or Cell is traced into one graph with global shapes, then
rewritten node by node (``spmd_rules``) into the graph one rank runs -- local slices, collectives where layouts
change, ``Mirror`` at every replicated input and ``VirtualOutput`` at every output -- so that autodiff of that graph
gives the backward communication (docs/distributed.md, "shard")."""
from __future__ import annotations

import logging
import math
import threading

import numpy as np

from .. import context
from .. import dtype as mstype
from ..autodiff.compiled import CompiledGraph
from ..communication import management
from ..communication.state import current
from ..core import dispatch
from ..core.pytree import unflatten
from ..core.tensor import Parameter, Tensor
from ..core.types import TensorType
from ..ir.builder import GraphBuilder
from ..ir.effects import node_writes
from ..ir.graph import Const
from ..ops import functional as F
from ..ops.primitive_classes import Primitive
from ..ops.spmd_ops import mirror, reshard_op, virtual_output
from . import spmd_ckpt, spmd_rules, spmd_rules_more  # noqa: F401  (more rules, registered on import)
from ._utils import check_search_mode
from .layout import Layout
from .spmd_layout import Mesh, ShardError, TensorLayout, local_shape, redistribute, to_layout

logger = logging.getLogger("sprout.parallel")

_record = threading.local()  # the strategies of Primitive.shard met while tracing (per simulated rank)


def _recording_call(prim: Primitive, call):
    """``Primitive.shard``'s call while a sharded function is traced: the node the primitive emitted keeps its
    strategy (the last new node with one tensor input per strategy entry)."""
    table = getattr(_record, "table", None)
    builder = dispatch.current_builder()
    if table is None or builder is None:
        return call()
    n0 = len(builder.nodes)
    out = call()
    n = len(prim.in_strategy)
    for node in reversed(builder.nodes[n0:]):
        if sum(isinstance(getattr(x, "type", None), TensorType) for x in node.inputs) == n:
            table[id(node)] = (prim.in_strategy, prim.out_strategy)
            return out
    raise ShardError(f"shard: {prim.name}: the strategy {prim.in_strategy} has {n} entries but the primitive's call "
                     "made no op with that many tensor inputs")


Primitive._shard_recorder = staticmethod(_recording_call)


# ---- strategies --------------------------------------------------------------------------------------------
def _check_strategy(strategy, what: str) -> tuple | None:
    if strategy is None:
        return None
    if not isinstance(strategy, tuple):
        raise TypeError(f"For '{what}', the strategy must be a tuple, but got {type(strategy).__name__}.")
    kinds = {isinstance(s, Layout) for s in strategy if s is not None}
    if len(kinds) > 1:
        raise TypeError("For 'Shard', the strategy can only pass in consistent type for all dimensions.")
    for s in strategy:
        if s is None or isinstance(s, Layout):
            continue
        if not isinstance(s, tuple) or not all(isinstance(k, int) and not isinstance(k, bool) for k in s):
            raise TypeError("The tuple strategy for each dimension should be tuple(int).")
    return strategy


class _Entry:
    """One rank's compiled graph for one input signature."""

    def __init__(self, graph, sources: dict, out_spec, param_layouts: dict):
        self.graph = graph
        self.compiled = CompiledGraph(graph)
        self.reads = [sources[v.uid] for v in graph.inputs]
        self.out_spec = out_spec
        self.param_layouts = param_layouts

    def __call__(self, args: tuple):
        tensors = [args[s[1]] if s[0] == "arg" else s[1] for s in self.reads]
        outs = self.compiled(*tensors)
        return unflatten(self.out_spec, list(outs))


class Shard:
    """``ms.shard(fn, in_strategy, out_strategy, parameter_plan)``: calls run ``fn`` split over the world's ranks.
    Inputs are the global values (``full_batch=True`` or ``dataset_strategy="full_batch"``) or, with MindSpore's
    default ``dataset_strategy="data_parallel"``, this rank's slice of dim 0; outputs are the global values
    (or this rank's block of ``out_strategy``, which sprout honours)."""

    def __init__(self, fn, in_strategy, out_strategy=None, parameter_plan=None):
        if in_strategy is not None and not isinstance(in_strategy, tuple):
            raise TypeError(f"For 'shard', the 'in_strategy' should be a tuple, but got {type(in_strategy).__name__}.")
        if out_strategy is not None and not isinstance(out_strategy, tuple):
            raise TypeError(f"For 'shard', the 'out_strategy' should be None or a tuple, but got "
                            f"{type(out_strategy).__name__}.")
        if parameter_plan is not None and not isinstance(parameter_plan, dict):
            raise TypeError(f"For 'shard', the type of parameter_plan must be dict, but got "
                            f"{type(parameter_plan).__name__}.")
        self.fn = fn
        self.in_strategy = _check_strategy(in_strategy, "shard")
        self.out_strategy = _check_strategy(out_strategy, "shard")
        self.parameter_plan = dict(parameter_plan or {})
        for name, s in self.parameter_plan.items():
            if not isinstance(s, (tuple, Layout)):
                raise TypeError(f"For 'shard', the value of parameter_plan must be a tuple or Layout, got "
                                f"{type(s).__name__} for {name!r}.")
        if parameter_plan and not hasattr(fn, "parameters_and_names"):
            raise TypeError("For 'shard', parameter_plan needs 'fn' to be a Cell.")
        self._cache: dict = {}
        self.scope = None  # an AutoParallel's context for the calls (its configuration, not the global one)

    def __call__(self, *args):
        if self.scope is not None:
            with self.scope():
                return self._call(args)
        return self._call(args)

    def _call(self, args: tuple):
        if tracing_sharded():  # a sharded cell called inside another sharded function: traced inline
            return self._inline(args)
        n = management.get_group_size()
        if n == 1:
            return self.fn(*args)
        if context.get_auto_parallel_context("parallel_mode") not in _SHARD_MODES:
            raise ShardError("shard: strategies take effect under parallel_mode 'semi_auto_parallel' or "
                             "'auto_parallel' (set_auto_parallel_context); the parallel mode is "
                             f"{context.get_auto_parallel_context('parallel_mode')!r}")
        check_search_mode("shard")
        if self.in_strategy is not None and len(args) != len(self.in_strategy):
            raise ValueError(f"For 'shard', the number of inputs ({len(args)}) must equal the length of "
                             f"'in_strategy' ({len(self.in_strategy)}).")
        check_call_inputs("shard", "shard: a sharded function", args, ShardError)
        if context.auto_parallel_is_set("device_num") and context.get_auto_parallel_context("device_num") != n:
            raise ShardError(f"shard: device_num={context.get_auto_parallel_context('device_num')} but the world has "
                             f"{n} ranks; sprout shards over the whole world")
        mode = _input_mode()
        if mode == "strategy" and len(_dataset_strategy()) != len(args):
            raise ValueError(f"shard: dataset_strategy has {len(_dataset_strategy())} entries for {len(args)} inputs")
        # a Cell's graph depends on its training flag (set_train), as a jitted construct's does
        key = (management.get_rank(), n, mode, _dataset_strategy() if mode == "strategy" else None,
               *(context.get_auto_parallel_context(k) for k in _PASS_FLAGS),
               getattr(self.fn, "training", None), tuple((tuple(a.shape), a.dtype) for a in args))
        entry = self._cache.get(key)
        if entry is None:
            entry = self._cache[key] = self._build(args, n, mode)
        return entry(args)

    def _inline(self, args: tuple):
        """Nested ``Cell.shard`` / ``shard``: inside the enclosing function's trace, the inputs are resharded to
        ``in_strategy`` and the outputs to ``out_strategy`` (layout constraints for the enclosing pass); a
        ``parameter_plan`` joins the enclosing one."""
        from ..core.pytree import flatten

        if self.in_strategy is not None and len(args) != len(self.in_strategy):
            raise ValueError(f"For 'shard', the number of inputs ({len(args)}) must equal the length of "
                             f"'in_strategy' ({len(self.in_strategy)}).")
        if self.parameter_plan:
            _record.plans.append((self.fn, self.parameter_plan))
        if self.in_strategy is not None:
            args = tuple(a if s is None or not isinstance(a, Tensor) else reshard_op(a, s)
                         for a, s in zip(args, self.in_strategy))
        fn = self.fn
        out = type(fn).construct(fn, *args) if hasattr(fn, "parameters_and_names") else fn(*args)
        if self.out_strategy is None:
            return out
        leaves: list = []
        spec = flatten(out, leaves, lambda x: isinstance(x, Tensor))
        if len(leaves) != len(self.out_strategy):
            raise ValueError(f"For 'shard', 'out_strategy' has {len(self.out_strategy)} entries for {len(leaves)} "
                             "outputs.")
        return unflatten(spec, [t if s is None else reshard_op(t, s) for t, s in zip(leaves, self.out_strategy)])

    # ---- building one rank's graph -----------------------------------------------------------------------
    def _build(self, args: tuple, n: int, mode: str) -> _Entry:
        from ..jit.api import compile_graph  # the tracer belongs to the compiler (an upper layer at run time)

        if mode == "strategy":  # each input is this rank's block of the dataset strategy's layout
            fake = [_global_stand_in(a, 1, _split_counts(spec, a.ndim)) for a, spec in zip(args, _dataset_strategy())]
        else:
            fake = [_global_stand_in(a, n if mode == "data_parallel" else 1) for a in args]
        _record.table = table = {}
        _record.plans = []
        try:  # traced and built on their own, also when called inside another graph or under a tape
            with dispatch.no_builder(), dispatch.suspend_tapes(dispatch.active_tapes()):
                ex = compile_graph(self.fn, tuple(fake))
                return self._localize(ex, table, args, n, mode)
        finally:
            _record.table = None

    def _localize(self, ex, table: dict, args: tuple, n: int, mode: str) -> _Entry:
        traced = ex.traced
        graph = traced.graph
        params = {}
        plans = ([(self.fn, self.parameter_plan)] if self.parameter_plan else []) + list(_record.plans)
        specs = [self.in_strategy, self.out_strategy, list(table.values()),
                 _dataset_strategy() if mode == "strategy" else None]
        specs += [list(plan.values()) for _, plan in plans]
        specs += [node.attrs.get("layout") for node in graph.nodes if node.op.name == "Reshard"]
        mesh = Mesh(n, _rank_list(specs, n))
        for cell, plan in plans:
            named = dict(cell.parameters_and_names())  # names relative to the cell, or the Parameters' own names
            named.update({getattr(p, "name", ""): p for p in list(named.values())})
            for name, spec in plan.items():
                p = named.get(name)
                if p is None:
                    logger.warning("shard: parameter_plan names %r, which is not a parameter of the cell; ignored",
                                   name)
                    continue
                params[id(p)] = _param_layout(mesh, p, spec, name)
        load = spmd_ckpt.strategy_load_file()
        if load:  # strategy_ckpt_config load_file: the saved layouts of the parameters it names are imposed
            saved = spmd_ckpt.build_searched_strategy(load)
            for v in graph.inputs:
                src = traced.sources[v.uid]
                if src[0] == "param" and src[1].name in saved and id(src[1]) not in params:
                    dims = spmd_ckpt.loaded_dims(saved[src[1].name], mesh.shape, mesh.rank_list, tuple(v.type.shape),
                                                 src[1].name)
                    params[id(src[1])] = TensorLayout(dims)
        bad = [traced.sources[v.uid] for v, _ in graph.updates if traced.sources[v.uid][0] != "param"]
        if bad:
            raise ShardError(f"shard: a sharded function that writes its inputs in place ({bad[0][0]} "
                             f"{bad[0][1]!r}) is not supported; only Parameters may be updated")
        rank = management.get_rank()
        builder = GraphBuilder(f"{graph.name}_rank{rank}")
        env: dict = {}
        param_layouts: dict = {}
        param_of: dict = {}  # uid of a global Var -> the Parameter whose (current version of the) value it is
        with builder:
            for v in graph.inputs:
                src = traced.sources[v.uid]
                if src[0] == "arg":
                    k = src[1]
                    spec = None if self.in_strategy is None else self.in_strategy[k]
                    if mode in ("data_parallel", "strategy"):
                        have = to_layout(mesh, _dataset_strategy()[k], v.type.shape, f"shard: dataset_strategy {k}") \
                            if mode == "strategy" else \
                            TensorLayout((tuple(range(len(mesh.shape))),) + ((),) * (len(v.type.shape) - 1))
                        t = builder.add_input(TensorType(tuple(args[k].shape), v.type.dtype), f"arg{k}", ("arg", k))
                    else:
                        have = TensorLayout.replicated(len(v.type.shape))
                        t = _mirrored(builder.add_input(v.type, f"arg{k}", ("arg", k)))
                    want = _batch_layout(mesh, v.type.shape) if spec is None else \
                        to_layout(mesh, spec, v.type.shape, f"shard: input {k}")
                    env[v.uid] = spmd_rules.Val(redistribute(mesh, t, have, want), want, v.type)
                elif src[0] == "param":
                    p = src[1]
                    param_of[v.uid] = p
                    t = _mirrored(builder.param_tracer(p))
                    have = TensorLayout.replicated(len(v.type.shape))
                    want = params.get(id(p), have)
                    param_layouts[id(p)] = (p, want, tuple(v.type.shape))
                    env[v.uid] = spmd_rules.Val(redistribute(mesh, t, have, want), want, v.type,
                                                None if id(p) in params else p)
                else:
                    raise ShardError(f"shard: the graph reads {src[0]} {src[1]!r}, which a sharded function cannot")
            for node in graph.nodes:
                ins = [_value(env, x) for x in node.inputs]
                strategy = table.get(id(node))
                if node_writes(node):
                    for var, (local, lay) in zip(node.outputs, _state_write(mesh, builder, node, ins, param_of)):
                        env[var.uid] = spmd_rules.Val(local, lay, var.type)
                    continue
                outs = spmd_rules.apply(mesh, node, ins, None if strategy is None else strategy[0])
                if strategy is not None and strategy[1] is not None:
                    outs = _out_strategy(mesh, node, outs, strategy)
                for var, (local, lay) in zip(node.outputs, outs):
                    env[var.uid] = spmd_rules.Val(local, lay, var.type)
            results = []
            for k, o in enumerate(graph.outputs):
                val = _value(env, o)
                if not val.is_tensor:
                    results.append(val.local)
                    continue
                spec = self.out_strategy[k] if self.out_strategy is not None and k < len(self.out_strategy) else None
                want = TensorLayout.replicated(len(val.type.shape)) if spec is None else \
                    to_layout(mesh, spec, val.type.shape, f"shard: output {k}")
                local = redistribute(mesh, val.local, val.layout, want)
                leader = all(c == 0 for a, c in enumerate(mesh.coordinate(rank)) if a not in want.used())
                # loss_repeated_mean (MindSpore's default): the replicas of an output share the caller's cotangent
                # (one of them takes it; MindSpore divides it among them), so gradients are exact; False: each
                # replica takes it whole, and the summed gradients are the repeat count times larger (MindSpore's)
                seed = 1.0 if leader or not context.get_auto_parallel_context("loss_repeated_mean") else 0.0
                results.append(virtual_output(local, seed) if val.type.dtype.is_float else local)
        local_graph = builder.finish(results)
        for pid, (p, lay, shape) in param_layouts.items():
            spmd_ckpt.record(p, mesh.shape, mesh.param_used.get(pid, lay).dims, shape, mesh.rank_list)
        path = spmd_ckpt.strategy_save_file()
        if path:
            spmd_ckpt.save_strategy([p for p, _, _ in param_layouts.values()], path)
        return _Entry(local_graph, builder.sources, traced.out_spec, param_layouts)


_SHARD_MODES = ("semi_auto_parallel", "auto_parallel")
# the auto-parallel settings a rank's graph depends on (part of its cache key)
_PASS_FLAGS = ("gradient_fp32_sync", "force_fp32_communication", "enable_alltoall", "loss_repeated_mean")


def _rank_list(specs, n: int) -> list | None:
    """The one rank order of the Layouts among ``specs`` (nested tuples of strategies and Layouts): a Layout's
    ``rank_list`` gives the world rank at each device position; every Layout of one function must agree."""
    found: list = []

    def visit(s):
        if isinstance(s, Layout):
            found.append(list(s._rank_list))
        elif isinstance(s, (tuple, list)):
            for x in s:
                visit(x)

    visit(specs)
    orders = {tuple(r) for r in found}
    if len(orders) > 1:
        raise ShardError(f"shard: the Layouts of one sharded function give different rank_lists {sorted(orders)}; "
                         "sprout places them on one mesh with one rank order")
    if not orders:
        return None
    order = list(next(iter(orders)))
    if len(order) == n and sorted(order) != list(range(n)):
        raise ShardError(f"shard: a Layout's rank_list {order} must hold each of the {n} ranks once")
    return order if len(order) == n else None


def _out_strategy(mesh: Mesh, node, outs: list, strategy: tuple) -> list:
    """``Primitive.shard(in_strategy, out_strategy)``: each output redistributed to its given layout (a partial sum
    whose target splits a dim over the contracting axes becomes a ReduceScatter instead of an AllReduce, MindSpore's
    use of MatMul's out_strategy)."""
    specs = strategy[1]
    if len(specs) != len(outs):
        raise ShardError(f"shard: {node.op.name} with out_strategy {specs}: {len(specs)} entries for "
                         f"{len(outs)} outputs")
    done = []
    for spec, var, (local, lay) in zip(specs, node.outputs, outs):
        want = to_layout(mesh, spec, var.type.shape, f"shard: {node.op.name} out_strategy")
        done.append((redistribute(mesh, local, lay, want), want))
    return done


def _optimizer_ops() -> set:
    """The op records of the optimizers' in-place updates (Apply*, SGD, Adam, ...; ``ops/optim_kernels*.py``)."""
    from ..core.op import Op
    from ..ops import optim_kernels, optim_kernels2, optim_kernels3

    return {v for m in (optim_kernels, optim_kernels2, optim_kernels3) for v in vars(m).values() if isinstance(v, Op)}


def _state_write(mesh: Mesh, builder, node, ins: list, param_of: dict) -> list:
    """A Parameter update inside a sharded function (an optimizer step, BatchNorm's moving statistics): its
    operands gathered whole, the op run on every rank on the whole Parameter (each rank holds all of it), so every
    rank writes the same new value; the new version is replicated."""
    written = node_writes(node)
    if context.get_auto_parallel_context("enable_parallel_optimizer") and node.op in _optimizer_ops():
        raise NotImplementedError(f"shard: enable_parallel_optimizer with the optimizer ({node.op.name}) inside a "
                                  "sharded function is not supported; train with TrainOneStepCell / Model (whose "
                                  "optimizer state sprout shards) or set enable_parallel_optimizer=False")
    args = []
    for i, v in enumerate(ins):
        if i in written:
            p = param_of.get(node.inputs[i].uid) if hasattr(node.inputs[i], "uid") else None
            if p is None:
                raise ShardError(f"shard: {node.op.name} writes a value that is not a Parameter; a sharded function "
                                 "may update Parameters only")
            args.append(builder.param_tracer(p))
        else:
            args.append(spmd_rules._to(mesh, v, TensorLayout.replicated(len(v.type.shape))) if v.is_tensor
                        else v.local)
    outs = spmd_rules._emit(node, args)
    if len(outs) == len(written):  # the op returns the new versions: later reads name them
        for k, pos in enumerate(written):
            param_of[node.outputs[k].uid] = param_of[node.inputs[pos].uid]
    return [(o, TensorLayout.replicated(len(var.type.shape)) if isinstance(var.type, TensorType) else None)
            for o, var in zip(outs, node.outputs)]


def _batch_layout(mesh: Mesh, shape: tuple) -> TensorLayout:
    """An input without a strategy: dim 0 split over every device (MindSpore: data parallel), if it divides."""
    if not shape or shape[0] is None or shape[0] % mesh.n:
        return TensorLayout.replicated(len(shape))
    return TensorLayout((tuple(range(len(mesh.shape))),) + ((),) * (len(shape) - 1))


def semi_auto_network(network) -> None:
    """A training wrapper built under semi-auto / auto parallel over several ranks: the network it differentiates
    runs through the SPMD pass (inputs without a strategy are split on dim 0, Primitive.shard strategies inside
    apply, gradients of replicated parameters are summed by the Mirror ops), unless it is sharded already."""
    if management.get_group_size() == 1 or network.__dict__.get("_shard") is not None:
        return
    if context.get_auto_parallel_context("pipeline_stages") > 1:  # the PipelineCell inside runs the pipeline
        from ..nn.pipeline import contains_pipeline_cell

        if not contains_pipeline_cell(network):
            raise RuntimeError("pipeline_stages > 1: the network a training wrapper differentiates must contain an "
                               "nn.PipelineCell (MindSpore's rule); sprout pipelines only through it")
        return
    from .auto_parallel import AutoParallel

    auto = next((c for _, c in network.cells_and_names() if isinstance(c, AutoParallel)), None)
    if auto is network:
        return  # it runs its network through the pass itself
    if auto is None and context.get_auto_parallel_context("parallel_mode") not in _SHARD_MODES:
        return
    sharded = Shard(network, None)
    if auto is not None:  # Model(AutoParallel(net), loss, opt): the loss network runs under the cell's configuration
        sharded.scope = auto.scope
    network.__dict__["_shard"] = sharded
    network._refresh_plain()  # a sharded cell leaves Cell.__call__'s common path


def network_scope(network):
    """The auto-parallel context a training wrapper of ``network`` is built under: an AutoParallel cell's own
    configuration when the network holds one, else the global context."""
    import contextlib

    from .auto_parallel import AutoParallel

    auto = next((c for _, c in network.cells_and_names() if isinstance(c, AutoParallel)), None)
    return auto.scope() if auto is not None else contextlib.nullcontext()


def tracing_sharded() -> bool:
    """A sharded function is being traced on this thread (its calls of other sharded cells are traced inline)."""
    return getattr(_record, "table", None) is not None


def _mirrored(t, group: str = management.HCCL_WORLD_COMM_GROUP):
    """A replicated value entering the graph: its gradient is summed over every rank (each rank's graph uses its
    own part of it). A float16 / bfloat16 value's gradient is summed in float32 under ``gradient_fp32_sync`` (True by
    default, MindSpore's rule) or ``force_fp32_communication``: a Cast to float32 before the Mirror and back after
    (exact forward, float32 sum)."""
    if not t.dtype.is_float:
        return t
    fp32 = context.get_auto_parallel_context("gradient_fp32_sync") or \
        context.get_auto_parallel_context("force_fp32_communication")
    if t.dtype in (mstype.float16, mstype.bfloat16) and fp32:
        return F.cast(mirror(F.cast(t, mstype.float32), group), t.dtype)
    return mirror(t, group)


def _value(env: dict, x) -> spmd_rules.Val:
    if isinstance(x, Const):
        v = x.value
        if isinstance(v, np.ndarray):
            t = Tensor(v)
            return spmd_rules.Val(t, TensorLayout.replicated(v.ndim), TensorType(tuple(v.shape), t.dtype))
        return spmd_rules.Val(v, None, v)
    return env[x.uid]


def check_call_inputs(name: str, what: str, args: tuple, error) -> None:
    """The inputs of a call that compiles its own per-rank graph are Tensors, and on the simulated mesh the call is
    not inside a jitted function (the simulated ranks share one process's compiled graphs)."""
    for i, a in enumerate(args):
        if not isinstance(a, Tensor):
            raise TypeError(f"For '{name}', input {i} must be a Tensor, but got {type(a).__name__}.")
    if dispatch._builders and current().kind == "sim":
        raise error(f"{what} called inside a jitted function is not supported on the simulated mesh (the ranks share "
                    "one process's compiled graphs); call it eagerly, or run under mpiexec / sprout.msrun")


def _global_stand_in(a: Tensor, n: int, splits: tuple | None = None) -> Tensor:
    """A tensor of the global shape (dim 0 times ``n``, or each dim times its ``splits``) that costs no memory (for
    tracing only)."""
    if splits is not None:
        shape = tuple(d * k for d, k in zip(a.shape, splits))
    else:
        shape = (a.shape[0] * n,) + tuple(a.shape[1:]) if n > 1 else tuple(a.shape)
    t = Tensor.__new__(Tensor)
    t._data = np.broadcast_to(np.zeros((), a.dtype.np), shape)
    return t


def _input_mode() -> str:
    if context.get_auto_parallel_context("full_batch"):
        return "full_batch"
    ds = context.get_auto_parallel_context("dataset_strategy")
    if ds == "full_batch":
        return "full_batch"
    if ds == "data_parallel":
        return "data_parallel"
    return "strategy"


def _dataset_strategy() -> tuple:
    return tuple(context.get_auto_parallel_context("dataset_strategy"))


def _split_counts(spec, ndim: int) -> tuple:
    """How many blocks a strategy (tuple) or Layout cuts each of ``ndim`` dims into."""
    if isinstance(spec, Layout):
        if spec._tensor_map is None or len(spec._tensor_map) != ndim:
            raise ShardError(f"shard: the dataset_strategy Layout {spec._tensor_map} does not match an input of rank "
                             f"{ndim}")
        return tuple(math.prod(spec._device_shape[a] for a in spec.dim_axes(d)) for d in range(ndim))
    if not isinstance(spec, tuple) or len(spec) != ndim:
        raise ShardError(f"shard: the dataset_strategy entry {spec!r} does not match an input of rank {ndim}")
    return spec


def _param_layout(mesh: Mesh, p: Parameter, spec, name: str) -> TensorLayout:
    shape = tuple(p.shape)
    if isinstance(spec, tuple):
        if len(spec) != len(shape):
            raise ValueError(f"For 'shard', the length of param_strategy {spec} must equal the dimension of "
                             f"parameter {name!r} {len(shape)}.")
        for i, (s, k) in enumerate(zip(shape, spec)):
            if s % k:
                raise ValueError(f"For 'shard', the param_shape[{i}]: {s} cannot be divisible by "
                                 f"param_strategy[{i}]: {k}.")
    return to_layout(mesh, spec, shape, f"shard: parameter {name}")


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
    """MindSpore's ``ms.shard``: ``fn`` itself in a world of one (MindSpore's rule), else a ``Shard``."""
    if not isinstance(device, str):
        raise TypeError(f"For 'shard', the 'device' should be a str, but got {type(device).__name__}.")
    if level not in (0, 1, 2):
        raise ValueError(f"For 'shard', the 'level' should be 0, 1 or 2, but got {level!r}.")
    sharded = Shard(fn, in_strategy, out_strategy, parameter_plan)
    if management.get_group_size() == 1:
        return fn
    if not hasattr(fn, "parameters_and_names"):
        logger.warning("shard: 'fn' is not a Cell: its definition cannot involve Parameter")
    return sharded


def cell_shard(cell, in_strategy, out_strategy, parameter_plan, device, level) -> None:
    """``Cell.shard``: later calls of ``cell`` go through a ``Shard`` of its construct (a no-op in a world of one)."""
    if not isinstance(device, str):
        raise TypeError(f"For 'Cell.shard', the 'device' should be a str, but got {type(device).__name__}.")
    if level not in (0, 1, 2):
        raise ValueError(f"For 'Cell.shard', the 'level' should be 0, 1 or 2, but got {level!r}.")
    sharded = Shard(cell, in_strategy, out_strategy, parameter_plan)
    if cell.__dict__.get("_shard") is not None:
        logger.warning("Cell.shard: %s is already configured; the new strategy replaces it", type(cell).__name__)
    if management.get_group_size() > 1:
        cell.__dict__["_shard"] = sharded
        cell._refresh_plain()


def local_layout_shape(mesh_n: int, layout: TensorLayout, shape: tuple) -> tuple:
    return local_shape(Mesh(mesh_n), layout, shape)
