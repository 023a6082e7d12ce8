"""Image primitives MindSpore 2.10 still ships as deprecated classes: ScaleAndTranslate (separable resampling with a
sampling kernel, and its gradient), ExtractGlimpse (windows cut at offsets, noise outside the image) and
ComputeAccidentalHits (sampled candidates equal to a row's true classes)."""
from __future__ import annotations

import math

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape
from .random_ops import _check_seed, _stream

_F32 = np.float32


# ---- ScaleAndTranslate -------------------------------------------------------------------------------------------
def _lanczos(radius):
    def k(x):
        x = np.abs(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            v = _F32(radius) * np.sin(_F32(np.pi) * x) * np.sin(_F32(np.pi) * x / _F32(radius)) / (
                _F32(np.pi * np.pi) * x * x)
        return np.where(x > radius, _F32(0), np.where(x <= _F32(1e-3), _F32(1), v)).astype(_F32)

    return k, float(radius)


def _gaussian(x):
    x = np.abs(x)
    sigma = _F32(0.5)
    return np.where(x >= _F32(1.5), _F32(0), np.exp(-x * x / (_F32(2) * sigma * sigma))).astype(_F32)


def _box(x):
    x = np.abs(x)
    return np.where(x < _F32(0.5), _F32(1), np.where(x == _F32(0.5), _F32(0.5), _F32(0))).astype(_F32)


def _triangle(x):
    x = np.abs(x)
    return np.where(x < _F32(1), _F32(1) - x, _F32(0)).astype(_F32)


def _keys_cubic(x):
    x = np.abs(x)
    near = ((_F32(1.5) * x - _F32(2.5)) * x) * x + _F32(1)
    far = ((_F32(-0.5) * x + _F32(2.5)) * x - _F32(4)) * x + _F32(2)
    return np.where(x >= _F32(2), _F32(0), np.where(x >= _F32(1), far, near)).astype(_F32)


def _mitchell_cubic(x):
    x = np.abs(x)
    near = ((_F32(7 / 6) * x - _F32(2)) * x) * x + _F32(8 / 9)
    far = ((_F32(-7 / 18) * x + _F32(2)) * x - _F32(10 / 3)) * x + _F32(16 / 9)
    return np.where(x >= _F32(2), _F32(0), np.where(x >= _F32(1), far, near)).astype(_F32)


SAMPLING_KERNELS = {"lanczos1": _lanczos(1), "lanczos3": _lanczos(3), "lanczos5": _lanczos(5),
                    "gaussian": (_gaussian, 1.5), "box": (_box, 1.0), "triangle": (_triangle, 1.0),
                    "keyscubic": (_keys_cubic, 2.0), "mitchellcubic": (_mitchell_cubic, 2.0)}


def resample_matrix(out_size: int, in_size: int, scale, translate, kernel_type: str, antialias: bool) -> np.ndarray:
    """(out_size, in_size) float32 weights: output sample x looks at input position (x + 0.5 - translate) / scale,
    weighs the input pixels within the kernel's radius (widened by 1/scale when antialiasing a downscale) by the
    kernel and normalises them to sum 1; a position outside the input gets no weights (a zero output)."""
    kernel, radius = SAMPLING_KERNELS[kernel_type]
    scale, translate = _F32(scale), _F32(translate)
    inv_scale = _F32(1.0) / scale
    inv_translate = -inv_scale * translate
    kernel_scale = max(inv_scale, _F32(1.0)) if antialias else _F32(1.0)
    reach = _F32(radius) * kernel_scale
    m = np.zeros((out_size, in_size), _F32)
    for x in range(out_size):
        sample = _F32(x + 0.5) * inv_scale + inv_translate
        if sample < 0 or sample > in_size:
            continue
        start = min(max(math.ceil(sample - reach - _F32(0.5)), 0), in_size - 1)
        end = min(max(math.floor(sample + reach - _F32(0.5)), 0), in_size - 1) + 1
        pos = (np.arange(start, end).astype(_F32) + _F32(0.5) - sample) / kernel_scale
        w = kernel(pos)
        total = np.float32(w.sum(dtype=_F32))
        if abs(total) >= 1000.0 * np.finfo(_F32).tiny:
            m[x, start:end] = w / total
    return m


def _sat_check_vectors(scale, translation):
    for name, v in (("scale", scale), ("translation", translation)):
        if v.shape not in ((2,), (None,)) or v.dtype is not mstype.float32:
            raise TypeError(f"ScaleAndTranslate: {name} must be a float32 tensor of shape (2,), got "
                            f"{v.dtype}{fmt_shape(v.shape)}")


_SAT_DTYPES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.float16, mstype.float32, mstype.float64)


