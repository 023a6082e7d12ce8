"""``load_mindir`` / ``save_mindir``: a MindIR file as protobuf message objects (``ModelProto`` ...).

The message classes are built at first use from the table below (MindSpore 2.10's ``mind_ir`` package, proto2:
every message, field number and enum value), with the ``protobuf`` runtime that ``onnx`` installs, in a private
descriptor pool. Fields the table did not know would survive a load/save round trip as protobuf unknown fields.
sprout's own MindIR reader/writer (``mindir_read``/``mindir_write``) do not need this module."""
from __future__ import annotations

import os
import stat

# message -> [(number, name, type, repeated)]; type: a scalar kind, ".Msg" / ".Msg.Nested" (message), "!Enum"
_OPT, _REP = False, True
_MESSAGES = {
    "AttributeProto": [
        (1, "name", "string", _OPT), (2, "f", "float", _OPT), (3, "i", "int64", _OPT), (4, "d", "double", _OPT),
        (5, "s", "bytes", _OPT), (6, "t", ".TensorProto", _OPT), (7, "g", ".GraphProto", _OPT),
        (8, "floats", "float", _REP), (9, "doubles", "double", _REP), (10, "ints", "int64", _REP),
        (11, "strings", "bytes", _REP), (12, "tensors", ".TensorProto", _REP), (13, "graphs", ".GraphProto", _REP),
        (14, "doc_string", "string", _OPT), (15, "ref_attr_name", "string", _OPT),
        (16, "type", "!AttributeProto.AttributeType", _OPT), (17, "values", ".AttributeProto", _REP),
        (18, "seq_info", ".AttributeProto.SeqInfoProto", _OPT), (19, "functor", ".FunctorProto", _OPT),
        (20, "graph_holder", ".ScalarGraphHolderProto", _OPT)],
    "AttributeProto.SeqInfoProto": [(1, "is_dyn_len", "bool", _OPT), (2, "tuple_elem_item", ".AttributeProto", _OPT)],
    "FunctorProto": [(1, "type", "!FunctorProto.FunctorType", _OPT), (2, "name", "string", _OPT),
                     (3, "values", ".AttributeProto", _REP)],
    "ValueInfoProto": [(1, "name", "string", _OPT), (2, "tensor", ".TensorProto", _REP),
                       (3, "doc_string", "string", _OPT), (4, "denotation", "string", _OPT),
                       (5, "attr_info", ".AttributeProto", _OPT)],
    "NodeProto": [(1, "input", "string", _REP), (2, "output", "string", _REP), (3, "name", "string", _OPT),
                  (4, "op_type", "string", _OPT), (5, "attribute", ".AttributeProto", _REP),
                  (6, "doc_string", "string", _OPT), (7, "domain", "string", _OPT),
                  (8, "node_attr", ".AttributeProto", _REP), (9, "primal_attr", ".AttributeProto", _REP)],
    "ModelProto": [
        (1, "ir_version", "string", _OPT), (2, "producer_name", "string", _OPT),
        (3, "producer_version", "string", _OPT), (4, "domain", "string", _OPT), (5, "model_version", "string", _OPT),
        (6, "doc_string", "string", _OPT), (7, "graph", ".GraphProto", _OPT), (8, "functions", ".GraphProto", _REP),
        (9, "preprocessor", ".PreprocessorProto", _OPT), (10, "little_endian", "bool", _OPT),
        (11, "parallel", ".ParallelProto", _OPT), (12, "primitives", ".PrimitiveProto", _REP),
        (13, "mind_ir_version", "int64", _OPT), (14, "user_info", ".ModelProto.UserInfoEntry", _REP)],
    "ModelProto.UserInfoEntry": [(1, "key", "string", _OPT), (2, "value", "string", _OPT)],
    "PreprocessorProto": [(1, "op", ".PreprocessOpProto", _REP)],
    "PreprocessOpProto": [(1, "input_columns", "string", _OPT), (2, "output_columns", "string", _OPT),
                          (3, "project_columns", "string", _OPT), (4, "op_type", "string", _OPT),
                          (5, "operations", "string", _OPT), (6, "offload", "bool", _OPT)],
    "GraphProto": [(1, "node", ".NodeProto", _REP), (2, "name", "string", _OPT),
                   (3, "parameter", ".TensorProto", _REP), (4, "doc_string", "string", _OPT),
                   (5, "input", ".ValueInfoProto", _REP), (6, "output", ".ValueInfoProto", _REP),
                   (7, "bprop_hash", "string", _OPT), (8, "attribute", ".AttributeProto", _REP),
                   (9, "bprop_filepath", "string", _OPT), (10, "map_parameter", ".MapTensorProto", _REP)],
    "TensorProto": [
        (1, "dims", "int64", _REP), (2, "data_type", "int32", _OPT), (3, "float_data", "float", _REP),
        (4, "int32_data", "int32", _REP), (5, "string_data", "bytes", _REP), (6, "int64_data", "int64", _REP),
        (7, "name", "string", _OPT), (8, "doc_string", "string", _OPT), (9, "raw_data", "bytes", _OPT),
        (10, "double_data", "double", _REP), (11, "uint64_data", "uint64", _REP),
        (12, "external_data", ".TensorProto.ExternalDataProto", _OPT), (13, "ref_key", "string", _OPT),
        (14, "min_dims", "int64", _REP), (15, "max_dims", "int64", _REP),
        (16, "compression_type", "!TensorProto.CompressionType", _OPT),
        (17, "quant_params", ".TensorProto.QuantParamProto", _REP)],
    "TensorProto.ExternalDataProto": [(1, "location", "string", _OPT), (2, "offset", "int64", _OPT),
                                      (3, "length", "int64", _OPT)],
    "TensorProto.QuantParamProto": [(1, "quant_algo_name", "string", _OPT), (2, "attribute", ".AttributeProto", _REP)],
    "MapTensorProto": [(1, "name", "string", _OPT), (2, "default_value", ".AttributeProto", _OPT),
                       (3, "key_tensor", ".TensorProto", _OPT), (4, "value_tensor", ".TensorProto", _OPT),
                       (5, "status_tensor", ".TensorProto", _OPT)],
    "ParallelProto": [(1, "layout", ".LayoutProto", _REP)],
    "LayoutProto": [
        (1, "name", "string", _OPT), (2, "device_arrangement_int", "int64", _REP), (3, "tensor_map_int", "int64", _REP),
        (4, "slice_shape_int", "int64", _REP), (5, "field_size", "int64", _OPT), (6, "uniform_split", "bool", _OPT),
        (7, "opt_shard_group", "string", _OPT), (8, "pipeline_shared", "bool", _OPT), (9, "is_send", "bool", _OPT),
        (10, "peer_rank", "int64", _OPT), (11, "sr_tag", "int64", _OPT),
        (12, "opt_shard_slice_shape_int", "int64", _REP)],
    "PrimitiveProto": [(1, "name", "string", _OPT), (2, "op_type", "string", _OPT),
                       (3, "attribute", ".AttributeProto", _REP), (4, "instance_name", "string", _OPT),
                       (5, "prim_type", "!PrimitiveProto.PrimType", _OPT)],
    "ScalarNodeProto": [(1, "scalar_op_type", "int64", _OPT), (2, "in_index", "int64", _REP),
                        (3, "value", "int64", _REP)],
    "ScalarGraphHolderProto": [(1, "scalar_node", ".ScalarNodeProto", _REP),
                               (2, "input_shape_index", "uint64", _REP)],
}
_DATA_TYPES = ("UNDEFINED FLOAT UINT8 INT8 UINT16 INT16 INT32 INT64 STRING BOOL FLOAT16 DOUBLE UINT32 UINT64 "
               "COMPLEX64 COMPLEX128 BFLOAT16").split()
