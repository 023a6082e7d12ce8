"""SampleDistortedBoundingBoxV2: a random crop of an image that covers enough of one of its boxes, drawn the way
MindSpore 2.10's CPU kernel draws it (a Philox4x32-10 stream keyed by seed/seed2, restarted at every call), so a
non-zero seed or seed2 gives MindSpore's crop exactly; seed = seed2 = 0 keys the stream from sprout's seed stream."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import KernelError, Op, register
from ..core.types import TensorType
from ._infer import fmt_shape
from .random_ops import _check_seed

_M32 = 0xFFFFFFFF
_F32 = np.float32
_INT_DTYPES = (mstype.uint8, mstype.int8, mstype.int16, mstype.int32, mstype.int64)


class SampleError(KernelError, RuntimeError):
    """A value MindSpore's kernel rejects at run time (RuntimeError), reported as is."""


class Philox:
    """Philox4x32 with 10 rounds: key = the low 64 bits, counter words 2-3 = the high 64 bits; 32-bit draws are
    handed out four per block, the counter advancing by one per block."""

    def __init__(self, seed_lo: int, seed_hi: int):
        seed_lo &= (1 << 64) - 1
        seed_hi &= (1 << 64) - 1
        self.key = (seed_lo & _M32, seed_lo >> 32)
        self.counter = [0, 0, seed_hi & _M32, seed_hi >> 32]
        self.block: list = []

    def _next_block(self) -> list:
        c, (k0, k1) = list(self.counter), self.key
        for r in range(10):
            p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
            c = [((p1 >> 32) ^ c[1] ^ k0) & _M32, p1 & _M32, ((p0 >> 32) ^ c[3] ^ k1) & _M32, p0 & _M32]
            if r < 9:
                k0, k1 = (k0 + 0x9E3779B9) & _M32, (k1 + 0xBB67AE85) & _M32
        for i in range(4):  # a 128-bit increment
            self.counter[i] = (self.counter[i] + 1) & _M32
            if self.counter[i]:
                break
        return c

    def u32(self) -> int:
        if not self.block:
            self.block = self._next_block()[::-1]
        return self.block.pop()

    def unit_float(self) -> np.float32:
        """[0, 1) from the low 23 bits as a float32 mantissa."""
        bits = np.array([(127 << 23) | (self.u32() & 0x7FFFFF)], np.uint32)
        return _F32(bits.view(_F32)[0] - _F32(1))

    def below(self, n: int) -> int:
        """Uniform in [0, n): a mask for powers of two, else rejection of the low remainder."""
        if n & (n - 1) == 0:
            return self.u32() & (n - 1)
        rem = (_M32 % n) + 1
        while True:
            r = self.u32()
            if r >= rem:
                return r % n


def _rint(v) -> int:
    return int(np.rint(_F32(v)))  # lrintf: to nearest, ties to even


