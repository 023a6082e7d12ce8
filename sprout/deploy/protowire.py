"""A small protobuf codec driven by a schema table: messages as dicts, no protobuf package needed."""
from __future__ import annotations

import struct
from dataclasses import dataclass

from ..train._ckpt_proto import ProtoError, encode_varint
from ..train._ckpt_proto import _varint as _read_varint

# wire types
_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5
_SCALAR_WIRE = {"int64": _VARINT, "int32": _VARINT, "uint64": _VARINT, "uint32": _VARINT, "bool": _VARINT,
                "enum": _VARINT, "float": _I32, "double": _I64, "string": _LEN, "bytes": _LEN}


WireError = ProtoError  # the bytes are not a well-formed message of the expected schema

@dataclass(frozen=True)
class Field:
    """One field of a message: its name, kind (a scalar kind above or a message name) and whether it repeats."""

    name: str
    kind: str
    repeated: bool = False


def _signed(value: int, bits: int) -> int:
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def _scalar_from_varint(kind: str, raw: int):
    if kind == "bool":
        return bool(raw)
    if kind in ("int64", "enum"):
        return _signed(raw & ((1 << 64) - 1), 64)
    if kind == "int32":
        return _signed(raw & ((1 << 64) - 1), 64)  # negative int32s are written as 10-byte varints
    return raw


class Schema:
    """``{message name: {field number: Field}}``; ``decode``/``encode`` map bytes <-> dicts (field name -> value,
    a list for repeated fields; absent fields are absent keys, unknown fields are skipped)."""

    def __init__(self, messages: dict):
        self.messages = messages
        self.by_name = {m: {f.name: (num, f) for num, f in fields.items()} for m, fields in messages.items()}

    # ---- decoding ---------------------------------------------------------------------------------
    def decode(self, message: str, data) -> dict:
        view = memoryview(data)
        return self._decode(message, view, 0, len(view))

    def _decode(self, message: str, buf, pos: int, end: int) -> dict:
        fields = self.messages[message]
        out: dict = {}
        while pos < end:
            key, pos = _read_varint(buf, pos, end)
            number, wire = key >> 3, key & 7
            if number == 0:
                raise WireError(f"{message}: field number 0 at byte {pos}")
            if wire == _VARINT:
                raw, pos = _read_varint(buf, pos, end)
                value = ("varint", raw)
            elif wire == _I64:
                value, pos = ("i64", bytes(buf[pos:pos + 8])), pos + 8
            elif wire == _I32:
                value, pos = ("i32", bytes(buf[pos:pos + 4])), pos + 4
            elif wire == _LEN:
                length, pos = _read_varint(buf, pos, end)
                value, pos = ("len", (pos, pos + length)), pos + length
            else:
                raise WireError(f"{message}: unsupported wire type {wire} for field {number}")
            if pos > end:
                raise WireError(f"{message}: field {number} runs past the end of its message")
            field = fields.get(number)
            if field is None:
                continue
            for item in self._values(field, value, buf, message):
                if field.repeated:
                    out.setdefault(field.name, []).append(item)
                else:
                    out[field.name] = item
        return out

    def _values(self, field: Field, value, buf, message: str):
        tag, raw = value
        kind = field.kind
        if kind in self.messages:
            if tag != "len":
                raise WireError(f"{message}.{field.name}: expected a nested message")
            yield self._decode(kind, buf, raw[0], raw[1])
        elif kind in ("string", "bytes"):
            if tag != "len":
                raise WireError(f"{message}.{field.name}: expected {kind}")
            data = bytes(buf[raw[0]:raw[1]])
            if kind == "string":
                try:
                    yield data.decode("utf-8")
                except UnicodeDecodeError:
                    raise WireError(f"{message}.{field.name} is not UTF-8") from None
            else:
                yield data
        elif tag == "len":  # a packed run of scalars
            pos, end = raw
            while pos < end:
                if kind in ("float", "double"):
                    size = 4 if kind == "float" else 8
                    yield struct.unpack("<f" if size == 4 else "<d", bytes(buf[pos:pos + size]))[0]
                    pos += size
                else:
                    item, pos = _read_varint(buf, pos, end)
                    yield _scalar_from_varint(kind, item)
        elif tag == "varint":
            yield _scalar_from_varint(kind, raw)
        elif tag == "i32":
            yield struct.unpack("<f", raw)[0] if kind == "float" else struct.unpack("<i", raw)[0]
        else:
            yield struct.unpack("<d", raw)[0] if kind == "double" else struct.unpack("<q", raw)[0]

    # ---- encoding ---------------------------------------------------------------------------------
    def encode(self, message: str, value: dict) -> bytes:
        fields = self.by_name[message]
        unknown = set(value) - set(fields)
        if unknown:
            raise WireError(f"{message}: unknown fields {sorted(unknown)}")
        out = bytearray()
        for name in sorted(value, key=lambda n: fields[n][0]):
            number, field = fields[name]
            items = value[name] if field.repeated else [value[name]]
            for item in items:
                out += self._encode_one(number, field, item)
        return bytes(out)

    def _encode_one(self, number: int, field: Field, item) -> bytes:
        kind = field.kind
        if kind in self.messages:
            body = self.encode(kind, item)
            return encode_varint((number << 3) | _LEN) + encode_varint(len(body)) + body
        wire = _SCALAR_WIRE[kind]
        key = encode_varint((number << 3) | wire)
        if kind == "string":
            data = item.encode("utf-8")
            return key + encode_varint(len(data)) + data
        if kind == "bytes":
            data = bytes(item)
            return key + encode_varint(len(data)) + data
        if kind == "float":
            return key + struct.pack("<f", item)
        if kind == "double":
            return key + struct.pack("<d", item)
        return key + encode_varint(int(item))
