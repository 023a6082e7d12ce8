"""The 8-bit floats MindSpore 2.10 exposes (float8_e4m3fn, float8_e5m2, hifloat8): storage, conversion, refusal.

The OCP formats are stored as ml_dtypes' NumPy types (round to nearest even on conversion, as MindSpore). Huawei's
HiFloat8 (arXiv 2409.16626) has no NumPy type: it is stored as its raw byte in a one-field structured dtype, and
converted here the way MindSpore 2.10's host code converts it: through float32, with the mantissa *truncated*
(not rounded) to the 1-3 bits the exponent's range leaves, magnitudes above 2**15 becoming inf and below 2**-22
becoming zero (without its sign). MindSpore's CPU kernels take none of these dtypes: a tensor can be built,
printed and copied, every op on it raises (``refuse``)."""
from __future__ import annotations

import functools

import numpy as np

HIF8_STORAGE = np.dtype([("hifloat8", np.uint8)])

_NAN, _INF, _F8MAX = 0x80, 0x6F, (127 + 15) << 23  # HiFloat8 NaN / +inf patterns; float32 bits of 2**15


def _decode_byte(b: int) -> float:
    """The value of one HiFloat8 bit pattern: sign, a prefix-coded "dot" field giving the exponent's width
    (4, 3, 2, 1 or 0 bits, the exponent's own top bit its sign), the exponent, then the mantissa."""
    sign = -1.0 if b & 0x80 else 1.0
    if b == _NAN:
        return float("nan")
    if b & 0x7F == _INF:
        return sign * float("inf")
    if b & 0x78 == 0:  # dot 0000: denormal, 2**(m - 23)
        return 0.0 if b == 0 else sign * 2.0 ** ((b & 7) - 23)
    if b & 0x78 == 0x08:  # dot 0001: exponent 0
        return sign * (1 + (b & 7) / 8)
    if b & 0x70 == 0x10:  # dot 001: exponent +-1
        return sign * 2.0 ** (-1 if b & 0x08 else 1) * (1 + (b & 7) / 8)
    width = ((b & 0x60) >> 5) + 1  # dot 01 / 10 / 11: a 2-, 3- or 4-bit exponent
    man_bits = 5 - width
    magnitude = (1 << (width - 1)) + ((b & 0x0F) >> man_bits)
    exponent = -magnitude if b & 0x10 else magnitude
    return sign * 2.0 ** exponent * (1 + (b & ((1 << man_bits) - 1)) / (1 << man_bits))


@functools.cache
def hif8_values() -> np.ndarray:
    """float32 value of each of the 256 HiFloat8 bit patterns (built on first use)."""
    return np.array([_decode_byte(b) for b in range(256)], np.float32)


def hif8_encode(values) -> np.ndarray:
    """Any real array -> HiFloat8 storage (through float32, as MindSpore's host conversion)."""
    x = np.array(values, dtype=np.float32)  # a contiguous copy, 0-d kept
    bits = x.view(np.uint32).astype(np.int64)
    sign = np.where(bits >> 31, 0x80, 0)
    a = bits & 0x7FFFFFFF
    e = (a >> 23) - 127
    m = a & 0x7FFFFF
    mag = np.abs(e)
    out = np.zeros(x.shape, np.int64)  # exponents <= -23 and zeros: 0x00 (the sign is dropped)
    for lo, hi, prefix, width, man in ((8, 15, 0x60, 4, 1), (4, 7, 0x40, 3, 2), (2, 3, 0x20, 2, 3), (1, 1, 0x10, 1, 3)):
        sel = (mag >= lo) & (mag <= hi)
        field = np.where(e > 0, e & ((1 << (width - 1)) - 1), -e)  # a negative exponent's field is |e| (top bit set)
        out = np.where(sel, sign | prefix | (field << man) | (m >> (23 - man)), out)
    out = np.where(e == 0, sign | 0x08 | (m >> 20), out)
    out = np.where((e >= -22) & (e <= -16), sign | (e + 23), out)
    out = np.where(a > _F8MAX, sign | _INF, out)  # inf and everything above 2**15
    out = np.where(a > 0x7F800000, _NAN, out)
    out = np.where(a == 0, 0, out)
    return out.astype(np.uint8).reshape(x.shape).view(HIF8_STORAGE)


def to_float32(arr: np.ndarray) -> np.ndarray:
    """The values of an 8-bit float array (any of the three) as float32, for printing."""
    if arr.dtype == HIF8_STORAGE:
        return hif8_values()[arr.view(np.uint8)]
    return arr.astype(np.float32)


def refuse(name: str, dtype) -> TypeError:
    return TypeError(f"{name}: {dtype} tensors are not supported on CPU (MindSpore 2.10's CPU kernels take no 8-bit "
                     f"float: such a tensor can be built, printed and copied, not computed on)")
