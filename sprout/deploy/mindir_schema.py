"""The MindIR file layout (MindSpore's ``mind_ir`` protobuf package), as field tables for ``protowire``.

A MindIR file is one serialized ``ModelProto``. Its ``graph`` lists the computation as ``NodeProto``s in
execution order: each names its inputs and outputs by string; ``op_type`` is either a primitive name or
``REF::<key>`` pointing into ``ModelProto.primitives`` (where the primitive's attributes live), and an
``op_type`` of ``Constant`` holds a value in its ``value`` attribute. Graph inputs are ``ValueInfoProto``s;
weights are ``TensorProto``s in ``GraphProto.parameter`` (data in ``raw_data``, the Parameter's own name in
``ref_key``). Attribute values carry a ``type`` tag saying which field holds them. Field numbers follow
MindSpore 2.10's ``mind_ir.proto``; only the fields sprout reads or writes are listed.
"""
from __future__ import annotations

import numpy as np

from .protowire import Field, Schema

# AttributeProto.type tags
A_FLOAT, A_UINT8, A_INT8, A_UINT16, A_INT16, A_INT32, A_INT64, A_STRING, A_BOOL = 1, 2, 3, 4, 5, 6, 7, 8, 9
A_FLOAT16, A_DOUBLE, A_UINT32, A_UINT64 = 10, 11, 12, 13
A_TENSOR, A_GRAPH, A_TENSORS, A_TUPLE, A_LIST, A_DICT, A_UMONAD, A_IOMONAD, A_NONE = 17, 18, 19, 20, 21, 22, 23, 24, 25
A_TYPE_NULL, A_SCALAR = 36, 39

# TensorProto.data_type codes and their NumPy dtypes (FLOAT64 and DOUBLE both mean float64)
DTYPE_TO_NP = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16, 6: np.int32, 7: np.int64,
               9: np.bool_, 10: np.float16, 11: np.float64, 12: np.uint32, 13: np.uint64, 17: np.float64}
NP_TO_DTYPE = {np.dtype(np.float32): 1, np.dtype(np.uint8): 2, np.dtype(np.int8): 3, np.dtype(np.uint16): 4,
               np.dtype(np.int16): 5, np.dtype(np.int32): 6, np.dtype(np.int64): 7, np.dtype(np.bool_): 9,
               np.dtype(np.float16): 10, np.dtype(np.float64): 11, np.dtype(np.uint32): 12,
               np.dtype(np.uint64): 13}
# a scalar attribute of these tags carries a dtype in ``i`` (MindSpore's "type" values, e.g. Cast's target)
TYPE_ID_TO_NP = {30: np.bool_, 32: np.int8, 33: np.int16, 34: np.int32, 35: np.int64, 37: np.uint8,
                 38: np.uint16, 39: np.uint32, 40: np.uint64, 42: np.float16, 43: np.float32, 44: np.float64}

PRIM_PRIMITIVE, PRIM_FUNCTION = 1, 2  # PrimitiveProto.prim_type

_F = Field
SCHEMA = Schema({
    "Model": {
        1: _F("ir_version", "string"), 2: _F("producer_name", "string"), 3: _F("producer_version", "string"),
        4: _F("domain", "string"), 5: _F("model_version", "string"), 6: _F("doc_string", "string"),
        7: _F("graph", "Graph"), 8: _F("functions", "Graph", True), 10: _F("little_endian", "bool"),
        12: _F("primitives", "Primitive", True), 13: _F("mind_ir_version", "int64"),
    },
    "Graph": {
        1: _F("node", "Node", True), 2: _F("name", "string"), 3: _F("parameter", "Tensor", True),
        4: _F("doc_string", "string"), 5: _F("input", "ValueInfo", True), 6: _F("output", "ValueInfo", True),
        7: _F("bprop_hash", "string"), 8: _F("attribute", "Attribute", True), 9: _F("bprop_filepath", "string"),
    },
    "Node": {
        1: _F("input", "string", True), 2: _F("output", "string", True), 3: _F("name", "string"),
        4: _F("op_type", "string"), 5: _F("attribute", "Attribute", True), 6: _F("doc_string", "string"),
        7: _F("domain", "string"), 8: _F("node_attr", "Attribute", True), 9: _F("primal_attr", "Attribute", True),
    },
    "Attribute": {
        1: _F("name", "string"), 2: _F("f", "float"), 3: _F("i", "int64"), 4: _F("d", "double"),
        5: _F("s", "bytes"), 6: _F("t", "Tensor"), 7: _F("g", "Graph"), 8: _F("floats", "float", True),
        9: _F("doubles", "double", True), 10: _F("ints", "int64", True), 11: _F("strings", "bytes", True),
        12: _F("tensors", "Tensor", True), 13: _F("graphs", "Graph", True), 14: _F("doc_string", "string"),
        15: _F("ref_attr_name", "string"), 16: _F("type", "enum"), 17: _F("values", "Attribute", True),
        18: _F("seq_info", "SeqInfo"),
    },
    "SeqInfo": {1: _F("is_dyn_len", "bool"), 2: _F("tuple_elem_item", "Attribute")},
    "ValueInfo": {
        1: _F("name", "string"), 2: _F("tensor", "Tensor", True), 3: _F("doc_string", "string"),
        4: _F("denotation", "string"), 5: _F("attr_info", "Attribute"),
    },
    "Tensor": {
        1: _F("dims", "int64", True), 2: _F("data_type", "int32"), 3: _F("float_data", "float", True),
        4: _F("int32_data", "int32", True), 5: _F("string_data", "bytes", True), 6: _F("int64_data", "int64", True),
        7: _F("name", "string"), 8: _F("doc_string", "string"), 9: _F("raw_data", "bytes"),
        10: _F("double_data", "double", True), 11: _F("uint64_data", "uint64", True),
        12: _F("external_data", "ExternalData"), 13: _F("ref_key", "string"), 14: _F("min_dims", "int64", True),
        15: _F("max_dims", "int64", True), 16: _F("compression_type", "enum"),
    },
    "ExternalData": {1: _F("location", "string"), 2: _F("offset", "int64"), 3: _F("length", "int64")},
    "Primitive": {
        1: _F("name", "string"), 2: _F("op_type", "string"), 3: _F("attribute", "Attribute", True),
        4: _F("instance_name", "string"), 5: _F("prim_type", "enum"),
    },
})
