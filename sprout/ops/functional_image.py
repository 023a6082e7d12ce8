"""Image functions as composites: resizing (interpolate/upsample and the Resize* primitives' semantics) as one
constant interpolation matrix per axis (linear, cubic and area resizing are linear maps; nearest is a gather),
pixel (un)shuffle, grid sampling, affine grids, crop-and-resize, space/batch moves, fold/unfold, max-unpooling,
Lp pooling and local response normalisation. Gradients come from matmul/gather."""
from __future__ import annotations

import math

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .functional import _as_tensor

__all__ = ["interpolate", "upsample", "resize_nearest_neighbor", "resize_linear", "pixel_shuffle",
           "pixel_unshuffle", "grid_sample", "affine_grid", "crop_and_resize", "batch_to_space_nd",
           "space_to_batch_nd", "unfold", "fold", "max_unpool1d", "max_unpool2d", "max_unpool3d", "lp_pool1d",
           "lp_pool2d", "lrn", "l2_normalize"]


# ---- per-axis interpolation ----------------------------------------------------------------------------------
def _source(out_size: int, in_size: int, scale: float | None, mode: str) -> np.ndarray:
    """Source coordinate of every output index. ``mode``: 'align_corners', 'half_pixel', 'asymmetric'
    (dst * scale), 'pytorch_half_pixel' (half_pixel, 0 for a single output)."""
    dst = np.arange(out_size, dtype=np.float64)
    if mode == "align_corners":
        return dst * ((in_size - 1) / (out_size - 1)) if out_size > 1 else np.zeros(out_size)
    s = in_size / out_size if scale is None else 1.0 / scale
    if mode == "asymmetric":
        return dst * s
    return (dst + 0.5) * s - 0.5


def _linear_matrix(in_size, out_size, scale, mode, clamp_low=True):
    src = _source(out_size, in_size, scale, mode)
    if clamp_low:
        src = np.maximum(src, 0.0)
    lo = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    hi = np.minimum(lo + 1, in_size - 1)
    w = np.clip(src - lo, 0.0, 1.0)
    m = np.zeros((out_size, in_size))
    np.add.at(m, (np.arange(out_size), lo), 1 - w)
    np.add.at(m, (np.arange(out_size), hi), w)
    return m


_CUBIC_TABLE = 1024


def _keys(d, a):
    d = np.abs(d)
    return np.where(d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                    np.where(d < 2, ((a * d - 5 * a) * d + 8 * a) * d - 4 * a, 0.0))


def _cubic_matrix(in_size, out_size, scale, mode):
    """Keys' cubic convolution as MindSpore's (TensorFlow's) ResizeBicubic computes it: with half-pixel centres
    a = -0.5 and taps outside the image dropped (the rest renormalised); otherwise a = -0.75 and taps clamped to
    the border. Either way the weights come from a 1024-entry table of the fractional offset."""
    src = _source(out_size, in_size, scale, mode)
    base = np.floor(src).astype(np.int64)
    t = src - base
    rows = np.arange(out_size)
    m = np.zeros((out_size, in_size))
    q = np.rint(t * _CUBIC_TABLE) / _CUBIC_TABLE
    if mode == "half_pixel":
        weights, idxs = [], []
        for k in range(-1, 3):
            idx = base + k
            weights.append(np.where((idx >= 0) & (idx < in_size), _keys(q - k, -0.5), 0.0))
            idxs.append(np.clip(idx, 0, in_size - 1))
        total = np.sum(weights, axis=0)
        for w, idx in zip(weights, idxs):
            np.add.at(m, (rows, idx), w / total)
        return m
    for k in range(-1, 3):
        np.add.at(m, (rows, np.clip(base + k, 0, in_size - 1)), _keys(q - k, -0.75))
    return m


