"""MindSpore primitives as sprout computations: how a loaded MindIR node runs (``OPS[op_type](args, attrs)``).

``args`` are the node's inputs (Tensors, or Python values for MindSpore's value nodes: bools, ints, floats,
tuples, type ids); ``attrs`` the primitive's attributes. MindSpore 2.x writes most primitives as *primitive
functions*, whose arguments are inputs, and older ones with attributes; handlers accept both."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ..ops.nn_functional import avg_pool_raw, conv2d_raw, max_pool_raw
from .mindir_schema import TYPE_ID_TO_NP


class Monad:
    """MindSpore's state/io ordering tokens (U, IO): carried along, never computed with."""

    def __repr__(self) -> str:
        return "<monad>"


MONAD = Monad()
_PAD_MODE = {0: "pad", 1: "same", 2: "valid"}  # MindSpore's PadMode enum when passed as an int
_FORMAT = {0: "NCHW", 1: "NHWC"}


def _arg(args, i, attrs, name, default=None):
    """Argument ``i`` when the node has it, else the primitive attribute ``name``, else ``default``."""
    if len(args) > i:
        return args[i]
    return attrs.get(name, default)


def _pair(v) -> tuple:
    """A 2-d kernel/stride/dilation given as an int, a pair, or MindSpore's 4-tuple (N, C, H, W)."""
    if isinstance(v, int):
        return (v, v)
    v = tuple(v)
    return v[-2:] if len(v) == 4 else (v if len(v) == 2 else (v[0], v[0]))


def _mode(v) -> str:
    return _PAD_MODE[v] if isinstance(v, int) else str(v).lower()


def _dtype(type_id):
    if isinstance(type_id, mstype.Type):
        return type_id
    np_type = TYPE_ID_TO_NP.get(int(type_id))
    if np_type is None:
        raise ValueError(f"MindIR: unknown dtype id {type_id}")
    return mstype._FROM_NP[np.dtype(np_type)]


def _axes(v):
    if v is None:
        return ()
    return (v,) if isinstance(v, int) else tuple(v)


def _check_nchw(fmt, op: str) -> None:
    fmt = _FORMAT.get(fmt, fmt) if fmt is not None else "NCHW"
    if fmt != "NCHW":
        raise NotImplementedError(f"MindIR {op}: data format {fmt} is not supported (only NCHW)")


def _conv2d(args, attrs):
    _check_nchw(attrs.get("format"), "Conv2D")
    pad = tuple(attrs.get("pad_list") or attrs.get("pad") or (0, 0, 0, 0))
    mode = _mode(attrs.get("pad_mode", "valid"))
    return conv2d_raw(args[0], args[1], stride=_pair(attrs.get("stride", 1)), dilation=_pair(attrs.get("dilation", 1)),
                      pad_mode=mode, pad=pad if mode == "pad" else (0, 0, 0, 0),
                      groups=int(attrs.get("group", attrs.get("groups", 1))))


def _pool(args, attrs, kind):
    kernel = _pair(_arg(args, 1, attrs, "kernel_size"))
    stride = _pair(_arg(args, 2, attrs, "strides"))
    mode = _mode(_arg(args, 3, attrs, "pad_mode", "valid"))
    _check_nchw(_arg(args, 4, attrs, "format"), kind)
    common = dict(kernel=kernel, stride=stride, dilation=(1, 1), pad_mode=mode, pad=(0, 0, 0, 0), ceil_mode=False)
    if kind == "MaxPool":
        return max_pool_raw(args[0], **common)
    return avg_pool_raw(args[0], count_include_pad=True, divisor=0, **common)


def _matmul(args, attrs):
    ta = bool(_arg(args, 2, attrs, "transpose_a", False))
    tb = bool(_arg(args, 3, attrs, "transpose_b", False))
    return ops.matmul(args[0], args[1], transpose_a=ta, transpose_b=tb) if (ta or tb) else ops.matmul(args[0], args[1])


def _batch_matmul(args, attrs):
    a, b = args[0], args[1]
    if _arg(args, 2, attrs, "transpose_a", False):
        a = ops.swapaxes(a, -1, -2)
    if _arg(args, 3, attrs, "transpose_b", False):
        b = ops.swapaxes(b, -1, -2)
    return ops.matmul(a, b)


