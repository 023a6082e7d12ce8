"""Pixel-value transforms on HWC images: Rescale, Normalize, NormalizePad, HWC2CHW, ToTensor, ToType and
LinearTransformation."""
from __future__ import annotations

import numpy as np

from .._checks import np_dtype
from .base import ImageOp, check_real, image_in


class Rescale(ImageOp):
    """``image * rescale + shift``, as float32."""

    _ranks = ()

    def __init__(self, rescale, shift):
        self.rescale = check_real("Rescale", "rescale", rescale)
        self.shift = check_real("Rescale", "shift", shift)
        self._scale, self._shift = np.float32(self.rescale), np.float32(self.shift)

    def _apply(self, img):
        # one rounding, as OpenCV's fused multiply-add gives
        out = img.astype(np.float64) * np.float64(self._scale) + np.float64(self._shift)
        return out.astype(np.float32)


def _mean_std(op: str, mean, std):
    mean, std = list(np.atleast_1d(mean)), list(np.atleast_1d(std))
    if len(mean) != len(std):
        raise ValueError(f"{op}: mean and std must have the same length, got {len(mean)} and {len(std)}")
    for i, (m, s) in enumerate(zip(mean, std)):
        check_real(op, f"mean[{i}]", m, 0, 255)
        check_real(op, f"std[{i}]", s, 0, 255, low_open=True)
    return [float(m) for m in mean], [float(s) for s in std]


def _channels(op: str, img: np.ndarray, is_hwc: bool, n: int) -> int:
    if img.ndim == 2:
        channels = 1
    elif img.ndim == 3:
        channels = img.shape[-1] if is_hwc else img.shape[0]
    else:
        raise ValueError(f"{op}: expects an HW or {'HWC' if is_hwc else 'CHW'} image, got shape {img.shape}")
    if n not in (1, channels):
        raise ValueError(f"{op}: {n} mean/std values for an image with {channels} channels")
    return channels


class Normalize(ImageOp):
    """``(image - mean) / std`` per channel, as float32; channels are last (HWC) unless ``is_hwc=False``.
    A 2-D (HW) image takes a single mean and std."""

    _ranks = ()

    def __init__(self, mean, std, is_hwc=True):
        self.mean, self.std = _mean_std("Normalize", mean, std)
        self.is_hwc = bool(is_hwc)
        self._planes = {}  # image shape -> contiguous mean and std planes (a short channel axis broadcasts slowly)

    def _apply(self, img):
        _channels("Normalize", img, self.is_hwc, len(self.mean))
        out = img.astype(np.float32)
        mean, std = self._planes.get(img.shape) or self._make_planes(img.shape)
        out -= mean
        out /= std
        return out

    def _make_planes(self, shape):
        mean, std = np.asarray(self.mean, np.float32), np.asarray(self.std, np.float32)
        if len(shape) == 3 and not self.is_hwc:
            mean, std = mean[:, None, None], std[:, None, None]
        planes = (np.ascontiguousarray(np.broadcast_to(mean, shape)), np.ascontiguousarray(np.broadcast_to(std, shape)))
        if len(self._planes) < 8:
            self._planes[shape] = planes
        return planes


class NormalizePad(Normalize):
    """Normalize, then append one zero channel (HWC: last axis, CHW: first); ``dtype`` float32 or float16."""

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        super().__init__(mean, std, is_hwc)
        if dtype not in ("float32", "float16"):
            raise ValueError(f"NormalizePad: dtype must be 'float32' or 'float16', got {dtype!r}")
        self.dtype = dtype

    def _apply(self, img):
        norm = super()._apply(img).astype(self.dtype)
        if norm.ndim == 2:
            norm = norm[:, :, None] if self.is_hwc else norm[None]
        axis = -1 if self.is_hwc else 0
        zeros = np.zeros(norm.shape[:2] + (1,) if self.is_hwc else (1,) + norm.shape[1:], norm.dtype)
        return np.concatenate([norm, zeros], axis=axis)


class HWC2CHW(ImageOp):
    """Move the channel axis first: (H, W, C) -> (C, H, W); an (H, W) image is returned unchanged."""

    def __call__(self, *args):
        img, _ = image_in("HWC2CHW", args)
        return img if img.ndim == 2 else np.ascontiguousarray(img.transpose(2, 0, 1))


class ToTensor(ImageOp):
    """An HWC (or HW) image, NumPy or PIL, to a CHW ``output_type`` (float32) array divided by 255."""

    def __init__(self, output_type=np.float32):
        self.output_type = output_type
        self._np = np_dtype("ToTensor", output_type)

    def __call__(self, *args):
        img, _ = image_in("ToTensor", args)
        if img.ndim == 2:
            img = img[:, :, None]
        chw = np.ascontiguousarray(img.transpose(2, 0, 1)).astype(self._np)
        return chw * self._np.type(1.0 / 255.0) if self._np.kind == "f" else chw // 255


class ToType(ImageOp):
    """Cast the image (any shape) to ``data_type`` (a NumPy or sprout dtype)."""

    _ranks = ()

    def __init__(self, data_type):
        self.data_type = data_type
        self._np = np_dtype("ToType", data_type)

    def __call__(self, *args):
        img, _ = image_in("ToType", args, ())
        return img.astype(self._np)


class LinearTransformation(ImageOp):
    """Flatten a CHW image, subtract ``mean_vector`` and multiply by ``transformation_matrix`` (D x D)."""

    _ranks = ()

    def __init__(self, transformation_matrix, mean_vector):
        self.transformation_matrix = np.asarray(transformation_matrix)
        self.mean_vector = np.asarray(mean_vector)
        d = self.mean_vector.shape
        if self.transformation_matrix.ndim != 2 or self.transformation_matrix.shape[0] != \
                self.transformation_matrix.shape[1] or len(d) != 1 or d[0] != self.transformation_matrix.shape[0]:
            raise ValueError("LinearTransformation: transformation_matrix must be D x D and mean_vector of length D, "
                             f"got {self.transformation_matrix.shape} and {d}")

    def __call__(self, *args):
        img, _ = image_in("LinearTransformation", args, ())
        flat = img.reshape(-1)
        if flat.size != self.mean_vector.size:
            raise ValueError(f"LinearTransformation: the image has {flat.size} values but the matrix is for "
                             f"{self.mean_vector.size}")
        return ((flat - self.mean_vector) @ self.transformation_matrix).reshape(img.shape)
