"""Occlusion and mixing augmentations: CutOut, Erase, RandomErasing, MixUpBatch, CutMixBatch, and the
multi-crop FiveCrop/TenCrop."""
from __future__ import annotations

import math
import numbers
from enum import IntEnum

import numpy as np

from .base import ImageOp, RandomMixin, check_prob, check_range, check_real, image_in, image_out
from .geometry import CenterCrop, _square, check_size


def _fill(op, value, channels, dtype):
    vals = np.atleast_1d(np.asarray(value, np.float64))
    if vals.size not in (1, channels):
        raise ValueError(f"{op}: value must be one number or one per channel ({channels}), got {value!r}")
    return np.resize(vals, channels).astype(dtype)


class CutOut(RandomMixin, ImageOp):
    """Zero ``num_patches`` random ``length`` x ``length`` squares (HWC, or CHW with ``is_hwc=False``)."""

    _ranks = (3,)

    def __init__(self, length, num_patches=1, is_hwc=True):
        for name, v in (("length", length), ("num_patches", num_patches)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
                raise ValueError(f"CutOut: {name} must be a positive int, got {v!r}")
        self.length, self.num_patches, self.is_hwc = int(length), int(num_patches), bool(is_hwc)

    def _apply(self, img):
        out = img.copy()
        view = out if self.is_hwc else out.transpose(1, 2, 0)
        h, w = view.shape[:2]
        if self.length > h or self.length > w:
            raise ValueError(f"CutOut: length {self.length} is larger than the {h}x{w} image")
        rng = self._random()
        for _ in range(self.num_patches):
            top, left = int(rng.integers(h - self.length + 1)), int(rng.integers(w - self.length + 1))
            view[top:top + self.length, left:left + self.length] = 0
        return out


class Erase(ImageOp):
    """Set the (top, left, height, width) box of an HWC image to ``value`` (a number or one per channel)."""

    def __init__(self, top, left, height, width, value=0, inplace=False):
        for name, v, low in (("top", top, 0), ("left", left, 0), ("height", height, 1), ("width", width, 1)):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < low:
                raise ValueError(f"Erase: {name} must be an int >= {low}, got {v!r}")
        self.box = (int(top), int(left), int(height), int(width))
        self.value, self.inplace = value, bool(inplace)

    def _apply(self, img):
        top, left, h, w = self.box
        if top + h > img.shape[0] or left + w > img.shape[1]:
            raise ValueError(f"Erase: the box {self.box} exceeds the {img.shape[0]}x{img.shape[1]} image")
        out = img if self.inplace and img.flags.writeable else img.copy()
        channels = 1 if img.ndim == 2 else img.shape[2]
        fill = _fill("Erase", self.value, channels, img.dtype)
        out[top:top + h, left:left + w] = fill if img.ndim == 3 else fill[0]
        return out


class RandomErasing(RandomMixin, ImageOp):
    """With probability ``prob``, erase a random box of a CHW image (area fraction in ``scale``, aspect in
    ``ratio``) with ``value`` (a number, one per channel, or 'random' for normal noise)."""

    _ranks = (3,)

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False, max_attempts=10):
        self.prob = check_prob("RandomErasing", prob)
        self.scale = check_range("RandomErasing", "scale", scale, 0)
        self.ratio = check_range("RandomErasing", "ratio", ratio, 0)
        if not (value == "random" or isinstance(value, (numbers.Real, list, tuple))):
            raise TypeError(f"RandomErasing: value must be a number, a sequence or 'random', got {value!r}")
        self.value, self.inplace = value, bool(inplace)
        self.max_attempts = int(max_attempts)

    def _apply(self, img):
        rng = self._random()
        if rng.random() >= self.prob:
            return img
        c, h, w = img.shape
        area = h * w
        for _ in range(self.max_attempts):
            target = rng.uniform(*self.scale) * area
            aspect = math.exp(rng.uniform(math.log(self.ratio[0]), math.log(self.ratio[1])))
            eh, ew = int(round(math.sqrt(target * aspect))), int(round(math.sqrt(target / aspect)))
            if eh < h and ew < w:
                top, left = int(rng.integers(h - eh + 1)), int(rng.integers(w - ew + 1))
                out = img if self.inplace and img.flags.writeable else img.copy()
                if self.value == "random":
                    out[:, top:top + eh, left:left + ew] = rng.normal(size=(c, eh, ew)).astype(img.dtype)
                else:
                    out[:, top:top + eh, left:left + ew] = _fill("RandomErasing", self.value, c,
                                                                 img.dtype)[:, None, None]
                return out
        return img


class ImageBatchFormat(IntEnum):
    NHWC = 0
    NCHW = 1


