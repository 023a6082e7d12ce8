"""The subset of MessagePack MindRecord's raw pages use: maps of str to int, float, str, bool and nil."""
from __future__ import annotations

import math
import struct


class MsgpackError(ValueError):
    """Malformed MessagePack data."""


def _int(v: int) -> bytes:
    if v >= 0:
        if v < 0x80:
            return bytes([v])
        for code, fmt, limit in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16), (0xCE, ">I", 1 << 32),
                                 (0xCF, ">Q", 1 << 64)):
            if v < limit:
                return bytes([code]) + struct.pack(fmt, v)
        raise MsgpackError(f"integer {v} does not fit in 64 bits")
    if v >= -32:
        return struct.pack(">b", v)
    for code, fmt, limit in ((0xD0, ">b", 1 << 7), (0xD1, ">h", 1 << 15), (0xD2, ">i", 1 << 31),
                             (0xD3, ">q", 1 << 63)):
        if v >= -limit:
            return bytes([code]) + struct.pack(fmt, v)
    raise MsgpackError(f"integer {v} does not fit in 64 bits")


def _str(s: str) -> bytes:
    data = s.encode("utf-8")
    n = len(data)
    if n < 32:
        head = bytes([0xA0 | n])
    elif n < 1 << 8:
        head = bytes([0xD9, n])
    elif n < 1 << 16:
        head = b"\xda" + struct.pack(">H", n)
    else:
        head = b"\xdb" + struct.pack(">I", n)
    return head + data


def _float(f: float) -> bytes:
    # like nlohmann::json: float32 when that loses nothing, float64 otherwise
    try:
        single = struct.unpack(">f", struct.pack(">f", f))[0]
    except OverflowError:
        single = None
    if single is not None and (single == f or (math.isnan(f) and math.isnan(single))):
        return b"\xca" + struct.pack(">f", f)
    return b"\xcb" + struct.pack(">d", f)


def pack_value(v) -> bytes:
    if v is None:
        return b"\xc0"
    if isinstance(v, bool):
        return b"\xc3" if v else b"\xc2"
    if isinstance(v, int):
        return _int(v)
    if isinstance(v, float):
        return _float(v)
    if isinstance(v, str):
        return _str(v)
    raise MsgpackError(f"cannot encode a {type(v).__name__} in a raw field")


def pack_map(d: dict) -> bytes:
    """Encode a flat dict (keys sorted, as MindSpore's writer does)."""
    n = len(d)
    head = bytes([0x80 | n]) if n < 16 else (b"\xde" + struct.pack(">H", n) if n < 1 << 16
                                            else b"\xdf" + struct.pack(">I", n))
    return head + b"".join(_str(k) + pack_value(d[k]) for k in sorted(d))


_FIXED = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q", 0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q",
          0xCA: ">f", 0xCB: ">d"}


def _read(data: bytes, pos: int):
    if pos >= len(data):
        raise MsgpackError("unexpected end of data")
    c = data[pos]
    pos += 1
    if c < 0x80:
        return c, pos
    if c >= 0xE0:
        return c - 0x100, pos
    if 0xA0 <= c <= 0xBF:
        n = c & 0x1F
        return data[pos:pos + n].decode("utf-8"), pos + n
    if 0x80 <= c <= 0x8F:
        return _read_map(data, pos, c & 0x0F)
    if c in _FIXED:
        fmt = _FIXED[c]
        size = struct.calcsize(fmt)
        if pos + size > len(data):
            raise MsgpackError("unexpected end of data")
        return struct.unpack(fmt, data[pos:pos + size])[0], pos + size
    if c in (0xD9, 0xDA, 0xDB):
        width = {0xD9: 1, 0xDA: 2, 0xDB: 4}[c]
        n = int.from_bytes(data[pos:pos + width], "big")
        pos += width
        if pos + n > len(data):
            raise MsgpackError("unexpected end of data")
        return data[pos:pos + n].decode("utf-8"), pos + n
    if c in (0xDE, 0xDF):
        width = 2 if c == 0xDE else 4
        return _read_map(data, pos + width, int.from_bytes(data[pos:pos + width], "big"))
    if c == 0xC0:
        return None, pos
    if c in (0xC2, 0xC3):
        return c == 0xC3, pos
    raise MsgpackError(f"unsupported MessagePack type byte 0x{c:02x}")


def _read_map(data: bytes, pos: int, n: int):
    out = {}
    for _ in range(n):
        key, pos = _read(data, pos)
        out[key], pos = _read(data, pos)
    return out, pos


def unpack(data: bytes):
    value, pos = _read(data, 0)
    if pos != len(data):
        raise MsgpackError(f"{len(data) - pos} trailing bytes")
    return value
