"""PascalCase classes for ops/vision_ops.py: ScaleAndTranslate, ExtractGlimpse, ComputeAccidentalHits (MindSpore 2.10
keeps them as deprecated primitives), with MindSpore's argument checks."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import distort_box as DB
from . import vision_ops as V
from .functional import _as_tensor
from .host_ops import is_symbolic
from .nn_functional import _draw_seed
from .primitive_classes import Primitive


def _check_type(op: str, name: str, value, kind) -> None:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"For '{op}', the type of '{name}' should be '{kind.__name__}', but got type "
                        f"'{type(value).__name__}'.")


def _const_size(op: str, size, min_value: int) -> tuple:
    """The (height, width) a window/output has: a constant int32 tensor of two positive values (the output shape
    depends on it, so it must be known while a graph is compiled)."""
    t = _as_tensor(size, op)
    if t.dtype is not mstype.int32:
        raise TypeError(f"{op}: size must be an int32 tensor, got {t.dtype}")
    if tuple(t.shape) != (2,):
        raise ValueError(f"{op}: size must have 2 elements, got shape {list(t.shape)}")
    if is_symbolic(t):
        raise ValueError(f"{op}: the value of size must be constant (it gives the output shape)")
    values = tuple(int(v) for v in t.asnumpy())
    if any(v < min_value for v in values):
        raise ValueError(f"{op}: size must be positive, got {list(values)}")
    return values


class ScaleAndTranslate(Primitive):
    """Resample each image to ``size`` with a sampling kernel: output pixel (y, x) is centred on input position
    ((y + 0.5 - translation[0]) / scale[0], (x + 0.5 - translation[1]) / scale[1]); float32 result."""

    def __init__(self, kernel_type="lanczos3", antialias=True):
        super().__init__()
        _check_type("ScaleAndTranslate", "kernel_type", kernel_type, str)
        _check_type("ScaleAndTranslate", "antialias", antialias, bool)
        if kernel_type not in V.SAMPLING_KERNELS:
            raise ValueError(f"For 'ScaleAndTranslate', the 'kernel_type' must be str and must be in "
                             f"'{list(V.SAMPLING_KERNELS)}', but got '{kernel_type}'.")
        self.kernel_type, self.antialias = kernel_type, antialias

    def __call__(self, images, size, scale, translation):
        op = "ScaleAndTranslate"
        x, s, t = _as_tensor(images, op), _as_tensor(scale, op), _as_tensor(translation, op)
        out_size = _const_size(op, size, 1)
        V.check_images(x)
        for name, v in (("scale", s), ("translation", t)):
            if v.dtype is not mstype.float32:
                raise TypeError(f"{op}: {name} must be a float32 tensor, got {v.dtype}")
            if tuple(v.shape) != (2,):
                raise ValueError(f"{op}: {name} must have shape (2,), got {list(v.shape)}")
        if not is_symbolic(s) and np.any(s.asnumpy() <= 0):
            raise ValueError(f"{op}: scale must be positive, got {s.asnumpy().tolist()}")
        return bind(V.SCALE_AND_TRANSLATE, (x, s, t), {"size": out_size, "kernel_type": self.kernel_type,
                                                       "antialias": self.antialias})


class ExtractGlimpse(Primitive):
    """Windows of ``size`` cut from each image at ``offsets`` (row, column); taps outside the image get noise."""

    def __init__(self, centered=True, normalized=True, uniform_noise=True, noise="uniform"):
        super().__init__()
        op = "ExtractGlimpse"
        for name, v in (("centered", centered), ("normalized", normalized), ("uniform_noise", uniform_noise)):
            _check_type(op, name, v, bool)
        if noise not in ("uniform", "gaussian", "zero"):
            raise ValueError(f"For '{op}', the 'noise' must be str and must be in '['uniform', 'gaussian', 'zero']', "
                             f"but got '{noise}'.")
        if uniform_noise and noise != "uniform":
            raise ValueError(f"For '{op}', the value of 'noise' must be uniform when uniform_noise is True, but got "
                             f"{noise}.")
        self.centered, self.normalized, self.uniform_noise, self.noise = centered, normalized, uniform_noise, noise

    def __call__(self, x, size, offsets):
        op = "ExtractGlimpse"
        x, off = _as_tensor(x, op), _as_tensor(offsets, op)
        window = _const_size(op, size, 1)
        V.check_glimpse_inputs(x, off)
        return bind(V.EXTRACT_GLIMPSE, (x, off, _draw_seed()),
                    {"size": window, "centered": self.centered, "normalized": self.normalized, "noise": self.noise})


class ComputeAccidentalHits(Primitive):
    """(row indices, sampled positions, -FLT_MAX weights) of the sampled candidates equal to a true class."""

    def __init__(self, num_true=1):
        super().__init__()
        _check_type("ComputeAccidentalHits", "num_true", num_true, int)
        self.num_true = num_true

    def __call__(self, true_classes, sampled_candidates):
        op = "ComputeAccidentalHits"
        for v in (true_classes, sampled_candidates):
            if not isinstance(v, Tensor):
                raise TypeError(f"{op}: true_classes and sampled_candidates must be Tensors, got {type(v).__name__}")
        V.check_hits_inputs(true_classes, sampled_candidates, self.num_true)
        return bind(V.COMPUTE_ACCIDENTAL_HITS, (true_classes, sampled_candidates), {"num_true": self.num_true})


def _float_pair(op: str, name: str, value, upper=None) -> tuple:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, float) for v in value):
        raise TypeError(f"For '{op}', '{name}' must be a list or tuple of floats, got {value!r}")
    if len(value) != 2:
        raise ValueError(f"For '{op}', '{name}' must have 2 elements, got {len(value)}")
    if value[0] <= 0 or value[1] <= 0 or (upper is not None and value[1] > upper):
        bound = "positive" if upper is None else f"in (0.0, {upper}]"
        raise ValueError(f"For '{op}', the values of '{name}' must be {bound}, got {list(value)}")
    if value[1] <= value[0]:
        raise ValueError(f"For '{op}', the second value of '{name}' must be greater than the first, got {list(value)}")
    return (float(value[0]), float(value[1]))


class SampleDistortedBoundingBoxV2(Primitive):
    """A random crop (begin, size for ``ops.Slice``, and the crop as a normalised box) that covers at least
    ``min_object_covered`` of one of the boxes; a non-zero seed or seed2 repeats MindSpore's crop at every call."""

    def __init__(self, seed=0, seed2=0, aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100,
                 use_image_if_no_bounding_boxes=False):
        super().__init__()
        op = "SampleDistortedBoundingBoxV2"
        for name, v in (("seed", seed), ("seed2", seed2), ("max_attempts", max_attempts)):
            _check_type(op, name, v, int)
        _check_type(op, "use_image_if_no_bounding_boxes", use_image_if_no_bounding_boxes, bool)
        if max_attempts <= 0:
            raise ValueError(f"For '{op}', 'max_attempts' must be positive, got {max_attempts}")
        self.seed, self.seed2 = seed, seed2
        self.aspect_ratio_range = _float_pair(op, "aspect_ratio_range", aspect_ratio_range)
        self.area_range = _float_pair(op, "area_range", area_range, 1.0)
        self.max_attempts, self.use_image_if_no_bounding_boxes = max_attempts, use_image_if_no_bounding_boxes

    def __call__(self, image_size, bounding_boxes, min_object_covered):
        op = "SampleDistortedBoundingBoxV2"
        for name, v in (("image_size", image_size), ("bounding_boxes", bounding_boxes),
                        ("min_object_covered", min_object_covered)):
            if not isinstance(v, Tensor):
                raise TypeError(f"{op}: {name} must be a Tensor, got {type(v).__name__}")
        DB.check_sdbb_inputs(image_size, bounding_boxes, min_object_covered)
        if 0 in tuple(bounding_boxes.shape)[:2] and not self.use_image_if_no_bounding_boxes:
            raise ValueError(f"{op}: no bounding boxes given (shape {list(bounding_boxes.shape)}); set "
                             f"use_image_if_no_bounding_boxes=True to crop against the whole image")
        fixed = (self.seed, self.seed2) != (0, 0)
        seed = Tensor(np.zeros((), np.int64)) if fixed else _draw_seed()
        return bind(DB.SAMPLE_DISTORTED_BOUNDING_BOX_V2, (image_size, bounding_boxes, min_object_covered, seed),
                    {"seeds": (self.seed, self.seed2), "aspect_ratio_range": self.aspect_ratio_range,
                     "area_range": self.area_range, "max_attempts": self.max_attempts,
                     "use_image_if_no_bounding_boxes": self.use_image_if_no_bounding_boxes})


__all__ = ["ScaleAndTranslate", "ExtractGlimpse", "ComputeAccidentalHits", "SampleDistortedBoundingBoxV2"]
