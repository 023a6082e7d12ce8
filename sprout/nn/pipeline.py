"""Pipeline parallel (GPipe) over MPI ranks, with data-parallel replicas of each stage: ``nn.PipelineCell`` under
``pipeline_stages > 1``. The cell's forward (all micro-batches) is traced once into one graph whose nodes carry the
``pipeline_stage`` of the innermost staged Cell that emitted them; each rank keeps its stage's nodes, sends the
values later stages read (``Send``) and receives the ones it reads from earlier stages (``Receive``), in one global
order, so the ranks can never wait on each other in a cycle. Autodiff of that per-rank graph gives the backward:
Send's gradient is a Receive from the next stage, Receive's a Send back, run in reverse order -- all micro-batch
forwards, then all backwards (GPipe)."""
from __future__ import annotations

import threading

import numpy as np

from .. import context
from .. import dtype as mstype
from ..communication import management
from ..communication.state import current
from ..core import dispatch
from ..core.pytree import unflatten
from ..core.tensor import Parameter, Tensor
from ..core.types import TensorType
from ..ir.builder import GraphBuilder
from ..ir.effects import is_io_op, node_writes
from ..ir.graph import Const
from ..ops import comm_ops as K
from ..ops import functional as F
from . import cell as _cell
from .cell import Cell

_tracing = threading.local()  # the stage of each node while a PipelineCell is traced (per simulated rank)
_SEMI = ("semi_auto_parallel", "auto_parallel")


def engaged() -> bool:
    """Calls of a PipelineCell run pipelined: several ranks, ``pipeline_stages > 1`` in semi-auto / auto parallel,
    and not while the cell itself is being traced for it."""
    if getattr(_tracing, "stages", None) is not None:
        return False
    stages = context.get_auto_parallel_context("pipeline_stages")
    return stages > 1 and management.get_group_size() > 1


def check_mode(where: str) -> int:
    """The number of stages, after MindSpore's mode rule; the ranks must divide into the stages (stage ``s`` runs on
    ranks ``s * d .. s * d + d - 1``, ``d`` data-parallel replicas per stage, MindSpore's placement)."""
    stages = context.get_auto_parallel_context("pipeline_stages")
    mode = context.get_auto_parallel_context("parallel_mode")
    if mode not in _SEMI:
        raise RuntimeError(f"{where}: pipeline_stages > 1 needs parallel_mode 'semi_auto_parallel' or "
                           f"'auto_parallel', but the mode is {mode!r}")
    from ..parallel._utils import check_search_mode

    check_search_mode(where)
    n = management.get_group_size()
    if n % stages:
        raise ValueError(f"{where}: the number of ranks ({n}) must be a multiple of pipeline_stages ({stages})")
    if isinstance(context.get_auto_parallel_context("dataset_strategy"), tuple):
        raise NotImplementedError(f"{where}: a tuple dataset_strategy (inputs split by layouts) with pipeline stages "
                                  "is not supported by sprout; use 'data_parallel' or 'full_batch'")
    scheduler = context.get_auto_parallel_context("pipeline_scheduler")
    interleave = context.get_auto_parallel_context("pipeline_interleave")
    if context.auto_parallel_is_set("pipeline_config") and (scheduler != "gpipe" or interleave):
        raise NotImplementedError(f"{where}: pipeline_config asks for the {scheduler!r} schedule"
                                  f"{' interleaved' if interleave else ''}; sprout runs pipeline stages with the GPipe "
                                  "schedule only (leave pipeline_config unset)")
    return stages


def contains_pipeline_cell(network) -> bool:
    from .wrap_extra import PipelineCell

    return hasattr(network, "cells_and_names") and any(isinstance(c, PipelineCell)
                                                       for _, c in network.cells_and_names())


def _record_stage(cell, call, args, kwargs):
    """Cell.__call__ while a PipelineCell is traced: the nodes a staged cell emits take its stage (the innermost
    staged cell wins: an inner call records its nodes before the outer call returns)."""
    stages, builder = getattr(_tracing, "stages", None), dispatch.current_builder()
    if stages is None or builder is None:
        return call(args, kwargs)
    n0 = len(builder.nodes)
    out = call(args, kwargs)
    for node in builder.nodes[n0:]:
        stages.setdefault(id(node), cell.pipeline_stage)
    return out


_cell.STAGE_RECORDER[0] = _record_stage


