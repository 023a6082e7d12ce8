"""2-D max and average pooling (NCHW) over strided window views, with their gradient primitives."""
from __future__ import annotations

import numpy as np

from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape, shapes_compatible
from . import conv_loops
from .conv_ops import PAD_MODES, crop, geometry, pad_input, scatter_windows, windows

# Attributes of every pool primitive: kernel=(kh, kw), stride=(sh, sw), dilation=(dh, dw),
# pad_mode in {"valid", "same", "pad"}, pad=(top, bottom, left, right), ceil_mode=bool;
# average pooling adds count_include_pad=bool and divisor=int (0: count the window).


def _pool_type(op, x, kernel, stride, dilation, pad_mode, pad, ceil_mode) -> TensorType:
    if pad_mode not in PAD_MODES:
        raise OpError(f"{op}: pad_mode must be one of {PAD_MODES}, got {pad_mode!r}")
    if x.ndim != 4:
        raise OpError(f"{op}: expects a 4-D NCHW input, got {fmt_shape(x.shape)}")
    if any(not isinstance(v, int) or v < 1 for v in (*kernel, *stride, *dilation)):
        raise OpError(f"{op}: kernel {kernel}, stride {stride} and dilation {dilation} must be positive ints")
    if pad_mode == "pad" and any(2 * p > k for p, k in zip(pad, (kernel[0], kernel[0], kernel[1], kernel[1]))):
        raise OpError(f"{op}: padding {pad} must be at most half the kernel size {kernel}")
    gh, gw = geometry(x.shape[2], x.shape[3], kernel[0], kernel[1], stride, dilation, pad_mode, pad, ceil_mode)
    if (gh[0] is not None and gh[0] <= 0) or (gw[0] is not None and gw[0] <= 0):
        raise OpError(f"{op}: kernel {kernel} is larger than the input {fmt_shape(x.shape)}")
    return TensorType((x.shape[0], x.shape[1], gh[0], gw[0]), x.dtype)


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _checked_geometry(x, kernel, stride, dilation, pad_mode, pad, ceil_mode):
    gh, gw = geometry(x.shape[2], x.shape[3], kernel[0], kernel[1], stride, dilation, pad_mode, pad, ceil_mode)
    if gh[0] <= 0 or gw[0] <= 0:  # the eager path has no infer call: fail here (dispatch asks infer why)
        raise ValueError("empty pooling output")
    return gh, gw


def _max_windows(x, kernel, stride, dilation, pad_mode, pad, ceil_mode):
    gh, gw = _checked_geometry(x, kernel, stride, dilation, pad_mode, pad, ceil_mode)
    xp = pad_input(x, gh, gw, _lowest(x.dtype))
    return windows(xp, kernel[0], kernel[1], stride, dilation, gh[0], gw[0]), xp.shape, gh, gw


def _tiled(x, kernel, stride, dilation, gh, gw) -> bool:
    """Windows tile the input: stride == kernel, no dilation, no padding or overhang."""
    return (tuple(kernel) == tuple(stride) and tuple(dilation) == (1, 1) and gh[1:] == (0, 0, 0)
            and gw[1:] == (0, 0, 0) and x.dtype.kind == "f")


def _taps(x, kernel, ho, wo):
    """The kh*kw strided views (N, C, Ho, Wo) of a tiled pooling, in window order."""
    kh, kw = kernel
    return [x[:, :, i:i + kh * ho:kh, j:j + kw * wo:kw] for i in range(kh) for j in range(kw)]


# ---- max pool -------------------------------------------------------------------------------------
def _maxpool_infer(x, kernel, stride, dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), ceil_mode=False):
    return _pool_type("MaxPool", x, kernel, stride, dilation, pad_mode, pad, ceil_mode)


def _maxpool_impl(x, kernel, stride, dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), ceil_mode=False):
    n, c, h, w = x.shape
    gh, gw = _checked_geometry(x, kernel, stride, dilation, pad_mode, pad, ceil_mode)
    if _tiled(x, kernel, stride, dilation, gh, gw):
        if conv_loops.pool_usable(x, kernel):
            out = np.empty((n, c, gh[0], gw[0]), x.dtype)
            conv_loops.max_pool2(np.ascontiguousarray(x), out)
            return out
        # non-overlapping windows: an elementwise maximum over the kh*kw strided taps (no reduction)
        taps = _taps(x, kernel, gh[0], gw[0])
        out = np.maximum(taps[0], taps[1]) if len(taps) > 1 else taps[0].copy()
        for t in taps[2:]:
            np.maximum(out, t, out=out)
        return out
    view = _max_windows(x, kernel, stride, dilation, pad_mode, pad, ceil_mode)[0]
    return view.max(axis=(2, 3))


