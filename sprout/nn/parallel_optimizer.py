"""``enable_parallel_optimizer``: each rank keeps and updates only its dim-0 slice of a parameter's optimizer state
(in data parallel the gradient is reduce-scattered instead of all-reduced; in semi-auto parallel, whose gradients
are whole on every rank, the rank takes its rows), then all-gathers the updated slices into the parameter the
forward uses."""
from __future__ import annotations

import logging
import weakref

import numpy as np

from .. import context, ops
from .. import dtype as mstype
from ..communication import management
from ..core.tensor import Parameter, ParameterTuple, Tensor
from ..ops import comm_ops as K
from ..ops import functional as F
from .cell import Cell
from .grad_reducer import DistributedGradReducer

# optimizers whose update of an element reads only that element of the parameter, gradient and state (so a slice
# updated alone is the slice of the whole update); optimizers with per-parameter norms (Lamb, LARS) or factored
# state (AdaFactor) are refused
_ELEMENTWISE = ("SGD", "Momentum", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad", "Adadelta", "AdaMax")
logger = logging.getLogger("sprout.parallel")
_SLICES: dict = {}  # id(optimizer state Parameter) -> (weakref, whole shape, lo, hi) of the rows this rank holds


def shard_config() -> tuple[int, int]:
    """(shard group size, threshold in bytes) from the auto-parallel context, checked against the group size."""
    cfg = context.get_auto_parallel_context("parallel_optimizer_config")
    if cfg.get("optimizer_level") == "level3":
        raise NotImplementedError("parallel_optimizer_config optimizer_level 'level3' (parameters sharded in the "
                                  "forward as well) is not supported by sprout; use 'level1' or 'level2'")
    n = management.get_group_size()
    size = cfg.get("optimizer_weight_shard_size", -1)
    if size == -1:
        size = context.get_auto_parallel_context("optimizer_weight_shard_size")
    if size <= 1:  # MindSpore: -1 means every data-parallel rank, and a value <= 1 is ignored (with a warning)
        if size != -1:
            logger.warning("The setting 'optimizer_weight_shard_size' is invalid. Please use the integer larger "
                           "than 1. (%s ignored: the optimizer state is sharded over all %s ranks)", size, n)
        size = n
    if size > n or n % size:
        raise ValueError(f"enable_parallel_optimizer: optimizer_weight_shard_size {size} must divide the {n} ranks "
                         "(a value in (0, ranks] or -1)")
    return size, cfg.get("parallel_optimizer_threshold", 64) * 1024


def _state_tuples(optimizer, params) -> list:
    """The optimizer's per-parameter state (ParameterTuples shaped like its parameters), by attribute name."""
    out = []
    for name, value in vars(optimizer).items():
        if (isinstance(value, ParameterTuple) and len(value) == len(params)
                and all(s is not p and tuple(s.shape) == tuple(p.shape) for s, p in zip(value, params))):
            out.append(name)
    return out


class ParallelOptimizerReducer(Cell):
    """The data-parallel gradient reducer of ``TrainOneStepCell`` when ``enable_parallel_optimizer`` is set.

    Parameters whose dim 0 divides by the shard group size ``k`` and whose size reaches
    ``parallel_optimizer_threshold`` (KB) are sharded: ranks ``g*k .. g*k+k-1`` form a shard group, rank ``r``
    owns rows ``[(r % k) * m, (r % k + 1) * m)``. Construction slices the optimizer's state of those parameters
    in place and hands the optimizer a slice Parameter per sharded parameter. Each step: the gradient is
    reduce-scattered over the shard group (then all-reduced over the ranks holding the same slice when k < the
    group size), scaled by 1/degree with ``mean``; the slice is refreshed from the parameter (the forward's copy
    may have been loaded or broadcast since); the optimizer updates slices; ``gather()`` all-gathers each updated
    slice into its parameter. Other parameters go through an ordinary ``DistributedGradReducer``."""

    def __init__(self, optimizer, mean, degree, reduced=False):
        super().__init__(auto_prefix=False)
        self.reduced = reduced  # semi-auto parallel: the SPMD pass's Mirror ops summed the gradients already
        kind = type(optimizer).__name__
        if kind not in _ELEMENTWISE or type(optimizer).__module__.split(".")[0] != "sprout":
            raise NotImplementedError(f"enable_parallel_optimizer: the optimizer {kind} is not supported (its update "
                                      f"must be element-wise to run on slices); supported: {list(_ELEMENTWISE)}")
        params = tuple(optimizer.parameters)
        size, threshold = shard_config()
        rank, n = management.get_rank(), management.get_group_size()
        from ..parallel.layout import DeviceMesh

        mesh = DeviceMesh((n // size, size))
        self.shard_group = mesh.group(1)
        self.replica_group = mesh.group(0) if n // size > 1 else None
        self.shard_size, self.mean = size, mean
        self.scale = Tensor(np.float32(1.0 / degree))
        index = rank % size
        self.sharded = tuple(size > 1 and p.parallel_optimizer and not p.layerwise_parallel and p.requires_grad
                             and len(p.shape) >= 1 and p.shape[0] % size == 0
                             and p.nbytes >= threshold for p in params)
        states = _state_tuples(optimizer, params)
        slices, self.rows = [], []
        for i, p in enumerate(params):
            if not self.sharded[i]:
                slices.append(p)
                self.rows.append(None)
                continue
            m = p.shape[0] // size
            lo, hi = index * m, (index + 1) * m
            self.rows.append((lo, hi))
            slices.append(Parameter(Tensor(p.asnumpy()[lo:hi].copy()), name=p.name, requires_grad=p.requires_grad))
            for state in {id(t[i]): t[i] for t in (getattr(optimizer, name) for name in states)}.values():
                whole = tuple(state.shape)
                state.set_data(state.asnumpy()[lo:hi].copy(), slice_shape=True)
                _SLICES[id(state)] = (weakref.ref(state), whole, lo, hi)  # save_checkpoint(integrated_save=True)
        self.params = params
        # the optimizer now updates slices (not registered as the cell's parameters: they mirror the parameters)
        object.__setattr__(optimizer, "parameters", ParameterTuple(slices))
        object.__setattr__(optimizer, "_parameters", optimizer.parameters)
        self.slices = tuple(slices)
        rest = [p for p, s in zip(params, self.sharded) if not s]
        self.rest = DistributedGradReducer(rest, mean, degree) if rest and not reduced else None

    def construct(self, grads):
        grads = tuple(grads)
        if len(grads) != len(self.params):
            raise ValueError(f"ParallelOptimizerReducer: got {len(grads)} gradients for {len(self.params)} parameters")
        out = list(grads)
        if self.rest is not None:
            rest = self.rest(tuple(g for g, s in zip(grads, self.sharded) if not s))
            for i, g in zip((i for i, s in enumerate(self.sharded) if not s), rest):
                out[i] = g
        for i, g in enumerate(grads):
            if not self.sharded[i]:
                continue
            lo, hi = self.rows[i]
            if self.reduced:  # every rank holds the whole (summed) gradient: its rows are this rank's part
                out[i] = g[lo:hi]
                ops.assign(self.slices[i], self.params[i][lo:hi])
                continue
            g32 = g if g.dtype is mstype.float32 else F.cast(g, mstype.float32)
            part = K.reduce_scatter(g32, "sum", self.shard_group)
            if self.replica_group is not None:
                part = K.all_reduce(part, "sum", self.replica_group)
            if self.mean:
                part = F.mul(part, self.scale)
            out[i] = part if part.dtype is g.dtype else F.cast(part, g.dtype)
            ops.assign(self.slices[i], self.params[i][lo:hi])
        return tuple(out)

    def gather(self):
        """Each sharded parameter <- the all-gather of its updated slices (call after the optimizer)."""
        for i, p in enumerate(self.params):
            if self.sharded[i]:
                ops.assign(p, K.all_gather(self.slices[i], self.shard_group))
        return True


def optimizer_state_bytes(optimizer) -> int:
    """Bytes of an optimizer's per-parameter state (moments, accumulators) held by this process."""
    params = tuple(optimizer.parameters)
    return sum(s.nbytes for name in _state_tuples(optimizer, params) for s in getattr(optimizer, name))


def refuse_optimizer_slices(net, entries: dict) -> None:
    """``save_checkpoint(net, ..., integrated_save=True)``: a parameter held as this rank's parallel-optimizer slice
    (optimizer state under ``enable_parallel_optimizer``) would need MindSpore's all-gather merge, which sprout's
    save does not do: refused rather than saved as if whole (SPMD-sharded parameters are stored whole: saved as
    they are)."""
    for attr_name, p in net.parameters_and_names():
        name = getattr(p, "name", None) or attr_name
        part = _SLICES.get(id(p))
        if name in entries and part is not None and part[0]() is p:
            _, whole, lo, hi = part
            raise NotImplementedError(
                f"save_checkpoint: integrated_save=True would merge {name!r} (rows {lo}:{hi} of {list(whole)} held by "
                "this rank under enable_parallel_optimizer) from every rank; sprout does not merge optimizer state "
                "slices. Pass integrated_save=False to save this rank's slices, or a choice_func that skips them.")
