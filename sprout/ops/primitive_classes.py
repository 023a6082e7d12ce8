"""MindSpore's PascalCase primitive classes (``ops.Add()(x, y)``) over the functional API."""
from __future__ import annotations

import itertools

from .. import dtype as mstype
from . import functional as F
from .composite import layer_norm_stats
from .nn_functional import avg_pool_raw, conv2d_raw, conv_attrs, dropout_with_mask, max_pool_raw, pool_attrs, seed_key


class Primitive:
    """Base of the PascalCase op classes: instantiate with attributes, call with tensors."""

    def __init__(self, name: str | None = None):
        self.name = name or type(self).__name__

    def __repr__(self) -> str:
        return f"Prim[{self.name}]"

    def add_prim_attr(self, name, value):
        setattr(self, name, value)
        return self

    def set_device(self, device_target):
        return self

    _shard_recorder = None  # set by sprout.parallel.spmd: records a sharded primitive's strategy while tracing

    def shard(self, in_strategy=None, out_strategy=None):
        """MindSpore's ``Primitive.shard``: the strategy the SPMD pass uses for this primitive's op inside a
        sharded function (``sprout.parallel.spmd``); outside one (stand-alone) it changes nothing."""
        for what, s in (("in_strategy", in_strategy), ("out_strategy", out_strategy)):
            if s is not None and not isinstance(s, tuple):
                raise TypeError(f"For '{self.name}', the '{what}' should be a tuple, but got {type(s).__name__}.")
        if in_strategy is None:
            raise ValueError(f"For '{self.name}', 'in_strategy' must be given to shard a primitive.")
        for s in in_strategy:  # tuples of ints, or Layouts (checked by the SPMD pass)
            if isinstance(s, tuple) and not all(isinstance(k, int) and not isinstance(k, bool) for k in s):
                raise TypeError(f"For '{self.name}', the tuple strategy for each dimension should be tuple(int), "
                                f"but got {s}.")
            if isinstance(s, (list, int)):
                raise TypeError(f"For '{self.name}', each strategy should be a tuple or a Layout, but got {s!r}.")
        for s in out_strategy or ():  # the layout of each output (the SPMD pass redistributes to it)
            ints = isinstance(s, tuple) and all(isinstance(k, int) and not isinstance(k, bool) for k in s)
            if not ints and not hasattr(s, "_tensor_map"):
                raise TypeError(f"For '{self.name}', out_strategy entries should be tuple(int) or Layout, but got "
                                f"{s!r}.")
        self.in_strategy, self.out_strategy = in_strategy, out_strategy
        if "_sharded_base" not in type(self).__dict__:
            self.__class__ = _sharded_class(type(self))
        return self


_SHARDED: dict = {}


def _sharded_class(cls):
    """``cls`` with a call that reports the strategy to the SPMD pass's recorder while it traces."""
    sub = _SHARDED.get(cls)
    if sub is None:
        def __call__(self, *args, **kwargs):
            rec = Primitive._shard_recorder
            if rec is None:
                return cls.__call__(self, *args, **kwargs)
            return rec(self, lambda: cls.__call__(self, *args, **kwargs))

        sub = _SHARDED[cls] = type(cls.__name__, (cls,), {"__call__": __call__, "_sharded_base": cls,
                                                          "__module__": cls.__module__, "__doc__": cls.__doc__})
    return sub


_INSTANCES = itertools.count(1)  # random primitive instances: each owns its seeded stream


def _simple(name: str, fn):
    return type(name, (Primitive,), {"__call__": lambda self, *args: fn(*args), "__doc__": f"ops.{name}()"})


