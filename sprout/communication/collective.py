"""The run-time entry of every collective (op kernels and functional APIs call these): group lookup, the
cross-rank signature check (op, dtype, shape, attributes, sequence number), the watchdog, then the backend."""
from __future__ import annotations

import zlib
from typing import Any
from collections.abc import Callable

import numpy as np

from .. import context
from .backend import REDUCE_OPS, reduce_in_order
from .state import CollectiveMismatchError, CommError, Group, current

_KINDS = ("AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AlltoAll", "Barrier", "Reduce", "Gather",
          "Scatter", "allgather_object", "broadcast_object", "AllGatherV", "ReduceScatterV", "AlltoAllV",
          "AlltoAllVC")
_SIG_DIMS = 8
SIG_LEN = 6 + _SIG_DIMS
_PLAN = 5  # the slot of a compiled graph's (digest, position) of the collective (-1 eager); see Site
_SAME = np.array([i != _PLAN for i in range(SIG_LEN)])


_SIGNATURES: dict = {}  # (kind, dtype, shape, attrs) -> the row without its sequence number


def _signature(kind: str, seq: int, x: np.ndarray | None, attrs: tuple) -> np.ndarray:
    """Fixed-size int64 row: sequence number, op, dtype, rank, attributes hash, graph plan, dims (hashed past 8) (the
    rest of the row is built once per kind, dtype, shape and attributes)."""
    text = repr(attrs)  # (the text, not the values: 1 and 1.0 are equal keys but different attributes)
    key = (kind, text) if x is None else (kind, x.dtype, x.shape, text)
    row = _SIGNATURES.get(key)
    if row is None:
        row = _signature_row(kind, x, text)
        if len(_SIGNATURES) < 4096:
            _SIGNATURES[key] = row
    sig = row.copy()
    sig[0] = seq
    return sig


def _signature_row(kind: str, x: np.ndarray | None, attrs_text: str) -> np.ndarray:
    sig = np.full(SIG_LEN, -1, np.int64)
    sig[1] = _KINDS.index(kind)
    sig[4] = zlib.crc32(attrs_text.encode()) & 0x7FFFFFFF
    if x is not None:
        sig[2] = x.dtype.num
        sig[3] = x.ndim
        dims = list(x.shape)
        if len(dims) > _SIG_DIMS:
            dims = dims[:_SIG_DIMS - 1] + [zlib.crc32(repr(dims).encode()) & 0x7FFFFFFF]
        sig[6:6 + len(dims)] = dims
    return sig


def _describe(kind: str, x: np.ndarray | None, attrs: tuple) -> str:
    data = f" {x.dtype.name}{list(x.shape)}" if x is not None else ""
    extra = ", ".join(f"{k}={v!r}" for k, v in attrs)
    return f"{kind}{data}" + (f" ({extra})" if extra else "")


def _check(g: Group, kind: str, x: np.ndarray | None, attrs: tuple, site: Site | None = None) -> bool:
    """Compare this call's signature on every member (raise on every rank when they differ); True when every
    member is at the same position of the same compiled list of collectives (``site``), so the run's next sites
    may skip their checks."""
    sig = _signature(kind, g.seq, x, attrs)
    if site is not None:
        sig[_PLAN] = (site.digest << 20) | (site.pos & 0xFFFFF)
    rows = g.backend.signatures(sig)
    if (rows[:, _SAME] == sig[_SAME]).all():
        return site is not None and bool((rows[:, _PLAN] == sig[_PLAN]).all())
    texts = g.backend.allgather_object((g.seq, _describe(kind, x, attrs)))
    parts = "; ".join(f"rank {g.ranks[i]}: {t} (#{s})" for i, (s, t) in enumerate(texts))
    note = ""
    if current().extra.get("sim") is not None:
        from .sim import SHARED_CACHE_NOTE
        note = " " + SHARED_CACHE_NOTE
    raise CollectiveMismatchError(f"{kind} #{g.seq} on group {g.name!r}: the ranks disagree (every rank must call "
                                  f"the same collectives in the same order with the same shapes and dtypes): "
                                  f"{parts}{note}")


