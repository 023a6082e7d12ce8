"""Composite ops: plain Python over primitives (no bprop or kernel of their own) -- activations,
statistics, clamp/masked_fill, normalisation and small linear-algebra helpers."""
from __future__ import annotations

import math

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import elementwise as E
from . import functional as F
from .functional import _as_tensor, _axis_attr, _to_float as _float

__all__ = ["clamp", "clip_by_value", "clip", "masked_fill", "logsumexp", "std", "var", "var_mean", "std_mean",
           "erf", "gelu", "fast_gelu", "silu", "softplus", "leaky_relu", "elu", "relu6", "hardswish", "hardsigmoid",
           "mish", "logsigmoid", "dense", "flatten", "layer_norm", "batch_norm", "addn", "l2_loss", "bmm",
           "outer", "eye", "tril", "triu", "square_difference", "argmax_with_value", "argmin_with_value",
           "count_nonzero", "isclose", "mm", "baddbmm", "unsqueeze"]


# ---- clamping and masking -------------------------------------------------------------------------
def clamp(input, min=None, max=None):  # noqa: A002
    """Clip to [min, max]; a float bound lifts an int tensor to float32 (MindSpore's promotion)."""
    if min is None and max is None:
        raise ValueError("clamp: at least one of min and max must be given")
    x = _as_tensor(input, "clamp")
    if min is not None:
        x = F.maximum(x, min)
    if max is not None:
        x = F.minimum(x, max)
    return x


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    return clamp(x, clip_value_min, clip_value_max)


clip = clamp


def masked_fill(input_x, mask, value):
    """``input_x`` with ``value`` where ``mask`` is True (the value takes the input's dtype)."""
    x = _as_tensor(input_x, "MaskedFill")
    v = value if isinstance(value, Tensor) else Tensor(value, dtype=x.dtype)
    if v.dtype is not x.dtype:
        v = F.cast(v, x.dtype)
    return F.where(F.cast(mask, mstype.bool_) if isinstance(mask, Tensor) else Tensor(mask, mstype.bool_), v, x)


# ---- statistics -----------------------------------------------------------------------------------
def logsumexp(input, dim, keepdim=False):  # noqa: A002
    """log(sum(exp(x))) along ``dim``, shifted by the (gradient-free) max for stability."""
    x = _float(_as_tensor(input, "logsumexp"))
    shift = F.stop_gradient(F.amax(x, dim, True))
    out = F.add(F.log(F.sum(F.exp(F.sub(x, shift)), dim, True)), shift)
    return out if keepdim else F.squeeze(out, _axis_attr(dim) or None)


def _count(x: Tensor, axis):
    """Elements over ``axis``: an int, or a 0-d tensor read at run time when a dim is symbolic."""
    return F.axes_size(x, axis, x.dtype)


def var(input, axis=None, ddof=0, keepdims=False):  # noqa: A002
    """Variance with ``ddof`` delta degrees of freedom (population variance by default, as MindSpore)."""
    x = _float(_as_tensor(input, "var"))
    if isinstance(ddof, bool):
        ddof = int(ddof)
    centred = F.sub(x, F.mean(x, axis, True))
    total = F.sum(F.square(centred), axis, keepdims)
    n = _count(x, axis)
    return F.div(total, max(n - ddof, 0) if isinstance(n, int) else F.maximum(F.sub(n, ddof), 0.0))


def std(input, axis=None, ddof=0, keepdims=False):  # noqa: A002
    return F.sqrt(var(input, axis, ddof, keepdims))


def var_mean(input, axis=None, ddof=0, keepdims=False):  # noqa: A002
    return var(input, axis, ddof, keepdims), F.mean(_float(_as_tensor(input, "var_mean")), axis, keepdims)


def std_mean(input, axis=None, ddof=0, keepdims=False):  # noqa: A002
    return std(input, axis, ddof, keepdims), F.mean(_float(_as_tensor(input, "std_mean")), axis, keepdims)


def argmax_with_value(x, axis=0, keep_dims=False):
    """``ops.ArgMaxWithValue``: (Int64 index, value)."""
    return F.argmax(x, axis, keep_dims), F.amax(x, axis, keep_dims)


def argmin_with_value(x, axis=0, keep_dims=False):
    return F.cast(F.argmin(x, axis, keep_dims), mstype.int64), F.amin(x, axis, keep_dims)


def count_nonzero(x, axis=(), keep_dims=False, dtype=mstype.int32):
    return F.cast(F.sum(F.cast(F.not_equal(x, 0), mstype.int32), None if axis == () else axis, keep_dims), dtype)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    close = F.less_equal(F.abs(F.sub(input, other)), F.add(F.mul(F.abs(other), rtol), atol))
    if equal_nan:
        close = F.logical_or(close, F.logical_and(F.isnan(input), F.isnan(other)))
    return close


