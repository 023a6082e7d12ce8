"""sprout IR ops as MindSpore 2.10 primitives in a MindIR graph: ``MINDIR_OPS[name](writer, node)``.

Each entry writes the primitive the way MindSpore 2.10 writes it itself: most as primitive functions whose
arguments (axes, flags, shapes) are value-node inputs, Conv2D and MaxPool as primitives with attributes."""
from __future__ import annotations

import numpy as np

from ..ops.conv_ops import geometry
from .graph_export import like_dtype as _like
from .graph_export import op_table

MINDIR_OPS: dict = {}
_TYPE_IDS = {"Bool": 30, "Int8": 32, "Int16": 33, "Int32": 34, "Int64": 35, "UInt8": 37, "UInt16": 38,
             "UInt32": 39, "UInt64": 40, "Float16": 42, "Float32": 43, "Float64": 44}
_PAD_MODE_ID = {"pad": 0, "same": 1, "valid": 2}


_op = op_table(MINDIR_OPS)


def _tensors(w, node):
    like = _like(node)
    return [w.value(v, like) for v in node.inputs]


def _same(ms_name):
    return lambda w, node: w.node(ms_name, _tensors(w, node), node)


for _name, _ms in {"Add": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "Div", "Pow": "Pow", "Maximum": "Maximum",
                   "Minimum": "Minimum", "Equal": "Equal", "NotEqual": "NotEqual", "Less": "Less",
                   "Greater": "Greater", "LessEqual": "LessEqual", "GreaterEqual": "GreaterEqual",
                   "LogicalAnd": "LogicalAnd", "LogicalOr": "LogicalOr", "LogicalNot": "LogicalNot", "Neg": "Neg",
                   "Abs": "Abs", "Exp": "Exp", "Log": "Log", "Sqrt": "Sqrt", "Rsqrt": "Rsqrt",
                   "Reciprocal": "Reciprocal", "Square": "Square", "Sin": "Sin", "Cos": "Cos", "Tanh": "Tanh",
                   "Sigmoid": "Sigmoid", "ReLU": "ReLU", "Erf": "Erf", "Floor": "Floor", "Ceil": "Ceil",
                   "Sign": "Sign", "Select": "Select"}.items():
    MINDIR_OPS[_name] = _same(_ms)


@_op("Identity", "StopGradient")
def _alias(w, node):
    w.names[node.outputs[0].uid] = w.value(node.inputs[0])


@_op("Cast")
def _cast(w, node):
    dtype = node.attrs["dtype"]
    w.node("Cast", [w.value(node.inputs[0]), w.const(_TYPE_IDS[dtype.name])], node)


@_op("Reshape")
def _reshape(w, node):
    shape = tuple(int(d) for d in node.outputs[0].type.shape)
    w.node("Reshape", [w.value(node.inputs[0]), w.const(shape)], node)


@_op("Transpose")
def _transpose(w, node):
    w.node("Transpose", [w.value(node.inputs[0]), w.const(tuple(node.attrs["perm"]))], node)


@_op("ExpandDims")
def _expand_dims(w, node):
    w.node("ExpandDims", [w.value(node.inputs[0]), w.const(int(node.attrs["axis"]))], node)


@_op("Squeeze")
def _squeeze(w, node):
    w.node("Squeeze", [w.value(node.inputs[0]), w.const(tuple(node.attrs.get("axis") or ()))], node)


@_op("Concat")
def _concat(w, node):
    parts = [w.value(v) for v in node.inputs]
    tup = w.node("MakeTuple", parts, function=False)
    w.node("Concat", [tup, w.const(int(node.attrs["axis"]))], node)


@_op("Tile")
def _tile(w, node):
    w.node("Tile", [w.value(node.inputs[0]), w.const(tuple(node.attrs["multiples"]))], node)


@_op("Gather")
def _gather(w, node):
    w.node("Gather", [w.value(node.inputs[0]), w.value(node.inputs[1]), w.const(int(node.attrs["axis"])),
                      w.const(int(node.attrs.get("batch_dims", 0)))], node)


@_op("Softmax")
def _softmax(w, node):
    w.node("Softmax", [w.value(node.inputs[0]), w.const(tuple(node.attrs["axis"]))], node)


@_op("LogSoftmax")
def _log_softmax(w, node):
    axis = node.attrs["axis"]
    if len(axis) != 1:
        raise w.unsupported(node, f"several axes {axis}")
    w.node("LogSoftmax", [w.value(node.inputs[0]), w.const(int(axis[0]))], node)


@_op("ReduceMean", "ReduceMax", "ReduceMin", "ReduceSum")
def _reduce(w, node):
    axis = tuple(node.attrs.get("axis") or ())
    keep = bool(node.attrs.get("keep_dims", False))
    x = w.value(node.inputs[0])
    if node.op.name == "ReduceSum":  # MindSpore 2.10 writes ops.sum as SumExt(x, axis, keep_dims, dtype)
        w.node("SumExt", [x, w.const(axis if axis else None), w.const(keep), w.const(None)], node)
        return
    w.node(node.op.name, [x, w.const(axis), w.const(keep)], node)


