"""Geometric image transforms: Resize, crops, padding and flips (values as MindSpore's OpenCV kernels give)."""
from __future__ import annotations

import math
import numbers
from enum import Enum, StrEnum

import numpy as np

from .base import ImageOp, RandomMixin, check_prob, check_range, fill_color, image_in, image_out
from .resize import resize


class Inter(Enum):
    """Interpolation modes, with MindSpore's values (LINEAR/CUBIC are the older names of BILINEAR/BICUBIC)."""
    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(StrEnum):
    """Padding modes (EDGE repeats the edge pixel, REFLECT mirrors without it, SYMMETRIC mirrors with it)."""
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


_KERNELS = {Inter.NEAREST: "nearest", Inter.BILINEAR: "linear", Inter.BICUBIC: "cubic", Inter.AREA: "area",
            Inter.PILCUBIC: "pilcubic"}
_PIL_FILTERS = {Inter.NEAREST: 0, Inter.ANTIALIAS: 1, Inter.BILINEAR: 2, Inter.BICUBIC: 3, Inter.AREA: 4,
                Inter.PILCUBIC: 3}  # PIL.Image.Resampling values (ANTIALIAS = LANCZOS, AREA = BOX)


def check_inter(op: str, interpolation) -> Inter:
    if not isinstance(interpolation, Inter):
        raise TypeError(f"{op}: interpolation must be a vision.Inter, got {interpolation!r}")
    return interpolation


def resize_image(op: str, img: np.ndarray, h: int, w: int, interpolation: Inter, pil: bool):
    """Resize a NumPy image with MindSpore's kernels, or (for an image that came as PIL) with Pillow's."""
    if pil:
        from PIL import Image
        return np.asarray(Image.fromarray(img).resize((w, h), _PIL_FILTERS[interpolation]))
    if interpolation is Inter.ANTIALIAS:
        raise TypeError(f"{op}: Inter.ANTIALIAS needs a PIL image (use vision.ToPIL() first), as in MindSpore")
    if interpolation is Inter.PILCUBIC and (img.ndim != 3 or img.shape[2] != 3 or img.dtype != np.uint8):
        raise ValueError(f"{op}: Inter.PILCUBIC supports uint8 images with 3 channels only, got {img.dtype} "
                         f"{img.shape}")
    return resize(img, h, w, _KERNELS[interpolation])


def check_size(op: str, size, allow_int=True) -> tuple:
    """(h, w) from an int (``(s,)``: one value, meaning depends on the op) or a (height, width) pair."""
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


def _square(size: tuple) -> tuple:
    return size * 2 if len(size) == 1 else size


def short_side(h: int, w: int, size: tuple) -> tuple:
    """The output (h, w) of Resize(size): an int resizes the shorter side, keeping the aspect ratio."""
    if len(size) == 2:
        return size
    if h <= w:
        return size[0], int(w * size[0] / h)
    return int(h * size[0] / w), size[0]


class Resize(ImageOp):
    """Resize to ``size`` (h, w); an int resizes the shorter side to it, keeping the aspect ratio."""

    def __init__(self, size, interpolation=Inter.BILINEAR):
        self.size = check_size("Resize", size)
        self.interpolation = check_inter("Resize", interpolation)

    def __call__(self, *args):
        img, pil = image_in("Resize", args)
        h, w = short_side(img.shape[0], img.shape[1], self.size)
        return image_out(resize_image("Resize", img, h, w, self.interpolation, pil), pil)


def pad(img: np.ndarray, top, bottom, left, right, fill, mode) -> np.ndarray:
    widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
    if mode is not Border.CONSTANT:
        return np.pad(img, widths, mode=mode.value)
    out = np.empty((img.shape[0] + top + bottom, img.shape[1] + left + right) + img.shape[2:], img.dtype)
    if img.ndim == 3:
        out[...] = np.resize(np.asarray(fill, dtype=img.dtype), img.shape[2])
    else:
        out[...] = np.asarray(fill).ravel()[0]
    out[top:top + img.shape[0], left:left + img.shape[1]] = img
    return out


def check_padding(op: str, padding) -> tuple:
    """(top, bottom, left, right) from MindSpore's int / (left-right, top-bottom) / (left, top, right, bottom)."""
    vals = [padding] if isinstance(padding, numbers.Integral) else padding
    if not isinstance(vals, (list, tuple)) or len(vals) not in (1, 2, 4) or any(
            isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0 for v in vals):
        raise ValueError(f"{op}: padding must be a non-negative int or a tuple of 2 or 4 of them, got {padding!r}")
    vals = [int(v) for v in vals]
    if len(vals) == 1:
        return tuple(vals * 4)
    if len(vals) == 2:
        return vals[1], vals[1], vals[0], vals[0]
    left, top, right, bottom = vals
    return top, bottom, left, right


def check_border(op: str, mode) -> Border:
    if not isinstance(mode, Border):
        raise TypeError(f"{op}: padding_mode must be a vision.Border, got {mode!r}")
    return mode


