"""Image resizing as MindSpore does it: OpenCV's separable kernels, and Pillow's bicubic for PILCUBIC."""
from __future__ import annotations

import functools

import numpy as np

_COEF_BITS = 11          # OpenCV's INTER_RESIZE_COEF_BITS: uint8 weights are fixed point with 2048 = 1.0
_COEF_SCALE = 1 << _COEF_BITS


def _cubic_weights(x: np.ndarray) -> np.ndarray:
    """OpenCV's bicubic weights (A = -0.75) for the four taps around each fractional offset ``x`` (float32)."""
    a = np.float32(-0.75)
    one = np.float32(1)
    x1 = x + one
    w0 = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
    w1 = ((a + 2) * x - (a + 3)) * x * x + one
    y = one - x
    w2 = ((a + 2) * y - (a + 3)) * y * y + one
    w3 = one - w0 - w1 - w2
    return np.stack([w0, w1, w2, w3], axis=1).astype(np.float32)


@functools.lru_cache(maxsize=256)
def _taps(src: int, dst: int, mode: str):
    """Source indices (dst, k) and float32 weights (dst, k) of one axis for linear/cubic/area-upscale.
    Offsets are computed as OpenCV does: in double, then rounded to float, with edge clamping."""
    scale = 1.0 / (dst / src)
    d = np.arange(dst, dtype=np.float64)
    if mode == "area":  # INTER_AREA when enlarging: linear weights with OpenCV's area-style offsets
        sx = np.floor(d * scale).astype(np.int64)
        fx = ((d + 1) - (sx + 1) * (dst / src)).astype(np.float32)
        fx = np.where(fx <= 0, np.float32(0), fx - np.floor(fx)).astype(np.float32)
    else:
        pos = ((d + 0.5) * scale - 0.5).astype(np.float32)
        sx = np.floor(pos).astype(np.int64)
        fx = (pos - sx.astype(np.float32)).astype(np.float32)
    if mode == "cubic":
        weights = _cubic_weights(fx)
        idx = sx[:, None] + np.arange(-1, 3)[None, :]
    else:
        low, high = sx < 0, sx >= src - 1
        fx[low | high] = 0
        sx = np.where(low, 0, np.where(high, src - 1, sx))
        weights = np.stack([np.float32(1) - fx, fx], axis=1)
        idx = np.stack([sx, sx + 1], axis=1)
    return np.clip(idx, 0, src - 1), weights


def _fixed(weights: np.ndarray) -> np.ndarray:
    return np.rint(weights * np.float32(_COEF_SCALE)).astype(np.int64)


def _separable(img: np.ndarray, h: int, w: int, mode: str) -> np.ndarray:
    yi, yw = _taps(img.shape[0], h, mode)
    xi, xw = _taps(img.shape[1], w, mode)
    used, yi = np.unique(yi, return_inverse=True)  # the horizontal pass only runs on rows the vertical one reads
    yi = yi.reshape(h, -1)
    col = (1, -1) + (1,) * (img.ndim - 2)
    vert = (-1,) + (1,) * (img.ndim - 1)
    if img.dtype == np.uint8:  # OpenCV's fixed point: weights scaled by 2048, int32 accumulators
        src = img[used]
        cx, cy = _fixed(xw).astype(np.int32), _fixed(yw).astype(np.int32)
        rows = np.take(src, xi[:, 0], axis=1).astype(np.int32)  # gather as uint8, widen after
        rows *= cx[:, 0].reshape(col)
        for k in range(1, xi.shape[1]):
            part = np.take(src, xi[:, k], axis=1).astype(np.int32)
            part *= cx[:, k].reshape(col)
            rows += part
        if mode == "cubic":
            out = np.take(rows, yi[:, 0], axis=0) * cy[:, 0].reshape(vert)
            for k in range(1, 4):
                out += np.take(rows, yi[:, k], axis=0) * cy[:, k].reshape(vert)
            return np.clip((out + (1 << 21)) >> 22, 0, 255).astype(np.uint8)
        rows >>= 4
        out = np.take(rows, yi[:, 0], axis=0)
        out *= cy[:, 0].reshape(vert)
        out >>= 16
        low = np.take(rows, yi[:, 1], axis=0)
        low *= cy[:, 1].reshape(vert)
        low >>= 16
        out += low
        out += 2
        out >>= 2
        np.clip(out, 0, 255, out=out)
        return out.astype(np.uint8)
    work = np.float64 if img.dtype == np.float64 else np.float32
    src = img[used].astype(work)
    rows = sum(src[:, xi[:, k]] * xw[:, k].astype(work).reshape(col) for k in range(xi.shape[1]))
    out = sum(rows[yi[:, k]] * yw[:, k].astype(work).reshape(vert) for k in range(yi.shape[1]))
    return _cast_back(out, img.dtype)


def _cast_back(out: np.ndarray, dtype) -> np.ndarray:
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return np.clip(np.rint(out), info.min, info.max).astype(dtype)
    return out.astype(dtype)


def _nearest(img: np.ndarray, h: int, w: int) -> np.ndarray:
    def index(src, dst):
        return np.minimum(np.floor(np.arange(dst) * (1.0 / (dst / src))).astype(np.int64), src - 1)
    return img[index(img.shape[0], h)][:, index(img.shape[1], w)]


