"""1-D, 3-D and adaptive pooling as composites over the 2-D MaxPool/AvgPool primitives, matmul and gathers.

Pooling over a box is separable: the max (or sum) over a (kd, kh, kw) window is the max over depth of the max over
(kh, kw), and the counted extent of a clipped window is the product of the per-axis extents. So a 3-D pool is one
2-D pool over (H, W) and one over (D, .); a 1-D pool is a 2-D pool of height 1. Adaptive average pooling is
linear and separable: one matmul per axis with a constant bin-averaging matrix. Adaptive max pooling gathers each
bin (padded by repeating its last element) and keeps the first maximum, so gradients reach that element only."""
from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from .nn_functional import avg_pool_raw, max_pool_raw
from .pool_ops import MAXPOOL_ARGMAX
from ..core.dispatch import bind

__all__ = ["max_pool1d", "avg_pool1d", "max_pool3d", "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
           "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d"]


def _tuple(v, n: int, name: str, op: str, low: int = 1) -> tuple:
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v,) * n
    v = tuple(v) if isinstance(v, (tuple, list)) else v
    if not isinstance(v, tuple) or len(v) not in (1, n) or not all(
            isinstance(i, int) and not isinstance(i, bool) and i >= low for i in v):
        raise ValueError(f"For '{op}', '{name}' must be an int >= {low} or a tuple of {n} of them, but got {v!r}.")
    return v * n if len(v) == 1 else v