class Pad(ImageOp):
    """Pad by ``padding`` (int, (left-right, top-bottom) or (left, top, right, bottom)) with ``fill_value``
    or by repeating/mirroring the border (``padding_mode``)."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = check_padding("Pad", padding)
        self.fill_value = fill_color("Pad", fill_value)
        self.padding_mode = check_border("Pad", padding_mode)

    def _apply(self, img):
        return pad(img, *self.padding, self.fill_value, self.padding_mode)


class PadToSize(ImageOp):
    """Pad to ``size`` (h, w), with ``offset`` (top, left) of padding before the image (None: centered)."""

    def __init__(self, size, offset=None, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _square(check_size("PadToSize", size))
        if offset is not None:
            offset = _square(check_size("PadToSize", offset)) if offset != 0 and offset != (0, 0) else (0, 0)
        self.offset = offset
        self.fill_value = fill_color("PadToSize", fill_value)
        self.padding_mode = check_border("PadToSize", padding_mode)

    def _apply(self, img):
        (th, tw), (h, w) = self.size, img.shape[:2]
        if th < h or tw < w:
            raise ValueError(f"PadToSize: target size {(th, tw)} is smaller than the image {(h, w)}")
        top, left = self.offset if self.offset is not None else ((th - h) // 2, (tw - w) // 2)
        if top + h > th or left + w > tw:
            raise ValueError(f"PadToSize: offset {(top, left)} puts the {(h, w)} image outside {(th, tw)}")
        return pad(img, top, th - h - top, left, tw - w - left, self.fill_value, self.padding_mode)


class CenterCrop(ImageOp):
    """Crop the central ``size`` region (offsets rounded down); a larger size pads with zeros."""

    def __init__(self, size):
        self.size = _square(check_size("CenterCrop", size))

    def _apply(self, img):
        h, w = img.shape[:2]
        th, tw = self.size
        top, left = (h - th) // 2, (w - tw) // 2
        if top < 0 or left < 0:
            pt, pl = max(-top, 0), max(-left, 0)
            img = pad(img, pt, max(th - h - pt, 0), pl, max(tw - w - pl, 0), 0, Border.CONSTANT)
            top, left = max(top, 0), max(left, 0)
        return img[top:top + th, left:left + tw].copy()


def crop(op: str, img: np.ndarray, top: int, left: int, h: int, w: int) -> np.ndarray:
    if top < 0 or left < 0 or top + h > img.shape[0] or left + w > img.shape[1]:
        raise ValueError(f"{op}: the crop box (top={top}, left={left}, height={h}, width={w}) exceeds the "
                         f"{img.shape[0]}x{img.shape[1]} image")
    return img[top:top + h, left:left + w].copy()


class Crop(ImageOp):
    """Crop the ``size`` region whose top-left corner is ``coordinates`` (top, left)."""

    def __init__(self, coordinates, size):
        if not isinstance(coordinates, (list, tuple)) or len(coordinates) != 2 or any(
                isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0 for v in coordinates):
            raise ValueError(f"Crop: coordinates must be a (top, left) pair of non-negative ints, got {coordinates!r}")
        self.coordinates = tuple(int(v) for v in coordinates)
        self.size = _square(check_size("Crop", size))

    def _apply(self, img):
        return crop("Crop", img, *self.coordinates, *self.size)


class RandomCrop(RandomMixin, ImageOp):
    """Pad by ``padding`` (and up to ``size`` if ``pad_if_needed``), then crop ``size`` at a random place."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0, padding_mode=Border.CONSTANT):
        self.size = _square(check_size("RandomCrop", size))
        self.padding = (0, 0, 0, 0) if padding is None else check_padding("RandomCrop", padding)
        self.pad_if_needed = bool(pad_if_needed)
        self.fill_value = fill_color("RandomCrop", fill_value)
        self.padding_mode = check_border("RandomCrop", padding_mode)

    def _apply(self, img):
        th, tw = self.size
        img = pad(img, *self.padding, self.fill_value, self.padding_mode) if any(self.padding) else img
        h, w = img.shape[:2]
        if self.pad_if_needed and (h < th or w < tw):
            dh, dw = max(th - h, 0), max(tw - w, 0)
            img = pad(img, dh // 2, dh - dh // 2, dw // 2, dw - dw // 2, self.fill_value, self.padding_mode)
            h, w = img.shape[:2]
        if h < th or w < tw:
            raise ValueError(f"RandomCrop: crop size {(th, tw)} is larger than the (padded) image {(h, w)}; "
                             "set pad_if_needed=True")
        rng = self._random()
        top, left = int(rng.integers(h - th + 1)), int(rng.integers(w - tw + 1))
        return img[top:top + th, left:left + tw].copy()


class HorizontalFlip(ImageOp):
    """Mirror the image left-right."""

    def _apply(self, img):
        return img[:, ::-1].copy()


class VerticalFlip(ImageOp):
    """Mirror the image top-bottom."""

    def _apply(self, img):
        return img[::-1].copy()


class RandomHorizontalFlip(RandomMixin, ImageOp):
    """Mirror the image left-right with probability ``prob``."""

    def __init__(self, prob=0.5):
        self.prob = check_prob("RandomHorizontalFlip", prob)

    def _apply(self, img):
        return img[:, ::-1].copy() if self._random().random() < self.prob else img


class RandomVerticalFlip(RandomMixin, ImageOp):
    """Mirror the image top-bottom with probability ``prob``."""

    def __init__(self, prob=0.5):
        self.prob = check_prob("RandomVerticalFlip", prob)

    def _apply(self, img):
        return img[::-1].copy() if self._random().random() < self.prob else img


class ResizedCrop(ImageOp):
    """Crop the (top, left, height, width) box, then resize it to ``size``."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        for name, v, low in (("top", top, 0), ("left", left, 0), ("height", height, 1), ("width", width, 1)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
                raise ValueError(f"ResizedCrop: {name} must be an int >= {low}, got {v!r}")
        self.box = (int(top), int(left), int(height), int(width))
        self.size = _square(check_size("ResizedCrop", size))
        self.interpolation = check_inter("ResizedCrop", interpolation)

    def __call__(self, *args):
        img, pil = image_in("ResizedCrop", args)
        part = crop("ResizedCrop", img, *self.box)
        return image_out(resize_image("ResizedCrop", part, *self.size, self.interpolation, pil), pil)


class CropBox(RandomMixin):
    """MindSpore's random crop box of RandomResizedCrop / RandomCropDecodeResize: up to ``max_attempts`` draws of
    an area fraction in ``scale`` and a log-uniform aspect ratio in ``ratio``, then a centered fallback."""

    def _init_box(self, op, size, scale, ratio, interpolation, max_attempts):
        self.size = _square(check_size(op, size))
        self.scale = check_range(op, "scale", scale, 0.0)
        self.ratio = check_range(op, "ratio", ratio, 0.0)
        if self.ratio[0] <= 0:
            raise ValueError(f"{op}: ratio must be positive, got {ratio!r}")
        self.interpolation = check_inter(op, interpolation)
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, numbers.Integral) or max_attempts < 1:
            raise ValueError(f"{op}: max_attempts must be a positive int, got {max_attempts!r}")
        self.max_attempts = int(max_attempts)

    def _box(self, h: int, w: int) -> tuple:
        rng = self._random()
        log_lo, log_hi = math.log(self.ratio[0]), math.log(self.ratio[1])
        for _ in range(self.max_attempts):
            area = rng.uniform(*self.scale) if self.scale[0] < self.scale[1] else self.scale[0]
            aspect = math.exp(rng.uniform(log_lo, log_hi) if log_lo < log_hi else log_lo)
            cw = max(int(round(math.sqrt(h * w * area * aspect))), 1)
            ch = max(int(round(cw / aspect)), 1)
            if cw <= w and ch <= h:
                return int(rng.integers(h - ch + 1)), int(rng.integers(w - cw + 1)), ch, cw
        img_aspect = w / h
        if img_aspect < self.ratio[0]:
            cw, ch = w, int(round(w / self.ratio[0]))
        elif img_aspect > self.ratio[1]:
            ch, cw = h, int(round(h * self.ratio[1]))
        else:
            ch, cw = h, w
        ch, cw = max(ch, 1), max(cw, 1)
        return int(round((h - ch) / 2)), int(round((w - cw) / 2)), ch, cw


class RandomResizedCrop(CropBox, ImageOp):
    """Crop a random box (area fraction in ``scale``, aspect ratio in ``ratio``) and resize it to ``size``.
    Several image columns get the same box."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4.0, 4.0 / 3.0), interpolation=Inter.BILINEAR,
                 max_attempts=10):
        self._init_box("RandomResizedCrop", size, scale, ratio, interpolation, max_attempts)

    def __call__(self, *args):
        if not args:
            raise TypeError("RandomResizedCrop: takes at least one image column")
        images = [image_in("RandomResizedCrop", (a,)) for a in args]
        shapes = {img.shape[:2] for img, _ in images}
        if len(shapes) != 1:
            raise ValueError(f"RandomResizedCrop: all images must have the same height and width, got {shapes}")
        top, left, ch, cw = self._box(*shapes.pop())
        outs = tuple(image_out(resize_image("RandomResizedCrop", img[top:top + ch, left:left + cw], *self.size,
                                            self.interpolation, pil), pil) for img, pil in images)
        return outs if len(outs) > 1 else outs[0]


class RandomResize(RandomMixin, ImageOp):
    """Resize to ``size`` with an interpolation drawn from NEAREST, BILINEAR, BICUBIC and AREA."""

    _MODES = (Inter.NEAREST, Inter.BILINEAR, Inter.BICUBIC, Inter.AREA)

    def __init__(self, size):
        self.size = check_size("RandomResize", size)

    def __call__(self, *args):
        img, pil = image_in("RandomResize", args)
        mode = self._MODES[int(self._random().integers(len(self._MODES)))]
        h, w = short_side(img.shape[0], img.shape[1], self.size)
        return image_out(resize_image("RandomResize", img, h, w, mode, pil), pil)
