"""MindSpore's torch-style communication API (``mindspore.ops.communication`` = ``mindspore.mint.distributed``):
process groups by name, collectives that write their result into the given tensors (in place) and return a
handle (None unless ``async_op``), point-to-point and object collectives. Ranks given as ``src``/``dst``/``peer``
are world ranks (as MindSpore and torch). Collectives run at once: an ``async_op=True`` handle's ``wait()``
returns immediately (a legal schedule of an asynchronous collective); ``isend``/``irecv`` are truly pending."""
from __future__ import annotations

import hashlib
import logging
import math
from datetime import timedelta

import numpy as np

from .. import context
from ..communication import collective as C
from ..communication import management as M
from ..communication.state import CommError, current
from ..core.tensor import Tensor
from . import comm_ops as K
from . import functional as F

logger = logging.getLogger("sprout.communication")

_OPS = ("sum", "prod", "min", "max", "avg")


class CommHandle:
    """What an asynchronous communication returns; ``wait()`` blocks until it has completed."""

    def __init__(self, wait=None, done=None):
        self._wait, self._done = wait, done

    def wait(self):
        if self._wait is not None:
            result, self._wait = self._wait(), None
            if self._done is not None:
                self._done(result)
        return None

    def is_completed(self) -> bool:
        return self._wait is None


def _group(api: str, group) -> str:
    if group is None:
        return M.HCCL_WORLD_COMM_GROUP
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return group


def _tensor(api: str, name: str, t) -> Tensor:
    if not isinstance(t, Tensor):
        raise TypeError(f"For {api}, the {name} must be tensor")
    return t


def _async(async_op) -> None:
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")


def _op(api: str, op) -> str:
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in _OPS:
        raise TypeError(f"For {api}, the input op value must be one of sum, prod, min, max, avg")
    return op


def _handle(async_op: bool):
    return CommHandle() if async_op else None


def _write(t: Tensor, value) -> None:
    F.assign(t, value if isinstance(value, Tensor) else Tensor(np.asarray(value)))


def _group_rank(group: str, world_rank: int, what: str) -> int:
    if not isinstance(world_rank, int) or isinstance(world_rank, bool):
        raise TypeError(f"For {what}, the rank must be int, but got {type(world_rank)}")
    return M.get_group_rank_from_world_rank(world_rank, group)


# ---- process groups ------------------------------------------------------------------------------------
def is_available() -> bool:
    return True


def is_initialized() -> bool:
    return current().inited


def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None) -> None:
    """Join the launcher's job (as ``init()``). ``timeout`` (a timedelta) sets the ``comm_timeout`` flag;
    ``world_size``/``rank``, when given, must match the launcher's. TCP rendezvous (``init_method``/``store``)
    is not available: start the job with ``python -m sprout.msrun`` or ``mpiexec``."""
    if backend not in ("hccl", "mccl"):
        raise ValueError("Only support hccl now, please setting backend to hccl or using default value")
    if init_method is not None or store is not None:
        raise ValueError("init_process_group: init_method / store (TCP rendezvous) are not supported; start the job "
                         "with python -m sprout.msrun or mpiexec, which sets up the ranks")
    for name, value in (("pg_options", pg_options), ("device_id", device_id)):
        if value is not None:
            logger.warning("%s is ignored, setting is invalid", name)  # MindSpore's own behaviour
    if not isinstance(group_name, str):
        raise TypeError(f"init_process_group: group_name must be a str, got {type(group_name).__name__}")
    M.init()
    size = M.get_group_size(group_name) if group_name else M.get_group_size()  # as MindSpore checks world_size
    if world_size not in (-1, size):
        raise ValueError(f"init_process_group: world_size={world_size} but the group has {size} ranks")
    if rank not in (-1, M.get_rank()):
        raise ValueError(f"init_process_group: rank={rank} but the launcher made this process rank {M.get_rank()}")
    if timeout is not None:
        seconds = timeout.total_seconds() if isinstance(timeout, timedelta) else float(timeout)
        context.set_context(comm_timeout=seconds)


