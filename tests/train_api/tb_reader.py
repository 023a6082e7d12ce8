"""A minimal TensorBoard event-file reader for the tests, independent of sprout's writer: TFRecord framing checked
with a bitwise CRC-32C, payloads parsed by the protobuf package from descriptors of TensorFlow's event.proto."""
import struct

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

_T = descriptor_pb2.FieldDescriptorProto
_MESSAGES = {  # name: [(field, number, type, label, message type)] -- TensorFlow's numbering
    "Event": [("wall_time", 1, _T.TYPE_DOUBLE, 1, None), ("step", 2, _T.TYPE_INT64, 1, None),
              ("file_version", 3, _T.TYPE_STRING, 1, None), ("summary", 5, _T.TYPE_MESSAGE, 1, "Summary")],
    "Summary": [("value", 1, _T.TYPE_MESSAGE, 3, "Value")],
    "Value": [("tag", 1, _T.TYPE_STRING, 1, None), ("simple_value", 2, _T.TYPE_FLOAT, 1, None),
              ("image", 4, _T.TYPE_MESSAGE, 1, "Image"), ("histo", 5, _T.TYPE_MESSAGE, 1, "Histo"),
              ("tensor", 8, _T.TYPE_MESSAGE, 1, "TensorP")],
    "Image": [("height", 1, _T.TYPE_INT32, 1, None), ("width", 2, _T.TYPE_INT32, 1, None),
              ("colorspace", 3, _T.TYPE_INT32, 1, None), ("encoded_image_string", 4, _T.TYPE_BYTES, 1, None)],
    "Histo": [("min", 1, _T.TYPE_DOUBLE, 1, None), ("max", 2, _T.TYPE_DOUBLE, 1, None),
              ("num", 3, _T.TYPE_DOUBLE, 1, None), ("sum", 4, _T.TYPE_DOUBLE, 1, None),
              ("sum_squares", 5, _T.TYPE_DOUBLE, 1, None), ("bucket_limit", 6, _T.TYPE_DOUBLE, 3, None),
              ("bucket", 7, _T.TYPE_DOUBLE, 3, None)],
    "TensorP": [("dtype", 1, _T.TYPE_INT32, 1, None), ("tensor_shape", 2, _T.TYPE_MESSAGE, 1, "Shape"),
                ("tensor_content", 4, _T.TYPE_BYTES, 1, None)],
    "Shape": [("dim", 2, _T.TYPE_MESSAGE, 3, "Dim")],
    "Dim": [("size", 1, _T.TYPE_INT64, 1, None)],
}


def _event_class():
    fdp = descriptor_pb2.FileDescriptorProto(name="tb_reader_test.proto", package="tbtest", syntax="proto3")
    for name, fields in _MESSAGES.items():
        msg = fdp.message_type.add(name=name)
        for fname, number, ftype, label, mtype in fields:
            f = msg.field.add(name=fname, number=number, type=ftype, label=label)
            if mtype:
                f.type_name = ".tbtest." + mtype
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("tbtest.Event"))


Event = _event_class()


def crc32c_bitwise(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def _masked(data: bytes) -> int:
    c = crc32c_bitwise(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def read_events(path):
    """Every Event in the file, checking both CRCs of every record."""
    data = open(path, "rb").read()
    pos, events = 0, []
    while pos < len(data):
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", data[pos + 8:pos + 12])[0] == _masked(header), "length CRC"
        payload = data[pos + 12:pos + 12 + length]
        assert struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])[0] == _masked(payload), "data CRC"
        event = Event()
        event.ParseFromString(payload)
        events.append(event)
        pos += 16 + length
    assert pos == len(data), "trailing bytes"
    return events


def scalars(path):
    """{tag: [(step, value), ...]} of the file's scalar summaries."""
    out = {}
    for event in read_events(path):
        for value in event.summary.value:
            if not value.HasField("image") and not value.HasField("histo") and not value.HasField("tensor"):
                out.setdefault(value.tag, []).append((event.step, value.simple_value))
    return out