# ---- stateless element-wise and shape ops: ``ops.Name()(*inputs)`` -----------------------------------
_SIMPLE = {
    "Add": F.add, "Sub": F.sub, "Mul": F.mul, "Div": F.div, "RealDiv": F.div, "Neg": F.neg, "Pow": F.pow,
    "Square": F.square, "Sqrt": F.sqrt, "Rsqrt": F.rsqrt, "Exp": F.exp, "Log": F.log, "Log1p": F.log1p,
    "Expm1": F.expm1, "Reciprocal": F.reciprocal, "Sin": F.sin, "Cos": F.cos, "Tanh": F.tanh,
    "Sigmoid": F.sigmoid, "ReLU": F.relu, "ReLU6": F.relu6, "Abs": F.abs, "Sign": F.sign, "Floor": F.floor,
    "Ceil": F.ceil, "Round": F.round, "Maximum": F.maximum, "Minimum": F.minimum, "Equal": F.equal,
    "NotEqual": F.not_equal, "Greater": F.greater, "GreaterEqual": F.greater_equal, "Less": F.less,
    "LessEqual": F.less_equal, "LogicalAnd": F.logical_and, "LogicalOr": F.logical_or,
    "LogicalXor": F.logical_xor, "LogicalNot": F.logical_not, "FloorDiv": F.floor_div, "FloorMod": F.floor_mod,
    "Mod": F.floor_mod, "Erf": F.erf, "FastGeLU": F.fast_gelu, "HSwish": F.hardswish,
    "HSigmoid": F.hardsigmoid, "Mish": F.mish, "SquaredDifference": F.square_difference, "Cast": F.cast,
    "Reshape": F.reshape, "Transpose": F.transpose, "ExpandDims": F.expand_dims, "Select": F.where,
    "ZerosLike": F.zeros_like, "OnesLike": F.ones_like, "StopGradient": F.stop_gradient, "Identity": F.identity,
    "Tile": F.tile, "GatherD": F.gather_elements, "GatherElements": F.gather_elements, "BiasAdd": F.bias_add,
    "AddN": F.addn, "L2Loss": F.l2_loss, "Assign": F.assign, "AssignAdd": F.assign_add,
    "AssignSub": F.assign_sub, "Print": F.print_, "IsNan": F.isnan, "IsInf": F.isinf, "IsFinite": F.isfinite,
    "Fill": F.fill, "Eye": F.eye, "BitwiseAnd": F.bitwise_and, "BitwiseOr": F.bitwise_or,
    "BitwiseXor": F.bitwise_xor,
}
for _name, _fn in _SIMPLE.items():
    globals()[_name] = _simple(_name, _fn)


class GeLU(Primitive):
    """MindSpore's GeLU primitive uses the tanh approximation."""

    def __call__(self, x):
        return F.gelu(x, approximate="tanh")


class Elu(Primitive):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def __call__(self, x):
        return F.elu(x, self.alpha)


class Softplus(Primitive):
    def __call__(self, x):
        return F.softplus(x)


class DivNoNan(Primitive):
    def __call__(self, x, y):
        safe = F.where(F.equal(y, 0), F.ones_like(y), y) if hasattr(y, "shape") else (y or 1)
        q = F.div(x, safe)
        return F.where(F.equal(y, 0), F.zeros_like(q), q) if hasattr(y, "shape") else (q if y else F.zeros_like(q))


class Shape(Primitive):
    def __call__(self, x):
        return tuple(x.shape)


class Rank(Primitive):
    def __call__(self, x):
        return x.ndim


class Size(Primitive):
    def __call__(self, x):
        return x.size


class DType(Primitive):
    def __call__(self, x):
        return x.dtype


class Zeros(Primitive):
    def __call__(self, shape, dtype=None):
        return F.zeros(shape, dtype)


class Ones(Primitive):
    def __call__(self, shape, dtype=None):
        return F.ones(shape, dtype)


class MatMul(Primitive):
    def __init__(self, transpose_a=False, transpose_b=False):
        super().__init__()
        self.transpose_a, self.transpose_b = transpose_a, transpose_b

    def __call__(self, x, y):
        return F.matmul(x, y, transpose_a=self.transpose_a, transpose_b=self.transpose_b)


class BatchMatMul(MatMul):
    """``ops.BatchMatMul(transpose_a, transpose_b)``: MatMul already broadcasts leading batch dims."""


