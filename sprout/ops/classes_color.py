"""Colour-space primitives on images whose last axis holds RGB (or HSV) in [0, 1]: ops.RGBToHSV, HSVToRGB,
AdjustHue, AdjustSaturation, composed of element-wise ops (so gradients flow through them). Hue is a fraction of a
turn in [0, 1); an undefined hue (grey pixels) is 0 and a black pixel has saturation 0."""
from __future__ import annotations

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .classes_linalg import _Flag


def _image(owner: str, x, min_rank: int = 1, rank: int | None = None):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{owner}', the input must be a Tensor, but got {type(x).__name__}.")
    if not x.dtype.is_float or x.dtype == mstype.bfloat16:
        raise TypeError(f"For '{owner}', the input must be a float16, float32 or float64 tensor, but got {x.dtype}.")
    if rank is not None and x.ndim != rank:
        raise ValueError(f"For '{owner}', the rank of the input must be {rank}, but got {x.ndim}.")
    if x.ndim < min_rank:
        raise ValueError(f"For '{owner}', the rank of the input must be at least {min_rank}, but got {x.ndim}.")
    if x.shape[-1] != 3:
        raise ValueError(f"For '{owner}', the last dimension of the input must be 3, but got {x.shape[-1]}.")


def _channels(x):
    return tuple(x[..., i] for i in range(3))


def rgb_to_hsv(x):
    """(h, s, v) planes of an RGB image: v the largest channel, s = (v - min) / v, h from the sector of the largest
    channel (red first on ties)."""
    r, g, b = _channels(x)
    v = F.maximum(F.maximum(r, g), b)
    spread = F.sub(v, F.minimum(F.minimum(r, g), b))
    coloured = F.greater(spread, 0.0)
    safe = F.where(coloured, spread, F.ones_like(spread))
    s = F.where(F.greater(v, 0.0), F.div(spread, F.where(F.greater(v, 0.0), v, F.ones_like(v))), F.zeros_like(v))
    sixth = F.div(1.0 / 6.0, safe)
    h = F.where(F.equal(r, v), F.mul(sixth, F.sub(g, b)),
                F.where(F.equal(g, v), F.add(F.mul(sixth, F.sub(b, r)), 2.0 / 6.0),
                        F.add(F.mul(sixth, F.sub(r, g)), 4.0 / 6.0)))
    h = F.where(coloured, h, F.zeros_like(h))
    h = F.where(F.less(h, 0.0), F.add(h, 1.0), h)
    return h, s, v


def hsv_to_rgb(h, s, v):
    """An RGB image from (h, s, v) planes: each channel a clipped triangle wave of 6h, blended towards v by s."""
    h6 = F.mul(h, 6.0)
    red = F.clamp(F.sub(F.abs(F.sub(h6, 3.0)), 1.0), 0.0, 1.0)
    green = F.clamp(F.sub(2.0, F.abs(F.sub(h6, 2.0))), 0.0, 1.0)
    blue = F.clamp(F.sub(2.0, F.abs(F.sub(h6, 4.0))), 0.0, 1.0)
    grey = F.sub(1.0, s)
    return F.stack([F.mul(F.add(grey, F.mul(s, c)), v) for c in (red, green, blue)], -1)


class RGBToHSV(_Flag):
    """``RGBToHSV()(images)``: the last axis (R, G, B) in [0, 1] becomes (H, S, V)."""

    def __call__(self, images):
        _image("RGBToHSV", images)
        return F.stack(rgb_to_hsv(images), -1)


class HSVToRGB(_Flag):
    """``HSVToRGB()(x)`` on an NHWC tensor whose last axis is (H, S, V) in [0, 1]."""

    def __call__(self, x):
        _image("HSVToRGB", x, rank=4)
        return hsv_to_rgb(*_channels(x))


def _factor(owner: str, name: str, value) -> None:
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
    if value.dtype != mstype.float32 or value.ndim != 0:
        raise TypeError(f"For '{owner}', the '{name}' must be a 0-d float32 Tensor, but got a {value.dtype} tensor of "
                        f"shape {list(value.shape)}.")


class AdjustHue(_Flag):
    """``AdjustHue()(image, delta)``: the hue turned by ``delta`` (a 0-d float32 Tensor, a fraction of a turn)."""

    def __call__(self, image, delta):
        _image("AdjustHue", image, min_rank=3)
        _factor("AdjustHue", "delta", delta)
        h, s, v = rgb_to_hsv(image)
        turned = F.frac(F.add(h, F.cast(delta, image.dtype)))  # frac keeps the sign: wrap negatives below
        turned = F.where(F.less(turned, 0.0), F.add(turned, 1.0), turned)
        return hsv_to_rgb(turned, s, v)


class AdjustSaturation(_Flag):
    """``AdjustSaturation()(image, scale)``: the saturation multiplied by ``scale`` (a 0-d float32 Tensor) and
    clipped to [0, 1]."""

    def __call__(self, image, scale):
        _image("AdjustSaturation", image, min_rank=3)
        _factor("AdjustSaturation", "scale", scale)
        h, s, v = rgb_to_hsv(image)
        return hsv_to_rgb(h, F.clamp(F.mul(s, F.cast(scale, image.dtype)), 0.0, 1.0), v)


__all__ = ["RGBToHSV", "HSVToRGB", "AdjustHue", "AdjustSaturation"]