def check_images(images) -> None:
    """ScaleAndTranslate's images: a 4-D int8/16/32/64 or float tensor (a Tensor or a TensorType)."""
    if images.dtype not in _SAT_DTYPES:
        raise TypeError(f"ScaleAndTranslate: images must be int8/int16/int32/int64/float16/float32/float64, got "
                        f"{images.dtype}")
    if images.ndim != 4:
        raise ValueError(f"ScaleAndTranslate: images must have rank 4 (batch, height, width, channel), got "
                         f"{fmt_shape(tuple(images.shape))}")


def _sat_infer(images, scale, translation, size=(1, 1), kernel_type="lanczos3", antialias=True):
    check_images(images)
    _sat_check_vectors(scale, translation)
    return TensorType((images.shape[0], size[0], size[1], images.shape[3]), mstype.float32)


def _matrices(images_shape, scale, translation, size, kernel_type, antialias):
    if np.any(scale <= 0):
        raise ValueError(f"ScaleAndTranslate: scale must be positive, got {scale.tolist()}")
    rows = resample_matrix(size[0], images_shape[1], scale[0], translation[0], kernel_type, antialias)
    cols = resample_matrix(size[1], images_shape[2], scale[1], translation[1], kernel_type, antialias)
    return rows, cols


def _sat_impl(images, scale, translation, size=(1, 1), kernel_type="lanczos3", antialias=True):
    rows, cols = _matrices(images.shape, scale, translation, size, kernel_type, antialias)
    return np.einsum("oh,bhwc,pw->bopc", rows, images.astype(_F32), cols).astype(_F32)


def _sat_bprop(images, scale, translation, out, dout, **attrs):
    if not images.dtype.is_float:
        return None, None, None
    from ..core.dispatch import bind
    from . import functional as F

    g = bind(SCALE_AND_TRANSLATE_GRAD, (dout, images, scale, translation), attrs)
    return (g if images.dtype is mstype.float32 else F.cast(g, images.dtype)), None, None


SCALE_AND_TRANSLATE = register(Op("ScaleAndTranslate", _sat_impl, _sat_infer, _sat_bprop, "opaque",
                                  fresh_output=True))


def _sat_grad_infer(grads, original_image, scale, translation, size=(1, 1), kernel_type="lanczos3", antialias=True):
    if grads.dtype is not mstype.float32 or grads.ndim != 4:
        raise TypeError(f"ScaleAndTranslateGrad: grads must be a 4-D float32 tensor, got {grads.dtype}"
                        f"{fmt_shape(grads.shape)}")
    _sat_check_vectors(scale, translation)
    return TensorType(tuple(original_image.shape), mstype.float32)


def _sat_grad_impl(grads, original_image, scale, translation, size=(1, 1), kernel_type="lanczos3", antialias=True):
    """The transpose of the forward resampling: each input pixel gathers the output cotangents it contributed to."""
    rows, cols = _matrices(original_image.shape, scale, translation, size, kernel_type, antialias)
    return np.einsum("oh,bopc,pw->bhwc", rows, grads.astype(_F32), cols).astype(_F32)


def _sat_grad_bprop(grads, original_image, scale, translation, out, dout, **attrs):
    from ..core.dispatch import bind

    return bind(SCALE_AND_TRANSLATE, (dout, scale, translation), attrs), None, None, None


SCALE_AND_TRANSLATE_GRAD = register(Op("ScaleAndTranslateGrad", _sat_grad_impl, _sat_grad_infer, _sat_grad_bprop,
                                       "opaque", fresh_output=True))


# ---- ExtractGlimpse ----------------------------------------------------------------------------------------------
def check_glimpse_inputs(x, offsets) -> None:
    """ExtractGlimpse's image batch and offsets (Tensors or TensorTypes), with MindSpore's exception types."""
    if x.dtype is not mstype.float32 or offsets.dtype is not mstype.float32:
        raise TypeError(f"ExtractGlimpse: x and offsets must be float32 tensors, got {x.dtype} and {offsets.dtype}")
    if x.ndim != 4:
        raise RuntimeError(f"ExtractGlimpse: x must have rank 4 (batch, height, width, channels), got "
                           f"{fmt_shape(tuple(x.shape))}")
    if offsets.ndim != 2 or (offsets.shape[1] is not None and offsets.shape[1] != 2):
        raise ValueError(f"ExtractGlimpse: offsets must have shape (batch, 2), got {fmt_shape(tuple(offsets.shape))}")
    if None not in (x.shape[0], offsets.shape[0]) and x.shape[0] != offsets.shape[0]:
        raise ValueError(f"ExtractGlimpse: offsets has {offsets.shape[0]} rows for a batch of {x.shape[0]}")