class _Reduce(Primitive):
    fn = None

    def __init__(self, keep_dims=False):
        super().__init__()
        self.keep_dims = keep_dims

    def __call__(self, x, axis=()):
        return type(self).fn(x, axis if axis != () else None, self.keep_dims)


def _keep_dtype_sum(x, axis, keep_dims):
    return F.reduce_sum(x, axis or (), keep_dims)  # the primitive keeps an int input's dtype


def _keep_dtype_prod(x, axis, keep_dims):
    return F.prod(x, axis, keep_dims, dtype=x.dtype)


class ReduceSum(_Reduce):
    fn = staticmethod(_keep_dtype_sum)


class ReduceMean(_Reduce):
    fn = staticmethod(F.mean)


class ReduceMax(_Reduce):
    fn = staticmethod(F.amax)


class ReduceMin(_Reduce):
    fn = staticmethod(F.amin)


class ReduceProd(_Reduce):
    fn = staticmethod(_keep_dtype_prod)


class ReduceAll(_Reduce):
    fn = staticmethod(F.all)


class ReduceAny(_Reduce):
    fn = staticmethod(F.any)


class _Axis(Primitive):
    """A primitive whose only init attribute is ``axis``."""

    def __init__(self, axis=0):
        super().__init__()
        self.axis = axis


class Concat(_Axis):
    def __call__(self, tensors):
        return F.concat(tensors, self.axis)


class Stack(_Axis):
    def __call__(self, tensors):
        return F.stack(tensors, self.axis)


class Unstack(_Axis):
    def __call__(self, x):
        return F.unstack(x, self.axis)


class Softmax(Primitive):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def __call__(self, x):
        return F.softmax(x, self.axis)


class LogSoftmax(Softmax):
    def __call__(self, x):
        return F.log_softmax(x, self.axis)