def _area_matrix(in_size, out_size):
    m = np.zeros((out_size, in_size))
    for j in range(out_size):
        lo = (j * in_size) // out_size
        hi = -((-(j + 1) * in_size) // out_size)
        m[j, lo:hi] = 1.0 / (hi - lo)
    return m


def _nearest_index(in_size, out_size, scale, mode):
    """Source index of every output for nearest resizing: floor(dst * s) ('asymmetric'), floor((dst + .5) * s)
    ('half_pixel'/'nearest-exact'), or round(dst * (in - 1) / (out - 1)) ('align_corners')."""
    dst = np.arange(out_size, dtype=np.float64)
    if mode == "align_corners":
        src = np.round(dst * ((in_size - 1) / (out_size - 1))) if out_size > 1 else np.zeros(out_size)
    else:
        s = in_size / out_size if scale is None else 1.0 / scale
        src = np.floor((dst + 0.5) * s if mode == "half_pixel" else dst * s)
    return np.minimum(src.astype(np.int64), in_size - 1).astype(np.int32)


def _apply_axis(x, axis: int, matrix: np.ndarray):
    """x with ``axis`` mapped by ``matrix`` (out, in): a matmul over the axis moved last."""
    moved = F.moveaxis(x, axis, -1)
    y = F.matmul(moved, Tensor(matrix.T.astype(x.dtype.np)))
    return F.moveaxis(y, -1, axis)


def _resize(x, sizes, scales, kind: str, mode: str):
    """Resize the trailing len(sizes) axes of ``x``; kind in nearest/linear/cubic/area."""
    lead = x.ndim - len(sizes)
    for k, (out, scale) in enumerate(zip(sizes, scales)):
        axis = lead + k
        n = x.shape[axis]
        if out == n and kind != "area" and mode != "align_corners" and (scale is None or scale == 1):
            continue
        if kind == "nearest":
            x = F.gather(x, Tensor(_nearest_index(n, out, scale, mode)), axis)
        elif kind == "linear":
            x = _apply_axis(x, axis, _linear_matrix(n, out, scale, mode))
        elif kind == "cubic":
            x = _apply_axis(x, axis, _cubic_matrix(n, out, scale, mode))
        else:
            x = _apply_axis(x, axis, _area_matrix(n, out))
    return x


_MODES = {"nearest": ("nearest", 1), "nearest-exact": ("nearest", 1), "linear": ("linear", 1),
          "bilinear": ("linear", 2), "bicubic": ("cubic", 2), "trilinear": ("linear", 3), "area": ("area", None)}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,  # noqa: A002
                recompute_scale_factor=None):
    """Resize the spatial axes (after N, C): ``size`` or ``scale_factor`` (exactly one), modes nearest,
    nearest-exact, linear (3-D input), bilinear/bicubic (4-D), trilinear (5-D), area (any)."""
    x = _as_tensor(input, "interpolate")
    if mode not in _MODES:
        raise ValueError(f"interpolate: mode must be one of {sorted(_MODES)}, got {mode!r}")
    kind, rank = _MODES[mode]
    nsp = x.ndim - 2
    if nsp < 1 or (rank is not None and mode not in ("nearest", "nearest-exact") and nsp != rank):
        raise ValueError(f"interpolate: mode {mode!r} expects a {(rank or 1) + 2}-D input, got shape {list(x.shape)}")
    if (size is None) == (scale_factor is None):
        raise ValueError("interpolate: give exactly one of size and scale_factor")
    if align_corners is not None and kind not in ("linear", "cubic"):
        raise ValueError(f"interpolate: align_corners applies to linear/bilinear/bicubic/trilinear, not {mode!r}")
    if kind in ("linear", "cubic", "area") and not x.dtype.is_float:
        raise TypeError(f"interpolate: mode {mode!r} needs a float input, got {x.dtype}")
    if mode == "nearest-exact" and nsp > 2:
        raise ValueError("interpolate: nearest-exact supports 3-D and 4-D inputs only (as MindSpore 2.10)")
    if scale_factor is not None and not recompute_scale_factor and nsp <= 2 and not (kind == "area" and nsp == 2):
        raise ValueError(f"interpolate: with mode {mode!r} on a {x.ndim}-D input, scale_factor needs "
                         "recompute_scale_factor=True (MindSpore 2.10 refuses it otherwise); or give size")
    spatial = tuple(x.shape[2:])
    if size is not None:
        sizes = (size,) * nsp if isinstance(size, int) else tuple(int(s) for s in size)
        scales = (None,) * nsp
    else:
        fs = (scale_factor,) * nsp if isinstance(scale_factor, (int, float)) else tuple(scale_factor)
        sizes = tuple(int(math.floor(d * f)) for d, f in zip(spatial, fs))
        scales = (None,) * nsp if recompute_scale_factor else tuple(float(f) for f in fs)
    if len(sizes) != nsp or any(s <= 0 for s in sizes):
        raise ValueError(f"interpolate: the output size {sizes} must have {nsp} positive entries")
    if kind == "nearest":
        coord = "half_pixel" if mode == "nearest-exact" else "asymmetric"
    else:
        coord = "align_corners" if align_corners else "half_pixel"
    return _resize(x, sizes, scales, kind, coord)


