"""GaussianBlur as OpenCV computes it (8-bit fixed-point kernels for uint8, mirrored borders)."""
from __future__ import annotations

import math
import numbers

import numpy as np

from .base import ImageOp, check_real
from .colorspace import saturate


def gaussian_kernel(n: int, sigma: float) -> np.ndarray:
    x = np.arange(n, dtype=np.float64) - (n - 1) / 2.0
    k = np.exp(x * x * (-0.5 / (sigma * sigma)))
    return k * (1.0 / k.sum())


def fixed_kernel(kernel: np.ndarray, bits: int = 8) -> np.ndarray:
    """OpenCV's error-diffusion rounding of a symmetric kernel to ``bits`` fraction bits (sum exactly 1)."""
    n, scale = len(kernel), float(1 << bits)
    out = np.zeros(n, np.int64)
    err, total = 0.0, 0
    for i in range(n // 2):
        adj = kernel[i] * scale + err
        v = int(np.rint(adj))
        err = adj - v
        out[i] = out[n - 1 - i] = v
        total += v
    out[n // 2] = (1 << bits) - 2 * total
    return out


def _filter_axis(img: np.ndarray, kernel: np.ndarray, axis: int) -> np.ndarray:
    r = len(kernel) // 2
    widths = [(0, 0)] * img.ndim
    widths[axis] = (r, r)
    mode = "reflect" if img.shape[axis] > 1 else "edge"
    padded = np.pad(img, widths, mode=mode)
    n = img.shape[axis]
    acc = None
    for i, k in enumerate(kernel):
        part = np.take(padded, np.arange(i, i + n), axis=axis) * k
        acc = part if acc is None else acc + part
    return acc


def gaussian_blur(img: np.ndarray, kx: int, ky: int, sx: float, sy: float) -> np.ndarray:
    hk, vk = gaussian_kernel(kx, sx), gaussian_kernel(ky, sy)
    if img.dtype == np.uint8:
        rows = _filter_axis(img.astype(np.int64), fixed_kernel(hk), 1)     # 8 fraction bits
        out = _filter_axis(rows, fixed_kernel(vk), 0)                      # 16 fraction bits
        return ((out + (1 << 15)) >> 16).clip(0, 255).astype(np.uint8)
    work = np.float64 if img.dtype == np.float64 else np.float32
    rows = _filter_axis(img.astype(work), hk.astype(work), 1)
    return saturate(_filter_axis(rows, vk.astype(work), 0), img.dtype)


def _pair(op, name, value, check):
    vals = [value, value] if not isinstance(value, (list, tuple)) else list(value)
    if len(vals) == 1:
        vals = vals * 2
    if len(vals) != 2:
        raise TypeError(f"{op}: {name} must be a number or a pair, got {value!r}")
    return [check(v) for v in vals]


class GaussianBlur(ImageOp):
    """Blur with a Gaussian of odd ``kernel_size`` (int or (x, y)) and ``sigma`` (default from the size)."""

    def __init__(self, kernel_size, sigma=None):
        def odd(v):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v <= 0 or v % 2 == 0:
                raise ValueError(f"GaussianBlur: kernel_size values must be positive odd ints, got {kernel_size!r}")
            return int(v)
        self.kernel_size = _pair("GaussianBlur", "kernel_size", kernel_size, odd)
        if sigma is None:
            sigma = [((k - 1) * 0.5 - 1) * 0.3 + 0.8 for k in self.kernel_size]
        self.sigma = _pair("GaussianBlur", "sigma", sigma,
                           lambda v: check_real("GaussianBlur", "sigma", v, 0, low_open=True))

    def _apply(self, img):
        f = np.float32  # MindSpore passes the sigmas on as float32
        sx, sy = float(f(self.sigma[0])), float(f(self.sigma[1]))
        if not all(math.isfinite(s) for s in (sx, sy)):
            raise ValueError("GaussianBlur: sigma must be finite")
        return gaussian_blur(img, self.kernel_size[0], self.kernel_size[1], sx, sy)