def _glimpse_infer(x, offsets, seed, size=(1, 1), centered=True, normalized=True, noise="uniform"):
    check_glimpse_inputs(x, offsets)
    _check_seed("ExtractGlimpse", seed)
    return TensorType((x.shape[0], size[0], size[1], x.shape[3]), mstype.float32)


def _glimpse_impl(x, offsets, seed, size=(1, 1), centered=True, normalized=True, noise="uniform"):
    """Window b starts at row/column trunc(location - size / 2), location = offsets[b] in pixels (scaled by the
    image size when ``normalized``, halved and moved to the centre when ``centered``), all in float32 as
    MindSpore's kernel; taps outside the image get noise: U(-1, 1), max(0, N(10, 0.5)) for 'gaussian', or 0."""
    batch, height, width, channels = x.shape
    gh, gw = size
    loc = offsets.astype(_F32)
    dims = np.array([height, width], _F32)
    if normalized:
        loc = loc * dims
    if centered:
        loc = loc / _F32(2) + dims / _F32(2)
    loc = loc - np.array([gh, gw], _F32) / _F32(2)
    start = np.trunc(loc).astype(np.int64)
    rows = start[:, 0, None] + np.arange(gh)
    cols = start[:, 1, None] + np.arange(gw)
    inside = ((rows >= 0) & (rows < height))[:, :, None] & ((cols >= 0) & (cols < width))[:, None, :]
    b = np.arange(batch)[:, None, None]
    out = x[b, np.clip(rows, 0, height - 1)[:, :, None], np.clip(cols, 0, width - 1)[:, None, :]].astype(_F32)
    if noise == "zero":
        fill = np.zeros(out.shape, _F32)
    elif noise == "gaussian":
        fill = np.maximum(_F32(0), _stream(seed).normal(10.0, 0.5, out.shape).astype(_F32))
    else:
        fill = _stream(seed).uniform(-1.0, 1.0, out.shape).astype(_F32)
    return np.where(inside[..., None], out, fill)


# "opaque", not "random": with noise='zero' the result is a function of the image alone; otherwise the noise comes
# from the seed input, which RandomSeed draws anew at every call (so calls are never folded or merged)
EXTRACT_GLIMPSE = register(Op("ExtractGlimpse", _glimpse_impl, _glimpse_infer, None, "opaque"))


# ---- ComputeAccidentalHits ----------------------------------------------------------------------------------------
def check_hits_inputs(true_classes, sampled_candidates, num_true: int) -> None:
    """ComputeAccidentalHits' operands (Tensors or TensorTypes): int32/int64, (batch, num_true) and (num_sampled,)."""
    for name, t in (("true_classes", true_classes), ("sampled_candidates", sampled_candidates)):
        if t.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"ComputeAccidentalHits: {name} must be an int32 or int64 tensor, got {t.dtype}")
    if true_classes.ndim != 2 or sampled_candidates.ndim != 1:
        raise ValueError(f"ComputeAccidentalHits: true_classes must be 2-D (batch, num_true) and sampled_candidates "
                         f"1-D, got {fmt_shape(tuple(true_classes.shape))} and "
                         f"{fmt_shape(tuple(sampled_candidates.shape))}")
    if true_classes.shape[1] is not None and true_classes.shape[1] != num_true:
        raise ValueError(f"ComputeAccidentalHits: true_classes has {true_classes.shape[1]} columns, num_true is "
                         f"{num_true}")


def _hits_infer(true_classes, sampled_candidates, num_true=1):
    check_hits_inputs(true_classes, sampled_candidates, num_true)
    return TensorType((None,), mstype.int32), TensorType((None,), mstype.int64), TensorType((None,), mstype.float32)


def _hits_impl(true_classes, sampled_candidates, num_true=1):
    """Every (row i, sampled position j) with sampled_candidates[j] equal to one of row i's true classes, once per
    matching true class, in row, true-class and position order; weight -FLT_MAX (it removes the logit)."""
    match = true_classes[:, :, None] == sampled_candidates[None, None, :]
    rows, _, cols = np.nonzero(match)
    return (rows.astype(np.int32), cols.astype(np.int64),
            np.full(len(rows), -np.finfo(_F32).max, _F32))


def _no_grad(*args, **attrs):
    return tuple(None for _ in args[:-2])


COMPUTE_ACCIDENTAL_HITS = register(Op("ComputeAccidentalHits", _hits_impl, _hits_infer, _no_grad, "opaque",
                                      n_out=3))

__all__ = ["SCALE_AND_TRANSLATE", "SCALE_AND_TRANSLATE_GRAD", "EXTRACT_GLIMPSE", "COMPUTE_ACCIDENTAL_HITS",
           "SAMPLING_KERNELS", "OpError"]
