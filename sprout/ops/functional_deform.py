"""ops.deformable_conv2d (Deformable ConvNets v2) as a composite: every kernel tap of every output position is
sampled bilinearly at its offset position (one gather per cell corner), scaled by its mask, laid out as MindSpore's
DeformableOffsets feature map (N, C, oh * kh, ow * kw) and convolved with stride = kernel."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .nn_functional import conv2d_raw

__all__ = ["deformable_conv2d"]

_OP = "deformable_conv2d"


def _tuple(v, n: int, name: str, nc_ones: bool = False) -> tuple:
    if not isinstance(v, (tuple, list)) or not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        raise TypeError(f"For '{_OP}', the '{name}' must be a tuple of {n} ints, but got {v!r}.")
    if len(v) != n:
        raise ValueError(f"For '{_OP}', the '{name}' must have {n} elements, but got {tuple(v)}.")
    if nc_ones and tuple(v[:2]) != (1, 1):
        raise ValueError(f"For '{_OP}', the N and C dimensions of '{name}' must be 1, but got {tuple(v)}.")
    return tuple(v)


def _positive(v, name: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"For '{_OP}', the '{name}' must be an int, but got {type(v).__name__}.")
    if v <= 0:
        raise ValueError(f"For '{_OP}', the '{name}' must be positive, but got {v}.")
    return v


def deformable_offsets(x, offsets, kernel, stride, pad, dilation, deformable_groups, op=_OP):
    """MindSpore's DeformableOffsets: (N, C, oh * kh, ow * kw), tap (i, j) of output (y, z) at row y * kh + i and
    column z * kw + j, sampled at (y s0 - top + i d0 + dy, z s1 - left + j d1 + dx) bilinearly (zero outside the
    image) and multiplied by its mask; offsets' channels are (x offsets, y offsets, masks), each (group, i, j)."""
    n, c, h, w = x.shape
    kh, kw = kernel
    taps, dg = kh * kw, deformable_groups
    oh = (h + pad[0] + pad[1] - (kh - 1) * dilation[0] - 1) // stride[0] + 1
    ow = (w + pad[2] + pad[3] - (kw - 1) * dilation[1] - 1) // stride[1] + 1
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For '{op}', the kernel {kernel} does not fit the padded input {list(x.shape)}.")
    if tuple(offsets.shape) != (n, 3 * dg * taps, oh, ow):
        raise ValueError(f"For '{op}', the 'offsets' must have shape {[n, 3 * dg * taps, oh, ow]}, but got "
                         f"{list(offsets.shape)}.")
    off = F.reshape(offsets, (n, 3, dg, taps, oh, ow))
    dx, dy, mask = off[:, 0], off[:, 1], off[:, 2]              # (N, dg, K, oh, ow)
    ii, jj = np.divmod(np.arange(taps), kw)
    base_y = (np.arange(oh)[None, :, None] * stride[0] - pad[0] + ii[:, None, None] * dilation[0])  # (K, oh, 1)
    base_x = (np.arange(ow)[None, None, :] * stride[1] - pad[2] + jj[:, None, None] * dilation[1])  # (K, 1, ow)
    py = F.add(dy, Tensor(base_y.astype(x.dtype.np)))
    px = F.add(dx, Tensor(base_x.astype(x.dtype.np)))
    y0, x0 = F.floor(py), F.floor(px)
    fy, fx = F.sub(py, y0), F.sub(px, x0)
    cg = c // dg
    plane = F.reshape(x, (n, dg, cg, h * w))
    pts = taps * oh * ow
    out = None
    for cy, cx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        yy, xx = (F.add(y0, 1.0) if cy else y0), (F.add(x0, 1.0) if cx else x0)
        inside = F.logical_and(F.logical_and(F.greater_equal(yy, 0.0), F.less_equal(yy, float(h - 1))),
                               F.logical_and(F.greater_equal(xx, 0.0), F.less_equal(xx, float(w - 1))))
        flat = F.add(F.mul(F.cast(F.clamp(yy, 0.0, float(h - 1)), mstype.int64), w),
                     F.cast(F.clamp(xx, 0.0, float(w - 1)), mstype.int64))
        idx = F.broadcast_to(F.reshape(flat, (n, dg, 1, pts)), (n, dg, cg, pts))
        vals = F.reshape(F.gather_elements(plane, 3, idx), (n, dg, cg, taps, oh, ow))
        wt = F.mul(F.mul(fy if cy else F.sub(1.0, fy), fx if cx else F.sub(1.0, fx)), F.cast(inside, x.dtype))
        term = F.mul(vals, F.expand_dims(wt, 2))
        out = term if out is None else F.add(out, term)
    out = F.mul(out, F.expand_dims(mask, 2))                    # (N, dg, cg, K, oh, ow)
    out = F.reshape(out, (n, c, kh, kw, oh, ow))
    return F.reshape(F.transpose(out, (0, 1, 4, 2, 5, 3)), (n, c, oh * kh, ow * kw))


def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None, dilations=(1, 1, 1, 1), groups=1,
                      deformable_groups=1, modulated=True):
    """Deformable 2-D convolution (v2, modulated) of NCHW ``x`` by ``weight`` (C_out, C_in / groups, kh, kw);
    ``offsets`` (N, 3 * deformable_groups * kh * kw, oh, ow) holds x offsets, y offsets and masks."""
    kernel = _tuple(kernel_size, 2, "kernel_size")
    stride = _tuple(strides, 4, "strides", nc_ones=True)[2:]
    pad = _tuple(padding, 4, "padding")
    dil = _tuple(dilations, 4, "dilations", nc_ones=True)[2:]
    _positive(groups, "groups")
    _positive(deformable_groups, "deformable_groups")
    if not isinstance(modulated, bool):
        raise TypeError(f"For '{_OP}', the 'modulated' must be a bool, but got {type(modulated).__name__}.")
    if not modulated:
        raise ValueError(f"For '{_OP}', the 'modulated' must be True (only v2 is supported), but got False.")
    for name, t in (("x", x), ("weight", weight), ("offsets", offsets)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{_OP}', the '{name}' must be a Tensor, but got {type(t).__name__}.")
        if t.ndim != 4:
            raise ValueError(f"For '{_OP}', the '{name}' must be 4-D, but got shape {list(t.shape)}.")
        if t.dtype not in (mstype.float16, mstype.float32, mstype.float64) or t.dtype != x.dtype:
            raise TypeError(f"For '{_OP}', the '{name}' must be a float16/float32 Tensor of x's dtype, but got "
                            f"{t.dtype}.")
    if any(p < 0 for p in pad) or min(stride + dil + kernel) <= 0:
        raise ValueError(f"For '{_OP}', padding must be >= 0 and kernel, strides, dilations positive, but got "
                         f"{pad}, {kernel}, {stride}, {dil}.")
    c = x.shape[1]
    if c % deformable_groups or c % groups or weight.shape[0] % groups:
        raise ValueError(f"For '{_OP}', the input channels {c} must be divisible by deformable_groups "
                         f"({deformable_groups}) and groups ({groups}), the output channels {weight.shape[0]} by "
                         f"groups.")
    if tuple(weight.shape[1:]) != (c // groups,) + kernel:
        raise ValueError(f"For '{_OP}', the 'weight' must have shape [C_out, {c // groups}, {kernel[0]}, "
                         f"{kernel[1]}], but got {list(weight.shape)}.")
    fm = deformable_offsets(x, offsets, kernel, stride, pad, dil, deformable_groups)
    out = conv2d_raw(fm, weight, stride=kernel, dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), groups=groups)
    return out if bias is None else F.bias_add(out, bias)