def destroy_process_group(group=None) -> None:
    if group is None or group in (M.HCCL_WORLD_COMM_GROUP, M.GlobalComm.WORLD_COMM_GROUP):
        M.release()
    else:
        M.destroy_group(_group("destroy_process_group", group))


def get_rank(group=None) -> int:
    """This rank's id in ``group``; -1 (with a warning) when it is not a member, as MindSpore."""
    group = _group("get_rank", group)
    try:
        return M.get_rank(group)
    except CommError as exc:
        logger.warning("%s", exc)
        return -1


def get_world_size(group=None) -> int:
    group = _group("get_world_size", group)
    try:
        return M.get_group_size(group)
    except CommError as exc:
        logger.warning("%s", exc)
        return -1


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None) -> str:
    """A group of the world ranks ``ranks`` (every rank calls it), named as MindSpore names it."""
    if ranks is None:
        return M.HCCL_WORLD_COMM_GROUP
    if not isinstance(ranks, list):
        raise TypeError(f"ranks must be list, but got {type(ranks)}")
    backend = "hccl" if backend is None else backend
    if not isinstance(backend, str) or backend not in ("hccl", "mccl"):
        raise TypeError(f"the input backend must be hccl or mccl, but got {backend}")
    if pg_options is not None:
        raise ValueError("new_group: pg_options (GroupOptions with HCCL settings) is not supported on CPU")
    ranks = sorted(ranks)
    name = f"{backend}_{len(ranks)}_" + hashlib.sha1("_".join(map(str, ranks)).encode()).hexdigest()
    M.create_group(name, ranks)
    return name


def get_backend(group=None) -> str:
    group = _group("get_backend", group)
    return "mccl" if "mccl" in group else M.GlobalComm.BACKEND


def get_global_rank(group, group_rank) -> int:
    if not isinstance(group_rank, int):
        raise TypeError(f"The group_rank argument must be integer, but got {type(group_rank)}.")
    return M.get_world_rank_from_group_rank(_group("get_global_rank", group), group_rank)


def get_group_rank(group, global_rank) -> int:
    if not isinstance(global_rank, int):
        raise TypeError(f"The global_rank argument must be integer, but got {type(global_rank)}.")
    return M.get_group_rank_from_world_rank(global_rank, _group("get_group_rank", group))


def get_process_group_ranks(group=None) -> list:
    return M.get_process_group_ranks(_group("get_process_group_ranks", group))


# ---- collectives (in place) -------------------------------------------------------------------------------
def all_reduce(tensor, op="sum", group=None, async_op=False):
    _tensor("all_reduce", "input tensor", tensor)
    op, group = _op("all_reduce", op), _group("all_reduce", group)
    _async(async_op)
    _write(tensor, K.all_reduce(tensor, op, group))
    return _handle(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    _tensor("all_gather_into_tensor", "input tensor", input_tensor)
    _tensor("all_gather_into_tensor", "output tensor", output_tensor)
    group = _group("all_gather_into_tensor", group)
    _async(async_op)
    out = K.all_gather(input_tensor, group)
    _check_out("all_gather_into_tensor", output_tensor, out)
    _write(output_tensor, out)
    return _handle(async_op)


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):  # noqa: A002
    _tensor("reduce_scatter_tensor", "input tensor", input)
    _tensor("reduce_scatter_tensor", "output tensor", output)
    op, group = _op("reduce_scatter_tensor", op), _group("reduce_scatter_tensor", group)
    _async(async_op)
    out = K.reduce_scatter(input, op, group)
    _check_out("reduce_scatter_tensor", output, out)
    _write(output, out)
    return _handle(async_op)