class _Entry:
    """One rank's compiled stage graph for one input signature."""

    def __init__(self, graph, sources: dict, out_spec):
        from ..autodiff.compiled import CompiledGraph

        self.compiled = CompiledGraph(graph)
        self.reads = [sources[v.uid] for v in graph.inputs]
        self.out_spec = out_spec

    def __call__(self, args: tuple):
        outs = self.compiled(*[args[s[1]] if s[0] == "arg" else s[1] for s in self.reads])
        return unflatten(self.out_spec, list(outs))


def run(cell, args: tuple):
    """One pipelined call of ``cell`` (a PipelineCell) on this rank."""
    from ..parallel.spmd import check_call_inputs

    n_stages = check_mode("PipelineCell")
    if cell.micro_size < n_stages:
        raise ValueError(f"For 'PipelineCell', micro_size ({cell.micro_size}) must be at least the number of pipeline "
                         f"stages ({n_stages}).")
    check_call_inputs("PipelineCell", "PipelineCell: a pipelined call", args, RuntimeError)
    replicas = management.get_group_size() // n_stages
    if replicas > 1 and context.get_auto_parallel_context("full_batch"):  # this replica's slice of the global batch
        args = tuple(_replica_slice(a, replicas) for a in args)
    key = (management.get_rank(), cell.training, context.get_auto_parallel_context("pipeline_result_broadcast"),
           context.get_auto_parallel_context("gradients_mean"), context.get_auto_parallel_context("gradient_fp32_sync"),
           tuple((tuple(a.shape), a.dtype) for a in args))
    cache = cell.__dict__.setdefault("_pipeline_entries", {})
    entry = cache.get(key)
    if entry is None:
        entry = cache[key] = _build(cell, args, n_stages)
    return entry(args)


def _replica_slice(a: Tensor, replicas: int) -> Tensor:
    if not a.shape or a.shape[0] % replicas:
        raise ValueError(f"PipelineCell: with full_batch each of the {replicas} data-parallel replicas of a stage "
                         f"takes an equal slice of dim 0, but an input has shape {tuple(a.shape)}")
    b = a.shape[0] // replicas
    r = management.get_rank() % replicas
    return a[r * b:(r + 1) * b]


def _build(cell, args: tuple, n_stages: int) -> _Entry:
    from ..jit.api import compile_graph  # the tracer belongs to the compiler (an upper layer at run time)
    from ..parallel.spmd import _global_stand_in, _record

    _tracing.stages = stages = {}
    _record.table, _record.plans = {}, []  # Primitive.shard / nested shard met while tracing: refused below
    try:
        with dispatch.no_builder(), dispatch.suspend_tapes(dispatch.active_tapes()):
            traced = compile_graph(cell, tuple(_global_stand_in(a, 1) for a in args)).traced
        sharded = bool(_record.table or _record.plans)
    finally:
        _tracing.stages = None
        _record.table = None
    graph = traced.graph
    if sharded or any(node.op.name == "Reshard" for node in graph.nodes):
        raise NotImplementedError("PipelineCell: operator parallel (Primitive.shard, Cell.shard, reshard) inside a "
                                  "pipelined network is not supported by sprout; a stage's replicas run it whole")
    if graph.updates:
        raise NotImplementedError("PipelineCell: a pipelined network that updates state in its forward (such as "
                                  "BatchNorm's moving statistics) is not supported")
    where = _assign(graph, stages, n_stages)
    shared = _shared_parameters(graph, traced, where)
    return _Entry(*_localize(graph, traced, where, n_stages, _anchor(cell), shared), traced.out_spec)


def _assign(graph, stages: dict, n_stages: int) -> dict:
    """The stage of every node output (uid -> stage, None = computed wherever needed): a staged cell's nodes are
    its stage; another node runs on the latest stage among its inputs', or wherever it is needed when it only reads
    the call's inputs, Parameters and constants (the micro-batch slicing)."""
    where: dict = {v.uid: None for v in graph.inputs}
    for node in graph.nodes:
        op = node.op
        if op.kind in ("control", "random", "effect", "collective") or is_io_op(op) or node_writes(node):
            raise NotImplementedError(f"PipelineCell: {op.name} ({op.kind}) inside a pipelined network is not "
                                      "supported by sprout's pipeline parallel (random ops, control flow on tensors, "
                                      "state writes, io and collectives)")
        s = stages.get(id(node))
        if s is None:
            known = [where[x.uid] for x in node.inputs if not isinstance(x, Const) and where[x.uid] is not None]
            s = max(known) if known else None
        elif s >= n_stages:
            raise ValueError(f"PipelineCell: a cell has pipeline_stage {s}, but pipeline_stages is {n_stages}")
        for v in node.outputs:
            where[v.uid] = s
    return where


