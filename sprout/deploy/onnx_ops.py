"""sprout IR ops as ONNX nodes (opset 17): one entry per sprout op, ``ONNX_OPS[name](em, node) -> output names``."""
from __future__ import annotations

import numpy as np

from ..ops.conv_ops import geometry
from .graph_export import like_dtype as _like
from .graph_export import op_table

ONNX_OPS: dict = {}
_op = op_table(ONNX_OPS)


def _ins(em, node, n=None):
    like = _like(node)
    vals = node.inputs if n is None else node.inputs[:n]
    return [em.value(v, like) for v in vals]


def _simple(onnx_type):
    return lambda em, node: [em.node(onnx_type, _ins(em, node), node)]


for _name, _onnx in {"Add": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "Div", "Pow": "Pow",
                     "Maximum": "Max", "Minimum": "Min", "Equal": "Equal", "Less": "Less", "Greater": "Greater",
                     "LessEqual": "LessOrEqual", "GreaterEqual": "GreaterOrEqual", "LogicalAnd": "And",
                     "LogicalOr": "Or", "LogicalXor": "Xor", "Neg": "Neg", "Abs": "Abs", "Exp": "Exp", "Log": "Log",
                     "Sqrt": "Sqrt", "Reciprocal": "Reciprocal", "Sin": "Sin", "Cos": "Cos", "Tan": "Tan",
                     "Tanh": "Tanh", "Sigmoid": "Sigmoid", "ReLU": "Relu", "Erf": "Erf", "Floor": "Floor",
                     "Ceil": "Ceil", "Round": "Round", "Sign": "Sign", "Asin": "Asin", "ACos": "Acos", "Atan": "Atan",
                     "Sinh": "Sinh", "Cosh": "Cosh", "Asinh": "Asinh", "Acosh": "Acosh", "Atanh": "Atanh",
                     "IsNan": "IsNaN", "LogicalNot": "Not", "Identity": "Identity", "StopGradient": "Identity",
                     "Select": "Where"}.items():
    ONNX_OPS[_name] = _simple(_onnx)


@_op("NotEqual")
def _not_equal(em, node):
    return [em.node("Not", [em.node("Equal", _ins(em, node))], node)]


@_op("Rsqrt")
def _rsqrt(em, node):
    return [em.node("Reciprocal", [em.node("Sqrt", _ins(em, node))], node)]


@_op("Square")
def _square(em, node):
    (x,) = _ins(em, node)
    return [em.node("Mul", [x, x], node)]


@_op("Log1p")
def _log1p(em, node):
    (x,) = _ins(em, node)
    return [em.node("Log", [em.node("Add", [x, em.scalar(1, _like(node))])], node)]


@_op("Expm1")
def _expm1(em, node):
    (x,) = _ins(em, node)
    return [em.node("Sub", [em.node("Exp", [x]), em.scalar(1, _like(node))], node)]


@_op("IsInf")
def _isinf(em, node):
    return [em.node("IsInf", _ins(em, node), node)]


@_op("IsFinite")
def _isfinite(em, node):
    (x,) = _ins(em, node)
    return [em.node("Not", [em.node("Or", [em.node("IsNaN", [x]), em.node("IsInf", [x])])], node)]


@_op("FloorDiv")
def _floordiv(em, node):
    a, b = _ins(em, node)
    if node.outputs[0].type.dtype.is_float:
        return [em.node("Floor", [em.node("Div", [a, b])], node)]
    raise em.unsupported(node, "integer floor division")


@_op("FloorMod")
def _floormod(em, node):
    a, b = _ins(em, node)
    if node.outputs[0].type.dtype.is_float:  # a - floor(a / b) * b: the sign of the divisor, as Python's %
        return [em.node("Sub", [a, em.node("Mul", [em.node("Floor", [em.node("Div", [a, b])]), b])], node)]
    return [em.node("Mod", [a, b], node, fmod=0)]


@_op("Cast")
def _cast(em, node):
    (x,) = _ins(em, node, 1)
    return [em.node("Cast", [x], node, to=em.dtype_code(node.attrs["dtype"]))]


@_op("Reshape")
def _reshape(em, node):
    x = em.value(node.inputs[0])
    shape = [-1 if d is None else int(d) for d in node.outputs[0].type.shape]
    return [em.node("Reshape", [x, em.ints(shape)], node)]


@_op("Transpose")
def _transpose(em, node):
    return [em.node("Transpose", [em.value(node.inputs[0])], node, perm=list(node.attrs["perm"]))]