# ---- activations ----------------------------------------------------------------------------------
def _float_input(x, op: str) -> Tensor:
    t = _as_tensor(x, op)
    if not t.dtype.is_float:
        raise TypeError(f"{op}: the input dtype must be float16, float32 or float64, but got {t.dtype}")
    return t


def erf(input):  # noqa: A002
    return bind(E.ERF, (_float(_as_tensor(input, "Erf")),), {})


def gelu(input, approximate="none"):  # noqa: A002
    """GELU: x * Phi(x) exactly (``approximate='none'``, via erf) or with the tanh approximation."""
    x = _float_input(input, "gelu")
    if approximate == "none":
        return F.mul(F.mul(x, 0.5), F.add(erf(F.mul(x, 1 / math.sqrt(2.0))), 1.0))
    if approximate != "tanh":
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    inner = F.mul(F.add(x, F.mul(F.mul(F.square(x), x), 0.044715)), math.sqrt(2.0 / math.pi))
    return F.mul(F.mul(x, 0.5), F.add(F.tanh(inner), 1.0))


def fast_gelu(x):
    """MindSpore's FastGeLU: x / (1 + exp(-1.702|x|)) * exp(0.851 (x - |x|))."""
    x = _float_input(x, "fast_gelu")
    ax = F.abs(x)
    return F.mul(F.div(x, F.add(F.exp(F.mul(ax, -1.702)), 1.0)), F.exp(F.mul(F.sub(x, ax), 0.851)))


def silu(input):  # noqa: A002
    x = _float_input(input, "silu")
    return F.mul(x, F.sigmoid(x))


def softplus(input, beta=1, threshold=20):  # noqa: A002
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold."""
    x = _float_input(input, "softplus")
    bx = F.mul(x, beta) if beta != 1 else x
    # relu(bx) + log1p(exp(-|bx|)): no overflow for large |bx|. Both pieces are split at bx >= 0 with `where`
    # (not relu/abs, whose gradient at 0 is 0) so the derivative at 0 is sigmoid(0) = 0.5, as everywhere else.
    nonneg = F.greater_equal(bx, 0)
    stable = F.add(F.log1p(F.exp(F.where(nonneg, F.neg(bx), bx))), F.where(nonneg, bx, 0.0))
    soft = F.div(stable, beta) if beta != 1 else stable
    return F.where(F.greater(bx, threshold), x, soft)


def leaky_relu(input, alpha=0.2):  # noqa: A002
    x = _as_tensor(input, "leaky_relu")
    return F.where(F.greater(x, 0), x, F.mul(x, alpha))


def elu(input_x, alpha=1.0):
    x = _float_input(input_x, "elu")
    return F.where(F.greater(x, 0), x, F.mul(F.expm1(F.minimum(x, 0.0)), alpha))


def relu6(x):
    return F.minimum(F.relu(_as_tensor(x, "relu6")), 6)


def hardsigmoid(input):  # noqa: A002
    return F.div(relu6(F.add(_as_tensor(input, "hardsigmoid"), 3)), 6)


def hardswish(input):  # noqa: A002
    x = _as_tensor(input, "hardswish")
    return F.mul(x, hardsigmoid(x))


def mish(x):
    x = _float_input(x, "mish")
    return F.mul(x, F.tanh(softplus(x)))


def logsigmoid(x):
    return F.neg(softplus(F.neg(_float_input(x, "logsigmoid"))))


# ---- layers as functions --------------------------------------------------------------------------
def dense(input, weight, bias=None):  # noqa: A002
    """x @ weight.T (+ bias): MindSpore's ``ops.dense`` (weight is (out, in))."""
    out = F.matmul(input, weight, transpose_b=True) if _as_tensor(weight, "dense").ndim == 2 else F.matmul(input,
                                                                                                          weight)
    return out if bias is None else F.add(out, bias)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):  # noqa: A002
    """Merge axes start_dim..end_dim (MindSpore's ``ops.flatten`` keeps the batch axis by default)."""
    if order != "C":
        raise ValueError(f"flatten: only order='C' is supported, got {order!r}")
    x = _as_tensor(input, "flatten")
    if x.ndim == 0:
        return F.reshape(x, (1,))
    s, e = start_dim % x.ndim, end_dim % x.ndim
    if s > e:
        raise ValueError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for rank {x.ndim}")
    return F.reshape(x, tuple(x.shape[:s]) + (-1,) + tuple(x.shape[e + 1:]))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):  # noqa: A002
    """Normalise over the trailing ``normalized_shape`` axes, then scale and shift."""
    x = _float_input(input, "layer_norm")
    k = 1 if isinstance(normalized_shape, int) else len(tuple(normalized_shape))
    y, _, _ = layer_norm_stats(x, tuple(range(x.ndim - k, x.ndim)), eps)
    if weight is not None:
        y = F.mul(y, weight)
    if bias is not None:
        y = F.add(y, bias)
    return y


