"""Colour transforms: brightness/contrast/saturation/hue/gamma, RandomColorAdjust, gray conversions, and the
histogram and point operations (Invert, AutoContrast, Equalize, Posterize, Solarize, sharpness)."""
from __future__ import annotations

import numbers
from enum import IntEnum

import numpy as np

from .base import ImageOp, RandomMixin, check_prob, check_range, check_real
from .colorspace import blend, hsv_full_to_rgb, rgb_to_gray, rgb_to_hsv_full, saturate, scale


def _rgb(op: str, img: np.ndarray, dtypes=("uint8", "float32")) -> np.ndarray:
    if img.ndim != 3 or img.shape[2] != 3:
        raise ValueError(f"{op}: expects an RGB image of shape <H, W, 3>, got {img.shape}")
    if img.dtype.name not in dtypes:
        raise TypeError(f"{op}: expects an image of type {' or '.join(dtypes)}, got {img.dtype}")
    return img


def adjust_brightness(img, factor):
    return scale(_rgb("AdjustBrightness", img, ("uint8", "float32", "float64", "int16", "uint16")), factor)


def _f32(factor) -> float:
    return float(np.float32(factor))  # MindSpore keeps the factors as C floats


def adjust_contrast(img, factor):
    _rgb("AdjustContrast", img)
    mean = float(rgb_to_gray(img).astype(np.float64).mean())
    gray = saturate(np.float64(mean), img.dtype)
    return blend(np.full(img.shape, gray, img.dtype), 1.0 - factor, img, factor, img.dtype)


def adjust_saturation(img, factor):
    _rgb("AdjustSaturation", img)
    gray = np.repeat(rgb_to_gray(img)[..., None], 3, axis=2)
    return blend(gray, 1.0 - factor, img, factor, img.dtype)


def adjust_hue(img, factor):
    _rgb("AdjustHue", img, ("uint8",))
    hsv = rgb_to_hsv_full(img)
    shift = int(np.trunc(np.float32(factor) * np.float32(255))) & 0xFF  # C's cast of the hue step to uint8
    hsv[..., 0] = (hsv[..., 0].astype(np.int32) + shift) & 0xFF
    return hsv_full_to_rgb(hsv)


class AdjustBrightness(ImageOp):
    """Multiply every pixel by ``brightness_factor`` (0 gives black, 1 the original)."""

    def __init__(self, brightness_factor):
        self.brightness_factor = check_real("AdjustBrightness", "brightness_factor", brightness_factor, 0)

    def _apply(self, img):
        return adjust_brightness(img, self.brightness_factor)


class AdjustContrast(ImageOp):
    """Blend with the image's mean gray level: ``mean * (1 - f) + image * f``."""

    def __init__(self, contrast_factor):
        self.contrast_factor = check_real("AdjustContrast", "contrast_factor", contrast_factor, 0)

    def _apply(self, img):
        return adjust_contrast(img, self.contrast_factor)


class AdjustSaturation(ImageOp):
    """Blend with the grayscale image: ``gray * (1 - f) + image * f`` (0 gives gray, 1 the original)."""

    def __init__(self, saturation_factor):
        self.saturation_factor = check_real("AdjustSaturation", "saturation_factor", saturation_factor, 0)

    def _apply(self, img):
        return adjust_saturation(img, self.saturation_factor)


class AdjustHue(ImageOp):
    """Rotate the hue by ``hue_factor`` of a full turn (in [-0.5, 0.5]), in OpenCV's 8-bit HSV space."""

    def __init__(self, hue_factor):
        self.hue_factor = check_real("AdjustHue", "hue_factor", hue_factor, -0.5, 0.5)

    def _apply(self, img):
        return adjust_hue(img, self.hue_factor)


