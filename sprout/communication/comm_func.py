"""``mindspore.communication.comm_func`` (deprecated in MindSpore 2.9 for ``mindspore.ops.communication``):
out-of-place functional collectives over the collective op records (so they differentiate and compile);
the asynchronous ones return ``(Tensor, CommHandle)`` pairs as MindSpore's do."""
from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from ..ops import comm_ops as K
from ..ops.communication import CommHandle, P2POp, batch_isend_irecv, irecv as _irecv, isend as _isend
from . import collective as C
from . import management as M
from .state import HCCL_WORLD_COMM_GROUP

__all__ = ["all_reduce", "all_gather_into_tensor", "all_to_all_with_output_shape",
           "all_to_all_single_with_output_shape", "barrier", "broadcast", "gather_into_tensor", "isend", "irecv",
           "reduce_scatter_tensor", "reduce", "scatter_tensor", "send", "recv", "P2POp", "batch_isend_irecv"]


def _tensor(api: str, t) -> Tensor:
    if not isinstance(t, Tensor):
        raise TypeError(f"For {api}, the input tensor must be tensor")
    return t


def _pair(out, async_op: bool):
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    return out, (CommHandle() if async_op else None)


def all_reduce(tensor, op="sum", group=HCCL_WORLD_COMM_GROUP, async_op=False):
    _tensor("all_reduce", tensor)
    if not isinstance(op, str):
        raise TypeError("For all_reduce, the input op type must be str")
    if op not in ("sum", "prod", "min", "max"):
        raise TypeError("For all_reduce, the input op value must be one of sum, prod, min, max")
    return _pair(K.all_reduce(tensor, op, group), async_op)


def all_gather_into_tensor(tensor, group=HCCL_WORLD_COMM_GROUP, async_op=False):
    return _pair(K.all_gather(_tensor("all_gather_into_tensor", tensor), group), async_op)


def reduce_scatter_tensor(tensor, op="sum", group=HCCL_WORLD_COMM_GROUP, async_op=False):
    return _pair(K.reduce_scatter(_tensor("reduce_scatter_tensor", tensor), op, group), async_op)


def reduce(tensor, dst, op="sum", group=HCCL_WORLD_COMM_GROUP):
    """The reduction on world rank ``dst``; the other ranks get a placeholder of shape [1] (MindSpore's Reduce)."""
    return K.reduce(_tensor("reduce", tensor), M.get_group_rank_from_world_rank(dst, group), op, group)


def broadcast(tensor, src=0, group=HCCL_WORLD_COMM_GROUP):
    if not isinstance(src, int):
        raise TypeError("For broadcast, the src must be int")
    return K.broadcast(_tensor("broadcast", tensor), M.get_group_rank_from_world_rank(src, group), group)


def barrier(group=HCCL_WORLD_COMM_GROUP) -> None:
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")
    K.barrier(group)


def send(tensor, dst=0, group=HCCL_WORLD_COMM_GROUP, tag=0) -> None:
    K.send(_tensor("send", tensor), tag, M.get_group_rank_from_world_rank(dst, group), group)


def recv(tensor, src=0, group=HCCL_WORLD_COMM_GROUP, tag=0):
    """A new tensor of ``tensor``'s shape and dtype received from world rank ``src``."""
    if not isinstance(src, int):
        raise TypeError("For recv, the src must be int")
    t = _tensor("recv", tensor)
    return K.receive(tag, M.get_group_rank_from_world_rank(src, group), tuple(t.shape), t.dtype, group)


def isend(tensor, dst=0, group=HCCL_WORLD_COMM_GROUP, tag=0) -> CommHandle:
    return _isend(_tensor("isend", tensor), dst, group, tag)


def irecv(tensor, src=0, group=HCCL_WORLD_COMM_GROUP, tag=0):
    out = Tensor(np.zeros(tuple(tensor.shape), tensor.dtype.np))
    return out, _irecv(out, src, group, tag)


def scatter_tensor(tensor, src=0, group=HCCL_WORLD_COMM_GROUP):
    """Rank i gets block i (along axis 0) of world rank ``src``'s tensor."""
    if not isinstance(src, int):
        raise TypeError("For scatter_tensor, the src must be int")
    x = _tensor("scatter_tensor", tensor).asnumpy()
    n, root = M.get_group_size(group), M.get_group_rank_from_world_rank(src, group)
    if x.shape[0] % n:
        raise ValueError(f"For scatter_tensor, dim 0 ({x.shape[0]}) must be divisible by the group size {n}")
    chunks = list(np.split(x, n, axis=0)) if M.get_rank(group) == root else None
    return Tensor(C.scatter(chunks, root, (x.shape[0] // n,) + x.shape[1:], x.dtype, group))


def gather_into_tensor(tensor, dst=0, group=HCCL_WORLD_COMM_GROUP):
    """World rank ``dst`` gets every rank's tensor concatenated along axis 0; the others a placeholder [1]."""
    if not isinstance(dst, int):
        raise TypeError("For gather_into_tensor, the dst must be int")
    x = _tensor("gather_into_tensor", tensor).asnumpy()
    got = C.gather(x, M.get_group_rank_from_world_rank(dst, group), group)
    return Tensor(np.concatenate(got, axis=0) if got is not None else np.zeros((1,), x.dtype))


def all_to_all_with_output_shape(output_shape_list, input_tensor_list, group=None, async_op=False):
    group = HCCL_WORLD_COMM_GROUP if group is None else group
    got = C.all_to_all_v([_tensor("all_to_all", t).asnumpy() for t in input_tensor_list],
                         [tuple(s) for s in output_shape_list], group)
    return _pair(tuple(Tensor(g) for g in got), async_op)


def all_to_all_single_with_output_shape(output_shape, tensor, output_split_sizes=None, input_split_sizes=None,
                                        group=None, async_op=False):
    from ..ops import communication as D

    out = Tensor(np.zeros(tuple(output_shape), tensor.dtype.np))
    D.all_to_all_single(out, tensor, output_split_sizes, input_split_sizes, group)
    return _pair(out, async_op)
