"""More collective op records (kind "collective", MindSpore's shape rules and bprops): ``CollectiveGather`` (dim 0
gathered onto one rank), ``CollectiveScatter`` (one rank's tensor split on dim 0 over the group) and ``AlltoAllVC``
(an uneven all-to-all driven by the group's full send-count matrix)."""
from __future__ import annotations

import numpy as np

from ..communication import collective as C
from ..communication.state import HCCL_WORLD_COMM_GROUP
from ..core.dispatch import bind
from ..core.types import TensorType
from . import functional as F
from .comm_ops import _collective, _data, _flat_out, _flat_type, _numel, _size, broadcast


def _root(name: str, arg: str, root, n: int) -> int:
    if not isinstance(root, int) or isinstance(root, bool) or not 0 <= root < n:
        raise ValueError(f"For '{name}', '{arg}' must be a rank of the group (0..{n - 1}), but got {root!r}.")
    return root


# ---- CollectiveGather ------------------------------------------------------------------------------------------
def _gather_impl(x, dest_rank, group=HCCL_WORLD_COMM_GROUP):
    """Every rank's ``x`` concatenated on dim 0 (rank order) on ``dest_rank``; the others get MindSpore's
    placeholder of shape [1] (zeros)."""
    got = C.gather(np.ascontiguousarray(x), dest_rank, group)
    return np.concatenate(got, axis=0) if got is not None else np.zeros((1,), np.asarray(x).dtype)


def _gather_infer(x, dest_rank, group=HCCL_WORLD_COMM_GROUP):
    x = _data("CollectiveGather", x)
    n = _size("CollectiveGather", group)
    _root("CollectiveGather", "dest_rank", dest_rank, n)
    if x.ndim < 1:
        raise ValueError("For 'CollectiveGather', the input must have at least one dimension, but got a scalar.")
    if C.group_rank(group, "CollectiveGather") != dest_rank:
        return TensorType((1,), x.dtype)
    first = None if x.shape[0] is None else x.shape[0] * n
    return TensorType((first,) + tuple(x.shape[1:]), x.dtype)


def _gather_bprop(x, out, dout, dest_rank, group=HCCL_WORLD_COMM_GROUP):
    n, me = _size("CollectiveGather", group), C.group_rank(group, "CollectiveGather")
    m = x.shape[0]
    full = dout if me == dest_rank else F.zeros((m * n,) + tuple(x.shape[1:]), dout.dtype)
    every = broadcast(full, dest_rank, group)  # the destination's cotangent, then this rank's rows of it
    return (every[me * m:(me + 1) * m],)


COLLECTIVE_GATHER = _collective("CollectiveGather", _gather_impl, _gather_infer, _gather_bprop)


# ---- CollectiveScatter -----------------------------------------------------------------------------------------
def _even(name: str, shape: tuple, n: int) -> None:
    if not shape:
        raise ValueError(f"For '{name}', the input must have at least one dimension, but got a scalar.")
    if shape[0] is not None and shape[0] % n:
        raise ValueError(f"For '{name}', the first dimension {shape[0]} must be divisible by the group size {n} (the "
                         "scatter is even).")