def _random_crop(gen: Philox, width: int, height: int, min_rel, max_rel, ratio):
    """One attempt: a height drawn between the ones giving the minimum and maximum area at this aspect ratio, the
    width from it, then the left and the top offsets (MindSpore 2.10 draws the column before the row)."""
    min_area, max_area = min_rel * _F32(width) * _F32(height), max_rel * _F32(width) * _F32(height)
    if ratio == 0:
        return None
    h = _rint(np.sqrt(_F32(min_area / ratio)))
    max_h = _rint(np.sqrt(_F32(max_area / ratio)))
    if _rint(_F32(max_h) * ratio) > width:
        max_h = int(_F32((_F32(width) + _F32(0.5) - _F32(1e-7)) / ratio))
        if _rint(_F32(max_h) * ratio) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += gen.below(max_h - h + 1)
    w = _rint(_F32(h) * ratio)
    if _F32(w * h) < min_area:
        h += 1
        w = _rint(_F32(h) * ratio)
    if _F32(w * h) > max_area:
        h -= 1
        w = _rint(_F32(h) * ratio)
    area = _F32(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    x = gen.below(width - w) if w < width else 0
    y = gen.below(height - h) if h < height else 0
    return x, y, x + w, y + h


def _area(r) -> np.float32:
    return _F32((r[2] - r[0]) * (r[3] - r[1]))


def _covers(crop, boxes, minimum) -> bool:
    if _area(crop) < 1:
        return False
    for b in boxes:
        if _area(b) < 1:
            continue
        cut = (max(crop[0], b[0]), max(crop[1], b[1]), min(crop[2], b[2]), min(crop[3], b[3]))
        inter = _area(cut) if cut[0] <= cut[2] and cut[1] <= cut[3] else _F32(0)
        if inter / _area(b) >= minimum:
            return True
    return False


def _boxes(boxes: np.ndarray, width: int, height: int) -> list:
    out = []
    for y0, x0, y1, x1 in boxes.reshape(-1, 4).astype(_F32):
        if min(y0, x0, y1, x1) < 0 or max(y0, x0, y1, x1) > 1:
            raise SampleError("SampleDistortedBoundingBoxV2: all bounding box coordinates must be in [0.0, 1.0], got "
                              f"{[float(y0), float(x0), float(y1), float(x1)]}")
        if not (x0 < x1 and y0 < y1):
            raise SampleError(f"SampleDistortedBoundingBoxV2: a bounding box must have y_min < y_max and "
                              f"x_min < x_max, got {[float(y0), float(x0), float(y1), float(x1)]}")
        out.append((int(x0 * _F32(width)), int(y0 * _F32(height)), int(x1 * _F32(width)), int(y1 * _F32(height))))
    return out


def _sdbb_impl(image_size, bounding_boxes, min_object_covered, seed, seeds=(0, 0), aspect_ratio_range=(0.75, 1.33),
               area_range=(0.05, 1.0), max_attempts=100, use_image_if_no_bounding_boxes=False):
    height, width = int(image_size[0]), int(image_size[1])
    if height <= 0 or width <= 0:
        raise SampleError(f"SampleDistortedBoundingBoxV2: image height and width must be positive, got {height} and "
                          f"{width}")
    minimum = _F32(np.asarray(min_object_covered).reshape(-1)[0])
    if not 0 <= minimum <= 1:
        raise SampleError(f"SampleDistortedBoundingBoxV2: min_object_covered must be in [0.0, 1.0], got {minimum}")
    boxes = _boxes(np.asarray(bounding_boxes), width, height)
    if not boxes:
        if not use_image_if_no_bounding_boxes:
            raise SampleError("SampleDistortedBoundingBoxV2: no bounding boxes given; set "
                              "use_image_if_no_bounding_boxes to crop against the whole image")
        boxes = [(0, 0, width, height)]
    s1, s2 = seeds
    gen = Philox(s1, s2) if (s1, s2) != (0, 0) else Philox(int(seed), int(seed) ^ 0x5DEECE66D)
    lo_ratio, hi_ratio = _F32(aspect_ratio_range[0]), _F32(aspect_ratio_range[1])
    crop = None
    for _ in range(max_attempts):
        ratio = _F32(gen.unit_float() * (hi_ratio - lo_ratio) + lo_ratio)
        found = _random_crop(gen, width, height, _F32(area_range[0]), _F32(area_range[1]), ratio)
        if found is not None and _covers(found, boxes, minimum):
            crop = found
            break
    if crop is None:
        crop = (0, 0, width, height)
    dtype = image_size.dtype
    begin = np.array([crop[1], crop[0], 0], np.int64).astype(dtype)
    size = np.array([crop[3] - crop[1], crop[2] - crop[0], -1], np.int64).astype(dtype)  # uint8: -1 wraps to 255
    bbox = np.array([[[crop[1] / _F32(height), crop[0] / _F32(width), crop[3] / _F32(height),
                       crop[2] / _F32(width)]]], _F32)
    return begin, size, bbox


def check_sdbb_inputs(image_size, bounding_boxes, min_object_covered) -> None:
    """Shapes and dtypes (Tensors or TensorTypes), with MindSpore's exception types."""
    op = "SampleDistortedBoundingBoxV2"
    if image_size.dtype not in _INT_DTYPES:
        raise TypeError(f"{op}: image_size must be a uint8/int8/int16/int32/int64 tensor, got {image_size.dtype}")
    for name, t in (("bounding_boxes", bounding_boxes), ("min_object_covered", min_object_covered)):
        if t.dtype is not mstype.float32:
            raise TypeError(f"{op}: {name} must be a float32 tensor, got {t.dtype}")
    if len(image_size.shape) != 1 or image_size.shape[0] not in (3, None):
        raise ValueError(f"{op}: image_size must be 1-D with 3 elements, got shape "
                         f"{fmt_shape(tuple(image_size.shape))}")
    if len(bounding_boxes.shape) != 3 or bounding_boxes.shape[2] not in (4, None):
        raise ValueError(f"{op}: bounding_boxes must have shape (batch, N, 4), got "
                         f"{fmt_shape(tuple(bounding_boxes.shape))}")
    if len(min_object_covered.shape) > 1 or (min_object_covered.shape and min_object_covered.shape[0] not in (1, None)):
        raise ValueError(f"{op}: min_object_covered must have 1 element, got shape "
                         f"{fmt_shape(tuple(min_object_covered.shape))}")


def _sdbb_infer(image_size, bounding_boxes, min_object_covered, seed, **attrs):
    check_sdbb_inputs(image_size, bounding_boxes, min_object_covered)
    _check_seed("SampleDistortedBoundingBoxV2", seed)
    return (TensorType((3,), image_size.dtype), TensorType((3,), image_size.dtype),
            TensorType((1, 1, 4), mstype.float32))


def _no_grad(*args, **attrs):
    return tuple(None for _ in args[:-2])


# "opaque": the draw is a function of the inputs; with seed = seed2 = 0 the seed input comes from RandomSeed (a new
# one at every call), with a fixed seed it is a constant and MindSpore's result is the same at every call
SAMPLE_DISTORTED_BOUNDING_BOX_V2 = register(Op("SampleDistortedBoundingBoxV2", _sdbb_impl, _sdbb_infer, _no_grad,
                                               "opaque", n_out=3))