class AdjustGamma(ImageOp):
    """``gain * image ** gamma`` on values scaled to [0, 1] (uint8 through a lookup table)."""

    def __init__(self, gamma, gain=1):
        self.gamma = check_real("AdjustGamma", "gamma", gamma, 0)
        self.gain = check_real("AdjustGamma", "gain", gain)

    def _apply(self, img):
        if img.ndim == 3 and img.shape[2] not in (1, 3):
            raise ValueError(f"AdjustGamma: channel of input image should be 1 or 3, got {img.shape[2]}")
        f = np.float32
        if img.dtype == np.uint8:
            levels = (np.arange(256, dtype=f) / f(255)).astype(np.float64) ** np.float64(f(self.gamma))
            table = np.floor(np.minimum(levels.astype(f) * f(255 + 1 - 1e-3) * f(self.gain), f(255)))
            return table.astype(np.uint8)[img]
        if img.dtype.kind != "f":
            raise TypeError(f"AdjustGamma: expects a uint8 or float image, got {img.dtype}")
        out = (img.astype(f) * f(self.gain)).astype(np.float64) ** np.float64(f(self.gamma))
        return np.clip(out.astype(f), 0, 1).astype(img.dtype)


class RandomColorAdjust(RandomMixin, ImageOp):
    """Apply brightness, contrast, saturation and hue changes in a random order, each factor drawn uniformly
    from its range (a single number v means [max(0, 1 - v), 1 + v]; for hue [-v, v])."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        op = "RandomColorAdjust"
        self.brightness = check_range(op, "brightness", brightness, 0, center=1)
        self.contrast = check_range(op, "contrast", contrast, 0, center=1)
        self.saturation = check_range(op, "saturation", saturation, 0, center=1)
        self.hue = check_range(op, "hue", hue, -0.5, 0.5, center=0)

    def _apply(self, img):
        rng = self._random()
        steps = [("brightness", self.brightness, 1.0, adjust_brightness),
                 ("contrast", self.contrast, 1.0, adjust_contrast),
                 ("saturation", self.saturation, 1.0, adjust_saturation),
                 ("hue", self.hue, 0.0, adjust_hue)]
        for i in rng.permutation(4):
            _, (lo, hi), identity, fn = steps[i]
            if lo == hi == identity:
                continue
            img = fn(img, float(rng.uniform(lo, hi)) if lo < hi else lo)
        return img


class ConvertMode(IntEnum):
    """Colour conversions of ConvertColor, with OpenCV's (and MindSpore's) codes."""
    COLOR_BGR2BGRA = 0
    COLOR_RGB2RGBA = 0
    COLOR_BGRA2BGR = 1
    COLOR_RGBA2RGB = 1
    COLOR_BGR2RGBA = 2
    COLOR_RGB2BGRA = 2
    COLOR_RGBA2BGR = 3
    COLOR_BGRA2RGB = 3
    COLOR_BGR2RGB = 4
    COLOR_RGB2BGR = 4
    COLOR_BGRA2RGBA = 5
    COLOR_RGBA2BGRA = 5
    COLOR_BGR2GRAY = 6
    COLOR_RGB2GRAY = 7
    COLOR_GRAY2BGR = 8
    COLOR_GRAY2RGB = 8
    COLOR_GRAY2BGRA = 9
    COLOR_GRAY2RGBA = 9
    COLOR_BGRA2GRAY = 10
    COLOR_RGBA2GRAY = 11


def _alpha(img):
    return np.full(img.shape[:2] + (1,), 255 if img.dtype == np.uint8 else 1, img.dtype)


class ConvertColor(ImageOp):
    """Convert between RGB, BGR, RGBA, BGRA and gray (``convert_mode`` a vision.ConvertMode)."""

    _NEEDS = {0: 3, 1: 4, 2: 3, 3: 4, 4: 3, 5: 4, 6: 3, 7: 3, 8: 1, 9: 1, 10: 4, 11: 4}

    def __init__(self, convert_mode):
        if not isinstance(convert_mode, ConvertMode):
            raise TypeError(f"ConvertColor: convert_mode must be a vision.ConvertMode, got {convert_mode!r}")
        self.convert_mode = convert_mode

    def _apply(self, img):
        code = int(self.convert_mode)
        channels = 1 if img.ndim == 2 else img.shape[2]
        if channels != self._NEEDS[code]:
            raise ValueError(f"ConvertColor: {self.convert_mode.name} needs an image with {self._NEEDS[code]} "
                             f"channel(s), got shape {img.shape}")
        if code == 0:
            return np.concatenate([img, _alpha(img)], axis=2)
        if code == 1:
            return img[:, :, :3].copy()
        if code == 2:
            return np.concatenate([img[:, :, ::-1], _alpha(img)], axis=2)
        if code == 3:
            return img[:, :, 2::-1].copy()
        if code == 4:
            return img[:, :, ::-1].copy()
        if code == 5:
            return img[:, :, [2, 1, 0, 3]].copy()
        if code in (6, 10):
            return rgb_to_gray(img[:, :, :3], bgr=True)
        if code in (7, 11):
            return rgb_to_gray(img[:, :, :3])
        gray = img if img.ndim == 2 else img[:, :, 0]
        out = np.repeat(gray[:, :, None], 3, axis=2)
        return out if code == 8 else np.concatenate([out, _alpha(out)], axis=2)


def _pil_gray(img: np.ndarray) -> np.ndarray:
    """Pillow's RGB -> L conversion (what MindSpore's PIL-based Grayscale uses)."""
    acc = img[..., 0].astype(np.int64) * 19595 + img[..., 1].astype(np.int64) * 38470 + \
        img[..., 2].astype(np.int64) * 7471
    return ((acc + 0x8000) >> 16).astype(np.uint8)


def _grayscale(op: str, img: np.ndarray, channels: int) -> np.ndarray:
    if img.ndim == 2:
        gray = img
    else:
        _rgb(op, img, ("uint8",))
        gray = _pil_gray(img)
    return gray if channels == 1 else np.repeat(gray[:, :, None], 3, axis=2)


class Grayscale(ImageOp):
    """Convert an RGB image (NumPy or PIL) to gray with Pillow's weights; 1 or 3 output channels."""

    def __init__(self, num_output_channels=1):
        if num_output_channels not in (1, 3):
            raise ValueError(f"Grayscale: num_output_channels must be 1 or 3, got {num_output_channels!r}")
        self.num_output_channels = num_output_channels

    def _apply(self, img):
        return _grayscale("Grayscale", img, self.num_output_channels)