def _scatter_impl(x, src_rank=0, group=HCCL_WORLD_COMM_GROUP):
    """``src_rank``'s ``x`` split evenly on dim 0; rank r gets block r (the other ranks' inputs give the shape)."""
    n = _size("CollectiveScatter", group)
    x = np.ascontiguousarray(x)
    _even("CollectiveScatter", x.shape, n)  # on every rank, before communicating (an eager call runs no infer)
    mine = C.group_rank(group, "CollectiveScatter") == src_rank
    chunks = list(np.split(x, n, axis=0)) if mine else None
    return C.scatter(chunks, src_rank, (x.shape[0] // n,) + x.shape[1:], x.dtype, group)


def _scatter_infer(x, src_rank=0, group=HCCL_WORLD_COMM_GROUP):
    x = _data("CollectiveScatter", x)
    n = _size("CollectiveScatter", group)
    _root("CollectiveScatter", "src_rank", src_rank, n)
    first = x.shape[0]
    _even("CollectiveScatter", x.shape, n)
    return TensorType((None if first is None else first // n,) + tuple(x.shape[1:]), x.dtype)


def _scatter_bprop(x, out, dout, src_rank=0, group=HCCL_WORLD_COMM_GROUP):
    gathered = collective_gather(dout, src_rank, group)  # every rank takes part
    if C.group_rank(group, "CollectiveScatter") == src_rank:
        return (gathered,)
    return (F.zeros_like(x),)


COLLECTIVE_SCATTER = _collective("CollectiveScatter", _scatter_impl, _scatter_infer, _scatter_bprop)


# ---- AlltoAllVC --------------------------------------------------------------------------------------------------
def _matrix(name: str, counts, n: int, transpose: bool) -> np.ndarray:
    if not isinstance(counts, tuple) or len(counts) != n * n or any(
            not isinstance(k, int) or isinstance(k, bool) or k < 0 for k in counts):
        raise ValueError(f"For '{name}', 'send_count_matrix' must hold {n}x{n} non-negative ints (rank i to rank j "
                         f"at [i * {n} + j]), but got {counts!r}.")
    m = np.asarray(counts, np.int64).reshape(n, n)
    return m.T if transpose else m


def _vc_impl(x, send_count_matrix, group=HCCL_WORLD_COMM_GROUP, block_size=1, transpose=False):
    """The flattened ``x`` split by row ``rank`` of the send-count matrix (times ``block_size``), piece j to rank j;
    the pieces received (column ``rank``) concatenated in rank order. ``transpose`` uses the transposed matrix."""
    n, me = _size("AlltoAllVC", group), C.group_rank(group, "AlltoAllVC")
    m = _matrix("AlltoAllVC", send_count_matrix, n, transpose) * block_size
    flat = np.ascontiguousarray(x).reshape(-1)
    if flat.size != int(m[me].sum()):
        raise ValueError(f"For 'AlltoAllVC', rank {me} sends {int(m[me].sum())} elements by the send-count matrix, "
                         f"but the input has {flat.size}.")
    got = C.all_to_all_v(np.split(flat, np.cumsum(m[me])[:-1]), [(int(k),) for k in m[:, me]], group, "AlltoAllVC")
    total = int(m[:, me].sum())
    return _flat_out(np.concatenate(got) if got else flat[:0], total)


def _vc_infer(x, send_count_matrix, group=HCCL_WORLD_COMM_GROUP, block_size=1, transpose=False):
    x = _data("AlltoAllVC", x)
    n, me = _size("AlltoAllVC", group), C.group_rank(group, "AlltoAllVC")
    if not isinstance(block_size, int) or isinstance(block_size, bool) or block_size <= 0:
        raise ValueError(f"For 'AlltoAllVC', 'block_size' must be a positive int, but got {block_size!r}.")
    m = _matrix("AlltoAllVC", send_count_matrix, n, transpose) * block_size
    numel = _numel(x)
    if numel is not None and numel != int(m[me].sum()):
        raise ValueError(f"For 'AlltoAllVC', rank {me} sends {int(m[me].sum())} elements by the send-count matrix, "
                         f"but the input has {numel}.")
    return _flat_type(int(m[:, me].sum()), x.dtype)


def _vc_bprop(x, out, dout, send_count_matrix, group=HCCL_WORLD_COMM_GROUP, block_size=1, transpose=False):
    n, me = _size("AlltoAllVC", group), C.group_rank(group, "AlltoAllVC")
    m = _matrix("AlltoAllVC", send_count_matrix, n, transpose)
    piece = dout if int(m[:, me].sum()) else F.zeros((0,), dout.dtype)
    back = all_to_all_v_c(piece, send_count_matrix, group, block_size, not transpose)  # every rank takes part
    return (F.reshape(back, tuple(x.shape)) if int(m[me].sum()) else F.zeros_like(x),)


ALL_TO_ALL_V_C = _collective("AlltoAllVC", _vc_impl, _vc_infer, _vc_bprop)


def collective_gather(x, dest_rank: int, group: str = HCCL_WORLD_COMM_GROUP):
    return bind(COLLECTIVE_GATHER, (x,), {"dest_rank": dest_rank, "group": group})


def collective_scatter(x, src_rank: int = 0, group: str = HCCL_WORLD_COMM_GROUP):
    return bind(COLLECTIVE_SCATTER, (x,), {"src_rank": src_rank, "group": group})


def all_to_all_v_c(x, send_count_matrix: tuple, group: str = HCCL_WORLD_COMM_GROUP, block_size: int = 1,
                   transpose: bool = False):
    return bind(ALL_TO_ALL_V_C, (x,), {"send_count_matrix": tuple(send_count_matrix), "group": group,
                                       "block_size": block_size, "transpose": transpose})


# ---- communication fused with a matmul (ops.all_gather_matmul / ops.matmul_reduce_scatter): composed of records ---
def _fused_checks(api: str, input, x2, group, world_size, bias, comm_turn, trans_input) -> None:  # noqa: A002
    from ..core.tensor import Tensor

    for name, t in (("input", input), ("x2", x2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{api}', '{name}' must be a Tensor, but got {type(t).__name__}.")
        if t.ndim != 2:
            raise ValueError(f"For '{api}', '{name}' must be 2-D, but got shape {tuple(t.shape)}.")
    if input.dtype != x2.dtype:
        raise TypeError(f"For '{api}', 'x2' must have the dtype of 'input' ({input.dtype}), but got {x2.dtype}.")
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', 'group' must be str, but got {type(group).__name__}.")
    n = _size(api, group)
    if world_size != n:
        raise ValueError(f"For '{api}', 'world_size' ({world_size!r}) must equal the size of group {group!r} ({n}).")
    for name, value, only in (("bias", bias, None), ("comm_turn", comm_turn, 0), ("trans_input", trans_input, False)):
        if value is not only and value != only:
            raise ValueError(f"For '{api}', '{name}' supports only {only!r} (MindSpore's rule), but got {value!r}.")


def all_gather_matmul(input, x2, group, world_size, *, bias=None, gather_index=0, gather_output=True,  # noqa: A002
                      comm_turn=0, trans_input=False, trans_x2=False):
    """``(allgather(input) @ x2, allgather(input))``: rows gathered over ``group`` then multiplied (``trans_x2``:
    by ``x2.T``); with ``gather_output=False`` the second result is an empty tensor."""
    from .comm_ops import all_gather

    _fused_checks("all_gather_matmul", input, x2, group, world_size, bias, comm_turn, trans_input)
    if gather_index != 0:
        raise ValueError(f"For 'all_gather_matmul', 'gather_index' supports only 0 (gather 'input'), but got "
                         f"{gather_index!r}.")
    gathered = all_gather(input, group)
    out = F.matmul(gathered, F.transpose(x2, (1, 0)) if trans_x2 else x2)
    return out, (gathered if gather_output else F.zeros((0,), input.dtype))


def matmul_reduce_scatter(input, x2, group, world_size, *, reduce_op="sum", bias=None, comm_turn=0,  # noqa: A002
                          trans_input=False, trans_x2=False):
    """``reduce_scatter(input @ x2)`` over ``group`` (rank r keeps rows r*m/n .. of the sum; ``trans_x2``: ``x2.T``)."""
    from .comm_ops import reduce_scatter

    _fused_checks("matmul_reduce_scatter", input, x2, group, world_size, bias, comm_turn, trans_input)
    if reduce_op != "sum":
        raise ValueError(f"For 'matmul_reduce_scatter', 'reduce_op' supports only 'sum', but got {reduce_op!r}.")
    return reduce_scatter(F.matmul(input, F.transpose(x2, (1, 0)) if trans_x2 else x2), "sum", group)
