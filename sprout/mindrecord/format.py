"""MindRecord's file format: schema rules, the shard header (JSON) and the blob encoding of a row."""
from __future__ import annotations

# A shard file is a header region (8-byte little-endian length + JSON, padded to ``header_size``) followed by
# fixed-size page slots. BLOB_DATA pages hold each row's binary fields, RAW_DATA pages their scalar fields as
# MessagePack maps; every entry is prefixed by its 8-byte little-endian length. A row group is the rows of one
# blob page; a raw page lists where each of its row groups' scalar data starts. ``<file>.db`` (SQLite) indexes
# the rows for MindSpore's reader.

import json
import re

import numpy as np

VERSION = "3.0"
DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MAX_SHARDS = 1000
SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
DUMMY_RAW = {"id": 0}          # scalar part MindSpore stores for rows without scalar fields
DUMMY_BLOB = b"\0\0\0\0"       # blob MindSpore stores for rows without binary fields


def check_schema(op: str, content) -> dict:
    """MindSpore's schema rules: {field: {"type": T}} or {field: {"type": T, "shape": [..]}}."""
    if not isinstance(content, dict) or not content:
        raise ValueError(f"{op}: the schema must be a non-empty dict, got {content!r}")
    for name, spec in content.items():
        if not isinstance(name, str) or not re.fullmatch(r"[0-9a-zA-Z_]+", name):
            raise ValueError(f"{op}: field name {name!r} must consist of '0-9', 'a-z', 'A-Z' and '_'")
        if not isinstance(spec, dict) or "type" not in spec or set(spec) - {"type", "shape"}:
            raise ValueError(f"{op}: field {name!r} must be {{'type': ...}} with an optional 'shape', got {spec!r}")
        if "shape" in spec:
            shape = spec["shape"]
            if spec["type"] not in ARRAY_TYPES:
                raise ValueError(f"{op}: field {name!r} has a shape, so its type must be one of {list(ARRAY_TYPES)}, "
                                 f"got {spec['type']!r}")
            if not isinstance(shape, list) or not shape or any(
                    isinstance(d, bool) or not isinstance(d, int) or (d < 1 and d != -1) for d in shape) or \
                    shape.count(-1) > 1:
                raise ValueError(f"{op}: field {name!r} shape must be a list of positive ints with at most one -1, "
                                 f"got {shape!r}")
        elif spec["type"] not in SCALAR_TYPES:
            raise ValueError(f"{op}: field {name!r} type must be one of {list(SCALAR_TYPES)}, got {spec['type']!r}")
    return {name: dict(sorted(content[name].items())) for name in sorted(content)}


def blob_fields(schema: dict) -> list:
    return sorted(n for n, s in schema.items() if s["type"] == "bytes" or "shape" in s)


def compresses(schema: dict) -> bool:
    """Whether integer arrays are stored compressed (any int32/int64 field with a shape, format 3.0)."""
    return any("shape" in s and s["type"] in ("int32", "int64") for s in schema.values())


# -- integer-array compression: 4-byte big-endian count, a 2-bit width code per value, little-endian values --
_WIDTHS = (np.int8, np.int16, np.int32, np.int64)