def _argmax_positions(x, kernel, stride, dilation, pad_mode, pad, ceil_mode):
    """Row and column (in padded coordinates) of each window's first maximum, and the geometry."""
    view, padded_shape, gh, gw = _max_windows(x, kernel, stride, dilation, pad_mode, pad, ceil_mode)
    n, c, kh, kw, ho, wo = view.shape
    flat = view.transpose(0, 1, 4, 5, 2, 3).reshape(n, c, ho, wo, kh * kw)
    arg = flat.argmax(axis=-1)
    rows = np.arange(ho)[:, None] * stride[0] + (arg // kw) * dilation[0]
    cols = np.arange(wo)[None, :] * stride[1] + (arg % kw) * dilation[1]
    return rows, cols, padded_shape, gh, gw


def _maxpool_bprop(x, out, dout, **attrs):
    return (F.max_pool_grad(x, dout, **attrs),)


MAXPOOL = register(Op("MaxPool", _maxpool_impl, _maxpool_infer, _maxpool_bprop, "opaque", fresh_output=True))


def _maxpool_grad_infer(x, dout, **attrs):
    expected = _maxpool_infer(x, **attrs)
    if not shapes_compatible(dout.shape, expected.shape):
        raise OpError(f"MaxPoolGrad: dout {fmt_shape(dout.shape)} does not match the pool output "
                      f"{fmt_shape(expected.shape)}")
    return TensorType(x.shape, x.dtype)


def _maxpool_grad_impl(x, dout, **attrs):
    gh, gw = _checked_geometry(x, attrs["kernel"], attrs["stride"], attrs.get("dilation", (1, 1)),
                               attrs.get("pad_mode", "valid"), attrs.get("pad", (0, 0, 0, 0)),
                               attrs.get("ceil_mode", False))
    if _tiled(x, attrs["kernel"], attrs["stride"], attrs.get("dilation", (1, 1)), gh, gw):
        # route dout to each window's first maximum, tap by tap (ties go to the earliest tap)
        (kh, kw), (ho, wo) = attrs["kernel"], (gh[0], gw[0])
        exact = x.shape[2] == kh * ho and x.shape[3] == kw * wo  # the taps cover every input position
        if dout.dtype == x.dtype and conv_loops.pool_usable(x, attrs["kernel"]):
            grad = (np.empty if exact else np.zeros)(x.shape, dout.dtype)
            conv_loops.max_pool2_grad(np.ascontiguousarray(x), dout, grad)
            return grad
        finite = bool(np.isfinite(dout).all())  # else dout * hit would give inf * 0 = NaN off the maximum
        grad = (np.empty if exact and finite else np.zeros)(x.shape, dout.dtype)
        taps = _taps(x, attrs["kernel"], ho, wo)
        best = taps[0].copy()
        for t in taps[1:]:
            np.maximum(best, t, out=best)
        gtaps = _taps(grad, attrs["kernel"], ho, wo)
        free = None  # windows not yet routed (None: all of them)
        for k, (t, g) in enumerate(zip(taps, gtaps)):
            hit = t == best
            if free is not None:
                hit &= free
            if finite:
                np.multiply(dout, hit, out=g)
            else:
                np.copyto(g, dout, where=hit)
            if k + 1 < len(taps):
                if free is None:
                    free = ~hit
                else:
                    free ^= hit  # hit is a subset of free
        return grad
    rows, cols, padded_shape, gh, gw = _argmax_positions(x, **attrs)
    n, c, hp, wp = padded_shape
    plane = (np.arange(n * c).reshape(n, c, 1, 1)) * (hp * wp)
    flat = (plane + rows * wp + cols).ravel()
    grad = np.bincount(flat, weights=dout.ravel(), minlength=n * c * hp * wp).astype(x.dtype, copy=False)
    return np.ascontiguousarray(crop(grad.reshape(padded_shape), gh, gw, x.shape[2], x.shape[3]))


def _maxpool_grad_bprop(x, dout, out, g, **attrs):
    # the gradient routes dout to the argmax positions: d/d(dout) gathers g from the same positions
    return None, F.max_pool_grad_grad(x, g, **attrs)


MAXPOOL_GRAD = register(Op("MaxPoolGrad", _maxpool_grad_impl, _maxpool_grad_infer, _maxpool_grad_bprop, "opaque",
                           fresh_output=True))


def _maxpool_gg_impl(x, g, **attrs):
    rows, cols, _, gh, gw = _argmax_positions(x, **attrs)
    n, c = x.shape[:2]
    gp = pad_input(g, gh, gw)
    return gp[np.arange(n)[:, None, None, None], np.arange(c)[None, :, None, None], rows, cols]


def _maxpool_gg_bprop(x, g, out, d, **attrs):
    return None, F.max_pool_grad(x, d, **attrs)


MAXPOOL_GRAD_GRAD = register(Op("MaxPoolGradGrad", _maxpool_gg_impl, lambda x, g, **a: _maxpool_infer(x, **a),
                                _maxpool_gg_bprop, "opaque"))


def _argmax_infer(x, **attrs):
    from .. import dtype as mstype

    return TensorType(_maxpool_infer(x, **attrs).shape, mstype.int64)


def _argmax_impl(x, **attrs):
    """Index of each window's maximum in its unpadded H*W plane (``max_pool2d(return_indices=True)``)."""
    rows, cols, _, gh, gw = _argmax_positions(x, **attrs)
    return ((rows - gh[1]) * x.shape[3] + (cols - gw[1])).astype(np.int64)


MAXPOOL_ARGMAX = register(Op("MaxPoolArgmax", _argmax_impl, _argmax_infer,
                             lambda x, out, d, **attrs: (None,), "opaque"))


# ---- average pool ---------------------------------------------------------------------------------
def _avg_infer(x, kernel, stride, dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), ceil_mode=False,
               count_include_pad=True, divisor=0):
    if not x.dtype.is_float:
        raise OpError(f"AvgPool: expects a float tensor, got {x.dtype}")
    return _pool_type("AvgPool", x, kernel, stride, dilation, pad_mode, pad, ceil_mode)