class RandomGrayscale(RandomMixin, ImageOp):
    """With probability ``prob``, convert to gray keeping the channel count (3 channels for RGB)."""

    def __init__(self, prob=0.1):
        self.prob = check_prob("RandomGrayscale", prob)

    def _apply(self, img):
        if self._random().random() >= self.prob:
            return img
        return _grayscale("RandomGrayscale", img, 1 if img.ndim == 2 else 3)


class Invert(ImageOp):
    """``255 - image`` for uint8 images."""

    def _apply(self, img):
        if img.dtype != np.uint8:
            raise TypeError(f"Invert: expects a uint8 image, got {img.dtype}")
        return 255 - img


def _per_channel(img: np.ndarray, fn) -> np.ndarray:
    if img.dtype != np.uint8:
        raise TypeError(f"expects a uint8 image, got {img.dtype}")
    planes = img[:, :, None] if img.ndim == 2 else img
    if planes.shape[2] not in (1, 3):
        raise ValueError(f"channel of input image should be 1 or 3, got {planes.shape[2]}")
    out = np.stack([fn(planes[:, :, c]) for c in range(planes.shape[2])], axis=2)
    return out.reshape(img.shape)


def _auto_contrast_plane(plane, cutoff, ignore):
    hist = np.bincount(plane.ravel(), minlength=256).astype(np.int64)
    hist[list(ignore)] = 0
    n = int(hist.sum())
    for order, pct in ((range(256), cutoff), (range(255, -1, -1), cutoff)):
        cut = int(pct / 100.0 * n)
        for i in order:
            if cut <= 0:
                break
            take = min(cut, hist[i])
            hist[i] -= take
            cut -= take
    nonzero = np.flatnonzero(hist)
    lo = int(nonzero[0]) if nonzero.size else 255
    hi = int(nonzero[-1]) if nonzero.size else -1
    if hi <= lo:
        return plane.copy()
    f = np.float32
    s = f(255) / f(hi - lo)
    table = np.clip((np.arange(256, dtype=f) * s + (-f(lo) * s)).astype(np.int64), 0, 255).astype(np.uint8)
    return table[plane]


