"""Shared pieces of the vision transforms: image input checks, PIL round trips and per-op random streams."""
from __future__ import annotations

import numbers
import os

import numpy as np

from .. import config
from ..transforms.transforms import TensorOperation


def _is_pil(obj) -> bool:
    return type(obj).__module__.startswith("PIL.") and hasattr(obj, "mode") and hasattr(obj, "size")


def image_in(op: str, args, ranks=(2, 3)):
    """The one image argument of ``op`` as a NumPy array, and whether it came as a PIL image."""
    if len(args) != 1:
        raise TypeError(f"{op}: takes one image column, got {len(args)}")
    img = args[0]
    if _is_pil(img):
        return np.asarray(img), True
    if hasattr(img, "asnumpy"):
        img = img.asnumpy()
    if not isinstance(img, np.ndarray):
        raise TypeError(f"{op}: input must be a NumPy image (or a PIL image), got {type(img).__name__}")
    if ranks and img.ndim not in ranks:
        hint = "; decode it first (vision.Decode)" if img.ndim == 1 else ""
        raise ValueError(f"{op}: expects an image of rank {' or '.join(map(str, ranks))} (<H, W> or <H, W, C>), "
                         f"got shape {img.shape}{hint}")
    return img, False


def image_out(img: np.ndarray, as_pil: bool):
    if not as_pil:
        return img
    from PIL import Image
    return Image.fromarray(np.ascontiguousarray(img))


class ImageOp(TensorOperation):
    """A transform of one image. Subclasses define ``_apply(img)`` on a NumPy HW/HWC array; a PIL image
    in gives a PIL image out, as MindSpore's transforms do for PIL inputs."""

    _ranks = (2, 3)

    def __call__(self, *args):
        img, pil = image_in(type(self).__name__, args, self._ranks)
        return image_out(self._apply(img), pil)

    def _apply(self, img: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class RandomMixin:
    """Random draws of a transform. Inside a ``map`` they come from the row's stream (seeded by the dataset
    seed, the iterator, the epoch, the node and the row number), so a seeded pipeline augments the same way
    with any number of worker threads or processes. Called directly, an op uses its own stream seeded from
    ``ds.config`` on first use (a worker process reseeds its copy with its worker number)."""

    _rng = None
    _rng_key = None

    def _random(self) -> np.random.Generator:
        from ..parallel import row_rng
        rng = row_rng()
        if rng is not None:  # inside a map: the row's own stream (the same for any worker count)
            return rng
        key = (config.get_seed(), config.worker_id(), os.getpid())
        if self._rng is None or self._rng_key != key:
            seed = [config.get_seed()] + ([config.worker_id()] if config.worker_id() else [])
            self._rng = np.random.default_rng(seed)
            self._rng_key = key
        return self._rng


def check_prob(op: str, prob) -> float:
    if isinstance(prob, bool) or not isinstance(prob, numbers.Real) or not 0.0 <= prob <= 1.0:
        raise ValueError(f"{op}: prob must be a number in [0, 1], got {prob!r}")
    return float(prob)


def check_real(op: str, name: str, value, low=None, high=None, low_open=False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{op}: {name} must be a number, got {type(value).__name__} {value!r}")
    bad_low = low is not None and (value <= low if low_open else value < low)
    if bad_low or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{op}: {name} must be in {'(' if low_open else '['}{lo}, {hi}], got {value}")
    return float(value)


def check_range(op: str, name: str, value, low=None, high=None, center=None) -> tuple:
    """A (min, max) pair; a single number v means (center - v, center + v) when ``center`` is given."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and center is not None:
        check_real(op, name, value, 0)
        value = (center - value, center + value)
        if low is not None:
            value = (max(value[0], low), value[1])
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise TypeError(f"{op}: {name} must be a number or a (min, max) pair, got {value!r}")
    lo, hi = (check_real(op, f"{name}[{i}]", v, low, high) for i, v in enumerate(value))
    if lo > hi:
        raise ValueError(f"{op}: {name} must be (min, max) with min <= max, got {value!r}")
    return lo, hi


def fill_color(op: str, fill_value, channels: int | None = None) -> tuple:
    """MindSpore's fill_value: one int for every channel or an (R, G, B) triple, each in [0, 255]."""
    vals = [fill_value] if isinstance(fill_value, numbers.Integral) else fill_value
    if not isinstance(vals, (list, tuple)) or len(vals) not in (1, 3) or any(
            isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 0 <= v <= 255 for v in vals):
        raise ValueError(f"{op}: fill_value must be an int in [0, 255] or a tuple of three of them, got {fill_value!r}")
    return tuple(int(v) for v in vals) * (3 if len(vals) == 1 else 1)
