"""Geometric image transforms on NumPy HWC/HW images: Resize, CenterCrop, RandomCrop and random flips."""
from __future__ import annotations

import numbers
from enum import Enum, StrEnum

import numpy as np

from .. import config
from .transforms import TensorOperation, _image


class Inter(Enum):
    """Interpolation modes; sprout implements NEAREST and LINEAR (= BILINEAR)."""
    NEAREST = 0
    LINEAR = 1
    BILINEAR = 1
    CUBIC = 2
    AREA = 3
    PILCUBIC = 4
    ANTIALIAS = 5


class Border(StrEnum):
    """Padding modes, named as in MindSpore, mapped to ``np.pad`` modes."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


def _size(op: str, size, allow_int=True) -> tuple:
    if allow_int and isinstance(size, numbers.Integral) and not isinstance(size, bool):
        size = (int(size),)
    elif isinstance(size, (list, tuple)) and len(size) == 2:
        size = tuple(size)
    else:
        raise TypeError(f"{op}: size must be an int or a (height, width) pair, got {size!r}")
    for s in size:
        if isinstance(s, bool) or not isinstance(s, numbers.Integral) or s <= 0:
            raise ValueError(f"{op}: size values must be positive ints, got {size!r}")
    return tuple(int(s) for s in size)


def _hw(op: str, img: np.ndarray) -> tuple:
    if img.ndim not in (2, 3):
        raise ValueError(f"{op}: expects an HWC or HW image, got shape {img.shape}")
    return img.shape[0], img.shape[1]


def _linear_taps(src: int, dst: int):
    """Source indices and right-hand weights of half-pixel linear interpolation (as OpenCV maps pixels)."""
    pos = (np.arange(dst) + 0.5) * (src / dst) - 0.5
    lo = np.floor(pos).astype(np.int64)
    frac = pos - lo
    frac[lo < 0], lo[lo < 0] = 0.0, 0
    edge = lo >= src - 1
    frac[edge], lo[edge] = 0.0, src - 1
    return lo, np.minimum(lo + 1, src - 1), frac


def _resize_linear(img: np.ndarray, h: int, w: int) -> np.ndarray:
    y0, y1, fy = _linear_taps(img.shape[0], h)
    x0, x1, fx = _linear_taps(img.shape[1], w)
    col = (1, -1) + (1,) * (img.ndim - 2)
    row = (-1,) + (1,) * (img.ndim - 1)
    if img.dtype == np.uint8:  # OpenCV's 11-bit fixed point, so results match MindSpore to within 1
        cx0 = np.rint((1 - fx) * 2048).astype(np.int64).reshape(col)
        cy0 = np.rint((1 - fy) * 2048).astype(np.int64).reshape(row)
        src = img.astype(np.int64)
        top = src[y0][:, x0] * cx0 + src[y0][:, x1] * (2048 - cx0)
        bottom = src[y1][:, x0] * cx0 + src[y1][:, x1] * (2048 - cx0)
        out = ((cy0 * (top >> 4)) >> 16) + (((2048 - cy0) * (bottom >> 4)) >> 16)
        return np.clip((out + 2) >> 2, 0, 255).astype(np.uint8)
    src = img.astype(np.float32)
    fx = fx.astype(np.float32).reshape(col)
    fy = fy.astype(np.float32).reshape(row)
    top = src[y0][:, x0] * (1 - fx) + src[y0][:, x1] * fx
    bottom = src[y1][:, x0] * (1 - fx) + src[y1][:, x1] * fx
    return (top * (1 - fy) + bottom * fy).astype(img.dtype)


class Resize(TensorOperation):
    """Resize to ``size`` (h, w); an int resizes the shorter side to it, keeping the aspect ratio."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        self.size = _size("Resize", size)
        if interpolation not in (Inter.NEAREST, Inter.LINEAR):
            raise NotImplementedError(f"Resize: sprout implements Inter.NEAREST and Inter.LINEAR only, "
                                      f"got {interpolation}")
        self.interpolation = interpolation

    def __call__(self, *args):
        img = _image("Resize", args)
        h, w = _hw("Resize", img)
        if len(self.size) == 2:
            th, tw = self.size
        elif h <= w:
            th, tw = self.size[0], int(w * self.size[0] / h)
        else:
            th, tw = int(h * self.size[0] / w), self.size[0]
        if self.interpolation is Inter.NEAREST:
            rows = np.minimum(np.floor(np.arange(th) * (h / th)).astype(np.int64), h - 1)
            cols = np.minimum(np.floor(np.arange(tw) * (w / tw)).astype(np.int64), w - 1)
            return img[rows][:, cols]
        return _resize_linear(img, th, tw)