class AutoContrast(ImageOp):
    """Stretch each channel so that, after cutting ``cutoff`` percent of the darkest and brightest pixels
    (and ignoring the levels in ``ignore``), it spans 0..255."""

    def __init__(self, cutoff=0.0, ignore=None):
        self.cutoff = check_real("AutoContrast", "cutoff", cutoff, 0, 50)
        ignore = [] if ignore is None else [ignore] if isinstance(ignore, numbers.Integral) else list(ignore)
        if any(isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 0 <= v <= 255 for v in ignore):
            raise ValueError(f"AutoContrast: ignore must be ints in [0, 255], got {ignore!r}")
        self.ignore = ignore

    def _apply(self, img):
        cutoff = int(self.cutoff)  # MindSpore passes the percentage on as an int
        return _per_channel(img, lambda p: _auto_contrast_plane(p, cutoff, self.ignore))


def _equalize_plane(plane):
    hist = np.bincount(plane.ravel(), minlength=256)
    first = int(np.flatnonzero(hist)[0])
    total = plane.size
    if hist[first] == total:
        return np.full_like(plane, first)
    s = np.float32(255.0 / (total - hist[first]))
    table = np.zeros(256, np.uint8)
    table[first + 1:] = saturate(np.cumsum(hist[first + 1:]).astype(np.float32) * s, np.uint8)
    return table[plane]


class Equalize(ImageOp):
    """Equalize each channel's histogram (OpenCV's equalizeHist)."""

    def _apply(self, img):
        return _per_channel(img, _equalize_plane)


class Posterize(ImageOp):
    """Keep the ``bits`` high bits of every uint8 pixel."""

    def __init__(self, bits):
        if isinstance(bits, bool) or not isinstance(bits, numbers.Integral) or not 0 <= bits <= 8:
            raise ValueError(f"Posterize: bits must be an int in [0, 8], got {bits!r}")
        self.bits = int(bits)

    def _apply(self, img):
        if img.dtype != np.uint8:
            raise TypeError(f"Posterize: expects a uint8 image, got {img.dtype}")
        return img & np.uint8((0xFF << (8 - self.bits)) & 0xFF)


def _threshold(op, threshold):
    if isinstance(threshold, numbers.Real) and not isinstance(threshold, bool):
        threshold = (threshold, threshold)
    lo, hi = check_range(op, "threshold", threshold, 0, 255)
    return lo, hi


def solarize(img, lo, hi):
    if img.dtype.kind not in "iuf":
        raise TypeError(f"Solarize: expects a numeric image, got {img.dtype}")
    mask = (img >= lo) if lo == hi else ((img >= lo) & (img <= hi))
    return np.where(mask, saturate(255.0 - img.astype(np.float64), img.dtype), img)


class Solarize(ImageOp):
    """Invert the pixels at or above ``threshold`` (a number), or inside a (min, max) range."""

    def __init__(self, threshold):
        self.threshold = _threshold("Solarize", threshold)

    def _apply(self, img):
        return solarize(img, *self.threshold)


_SMOOTH = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float32) / np.float32(13)


def adjust_sharpness(img, factor):
    if img.ndim not in (2, 3):
        raise ValueError(f"AdjustSharpness: expects an <H, W> or <H, W, C> image, got {img.shape}")
    work = img.astype(np.float32)
    padded = np.pad(work, [(1, 1), (1, 1)] + [(0, 0)] * (img.ndim - 2), mode="reflect")
    h, w = img.shape[:2]
    smooth = sum(padded[i:i + h, j:j + w] * _SMOOTH[i, j] for i in range(3) for j in range(3))
    smooth = saturate(smooth, img.dtype)
    smooth[0], smooth[-1], smooth[:, 0], smooth[:, -1] = img[0], img[-1], img[:, 0], img[:, -1]
    factor = _f32(factor)
    return blend(img, factor, smooth, 1.0 - factor, img.dtype)


