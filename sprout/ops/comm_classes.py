"""MindSpore's PascalCase communication primitives (``ops.AllReduce()(x)``) over the collective op records."""
from __future__ import annotations

import operator

from .. import dtype as mstype
from ..communication.state import HCCL_WORLD_COMM_GROUP
from . import comm_ops as K
from . import comm_ops_more as KM
from .comm_ops import ReduceOp
from .primitive_classes import Primitive


def _str(prim: str, name: str, value) -> str:
    if not isinstance(value, str):
        raise TypeError(f"For '{prim}', the '{name}' must be str, but got {type(value).__name__}.")
    return value


def _int(prim: str, name: str, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{prim}', the '{name}' must be int, but got {type(value).__name__}.")
    return value


class AllReduce(Primitive):
    """Reduce ``x`` element-wise over ``group`` (``op``: ReduceOp.SUM/MAX/MIN/PROD/AVG); every rank gets it."""

    def __init__(self, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.op = _str(self.name, "op", op)
        self.group = _str(self.name, "group", group)
        self.fusion, self.index, self.no_eliminate = 0, 0, True

    def __call__(self, x):
        return K.all_reduce(x, self.op, self.group)


class AllGather(Primitive):
    """Concatenate every rank's ``x`` along axis 0 (shape[0] times the group size)."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.group = _str(self.name, "group", group)
        self.fusion, self.mean_flag, self.no_eliminate = 0, False, True

    def __call__(self, x):
        return K.all_gather(x, self.group)


class ReduceScatter(Primitive):
    """Reduce over ``group`` and keep this rank's block of axis 0 (shape[0] divided by the group size)."""

    def __init__(self, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.op = _str(self.name, "op", op)
        self.group = _str(self.name, "group", group)
        self.fusion, self.no_eliminate = 0, True

    def __call__(self, x):
        return K.reduce_scatter(x, self.op, self.group)


class Broadcast(Primitive):
    """Every rank gets ``root_rank``'s tensors; takes and returns a tuple of tensors, as MindSpore."""

    def __init__(self, root_rank, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.root_rank = _int(self.name, "root_rank", root_rank)
        self.group = _str(self.name, "group", group)
        self.no_eliminate = True

    def __call__(self, x):
        if not isinstance(x, (tuple, list)):
            raise TypeError(f"For 'Broadcast', the input must be a tuple of tensors, but got {type(x).__name__}.")
        return tuple(K.broadcast(t, self.root_rank, self.group) for t in x)


class AlltoAll(Primitive):
    """Split along ``split_dim`` into ``split_count`` blocks (block j to rank j) and concatenate the received
    blocks along ``concat_dim``."""

    def __init__(self, split_count, split_dim, concat_dim, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.split_count = _int(self.name, "split_count", split_count)
        self.split_dim = _int(self.name, "split_dim", split_dim)
        self.concat_dim = _int(self.name, "concat_dim", concat_dim)
        self.group = _str(self.name, "group", group)
        self.no_eliminate = True

    def __call__(self, x):
        return K.all_to_all(x, self.split_count, self.split_dim, self.concat_dim, self.group)


def _split_list(prim: str, name: str, value) -> tuple:
    """Split sizes given as a list, tuple or Tensor of ints (values known when the call is traced)."""
    from ..core.tensor import Tensor

    if isinstance(value, Tensor):
        value = value.asnumpy().reshape(-1).tolist()
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"For '{prim}', '{name}' must be a tuple, list or Tensor of ints, but got "
                        f"{type(value).__name__}.")
    try:
        return tuple(operator.index(v) for v in value)
    except TypeError:
        raise TypeError(f"For '{prim}', '{name}' must hold ints, but got {list(value)!r}.") from None


class AllGatherV(Primitive):
    """Gather flattened tensors of uneven sizes: rank i contributes ``output_split_sizes[i]`` elements; the
    output is their concatenation in rank order (shape ``(sum,)``, or ``()`` when empty)."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.group = _str(self.name, "group", group)
        self.rank_size = K._size(self.name, self.group)
        self.mean_flag, self.no_eliminate = False, True

    def __call__(self, x, output_split_sizes):
        return K.all_gather_v(x, _split_list(self.name, "output_split_sizes", output_split_sizes), self.group)


class ReduceScatterV(Primitive):
    """Reduce a flattened tensor over ``group``; rank r keeps ``input_split_sizes[r]`` elements (its span of the
    result, shape ``(n,)``, or ``()`` when empty). ``op``: sum, max, min, avg (prod is not supported)."""

    def __init__(self, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.op = _str(self.name, "op", op)
        self.group = _str(self.name, "group", group)
        self.rank_size = K._size(self.name, self.group)
        self.no_eliminate = True

    def __call__(self, x, input_split_sizes):
        return K.reduce_scatter_v(x, _split_list(self.name, "input_split_sizes", input_split_sizes), self.op,
                                  self.group)


class AlltoAllV(Primitive):
    """Uneven all-to-all of a flattened tensor: ``send_numel_list[j] * block_size`` elements to rank j, and
    ``recv_numel_list[i] * block_size`` from rank i, concatenated in rank order."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP, block_size=1):
        super().__init__()
        self.group = HCCL_WORLD_COMM_GROUP if group is None else _str(self.name, "group", group)
        self.block_size = _int(self.name, "block_size", block_size)
        self.rank_size = K._size(self.name, self.group)
        self.no_eliminate = True

    def __call__(self, x, send_numel_list, recv_numel_list):
        return K.all_to_all_v(x, _split_list(self.name, "send_numel_list", send_numel_list),
                              _split_list(self.name, "recv_numel_list", recv_numel_list), self.group,
                              self.block_size)


def _group_root(prim: str, arg: str, world_rank, group: str) -> int:
    """A root given as a global rank (MindSpore's rule for these primitives), as a rank of ``group``."""
    from ..communication import management

    _int(prim, arg, world_rank)
    if management.get_group_size(group) == management.get_group_size() and group in (
            HCCL_WORLD_COMM_GROUP, "nccl_world_group", "mccl_world_group"):
        return world_rank
    return management.get_group_rank_from_world_rank(world_rank, group)


class CollectiveGather(Primitive):
    """Gather every rank's tensor on dim 0 onto ``dest_rank`` (a global rank); the others get a placeholder of
    shape [1]."""

    def __init__(self, dest_rank, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.group = _str(self.name, "group", group)
        self.dest_rank = _int(self.name, "dest_rank", dest_rank)
        self.rank_size = K._size(self.name, self.group)

    def __call__(self, x):
        return KM.collective_gather(x, _group_root(self.name, "dest_rank", self.dest_rank, self.group), self.group)


class CollectiveScatter(Primitive):
    """Split ``src_rank``'s tensor (a global rank) evenly on dim 0 over the group; rank r gets block r."""

    def __init__(self, src_rank=0, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.group = _str(self.name, "group", group)
        self.src_rank = _int(self.name, "src_rank", src_rank)
        self.rank_size = K._size(self.name, self.group)

    def __call__(self, x):
        return KM.collective_scatter(x, _group_root(self.name, "src_rank", self.src_rank, self.group), self.group)


class AlltoAllVC(Primitive):
    """Uneven all-to-all of a flattened tensor by the group's send-count matrix (``[i * n + j]``: rank i to rank j,
    times ``block_size``); ``transpose`` uses the transposed matrix (the backward's)."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP, block_size=1, transpose=False):
        super().__init__()
        self.group = HCCL_WORLD_COMM_GROUP if group is None else _str(self.name, "group", group)
        self.block_size = _int(self.name, "block_size", block_size)
        if not isinstance(transpose, bool):
            raise TypeError(f"For '{self.name}', the 'transpose' must be bool, but got {type(transpose).__name__}.")
        self.transpose = transpose
        self.rank_size = K._size(self.name, self.group)

    def __call__(self, x, send_count_matrix):
        counts = _split_list(self.name, "send_count_matrix", _flat_counts(send_count_matrix))
        return KM.all_to_all_v_c(x, counts, self.group, self.block_size, self.transpose)


def _flat_counts(value):
    from ..core.tensor import Tensor

    if isinstance(value, Tensor):
        return value.asnumpy().reshape(-1).tolist()
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
        return [k for row in value for k in row]
    return value


class Barrier(Primitive):
    """Synchronize the group; returns MindSpore's placeholder f32[1]."""

    def __init__(self, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.group = _str(self.name, "group", group)
        self.side_effect_mem = True

    def __call__(self):
        return K.barrier(self.group)


class Reduce(Primitive):
    """Reduce onto ``dest_rank`` (a group rank); the other ranks get a placeholder of shape [1]."""

    def __init__(self, dest_rank, op=ReduceOp.SUM, group=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.dest_rank = _int(self.name, "dest_rank", dest_rank)
        self.op = _str(self.name, "op", op)
        self.group = _str(self.name, "group", group)

    def __call__(self, x):
        return K.reduce(x, self.dest_rank, self.op, self.group)


class Send(Primitive):
    """Send the input to ``dest_rank``, matched by the Receive with the same ``sr_tag``."""

    def __init__(self, sr_tag, dest_rank, group=HCCL_WORLD_COMM_GROUP, group_back=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.sr_tag = _int(self.name, "sr_tag", sr_tag)
        self.rank = self.dest_rank = _int(self.name, "dest_rank", dest_rank)
        self.group = _str(self.name, "group", group)
        self.group_back = _str(self.name, "group_back", group_back)
        self.no_eliminate = True

    def __call__(self, x):
        return K.send(x, self.sr_tag, self.dest_rank, self.group, self.group_back)


class Receive(Primitive):
    """Receive a ``dtype`` tensor of ``shape`` from ``src_rank`` (the Send with the same ``sr_tag``); optional
    inputs are only ordering dependencies."""

    def __init__(self, sr_tag, src_rank, shape, dtype, group=HCCL_WORLD_COMM_GROUP, group_back=HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.sr_tag = _int(self.name, "sr_tag", sr_tag)
        self.rank = self.src_rank = _int(self.name, "src_rank", src_rank)
        if not isinstance(shape, (tuple, list)):
            raise TypeError(f"For 'Receive', 'shape' must be a list or tuple, but got {type(shape).__name__}.")
        self.shape = tuple(shape)
        try:
            self.dtype = mstype.to_dtype(dtype)
        except TypeError:
            raise TypeError(f"For 'Receive', 'dtype' must be a sprout dtype, but got {dtype!r}.") from None
        if self.dtype is mstype.bool_:
            raise TypeError("For 'Receive', 'dtype' bool is not supported.")
        self.group = _str(self.name, "group", group)
        self.group_back = _str(self.name, "group_back", group_back)
        self.no_eliminate = True

    def __call__(self, *deps):
        return K.receive(self.sr_tag, self.src_rank, self.shape, self.dtype, self.group, self.group_back, *deps)


__all__ = ["ReduceOp", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll", "Barrier", "Reduce",
           "Send", "Receive", "AllGatherV", "ReduceScatterV", "AlltoAllV", "CollectiveGather", "CollectiveScatter",
           "AlltoAllVC"]