def _batch(op, images, labels):
    images, labels = np.asarray(images), np.asarray(labels)
    if images.ndim != 4:
        raise ValueError(f"{op}: images must be a batch of shape <N, H, W, C> or <N, C, H, W>, got {images.shape}; "
                         "batch the dataset first")
    if labels.ndim not in (2, 3) or labels.shape[0] != images.shape[0]:
        raise ValueError(f"{op}: labels must be one-hot with shape <N, C> or <N, L, C> matching the images, got "
                         f"{labels.shape}; apply transforms.OneHot before batching")
    return images, labels


class MixUpBatch(RandomMixin, ImageOp):
    """Mix every image and label of a batch with those of a shuffled partner, weight ~ Beta(alpha, alpha)."""

    def __init__(self, alpha=1.0):
        self.alpha = check_real("MixUpBatch", "alpha", alpha, 0, low_open=True)

    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError(f"MixUpBatch: takes two columns (images, labels), got {len(args)}")
        images, labels = _batch("MixUpBatch", *args)
        rng = self._random()
        lam = float(rng.beta(self.alpha, self.alpha))
        perm = rng.permutation(images.shape[0])
        mixed = lam * images.astype(np.float32) + (1 - lam) * images[perm].astype(np.float32)
        out_labels = lam * labels.astype(np.float32) + (1 - lam) * labels[perm].astype(np.float32)
        return mixed.astype(images.dtype), out_labels.astype(labels.dtype)


class CutMixBatch(RandomMixin, ImageOp):
    """With probability ``prob`` per image, paste a random box from a shuffled partner (box area from
    Beta(alpha, alpha)); labels mix by the pasted area."""

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        if not isinstance(image_batch_format, ImageBatchFormat):
            raise TypeError(f"CutMixBatch: image_batch_format must be a vision.ImageBatchFormat, "
                            f"got {image_batch_format!r}")
        self.image_batch_format = image_batch_format
        self.alpha = check_real("CutMixBatch", "alpha", alpha, 0, low_open=True)
        self.prob = check_prob("CutMixBatch", prob)

    def __call__(self, *args):
        if len(args) != 2:
            raise TypeError(f"CutMixBatch: takes two columns (images, labels), got {len(args)}")
        images, labels = _batch("CutMixBatch", *args)
        nhwc = images if self.image_batch_format is ImageBatchFormat.NHWC else images.transpose(0, 2, 3, 1)
        out, out_labels = nhwc.copy(), labels.astype(np.float32)
        rng = self._random()
        n, h, w = nhwc.shape[:3]
        perm = rng.permutation(n)
        for i in range(n):
            lam = float(rng.beta(self.alpha, self.alpha))
            if rng.random() >= self.prob:
                continue
            cut_h, cut_w = int(h * math.sqrt(1 - lam)), int(w * math.sqrt(1 - lam))
            cy, cx = int(rng.integers(h)), int(rng.integers(w))
            y0, y1 = max(cy - cut_h // 2, 0), min(cy + cut_h // 2, h)
            x0, x1 = max(cx - cut_w // 2, 0), min(cx + cut_w // 2, w)
            out[i, y0:y1, x0:x1] = nhwc[perm[i], y0:y1, x0:x1]
            kept = 1 - (y1 - y0) * (x1 - x0) / (h * w)
            out_labels[i] = kept * labels[i] + (1 - kept) * labels[perm[i]]
        if self.image_batch_format is ImageBatchFormat.NCHW:
            out = out.transpose(0, 3, 1, 2)
        return np.ascontiguousarray(out), out_labels.astype(labels.dtype)


class FiveCrop(ImageOp):
    """The four corner crops and the centre crop of ``size``, as a tuple (top-left, top-right, bottom-left,
    bottom-right, centre)."""

    def __init__(self, size):
        self.size = _square(check_size("FiveCrop", size))

    def crops(self, img):
        th, tw = self.size
        h, w = img.shape[:2]
        if th > h or tw > w:
            raise ValueError(f"FiveCrop: crop size {self.size} is larger than the {h}x{w} image")
        return [img[:th, :tw], img[:th, w - tw:], img[h - th:, :tw], img[h - th:, w - tw:],
                CenterCrop(self.size)._apply(img)]

    def __call__(self, *args):
        img, pil = image_in("FiveCrop", args)
        return tuple(image_out(np.ascontiguousarray(c), pil) for c in self.crops(img))


class TenCrop(FiveCrop):
    """FiveCrop of the image and of its mirror (vertical mirror with ``use_vertical_flip``)."""

    def __init__(self, size, use_vertical_flip=False):
        super().__init__(size)
        self.use_vertical_flip = bool(use_vertical_flip)

    def __call__(self, *args):
        img, pil = image_in("TenCrop", args)
        flipped = img[::-1] if self.use_vertical_flip else img[:, ::-1]
        return tuple(image_out(np.ascontiguousarray(c), pil) for c in self.crops(img) + self.crops(flipped))