class Split(Primitive):
    def __init__(self, axis=0, output_num=1):
        super().__init__()
        self.axis, self.output_num = axis, output_num

    def __call__(self, x):
        n = x.shape[self.axis]
        if n % self.output_num:
            raise ValueError(f"Split: axis {self.axis} of shape {list(x.shape)} does not divide into "
                             f"{self.output_num} equal parts")
        return F.split(x, n // self.output_num, self.axis)


class BroadcastTo(Primitive):
    def __init__(self, shape):
        super().__init__()
        self.shape = tuple(shape)

    def __call__(self, x):
        return F.broadcast_to(x, self.shape)


class Squeeze(Primitive):
    def __init__(self, axis=()):
        super().__init__()
        self.axis = axis

    def __call__(self, x):
        return F.squeeze(x, self.axis if self.axis != () else None)


class Flatten(Primitive):
    def __call__(self, x):
        return F.flatten(x)


class Argmax(Primitive):
    def __init__(self, axis=-1, output_type=mstype.int32):
        super().__init__()
        self.axis, self.output_type = axis, mstype.to_dtype(output_type)

    def __call__(self, x):
        return F.cast(F.argmax(x, self.axis), self.output_type)


class Argmin(Argmax):
    def __call__(self, x):
        return F.cast(F.argmin(x, self.axis), self.output_type)


class ArgMaxWithValue(Primitive):
    """(Int64 indices, values) of the maximum along ``axis``."""

    def __init__(self, axis=0, keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def __call__(self, x):
        return F.argmax_with_value(x, self.axis, self.keep_dims)


class ArgMinWithValue(ArgMaxWithValue):
    def __call__(self, x):
        return F.argmin_with_value(x, self.axis, self.keep_dims)


class Gather(Primitive):
    def __init__(self, batch_dims=0):
        super().__init__()
        self.batch_dims = batch_dims

    def __call__(self, params, indices, axis):
        return F.gather(params, indices, axis, self.batch_dims)


class OneHot(Primitive):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def __call__(self, indices, depth, on_value, off_value):
        return F.one_hot(indices, depth, on_value, off_value, self.axis)


class CumSum(Primitive):
    def __init__(self, exclusive=False, reverse=False):
        super().__init__()
        self.exclusive, self.reverse = exclusive, reverse

    def __call__(self, x, axis):
        return F.cumsum_raw(x, int(axis), self.exclusive, self.reverse)


class Sort(Primitive):
    def __init__(self, axis=-1, descending=False):
        super().__init__()
        self.axis, self.descending = axis, descending

    def __call__(self, x):
        return F.sort(x, self.axis, self.descending)


class TopK(Primitive):
    def __init__(self, sorted=True):  # noqa: A002
        super().__init__()
        self.sorted = sorted

    def __call__(self, x, k):
        return F.topk(x, k, sorted=self.sorted)


class Range(Primitive):
    def __call__(self, start, limit, delta):
        return F.arange(start, limit, delta)


class LinSpace(Primitive):
    def __call__(self, start, stop, num):
        return F.linspace(start, stop, num)


class Pad(Primitive):
    def __init__(self, paddings):
        super().__init__()
        self.paddings = tuple(tuple(p) for p in paddings)

    def __call__(self, x):
        return F.pad_raw(x, self.paddings, 0)


class Conv2D(Primitive):
    """``Conv2D(out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
    data_format="NCHW")``; ``pad`` is an int or (top, bottom, left, right)."""

    def __init__(self, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1, group=1,
                 data_format="NCHW"):
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"Conv2D: only data_format='NCHW' is supported, got {data_format!r}")
        self.out_channel, self.kernel_size = out_channel, kernel_size
        self.attrs = conv_attrs("Conv2D", stride, pad_mode, pad, dilation, group)

    def __call__(self, x, weight):
        kernel = (self.kernel_size,) * 2 if isinstance(self.kernel_size, int) else tuple(self.kernel_size)
        if tuple(weight.shape[:1]) + tuple(weight.shape[2:]) != (self.out_channel,) + kernel:
            raise ValueError(f"Conv2D: weight shape {list(weight.shape)} does not match out_channel="
                             f"{self.out_channel} and kernel_size={self.kernel_size}")
        return conv2d_raw(x, weight, **self.attrs)


class _Pool(Primitive):
    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW"):
        super().__init__()
        if data_format != "NCHW":
            raise ValueError(f"{type(self).__name__}: only data_format='NCHW' is supported, got {data_format!r}")
        self.attrs = pool_attrs(type(self).__name__, kernel_size, strides, pad_mode)


class MaxPool(_Pool):
    def __call__(self, x):
        return max_pool_raw(x, **self.attrs)


class AvgPool(_Pool):
    def __call__(self, x):
        return avg_pool_raw(x, **self.attrs, count_include_pad=False, divisor=0)


class Dropout(Primitive):
    """``Dropout(keep_prob=0.5)(x)`` -> (output, mask)."""

    def __init__(self, keep_prob=0.5, Seed0=0, Seed1=0):  # noqa: N803 - MindSpore's names
        super().__init__()
        self.keep_prob = keep_prob
        self.key = seed_key("Dropout", Seed0, Seed1, next(_INSTANCES))

    def __call__(self, x):
        return dropout_with_mask(x, self.keep_prob, self.key)


class SoftmaxCrossEntropyWithLogits(Primitive):
    def __call__(self, logits, labels):
        return F.softmax_cross_entropy_with_logits(logits, labels)


class SparseSoftmaxCrossEntropyWithLogits(Primitive):
    def __init__(self, is_grad=False):
        super().__init__()
        self.is_grad = is_grad

    def __call__(self, logits, labels):
        return F.sparse_softmax_cross_entropy(logits, labels, self.is_grad)


class SigmoidCrossEntropyWithLogits(Primitive):
    def __call__(self, logits, label):
        return F.binary_cross_entropy_with_logits(logits, label, reduction="none")


class BCEWithLogitsLoss(Primitive):
    def __init__(self, reduction="mean"):
        super().__init__()
        self.reduction = reduction

    def __call__(self, logits, label, weight=None, pos_weight=None):
        return F.binary_cross_entropy_with_logits(logits, label, weight, pos_weight, self.reduction)


class LayerNorm(Primitive):
    """``LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)`` -> (y, mean, variance)."""

    def __init__(self, begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7):
        super().__init__()
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon

    def __call__(self, x, gamma, beta):
        axes = tuple(range(self.begin_norm_axis % x.ndim, x.ndim))
        y, mean, variance = layer_norm_stats(x, axes, self.epsilon)
        return F.add(F.mul(y, gamma), beta), mean, variance


class BatchNorm(Primitive):
    """``BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1)(x, scale, bias, mean, variance)`` -> 5 outputs:
    y, then the batch mean and variance (training) or the running ones (inference), repeated."""

    def __init__(self, is_training=False, epsilon=1e-5, momentum=0.1, data_format="NCHW"):
        super().__init__()
        if data_format != "NCHW":  # MindSpore 2.10's CPU kernel fails on NHWC (a Memcpy_s error)
            raise ValueError(f"BatchNorm: only data_format='NCHW' is supported, got {data_format!r}")
        self.is_training, self.epsilon, self.momentum = is_training, epsilon, momentum

    def __call__(self, x, scale, bias, mean, variance):
        y = F.batch_norm(x, mean, variance, scale, bias, self.is_training, self.momentum, self.epsilon)
        return y, mean, variance, mean, variance


class RandomPrimitive(Primitive):
    """A random primitive with MindSpore's ``seed``/``seed2``: both 0 draw from the global stream; otherwise the
    instance owns a stream seeded by them (and the global seed), advanced by every call."""

    def __init__(self, seed=0, seed2=0):
        super().__init__()
        self.seed, self.seed2 = seed, seed2
        self.key = seed_key(type(self).__name__, seed, seed2, next(_INSTANCES))


class UniformReal(RandomPrimitive):
    def __call__(self, shape):
        return F.uniform(shape, 0.0, 1.0, key=self.key)


class StandardNormal(RandomPrimitive):
    def __call__(self, shape):
        return F.standard_normal(shape, key=self.key)


class UniformInt(RandomPrimitive):
    def __call__(self, shape, minval, maxval):
        return F.uniform(shape, minval, maxval, dtype=mstype.int32, key=self.key)


class Depend(Primitive):
    def __call__(self, value, expr):
        return value


from .classes_math import *  # noqa: E402,F401,F403
from .classes_linalg import *  # noqa: E402,F401,F403
from .classes_gather import *  # noqa: E402,F401,F403
from .classes_array import *  # noqa: E402,F401,F403
from .classes_image import *  # noqa: E402,F401,F403
from .classes_random import *  # noqa: E402,F401,F403
from .classes_misc import *  # noqa: E402,F401,F403
from .classes_optim import *  # noqa: E402,F401,F403
from .classes_stats import *  # noqa: E402,F401,F403
from .classes_color import *  # noqa: E402,F401,F403
from .classes_nms import *  # noqa: E402,F401,F403
from .classes_linalg2 import *  # noqa: E402,F401,F403
from .classes_debug import *  # noqa: E402,F401,F403
from .classes_sparse import *  # noqa: E402,F401,F403
from .classes_rnn import *  # noqa: E402,F401,F403
from .classes_image2 import *  # noqa: E402,F401,F403
from .classes_signal import *  # noqa: E402,F401,F403
from .classes_misc2 import *  # noqa: E402,F401,F403
from .classes_extra3 import *  # noqa: E402,F401,F403
from .classes_extra4 import *  # noqa: E402,F401,F403
from .classes_extra5 import *  # noqa: E402,F401,F403
from .loops import *  # noqa: E402,F401,F403
from .dump_ops import *  # noqa: E402,F401,F403
from .custom_ops import *  # noqa: E402,F401,F403
from .classes_vision import *  # noqa: E402,F401,F403

__all__ = [n for n, v in list(globals().items()) if isinstance(v, type) and issubclass(v, Primitive)]