def layer_norm_stats(x: Tensor, axes: tuple, eps: float):
    """(normalised x, mean, variance) with the statistics kept as broadcastable (keepdims) tensors."""
    mean = F.mean(x, axes, True)
    centred = F.sub(x, mean)
    variance = F.mean(F.square(centred), axes, True)
    return F.mul(centred, F.rsqrt(F.add(variance, eps))), mean, variance


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1, eps=1e-5):
    """Batch normalisation over every axis but 1. Training uses the batch statistics and updates the
    running ones in place: running = (1 - momentum) * running + momentum * batch (unbiased variance)."""
    x = _float_input(input_x, "batch_norm")
    axes = tuple(i for i in range(x.ndim) if i != 1)
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if training:
        y, mean, variance = layer_norm_stats(x, axes, eps)
        n = _count(x, axes)
        with _no_grad_updates():
            batch_mean = F.reshape(F.stop_gradient(mean), (x.shape[1],))
            bessel = n / max(n - 1, 1) if isinstance(n, int) else F.div(n, F.maximum(F.sub(n, 1), 1.0))
            unbiased = F.mul(F.reshape(F.stop_gradient(variance), (x.shape[1],)), bessel)
            F.assign(running_mean, F.add(F.mul(running_mean, 1 - momentum), F.mul(batch_mean, momentum)))
            F.assign(running_var, F.add(F.mul(running_var, 1 - momentum), F.mul(unbiased, momentum)))
    else:
        mean, variance = F.reshape(running_mean, shape), F.reshape(running_var, shape)
        y = F.mul(F.sub(x, mean), F.rsqrt(F.add(variance, eps)))
    if weight is not None:
        y = F.mul(y, F.reshape(weight, shape))
    if bias is not None:
        y = F.add(y, F.reshape(bias, shape))
    return y


class _no_grad_updates:
    """Running-statistics updates are not part of the differentiated computation."""

    def __enter__(self):
        from ..core import dispatch

        self._ctx = dispatch.suspend_tapes(dispatch.active_tapes())
        self._ctx.__enter__()

    def __exit__(self, *exc):
        self._ctx.__exit__(*exc)


# ---- small algebra --------------------------------------------------------------------------------
def addn(x):
    items = list(x)
    if not items:
        raise ValueError("addn: needs at least one tensor")
    out = items[0]
    for t in items[1:]:
        out = F.add(out, t)
    return out


def square_difference(x, y):
    return F.square(F.sub(x, y))


def l2_loss(x):
    return F.div(F.sum(F.square(_as_tensor(x, "L2Loss"))), 2)


def bmm(input_x, mat2):
    a, b = _as_tensor(input_x, "BatchMatMul"), _as_tensor(mat2, "BatchMatMul")
    return F.matmul(a, b)


def mm(input, mat2):  # noqa: A002
    return F.matmul(input, mat2)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):  # noqa: A002
    return F.add(F.mul(input, beta), F.mul(F.matmul(batch1, batch2), alpha))


def outer(input, vec2):  # noqa: A002
    a, b = _as_tensor(input, "outer"), _as_tensor(vec2, "outer")
    return F.mul(F.reshape(a, (-1, 1)), F.reshape(b, (1, -1)))


def eye(n, m=None, dtype=None):
    m = n if m is None else m
    return Tensor(np.eye(n, m), dtype=mstype.to_dtype(dtype or mstype.float32))


def _tri(x: Tensor, diagonal: int, lower: bool) -> Tensor:
    rows, cols = x.shape[-2], x.shape[-1]
    keep = np.tri(rows, cols, diagonal, dtype=bool) if lower else ~np.tri(rows, cols, diagonal - 1, dtype=bool)
    return F.where(Tensor(keep), x, F.zeros_like(x))


def tril(input, diagonal=0):  # noqa: A002
    return _tri(_as_tensor(input, "tril"), diagonal, True)


def triu(input, diagonal=0):  # noqa: A002
    return _tri(_as_tensor(input, "triu"), diagonal, False)


def unsqueeze(input, dim):  # noqa: A002
    return F.expand_dims(input, dim)


# ``from mindspore.ops import composite as C`` reaches these too
from ..autodiff.api import GradOperation  # noqa: E402,F401
from .hof import HyperMap, Map, MultitypeFuncGraph, Partial, clip_by_global_norm, depend, partial  # noqa: E402,F401
