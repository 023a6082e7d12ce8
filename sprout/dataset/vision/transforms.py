"""Image transforms for ``Dataset.map`` on NumPy HWC images: Rescale, Normalize, HWC2CHW, ToTensor."""
from __future__ import annotations

import numbers

import numpy as np

from .._checks import np_dtype
from ..transforms.transforms import TensorOperation


def _image(op: str, args) -> np.ndarray:
    if len(args) != 1:
        raise TypeError(f"{op}: takes one image column, got {len(args)}")
    img = args[0]
    if hasattr(img, "asnumpy"):
        img = img.asnumpy()
    if not isinstance(img, np.ndarray):
        raise TypeError(f"{op}: input must be a NumPy image, got {type(img).__name__}")
    return img


def _real(op: str, name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{op}: {name} must be a number, got {type(value).__name__} {value!r}")
    return float(value)


class Rescale(TensorOperation):
    """``image * rescale + shift``, as float32."""

    def __init__(self, rescale, shift):
        self.rescale = _real("Rescale", "rescale", rescale)
        self.shift = _real("Rescale", "shift", shift)
        self._scale, self._shift = np.float32(self.rescale), np.float32(self.shift)

    def __call__(self, *args):
        img = _image("Rescale", args).astype(np.float32)
        img *= self._scale
        img += self._shift
        return img


class Normalize(TensorOperation):
    """``(image - mean) / std`` per channel, as float32; channels are last (HWC) unless ``is_hwc=False``.
    A 2-D (HW) image takes a single mean and std."""

    def __init__(self, mean, std, is_hwc=True):
        mean, std = list(np.atleast_1d(mean)), list(np.atleast_1d(std))
        if len(mean) != len(std):
            raise ValueError(f"Normalize: mean and std must have the same length, got {len(mean)} and {len(std)}")
        for i, (m, s) in enumerate(zip(mean, std)):
            if not 0.0 <= _real("Normalize", f"mean[{i}]", m) <= 255.0:
                raise ValueError(f"Normalize: mean[{i}] must be in [0, 255], got {m}")
            if not 0.0 < _real("Normalize", f"std[{i}]", s) <= 255.0:
                raise ValueError(f"Normalize: std[{i}] must be in (0, 255], got {s}")
        self.mean = [float(m) for m in mean]
        self.std = [float(s) for s in std]
        self.is_hwc = bool(is_hwc)
        self._planes = {}  # image shape -> contiguous mean and std planes (a short channel axis broadcasts slowly)

    def __call__(self, *args):
        img = _image("Normalize", args).astype(np.float32)
        if img.ndim == 2:
            channels = 1
        elif img.ndim == 3:
            channels = img.shape[-1] if self.is_hwc else img.shape[0]
        else:
            raise ValueError(f"Normalize: expects an HW or {'HWC' if self.is_hwc else 'CHW'} image, "
                             f"got shape {img.shape}")
        if len(self.mean) not in (1, channels):
            raise ValueError(f"Normalize: {len(self.mean)} mean/std values for an image with {channels} channels")
        mean, std = self._planes.get(img.shape) or self._make_planes(img.shape)
        img -= mean
        img /= std
        return img

    def _make_planes(self, shape):
        mean, std = np.asarray(self.mean, np.float32), np.asarray(self.std, np.float32)
        if len(shape) == 3 and not self.is_hwc:
            mean, std = mean[:, None, None], std[:, None, None]
        planes = (np.ascontiguousarray(np.broadcast_to(mean, shape)), np.ascontiguousarray(np.broadcast_to(std, shape)))
        if len(self._planes) < 8:
            self._planes[shape] = planes
        return planes


class HWC2CHW(TensorOperation):
    """Move the channel axis first: (H, W, C) -> (C, H, W); an (H, W) image is returned unchanged."""

    def __call__(self, *args):
        img = _image("HWC2CHW", args)
        if img.ndim == 2:
            return img
        if img.ndim != 3:
            raise ValueError(f"HWC2CHW: expects an HWC or HW image, got shape {img.shape}")
        return np.ascontiguousarray(img.transpose(2, 0, 1))


class ToTensor(TensorOperation):
    """An HWC (or HW) image to CHW ``output_type`` (float32) with values divided by 255."""

    def __init__(self, output_type=np.float32):
        self.output_type = output_type
        self._np = np_dtype("ToTensor", output_type)

    def __call__(self, *args):
        img = _image("ToTensor", args)
        if img.ndim == 2:
            img = img[:, :, None]
        if img.ndim != 3:
            raise ValueError(f"ToTensor: expects an HWC or HW image, got shape {img.shape}")
        chw = np.ascontiguousarray(img.transpose(2, 0, 1)).astype(self._np)
        return chw * self._np.type(1.0 / 255.0) if self._np.kind == "f" else chw // 255