upsample = interpolate


def resize_nearest_neighbor(x, size, align_corners=False, half_pixel_centers=False):
    """ResizeNearestNeighbor semantics over the last two axes (NCHW)."""
    t = _as_tensor(x, "ResizeNearestNeighbor")
    mode = "align_corners" if align_corners else "half_pixel" if half_pixel_centers else "asymmetric"
    return _resize(t, tuple(int(s) for s in size), (None, None), "nearest", mode)


def resize_linear(x, size, align_corners=False, half_pixel_centers=False, kind="linear"):
    """ResizeBilinearV2 / ResizeBicubic semantics over the trailing axes: align_corners, half-pixel
    centres, or TensorFlow's legacy dst * scale."""
    t = _as_tensor(x, "ResizeBilinear")
    if not t.dtype.is_float:
        raise TypeError(f"ResizeBilinear: expects a float tensor, got {t.dtype}")
    mode = "align_corners" if align_corners else "half_pixel" if half_pixel_centers else "asymmetric"
    sizes = tuple(int(s) for s in size)
    return _resize(t, sizes, (None,) * len(sizes), kind, mode)


# ---- pixel shuffle, space/batch ---------------------------------------------------------------------------------
def pixel_shuffle(input, upscale_factor):  # noqa: A002
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""
    x = _as_tensor(input, "pixel_shuffle")
    r = int(upscale_factor)
    if x.ndim < 3 or r < 1 or x.shape[-3] % (r * r):
        raise ValueError(f"pixel_shuffle: the channels of {list(x.shape)} must divide by upscale_factor^2 ({r * r})")
    *lead, c, h, w = x.shape
    y = F.reshape(x, (-1, c // (r * r), r, r, h, w))
    y = F.transpose(y, (0, 1, 4, 2, 5, 3))
    return F.reshape(y, tuple(lead) + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):  # noqa: A002
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""
    x = _as_tensor(input, "pixel_unshuffle")
    r = int(downscale_factor)
    if x.ndim < 3 or r < 1 or x.shape[-1] % r or x.shape[-2] % r:
        raise ValueError(f"pixel_unshuffle: height and width of {list(x.shape)} must divide by {r}")
    *lead, c, h, w = x.shape
    y = F.reshape(x, (-1, c, h // r, r, w // r, r))
    y = F.transpose(y, (0, 1, 3, 5, 2, 4))
    return F.reshape(y, tuple(lead) + (c * r * r, h // r, w // r))


def space_to_batch_nd(input_x, block_size, paddings):
    """Pad the trailing spatial axes (NCHW: H, W), then move each block offset into the batch:
    (N, C, H, W) -> (b0 b1 N, C, H / b0, W / b1), batch index = offset * N + n."""
    x = _as_tensor(input_x, "SpaceToBatchND")
    m = len(block_size) if isinstance(block_size, (tuple, list)) else x.ndim - 2
    bs = [int(block_size)] * m if isinstance(block_size, int) else [int(b) for b in block_size]
    pads = [tuple(int(v) for v in p) for p in (paddings.asnumpy().tolist() if isinstance(paddings, Tensor)
                                                else paddings)]
    lead = x.ndim - m
    x = F.pad_raw(x, ((0, 0),) * lead + tuple(pads))
    n = x.shape[0]
    mid = tuple(x.shape[1:lead])
    spatial = tuple(x.shape[lead:])
    if any(s % b for s, b in zip(spatial, bs)):
        raise ValueError(f"SpaceToBatchND: padded spatial sizes {spatial} must divide by block {bs}")
    y = F.reshape(x, (n,) + mid + tuple(v for s, b in zip(spatial, bs) for v in (s // b, b)))
    k = len(mid)
    perm = tuple(2 + k + 2 * i for i in range(m)) + (0,) + tuple(range(1, 1 + k)) + tuple(
        1 + k + 2 * i for i in range(m))
    y = F.transpose(y, perm)
    return F.reshape(y, (n * int(np.prod(bs)),) + mid + tuple(s // b for s, b in zip(spatial, bs)))


def batch_to_space_nd(input_x, block_shape, crops):
    """The inverse of space_to_batch_nd: block offsets leave the batch, then ``crops`` trims each spatial axis."""
    x = _as_tensor(input_x, "BatchToSpaceND")
    m = len(block_shape) if isinstance(block_shape, (tuple, list)) else x.ndim - 2
    bs = [int(block_shape)] * m if isinstance(block_shape, int) else [int(b) for b in block_shape]
    prod = int(np.prod(bs))
    if x.shape[0] % prod:
        raise ValueError(f"BatchToSpaceND: the batch {x.shape[0]} must divide by the block size product {prod}")
    n = x.shape[0] // prod
    lead = x.ndim - m
    mid = tuple(x.shape[1:lead])
    spatial = tuple(x.shape[lead:])
    k = len(mid)
    y = F.reshape(x, tuple(bs) + (n,) + mid + spatial)
    # (b..., n, mid..., s...) -> (n, mid..., s0, b0, s1, b1, ...)
    perm = (m,) + tuple(range(m + 1, m + 1 + k)) + tuple(v for i in range(m) for v in (m + 1 + k + i, i))
    y = F.reshape(F.transpose(y, perm), (n,) + mid + tuple(s * b for s, b in zip(spatial, bs)))
    index = [slice(None)] * lead
    crops = crops.asnumpy().tolist() if isinstance(crops, Tensor) else crops
    for (lo, hi), size in zip(crops, y.shape[lead:]):
        index.append(slice(int(lo), size - int(hi)))
    return y[tuple(index)]


# ---- sampling ----------------------------------------------------------------------------------------------------
def affine_grid(theta, size, align_corners=False):
    """Sampling grids (N, H, W, 2) / (N, D, H, W, 3) of the affine maps ``theta`` (N, 2, 3) / (N, 3, 4) over the
    normalised output coordinates [-1, 1]."""
    th = _as_tensor(theta, "affine_grid")
    size = tuple(int(s) for s in size)
    spatial = size[2:]

    def lin(n):
        if n == 1:
            return np.zeros(1)
        v = np.linspace(-1.0, 1.0, n)
        return v if align_corners else v * (n - 1) / n

    axes = [lin(n) for n in spatial]
    grids = np.meshgrid(*axes, indexing="ij")              # D, H, W order
    coords = [g.reshape(-1) for g in reversed(grids)]      # x (W) first
    base = np.stack(coords + [np.ones_like(coords[0])], 1).astype(th.dtype.np)  # (P, k + 1)
    out = F.matmul(Tensor(base), F.transpose(th, (0, 2, 1)))  # (N, P, k)
    return F.reshape(out, (size[0],) + spatial + (len(spatial),))


def _unnormalize(coord, size, align_corners):
    if align_corners:
        return F.mul(F.add(coord, 1.0), (size - 1) / 2.0)
    return F.div(F.sub(F.mul(F.add(coord, 1.0), size), 1.0), 2.0)


def _reflect(coord, lo2, hi2):
    """Reflect coordinates into [lo2 / 2, hi2 / 2] (values given doubled, as PyTorch's reflection)."""
    lo, span = lo2 / 2.0, (hi2 - lo2) / 2.0
    if span <= 0:
        return F.zeros_like(coord)
    c = F.abs(F.sub(coord, lo))
    extra = F.floor_mod(c, span)
    flips = F.floor(F.div(c, span))
    even = F.equal(F.floor_mod(flips, 2.0), 0.0)
    return F.where(even, F.add(extra, lo), F.sub(span + lo, extra))


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):  # noqa: A002
    """Sample ``input`` (N, C, H, W) at ``grid`` (N, Ho, Wo, 2) normalised coordinates (x, y) in [-1, 1], or
    (N, C, D, H, W) at (N, Do, Ho, Wo, 3) coordinates (x, y, z): 'bilinear' (trilinear in 3-D) or 'nearest',
    padding 'zeros', 'border' or 'reflection'."""
    return grid_sample_nd(input, grid, mode, padding_mode, align_corners, "grid_sample")


def grid_sample_nd(input, grid, mode, padding_mode, align_corners, op):  # noqa: A002
    x = _as_tensor(input, op)
    g = _as_tensor(grid, op)
    k = x.ndim - 2
    if x.ndim not in (4, 5) or g.ndim != x.ndim or g.shape[-1] != k or g.shape[0] != x.shape[0]:
        raise ValueError(f"For '{op}', expects input (N, C, H, W) with grid (N, Ho, Wo, 2) or input (N, C, D, H, W) "
                         f"with grid (N, Do, Ho, Wo, 3), but got {list(x.shape)} and {list(g.shape)}.")
    if not x.dtype.is_float or g.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'input' and 'grid' must be float tensors of one dtype, but got {x.dtype} and "
                        f"{g.dtype}.")
    if mode not in ("bilinear", "nearest") or padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"For '{op}', mode {mode!r} / padding_mode {padding_mode!r} not supported (bilinear or "
                         "nearest; zeros, border or reflection)")
    ac = bool(align_corners)
    n, c = x.shape[:2]
    spatial = tuple(x.shape[2:])              # (H, W) or (D, H, W)
    outs = tuple(g.shape[1:-1])
    npts = int(np.prod(outs))
    coords = []                               # per spatial axis (D, H, W order), grid component k - 1 - axis
    for axis, size in enumerate(spatial):
        ci = _unnormalize(g[..., k - 1 - axis], size, ac)
        if padding_mode == "reflection":
            ci = _reflect(ci, 0.0 if ac else -1.0, 2.0 * (size - 1) if ac else 2.0 * size - 1)
        if padding_mode != "zeros":
            ci = F.clamp(ci, 0.0, float(size - 1))
        coords.append(ci)
    flat = F.reshape(x, (n, c, -1))
    strides = [int(np.prod(spatial[a + 1:])) for a in range(k)]

    def tap(points):  # values at integer float coordinates (one tensor per axis); zero outside the input
        inside, idx = None, None
        for p, size, stride in zip(points, spatial, strides):
            ok = F.logical_and(F.greater_equal(p, 0.0), F.less_equal(p, float(size - 1)))
            inside = ok if inside is None else F.logical_and(inside, ok)
            term = F.mul(F.cast(F.clamp(p, 0.0, float(size - 1)), mstype.int64), stride)
            idx = term if idx is None else F.add(idx, term)
        idx = F.broadcast_to(F.reshape(idx, (n, 1, npts)), (n, c, npts))
        vals = F.reshape(F.gather_elements(flat, 2, idx), (n, c) + outs)
        return F.mul(vals, F.expand_dims(F.cast(inside, x.dtype), 1))

    if mode == "nearest":  # MindSpore rounds halves away from zero (2.5 -> 3, -0.5 -> -1), not to even
        return tap([F.mul(F.sign(ci), F.floor(F.add(F.abs(ci), 0.5))) for ci in coords])
    lows = [F.floor(ci) for ci in coords]
    fracs = [F.sub(ci, lo) for ci, lo in zip(coords, lows)]
    out = None
    for corner in range(2 ** k):  # every corner of the cell, weighted by the product of its 1-D weights
        bits = [(corner >> (k - 1 - a)) & 1 for a in range(k)]
        points = [F.add(lo, 1.0) if b else lo for lo, b in zip(lows, bits)]
        weight = None
        for fr, b in zip(fracs, bits):
            wa = fr if b else F.sub(1.0, fr)
            weight = wa if weight is None else F.mul(weight, wa)
        term = F.mul(tap(points), F.expand_dims(weight, 1))
        out = term if out is None else F.add(out, term)
    return out


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """TensorFlow's crop_and_resize on NHWC images: boxes (y1, x1, y2, x2) normalised, one crop of ``crop_size``
    per box from image ``box_indices[i]``; samples outside the image take ``extrapolation_value``."""
    img = _as_tensor(image, "CropAndResize")
    bx = _as_tensor(boxes, "CropAndResize")
    bi = _as_tensor(box_indices, "CropAndResize")
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise ValueError(f"CropAndResize: method must be 'bilinear', 'nearest' or 'bilinear_v2', got {method!r}")
    n, h, w, c = img.shape
    ch, cw = (int(s) for s in crop_size)
    nb = bx.shape[0]
    y1, x1, y2, x2 = (bx[:, i:i + 1] for i in range(4))

    def coords(lo, hi, size, steps):
        step = np.arange(steps, dtype=np.float64)
        if steps > 1:
            return F.add(F.mul(lo, size - 1), F.mul(F.mul(F.sub(hi, lo), (size - 1) / (steps - 1)),
                                                    Tensor(step.astype(img.dtype.np))))
        return F.mul(F.add(lo, hi), 0.5 * (size - 1))

    ys = coords(y1, y2, h, ch)   # (B, ch)
    xs = coords(x1, x2, w, cw)   # (B, cw)
    yy = F.broadcast_to(F.expand_dims(ys, 2), (nb, ch, cw))
    xx = F.broadcast_to(F.expand_dims(xs, 1), (nb, ch, cw))
    src = F.gather(F.cast(img, mstype.float32) if not img.dtype.is_float else img, bi, 0)  # (B, H, W, C)
    flat = F.reshape(src, (nb, h * w, c))

    def tap(py, px):
        yi = F.cast(F.clamp(py, 0.0, float(h - 1)), mstype.int64)
        xi = F.cast(F.clamp(px, 0.0, float(w - 1)), mstype.int64)
        idx = F.broadcast_to(F.reshape(F.add(F.mul(yi, w), xi), (nb, ch * cw, 1)), (nb, ch * cw, c))
        return F.reshape(F.gather_elements(flat, 1, idx), (nb, ch, cw, c))

    inside = F.logical_and(F.logical_and(F.greater_equal(yy, 0.0), F.less_equal(yy, float(h - 1))),
                           F.logical_and(F.greater_equal(xx, 0.0), F.less_equal(xx, float(w - 1))))
    if method == "nearest":
        out = tap(F.round(yy), F.round(xx))
    else:
        y0, x0 = F.floor(yy), F.floor(xx)
        wy, wx = F.expand_dims(F.sub(yy, y0), -1), F.expand_dims(F.sub(xx, x0), -1)
        top = F.add(tap(y0, x0), F.mul(F.sub(tap(y0, F.add(x0, 1.0)), tap(y0, x0)), wx))
        bot = F.add(tap(F.add(y0, 1.0), x0), F.mul(F.sub(tap(F.add(y0, 1.0), F.add(x0, 1.0)),
                                                         tap(F.add(y0, 1.0), x0)), wx))
        out = F.add(top, F.mul(F.sub(bot, top), wy))
    out = F.cast(out, mstype.float32)
    return F.where(F.expand_dims(inside, -1), out, F.full_like(out, float(extrapolation_value)))


# ---- fold / unfold ---------------------------------------------------------------------------------------------
def _pair(v):
    return (int(v), int(v)) if isinstance(v, int) else tuple(int(i) for i in v)


def _patch_index(h, w, k, d, p, s):
    """Flat positions in the padded image of every (kernel tap, output location): (kh*kw, L)."""
    hp, wp = h + 2 * p[0], w + 2 * p[1]
    oh = (hp - d[0] * (k[0] - 1) - 1) // s[0] + 1
    ow = (wp - d[1] * (k[1] - 1) - 1) // s[1] + 1
    if oh <= 0 or ow <= 0:
        raise ValueError(f"unfold/fold: kernel {k} with dilation {d} does not fit the padded size {(hp, wp)}")
    ki, kj = np.meshgrid(np.arange(k[0]) * d[0], np.arange(k[1]) * d[1], indexing="ij")
    oi, oj = np.meshgrid(np.arange(oh) * s[0], np.arange(ow) * s[1], indexing="ij")
    rows = ki.reshape(-1, 1) + oi.reshape(1, -1)
    cols = kj.reshape(-1, 1) + oj.reshape(1, -1)
    return (rows * wp + cols).astype(np.int64), (hp, wp), oh * ow


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    """Sliding local blocks: (N, C, H, W) -> (N, C * kh * kw, L) (im2col)."""
    x = _as_tensor(input, "unfold")
    if x.ndim != 4:
        raise ValueError(f"unfold: expects a 4-D input, got shape {list(x.shape)}")
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    n, c, h, w = x.shape
    idx, (hp, wp), length = _patch_index(h, w, k, d, p, s)
    xp = F.pad_raw(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    flat = F.reshape(xp, (n, c, hp * wp))
    cols = F.gather(flat, Tensor(idx), 2)  # (N, C, kh*kw, L)
    return F.reshape(cols, (n, c * k[0] * k[1], length))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    """The adjoint of unfold: sum the blocks (N, C * kh * kw, L) back into (N, C, H, W) (col2im)."""
    x = _as_tensor(input, "fold")
    k, d, p, s = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    h, w = _pair(output_size.asnumpy().tolist() if isinstance(output_size, Tensor) else output_size)
    n, ckk, length = x.shape
    c = ckk // (k[0] * k[1])
    idx, (hp, wp), want = _patch_index(h, w, k, d, p, s)
    if ckk % (k[0] * k[1]) or length != want:
        raise ValueError(f"fold: input {list(x.shape)} does not match kernel {k} and output size {(h, w)}")
    cols = F.reshape(x, (n, c, k[0] * k[1], length))
    flat = F.gather_grad(cols, Tensor(idx), (n, c, hp * wp), 2)
    out = F.reshape(flat, (n, c, hp, wp))
    return out[:, :, p[0]:p[0] + h, p[1]:p[1] + w]


# ---- max unpooling, Lp pooling, LRN, L2 normalisation -------------------------------------------------------------
def _max_unpool(x, indices, kernel_size, stride, padding, output_size, nd, op):
    t = _as_tensor(x, op)
    idx = _as_tensor(indices, op)
    k = (int(kernel_size),) * nd if isinstance(kernel_size, int) else tuple(kernel_size)
    s = k if stride is None or stride == 0 else ((int(stride),) * nd if isinstance(stride, int) else tuple(stride))
    p = (int(padding),) * nd if isinstance(padding, int) else tuple(padding)
    spatial = tuple(t.shape[-nd:])
    default = tuple((i - 1) * st - 2 * pd + kk for i, st, pd, kk in zip(spatial, s, p, k))
    out = default if output_size is None or len(output_size) == 0 else tuple(output_size)[-nd:]
    lead = tuple(t.shape[:-nd])
    flat = F.reshape(t, lead + (-1,))
    fidx = F.reshape(F.cast(idx, mstype.int64), lead + (-1,))
    size = int(np.prod(out))
    base = F.zeros(lead + (size,), t.dtype)
    res = F.tensor_scatter_elements(base, fidx, flat, len(lead))
    return F.reshape(res, lead + out)


def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    """Place each value at its flat ``indices`` position (from max pooling with return_indices) in zeros."""
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 1, "MaxUnpool1d")


def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 2, "MaxUnpool2D")


def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _max_unpool(x, indices, kernel_size, stride, padding, output_size, 3, "MaxUnpool3D")


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum over each window of x^p)^(1/p): an average pool times the window size, then the root."""
    from .pool_nd import avg_pool1d

    t = _as_tensor(x, "lp_pool1d")
    k = int(kernel_size)
    pooled = avg_pool1d(F.pow(t, float(norm_type)), k, k if stride is None else stride, 0, ceil_mode)
    total = F.mul(pooled, float(k))
    return F.pow(F.mul(F.sign(total), F.relu(F.abs(total))), 1.0 / float(norm_type))


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    t = _as_tensor(x, "lp_pool2d")
    k = _pair(kernel_size)
    st = k if stride is None else _pair(stride)
    pooled = F.avg_pool2d(F.pow(t, float(norm_type)), k, st, 0, ceil_mode)
    total = F.mul(pooled, float(k[0] * k[1]))
    return F.pow(F.mul(F.sign(total), F.relu(F.abs(total))), 1.0 / float(norm_type))


def lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    """x / (bias + alpha * sum of x^2 over the 2 r + 1 neighbouring channels)^beta (NCHW)."""
    if norm_region != "ACROSS_CHANNELS":
        raise ValueError(f"LRN: norm_region must be 'ACROSS_CHANNELS', got {norm_region!r}")
    t = _as_tensor(x, "LRN")
    r = int(depth_radius)
    c = t.shape[1]
    band = (np.abs(np.arange(c)[:, None] - np.arange(c)[None, :]) <= r).astype(t.dtype.np)
    sq = F.transpose(F.square(t), (0, 2, 3, 1))
    summed = F.transpose(F.matmul(sq, Tensor(band)), (0, 3, 1, 2))
    return F.div(t, F.pow(F.add(F.mul(summed, float(alpha)), float(bias)), float(beta)))


def l2_normalize(x, axis=0, epsilon=1e-4):
    """x / sqrt(max(sum(x^2 over axis), epsilon)) (MindSpore's L2Normalize)."""
    t = _as_tensor(x, "L2Normalize")
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    ss = F.sum(F.square(t), axes, True)
    return F.mul(t, F.rsqrt(F.maximum(ss, float(epsilon))))