_ENUMS = {  # enum -> [(name, number)]
    "AttributeProto.AttributeType": list(enumerate(_DATA_TYPES + (
        "TENSOR GRAPH TENSORS TUPLE LIST DICT UMONAD IOMONAD NONE PRIMITIVECLOSURE FUNCGRAPHCLOSURE PARTIALCLOSURE "
        "UNIONFUNCCLOSURE CSR_TENSOR COO_TENSOR ROW_TENSOR CLASS_TYPE NAME_SPACE SYMBOL TYPE_NULL MAP_TENSOR FUNCTOR "
        "SCALAR SCALAR_GRAPH_HOLDER").split())),
    "FunctorProto.FunctorType": [(1, "SHAPE_CALC_FUNCTOR"), (2, "ANY_FUNCTOR")],
    "TensorProto.DataType": list(enumerate(_DATA_TYPES + ["FLOAT64", "QINT4X2"])),
    "TensorProto.CompressionType": list(enumerate(
        "NO_COMPRESSION INDEXING SPARSE FSE BIT_PACKING FSE_INT FSE_INFER".split())),
    "PrimitiveProto.PrimType": [(1, "PRIMITIVE"), (2, "PRIMITIVE_FUNCTION")],
    "Version": list(enumerate(["IR_VERSION_START", "IR_VERSION", "IR_VERSION_WITH_PRIM_FUNCTION",
                               "IR_VERSION_WITH_SCALAR_GRAPH_HOLDER"])),
}
_PACKAGE = "mind_ir"
_classes: dict = {}


