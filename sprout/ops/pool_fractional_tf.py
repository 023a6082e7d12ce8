"""TensorFlow-style fractional pooling (ops.FractionalMaxPool / ops.FractionalAvgPool on NHWC input): a random
primitive draws each axis's pooling sequence, then a composite pools the rectangles it delimits (max or mean, one
masked gather per axis), so the gradient flows through the gathers."""
from __future__ import annotations

import math

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.op import Op, OpError, register
from ..core.tensor import Tensor
from ..core.types import TensorType
from . import functional as F
from .random_ops import _check_seed, _stream

__all__ = ["fractional_pool_nhwc", "pooling_sequence"]


# ---- the random pooling sequence ---------------------------------------------------------------------------------
def _sequence_infer(seed, length, out, pseudo_random):
    _check_seed("FractionalPoolSequence", seed)
    if not isinstance(length, int) or not isinstance(out, int) or not 0 < out <= length:
        raise OpError(f"FractionalPoolSequence: the output size {out} must be in [1, {length}]")
    return TensorType((out + 1,), mstype.int64)


def _sequence_impl(seed, length, out, pseudo_random):
    """The cumulative window starts 0 = s_0 < ... < s_out = length. Random: ``out`` steps of floor(length / out),
    ``length % out`` of them one longer, shuffled. Pseudo-random: s_i = ceil(a (i + u)) - ceil(a u) with
    a = length / out and u uniform in [0, u_max), u_max keeping every step in {floor(a), ceil(a)}."""
    gen = _stream(seed)
    if not pseudo_random:
        steps = np.full(out, length // out, np.int64)
        steps[:length % out] += 1
        gen.shuffle(steps)
        return np.concatenate([[0], np.cumsum(steps)]).astype(np.int64)
    alpha = length / out
    u_max = min((length + 2) / alpha - 1, (length + 1 - 1e-5) / alpha - (out - 1))
    u = gen.uniform(0.0, 1.0) * u_max
    i = np.arange(1, out)
    inner = np.ceil(alpha * (i + u)) - np.ceil(alpha * u)
    return np.concatenate([[0], inner, [length]]).astype(np.int64)


POOL_SEQUENCE = register(Op("FractionalPoolSequence", _sequence_impl, _sequence_infer, None, "random"))


def pooling_sequence(seed: Tensor, length: int, out: int, pseudo_random: bool) -> Tensor:
    return bind(POOL_SEQUENCE, (seed,), {"length": length, "out": out, "pseudo_random": bool(pseudo_random)})


# ---- pooling over the rectangles -----------------------------------------------------------------------------------
def _axis_pool(x, seq, axis: int, size: int, out: int, overlapping: bool, kind: str):
    """Max or sum over each window [s_i, s_{i+1}) (or [s_i, s_{i+1}] clipped, overlapping) along ``axis`` of the
    NHWC ``x``: one gather of (out, widest) positions, the padding positions masked."""
    widest = math.ceil(size / out) + 2
    start = F.expand_dims(seq[:-1], 1)
    stop = F.add(seq[1:], 1) if overlapping else seq[1:]
    stop = F.expand_dims(F.minimum(stop, size), 1)
    pos = F.add(start, Tensor(np.arange(widest, dtype=np.int64)))            # (out, widest)
    valid = F.less(pos, stop)
    idx = F.reshape(F.minimum(pos, size - 1), (-1,))
    vals = F.gather(x, idx, axis)                                            # axis becomes out * widest
    shape = list(x.shape)
    shape[axis:axis + 1] = [out, widest]
    vals = F.reshape(vals, tuple(shape))
    mask = F.reshape(valid, tuple(out if a == axis else widest if a == axis + 1 else 1 for a in range(len(shape))))
    if kind == "max":
        low = Tensor(np.array(np.finfo(x.dtype.np).min if x.dtype.is_float else np.iinfo(x.dtype.np).min,
                              x.dtype.np))
        return F.amax(F.where(mask, vals, low), axis + 1), None
    counts = F.sub(stop[:, 0], start[:, 0])
    return F.sum(F.where(mask, vals, F.zeros_like(vals)), axis + 1), counts


def fractional_pool_nhwc(x, rows, cols, overlapping: bool, kind: str):
    """Pool NHWC ``x`` over the windows of the row and column sequences (int64, out + 1 each)."""
    h, w = x.shape[1], x.shape[2]
    oh, ow = rows.shape[0] - 1, cols.shape[0] - 1
    if kind == "max":
        y, _ = _axis_pool(x, rows, 1, h, oh, overlapping, "max")
        return _axis_pool(y, cols, 2, w, ow, overlapping, "max")[0]
    wide = x if x.dtype == mstype.float64 else F.cast(x, mstype.float64 if not x.dtype.is_float else x.dtype)
    y, nr = _axis_pool(wide, rows, 1, h, oh, overlapping, "sum")
    y, nc = _axis_pool(y, cols, 2, w, ow, overlapping, "sum")
    count = F.cast(F.mul(F.reshape(nr, (1, -1, 1, 1)), F.reshape(nc, (1, 1, -1, 1))), y.dtype)
    mean = F.div(y, count)
    return mean if mean.dtype == x.dtype else F.cast(mean, x.dtype)  # integers: truncated toward zero, as TF