def _shared_parameters(graph, traced, where: dict) -> dict:
    """The Parameters read by the nodes of several stages (directly, or through nodes computed wherever they are
    needed), such as tied embeddings: uid -> the sorted stages. Each of those stages' ranks computes part of the
    gradient; ``_localize`` sums the parts over them (a Mirror over the sharing stages' ranks), so every one of them
    updates the Parameter with the whole gradient, as one process would. Only float Parameters can be shared."""
    need: dict = {}  # uid -> the stages that read the value
    for node in reversed(graph.nodes):
        s = where[node.outputs[0].uid] if node.outputs else None
        stages = {s} if s is not None else set().union(*(need.get(v.uid, set()) for v in node.outputs))
        for x in node.inputs:
            if not isinstance(x, Const):
                need.setdefault(x.uid, set()).update(stages)
    shared = {}
    for v in graph.inputs:
        src = traced.sources[v.uid]
        if src[0] == "param" and len(need.get(v.uid, ())) > 1:
            if not v.type.dtype.is_float:
                raise NotImplementedError(f"PipelineCell: Parameter {src[1].name!r} ({v.type.dtype}) is used by "
                                          f"pipeline stages {sorted(need[v.uid])}; only float Parameters can be "
                                          "shared across stages")
            shared[v.uid] = tuple(sorted(need[v.uid]))
    return shared


def _anchor(cell) -> Parameter | None:
    """A float Parameter every Receive depends on (see ``_localize``)."""
    return next((p for p in cell.trainable_params() if p.dtype.is_float), None)


class _Placement:
    """Where the stages run: stage ``s`` on ranks ``s * d .. s * d + d - 1`` (``d`` replicas); this rank is replica
    ``rank % d`` of stage ``rank // d`` and talks to the same replica of the other stages. With ``d > 1`` the groups
    are created here, by every rank at the same point: this stage's replicas (gradients are summed over them) and
    this replica's stages (the result's broadcast)."""

    def __init__(self, n_stages: int):
        from ..parallel.layout import DeviceMesh

        rank, n = management.get_rank(), management.get_group_size()
        self.replicas = n // n_stages
        self.stage, self.replica = divmod(rank, self.replicas)
        mesh = DeviceMesh((n_stages, self.replicas))
        self.dp_group = mesh.group((1,)) if self.replicas > 1 else None
        self.pp_group = mesh.group((0,)) if self.replicas > 1 else management.HCCL_WORLD_COMM_GROUP

    def rank_of(self, stage: int) -> int:
        return stage * self.replicas + self.replica

    def shared_group(self, stages: tuple) -> str:
        """The group of this replica's ranks of ``stages`` (a Parameter they share); every rank creates every such
        group in the same order (each replica has its own)."""
        name = None
        for replica in range(self.replicas):
            ranks = [s * self.replicas + replica for s in stages]
            group = "pipeline_shared_" + "-".join(map(str, ranks))
            if group not in current().groups:
                management.create_group(group, ranks)
            if replica == self.replica:
                name = group
        return name

    def mirrored(self, t):
        """A Parameter read by this stage: with several replicas its gradient is summed over them (Mirror), and
        averaged under ``gradients_mean`` (MindSpore's mirror mean flag)."""
        from ..ops.spmd_ops import virtual_output
        from ..parallel.spmd import _mirrored

        if self.dp_group is None or not t.dtype.is_float:
            return t
        t = _mirrored(t, self.dp_group)
        return virtual_output(t, 1.0 / self.replicas) if context.get_auto_parallel_context("gradients_mean") else t