def _counts(size, g, k, s, d, include_pad):
    """How many of each window's k taps land inside the counted range (input, or input + padding)."""
    out, lo, hi, _ = g
    starts = np.arange(out) * s - lo
    taps = starts[:, None] + np.arange(k)[None, :] * d
    low, high = (-lo, size + hi) if include_pad else (0, size)
    return ((taps >= low) & (taps < high)).sum(axis=1)


def _divisor(x_shape, kernel, stride, dilation, pad_mode, pad, ceil_mode, count_include_pad, divisor, dtype):
    h, w = x_shape[2], x_shape[3]
    gh, gw = geometry(h, w, kernel[0], kernel[1], stride, dilation, pad_mode, pad, ceil_mode)
    if divisor:
        return np.asarray(divisor, dtype), gh, gw
    include = count_include_pad and pad_mode == "pad"  # "same" padding is never counted (TF/MindSpore rule)
    ch = _counts(h, gh, kernel[0], stride[0], dilation[0], include)
    cw = _counts(w, gw, kernel[1], stride[1], dilation[1], include)
    return (ch[:, None] * cw[None, :]).astype(dtype), gh, gw


def _avg_impl(x, kernel, stride, dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), ceil_mode=False,
              count_include_pad=True, divisor=0):
    _checked_geometry(x, kernel, stride, dilation, pad_mode, pad, ceil_mode)
    div, gh, gw = _divisor(x.shape, kernel, stride, dilation, pad_mode, pad, ceil_mode, count_include_pad,
                           divisor, x.dtype)
    view = windows(pad_input(x, gh, gw), kernel[0], kernel[1], stride, dilation, gh[0], gw[0])
    return (view.sum(axis=(2, 3)) / div).astype(x.dtype, copy=False)


def _avg_bprop(x, out, dout, **attrs):
    return (F.avg_pool_grad(dout, x.shape, **attrs),)


AVGPOOL = register(Op("AvgPool", _avg_impl, _avg_infer, _avg_bprop, "opaque"))


def _avg_grad_infer(dout, input_shape, **attrs):
    x = TensorType(tuple(input_shape), dout.dtype)
    expected = _avg_infer(x, **attrs)
    if not shapes_compatible(dout.shape, expected.shape):
        raise OpError(f"AvgPoolGrad: dout {fmt_shape(dout.shape)} does not match the pool output "
                      f"{fmt_shape(expected.shape)}")
    return x


def _avg_grad_impl(dout, input_shape, kernel, stride, dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0),
                   ceil_mode=False, count_include_pad=True, divisor=0):
    if input_shape[0] is None:  # a symbolic batch (jit dynamic shapes): dout's batch
        input_shape = (dout.shape[0],) + tuple(input_shape[1:])
    div, gh, gw = _divisor(input_shape, kernel, stride, dilation, pad_mode, pad, ceil_mode, count_include_pad,
                           divisor, dout.dtype)
    share = dout / div
    ho, wo = gh[0], gw[0]
    n, c, h, w = input_shape
    cols = np.broadcast_to(share[:, :, None, None], (n, c, kernel[0], kernel[1], ho, wo))
    padded = (n, c, h + gh[1] + gh[2] + gh[3], w + gw[1] + gw[2] + gw[3])
    grad = scatter_windows(cols, padded, stride, dilation, ho, wo)
    return np.ascontiguousarray(crop(grad, gh, gw, h, w)).astype(dout.dtype, copy=False)


def _avg_grad_bprop(dout, out, g, input_shape, **attrs):
    return (F.avg_pool_raw(g, **attrs),)  # linear, and AvgPool is its adjoint


AVGPOOL_GRAD = register(Op("AvgPoolGrad", _avg_grad_impl, _avg_grad_infer, _avg_grad_bprop, "opaque"))

from . import nn_functional as F  # noqa: E402