def _uneven_sizes(api: str, arg: str, sizes, total: int, n: int) -> list:
    if sizes is None or (isinstance(sizes, (list, tuple)) and not sizes):
        if total % n:
            raise ValueError(f"For {api}, dim 0 ({total}) cannot be split evenly over the group of {n} ranks; give "
                             f"{arg}")
        return [total // n] * n
    if not isinstance(sizes, (list, tuple)) or any(not isinstance(k, int) or isinstance(k, bool) or k < 0
                                                   for k in sizes):
        raise TypeError(f"For {api}, {arg} must be a list of non-negative ints, but got {sizes!r}")
    if len(sizes) != n:
        raise ValueError(f"For {api}, {arg} {list(sizes)} must have one entry per rank of the group ({n})")
    return list(sizes)


def _uneven_setup(api: str, output, input, sizes, arg: str, group, async_op, rows_of) -> tuple:  # noqa: A002
    """Checks shared by the dim-0 uneven functions: (group, split sizes, this group rank, elements per row)."""
    _tensor(api, "input tensor", input)
    _tensor(api, "output tensor", output)
    group = _group(api, group)
    _async(async_op)
    n, me = M.get_group_size(group), M.get_rank(group)
    if not output.shape or not input.shape:
        raise ValueError(f"For {api}, the input and output tensors need at least one dimension")
    sizes = _uneven_sizes(api, arg, sizes, rows_of(output, input), n)
    return group, sizes, me, math.prod(input.shape[1:])


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None, async_op=False):  # noqa: A002
    """Gather along dim 0 tensors whose dim 0 differs by rank (``output_split_sizes[i]`` rows from rank i; None:
    even); the other dims agree. ``output`` receives the concatenation."""
    api = "all_gather_into_tensor_uneven"
    group, sizes, me, row = _uneven_setup(api, output, input, output_split_sizes, "output_split_sizes", group,
                                          async_op, lambda o, i: o.shape[0])
    rest = tuple(input.shape[1:])
    if input.shape[0] != sizes[me] or tuple(output.shape) != (sum(sizes),) + rest or output.dtype != input.dtype:
        raise ValueError(f"For {api}, with output_split_sizes {sizes} rank {me} needs an input of "
                         f"{sizes[me]} rows and an output {input.dtype}{[sum(sizes), *rest]}, but got input "
                         f"{input.dtype}{list(input.shape)} and output {output.dtype}{list(output.shape)}")
    out = K.all_gather_v(F.reshape(input, (-1,)), tuple(k * row for k in sizes), group)
    if sum(sizes) * row:
        _write(output, F.reshape(out, tuple(output.shape)))
    return _handle(async_op)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op="sum", group=None,  # noqa: A002
                                 async_op=False):
    """Reduce ``input`` over the group; rank r's ``output`` receives its ``input_split_sizes[r]`` rows of dim 0
    (None: an even split). ``op``: sum, max, min, avg."""
    api = "reduce_scatter_tensor_uneven"
    if _op(api, op) == "prod":
        raise TypeError(f"For {api}, the input op value must be one of sum, min, max, avg")
    group, sizes, me, row = _uneven_setup(api, output, input, input_split_sizes, "input_split_sizes", group,
                                          async_op, lambda o, i: i.shape[0])
    rest = tuple(input.shape[1:])
    if input.shape[0] != sum(sizes) or tuple(output.shape) != (sizes[me],) + rest or output.dtype != input.dtype:
        raise ValueError(f"For {api}, with input_split_sizes {sizes} the input needs {sum(sizes)} rows and rank "
                         f"{me}'s output {input.dtype}{[sizes[me], *rest]}, but got input {input.dtype}"
                         f"{list(input.shape)} and output {output.dtype}{list(output.shape)}")
    out = K.reduce_scatter_v(F.reshape(input, (-1,)), tuple(k * row for k in sizes), op, group)
    if sizes[me] * row:
        _write(output, F.reshape(out, tuple(output.shape)))
    return _handle(async_op)


def _check_out(api: str, out: Tensor, value: Tensor) -> None:
    if tuple(out.shape) != tuple(value.shape) or out.dtype != value.dtype:
        raise ValueError(f"For {api}, the output tensor must be {value.dtype}{list(value.shape)}, but got "
                         f"{out.dtype}{list(out.shape)}")


def reduce(tensor, dst, op="sum", group=None, async_op=False):
    """Reduce onto world rank ``dst`` in place; the other ranks' tensors are left unchanged."""
    _tensor("reduce", "input tensor", tensor)
    op, group = _op("reduce", op), _group("reduce", group)
    _async(async_op)
    root = _group_rank(group, dst, "reduce")
    out = C.reduce(tensor.asnumpy(), op, root, group)
    if out is not None:
        _write(tensor, out)
    return _handle(async_op)


