"""In-place writes on the gradient tape. Gradients are keyed by tensor object, and a write makes one object
stand for two values: the tape records ``t`` := ``new`` as a node whose output is its first input, and the
backward hands the cotangent gathered so far (the new value's) to ``new``, after which earlier records add
the old value's. A write through a view also changes the tensors sharing its memory (its base, other views):
each one used on the tape gets a node taking the written positions from the new value."""
from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from ..core.views import root
from ..ir.builder import Tracer


def _replaced(args, out, dout):
    """``t`` := ``new``: the old value gets nothing from after the write, ``new`` gets it all."""
    return None, dout


_replaced.reads_nothing = True


def _offsets(a: np.ndarray) -> np.ndarray:
    """The address of each element of ``a`` (flattened in C order)."""
    off = np.full(a.shape, a.__array_interface__["data"][0], dtype=np.int64)
    for k, (n, s) in enumerate(zip(a.shape, a.strides)):
        off += (np.arange(n, dtype=np.int64) * s).reshape([n if j == k else 1 for j in range(a.ndim)])
    return off.reshape(-1)


def overlap(u: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(positions in ``u``, positions in ``t``) of the elements the two arrays share (flat, C order)."""
    t_off, u_off = _offsets(t), _offsets(u)
    order = np.argsort(t_off, kind="stable")
    sorted_off = t_off[order]
    pos = np.minimum(np.searchsorted(sorted_off, u_off), len(sorted_off) - 1)
    hit = sorted_off[pos] == u_off if len(sorted_off) else np.zeros(u_off.shape, bool)
    return np.nonzero(hit)[0], order[pos[hit]]


class Shared:
    """The vjp of ``u`` := ``u`` with its elements shared with ``t`` read from ``t``'s new value."""

    reads_nothing = True

    def __init__(self, u: np.ndarray, t: np.ndarray):
        self.u_pos, self.t_pos = overlap(u, t)
        mask = np.zeros(u.size, bool)
        mask[self.u_pos] = True
        self.mask = Tensor(mask.reshape(u.shape))
        self.t_shape = t.shape

    def __bool__(self) -> bool:
        return bool(self.u_pos.size)

    def __call__(self, args, out, dout):
        from ..ops import functional as F

        spec = (("t", 0),)
        picked = F.getitem(F.reshape(dout, (-1,)), spec, (Tensor(self.u_pos),))
        g_t = F.getitem_grad(picked, (Tensor(self.t_pos),), spec, (int(np.prod(self.t_shape)),))
        return F.masked_fill(dout, self.mask, 0), F.reshape(g_t, self.t_shape)


def sharing(tape, t: Tensor) -> list:
    """The eager tensors ``tape`` recorded as a view op's input or output sharing ``t``'s memory (not ``t``); none
    for a tracer (a graph's writes reach its views and base through the builder, core/inplace.write_graph)."""
    if isinstance(t, Tracer):
        return []
    records, roots = tape.records, tape._roots
    for i in range(tape._rooted, len(records)):
        op, args, attrs, out, _ = records[i]
        if op.view:
            for a in args + out if isinstance(out, tuple) else args + (out,):
                if isinstance(a, Tensor) and not isinstance(a, Tracer):
                    roots.setdefault(id(root(a._data)), {})[id(a)] = a
    tape._rooted = len(records)
    found = roots.get(id(root(t._data)), {})
    return [u for k, u in found.items() if k != id(t)]


def check_write(tape, t: Tensor, name: str) -> None:
    watched = tape.watched
    if id(t) in watched or any(id(u) in watched for u in sharing(tape, t)):
        raise RuntimeError(f"{name}: in-place write into an input being differentiated (or a view of one): its "
                           "gradient would be for a value the function overwrote (MindSpore refuses it too); write "
                           "into a copy of the input (ops.deepcopy / Tensor.copy())")


def rebase(tape, t: Tensor, new: Tensor) -> None:
    """Record on ``tape`` that ``t`` now holds ``new`` (its memory was written), and so do the tensors sharing it."""
    others = sharing(tape, t)
    tape.record_custom((t, new), t, _replaced)
    for u in others:
        if u.dtype != t.dtype:
            raise RuntimeError(f"in-place write: {tuple(u.shape)} {u.dtype} tensor shares memory with the written "
                               f"{t.dtype} tensor; its gradient through the write is not supported")
        vjp = Shared(u._data, t._data)
        if vjp:
            tape.record_custom((u, t), u, vjp)
