"""Image layers: ImageGradients, PSNR, SSIM, MSSSIM, CentralCrop, PixelShuffle, PixelUnshuffle (MindSpore's
formulas: Gaussian-window SSIM per channel with a 'valid' convolution, images scaled to [0, 1] by their dtype)."""
from __future__ import annotations

import math

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Tensor
from ...ops import nn_functional as NF
from .. import _check as V
from ..cell import Cell
from .container import CellList
from .conv import Conv2d


def _check_4d(x, name: str, owner: str) -> None:
    if x.ndim != 4:
        raise ValueError(f"For '{owner}', the dimension of '{name}' must be 4d, but got {x.ndim}.")


def _same(a, b, owner: str) -> None:
    if a.dtype is not b.dtype or tuple(a.shape) != tuple(b.shape):
        raise TypeError(f"For '{owner}', img1 and img2 must have the same dtype and shape, but got "
                        f"{a.dtype}{list(a.shape)} and {b.dtype}{list(b.shape)}.")


def _dtype_max(dtype) -> float:
    return float(np.iinfo(dtype.np).max) if dtype.is_int else 1.0


def _to_unit(img, dtype_max: float):
    x = ops.cast(img, mstype.float32)
    return ops.mul(x, 1.0 / dtype_max) if dtype_max > 1.0 else x


class ImageGradients(Cell):
    """(dy, dx) of (N, C, H, W) images: forward differences, the last row/column zero."""

    def construct(self, images):
        _check_4d(images, "images", self.cls_name)
        n, c, h, w = images.shape
        if h == 1:
            dy = ops.zeros((n, c, 1, w), images.dtype)
        else:
            dy = ops.concat((ops.sub(images[:, :, 1:, :], images[:, :, :h - 1, :]),
                             ops.zeros((n, c, 1, w), images.dtype)), 2)
        if w == 1:
            dx = ops.zeros((n, c, h, 1), images.dtype)
        else:
            dx = ops.concat((ops.sub(images[:, :, :, 1:], images[:, :, :, :w - 1]),
                             ops.zeros((n, c, h, 1), images.dtype)), 3)
        return dy, dx


class PSNR(Cell):
    """10 log10(max_val^2 / mse) per image of (N, C, H, W) pairs."""

    def __init__(self, max_val=1.0):
        super().__init__()
        V.type_of(max_val, (int, float), "max_val", self.cls_name)
        if max_val <= 0:
            raise ValueError(f"For '{self.cls_name}', the argument 'max_val' must > 0.0, but got {max_val}.")
        self.max_val = max_val

    def construct(self, img1, img2):
        _check_4d(img1, "img1", self.cls_name)
        _check_4d(img2, "img2", self.cls_name)
        _same(img1, img2, self.cls_name)
        top = _dtype_max(img1.dtype)
        max_val = self.max_val / top if top > 1.0 else float(self.max_val)
        mse = ops.mean(ops.square(ops.sub(_to_unit(img1, top), _to_unit(img2, top))), (-3, -2, -1))
        return ops.div(ops.mul(ops.log(ops.div(max_val * max_val, mse)), 10.0), math.log(10.0))


def _window(size: int, sigma: float) -> np.ndarray:
    """The (1, 1, size, size) normalised Gaussian window MindSpore's SSIM convolves with."""
    r = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32)
    g = np.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / (2 * sigma ** 2))
    return (g / g.sum()).astype(np.float32)[None, None]


def _window_conv(size: int, sigma: float):
    """MindSpore's SSIM convolution: a 1-in, 1-out 'valid' Conv2d holding the window, not trained."""
    conv = Conv2d(1, 1, size, pad_mode="valid", weight_init=Tensor(_window(size, sigma)))
    conv.weight.requires_grad = False
    return conv


def _ssim_parts(c1, c2, img1, img2, window_conv):
    """Per-channel SSIM and contrast-structure maps averaged over H, W: two (N, C) tensors."""
    n, c, h, w = img1.shape

    def conv(t):  # every channel by the same window: channels folded into the batch
        out = window_conv(ops.reshape(t, (n * c, 1, h, w)))
        return ops.reshape(out, (n, c) + tuple(out.shape[2:]))

    mu1, mu2 = conv(img1), conv(img2)
    mu1_sq, mu2_sq, mu12 = ops.mul(mu1, mu1), ops.mul(mu2, mu2), ops.mul(mu1, mu2)
    s1 = ops.sub(conv(ops.mul(img1, img1)), mu1_sq)
    s2 = ops.sub(conv(ops.mul(img2, img2)), mu2_sq)
    s12 = ops.sub(conv(ops.mul(img1, img2)), mu12)
    v1 = ops.add(ops.mul(s12, 2.0), c2)
    v2 = ops.add(ops.add(s1, s2), c2)
    ssim = ops.div(ops.mul(ops.add(ops.mul(mu12, 2.0), c1), v1), ops.mul(ops.add(ops.add(mu1_sq, mu2_sq), c1), v2))
    cs = ops.div(v1, v2)
    return ops.mean(ssim, (2, 3)), ops.mean(cs, (2, 3))


