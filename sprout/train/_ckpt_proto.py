"""Hand-written protobuf wire codec for MindSpore's ``checkpoint.proto`` (no protobuf dependency)."""
from __future__ import annotations

import binascii

import numpy as np

from .. import dtype as mstype

# The schema (proto2), as MindSpore 2.x declares it:
#   message Checkpoint { message Value { required string tag = 1;
#                                        oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; } }
#                        repeated Value value = 1; }
#   message TensorProto { repeated int64 dims = 1; required string tensor_type = 2; required bytes tensor_content = 3; }
# A file is the serialized Checkpoint, optionally followed by b"crc_num" and a 10-byte big-endian CRC32
# of everything before it.

TYPE_TO_NP = {
    "Bool": np.dtype(np.bool_),
    "Int8": np.dtype("<i1"), "Int16": np.dtype("<i2"), "Int32": np.dtype("<i4"), "Int64": np.dtype("<i8"),
    "UInt8": np.dtype("<u1"), "UInt16": np.dtype("<u2"), "UInt32": np.dtype("<u4"), "UInt64": np.dtype("<u8"),
    "Float16": np.dtype("<f2"), "Float32": np.dtype("<f4"), "Float64": np.dtype("<f8"),
}
NP_TO_TYPE = {(dt.kind, dt.itemsize): name for name, dt in TYPE_TO_NP.items()}  # byte order aside
# raw little-endian bfloat16 bytes, as MindSpore writes them: ml_dtypes' bfloat16 (a 2-byte void-kind NumPy dtype),
# imported when a checkpoint holds one (mstype.bfloat16.np)
NP_TO_TYPE[("V", 2)] = "BFloat16"
STR_TYPE = "str"  # a Python string saved through append_dict: UTF-32-LE text, dims [0]
CRC_MARK = b"crc_num"
CRC_TRAILER_LEN = len(CRC_MARK) + 10

_WT_VARINT, _WT_I64, _WT_LEN, _WT_I32 = 0, 1, 2, 5


class ProtoError(ValueError):
    """The bytes are not a well-formed checkpoint; the caller adds the file name."""


# ---------------------------------------------------------------- encoding