def broadcast(tensor, src, group=None, async_op=False):
    _tensor("broadcast", "input tensor", tensor)
    group = _group("broadcast", group)
    _async(async_op)
    _write(tensor, K.broadcast(tensor, _group_rank(group, src, "broadcast"), group))
    return _handle(async_op)


def barrier(group=None, async_op=False, device_ids=None):
    group = _group("barrier", group)
    _async(async_op)
    if device_ids is not None:
        raise ValueError("barrier: device_ids (accelerator ids) has no meaning on CPU; pass None")
    K.barrier(group)
    return _handle(async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Fill ``tensor_list[i]`` with rank i's ``tensor``."""
    _tensor("all_gather", "input tensor", tensor)
    group = _group("all_gather", group)
    _async(async_op)
    n = M.get_group_size(group)
    if not isinstance(tensor_list, (list, tuple)) or len(tensor_list) != n:
        raise TypeError(f"For all_gather, tensor_list must be a list of {n} tensors (one per rank of the group)")
    for t in tensor_list:
        _check_out("all_gather", _tensor("all_gather", "output tensor", t), tensor)
    parts = F.split_sizes(K.all_gather(F.expand_dims(tensor, 0), group), [1] * n, 0)
    for t, p in zip(tensor_list, parts):
        _write(t, F.reshape(p, tuple(tensor.shape)))
    return _handle(async_op)


def reduce_scatter(output, input_list, op="sum", group=None, async_op=False):
    """``output`` = the reduction over the ranks of their ``input_list[my rank]``."""
    _tensor("reduce_scatter", "output tensor", output)
    op, group = _op("reduce_scatter", op), _group("reduce_scatter", group)
    _async(async_op)
    n = M.get_group_size(group)
    if not isinstance(input_list, (list, tuple)) or len(input_list) != n:
        raise TypeError(f"For reduce_scatter, input_list must be a list of {n} tensors (one per rank of the group)")
    out = K.reduce_scatter(F.stack(tuple(input_list), 0), op, group)
    out = F.reshape(out, tuple(input_list[0].shape))
    _check_out("reduce_scatter", output, out)
    _write(output, out)
    return _handle(async_op)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """Send ``input_tensor_list[j]`` to rank j; ``output_tensor_list[i]`` receives rank i's (shapes may differ)."""
    group = _group("all_to_all", group)
    _async(async_op)
    n = M.get_group_size(group)
    for name, lst in (("output_tensor_list", output_tensor_list), ("input_tensor_list", input_tensor_list)):
        if not isinstance(lst, (list, tuple)) or len(lst) != n:
            raise TypeError(f"For all_to_all, {name} must be a list of {n} tensors (one per rank of the group)")
    got = C.all_to_all_v([t.asnumpy() for t in input_tensor_list], [tuple(t.shape) for t in output_tensor_list],
                         group)
    for t, g in zip(output_tensor_list, got):
        _write(t, g.astype(t.dtype.np, copy=False))
    return _handle(async_op)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,  # noqa: A002
                      group=None, async_op=False):
    """Split ``input`` along axis 0 (evenly, or by ``input_split_sizes``) and send part j to rank j; ``output``
    receives the parts in rank order (evenly, or by ``output_split_sizes``)."""
    group = _group("all_to_all_single", group)
    _async(async_op)
    n = M.get_group_size(group)
    x = _tensor("all_to_all_single", "input tensor", input).asnumpy()
    _tensor("all_to_all_single", "output tensor", output)

    def sizes(total, given, what):
        if not given:
            if total % n:
                raise ValueError(f"For all_to_all_single, the {what} dim 0 ({total}) must be divisible by {n}")
            return [total // n] * n
        if len(given) != n or sum(given) != total:
            raise ValueError(f"For all_to_all_single, {what}_split_sizes {list(given)} must have {n} entries adding "
                             f"up to {total}")
        return list(given)

    ins = sizes(x.shape[0], input_split_sizes, "input")
    outs = sizes(output.shape[0], output_split_sizes, "output")
    chunks = np.split(x, np.cumsum(ins)[:-1], axis=0)
    got = C.all_to_all_v(chunks, [(k,) + tuple(x.shape[1:]) for k in outs], group)
    _write(output, np.concatenate(got, axis=0).astype(output.dtype.np, copy=False))
    return _handle(async_op)


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    group = _group("scatter", group)
    _async(async_op)
    root = _group_rank(group, src, "scatter")
    chunks = None
    if M.get_rank(group) == root:
        if not isinstance(scatter_list, (list, tuple)) or len(scatter_list) != M.get_group_size(group):
            raise TypeError("For scatter, scatter_list must hold one tensor per rank of the group on the source")
        chunks = [t.asnumpy() for t in scatter_list]
    _write(tensor, C.scatter(chunks, root, tuple(tensor.shape), tensor.dtype.np, group))
    return _handle(async_op)


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    group = _group("gather", group)
    _async(async_op)
    root = _group_rank(group, dst, "gather")
    got = C.gather(_tensor("gather", "input tensor", tensor).asnumpy(), root, group)
    if got is not None:
        if not isinstance(gather_list, (list, tuple)) or len(gather_list) != len(got):
            raise TypeError("For gather, gather_list must hold one tensor per rank of the group on the destination")
        for t, g in zip(gather_list, got):
            _write(t, g)
    return _handle(async_op)


# ---- point to point --------------------------------------------------------------------------------------------
def _peer(group: str, rank: int, api: str) -> int:
    peer = _group_rank(group, rank, api)
    if peer == M.get_rank(group):
        raise ValueError("Invalid destination rank: destination rank should not be the same as the rank of the "
                         "current process.")
    return peer


def send(tensor, dst=0, group=None, tag=0) -> None:
    group = _group("send", group)
    C.send(_tensor("send", "input tensor", tensor).asnumpy(), _peer(group, dst, "send"), tag, group)


def recv(tensor, src=0, group=None, tag=0) -> int:
    """Receive into ``tensor`` (its shape and dtype say what to expect); returns 0 as MindSpore."""
    group = _group("recv", group)
    _tensor("recv", "input tensor", tensor)
    _write(tensor, C.recv(tuple(tensor.shape), tensor.dtype.np, _peer(group, src, "recv"), tag, group, "recv"))
    return 0


def isend(tensor, dst=0, group=None, tag=0) -> CommHandle:
    group = _group("isend", group)
    return CommHandle(C.isend(_tensor("isend", "input tensor", tensor).asnumpy(), _peer(group, dst, "isend"), tag,
                              group))


def irecv(tensor, src=0, group=None, tag=0) -> CommHandle:
    group = _group("irecv", group)
    _tensor("irecv", "input tensor", tensor)
    wait = C.irecv(tuple(tensor.shape), tensor.dtype.np, _peer(group, src, "irecv"), tag, group)
    return CommHandle(wait, lambda got: _write(tensor, got))


class P2POp:
    """One point-to-point operation for ``batch_isend_irecv``: ``op`` is isend/irecv (or their names)."""

    def __init__(self, op, tensor, peer, group=None, tag=0):
        name = op if isinstance(op, str) else getattr(op, "__name__", "")
        if name not in ("isend", "irecv"):
            raise TypeError(f"P2POp: op must be isend or irecv, but got {op!r}")
        self.op, self.tensor, self.peer, self.group, self.tag = name, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list) -> list:
    """Start every send first, then every receive (so a ring exchange cannot deadlock); returns the handles."""
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    if any(not isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("The elements in p2p_op_list must be type of P2POp.")
    if len({p.group for p in p2p_op_list}) != 1:
        raise TypeError("The group name in p2p_op_list must be consistent.")
    handles = {}
    for i, p in enumerate(p2p_op_list):
        if p.op == "isend":
            handles[i] = isend(p.tensor, p.peer, p.group, p.tag)
    for i, p in enumerate(p2p_op_list):
        if p.op == "irecv":
            handles[i] = irecv(p.tensor, p.peer, p.group, p.tag)
    return [handles[i] for i in range(len(p2p_op_list))]


# ---- Python objects ---------------------------------------------------------------------------------------------
def all_gather_object(object_list, obj, group=None) -> None:
    group = _group("all_gather_object", group)
    n = M.get_group_size(group)
    if not isinstance(object_list, list) or len(object_list) != n:
        raise TypeError(f"The len of argument object_list must be equal to group rank size, but got "
                        f"{len(object_list) if isinstance(object_list, list) else object_list!r}.")
    object_list[:] = C.allgather_object(obj, group)


def broadcast_object_list(object_list, src=0, group=None, device=None) -> None:
    group = _group("broadcast_object_list", group)
    if not isinstance(object_list, list) or not object_list:
        raise TypeError("The object_list can not be empty.")
    object_list[:] = C.broadcast_object(list(object_list), _group_rank(group, src, "broadcast_object_list"), group)


def gather_object(obj, object_gather_list=None, dst=0, group=None) -> None:
    group = _group("gather_object", group)
    root = _group_rank(group, dst, "gather_object")
    every = C.allgather_object(obj, group)
    if M.get_rank(group) == root:
        if not isinstance(object_gather_list, list) or len(object_gather_list) != len(every):
            raise TypeError("The len of object_gather_list must be equal to group rank size, but got "
                            f"{object_gather_list!r}.")
        object_gather_list[:] = every


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0, group=None) -> None:
    group = _group("scatter_object_list", group)
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise TypeError("The scatter_object_output_list can not be empty.")
    root = _group_rank(group, src, "scatter_object_list")
    n = M.get_group_size(group)
    if M.get_rank(group) == root and (not isinstance(scatter_object_input_list, list)
                                      or len(scatter_object_input_list) != n):
        raise TypeError(f"The len of scatter_object_input_list must be equal to group rank size {n}.")
    every = C.broadcast_object(scatter_object_input_list if M.get_rank(group) == root else None, root, group)
    scatter_object_output_list[0] = every[M.get_rank(group)]