def _batch_norm(args, attrs):
    x, scale, bias, mean, var = args[:5]
    training = bool(_arg(args, 5, attrs, "is_training", False))
    eps = float(_arg(args, 6, attrs, "epsilon", 1e-5))
    _check_nchw(_arg(args, 8, attrs, "format"), "BatchNorm")
    if training:
        raise NotImplementedError("MindIR BatchNorm: is_training=True (batch statistics) is not supported in a "
                                  "loaded graph; export the network with set_train(False)")
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    k = ops.mul(scale, ops.rsqrt(ops.add(var, eps)))
    y = ops.add(ops.mul(x, ops.reshape(k, shape)), ops.reshape(ops.sub(bias, ops.mul(mean, k)), shape))
    return (y, mean, var, mean, var)


def _layer_norm(args, attrs):
    x, gamma, beta = args[:3]
    axis = int(_arg(args, 3, attrs, "begin_norm_axis", -1)) % x.ndim
    eps = float(_arg(args, 5, attrs, "epsilon", 1e-7))
    axes = tuple(range(axis, x.ndim))
    mean = ops.mean(x, axes, keep_dims=True)
    var = ops.mean(ops.square(ops.sub(x, mean)), axes, keep_dims=True)
    rstd = ops.rsqrt(ops.add(var, eps))
    y = ops.add(ops.mul(ops.mul(ops.sub(x, mean), rstd), gamma), beta)
    return (y, mean, rstd)


def _strided_slice(args, attrs):
    x, begin, end, strides = args[:4]
    masks = [int(_arg(args, 4 + i, attrs, name, 0)) for i, name in
             enumerate(("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"))]
    begin_m, end_m, ell_m, new_m, shrink_m = masks
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        bit = 1 << i
        if ell_m & bit:
            index.append(Ellipsis)
        elif new_m & bit:
            index.append(None)
        elif shrink_m & bit:
            index.append(b)
        else:
            index.append(slice(None if begin_m & bit else b, None if end_m & bit else e, s))
    return x[tuple(index)]


def _reduce(fn):
    def run(args, attrs):
        axis = _axes(_arg(args, 1, attrs, "axis", ()))
        keep = bool(_arg(args, 2, attrs, "keep_dims", False))
        return fn(args[0], axis if axis else None, keep)
    return run


def _softmax(fn):
    def run(args, attrs):
        axis = _arg(args, 1, attrs, "axis", -1)
        axis = axis[0] if isinstance(axis, (tuple, list)) else axis
        return fn(args[0], int(axis))
    return run


def _binary(fn):
    return lambda args, attrs: fn(args[0], args[1])


def _unary(fn):
    return lambda args, attrs: fn(args[0])


def _bias_add(args, attrs):
    _check_nchw(_arg(args, 2, attrs, "format"), "BiasAdd")
    return ops.bias_add(args[0], args[1])


def _gather(args, attrs):
    axis = int(_arg(args, 2, attrs, "axis", 0))
    return ops.gather(args[0], args[1], axis, int(_arg(args, 3, attrs, "batch_dims", 0)))


def _concat(args, attrs):
    items = args[0] if isinstance(args[0], (tuple, list)) else args[:-1]
    axis = _arg(args, 1, attrs, "axis", 0) if isinstance(args[0], (tuple, list)) else args[-1]
    return ops.concat(tuple(items), int(axis))


def _as_tensor(v, like=None):
    if isinstance(v, Tensor):
        return v
    dt = like.dtype if isinstance(like, Tensor) else None
    return Tensor(np.asarray(v), dtype=dt)