@_op("ExpandDims")
def _expand_dims(em, node):
    rank = len(node.outputs[0].type.shape)
    return [em.node("Unsqueeze", [em.value(node.inputs[0]), em.ints([node.attrs["axis"] % rank])], node)]


@_op("Squeeze")
def _squeeze(em, node):
    axes = node.attrs.get("axis") or ()
    args = [em.value(node.inputs[0])] + ([em.ints(list(axes))] if axes else [])
    return [em.node("Squeeze", args, node)]


@_op("Concat")
def _concat(em, node):
    return [em.node("Concat", [em.value(v) for v in node.inputs], node, axis=int(node.attrs["axis"]))]


@_op("Stack")
def _stack(em, node):
    axis = int(node.attrs["axis"]) % len(node.outputs[0].type.shape)
    parts = [em.node("Unsqueeze", [em.value(v), em.ints([axis])]) for v in node.inputs]
    return [em.node("Concat", parts, node, axis=axis)]


@_op("Tile")
def _tile(em, node):
    return [em.node("Tile", [em.value(node.inputs[0]), em.ints(list(node.attrs["multiples"]))], node)]


@_op("BroadcastTo")
def _broadcast_to(em, node):
    return [em.node("Expand", [em.value(node.inputs[0]), em.ints(list(node.outputs[0].type.shape))], node)]


@_op("Gather")
def _gather(em, node):
    if node.attrs.get("batch_dims", 0):
        raise em.unsupported(node, "batch_dims")
    x, idx = em.value(node.inputs[0]), em.value(node.inputs[1])
    return [em.node("Gather", [x, idx], node, axis=int(node.attrs["axis"]))]


@_op("ZerosLike", "OnesLike")
def _fill_like(em, node):
    t = node.outputs[0].type
    value = 0 if node.op.name == "ZerosLike" else 1
    return [em.node("Identity", [em.const(np.full(t.shape, value, t.dtype.np))], node)]


@_op("Softmax", "LogSoftmax")
def _softmax(em, node):
    axis = node.attrs["axis"]
    if len(axis) != 1:
        raise em.unsupported(node, f"softmax over several axes {axis}")
    return [em.node(node.op.name, [em.value(node.inputs[0])], node, axis=int(axis[0]))]


_REDUCE = {"ReduceSum": "ReduceSum", "ReduceMean": "ReduceMean", "ReduceMax": "ReduceMax", "ReduceMin": "ReduceMin",
           "ReduceProd": "ReduceProd"}


@_op(*_REDUCE)
def _reduce(em, node):
    axes = list(node.attrs.get("axis") or ())
    keep = int(bool(node.attrs.get("keep_dims", False)))
    x = em.value(node.inputs[0])
    if node.op.name == "ReduceSum":  # opset 13+: axes is an input
        return [em.node("ReduceSum", [x] + ([em.ints(axes)] if axes else []), node, keepdims=keep)]
    extra = {"axes": axes} if axes else {}
    return [em.node(_REDUCE[node.op.name], [x], node, keepdims=keep, **extra)]


@_op("Argmax", "Argmin")
def _arg(em, node):
    onnx = "ArgMax" if node.op.name == "Argmax" else "ArgMin"
    out = em.node(onnx, [em.value(node.inputs[0])], None, axis=int(node.attrs["axis"]),
                  keepdims=int(bool(node.attrs.get("keep_dims", False))))
    return [em.node("Cast", [out], node, to=em.dtype_code(node.outputs[0].type.dtype))]


@_op("MatMul")
def _matmul(em, node):
    a, b = em.value(node.inputs[0]), em.value(node.inputs[1])
    ta, tb = node.attrs.get("transpose_a", False), node.attrs.get("transpose_b", False)
    if ta or tb:
        ra, rb = len(node.inputs[0].type.shape), len(node.inputs[1].type.shape)
        if ta:
            a = em.node("Transpose", [a], perm=list(range(ra - 2)) + [ra - 1, ra - 2])
        if tb:
            b = em.node("Transpose", [b], perm=list(range(rb - 2)) + [rb - 1, rb - 2])
    return [em.node("MatMul", [a, b], node)]


def _explicit_pads(node, kernel):
    """ONNX pads [top, left, bottom, right] from sprout's pad_mode / pad and the input size (and the ceil-mode
    overhang at the end)."""
    x = node.inputs[0].type.shape
    gh, gw = geometry(x[2], x[3], kernel[0], kernel[1], node.attrs["stride"], node.attrs.get("dilation", (1, 1)),
                      node.attrs["pad_mode"], node.attrs["pad"], node.attrs.get("ceil_mode", False))
    return [gh[1], gw[1], gh[2], gw[2]], (gh[3], gw[3])