def send_object_list(object_list, dst, group=None, device=None) -> None:
    import pickle

    group = _group("send_object_list", group)
    if not isinstance(object_list, list):
        raise TypeError("For send_object_list, the object_list must be a list")
    payload = np.frombuffer(pickle.dumps(list(object_list)), np.uint8)
    peer = _peer(group, dst, "send_object_list")
    C.send(np.array([payload.size], np.int64), peer, 0, group)
    C.send(payload, peer, 0, group)


def recv_object_list(object_list, src=0, group=None, device=None) -> int:
    import pickle

    group = _group("recv_object_list", group)
    if not isinstance(object_list, list):
        raise TypeError("For recv_object_list, the object_list must be a list")
    peer = _peer(group, src, "recv_object_list")
    size = int(C.recv((1,), np.int64, peer, 0, group, "recv_object_list")[0])
    got = pickle.loads(C.recv((size,), np.uint8, peer, 0, group, "recv_object_list").tobytes())
    if len(got) != len(object_list):
        raise ValueError(f"recv_object_list: rank {src} sent {len(got)} objects into a list of {len(object_list)}")
    object_list[:] = got
    return src


__all__ = ["is_available", "is_initialized", "init_process_group", "destroy_process_group", "get_rank",
           "get_world_size", "new_group", "get_backend", "get_global_rank", "get_group_rank",
           "get_process_group_ranks", "all_reduce", "all_gather_into_tensor", "reduce_scatter_tensor", "reduce",
           "all_gather_into_tensor_uneven", "reduce_scatter_tensor_uneven",
           "broadcast", "barrier", "all_gather", "reduce_scatter", "all_to_all", "all_to_all_single", "scatter",
           "gather", "send", "recv", "isend", "irecv", "P2POp", "batch_isend_irecv", "all_gather_object",
           "broadcast_object_list", "gather_object", "scatter_object_list", "send_object_list", "recv_object_list",
           "CommHandle"]