def encode_varint(value: int) -> bytes:
    """Base-128 varint; negative numbers as 64-bit two's complement (protobuf int64)."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _key(field: int, wire_type: int) -> bytes:
    return encode_varint((field << 3) | wire_type)


def _len_field(field: int, payload_len: int) -> bytes:
    return _key(field, _WT_LEN) + encode_varint(payload_len)


def entry_header(tag: str, dims, tensor_type: str, content_len: int) -> bytes:
    """Bytes of one ``Checkpoint.value`` record up to (not including) its tensor content.

    ``tensor_content`` is the last field of the innermost message, so a writer can emit this header
    and then stream the raw content straight after it. Field order follows the field numbers, which
    is what protobuf's own serializer does, so the output is byte-identical to MindSpore's.
    """
    tensor = bytearray()
    for d in dims:  # proto2 repeated scalars are not packed by default
        tensor += _key(1, _WT_VARINT) + encode_varint(int(d))
    type_bytes = tensor_type.encode("utf-8")
    tensor += _len_field(2, len(type_bytes)) + type_bytes
    tensor += _len_field(3, content_len)
    tensor_len = len(tensor) + content_len
    tag_bytes = tag.encode("utf-8")
    value = _len_field(1, len(tag_bytes)) + tag_bytes + _len_field(2, tensor_len)
    value_len = len(value) + tensor_len
    return _len_field(1, value_len) + value + bytes(tensor)


def crc_trailer(crc: int) -> bytes:
    return CRC_MARK + crc.to_bytes(10, byteorder="big")


# ---------------------------------------------------------------- decoding

def _varint(buf, pos: int, end: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= end:
            raise ProtoError(f"truncated varint at byte {pos}")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            break
        shift += 7
        if shift >= 70:
            raise ProtoError(f"varint longer than 10 bytes at byte {pos}")
    if result >= 1 << 64:
        raise ProtoError(f"varint overflows 64 bits at byte {pos}")
    return result, pos


def _fields(buf, pos: int, end: int):
    """Yield (field, wire_type, value, value_start) for each field in buf[pos:end].

    For length-delimited fields value is the end offset and value_start the start; for the others
    value is the scalar (fixed-width ones are skipped as unknown fields are by protobuf)."""
    while pos < end:
        key, pos = _varint(buf, pos, end)
        field, wire_type = key >> 3, key & 7
        if field == 0:
            raise ProtoError(f"invalid field number 0 at byte {pos}")
        if wire_type == _WT_VARINT:
            value, pos = _varint(buf, pos, end)
            yield field, wire_type, value, pos
        elif wire_type == _WT_LEN:
            length, pos = _varint(buf, pos, end)
            start, pos = pos, pos + length
            if pos > end:
                raise ProtoError(f"field {field} of length {length} at byte {start} runs past the end ({end})")
            yield field, wire_type, pos, start
        elif wire_type in (_WT_I64, _WT_I32):
            pos += 8 if wire_type == _WT_I64 else 4
            if pos > end:
                raise ProtoError(f"truncated fixed-width field {field}")
        else:
            raise ProtoError(f"unsupported wire type {wire_type} for field {field} at byte {pos}")


def _signed64(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


def _decode_tensor(buf, pos: int, end: int):
    dims, tensor_type, content = [], None, None
    for field, wire_type, value, start in _fields(buf, pos, end):
        if field == 1 and wire_type == _WT_VARINT:
            dims.append(_signed64(value))
        elif field == 1 and wire_type == _WT_LEN:  # packed encoding, accepted as protobuf does
            p = start
            while p < value:
                d, p = _varint(buf, p, value)
                dims.append(_signed64(d))
        elif field == 2 and wire_type == _WT_LEN:
            tensor_type = _utf8(buf[start:value], "tensor_type")
        elif field == 3 and wire_type == _WT_LEN:
            content = buf[start:value]
    if tensor_type is None or content is None:
        raise ProtoError("a TensorProto lacks its required tensor_type or tensor_content")
    return dims, tensor_type, content


def _utf8(raw, what: str) -> str:
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise ProtoError(f"{what} is not valid UTF-8") from None


def parse_records(buf) -> list[tuple[str, list, str, memoryview]]:
    """Split a checkpoint body into (tag, dims, tensor_type, content) records, in file order."""
    view = memoryview(buf)
    records = []
    for field, wire_type, v_end, v_start in _fields(view, 0, len(view)):
        if field != 1 or wire_type != _WT_LEN:
            continue
        tag, tensor = None, None
        for f2, wt2, end2, start2 in _fields(view, v_start, v_end):
            if f2 == 1 and wt2 == _WT_LEN:
                tag = _utf8(view[start2:end2], "a parameter name")
            elif f2 == 2 and wt2 == _WT_LEN:
                tensor = _decode_tensor(view, start2, end2)
            elif f2 == 3 and wt2 == _WT_LEN:
                tensor = "map"
        if tag is None:
            raise ProtoError(f"an entry at byte {v_start} has no name")
        if tensor == "map":
            raise ProtoError(f"entry {tag!r} is a MapParameter, which sprout does not support")
        if tensor is None:
            raise ProtoError(f"entry {tag!r} holds no tensor")
        records.append((tag, *tensor))
    return records


def split_crc(data: bytes) -> tuple[bytes, int | None]:
    """Separate MindSpore's optional CRC trailer: (body, crc or None)."""
    if len(data) >= CRC_TRAILER_LEN and data[-CRC_TRAILER_LEN:-10] == CRC_MARK:
        return data[:-CRC_TRAILER_LEN], int.from_bytes(data[-10:], byteorder="big")
    return data, None


def crc32(data, crc: int = 0) -> int:
    return binascii.crc32(data, crc)


def record_value(tag: str, dims: list, tensor_type: str, content):
    """Turn the joined content of one entry into a NumPy array (or str for string entries)."""
    if tensor_type == STR_TYPE:
        if len(content) % 4:
            raise ProtoError(f"string entry {tag!r} has {len(content)} bytes, not a multiple of 4")
        try:
            return bytes(content).decode("utf-32-le").rstrip("\x00")
        except UnicodeDecodeError:
            raise ProtoError(f"string entry {tag!r} is not valid UTF-32") from None
    dtype = mstype.bfloat16.np if tensor_type == "BFloat16" else TYPE_TO_NP.get(tensor_type)
    if dtype is None:
        raise ProtoError(f"entry {tag!r} has unknown or unsupported tensor_type {tensor_type!r}")
    if any(d < 0 for d in dims):
        raise ProtoError(f"entry {tag!r} has negative dims {dims}")
    nbytes = len(content)
    if dims == [0] and nbytes == dtype.itemsize:
        dims = []  # MindSpore's convention: dims [0] with one element's worth of bytes is a scalar
    expected = int(np.prod(dims, dtype=np.int64)) * dtype.itemsize if dims else dtype.itemsize
    if nbytes != expected:
        raise ProtoError(f"entry {tag!r}: {tensor_type} data of shape {tuple(dims)} needs {expected} bytes, "
                         f"but the file holds {nbytes}")
    arr = np.frombuffer(content, dtype=dtype).reshape(dims)  # read-only view; the caller copies it
    return arr.astype(dtype.newbyteorder("="), copy=False)