def _pad(img: np.ndarray, top, bottom, left, right, fill, mode) -> np.ndarray:
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    if mode is not Border.CONSTANT:
        return np.pad(img, widths, mode=mode.value)
    fills = np.broadcast_to(np.asarray(fill, dtype=img.dtype), img.shape[2:] if img.ndim == 3 else ())
    out = np.empty((img.shape[0] + top + bottom, img.shape[1] + left + right) + img.shape[2:], img.dtype)
    out[...] = fills
    out[top:top + img.shape[0], left:left + img.shape[1]] = img
    return out


class CenterCrop(TensorOperation):
    """Crop the central ``size`` region (offsets rounded down); a larger size pads with zeros."""

    def __init__(self, size):
        self.size = _size("CenterCrop", size)

    def __call__(self, *args):
        img = _image("CenterCrop", args)
        h, w = _hw("CenterCrop", img)
        th, tw = self.size * 2 if len(self.size) == 1 else self.size
        top, left = (h - th) // 2, (w - tw) // 2
        if top < 0 or left < 0:
            pt, pl = max(-top, 0), max(-left, 0)
            img = _pad(img, pt, max(th - h - pt, 0), pl, max(tw - w - pl, 0), 0, Border.CONSTANT)
            top, left = max(top, 0), max(left, 0)
        return img[top:top + th, left:left + tw]


class _RandomOp(TensorOperation):
    """A transform with its own random stream, seeded from ``ds.config`` when first used (like MindSpore,
    every random op seeded from the same dataset seed starts the same stream)."""

    _rng = None

    def _random(self) -> np.random.Generator:
        if self._rng is None:
            self._rng = np.random.default_rng(config.get_seed())
        return self._rng


def _padding(op: str, padding) -> tuple:
    """(top, bottom, left, right) from MindSpore's int / (left-right, top-bottom) / (l, t, r, b) forms."""
    if padding is None:
        return 0, 0, 0, 0
    vals = [padding] if isinstance(padding, numbers.Integral) else list(padding)
    if len(vals) not in (1, 2, 4) or any(isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0
                                         for v in vals):
        raise ValueError(f"{op}: padding must be a non-negative int or a tuple of 2 or 4 of them, got {padding!r}")
    if len(vals) == 1:
        return vals * 4
    if len(vals) == 2:
        return vals[1], vals[1], vals[0], vals[0]
    left, top, right, bottom = vals
    return top, bottom, left, right


class RandomCrop(_RandomOp):
    """Pad by ``padding`` (and up to ``size`` if ``pad_if_needed``), then crop ``size`` at a random place."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _size("RandomCrop", size)
        self.padding = _padding("RandomCrop", padding)
        self.pad_if_needed = bool(pad_if_needed)
        self.fill_value = fill_value
        self.padding_mode = Border(padding_mode)

    def __call__(self, *args):
        img = _image("RandomCrop", args)
        _hw("RandomCrop", img)
        th, tw = self.size * 2 if len(self.size) == 1 else self.size
        img = _pad(img, *self.padding, self.fill_value, self.padding_mode) if any(self.padding) else img
        h, w = img.shape[:2]
        if self.pad_if_needed and (h < th or w < tw):
            dh, dw = max(th - h, 0), max(tw - w, 0)
            img = _pad(img, dh // 2, dh - dh // 2, dw // 2, dw - dw // 2, self.fill_value, self.padding_mode)
            h, w = img.shape[:2]
        if h < th or w < tw:
            raise ValueError(f"RandomCrop: crop size {(th, tw)} is larger than the (padded) image {(h, w)}; "
                             "set pad_if_needed=True")
        rng = self._random()
        top, left = int(rng.integers(h - th + 1)), int(rng.integers(w - tw + 1))
        return img[top:top + th, left:left + tw]


class RandomHorizontalFlip(_RandomOp):
    """Mirror the image left-right with probability ``prob``."""

    def __init__(self, prob=0.5):
        if not isinstance(prob, numbers.Real) or not 0.0 <= prob <= 1.0:
            raise ValueError(f"RandomHorizontalFlip: prob must be in [0, 1], got {prob!r}")
        self.prob = float(prob)

    def __call__(self, *args):
        img = _image("RandomHorizontalFlip", args)
        _hw("RandomHorizontalFlip", img)
        return img[:, ::-1].copy() if self._random().random() < self.prob else img


class RandomVerticalFlip(_RandomOp):
    """Mirror the image top-bottom with probability ``prob``."""

    def __init__(self, prob=0.5):
        if not isinstance(prob, numbers.Real) or not 0.0 <= prob <= 1.0:
            raise ValueError(f"RandomVerticalFlip: prob must be in [0, 1], got {prob!r}")
        self.prob = float(prob)

    def __call__(self, *args):
        img = _image("RandomVerticalFlip", args)
        _hw("RandomVerticalFlip", img)
        return img[::-1].copy() if self._random().random() < self.prob else img