class AdjustSharpness(ImageOp):
    """Blend with a smoothed copy: 0 blurs, 1 keeps the image, 2 sharpens."""

    def __init__(self, sharpness_factor):
        self.sharpness_factor = check_real("AdjustSharpness", "sharpness_factor", sharpness_factor, 0)

    def _apply(self, img):
        return adjust_sharpness(img, self.sharpness_factor)


class RandomSharpness(RandomMixin, ImageOp):
    """AdjustSharpness with a factor drawn uniformly from ``degrees``."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = check_range("RandomSharpness", "degrees", degrees, 0)

    def _apply(self, img):
        return adjust_sharpness(img, float(self._random().uniform(*self.degrees)))


class RandomAdjustSharpness(RandomMixin, ImageOp):
    """With probability ``prob``, AdjustSharpness by ``degree``."""

    def __init__(self, degree, prob=0.5):
        self.degree = check_real("RandomAdjustSharpness", "degree", degree, 0)
        self.prob = check_prob("RandomAdjustSharpness", prob)

    def _apply(self, img):
        return adjust_sharpness(img, self.degree) if self._random().random() < self.prob else img


class RandomColor(RandomMixin, ImageOp):
    """AdjustSaturation with a factor drawn uniformly from ``degrees``."""

    def __init__(self, degrees=(0.1, 1.9)):
        self.degrees = check_range("RandomColor", "degrees", degrees, 0)

    def _apply(self, img):
        return adjust_saturation(img, float(self._random().uniform(*self.degrees)))


class _RandomApply(RandomMixin, ImageOp):
    """Apply ``self._op`` with probability ``prob``."""

    def _apply(self, img):
        return self._op(img) if self._random().random() < self.prob else img


class RandomInvert(_RandomApply):
    """Invert with probability ``prob``."""

    def __init__(self, prob=0.5):
        self.prob = check_prob("RandomInvert", prob)
        self._op = Invert()._apply


class RandomEqualize(_RandomApply):
    """Equalize with probability ``prob``."""

    def __init__(self, prob=0.5):
        self.prob = check_prob("RandomEqualize", prob)
        self._op = Equalize()._apply


class RandomAutoContrast(_RandomApply):
    """AutoContrast with probability ``prob``."""

    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        self.prob = check_prob("RandomAutoContrast", prob)
        self._op = AutoContrast(cutoff, ignore)._apply


class RandomPosterize(RandomMixin, ImageOp):
    """Posterize with a bit count drawn from the ``bits`` (min, max) range."""

    def __init__(self, bits=(8, 8)):
        bits = (bits, bits) if isinstance(bits, numbers.Integral) else bits
        lo, hi = check_range("RandomPosterize", "bits", bits, 1, 8)
        self.bits = (int(lo), int(hi))

    def _apply(self, img):
        return Posterize(int(self._random().integers(self.bits[0], self.bits[1] + 1)))._apply(img)


class RandomSolarize(RandomMixin, ImageOp):
    """Solarize with a threshold range whose ends are drawn from ``threshold`` (min, max)."""

    def __init__(self, threshold=(0, 255)):
        self.threshold = check_range("RandomSolarize", "threshold", threshold, 0, 255)

    def _apply(self, img):
        lo, hi = sorted(int(v) for v in self._random().integers(self.threshold[0], self.threshold[1] + 1, size=2))
        return solarize(img, lo, hi)


_EIGVAL = np.array([0.2175, 0.0188, 0.0045])
_EIGVEC = np.array([[-0.5675, 0.7192, 0.4009], [-0.5808, -0.0045, -0.8140], [-0.5836, -0.6948, 0.4203]])


class RandomLighting(RandomMixin, ImageOp):
    """AlexNet's PCA lighting noise: add ``eigvec @ (eigval * N(0, alpha))`` (scaled to 0..255) to every pixel."""

    def __init__(self, alpha=0.05):
        self.alpha = check_real("RandomLighting", "alpha", alpha, 0)

    def _apply(self, img):
        _rgb("RandomLighting", img, ("uint8", "float32"))
        alphas = self._random().normal(0.0, self.alpha, 3)
        delta = (_EIGVEC @ (alphas * _EIGVAL)) * 255.0
        return saturate(img.astype(np.float64) + delta, img.dtype)