@_op("Conv2D")
def _conv(em, node):
    w = node.inputs[1].type.shape
    pads, _ = _explicit_pads(node, w[2:])
    return [em.node("Conv", [em.value(node.inputs[0]), em.value(node.inputs[1])], node, kernel_shape=list(w[2:]),
                    strides=list(node.attrs["stride"]), dilations=list(node.attrs["dilation"]), pads=pads,
                    group=int(node.attrs["groups"]))]


@_op("MaxPool", "AvgPool")
def _pool(em, node):
    kernel = node.attrs["kernel"]
    pads, overhang = _explicit_pads(node, kernel)
    attrs = dict(kernel_shape=list(kernel), strides=list(node.attrs["stride"]), pads=pads,
                 ceil_mode=int(bool(node.attrs.get("ceil_mode", False))))
    if node.op.name == "MaxPool":
        if tuple(node.attrs.get("dilation", (1, 1))) != (1, 1):
            attrs["dilations"] = list(node.attrs["dilation"])
        return [em.node("MaxPool", [em.value(node.inputs[0])], node, **attrs)]
    if node.attrs.get("divisor"):
        raise em.unsupported(node, "divisor_override")
    if any(overhang) and node.attrs.get("count_include_pad", True):
        raise em.unsupported(node, "ceil_mode windows past the padding with count_include_pad")
    attrs["count_include_pad"] = int(bool(node.attrs.get("count_include_pad", True)))
    return [em.node("AveragePool", [em.value(node.inputs[0])], node, **attrs)]


@_op("GetItem")
def _getitem(em, node):
    """Basic indexing (ints, slices, None, ...) as Slice + Unsqueeze + Squeeze."""
    spec = node.attrs["spec"]
    if len(node.inputs) != 1:
        raise em.unsupported(node, "indexing with tensors")
    shape = node.inputs[0].type.shape
    n_real = sum(1 for e in spec if e[0] in ("i", "s"))
    starts, ends, axes, steps, squeeze, unsqueeze = [], [], [], [], [], []
    axis, out_axis = 0, 0
    for e in spec:
        tag = e[0]
        if tag == "c" and e[1] is Ellipsis:
            skip = len(shape) - n_real
            axis += skip
            out_axis += skip
        elif tag == "c" and e[1] is None:
            unsqueeze.append(out_axis)
            out_axis += 1
        elif tag == "i":
            i = e[1] + shape[axis] if e[1] < 0 else e[1]
            starts.append(i)
            ends.append(i + 1)
            axes.append(axis)
            steps.append(1)
            squeeze.append(axis)
            axis += 1
        elif tag == "s":
            step = 1 if e[3] is None else e[3]
            start = e[1] if e[1] is not None else (0 if step > 0 else -1)
            end = e[2] if e[2] is not None else (2 ** 62 if step > 0 else -(2 ** 62))
            starts.append(start)
            ends.append(end)
            axes.append(axis)
            steps.append(step)
            axis += 1
            out_axis += 1
        else:
            raise em.unsupported(node, f"index entry {e!r}")
    out = em.value(node.inputs[0])
    if axes:
        out = em.node("Slice", [out, em.ints(starts), em.ints(ends), em.ints(axes), em.ints(steps)])
    if squeeze:
        out = em.node("Squeeze", [out, em.ints(squeeze)])
    if unsqueeze:
        out = em.node("Unsqueeze", [out, em.ints(unsqueeze)])
    return [em.node("Identity", [out], node)]


@_op("Pad")
def _pad(em, node):
    paddings = node.attrs["paddings"]
    pads = [p[0] for p in paddings] + [p[1] for p in paddings]
    like = node.outputs[0].type.dtype
    return [em.node("Pad", [em.value(node.inputs[0]), em.ints(pads), em.scalar(node.attrs.get("value", 0), like)],
                    node, mode="constant")]


@_op("ReverseV2")
def _reverse(em, node):
    shape = node.inputs[0].type.shape
    dims = [d % len(shape) for d in node.attrs["dims"]]
    return [em.node("Slice", [em.value(node.inputs[0]), em.ints([-1] * len(dims)),
                              em.ints([-(2 ** 62)] * len(dims)), em.ints(dims), em.ints([-1] * len(dims))], node)]


@_op("SplitV")
def _split(em, node):
    sizes = list(node.attrs["sizes"])
    return em.node_multi("Split", [em.value(node.inputs[0]), em.ints(sizes)], node, axis=int(node.attrs["axis"]))
