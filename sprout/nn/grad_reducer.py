"""``nn.DistributedGradReducer``: data-parallel gradient averaging, one all-reduce per bucket of gradients."""
from __future__ import annotations

import math

import numpy as np

from .. import context
from .. import dtype as mstype
from ..communication import collective, management
from ..core import dispatch
from ..communication.state import HCCL_WORLD_COMM_GROUP
from ..core.tensor import Tensor
from ..ops import comm_ops as K
from ..ops import functional as F
from .cell import Cell

_AUTO_BUCKET_MB = 64  # MindSpore's "auto" all-reduce fusion threshold
# "auto" fusion: a gradient of at least this many bytes is all-reduced alone, in its own buffer (no packing copy in,
# no unpacking copy out); smaller ones share buckets (one collective's fixed cost instead of many). Chosen by
# bench/bench_dist.py (W4 MLP, 2 ranks): one all-reduce per gradient beat one packed bucket at every batch.
AUTO_ALONE_BYTES = 1 << 18


def _fusion_ids(params: list, split_indices: list) -> list:
    """The fusion id of each parameter: MindSpore's segments of ``all_reduce_fusion_config`` (parameter i
    joins the next segment after each index < i), else each parameter's ``comm_fusion``."""
    if split_indices:
        ids, current, k = [], 0, 0
        for i in range(len(params)):
            ids.append(current)
            if k < len(split_indices) and split_indices[k] <= i:
                current += 1
                k += 1
        return ids
    return [getattr(p, "comm_fusion", 1) for p in params]


def plan_buckets(params: list, reduce_mask: list) -> list:
    """Lists of parameter positions reduced by one all-reduce each, in parameter order within a bucket:
    parameters with the same fusion id share buckets of at most the ``comm_fusion`` all-reduce threshold
    (64 MB "auto", or the "size" MB given); ``openstate=False`` gives one all-reduce per gradient. In "auto" mode a
    gradient of at least ``AUTO_ALONE_BYTES`` is reduced alone (the bucket choice never changes the values)."""
    fusion = context.get_auto_parallel_context("comm_fusion")
    cfg = fusion["allreduce"]
    split = context.get_auto_parallel_context("all_reduce_fusion_config")
    if cfg["mode"] == "index":
        split = sorted(cfg["config"] or [])
    ids = _fusion_ids(params, split)
    limit = (cfg["config"] if cfg["mode"] == "size" else _AUTO_BUCKET_MB) * (1 << 20)
    buckets: list = []
    open_by_id: dict = {}
    for i, p in enumerate(params):
        if not reduce_mask[i]:
            continue
        nbytes = int(np.prod(p.shape)) * 4  # reduced in float32
        if not fusion["openstate"] or (cfg["mode"] == "auto" and not split and nbytes >= AUTO_ALONE_BYTES):
            buckets.append([i])
            continue
        entry = open_by_id.get(ids[i])
        if entry is None or entry[1] + nbytes > limit:
            entry = open_by_id[ids[i]] = [[], 0]
            buckets.append(entry[0])
        entry[0].append(i)
        entry[1] += nbytes
    return buckets


class DistributedGradReducer(Cell):
    """All-reduce (sum) gradients over ``group`` in float32 and, with ``mean``, multiply by ``1/degree``
    (MindSpore's rule, a float32 scale); each gradient comes back in its own dtype. ``mean=None`` reads
    ``gradients_mean`` from the auto-parallel context; ``degree=None`` is the group size. Parameters with
    ``layerwise_parallel`` are left alone. Gradients are flattened into buckets (by ``comm_fusion`` /
    ``all_reduce_fusion_config`` / the fusion size threshold) so that one all-reduce moves a bucket; a
    bucket of one gradient is reduced without packing."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=HCCL_WORLD_COMM_GROUP):
        super().__init__(auto_prefix=False)
        params = list(parameters)
        self.mean = context.get_auto_parallel_context("gradients_mean") if mean is None else mean
        if degree is None:
            degree = management.get_group_size(group)
        elif not isinstance(degree, int) or isinstance(degree, bool) or degree <= 0:
            raise ValueError("For 'DistributedGradReducer', parameter 'degree' in DistributedGradReducer should "
                             f"large than 0 and be int, degree: {degree}.")
        if not isinstance(fusion_type, int) or isinstance(fusion_type, bool):
            raise TypeError(f"For 'DistributedGradReducer', 'fusion_type' must be int, but got {type(fusion_type)}.")
        self.degree = degree
        self.scale = Tensor(np.float32(1.0 / degree))
        self.group = group
        self.allreduce_filter = tuple(not getattr(p, "layerwise_parallel", False) for p in params)
        self.buckets = plan_buckets(params, list(self.allreduce_filter))
        self.n_params = len(params)

    def construct(self, grads):
        grads = tuple(grads)
        if len(grads) != self.n_params:
            raise ValueError(f"DistributedGradReducer: got {len(grads)} gradients for {self.n_params} parameters")
        if not dispatch._slow and all(g.__class__ is Tensor for g in grads):
            return self._eager(grads)
        out = list(grads)
        for bucket in self.buckets:
            for i, g in zip(bucket, self._reduce([grads[i] for i in bucket])):
                out[i] = g
        return tuple(out)

    def _eager(self, grads: tuple) -> tuple:
        """The eager call with no tape or graph: each bucket is one fresh float32 buffer (the copy or the packing)
        all-reduced and scaled in place; the same arithmetic as the op path (sum in rank order, then times the
        float32 scale), one buffer per bucket instead of three. A gradient reduced alone comes back in that
        buffer, packed ones as views of it."""
        out = list(grads)
        scale = np.float32(1.0 / self.degree)
        for bucket in self.buckets:
            arrays = [grads[i]._data for i in bucket]
            if len(arrays) == 1:
                buf = np.array(arrays[0], dtype=np.float32, order="C")  # a copy: the caller's gradient stays
            else:
                buf = np.concatenate([a.reshape(-1) for a in arrays], dtype=np.float32)
            # (MPI reduces in place and returns buf; the simulated mesh returns a new array)
            buf = collective.run("AllReduce", self.group, buf, (("op", "sum"),),
                                 lambda b, buf=buf: b.allreduce(buf, "sum"))
            if self.mean:
                np.multiply(buf, scale, out=buf)
            if len(arrays) == 1:
                pieces = [buf]
            else:
                cuts = np.cumsum([a.size for a in arrays])[:-1]
                pieces = [p.reshape(a.shape) for p, a in zip(np.split(buf, cuts), arrays)]
            for i, p, a in zip(bucket, pieces, arrays):
                t = Tensor.__new__(Tensor)
                t._data = p if a.dtype == np.float32 else p.astype(a.dtype)
                out[i] = t
        return tuple(out)

    def _reduce(self, gs: list) -> list:
        g32 = [g if g.dtype is mstype.float32 else F.cast(g, mstype.float32) for g in gs]
        if len(g32) == 1:
            pieces = [K.all_reduce(g32[0], "sum", self.group)]
            if self.mean:
                pieces = [F.mul(pieces[0], self.scale)]
        else:
            flat = K.all_reduce(F.concat([F.reshape(g, (-1,)) for g in g32]), "sum", self.group)
            if self.mean:
                flat = F.mul(flat, self.scale)
            sizes = [math.prod(g.shape) for g in g32]
            pieces = [F.reshape(p, tuple(g.shape)) for p, g in zip(F.split_sizes(flat, sizes, 0), g32)]
        return [p if p.dtype is g.dtype else F.cast(p, g.dtype) for p, g in zip(pieces, gs)]
