"""mint.triangular_solve and the batch-norm statistics functions SyncBatchNorm is built from
(batch_norm_stats, batch_norm_elemt, batch_norm_gather_stats_with_counts), as compositions of sprout ops."""
from __future__ import annotations

from .. import ops
from ..core.tensor import Tensor
from ._math import _t


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):  # noqa: N803 - mint's names
    """(X, A's copy) with ``tri(A) @ X = b`` (``tri(A)^T`` when ``transpose``): only A's upper (``upper``) or lower
    triangle is read, its diagonal taken as ones when ``unitriangular``; batched over leading dims."""
    a, rhs = _t(A, "triangular_solve"), _t(b, "triangular_solve")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"mint.triangular_solve: A must be a batch of square matrices, got shape {a.shape}")
    if rhs.ndim < 2 or rhs.shape[-2] != a.shape[-1]:
        raise ValueError(f"mint.triangular_solve: b of shape {rhs.shape} does not match A of shape {a.shape}")
    tri = ops.triu(a) if upper else ops.tril(a)
    if unitriangular:
        eye = ops.eye(a.shape[-1], a.shape[-1], a.dtype)
        tri = tri * (1 - eye) + eye
    return ops.matrix_solve(tri, rhs, adjoint=bool(transpose)), ops.identity(a)


def _channel_dims(x: Tensor, name: str) -> tuple:
    if x.ndim < 2:
        raise ValueError(f"mint.{name}: input must have a channel dim (at least 2-D), got shape {x.shape}")
    return (0,) + tuple(range(2, x.ndim))


def _per_channel(v: Tensor, x: Tensor) -> Tensor:
    return ops.reshape(v, (1, -1) + (1,) * (x.ndim - 2))


def batch_norm_stats(input, eps):  # noqa: A002
    """(mean, invstd) per channel (dim 1): invstd = 1 / sqrt(biased variance + eps)."""
    x = _t(input, "batch_norm_stats")
    dims = _channel_dims(x, "batch_norm_stats")
    mean = ops.mean(x, dims)
    var = ops.mean(ops.square(x - _per_channel(mean, x)), dims)
    return mean, ops.rsqrt(var + eps)


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):  # noqa: A002
    """``(input - mean) * invstd * weight + bias`` per channel (``eps`` is already in ``invstd``)."""
    x = _t(input, "batch_norm_elemt")
    _channel_dims(x, "batch_norm_elemt")
    if mean is None or invstd is None:
        raise ValueError("mint.batch_norm_elemt: mean and invstd are required (from batch_norm_stats)")
    out = (x - _per_channel(mean, x)) * _per_channel(invstd, x)
    if weight is not None:
        out = out * _per_channel(weight, x)
    if bias is not None:
        out = out + _per_channel(bias, x)
    return out


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None, running_var=None,  # noqa: A002
                                        momentum=0.1, eps=1e-05, counts=None):
    """Combine per-process (mean, invstd) rows of ``counts`` samples each into the global (mean, invstd), and
    move ``running_mean`` / ``running_var`` (unbiased) towards them by ``momentum`` (written in place)."""
    if counts is None:
        raise ValueError("mint.batch_norm_gather_stats_with_counts: counts is required")
    m, s = _t(mean, "batch_norm_gather_stats_with_counts"), _t(invstd, "batch_norm_gather_stats_with_counts")
    c = ops.reshape(ops.cast(_t(counts, "batch_norm_gather_stats_with_counts"), m.dtype), (-1, 1))
    if m.ndim != 2 or m.shape != s.shape or c.shape[0] != m.shape[0]:
        raise ValueError(f"mint.batch_norm_gather_stats_with_counts: mean {m.shape}, invstd {s.shape} and counts "
                         f"{tuple(counts.shape)} must be (world, C), (world, C) and (world,)")
    n = ops.sum(c)
    g_mean = ops.sum(m * c, 0) / n
    var_i = 1.0 / ops.square(s) - eps
    g_var = ops.sum((var_i + ops.square(m)) * c, 0) / n - ops.square(g_mean)
    if running_mean is not None:
        ops.assign(running_mean, running_mean * (1 - momentum) + g_mean * momentum)
    if running_var is not None:
        ops.assign(running_var, running_var * (1 - momentum) + g_var * (n / (n - 1)) * momentum)
    return g_mean, ops.rsqrt(g_var + eps)