def _file_descriptor():
    from google.protobuf import descriptor_pb2 as D

    FD = D.FieldDescriptorProto
    scalar = {"string": FD.TYPE_STRING, "bytes": FD.TYPE_BYTES, "float": FD.TYPE_FLOAT, "double": FD.TYPE_DOUBLE,
              "int64": FD.TYPE_INT64, "int32": FD.TYPE_INT32, "uint64": FD.TYPE_UINT64, "bool": FD.TYPE_BOOL}
    fdp = D.FileDescriptorProto(name="sprout_mind_ir.proto", package=_PACKAGE, syntax="proto2")
    protos: dict = {}
    for path in sorted(_MESSAGES, key=lambda p: p.count(".")):  # outer messages before their nested ones
        outer, _, inner = path.rpartition(".")
        parent = protos[outer].nested_type if outer else fdp.message_type
        protos[path] = parent.add(name=inner or path)
    protos["ModelProto.UserInfoEntry"].options.map_entry = True
    for path, values in _ENUMS.items():
        outer, _, inner = path.rpartition(".")
        enum = (protos[outer].enum_type if outer else fdp.enum_type).add(name=inner or path)
        for number, name in values:
            enum.value.add(name=name, number=number)
    for path, fields in _MESSAGES.items():
        for number, name, kind, repeated in fields:
            f = protos[path].field.add(name=name, number=number,
                                       label=FD.LABEL_REPEATED if repeated else FD.LABEL_OPTIONAL)
            if kind in scalar:
                f.type = scalar[kind]
            else:
                f.type = FD.TYPE_MESSAGE if kind[0] == "." else FD.TYPE_ENUM
                f.type_name = f".{_PACKAGE}.{kind.lstrip('.!')}"
    return fdp


def message_class(name: str = "ModelProto"):
    """The protobuf class of a ``mind_ir`` message (``ModelProto``, ``GraphProto``, ``TensorProto`` ...)."""
    if not _classes:
        from google.protobuf import descriptor_pool, message_factory

        pool = descriptor_pool.DescriptorPool()
        fd = pool.Add(_file_descriptor())
        for msg in _MESSAGES:
            if "." not in msg:
                _classes[msg] = message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{_PACKAGE}.{msg}"))
        del fd
    try:
        return _classes[name]
    except KeyError:
        raise ValueError(f"mind_ir has no message {name!r}; messages: {sorted(_classes)}") from None


def _check_file_name(api: str, file_name) -> str:
    if not isinstance(file_name, str):
        raise TypeError(f"The '{file_name}' must be string, but got {type(file_name)}.")
    if not file_name or file_name.endswith(os.sep) or "\0" in file_name:
        raise ValueError(f"For '{api}', the file name {file_name!r} is not a valid file name.")
    return os.path.realpath(file_name)


def load_mindir(file_name):
    """The MindIR file ``file_name`` as a ``ModelProto`` message (MindSpore's ``load_mindir``; its fields as
    MindSpore's ``mind_ir.proto`` names them). A missing or unparsable file is a ValueError."""
    path = _check_file_name("load_mindir", file_name)
    model = message_class("ModelProto")()
    try:
        with open(path, "rb") as f:
            model.ParseFromString(f.read())
    except Exception as e:  # OSError, protobuf's DecodeError: MindSpore reports both as ValueError
        raise ValueError(f"load_mindir: cannot read {file_name!r} as a MindIR file: {e}") from e
    return model


def save_mindir(model, file_name) -> None:
    """Write ``model`` (a ``ModelProto`` from ``load_mindir``) to ``file_name`` (".mindir" is appended when
    missing); the directory is created, and the file is left read-only for its owner, as MindSpore does."""
    path = _check_file_name("save_mindir", file_name)
    if not path.endswith(".mindir"):
        path += ".mindir"
    if not isinstance(model, message_class("ModelProto")):
        raise TypeError(f"For 'save_mindir', the argument 'model' must be ModelProto, but got {type(model)}.")
    data = model.SerializeToString()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"  # a failed write leaves neither a partial file nor a damaged old one
    try:
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            f.write(data)
        if os.path.exists(path):
            os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
        os.replace(tmp, path)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise ValueError(f"save_mindir: cannot write {path!r}: {e}") from e
    os.chmod(path, stat.S_IRUSR)