# ---- fixed-window pooling ---------------------------------------------------------------------------
def same_pads(sizes, kernel, stride) -> tuple:
    """The (before, after) pairs, flattened, that "same" padding adds to each axis (out = ceil(size / stride))."""
    out = []
    for size, k, s in zip(sizes, kernel, stride):
        total = max((-(-size // s) - 1) * s + k - size, 0)
        out += [total // 2, total - total // 2]
    return tuple(out)


def pool1d_raw(x, kind: str, kernel: int, stride: int, pad_mode: str, pad=0, dilation: int = 1,
               ceil_mode: bool = False, count_include_pad: bool = True, return_indices: bool = False):
    """Max or average pooling of (N, C, L) as a 2-D pool of height 1. Average pooling in "same" mode counts the
    padding when ``count_include_pad`` (MindSpore's AvgPool3D rule; its plain 2-D AvgPool never counts it)."""
    lo, hi = (pad, pad) if isinstance(pad, int) else pad
    if kind == "avg" and pad_mode == "same" and count_include_pad:
        pad_mode, (lo, hi), ceil_mode = "pad", same_pads(x.shape[2:], (kernel,), (stride,)), False
    attrs = {"kernel": (1, kernel), "stride": (1, stride), "dilation": (1, dilation), "pad_mode": pad_mode,
             "pad": (0, 0, lo, hi), "ceil_mode": bool(ceil_mode)}
    x4 = F.expand_dims(x, 2)
    if kind == "max":
        out = F.squeeze(max_pool_raw(x4, **attrs), 2)
        if return_indices:
            return out, F.squeeze(bind(MAXPOOL_ARGMAX, (x4,), attrs), 2)
        return out
    attrs.update(count_include_pad=bool(count_include_pad), divisor=0)
    return F.squeeze(avg_pool_raw(x4, **attrs), 2)


def pool3d_raw(x, kind: str, kernel, stride, pad_mode: str, pad=(0, 0, 0, 0, 0, 0), dilation=(1, 1, 1),
               ceil_mode=False, count_include_pad=True, divisor=0, return_indices=False):
    """Max or average pooling of (N, C, D, H, W): a 2-D pool over (H, W), then one over (D, H*W) columns.
    ``pad`` = (head, tail, top, bottom, left, right); ``divisor`` (average) replaces the window count."""
    n, c, d, h, w = x.shape
    if kind == "avg" and pad_mode == "same" and count_include_pad:  # MindSpore's AvgPool3D counts "same" padding
        pad_mode, pad, ceil_mode = "pad", same_pads((d, h, w), kernel, stride), False
    hw = {"kernel": tuple(kernel[1:]), "stride": tuple(stride[1:]), "dilation": tuple(dilation[1:]),
          "pad_mode": pad_mode, "pad": tuple(pad[2:]), "ceil_mode": bool(ceil_mode)}
    dd = {"kernel": (kernel[0], 1), "stride": (stride[0], 1), "dilation": (dilation[0], 1), "pad_mode": pad_mode,
          "pad": (pad[0], pad[1], 0, 0), "ceil_mode": bool(ceil_mode)}
    x4 = F.reshape(x, (n, c * d, h, w))
    if kind == "avg":
        hw.update(count_include_pad=bool(count_include_pad), divisor=1 if divisor else 0)
        dd.update(count_include_pad=bool(count_include_pad), divisor=int(divisor))
        y = avg_pool_raw(x4, **hw)
        ho, wo = y.shape[2], y.shape[3]
        z = avg_pool_raw(F.reshape(y, (n, c, d, ho * wo)), **dd)
        return F.reshape(z, (n, c, z.shape[2], ho, wo))
    y = max_pool_raw(x4, **hw)
    ho, wo = y.shape[2], y.shape[3]
    y3 = F.reshape(y, (n, c, d, ho * wo))
    z = max_pool_raw(y3, **dd)
    do = z.shape[2]
    out = F.reshape(z, (n, c, do, ho, wo))
    if not return_indices:
        return out
    plane = F.reshape(bind(MAXPOOL_ARGMAX, (x4,), hw), (n, c, d, ho * wo))  # h * W + w of each (H, W) maximum
    depth = F.floor_div(bind(MAXPOOL_ARGMAX, (y3,), dd), ho * wo)  # the depth that won each (D, .) window
    flat = F.add(F.mul(depth, h * w), F.gather_elements(plane, 2, depth))
    return out, F.reshape(flat, (n, c, do, ho, wo))


def max_pool1d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max pooling of (N, C, L) with explicit symmetric padding."""
    t = F._as_tensor(x, "MaxPool1D")
    return pool1d_raw(t, "max", kernel_size, kernel_size if stride is None else stride, "pad", padding, dilation,
                      ceil_mode, return_indices=return_indices)


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True):
    """Average pooling of (N, C, L) with explicit symmetric padding."""
    t = F._as_tensor(input_x, "AvgPool1D")
    return pool1d_raw(t, "avg", kernel_size, stride, "pad", padding, 1, ceil_mode, count_include_pad)


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max pooling of (N, C, D, H, W); ``padding`` an int or (d, h, w), applied on both sides."""
    t = F._as_tensor(x, "MaxPool3D")
    k = _tuple(kernel_size, 3, "kernel_size", "MaxPool3D")
    s = k if stride is None else _tuple(stride, 3, "stride", "MaxPool3D")
    p = _tuple(padding, 3, "padding", "MaxPool3D", low=0)
    return pool3d_raw(t, "max", k, s, "pad", (p[0], p[0], p[1], p[1], p[2], p[2]),
                      _tuple(dilation, 3, "dilation", "MaxPool3D"), ceil_mode, return_indices=return_indices)


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=0):
    """Average pooling of (N, C, D, H, W); ``padding`` an int or 6 (head, tail, top, bottom, left, right)."""
    t = F._as_tensor(input_x, "AvgPool3D")
    pad = (padding,) * 6 if isinstance(padding, int) else tuple(padding)
    return pool3d_raw(t, "avg", _tuple(kernel_size, 3, "kernel_size", "AvgPool3D"),
                      _tuple(stride, 3, "stride", "AvgPool3D"), "pad", pad, (1, 1, 1), ceil_mode, count_include_pad,
                      int(divisor_override or 0))


# ---- adaptive pooling -------------------------------------------------------------------------------
def _bins(size: int, out: int):
    i = np.arange(out)
    return (i * size) // out, -((-(i + 1) * size) // out)  # floor(i L / o), ceil((i + 1) L / o)


def _output_size(x, output_size, n: int, op: str) -> tuple:
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size,) * n
    if not isinstance(output_size, (tuple, list)) or len(output_size) not in (1, n):
        raise ValueError(f"For '{op}', 'output_size' must be an int or a tuple of {n} ints (None keeps a size), but "
                         f"got {output_size!r}.")
    output_size = tuple(output_size) * (n if len(output_size) == 1 else 1)
    sizes = tuple(x.shape[-n:])
    out = []
    for o, s in zip(output_size, sizes):
        if o is None:
            o = s
        if isinstance(o, bool) or not isinstance(o, int) or o <= 0:
            raise ValueError(f"For '{op}', every 'output_size' item must be a positive int or None, but got "
                             f"{output_size!r}.")
        out.append(o)
    return tuple(out)


def _check_rank(x, ranks: tuple, op: str) -> None:
    if x.ndim not in ranks:
        raise ValueError(f"For '{op}', the input must be a tensor of rank {' or '.join(map(str, ranks))}, but got "
                         f"shape {list(x.shape)}.")


def adaptive_avg_pool_nd(x, out: tuple, op: str):
    """Average over each adaptive bin of the last ``len(out)`` axes."""
    if not x.dtype.is_float:
        raise TypeError(f"For '{op}', the input must be a float tensor, but got {x.dtype}.")
    n = len(out)
    sizes = tuple(x.shape[-n:])
    lead = tuple(x.shape[:-n])
    if all(s % o == 0 for s, o in zip(sizes, out)):  # regular bins: a reshape and one mean
        split = tuple(d for s, o in zip(sizes, out) for d in (o, s // o))
        y = F.reshape(x, lead + split)
        return F.mean(y, tuple(len(lead) + 2 * i + 1 for i in range(n)))
    y = x
    for i in range(n - 1, -1, -1):  # one axis at a time, last first: y <- (bins x size) @ y along that axis
        lo, hi = _bins(sizes[i], out[i])
        mat = np.zeros((out[i], sizes[i]), x.dtype.np)
        for j in range(out[i]):
            mat[j, lo[j]:hi[j]] = 1.0 / (hi[j] - lo[j])
        axis = len(lead) + i
        rest = tuple(y.shape[axis + 1:])
        cols = int(np.prod(rest)) if rest else 1
        y2 = F.reshape(y, tuple(y.shape[:axis]) + (sizes[i], cols))
        y = F.reshape(F.matmul(Tensor(mat), y2), tuple(y.shape[:axis]) + (out[i],) + rest)
    return y


def adaptive_max_pool_nd(x, out: tuple, return_indices: bool, op: str):
    """Max over each adaptive bin of the last ``len(out)`` axes; indices are flat in the spatial plane (Int64)."""
    if not x.dtype.is_float:
        raise TypeError(f"For '{op}', the input must be a float tensor, but got {x.dtype}.")
    n = len(out)
    sizes = tuple(x.shape[-n:])
    lead = len(x.shape) - n
    val = x
    idx = None
    if return_indices:
        plane = np.arange(int(np.prod(sizes)), dtype=np.int64).reshape(sizes)
        idx = F.broadcast_to(Tensor(plane), tuple(x.shape))
    for i in range(n - 1, -1, -1):
        lo, hi = _bins(sizes[i], out[i])
        width = int((hi - lo).max())
        table = np.minimum(lo[:, None] + np.arange(width)[None, :], (hi - 1)[:, None]).reshape(-1).astype(np.int32)
        axis = lead + i
        shape = tuple(val.shape)
        split = shape[:axis] + (out[i], width) + shape[axis + 1:]
        g = F.reshape(F.gather(val, Tensor(table), axis), split)
        arg = F.argmax(g, axis + 1, True)
        val = F.squeeze(F.gather_elements(g, axis + 1, arg), axis + 1)
        if idx is not None:
            gi = F.reshape(F.gather(idx, Tensor(table), axis), split)
            idx = F.squeeze(F.gather_elements(gi, axis + 1, arg), axis + 1)
    return (val, idx) if return_indices else val


def adaptive_avg_pool1d(input, output_size):  # noqa: A002
    """MindSpore's ``ops.adaptive_avg_pool1d`` on (N, C, L)."""
    x = F._as_tensor(input, "AdaptiveAvgPool1D")
    _check_rank(x, (3,), "AdaptiveAvgPool1D")
    return adaptive_avg_pool_nd(x, _output_size(x, output_size, 1, "AdaptiveAvgPool1D"), "AdaptiveAvgPool1D")


def adaptive_avg_pool2d(input, output_size):  # noqa: A002
    """MindSpore's ``ops.adaptive_avg_pool2d`` on (C, H, W) or (N, C, H, W); None in output_size keeps a size."""
    x = F._as_tensor(input, "AdaptiveAvgPool2D")
    _check_rank(x, (3, 4), "AdaptiveAvgPool2D")
    return adaptive_avg_pool_nd(x, _output_size(x, output_size, 2, "AdaptiveAvgPool2D"), "AdaptiveAvgPool2D")


def adaptive_avg_pool3d(input, output_size):  # noqa: A002
    """MindSpore's ``ops.adaptive_avg_pool3d`` on (C, D, H, W) or (N, C, D, H, W)."""
    x = F._as_tensor(input, "AdaptiveAvgPool3D")
    _check_rank(x, (4, 5), "AdaptiveAvgPool3D")
    return adaptive_avg_pool_nd(x, _output_size(x, output_size, 3, "AdaptiveAvgPool3D"), "AdaptiveAvgPool3D")


def adaptive_max_pool1d(input, output_size):  # noqa: A002
    x = F._as_tensor(input, "AdaptiveMaxPool1D")
    _check_rank(x, (3,), "AdaptiveMaxPool1D")
    return adaptive_max_pool_nd(x, _output_size(x, output_size, 1, "AdaptiveMaxPool1D"), False, "AdaptiveMaxPool1D")


def adaptive_max_pool2d(input, output_size, return_indices=False):  # noqa: A002
    """MindSpore's ``ops.adaptive_max_pool2d``; with ``return_indices`` also the Int64 argmax in the H*W plane."""
    x = F._as_tensor(input, "AdaptiveMaxPool2D")
    _check_rank(x, (3, 4), "AdaptiveMaxPool2D")
    return adaptive_max_pool_nd(x, _output_size(x, output_size, 2, "AdaptiveMaxPool2D"), bool(return_indices),
                                "AdaptiveMaxPool2D")


def adaptive_max_pool3d(input, output_size, return_indices=False):  # noqa: A002
    x = F._as_tensor(input, "AdaptiveMaxPool3D")
    _check_rank(x, (4, 5), "AdaptiveMaxPool3D")
    return adaptive_max_pool_nd(x, _output_size(x, output_size, 3, "AdaptiveMaxPool3D"), bool(return_indices),
                                "AdaptiveMaxPool3D")