@functools.lru_cache(maxsize=256)
def _area_matrix(src: int, dst: int) -> np.ndarray:
    """(dst, src) weights of INTER_AREA shrinking: each output pixel averages the source span it covers."""
    scale = src / dst
    out = np.zeros((dst, src), np.float64)
    for d in range(dst):
        lo, hi = d * scale, (d + 1) * scale
        for s in range(int(np.floor(lo)), min(int(np.ceil(hi)), src)):
            out[d, s] = (min(hi, s + 1) - max(lo, s)) / scale
    return out


def _area(img: np.ndarray, h: int, w: int) -> np.ndarray:
    sh, sw = img.shape[:2]
    if h > sh or w > sw:  # enlarging (in either direction): OpenCV falls back to its area-style linear kernel
        return _separable(img, h, w, "area")
    fy, fx = sh / h, sw / w
    if fy == int(fy) and fx == int(fx):  # whole-number factors: plain block averages
        blocks = img.reshape(h, int(fy), w, int(fx), *img.shape[2:]).astype(np.float64)
        mean = blocks.sum(axis=(1, 3)) / (fy * fx)
        if img.dtype == np.uint8 and fy == fx == 2:
            return ((blocks.sum(axis=(1, 3)).astype(np.int64) + 2) >> 2).astype(np.uint8)
        return _cast_back(mean, img.dtype)
    work = np.float64 if img.dtype == np.float64 else np.float32
    my, mx = _area_matrix(sh, h).astype(work), _area_matrix(sw, w).astype(work)
    out = np.tensordot(my, np.tensordot(img.astype(work), mx, axes=([1], [1])), axes=([1], [0]))
    if img.ndim == 3:
        out = np.moveaxis(out, -1, 1)
    return _cast_back(out, img.dtype)


def _pil_cubic_weight(x: np.ndarray) -> np.ndarray:
    a, x = -0.5, np.abs(x)
    inner = ((a + 2.0) * x - (a + 3.0)) * x * x + 1
    outer = (((x - 5) * x + 8) * x - 4) * a
    return np.where(x < 1.0, inner, np.where(x < 2.0, outer, 0.0))


@functools.lru_cache(maxsize=256)
def _pil_taps(src: int, dst: int):
    """Pillow-style bicubic taps (a = -0.5, widened by the shrink factor) as 22-bit fixed-point weights."""
    scale = src / dst
    support = 2.0 * max(scale, 1.0)
    center = (np.arange(dst) + 0.5) * scale
    lo = np.maximum((center - support + 0.5).astype(np.int64), 0)
    hi = np.minimum((center + support + 0.5).astype(np.int64), src)
    ksize = int(np.ceil(support)) * 2 + 1
    k = np.arange(ksize)
    valid = k[None, :] < (hi - lo)[:, None]
    w = np.where(valid, _pil_cubic_weight((k[None, :] + lo[:, None] - center[:, None] + 0.5) / max(scale, 1.0)), 0.0)
    total = w.sum(axis=1, keepdims=True)
    w = np.where(total != 0, w / np.where(total == 0, 1, total), w)
    fixed = np.where(w < 0, (w * (1 << 22) - 0.5), (w * (1 << 22) + 0.5)).astype(np.int64)  # C casts truncate
    return np.clip(lo[:, None] + k[None, :], 0, src - 1), fixed


def _pil_cubic(img: np.ndarray, h: int, w: int) -> np.ndarray:
    """MindSpore's PILCUBIC: Pillow's two-pass bicubic with 22-bit fixed point, rounding to uint8 between
    the horizontal and the vertical pass (3-channel uint8 images only)."""
    out = img.astype(np.int64)
    if w != img.shape[1]:
        xi, xk = _pil_taps(img.shape[1], w)
        acc = sum(out[:, xi[:, k]] * xk[:, k][None, :, None] for k in range(xi.shape[1]))
        out = np.clip((acc + (1 << 21)) >> 22, 0, 255)
    if h != img.shape[0]:
        yi, yk = _pil_taps(img.shape[0], h)
        acc = sum(out[yi[:, k]] * yk[:, k][:, None, None] for k in range(yi.shape[1]))
        out = np.clip((acc + (1 << 21)) >> 22, 0, 255)
    return out.astype(np.uint8)


def resize(img: np.ndarray, h: int, w: int, mode: str) -> np.ndarray:
    """Resize an HW or HWC image to (h, w) with ``mode`` in nearest/linear/cubic/area/pilcubic."""
    if (h, w) == img.shape[:2]:
        return img.copy()
    if mode == "nearest":
        return _nearest(img, h, w)
    if mode == "area":
        return _area(img, h, w)
    if mode in ("linear", "cubic"):
        sh, sw = img.shape[:2]
        if mode == "linear" and sh == 2 * h and sw == 2 * w:  # OpenCV turns an exact halving into INTER_AREA
            return _area(img, h, w)
        return _separable(img, h, w, mode)
    if mode == "pilcubic":
        return _pil_cubic(img, h, w)
    raise ValueError(f"resize: unknown interpolation {mode!r}")
