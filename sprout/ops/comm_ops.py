"""Collective communication primitives as op records of kind "collective" (passes never fold, merge, drop or
reorder them), with MindSpore's shape rules and bprops, and the PascalCase classes (``ops.AllReduce()``)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..communication import collective as C
from ..communication.state import HCCL_WORLD_COMM_GROUP, current
from ..core.dispatch import bind
from ..core.op import Op, register
from ..core.types import TensorType
from . import functional as F
from .comm_sites import graph_sites
from ._infer import fmt_shape


class ReduceOp:
    """Element-wise reductions of the collectives (MindSpore's values are these strings)."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"
    AVG = "avg"


def _size(name: str, group: str) -> int:
    return current().group(group, name).size


def _data(name: str, x, *, allow_bool: bool = True) -> TensorType:
    if not isinstance(x, TensorType):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got {type(x).__name__}.")
    if not allow_bool and x.dtype is mstype.bool_:
        raise TypeError(f"For '{name}', the input dtype bool is not supported by the reduction.")
    return x


def _check_reduce_op(name: str, x: TensorType, op) -> None:
    C.check_op(name, op)
    if op == "avg" and not x.dtype.is_float:
        raise TypeError(f"For '{name}', op 'avg' (the sum divided by the group size) needs a float tensor, "
                        f"but got {x.dtype}.")


def _dim(name: str, arg: str, d, ndim: int) -> int:
    if not isinstance(d, int) or isinstance(d, bool) or not -ndim <= d < ndim:
        raise ValueError(f"For '{name}', '{arg}' must be in [{-ndim}, {ndim}), but got {d!r}.")
    return d % ndim


def _collective(name: str, impl, infer, bprop=None, n_out: int = 1) -> Op:
    # every kernel returns a new array (the backends reduce into a private copy): reusable in place once dead
    return register(Op(name, impl, infer, bprop, kind="collective", n_out=n_out, doc=impl.__doc__ or "",
                       fresh_output=True))


# ---- AllReduce -------------------------------------------------------------------------------------------
def _all_reduce_impl(x, op="sum", group=HCCL_WORLD_COMM_GROUP):
    """Element-wise reduction over the group; every rank gets the result."""
    return C.all_reduce(x, op, group)


def _all_reduce_infer(x, op="sum", group=HCCL_WORLD_COMM_GROUP):
    x = _data("AllReduce", x, allow_bool=False)
    _check_reduce_op("AllReduce", x, op)
    _size("AllReduce", group)
    return x


def _all_reduce_bprop(x, out, dout, op="sum", group=HCCL_WORLD_COMM_GROUP):
    if op in ("sum", "avg"):
        return (all_reduce(dout, op, group),)
    if op == "prod":
        return (F.div(all_reduce(F.mul(dout, out), "sum", group), x),)
    return (F.mul(all_reduce(dout, "sum", group), F.cast(F.equal(x, out), dout.dtype)),)


def _all_reduce_in_place(x, op="sum", group=HCCL_WORLD_COMM_GROUP, site=None):
    """AllReduce into ``x`` itself (MPI_IN_PLACE, no copy): generated code calls it when ``x`` is a dead buffer
    of the graph, such as the data-parallel reducer's packed gradient bucket. ``site``: see ``collective.Site``."""
    return C.run("AllReduce", group, x, (("op", op),), lambda b: b.allreduce(x, op), site)


def _all_reduce_sited(x, op="sum", group=HCCL_WORLD_COMM_GROUP, site=None):
    """AllReduce of a private copy of ``x`` called from a compiled graph with its ``site``."""
    return C.run("AllReduce", group, x, (("op", op),), lambda b: b.allreduce(C.owned(x), op), site)


def _all_reduce_emit(ctx, node, args):
    x = node.inputs[0]
    if set(node.attrs) - {"op", "group"}:
        return None
    in_place = ctx.dead_big_input(node, x)
    site = graph_sites(ctx.em).get(id(node))
    if not in_place and site is None:
        return None
    fn = ctx.bind("_all_reduce_in_place", _all_reduce_in_place) if in_place else \
        ctx.bind("_AllReduce_sited", _all_reduce_sited)
    attrs = [f"{k}={ctx.literal(v)}" for k, v in node.attrs.items()]
    if site is not None:
        attrs.append(f"site={ctx.bind('_comm_site', site)}")
    return f"{fn}({args[0]}, {', '.join(attrs)})" if attrs else f"{fn}({args[0]})", x.uid if in_place else None


ALL_REDUCE = _collective("AllReduce", _all_reduce_impl, _all_reduce_infer, _all_reduce_bprop)
ALL_REDUCE.emit = _all_reduce_emit


# ---- AllGather / ReduceScatter -----------------------------------------------------------------------------
def _all_gather_impl(x, group=HCCL_WORLD_COMM_GROUP):
    """Every rank's input concatenated along axis 0 in rank order."""
    return C.all_gather(x, group)


def _all_gather_infer(x, group=HCCL_WORLD_COMM_GROUP):
    x = _data("AllGather", x)
    if x.ndim < 1:
        raise ValueError("For 'AllGather', the dimension of 'x shape' must be a positive int, but got 0.")
    n = _size("AllGather", group)
    first = None if x.shape[0] is None else x.shape[0] * n
    return TensorType((first,) + tuple(x.shape[1:]), x.dtype)


def _all_gather_bprop(x, out, dout, group=HCCL_WORLD_COMM_GROUP):
    return (reduce_scatter(dout, "sum", group),)


ALL_GATHER = _collective("AllGather", _all_gather_impl, _all_gather_infer, _all_gather_bprop)


def _reduce_scatter_impl(x, op="sum", group=HCCL_WORLD_COMM_GROUP):
    """Reduce over the group, each rank keeping its block of axis 0 (rank r: rows r*m .. (r+1)*m)."""
    return C.reduce_scatter(x, op, group)


def _reduce_scatter_infer(x, op="sum", group=HCCL_WORLD_COMM_GROUP):
    x = _data("ReduceScatter", x, allow_bool=False)
    _check_reduce_op("ReduceScatter", x, op)
    if x.ndim < 1:
        raise ValueError("For 'ReduceScatter', the input must have at least one dimension, but got a scalar.")
    n = _size("ReduceScatter", group)
    first = x.shape[0]
    if first is not None and first % n:
        raise ValueError(f"For 'ReduceScatter', the first dimension of 'x_shape' must be divided by 'group_size', "
                         f"but got x_shape[0]: {first}, rank_size: {n}")
    return TensorType((None if first is None else first // n,) + tuple(x.shape[1:]), x.dtype)


def _reduce_scatter_bprop(x, out, dout, op="sum", group=HCCL_WORLD_COMM_GROUP):
    if op == "sum":
        return (all_gather(dout, group),)
    if op == "avg":
        return (F.div(all_gather(dout, group), _size("ReduceScatter", group)),)
    raise RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.")


REDUCE_SCATTER = _collective("ReduceScatter", _reduce_scatter_impl, _reduce_scatter_infer, _reduce_scatter_bprop)


# ---- Broadcast / AlltoAll ----------------------------------------------------------------------------------
def _broadcast_impl(x, root_rank=0, group=HCCL_WORLD_COMM_GROUP):
    """Every rank gets ``root_rank``'s tensor (``root_rank`` is a rank of ``group``)."""
    return C.broadcast(x, root_rank, group)


def _broadcast_infer(x, root_rank=0, group=HCCL_WORLD_COMM_GROUP):
    x = _data("Broadcast", x)
    n = _size("Broadcast", group)
    if not isinstance(root_rank, int) or isinstance(root_rank, bool) or not 0 <= root_rank < n:
        raise ValueError(f"For 'Broadcast', 'root_rank' must be a rank of the group (0..{n - 1}), "
                         f"but got {root_rank!r}.")
    return x


def _broadcast_bprop(x, out, dout, root_rank=0, group=HCCL_WORLD_COMM_GROUP):
    return (dout,)  # MindSpore's rule: the gradient passes through unchanged on every rank


BROADCAST = _collective("Broadcast", _broadcast_impl, _broadcast_infer, _broadcast_bprop)


def _all_to_all_impl(x, split_count, split_dim, concat_dim, group=HCCL_WORLD_COMM_GROUP):
    """Split along ``split_dim`` into ``split_count`` blocks, block j to rank j; concatenate the blocks received
    (in rank order) along ``concat_dim``."""
    return C.all_to_all(x, split_count, split_dim % x.ndim, concat_dim % x.ndim, group)


def _all_to_all_infer(x, split_count, split_dim, concat_dim, group=HCCL_WORLD_COMM_GROUP):
    x = _data("AlltoAll", x)
    n = _size("AlltoAll", group)
    if split_count != n:
        raise ValueError(f"For 'AlltoAll', 'split_count' must equal the group size {n}, but got {split_count!r}.")
    s = _dim("AlltoAll", "split_dim", split_dim, x.ndim)
    c = _dim("AlltoAll", "concat_dim", concat_dim, x.ndim)
    shape = list(x.shape)
    if shape[s] is not None and shape[s] % n:
        raise ValueError(f"For 'AlltoAll', x_shape[{s}] = {shape[s]} must be divisible by split_count {n}; "
                         f"x shape {fmt_shape(x.shape)}")
    shape[s] = None if shape[s] is None else shape[s] // n
    shape[c] = None if shape[c] is None else shape[c] * n
    return TensorType(tuple(shape), x.dtype)


def _all_to_all_bprop(x, out, dout, split_count, split_dim, concat_dim, group=HCCL_WORLD_COMM_GROUP):
    return (all_to_all(dout, split_count, concat_dim, split_dim, group),)


ALL_TO_ALL = _collective("AlltoAll", _all_to_all_impl, _all_to_all_infer, _all_to_all_bprop)


# ---- uneven collectives: AllGatherV / ReduceScatterV / AlltoAllV (flat tensors, split sizes as attributes) -----
def _sizes(name: str, arg: str, sizes, n: int | None) -> tuple:
    if not isinstance(sizes, tuple) or any(not isinstance(k, int) or isinstance(k, bool) for k in sizes):
        raise TypeError(f"For '{name}', '{arg}' must be a tuple of ints, but got {sizes!r}.")
    if n is not None and len(sizes) != n:
        raise ValueError(f"For '{name}', the size of '{arg}' must be equal to the group size {n}, but got "
                         f"{len(sizes)}: {list(sizes)}.")
    if any(k < 0 for k in sizes):
        raise RuntimeError(f"For '{name}', '{arg}' value is illegal (negative): {list(sizes)}.")
    return sizes


def _gather_v_numel(numel, sizes: tuple, group: str) -> None:
    mine = sizes[C.group_rank(group, "AllGatherV")]
    if numel is not None and numel != mine:
        raise ValueError(f"For 'AllGatherV', the input has {numel} elements but output_split_sizes gives this rank "
                         f"{mine}: {list(sizes)}.")


def _scatter_v_numel(numel, sizes: tuple) -> None:
    if numel is not None and numel != sum(sizes):
        raise ValueError(f"For 'ReduceScatterV', the input has {numel} elements but input_split_sizes "
                         f"{list(sizes)} add up to {sum(sizes)}.")


def _all_to_all_v_numel(numel, send: tuple, block_size: int) -> None:
    if numel is not None and numel != sum(send) * block_size:
        raise ValueError(f"For 'AlltoAllV', the input has {numel} elements but send_numel_list {list(send)} times "
                         f"block_size {block_size} is {sum(send) * block_size}.")


def _flat_type(numel: int, dtype) -> TensorType:
    return TensorType((numel,) if numel else (), dtype)  # MindSpore: an empty result has shape ()


def _numel(x: TensorType):
    return None if any(d is None for d in x.shape) else int(np.prod(x.shape, dtype=np.int64))


def _flat_out(a: np.ndarray, numel: int) -> np.ndarray:
    return a.reshape(-1) if numel else np.zeros((), a.dtype)


def _all_gather_v_impl(x, output_split_sizes, group=HCCL_WORLD_COMM_GROUP):
    """Every rank's flattened ``x`` (rank i's has ``output_split_sizes[i]`` elements) concatenated in rank order."""
    # checked before communicating (an eager call runs no infer)
    _sizes("AllGatherV", "output_split_sizes", output_split_sizes, _size("AllGatherV", group))
    _gather_v_numel(np.size(x), output_split_sizes, group)
    return _flat_out(C.all_gather_v(np.ascontiguousarray(x).reshape(-1), list(output_split_sizes), group),
                     sum(output_split_sizes))


def _all_gather_v_infer(x, output_split_sizes, group=HCCL_WORLD_COMM_GROUP):
    x = _data("AllGatherV", x)
    sizes = _sizes("AllGatherV", "output_split_sizes", output_split_sizes, _size("AllGatherV", group))
    _gather_v_numel(_numel(x), sizes, group)
    return _flat_type(sum(sizes), x.dtype)


def _all_gather_v_bprop(x, out, dout, output_split_sizes, group=HCCL_WORLD_COMM_GROUP):
    if not sum(output_split_sizes):  # the same on every rank: nobody communicates
        return (F.zeros_like(x),)
    mine = reduce_scatter_v(dout, output_split_sizes, "sum", group)
    if not output_split_sizes[C.group_rank(group, "AllGatherV")]:
        return (F.zeros_like(x),)  # this rank's span is empty (its result is a meaningless scalar)
    return (F.reshape(mine, tuple(x.shape)),)


ALL_GATHER_V = _collective("AllGatherV", _all_gather_v_impl, _all_gather_v_infer, _all_gather_v_bprop)


def _no_prod(op: str) -> None:
    if op == "prod":
        raise ValueError("For 'ReduceScatterV', op 'prod' is not supported (MindSpore's rule); use sum, max, min "
                         "or avg.")


def _reduce_scatter_v_impl(x, input_split_sizes, op="sum", group=HCCL_WORLD_COMM_GROUP):
    """Reduce the flattened ``x`` over the group (in rank order); rank r keeps ``input_split_sizes[r]`` elements
    starting after the spans of ranks 0..r-1."""
    C.check_op("ReduceScatterV", op)
    _no_prod(op)
    _sizes("ReduceScatterV", "input_split_sizes", input_split_sizes, _size("ReduceScatterV", group))
    _scatter_v_numel(np.size(x), input_split_sizes)
    mine = input_split_sizes[C.group_rank(group, "ReduceScatterV")]
    return _flat_out(C.reduce_scatter_v(np.ascontiguousarray(x).reshape(-1), list(input_split_sizes), op, group),
                     mine)


def _reduce_scatter_v_infer(x, input_split_sizes, op="sum", group=HCCL_WORLD_COMM_GROUP):
    x = _data("ReduceScatterV", x, allow_bool=False)
    _check_reduce_op("ReduceScatterV", x, op)
    _no_prod(op)
    sizes = _sizes("ReduceScatterV", "input_split_sizes", input_split_sizes, _size("ReduceScatterV", group))
    _scatter_v_numel(_numel(x), sizes)
    return _flat_type(sizes[C.group_rank(group, "ReduceScatterV")], x.dtype)


def _reduce_scatter_v_bprop(x, out, dout, input_split_sizes, op="sum", group=HCCL_WORLD_COMM_GROUP):
    if op != "sum":
        raise RuntimeError("The reducescatter bprop only support ReduceOp.SUM until now.")
    if not sum(input_split_sizes):
        return (F.zeros_like(x),)
    mine = input_split_sizes[C.group_rank(group, "ReduceScatterV")]
    piece = dout if mine else F.zeros((0,), dout.dtype)  # an empty span's output is a meaningless scalar
    return (F.reshape(all_gather_v(piece, input_split_sizes, group), tuple(x.shape)),)


REDUCE_SCATTER_V = _collective("ReduceScatterV", _reduce_scatter_v_impl, _reduce_scatter_v_infer,
                               _reduce_scatter_v_bprop)


def _all_to_all_v_impl(x, send_numel_list, recv_numel_list, group=HCCL_WORLD_COMM_GROUP, block_size=1):
    """Split the flattened ``x`` into pieces of ``send_numel_list[j] * block_size`` elements, piece j to rank j;
    concatenate the pieces received (``recv_numel_list[i] * block_size`` from rank i) in rank order."""
    n = _size("AlltoAllV", group)
    _sizes("AlltoAllV", "send_numel_list", send_numel_list, n)
    _sizes("AlltoAllV", "recv_numel_list", recv_numel_list, n)
    _all_to_all_v_numel(np.size(x), send_numel_list, block_size)
    flat = np.ascontiguousarray(x).reshape(-1)
    cuts = np.cumsum([k * block_size for k in send_numel_list])[:-1]
    got = C.all_to_all_v(np.split(flat, cuts), [(k * block_size,) for k in recv_numel_list], group, "AlltoAllV")
    total = sum(recv_numel_list) * block_size
    return _flat_out(np.concatenate(got) if got else flat[:0], total)


def _all_to_all_v_infer(x, send_numel_list, recv_numel_list, group=HCCL_WORLD_COMM_GROUP, block_size=1):
    x = _data("AlltoAllV", x)
    n = _size("AlltoAllV", group)
    send = _sizes("AlltoAllV", "send_numel_list", send_numel_list, n)
    recv = _sizes("AlltoAllV", "recv_numel_list", recv_numel_list, n)
    if not isinstance(block_size, int) or isinstance(block_size, bool) or block_size <= 0:
        raise ValueError(f"For 'AlltoAllV', 'block_size' must be a positive int, but got {block_size!r}.")
    _all_to_all_v_numel(_numel(x), send, block_size)
    return _flat_type(sum(recv) * block_size, x.dtype)


def _all_to_all_v_bprop(x, out, dout, send_numel_list, recv_numel_list, group=HCCL_WORLD_COMM_GROUP, block_size=1):
    piece = dout if sum(recv_numel_list) else F.zeros((0,), dout.dtype)
    back = all_to_all_v(piece, recv_numel_list, send_numel_list, group, block_size)  # every rank takes part
    return (F.reshape(back, tuple(x.shape)) if sum(send_numel_list) else F.zeros_like(x),)


ALL_TO_ALL_V = _collective("AlltoAllV", _all_to_all_v_impl, _all_to_all_v_infer, _all_to_all_v_bprop)


# ---- Barrier / Reduce -------------------------------------------------------------------------------------
def _barrier_impl(group=HCCL_WORLD_COMM_GROUP):
    """Wait until every rank of the group has reached it; the output is MindSpore's placeholder f32[1]."""
    C.barrier(group)
    return np.zeros((1,), np.float32)


def _barrier_infer(group=HCCL_WORLD_COMM_GROUP):
    _size("Barrier", group)
    return TensorType((1,), mstype.float32)


BARRIER = _collective("Barrier", _barrier_impl, _barrier_infer)


def _reduce_impl(x, dest_rank, op="sum", group=HCCL_WORLD_COMM_GROUP):
    """The reduction on ``dest_rank``; the other ranks get MindSpore's placeholder of shape [1] (zeros)."""
    out = C.reduce(x, op, dest_rank, group)
    return out if out is not None else np.zeros((1,), x.dtype)


def _reduce_infer(x, dest_rank, op="sum", group=HCCL_WORLD_COMM_GROUP):
    x = _data("Reduce", x, allow_bool=False)
    _check_reduce_op("Reduce", x, op)
    n = _size("Reduce", group)
    if not isinstance(dest_rank, int) or isinstance(dest_rank, bool) or not 0 <= dest_rank < n:
        raise ValueError(f"For 'Reduce', 'dest_rank' must be a rank of the group (0..{n - 1}), but got {dest_rank!r}.")
    return x if C.group_rank(group, "Reduce") == dest_rank else TensorType((1,), x.dtype)


def _reduce_bprop(x, out, dout, dest_rank, op="sum", group=HCCL_WORLD_COMM_GROUP):
    if op != "sum":
        raise RuntimeError("Reduce: the gradient is defined for ReduceOp.SUM only")
    mine = dout if C.group_rank(group, "Reduce") == dest_rank else F.zeros_like(x)
    return (broadcast(mine, dest_rank, group),)  # every input gets the destination's gradient


REDUCE = _collective("Reduce", _reduce_impl, _reduce_infer, _reduce_bprop)


# ---- Send / Receive ---------------------------------------------------------------------------------------
def _send_impl(x, sr_tag, dest_rank, group=HCCL_WORLD_COMM_GROUP, group_back=HCCL_WORLD_COMM_GROUP):
    """Send ``x`` to ``dest_rank`` (returns when the receive has started); the output is a placeholder of zeros
    of x's type (it carries no data: the gradient of x comes back from the receiver)."""
    C.send(x, dest_rank, sr_tag, group)
    return np.zeros_like(x)


def _send_infer(x, sr_tag, dest_rank, group=HCCL_WORLD_COMM_GROUP, group_back=HCCL_WORLD_COMM_GROUP):
    x = _data("Send", x)
    _tag("Send", sr_tag)
    _size("Send", group)
    return x


def _send_bprop(x, out, dout, sr_tag, dest_rank, group=HCCL_WORLD_COMM_GROUP, group_back=HCCL_WORLD_COMM_GROUP):
    return (receive(sr_tag, dest_rank, tuple(x.shape), x.dtype, group_back),)  # the receiver sends it back


SEND = _collective("Send", _send_impl, _send_infer, _send_bprop)


def _tag(name: str, tag) -> None:
    if not isinstance(tag, int) or isinstance(tag, bool) or not 0 <= tag < (1 << 27):
        raise ValueError(f"For '{name}', 'sr_tag' must be an int in [0, 2**27), but got {tag!r}.")


def _receive_impl(*deps, sr_tag, src_rank, shape, dtype, group=HCCL_WORLD_COMM_GROUP,
                  group_back=HCCL_WORLD_COMM_GROUP):
    """Receive a ``dtype`` tensor of ``shape`` from ``src_rank``; optional inputs only order it after them."""
    return C.recv(shape, mstype.to_dtype(dtype).np, src_rank, sr_tag, group)


def _receive_infer(*deps, sr_tag, src_rank, shape, dtype, group=HCCL_WORLD_COMM_GROUP,
                   group_back=HCCL_WORLD_COMM_GROUP):
    _tag("Receive", sr_tag)
    if not isinstance(shape, tuple) or any(not isinstance(d, int) or isinstance(d, bool) or d < 0 for d in shape):
        raise ValueError(f"For 'Receive', 'shape' must be a tuple of non-negative ints, but got {shape!r}.")
    _size("Receive", group)
    return TensorType(shape, mstype.to_dtype(dtype))


def _receive_bprop(*args, sr_tag, src_rank, shape, dtype, group=HCCL_WORLD_COMM_GROUP,
                   group_back=HCCL_WORLD_COMM_GROUP):
    deps, dout = args[:-2], args[-1]
    send(dout, sr_tag, src_rank, group_back)
    return tuple(F.zeros_like(d) for d in deps)


RECEIVE = _collective("Receive", _receive_impl, _receive_infer, _receive_bprop)


# ---- functional forms over the records (used by bprops, classes and the public functional APIs) ----------------
def all_reduce(x, op: str = "sum", group: str = HCCL_WORLD_COMM_GROUP):
    return bind(ALL_REDUCE, (x,), {"op": op, "group": group})


def all_gather(x, group: str = HCCL_WORLD_COMM_GROUP):
    return bind(ALL_GATHER, (x,), {"group": group})


def reduce_scatter(x, op: str = "sum", group: str = HCCL_WORLD_COMM_GROUP):
    return bind(REDUCE_SCATTER, (x,), {"op": op, "group": group})


def broadcast(x, root_rank: int = 0, group: str = HCCL_WORLD_COMM_GROUP):
    return bind(BROADCAST, (x,), {"root_rank": root_rank, "group": group})


def all_to_all(x, split_count: int, split_dim: int, concat_dim: int, group: str = HCCL_WORLD_COMM_GROUP):
    return bind(ALL_TO_ALL, (x,), {"split_count": split_count, "split_dim": split_dim, "concat_dim": concat_dim,
                                   "group": group})


def all_gather_v(x, output_split_sizes: tuple, group: str = HCCL_WORLD_COMM_GROUP):
    return bind(ALL_GATHER_V, (x,), {"output_split_sizes": tuple(output_split_sizes), "group": group})


def reduce_scatter_v(x, input_split_sizes: tuple, op: str = "sum", group: str = HCCL_WORLD_COMM_GROUP):
    return bind(REDUCE_SCATTER_V, (x,), {"input_split_sizes": tuple(input_split_sizes), "op": op, "group": group})


def all_to_all_v(x, send_numel_list: tuple, recv_numel_list: tuple, group: str = HCCL_WORLD_COMM_GROUP,
                 block_size: int = 1):
    return bind(ALL_TO_ALL_V, (x,), {"send_numel_list": tuple(send_numel_list),
                                     "recv_numel_list": tuple(recv_numel_list), "group": group,
                                     "block_size": block_size})


def barrier(group: str = HCCL_WORLD_COMM_GROUP):
    return bind(BARRIER, (), {"group": group})


def reduce(x, dest_rank: int, op: str = "sum", group: str = HCCL_WORLD_COMM_GROUP):
    return bind(REDUCE, (x,), {"dest_rank": dest_rank, "op": op, "group": group})


def send(x, sr_tag: int, dest_rank: int, group: str = HCCL_WORLD_COMM_GROUP, group_back: str = HCCL_WORLD_COMM_GROUP):
    return bind(SEND, (x,), {"sr_tag": sr_tag, "dest_rank": dest_rank, "group": group, "group_back": group_back})


def receive(sr_tag: int, src_rank: int, shape: tuple, dtype, group: str = HCCL_WORLD_COMM_GROUP,
            group_back: str = HCCL_WORLD_COMM_GROUP, *deps):
    return bind(RECEIVE, tuple(deps), {"sr_tag": sr_tag, "src_rank": src_rank, "shape": tuple(shape),
                                       "dtype": mstype.to_dtype(dtype), "group": group, "group_back": group_back})
