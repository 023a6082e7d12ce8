"""Affine warps as OpenCV's warpAffine computes them (MindSpore's Rotate, RandomRotation, Affine, RandomAffine)."""
from __future__ import annotations

import functools
import math
import numbers

import numpy as np

from .base import ImageOp, RandomMixin, check_range, check_real, fill_color
from .colorspace import saturate
from .geometry import Inter, check_inter
from .resize import _cubic_weights

_INTER_BITS = 5
_TAB = 1 << _INTER_BITS         # sub-pixel positions per pixel
_AB_BITS = 10
_AB_SCALE = 1 << _AB_BITS
_COEF_SCALE = 1 << 15           # fixed point of the uint8 interpolation weights


@functools.lru_cache(maxsize=4)
def _weights(mode: str):
    """(TAB*TAB, k*k) float32 and fixed-point weights for every sub-pixel position (OpenCV's interTab2D)."""
    x = (np.arange(_TAB, dtype=np.float32) * np.float32(1.0 / _TAB)).astype(np.float32)
    one = _cubic_weights(x) if mode == "cubic" else np.stack([np.float32(1) - x, x], axis=1)
    k = one.shape[1]
    w = (one[:, None, :, None] * one[None, :, None, :]).reshape(_TAB * _TAB, k * k)  # [fy*TAB + fx, ky*k + kx]
    w = w.astype(np.float32)
    fixed = np.rint(w * np.float32(_COEF_SCALE)).astype(np.int64)
    diff = fixed.sum(axis=1) - _COEF_SCALE
    centre = [r * k + c for r in range(k // 2, min(k // 2 + 2, k)) for c in range(k // 2, min(k // 2 + 2, k))]
    for row in np.flatnonzero(diff):
        sub = fixed[row, centre]
        pos = centre[int(np.argmax(sub))] if diff[row] < 0 else centre[int(np.argmin(sub))]
        fixed[row, pos] -= diff[row]
    return w, fixed


def _invert(m: np.ndarray) -> np.ndarray:
    d = m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0]
    d = 1.0 / d if d != 0 else 0.0
    a11, a22 = m[1, 1] * d, m[0, 0] * d
    a12, a21 = -m[0, 1] * d, -m[1, 0] * d
    b1 = -a11 * m[0, 2] - a12 * m[1, 2]
    b2 = -a21 * m[0, 2] - a22 * m[1, 2]
    return np.array([[a11, a12, b1], [a21, a22, b2]])


def warp_affine(img: np.ndarray, matrix: np.ndarray, out_h: int, out_w: int, mode: str, fill) -> np.ndarray:
    """Warp ``img`` by the forward 2x3 ``matrix`` into an (out_h, out_w) image; outside pixels take ``fill``."""
    m = _invert(np.asarray(matrix, np.float64))
    xs, ys = np.arange(out_w, dtype=np.float64), np.arange(out_h, dtype=np.float64)
    delta = _AB_SCALE // 2 if mode == "nearest" else _AB_SCALE // _TAB // 2
    ax = np.rint(m[0, 0] * xs * _AB_SCALE).astype(np.int64)
    bx = np.rint(m[1, 0] * xs * _AB_SCALE).astype(np.int64)
    x0 = np.rint((m[0, 1] * ys + m[0, 2]) * _AB_SCALE).astype(np.int64) + delta
    y0 = np.rint((m[1, 1] * ys + m[1, 2]) * _AB_SCALE).astype(np.int64) + delta
    gx, gy = x0[:, None] + ax[None, :], y0[:, None] + bx[None, :]
    h, w = img.shape[:2]
    chans = img.shape[2:]
    fill_px = np.resize(np.asarray(fill, np.float64), chans).astype(img.dtype) if chans else \
        np.asarray(fill).ravel()[0].astype(img.dtype)
    if mode == "nearest":
        sx, sy = gx >> _AB_BITS, gy >> _AB_BITS
        inside = (sx >= 0) & (sx < w) & (sy >= 0) & (sy < h)
        out = img[np.clip(sy, 0, h - 1), np.clip(sx, 0, w - 1)]
        out[~inside] = fill_px
        return out
    gx, gy = gx >> (_AB_BITS - _INTER_BITS), gy >> (_AB_BITS - _INTER_BITS)
    sx, sy = gx >> _INTER_BITS, gy >> _INTER_BITS
    frac = (gy & (_TAB - 1)) * _TAB + (gx & (_TAB - 1))
    wf, wi = _weights(mode)
    k = 4 if mode == "cubic" else 2
    lo = 1 if mode == "cubic" else 0
    border = k
    padded = np.empty((h + 2 * border, w + 2 * border) + chans, img.dtype)
    padded[...] = fill_px
    padded[border:border + h, border:border + w] = img
    integer = img.dtype == np.uint8
    acc = None
    for ky in range(k):
        ty = np.clip(sy - lo + ky, -border, h + border - 1) + border
        for kx in range(k):
            tx = np.clip(sx - lo + kx, -border, w + border - 1) + border
            wt = (wi if integer else wf)[frac, ky * k + kx]
            part = padded[ty, tx].astype(np.int64 if integer else np.float32)
            term = part * (wt[..., None] if chans else wt)
            acc = term if acc is None else acc + term
    if integer:
        return np.clip((acc + (1 << 14)) >> 15, 0, 255).astype(np.uint8)
    return saturate(acc, img.dtype)


_MODES = {Inter.NEAREST: "nearest", Inter.BILINEAR: "linear", Inter.BICUBIC: "cubic"}


def _mode(op: str, resample: Inter) -> str:
    check_inter(op, resample)
    if resample not in _MODES:
        raise ValueError(f"{op}: resample must be Inter.NEAREST, Inter.BILINEAR or Inter.BICUBIC, got {resample}")
    return _MODES[resample]


def rotation_matrix(cx: float, cy: float, degrees: float) -> np.ndarray:
    """OpenCV's getRotationMatrix2D(center, degrees, 1): counter-clockwise for positive degrees."""
    a = math.radians(degrees)
    alpha, beta = math.cos(a), math.sin(a)
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy], [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def rotate(img, degrees, mode, expand, center, fill):
    fill = fill[::-1]  # MindSpore hands the fill colour to OpenCV as (b, g, r) while the image is RGB
    h, w = img.shape[:2]
    f = np.float32
    cx, cy = (f((w - 1) * 0.5), f((h - 1) * 0.5)) if center is None else (f(center[0]), f(center[1]))
    m = rotation_matrix(float(cx), float(cy), degrees)
    if not expand:
        return warp_affine(img, m, h, w, mode, fill)
    rad = degrees * math.pi / 180.0
    b, a = f(math.cos(rad)) * f(0.5), f(math.sin(rad)) * f(0.5)
    p0 = (cx - a * f(h) - b * f(w), cy + b * f(h) - a * f(w))
    p1 = (cx + a * f(h) - b * f(w), cy - b * f(h) - a * f(w))
    xs = [p0[0], p1[0], f(2) * cx - p0[0], f(2) * cx - p1[0]]
    ys = [p0[1], p1[1], f(2) * cy - p0[1], f(2) * cy - p1[1]]
    bw, bh = f(max(xs) - min(xs)), f(max(ys) - min(ys))
    m[0, 2] += float(bw) / 2.0 - w / 2.0
    m[1, 2] += float(bh) / 2.0 - h / 2.0
    return warp_affine(img, m, int(np.rint(bh)), int(np.rint(bw)), mode, fill)


def _center(op, center):
    if center is None:
        return None
    if not isinstance(center, (list, tuple)) or len(center) != 2 or any(
            isinstance(v, bool) or not isinstance(v, numbers.Real) for v in center):
        raise ValueError(f"{op}: center must be an (x, y) pair of numbers, got {center!r}")
    return float(center[0]), float(center[1])


class Rotate(ImageOp):
    """Rotate by ``degrees`` counter-clockwise about ``center`` (x, y; default the image centre); ``expand``
    grows the output to hold the whole rotated image; uncovered pixels take ``fill_value``."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = check_real("Rotate", "degrees", degrees)
        self._mode = _mode("Rotate", resample)
        self.resample, self.expand = resample, bool(expand)
        self.center = _center("Rotate", center)
        self.fill_value = fill_color("Rotate", fill_value)

    def _apply(self, img):
        return rotate(img, self.degrees, self._mode, self.expand, self.center, self.fill_value)


class RandomRotation(RandomMixin, ImageOp):
    """Rotate by an angle drawn uniformly from ``degrees`` (a number d means [-d, d])."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None, fill_value=0):
        self.degrees = check_range("RandomRotation", "degrees", degrees, center=0)
        self._mode = _mode("RandomRotation", resample)
        self.resample, self.expand = resample, bool(expand)
        self.center = _center("RandomRotation", center)
        self.fill_value = fill_color("RandomRotation", fill_value)

    def _apply(self, img):
        lo, hi = self.degrees
        angle = float(self._random().uniform(lo, hi)) if lo < hi else lo
        return rotate(img, angle, self._mode, self.expand, self.center, self.fill_value)


def affine_matrix(h, w, degrees, tx, ty, scale, shear_x, shear_y) -> np.ndarray:
    """MindSpore's forward affine matrix: rotation, scale and shear about the image centre, then a shift;
    computed in float32 as MindSpore does."""
    f = np.float32
    rot = float(f(math.radians(degrees)))
    sx, sy = float(f(math.radians(shear_x))), float(f(math.radians(-shear_y)))
    cx, cy = f((w - 1) / 2.0), f((h - 1) / 2.0)
    if math.cos(sy) == 0:
        raise ValueError("Affine: cos(shear_y) must not be zero")
    m0 = f(scale * math.cos(rot + sy) / math.cos(sy))
    m1 = f(scale * (-math.cos(rot + sy) * math.tan(sx) / math.cos(sy) - math.sin(rot)))
    m3 = f(scale * math.sin(rot + sy) / math.cos(sy))
    m4 = f(scale * (-math.sin(rot + sy) * math.tan(sx) / math.cos(sy) + math.cos(rot)))
    m2 = (f(1) - m0) * cx - m1 * cy + f(tx)
    m5 = (f(1) - m4) * cy - m3 * cx + f(ty)
    return np.array([[m0, m1, m2], [m3, m4, m5]], np.float32).astype(np.float64)


def _shear_pair(op, shear):
    if isinstance(shear, numbers.Real) and not isinstance(shear, bool):
        return float(shear), 0.0
    if isinstance(shear, (list, tuple)) and len(shear) == 2:
        return check_real(op, "shear[0]", shear[0]), check_real(op, "shear[1]", shear[1])
    raise TypeError(f"{op}: shear must be a number or an (x, y) pair, got {shear!r}")


class Affine(ImageOp):
    """Rotate by ``degrees``, scale by ``scale``, shear by ``shear`` (degrees; number or (x, y)) about the
    image centre, then shift by ``translate`` (fractions of width and height, in [-1, 1])."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        op = "Affine"
        self.degrees = check_real(op, "degrees", degrees, -180, 180)
        if not isinstance(translate, (list, tuple)) or len(translate) != 2:
            raise TypeError(f"{op}: translate must be a (x, y) pair, got {translate!r}")
        self.translate = tuple(check_real(op, f"translate[{i}]", t, -1, 1) for i, t in enumerate(translate))
        self.scale = check_real(op, "scale", scale, 0, low_open=True)
        self.shear = _shear_pair(op, shear)
        self._mode = _mode(op, resample)
        self.resample = resample
        self.fill_value = fill_color(op, fill_value)

    def _apply(self, img):
        h, w = img.shape[:2]
        m = affine_matrix(h, w, self.degrees, self.translate[0] * np.float32(w), self.translate[1] * np.float32(h),
                          self.scale, *self.shear)
        return warp_affine(img, m, h, w, self._mode, self.fill_value)


class RandomAffine(RandomMixin, ImageOp):
    """Affine with parameters drawn uniformly: ``degrees`` (d means [-d, d]), ``translate`` (max fractions
    (x, y) or ranges (x_min, x_max, y_min, y_max)), ``scale`` (min, max) and ``shear`` (d, (x_min, x_max) or
    (x_min, x_max, y_min, y_max))."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST, fill_value=0):
        op = "RandomAffine"
        self.degrees = check_range(op, "degrees", degrees, center=0)
        if translate is None:
            translate = (0.0, 0.0, 0.0, 0.0)
        elif len(translate) == 2:
            translate = (-translate[0], translate[0], -translate[1], translate[1])
        if len(translate) != 4:
            raise TypeError(f"{op}: translate must have 2 or 4 values, got {translate!r}")
        self.translate = tuple(check_real(op, "translate", t, -1, 1) for t in translate)
        self.scale = (1.0, 1.0) if scale is None else check_range(op, "scale", scale, 0)
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        elif isinstance(shear, numbers.Real):
            shear = (-shear, shear, 0.0, 0.0)
        elif len(shear) == 2:
            shear = (shear[0], shear[1], 0.0, 0.0)
        if len(shear) != 4:
            raise TypeError(f"{op}: shear must be a number or have 2 or 4 values, got {shear!r}")
        self.shear = tuple(check_real(op, "shear", s) for s in shear)
        self._mode = _mode(op, resample)
        self.resample = resample
        self.fill_value = fill_color(op, fill_value)

    def _apply(self, img):
        rng = self._random()
        h, w = img.shape[:2]

        def draw(lo, hi):
            return float(rng.uniform(lo, hi)) if lo < hi else float(lo)
        degrees = draw(*self.degrees)
        tx = draw(self.translate[0] * w, self.translate[1] * w)
        ty = draw(self.translate[2] * h, self.translate[3] * h)
        scale = draw(*self.scale)
        shear_x, shear_y = draw(*self.shear[:2]), draw(*self.shear[2:])
        m = affine_matrix(h, w, degrees, tx, ty, scale, shear_x, shear_y)
        return warp_affine(img, m, h, w, self._mode, self.fill_value)
