"""TensorBoard event files: TFRecord framing (masked CRC-32C) around ``Event`` protobufs, written by ``protowire``."""
from __future__ import annotations

import struct

import numpy as np

from ...deploy.protowire import Field as _F
from ...deploy.protowire import Schema

# TensorFlow's event.proto / summary.proto / tensor.proto, only the fields sprout writes (field numbers as there)
SCHEMA = Schema({
    "Event": {1: _F("wall_time", "double"), 2: _F("step", "int64"), 3: _F("file_version", "string"),
              5: _F("summary", "Summary")},
    "Summary": {1: _F("value", "Value", repeated=True)},
    "Value": {1: _F("tag", "string"), 2: _F("simple_value", "float"), 4: _F("image", "Image"),
              5: _F("histo", "Histogram"), 8: _F("tensor", "Tensor"), 9: _F("metadata", "Metadata")},
    "Image": {1: _F("height", "int32"), 2: _F("width", "int32"), 3: _F("colorspace", "int32"),
              4: _F("encoded_image_string", "bytes")},
    "Histogram": {1: _F("min", "double"), 2: _F("max", "double"), 3: _F("num", "double"), 4: _F("sum", "double"),
                  5: _F("sum_squares", "double"), 6: _F("bucket_limit", "double", repeated=True),
                  7: _F("bucket", "double", repeated=True)},
    "Tensor": {1: _F("dtype", "enum"), 2: _F("tensor_shape", "Shape"), 4: _F("tensor_content", "bytes")},
    "Shape": {2: _F("dim", "Dim", repeated=True)},
    "Dim": {1: _F("size", "int64")},
    "Metadata": {1: _F("plugin_data", "PluginData")},
    "PluginData": {1: _F("plugin_name", "string")},
})

# TensorFlow DataType codes of the NumPy dtypes a tensor summary can hold
TF_DTYPES = {np.dtype(np.float32): 1, np.dtype(np.float64): 2, np.dtype(np.int32): 3, np.dtype(np.uint8): 4,
             np.dtype(np.int16): 5, np.dtype(np.int8): 6, np.dtype(np.int64): 9, np.dtype(np.bool_): 10,
             np.dtype(np.uint16): 17, np.dtype(np.float16): 19, np.dtype(np.uint32): 22, np.dtype(np.uint64): 23}


def _crc32c_table() -> list:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), the checksum TFRecord framing uses."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame(payload: bytes) -> bytes:
    """One TFRecord: length (u64 LE), masked CRC of the length, payload, masked CRC of the payload."""
    header = struct.pack("<Q", len(payload))
    return header + struct.pack("<I", masked_crc(header)) + payload + struct.pack("<I", masked_crc(payload))


def event_bytes(event: dict) -> bytes:
    return frame(SCHEMA.encode("Event", event))