@_op("MatMul")
def _matmul(w, node):
    a, b = w.value(node.inputs[0]), w.value(node.inputs[1])
    ta, tb = bool(node.attrs.get("transpose_a", False)), bool(node.attrs.get("transpose_b", False))
    ranks = (len(node.inputs[0].type.shape), len(node.inputs[1].type.shape))
    name = "MatMul" if ranks == (2, 2) else "BatchMatMul"
    if min(ranks) < 2:
        raise w.unsupported(node, "a 1-d operand")
    w.node(name, [a, b, w.const(ta), w.const(tb)], node)


def _pads(node, kernel):
    x = node.inputs[0].type.shape
    gh, gw = geometry(x[2], x[3], kernel[0], kernel[1], node.attrs["stride"], node.attrs.get("dilation", (1, 1)),
                      node.attrs["pad_mode"], node.attrs["pad"], node.attrs.get("ceil_mode", False))
    return (gh[1], gh[2], gw[1], gw[2]), (gh[3], gw[3])


@_op("Conv2D")
def _conv(w, node):
    a = node.attrs
    ws = node.inputs[1].type.shape
    pad = tuple(a["pad"])
    w.node("Conv2D", [w.value(node.inputs[0]), w.value(node.inputs[1])], node, function=False, attrs={
        "kernel_size": tuple(ws[2:]), "mode": 1, "out_channel": int(ws[0]), "pad": pad, "pad_mode": a["pad_mode"],
        "format": "NCHW", "pad_list": _pads(node, ws[2:])[0], "groups": int(a["groups"]),
        "stride": (1, 1) + tuple(a["stride"]), "group": int(a["groups"]), "dilation": (1, 1) + tuple(a["dilation"])})


def _pool_mode(w, node) -> str:
    a = node.attrs
    if a.get("ceil_mode"):
        raise w.unsupported(node, "ceil_mode")
    if tuple(a.get("dilation", (1, 1))) != (1, 1):
        raise w.unsupported(node, "dilation")
    mode = a["pad_mode"]
    if mode == "pad":
        if any(a["pad"]):
            raise w.unsupported(node, f"explicit padding {tuple(a['pad'])}")
        mode = "valid"
    return mode


@_op("MaxPool")
def _maxpool(w, node):
    mode = _pool_mode(w, node)
    a = node.attrs
    w.node("MaxPool", [w.value(node.inputs[0])], node, function=False, attrs={
        "pad_mode": mode.upper(), "kernel_size": (1, 1) + tuple(a["kernel"]), "strides": (1, 1) + tuple(a["stride"]),
        "format": "NCHW"})


@_op("AvgPool")
def _avgpool(w, node):
    mode = _pool_mode(w, node)
    a = node.attrs
    if a.get("divisor"):
        raise w.unsupported(node, "divisor_override")
    if mode == "same" and not a.get("count_include_pad", True):
        raise w.unsupported(node, "count_include_pad=False")
    w.node("AvgPool", [w.value(node.inputs[0]), w.const(tuple(a["kernel"])), w.const(tuple(a["stride"])),
                       w.const(_PAD_MODE_ID[mode]), w.const(0)], node)


@_op("ZerosLike", "OnesLike")
def _fill_like(w, node):
    t = node.outputs[0].type
    w.names[node.outputs[0].uid] = w.const(np.full(t.shape, 0 if node.op.name == "ZerosLike" else 1, t.dtype.np))


@_op("GetItem")
def _getitem(w, node):
    """Basic indexing as StridedSlice(x, begin, end, strides, begin_mask, end_mask, ellipsis, new_axis, shrink)."""
    if len(node.inputs) != 1:
        raise w.unsupported(node, "indexing with tensors")
    begin, end, strides = [], [], []
    masks = [0, 0, 0, 0, 0]
    for k, e in enumerate(node.attrs["spec"]):
        bit = 1 << k
        if e[0] == "i":
            begin.append(e[1])
            end.append(e[1] + 1 if e[1] != -1 else 0)
            strides.append(1)
            masks[4] |= bit
            if e[1] == -1:
                masks[1] |= bit
        elif e[0] == "s":
            step = 1 if e[3] is None else e[3]
            begin.append(0 if e[1] is None else e[1])
            end.append(0 if e[2] is None else e[2])
            strides.append(step)
            masks[0] |= bit if e[1] is None else 0
            masks[1] |= bit if e[2] is None else 0
        elif e[0] == "c" and e[1] is None:
            begin.append(0)
            end.append(1)
            strides.append(1)
            masks[3] |= bit
        elif e[0] == "c" and e[1] is Ellipsis:
            begin.append(0)
            end.append(1)
            strides.append(1)
            masks[2] |= bit
        else:
            raise w.unsupported(node, f"index entry {e!r}")
    w.node("StridedSlice", [w.value(node.inputs[0]), w.const(tuple(begin)), w.const(tuple(end)),
                            w.const(tuple(strides))] + [w.const(m) for m in masks], node)