def compress_ints(values: np.ndarray) -> bytes:
    v = values.astype(np.int64).ravel()
    code = np.full(v.size, 3, np.uint8)
    for c, t in reversed(list(enumerate(_WIDTHS[:3]))):
        info = np.iinfo(t)
        code[(v >= info.min) & (v <= info.max) & (code > c)] = c
    padded = np.zeros(-(-v.size // 4) * 4, np.uint8)
    padded[:v.size] = code
    bitmap = (padded.reshape(-1, 4) << np.array([6, 4, 2, 0], np.uint8)).sum(axis=1, dtype=np.uint8)
    widths = (1 << code.astype(np.int64))
    starts = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    body = np.zeros(int(widths.sum()), np.uint8)
    for c in range(4):
        sel = np.flatnonzero(code == c)
        if sel.size:
            raw = v[sel].astype(np.dtype(_WIDTHS[c]).newbyteorder("<")).view(np.uint8).reshape(-1, 1 << c)
            body[starts[sel][:, None] + np.arange(1 << c)] = raw
    return v.size.to_bytes(4, "big") + bitmap.tobytes() + body.tobytes()


def decompress_ints(data: bytes, dtype) -> np.ndarray:
    if len(data) < 4:
        raise ValueError("compressed integer field is shorter than its 4-byte count")
    n = int.from_bytes(data[:4], "big")
    nbitmap = -(-n // 4)
    if 4 + nbitmap > len(data):
        raise ValueError("compressed integer field is shorter than its width table")
    bitmap = np.frombuffer(data, np.uint8, nbitmap, 4)
    codes = ((bitmap[:, None] >> np.array([6, 4, 2, 0], np.uint8)) & 3).ravel()[:n]
    widths = 1 << codes.astype(np.int64)
    starts = 4 + nbitmap + np.concatenate([[0], np.cumsum(widths)[:-1]]) if n else np.zeros(0, np.int64)
    if n and starts[-1] + widths[-1] > len(data):
        raise ValueError("compressed integer field is shorter than its values")
    out = np.empty(n, np.int64)
    for c in range(4):
        sel = np.flatnonzero(codes == c)
        if sel.size:
            idx = starts[sel][:, None] + np.arange(1 << c)
            raw = np.frombuffer(data, np.uint8)[idx].copy()
            out[sel] = raw.view(np.dtype(_WIDTHS[c]).newbyteorder("<")).ravel()
    return out.astype(dtype)


def encode_blob(schema: dict, fields: list, row: dict, compress: bool) -> bytes:
    """The binary part of one row: a single field as is, several as (8-byte big-endian length, data) pairs."""
    parts = []
    for name in fields:
        spec, value = schema[name], row[name]
        if spec["type"] == "bytes":
            data = bytes(value)
        else:
            arr = np.asarray(value).astype(spec["type"], copy=False)
            data = compress_ints(arr) if compress and spec["type"] in ("int32", "int64") else \
                arr.astype(np.dtype(spec["type"]).newbyteorder("<")).tobytes()
        parts.append(data)
    if len(parts) == 1:
        return parts[0]
    return b"".join(len(p).to_bytes(8, "big") + p for p in parts)


def decode_blob(schema: dict, fields: list, blob: bytes, compress: bool, wanted=None) -> dict:
    """The binary fields of one row (only ``wanted`` ones if given), arrays reshaped by the schema."""
    if len(fields) == 1:
        chunks = {fields[0]: blob}
    else:
        chunks, pos = {}, 0
        for name in fields:
            if pos + 8 > len(blob):
                raise ValueError(f"the row's binary data ends before field {name!r}")
            n = int.from_bytes(blob[pos:pos + 8], "big")
            if pos + 8 + n > len(blob):
                raise ValueError(f"the row's binary data ends inside field {name!r}")
            chunks[name] = blob[pos + 8:pos + 8 + n]
            pos += 8 + n
    out = {}
    for name in fields:
        if wanted is not None and name not in wanted:
            continue
        spec, data = schema[name], chunks[name]
        if spec["type"] == "bytes":
            out[name] = data
            continue
        if compress and spec["type"] in ("int32", "int64"):
            arr = decompress_ints(data, spec["type"])
        else:
            dt = np.dtype(spec["type"]).newbyteorder("<")
            if len(data) % dt.itemsize:
                raise ValueError(f"field {name!r} holds {len(data)} bytes, not a whole number of {spec['type']}")
            arr = np.frombuffer(data, dt).astype(spec["type"])
        out[name] = arr.reshape(spec["shape"])
    return out


def header_json(shard_id: int, addresses: list, schema: dict, desc: str, index_fields: list, pages: list,
                header_size: int, page_size: int, compression_size: int) -> bytes:
    """The header JSON of one shard, with MindSpore's key order and compact separators."""
    head = {
        "header_size": header_size,
        "index_fields": [{"index_field": f, "schema_id": 0} for f in index_fields] if index_fields else None,
        "page": pages,
        "page_size": page_size,
        "compression_size": compression_size,
        "schema": [{"blob_fields": blob_fields(schema), "desc": desc, "schema": schema}],
        "shard_addresses": list(addresses),
        "shard_id": shard_id,
        "statistics": None,
        "version": VERSION,
    }
    return json.dumps(head, separators=(",", ":")).encode("utf-8")


def page_record(page_id, shard_id, page_type, type_id, start_row, end_row, groups, size) -> dict:
    return {"end_row_id": end_row, "page_id": page_id, "page_size": size, "page_type": page_type,
            "page_type_id": type_id, "row_group_ids": [{"id": g, "offset": o} for g, o in groups],
            "shard_id": shard_id, "start_row_id": start_row}