class Site:
    """One collective of a compiled graph whose collectives all run unconditionally, in the graph's order (no
    control flow around them). ``digest`` hashes the ordered list of the graph's collectives on this site's group
    (op, input dtype and shape, attributes); ``pos`` is this collective's place in it; ``prev`` is the site of the
    previous one (None: none, or one without a site). A site whose group's previous collective was ``prev`` skips
    the cross-rank check: the check of an earlier site of this run compared (digest, position) on every member, so
    every member runs the same collectives on the group from there on. A new compile makes new sites (checked)."""

    __slots__ = ("digest", "pos", "prev")

    def __init__(self, digest: int, pos: int, prev: Site | None):
        self.digest, self.pos, self.prev = digest, pos, prev


def run(kind: str, group: str, x: np.ndarray | None, attrs: tuple, call: Callable, site: Site | None = None) -> Any:
    """Run ``call(backend)`` as collective ``kind`` on ``group`` after the checks. ``attrs`` are (name, value)
    pairs every rank must agree on; ``site``: the call comes from a compiled graph (see ``Site``)."""
    st = current()
    g = st.member(group, kind)
    g.seq += 1
    last, g.last_site = g.last_site, site
    if site is not None and site.prev is not None and last is site.prev and g.plan_ok:
        check = False  # an earlier site of this run showed that every member runs the same collectives
    else:
        check = True
    if g.size == 1:
        return call(g.backend)
    dog = st.extra.get("watchdog")
    if dog is not None:
        dog.enter(g, kind, x)
    try:
        if not context.get_context("comm_check"):
            g.plan_ok = False
        elif check:
            g.plan_ok = _check(g, kind, x, attrs, site)
        return call(g.backend)
    finally:
        if dog is not None:
            dog.leave()


def owned(x) -> np.ndarray:
    """A private C-contiguous copy the backend may overwrite (in-place MPI calls)."""
    return np.array(x, copy=True, order="C")


def check_op(what: str, op: str) -> None:
    if not isinstance(op, str):
        raise TypeError(f"For '{what}', the 'op' must be str, but got {type(op).__name__}.")
    if op not in REDUCE_OPS:
        raise ValueError(f"For '{what}', the 'op' must be one of {list(REDUCE_OPS)}, but got {op!r}.")


# ---- entries ---------------------------------------------------------------------------------------------
def all_reduce(x, op: str, group: str) -> np.ndarray:
    return run("AllReduce", group, x, (("op", op),), lambda b: b.allreduce(owned(x), op))


def all_gather(x, group: str) -> np.ndarray:
    return run("AllGather", group, x, (), lambda b: b.allgather(owned(x)))


def reduce_scatter(x, op: str, group: str) -> np.ndarray:
    return run("ReduceScatter", group, x, (("op", op),), lambda b: b.reduce_scatter(owned(x), op))


def broadcast(x, root: int, group: str) -> np.ndarray:
    return run("Broadcast", group, x, (("root_rank", root),), lambda b: b.broadcast(owned(x), root))


def all_to_all(x, split_count: int, split_dim: int, concat_dim: int, group: str) -> np.ndarray:
    def call(b):
        chunks = [np.ascontiguousarray(c) for c in np.split(np.asarray(x), split_count, axis=split_dim)]
        return np.concatenate(b.alltoall(chunks), axis=concat_dim)

    attrs = (("split_count", split_count), ("split_dim", split_dim), ("concat_dim", concat_dim))
    return run("AlltoAll", group, x, attrs, call)


def barrier(group: str) -> None:
    run("Barrier", group, None, (), lambda b: b.barrier())


def reduce(x, op: str, root: int, group: str) -> np.ndarray | None:
    return run("Reduce", group, x, (("op", op), ("dest_rank", root)), lambda b: b.reduce(owned(x), op, root))


def gather(x, root: int, group: str) -> list | None:
    return run("Gather", group, x, (("dst", root),), lambda b: b.gather(owned(x), root))


def scatter(chunks: list | None, root: int, shape: tuple, dtype, group: str) -> np.ndarray:
    probe = np.empty(shape, dtype)
    return run("Scatter", group, probe, (("src", root),),
               lambda b: b.scatter([owned(c) for c in chunks] if chunks is not None else None, root, shape, dtype))


def allgather_object(obj: Any, group: str) -> list:
    return run("allgather_object", group, None, (), lambda b: b.allgather_object(obj))


def broadcast_object(obj: Any, root: int, group: str) -> Any:
    return run("broadcast_object", group, None, (("src", root),), lambda b: b.broadcast_object(obj, root))