class _SSIMBase(Cell):
    def _init(self, max_val, filter_size, filter_sigma, k1, k2) -> None:
        owner = self.cls_name
        V.type_of(max_val, (int, float), "max_val", owner)
        if max_val <= 0:
            raise ValueError(f"For '{owner}', the argument 'max_val' must > 0.0, but got {max_val}.")
        self.max_val = max_val
        self.filter_size = V.int_value(filter_size, "filter_size", owner, 1)
        self.filter_sigma = V.float_value(filter_sigma, "filter_sigma", owner, 0, low_open=True, allow_int=False)
        self.k1 = V.type_of(k1, float, "k1", owner)
        self.k2 = V.type_of(k2, float, "k2", owner)

    def _consts(self, img1):
        top = _dtype_max(img1.dtype)
        max_val = self.max_val / top if top > 1.0 else float(self.max_val)
        return (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2, top


class SSIM(_SSIMBase):
    """Structural similarity of (N, C, H, W) image pairs (mean over channels): one value per image."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        self._init(max_val, filter_size, filter_sigma, k1, k2)
        self.conv = _window_conv(filter_size, filter_sigma)

    def construct(self, img1, img2):
        if img1.dtype not in (mstype.float32, mstype.float16):
            raise TypeError(f"For '{self.cls_name}', the dtype of 'img1' must be float32 or float16, but got "
                            f"{img1.dtype}.")
        _check_4d(img1, "img1", self.cls_name)
        if img1.shape[2] < self.filter_size or img1.shape[3] < self.filter_size:
            raise ValueError(f"For '{self.cls_name}', the height and width of 'img1' must be >= filter_size "
                             f"{self.filter_size}, but got shape {list(img1.shape)}.")
        _same(img1, img2, self.cls_name)
        c1, c2, top = self._consts(img1)
        ssim, _ = _ssim_parts(c1, c2, _to_unit(img1, top), _to_unit(img2, top), self.conv)
        return ops.mean(ssim, -1)


class MSSSIM(_SSIMBase):
    """Multi-scale SSIM: contrast-structure terms at len(power_factors) scales (2x average-pooled each time) and
    the SSIM of the last, raised to the power factors and multiplied."""

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333), filter_size=11,
                 filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        V.type_of(power_factors, (tuple, list), "power_factors", self.cls_name)
        self._init(max_val, filter_size, filter_sigma, k1, k2)
        self.level = len(power_factors)
        self.multi_convs_list = CellList([_window_conv(filter_size, filter_sigma) for _ in range(self.level)])
        self.weight_tensor = Tensor(np.array(power_factors, np.float32))

    def construct(self, img1, img2):
        _check_4d(img1, "img1", self.cls_name)
        _check_4d(img2, "img2", self.cls_name)
        if img1.dtype not in (mstype.float64, mstype.float32, mstype.float16, mstype.uint8):
            raise TypeError(f"For '{self.cls_name}', the dtype of 'img1' must be float or uint8, but got {img1.dtype}.")
        _same(img1, img2, self.cls_name)
        c1, c2, top = self._consts(img1)
        a, b = _to_unit(img1, top), _to_unit(img2, top)
        pool = {"kernel": (2, 2), "stride": (2, 2), "dilation": (1, 1), "pad_mode": "valid", "pad": (0, 0, 0, 0),
                "ceil_mode": False, "count_include_pad": True, "divisor": 0}
        mcs = []
        sim = None
        for i in range(self.level):
            sim, cs = _ssim_parts(c1, c2, a, b, self.multi_convs_list[i])
            mcs.append(ops.relu(cs))
            a, b = NF.avg_pool_raw(a, **pool), NF.avg_pool_raw(b, **pool)
        terms = ops.stack(mcs[:-1] + [ops.relu(sim)], -1)
        return ops.mean(ops.prod(ops.pow(terms, self.weight_tensor), -1), -1)


class CentralCrop(Cell):
    """The central ``central_fraction`` of the H and W axes of (C, H, W) or (N, C, H, W) images."""

    def __init__(self, central_fraction):
        super().__init__()
        V.type_of(central_fraction, float, "central_fraction", self.cls_name)
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"For '{self.cls_name}', the 'central_fraction' must be in range of (0.0, 1.0], but got "
                             f"{central_fraction}.")
        self.central_fraction = central_fraction

    def construct(self, image):
        if image.ndim not in (3, 4):
            raise ValueError(f"{self.cls_name} image must be 3d or 4d, but got shape {tuple(image.shape)}")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top:h - top, left:w - left]


def _check_factor(r, name: str, owner: str) -> int:
    V.type_of(r, int, name, owner)
    if r <= 0:
        raise ValueError(f"For '{owner}', the '{name}' must be > 0, but got {r}.")
    return r


class PixelShuffle(Cell):
    """(*, C r^2, H, W) -> (*, C, H r, W r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = _check_factor(upscale_factor, "upscale_factor", "pixel_shuffle")

    def construct(self, input):  # noqa: A002
        x, r = input, self.upscale_factor
        if x.ndim < 3 or x.shape[-3] % (r * r):
            raise ValueError(f"For 'pixel_shuffle', the input must have at least 3 dims and a channel count "
                             f"divisible by upscale_factor^2 = {r * r}, but got shape {list(x.shape)}.")
        lead = tuple(x.shape[:-3])
        c, h, w = x.shape[-3:]
        k = len(lead)
        y = ops.reshape(x, lead + (c // (r * r), r, r, h, w))
        y = ops.transpose(y, tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2))
        return ops.reshape(y, lead + (c // (r * r), h * r, w * r))


class PixelUnshuffle(Cell):
    """(*, C, H r, W r) -> (*, C r^2, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = _check_factor(downscale_factor, "downscale_factor", "pixel_unshuffle")

    def construct(self, input):  # noqa: A002
        x, r = input, self.downscale_factor
        if x.ndim < 3 or x.shape[-1] % r or x.shape[-2] % r:
            raise ValueError(f"For 'pixel_unshuffle', the input must have at least 3 dims and H, W divisible by "
                             f"downscale_factor {r}, but got shape {list(x.shape)}.")
        lead = tuple(x.shape[:-3])
        c, h, w = x.shape[-3:]
        k = len(lead)
        y = ops.reshape(x, lead + (c, h // r, r, w // r, r))
        y = ops.transpose(y, tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3))
        return ops.reshape(y, lead + (c * r * r, h // r, w // r))