OPS = {
    # structure and state ordering
    "Load": lambda args, attrs: args[0],
    "UpdateState": lambda args, attrs: MONAD,
    "Depend": lambda args, attrs: args[0],
    "MakeTuple": lambda args, attrs: tuple(args),
    "MakeList": lambda args, attrs: list(args),
    "TupleGetItem": lambda args, attrs: args[0][int(args[1])],
    "ListGetItem": lambda args, attrs: args[0][int(args[1])],
    "Identity": _unary(ops.identity),
    "StopGradient": _unary(ops.stop_gradient),
    # arithmetic
    "Add": _binary(ops.add), "AddExt": lambda args, attrs: ops.add(args[0], ops.mul(args[1], args[2])
                                                                 if len(args) > 2 and args[2] != 1 else args[1]),
    "Sub": _binary(ops.sub), "Mul": _binary(ops.mul), "Div": _binary(ops.div), "RealDiv": _binary(ops.div),
    "Muls": lambda args, attrs: ops.mul(args[0], args[1]), "Adds": lambda args, attrs: ops.add(args[0], args[1]),
    "Pow": _binary(ops.pow), "Maximum": _binary(ops.maximum), "Minimum": _binary(ops.minimum),
    "Neg": _unary(ops.neg), "Exp": _unary(ops.exp), "Log": _unary(ops.log), "Sqrt": _unary(ops.sqrt),
    "Rsqrt": _unary(ops.rsqrt), "Abs": _unary(ops.abs), "Square": _unary(ops.square), "Erf": _unary(ops.erf),
    "Reciprocal": _unary(ops.reciprocal), "Sin": _unary(ops.sin), "Cos": _unary(ops.cos),
    "Floor": _unary(ops.floor), "Ceil": _unary(ops.ceil), "Sign": _unary(ops.sign),
    "Equal": _binary(ops.equal), "NotEqual": _binary(ops.not_equal), "Less": _binary(ops.less),
    "LessEqual": _binary(ops.less_equal), "Greater": _binary(ops.greater), "GreaterEqual": _binary(ops.greater_equal),
    "LogicalAnd": _binary(ops.logical_and), "LogicalOr": _binary(ops.logical_or),
    "LogicalNot": _unary(ops.logical_not),
    "Select": lambda args, attrs: ops.select(args[0], args[1], args[2]),
    "Cast": lambda args, attrs: ops.cast(args[0], _dtype(_arg(args, 1, attrs, "dst_type"))),
    # activations
    "ReLU": _unary(ops.relu), "ReLU6": _unary(ops.relu6), "Sigmoid": _unary(ops.sigmoid), "Tanh": _unary(ops.tanh),
    "GeLU": _unary(ops.gelu), "SiLU": _unary(ops.silu), "Softplus": _unary(ops.softplus),
    "Softmax": _softmax(ops.softmax), "LogSoftmax": _softmax(ops.log_softmax),
    # linear algebra and layers
    "MatMul": _matmul, "MatMulExt": _binary(ops.matmul), "BatchMatMul": _batch_matmul, "BiasAdd": _bias_add,
    "Conv2D": _conv2d, "MaxPool": lambda args, attrs: _pool(args, attrs, "MaxPool"),
    "AvgPool": lambda args, attrs: _pool(args, attrs, "AvgPool"), "BatchNorm": _batch_norm,
    "LayerNorm": _layer_norm,
    # shapes
    "Flatten": lambda args, attrs: ops.reshape(args[0], (args[0].shape[0], -1)),
    "Reshape": lambda args, attrs: ops.reshape(args[0], tuple(args[1])),
    "Transpose": lambda args, attrs: ops.transpose(args[0], tuple(args[1])),
    "ExpandDims": lambda args, attrs: ops.expand_dims(args[0], int(args[1])),
    "Squeeze": lambda args, attrs: ops.squeeze(args[0], _axes(_arg(args, 1, attrs, "axis", ())) or None),
    "Concat": _concat, "Gather": _gather, "StridedSlice": _strided_slice,
    "Tile": lambda args, attrs: ops.tile(args[0], tuple(args[1])),
    "OnesLike": _unary(ops.ones_like), "ZerosLike": _unary(ops.zeros_like),
    # reductions
    "ReduceMean": _reduce(lambda x, a, k: ops.mean(x, a, keep_dims=k)),
    "ReduceSum": _reduce(lambda x, a, k: ops.sum(x, a, keepdim=k)),
    "SumExt": _reduce(lambda x, a, k: ops.sum(x, a, keepdim=k)),
    "MeanExt": _reduce(lambda x, a, k: ops.mean(x, a, keep_dims=k)),
    "ReduceMax": _reduce(lambda x, a, k: ops.amax(x, a, k)),
    "ReduceMin": _reduce(lambda x, a, k: ops.amin(x, a, k)),
}


def run_node(op_type: str, args: list, attrs: dict):
    fn = OPS.get(op_type)
    if fn is None:
        raise NotImplementedError(f"MindIR: the primitive '{op_type}' has no sprout implementation "
                                  f"(supported: {', '.join(sorted(OPS))})")
    args = [(_as_tensor(a) if isinstance(a, np.ndarray) else a) for a in args]
    return fn(args, attrs)
