"""Colour-space arithmetic as OpenCV (and so MindSpore) computes it: gray, HSV, weighted blends."""
from __future__ import annotations

import numpy as np

_R2Y, _G2Y, _B2Y = 9798, 19235, 3735  # 0.299, 0.587, 0.114 in 15-bit fixed point (OpenCV 4's SIMD path)


def rgb_to_gray(img: np.ndarray, bgr: bool = False) -> np.ndarray:
    """(H, W) luma of an RGB (or BGR) image: 15-bit fixed point for uint8, float32 weights otherwise."""
    r, g, b = (img[..., 2], img[..., 1], img[..., 0]) if bgr else (img[..., 0], img[..., 1], img[..., 2])
    if img.dtype == np.uint8:
        acc = b.astype(np.int32) * _B2Y + g.astype(np.int32) * _G2Y + r.astype(np.int32) * _R2Y
        return ((acc + (1 << 14)) >> 15).astype(np.uint8)
    f = np.float32
    return (b.astype(f) * f(0.114) + g.astype(f) * f(0.587) + r.astype(f) * f(0.299)).astype(img.dtype)


def saturate(values: np.ndarray, dtype) -> np.ndarray:
    """OpenCV's saturate_cast: round half to even and clip for integer types."""
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.clip(np.rint(values), info.min, info.max).astype(dtype)
    return values.astype(dtype)


def blend(a: np.ndarray, alpha: float, b: np.ndarray, beta: float, dtype) -> np.ndarray:
    """``a * alpha + b * beta`` as OpenCV's addWeighted computes it (double arithmetic, rounded to float32
    before the final conversion)."""
    out = (a.astype(np.float64) * alpha + b.astype(np.float64) * beta).astype(np.float32)
    return saturate(out, dtype)


def scale(img: np.ndarray, alpha: float) -> np.ndarray:
    """``img * alpha`` as OpenCV's convertTo computes it."""
    work = np.float64 if img.dtype == np.float64 else np.float32
    return saturate(img.astype(work) * work(alpha), img.dtype)


def _tables():
    idx = np.arange(256, dtype=np.float64)
    with np.errstate(divide="ignore"):
        sdiv = np.where(idx > 0, np.rint((255 << 12) / idx), 0).astype(np.int64)
        hdiv = np.where(idx > 0, np.rint((256 << 12) / (6.0 * idx)), 0).astype(np.int64)
    return sdiv, hdiv


_SDIV, _HDIV = _tables()


def rgb_to_hsv_full(img: np.ndarray) -> np.ndarray:
    """OpenCV's COLOR_RGB2HSV_FULL for uint8: hue spans 0..255, integer tables with 12-bit rounding."""
    r, g, b = (img[..., i].astype(np.int64) for i in range(3))
    v = np.maximum(np.maximum(r, g), b)
    diff = v - np.minimum(np.minimum(r, g), b)
    s = (diff * _SDIV[v] + (1 << 11)) >> 12
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * _HDIV[diff] + (1 << 11)) >> 12
    h = np.where(h < 0, h + 256, h)
    return np.stack([np.clip(h, 0, 255), s, v], axis=-1).astype(np.uint8)


_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def hsv_full_to_rgb(hsv: np.ndarray) -> np.ndarray:
    """OpenCV's COLOR_HSV2RGB_FULL for uint8 (float32 sector arithmetic, converted back to uint8)."""
    f = np.float32
    h = hsv[..., 0].astype(f) * f(6.0 / 255.0)  # OpenCV uses 256 hues forward but 255 back
    s = hsv[..., 1].astype(f) * f(1.0 / 255.0)
    v = hsv[..., 2].astype(f) * f(1.0 / 255.0)
    h = np.where(h >= 6, h - 6, h)
    sector = np.floor(h).astype(np.int64)
    h = h - sector.astype(f)
    bad = (sector < 0) | (sector >= 6)
    sector, h = np.where(bad, 0, sector), np.where(bad, f(0), h)
    tab = np.stack([v, v * (f(1) - s), v * (f(1) - s * h), v * (f(1) - s * (f(1) - h))], axis=-1)
    pick = _SECTORS[sector]
    bgr = np.take_along_axis(tab, pick, axis=-1)
    gray = s == 0
    bgr = np.where(gray[..., None], v[..., None], bgr)
    rgb = bgr[..., ::-1] * f(255)
    # OpenCV's vector loop (32 pixels a step on AVX2 builds) truncates; its scalar loop over the rest of
    # each row rounds
    vec = rgb.shape[1] // 32 * 32
    out = np.clip(np.rint(rgb), 0, 255)
    out[:, :vec] = np.clip(np.trunc(rgb[:, :vec]), 0, 255)
    return out.astype(np.uint8)