def send(x, dest: int, tag: int, group: str) -> None:
    st = current()
    g = st.member(group, "Send")
    _check_peer(g, dest, "Send", "dest_rank")
    dog = st.extra.get("watchdog")
    if dog is not None:
        dog.enter(g, f"Send(to group rank {dest}, tag {tag})", x)
    try:
        g.backend.send(owned(x), dest, tag)
    finally:
        if dog is not None:
            dog.leave()


def recv(shape: tuple, dtype, src: int, tag: int, group: str, what: str = "Receive") -> np.ndarray:
    st = current()
    g = st.member(group, what)
    _check_peer(g, src, what, "src_rank")
    dog = st.extra.get("watchdog")
    if dog is not None:
        dog.enter(g, f"{what}(from group rank {src}, tag {tag})", None)
    try:
        return g.backend.recv(tuple(shape), np.dtype(dtype), src, tag, what)
    finally:
        if dog is not None:
            dog.leave()


def _check_peer(g: Group, peer: int, what: str, name: str) -> None:
    if not isinstance(peer, int) or isinstance(peer, bool) or not 0 <= peer < g.size:
        raise ValueError(f"For '{what}', '{name}' must be a rank of group {g.name!r} (0..{g.size - 1}), "
                         f"but got {peer!r}.")
    if peer == g.backend.rank:
        raise CommError(f"{what}: rank {g.ranks[peer]} cannot send to or receive from itself")


def group_size(group: str, what: str) -> int:
    return current().group(group, what).size


def group_rank(group: str, what: str) -> int:
    return current().member(group, what).backend.rank


def all_to_all_v(chunks: list, recv_shapes: list, group: str, kind: str = "AlltoAll") -> list:
    """Uneven all-to-all: ``chunks[j]`` to rank j, receiving ``recv_shapes[i]`` from rank i. The shapes are
    checked on every rank first (a mismatch raises everywhere, naming both sides)."""
    def call(b):
        table = b.allgather_object(([tuple(c.shape) for c in chunks], [tuple(s) for s in recv_shapes]))
        bad = [f"rank {g.ranks[i]} sends {list(table[i][0][j])} to rank {g.ranks[j]}, which expects "
               f"{list(table[j][1][i])}" for i in range(b.size) for j in range(b.size)
               if table[i][0][j] != table[j][1][i]]
        if bad:
            raise CollectiveMismatchError(f"{kind} on group {g.name!r}: the split sizes disagree: " + "; ".join(bad))
        return b.alltoall([owned(c) for c in chunks], [tuple(s) for s in recv_shapes])

    g = current().member(group, kind)
    dtype = np.asarray(chunks[0]).dtype if chunks else None
    return run(kind, group, None, (("dtype", str(dtype)),), call)


def all_gather_v(x: np.ndarray, sizes: list, group: str) -> np.ndarray:
    """AllGatherV: every rank's 1-D ``x`` (rank i's of length ``sizes[i]``) concatenated in group-rank order."""
    n = group_size(group, "AllGatherV")
    got = all_to_all_v([x] * n, [(k,) for k in sizes], group, "AllGatherV")
    return np.concatenate(got) if got else np.asarray(x)[:0]


def reduce_scatter_v(x: np.ndarray, sizes: list, op: str, group: str) -> np.ndarray:
    """ReduceScatterV: 1-D ``x`` reduced over the group in group-rank order; this rank keeps its span
    (``sizes[rank]`` elements after ``sum(sizes[:rank])``)."""
    cuts = np.cumsum(sizes)[:-1]
    me = group_rank(group, "ReduceScatterV")
    got = all_to_all_v(np.split(x, cuts), [(sizes[me],)] * len(sizes), group, "ReduceScatterV")
    return reduce_in_order(got, op)


def isend(x, dest: int, tag: int, group: str):
    """Start a send; returns the wait callable (the message may complete later)."""
    g = current().member(group, "isend")
    _check_peer(g, dest, "isend", "dst")
    return g.backend.isend(owned(x), dest, tag)


def irecv(shape: tuple, dtype, src: int, tag: int, group: str):
    g = current().member(group, "irecv")
    _check_peer(g, src, "irecv", "src")
    return g.backend.irecv(tuple(shape), np.dtype(dtype), src, tag, "irecv")