def _localize(graph, traced, where: dict, n_stages: int, anchor, shared: dict):
    from ..parallel.spmd import _mirrored

    place = _Placement(n_stages)
    me = place.stage
    users: dict = {}  # uid -> the stages reading it (graph outputs are read by the stage that computes them)
    for node in graph.nodes:
        s = where[node.outputs[0].uid] if node.outputs else None
        for x in node.inputs:
            if not isinstance(x, Const) and s is not None:
                users.setdefault(x.uid, set()).add(s)
    builder = GraphBuilder(f"{graph.name}_stage{me}")
    env: dict = {}
    sends: list = []
    tag = 0
    with builder:
        for v in graph.inputs:
            src = traced.sources[v.uid]
            if src[0] == "arg":
                env[v.uid] = builder.add_input(v.type, f"arg{src[1]}", src)
                continue
            t = builder.param_tracer(src[1])
            if v.uid in shared:  # its gradient is summed over the sharing stages (this replica's ranks of them)
                group = place.shared_group(shared[v.uid])
                if me in shared[v.uid]:
                    t = _mirrored(t, group)
            env[v.uid] = place.mirrored(t)
        # every Receive depends on a float Parameter and the float inputs (their gradients get zeros): whether the
        # caller differentiates with respect to the weights or the inputs, each Receive is then recorded, and its
        # gradient is the Send back to the earlier stage
        deps = tuple(t for t in [builder.param_tracer(anchor) if anchor is not None else None]
                     + [env[v.uid] for v in graph.inputs if traced.sources[v.uid][0] == "arg"]
                     if t is not None and t.dtype.is_float)
        for node in graph.nodes:
            s = where[node.outputs[0].uid] if node.outputs else None
            if s is None or s == me:
                ins = [x.value if isinstance(x, Const) else env[x.uid] for x in node.inputs]
                out = dispatch.bind(node.op, tuple(ins), node.attrs)
                for v, o in zip(node.outputs, [out] if node.op.n_out == 1 else list(out)):
                    env[v.uid] = o
            if s is None:
                continue
            for v in node.outputs:  # the transfers of this node's values, in the same order on every rank
                for t in sorted(users.get(v.uid, set()) - {s}):
                    if me == s:
                        sends.append(K.send(env[v.uid], tag, place.rank_of(t)))
                    elif me == t:
                        env[v.uid] = K.receive(tag, place.rank_of(s), tuple(v.type.shape), v.type.dtype,
                                               management.HCCL_WORLD_COMM_GROUP, management.HCCL_WORLD_COMM_GROUP,
                                               *deps)
                    tag += 1
        results = [_output(o, env, where, me, sends, place.pp_group) for o in graph.outputs]
    return builder.finish(results), builder.sources


def _output(o, env: dict, where: dict, me: int, sends: list, pp_group: str):
    """An output of the pipelined call: its value on the stage that computes it, zeros elsewhere; every Send's
    (zero) placeholder is added in, so that differentiating the output reaches each Send, whose gradient is the
    Receive of the later stage's gradient."""
    if isinstance(o, Const):
        return o.value
    s = where[o.uid]
    typ = o.type
    if not isinstance(typ, TensorType):
        return env.get(o.uid)
    value = env[o.uid] if s is None or s == me else F.zeros(tuple(typ.shape), typ.dtype)
    if typ.dtype.is_float:
        for placeholder in sends:
            value = value + F.cast(F.reduce_sum(placeholder), typ.dtype)
        sends.clear()
    if s is not None and context.get_auto_parallel_context("pipeline_result_broadcast"):
        value = K.broadcast(value, s, pp_group)  # every stage gets the result (its gradient is dout on each rank)
    return value


class PipelineGradReducer(Cell):
    """MindSpore's ``nn.PipelineGradReducer(parameters, scale_sense=1.0, opt_shard=None)``: the gradients of a
    pipelined PipelineCell (already summed over its micro-batches by one backward pass) times ``1 / scale_sense``,
    MindSpore's formula. ``opt_shard=True`` (or ``enable_parallel_optimizer``) is refused: sprout does not shard the
    optimizer inside pipeline or semi-auto parallel."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)
        self.n_params = len(list(parameters))
        if opt_shard is None:
            opt_shard = context.get_auto_parallel_context("enable_parallel_optimizer")
        if opt_shard:
            raise NotImplementedError("PipelineGradReducer: opt_shard (optimizer sharding with pipeline parallel) is "
                                      "not supported by sprout")
        self.opt_shard = False
        value = scale_sense.asnumpy() if isinstance(scale_sense, Tensor) else scale_sense
        self.scale_sense = Parameter(Tensor(np.asarray(value, np.float32)), name="scale_sense")

    def construct(self, grads):
        grads = tuple(grads)
        if len(grads) != self.n_params:
            raise ValueError(f"PipelineGradReducer: got {len(grads)} gradients for {self.n_params} parameters")
        inv = F.reciprocal(self.scale_sense)
        return tuple(g * F.cast(inv, g.dtype) if g.dtype != mstype.float32 else g * inv for g in grads)


__all__ = ["PipelineGradReducer", "engaged", "run", "check_mode", "contains_pipeline_cell"]
