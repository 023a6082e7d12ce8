"""Functional API of the neural-network primitives: conv2d, pooling, softmax, dropout, random, assign, print."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core import dispatch as _dispatch
from ..core.dispatch import bind
from ..core.op import OpError
from ..core.tensor import Tensor
from . import conv_ops as C, nn_ops as N, pool_ops as P, random_ops as RND, state_ops as ST
from .functional import _as_tensor, _axis_attr, cast, reshape

__all__ = ["conv2d", "max_pool2d", "avg_pool2d", "softmax", "log_softmax", "dropout", "uniform",
           "standard_normal", "normal", "randn", "rand", "randint", "rand_like", "randn_like", "assign",
           "assign_add", "assign_sub", "print_", "bias_add"]


def _pair(value, op: str, name: str) -> tuple:
    if isinstance(value, bool):
        raise TypeError(f"{op}: {name} must be an int or a tuple of 2 ints, got {value!r}")
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) == 4 and value[:2] == (1, 1):  # MindSpore's (1, 1, h, w) spelling
        value = value[2:]
    if len(value) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise ValueError(f"{op}: {name} must be an int or a tuple of 2 ints, got {value!r}")
    return value


def _four(pad, op: str) -> tuple:
    if isinstance(pad, int):
        return (pad,) * 4
    pad = tuple(pad)
    if len(pad) == 2:
        return (pad[0], pad[0], pad[1], pad[1])
    if len(pad) != 4:
        raise ValueError(f"{op}: padding must be an int, or a tuple of 2 (h, w) or 4 (top, bottom, left, right) "
                         f"ints, got {pad!r}")
    return pad


def _pad_mode(mode: str, op: str) -> str:
    m = mode.lower() if isinstance(mode, str) else mode
    if m not in C.PAD_MODES:
        raise ValueError(f"{op}: pad_mode must be one of 'valid', 'same', 'pad', got {mode!r}")
    return m


# ---- convolution ----------------------------------------------------------------------------------
def conv_attrs(op, stride, pad_mode, padding, dilation, groups) -> dict:
    mode = _pad_mode(pad_mode, op)
    pad = _four(padding, op)
    if mode != "pad" and any(pad):
        raise ValueError(f"{op}: padding must be 0 when pad_mode is not 'pad', got padding={padding!r} with "
                         f"pad_mode={pad_mode!r}")
    return {"stride": _pair(stride, op, "stride"), "dilation": _pair(dilation, op, "dilation"), "pad_mode": mode,
            "pad": pad, "groups": int(groups)}


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):  # noqa: A002
    """MindSpore's ``ops.conv2d`` (NCHW); ``padding`` is an int or (h, w) and needs pad_mode='pad'."""
    x, w = _float_tensor(input, "Conv2D"), _float_tensor(weight, "Conv2D")
    if not isinstance(padding, int) and len(tuple(padding)) != 2:
        raise ValueError(f"conv2d: padding must be an int or a tuple of 2 ints, got {padding!r}")
    out = bind(C.CONV2D, (x, w), conv_attrs("Conv2D", stride, pad_mode, padding, dilation, groups))
    if bias is not None:
        out = bias_add(out, bias)
    return out


def conv2d_raw(x, w, **attrs):
    return bind(C.CONV2D, (x, w), attrs)


# their kernels read a None (symbolic) batch in ``input_shape`` from dout at run time
C.CONV2D_BACKPROP_INPUT.extra["symbolic_attrs"] = P.AVGPOOL_GRAD.extra["symbolic_attrs"] = True


def _batch_only(input_shape, op: str) -> tuple:
    """An input shape attr may hold a symbolic (None) batch, which the kernel reads from dout; other
    symbolic dims are refused while tracing (the jit then compiles per shape)."""
    shape = tuple(input_shape)
    if None in shape[1:]:
        raise TypeError(f"{op}: the input shape {list(shape)} has a symbolic dimension other than the batch")
    return shape


def conv2d_backprop_input(dout, w, input_shape, **attrs):
    input_shape = _batch_only(input_shape, "Conv2DBackpropInput")
    return bind(C.CONV2D_BACKPROP_INPUT, (dout, w), {"input_shape": tuple(input_shape), **attrs})


def conv2d_backprop_filter(dout, x, filter_shape, **attrs):
    return bind(C.CONV2D_BACKPROP_FILTER, (dout, x), {"filter_shape": tuple(filter_shape), **attrs})


def bias_add(input_x, bias, data_format="NCHW"):  # noqa: A002
    """Add a per-channel bias (channel axis 1 for NCHW, last for NHWC)."""
    from .functional import add

    x = _as_tensor(input_x, "BiasAdd")
    b = _as_tensor(bias, "BiasAdd")
    if data_format == "NHWC" or x.ndim < 2:
        return add(x, b)
    return add(x, reshape(b, (1, b.shape[0]) + (1,) * (x.ndim - 2)))


# ---- pooling --------------------------------------------------------------------------------------
def pool_attrs(op, kernel_size, stride, pad_mode="valid", padding=0, dilation=1, ceil_mode=False) -> dict:
    mode = _pad_mode(pad_mode, op)
    return {"kernel": _pair(kernel_size, op, "kernel_size"), "stride": _pair(stride, op, "stride"),
            "dilation": _pair(dilation, op, "dilation"), "pad_mode": mode, "pad": _four(padding, op),
            "ceil_mode": bool(ceil_mode)}


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
    """MindSpore's ``ops.max_pool2d`` (NCHW, explicit symmetric padding, PyTorch-style)."""
    t = _as_tensor(x, "MaxPool")
    attrs = pool_attrs("MaxPool", kernel_size, kernel_size if stride is None else stride, "pad", padding, dilation,
                       ceil_mode)
    out = bind(P.MAXPOOL, (t,), attrs)
    if return_indices:
        return out, bind(P.MAXPOOL_ARGMAX, (t,), attrs)
    return out


def max_pool_raw(x, **attrs):
    return bind(P.MAXPOOL, (x,), attrs)


def max_pool_grad(x, dout, **attrs):
    return bind(P.MAXPOOL_GRAD, (x, dout), attrs)


def max_pool_grad_grad(x, g, **attrs):
    return bind(P.MAXPOOL_GRAD_GRAD, (x, g), attrs)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False, count_include_pad=True,  # noqa: A002
               divisor_override=0):
    """MindSpore's ``ops.avg_pool2d`` (NCHW, explicit symmetric padding)."""
    t = _as_tensor(input_x, "AvgPool")
    attrs = pool_attrs("AvgPool", kernel_size, stride, "pad", padding, 1, ceil_mode)
    attrs.update(count_include_pad=bool(count_include_pad), divisor=int(divisor_override or 0))
    return bind(P.AVGPOOL, (t,), attrs)


def avg_pool_raw(x, **attrs):
    return bind(P.AVGPOOL, (x,), attrs)


def avg_pool_grad(dout, input_shape, **attrs):
    input_shape = _batch_only(input_shape, "AvgPoolGrad")
    return bind(P.AVGPOOL_GRAD, (dout,), {"input_shape": tuple(input_shape), **attrs})


# ---- softmax family -------------------------------------------------------------------------------
def _softmax_axis(axis, op: str) -> tuple:
    if isinstance(axis, bool) or not isinstance(axis, (int, tuple, list)):
        raise TypeError(f"{op}: axis must be an int, got {axis!r}")
    return _axis_attr(axis)


def _float_tensor(x, op: str) -> Tensor:
    t = _as_tensor(x, op)
    if not t.dtype.is_float:
        raise TypeError(f"{op}: the input must be a float16, float32 or float64 tensor, but got {t.dtype}")
    return t


def softmax(input, axis=-1, *, dtype=None):  # noqa: A002
    x = _as_tensor(input, "Softmax")
    if dtype is not None:
        x = cast(x, dtype)
    return bind(N.SOFTMAX, (_float_tensor(x, "Softmax"),), {"axis": _softmax_axis(axis, "Softmax")})


def log_softmax(logits, axis=-1):
    return bind(N.LOG_SOFTMAX, (_float_tensor(logits, "LogSoftmax"),), {"axis": _softmax_axis(axis, "LogSoftmax")})


# ---- random ---------------------------------------------------------------------------------------
def _size(size, op: str) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    if not all(isinstance(d, int) and d >= 0 for d in size):
        raise TypeError(f"{op}: size must be non-negative ints, got {size!r}")
    return tuple(size)


def _scalar(v):
    return v.item() if isinstance(v, Tensor) else v


def seed_key(owner: str, seed=None, seed2=0, instance=None):
    """The op-level stream key of a random call: None (the global stream) unless an op seed is given. MindSpore's
    rule: a seed of 0 (with seed2 0) on a primitive means "not set"; a functional ``seed=None`` likewise."""
    if seed is None or (instance is not None and not seed and not seed2):
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not isinstance(seed2, int):
        raise TypeError(f"{owner}: seed must be an int, got {seed!r}")
    if seed < 0 or seed2 < 0:
        raise ValueError(f"{owner}: seed must be non-negative, got {seed}")
    return (owner, seed, seed2) if instance is None else (owner, seed, seed2, instance)


def _draw_seed(key=None) -> Tensor:
    """The explicit seed input of one random op call, drawn when it runs from the global stream (or from the
    op-level stream ``key``, see seed_key)."""
    return bind(RND.RANDOM_SEED, (), {} if key is None else {"key": key})


def dropout(input, p=0.5, training=True, seed=None):  # noqa: A002
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p); identity when not training."""
    x = _as_tensor(input, "Dropout")
    if not training or p == 0:
        return x
    if not 0 <= p < 1:
        raise ValueError(f"dropout: p must be in [0, 1), got {p}")
    return bind(RND.DROPOUT, (x, _draw_seed(seed_key("dropout", seed))), {"keep_prob": 1.0 - float(p)})[0]


def dropout_with_mask(x, keep_prob, key=None):
    """``ops.Dropout(keep_prob)(x)``: (output, mask)."""
    return bind(RND.DROPOUT, (_as_tensor(x, "Dropout"), _draw_seed(key)), {"keep_prob": float(keep_prob)})


def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32, *, key=None):
    dt = mstype.to_dtype(dtype)
    op = RND.UNIFORM_INT if dt.is_int else RND.UNIFORM
    key = key or seed_key("uniform", seed)
    return bind(op, (_draw_seed(key),), {"shape": _size(tuple(shape), "uniform"), "dtype": dt,
                                         "low": _scalar(minval), "high": _scalar(maxval)})


def standard_normal(shape, seed=None, *, key=None):
    return bind(RND.NORMAL, (_draw_seed(key or seed_key("standard_normal", seed)),),
                {"shape": _size(tuple(shape), "standard_normal"), "dtype": mstype.float32})


def normal(shape, mean, stddev, seed=None, *, key=None):
    """Samples of N(mean, stddev); tensor ``mean``/``stddev`` broadcast with ``shape`` (and get gradients)."""
    if isinstance(mean, Tensor) or isinstance(stddev, Tensor):
        from .functional import add, mul
        from .host_ops import is_symbolic

        if isinstance(stddev, Tensor) and not is_symbolic(stddev) and np.any(stddev.asnumpy() < 0):
            raise ValueError(f"normal: stddev must be non-negative, got {stddev.asnumpy().min()} (a traced stddev "
                             f"is not checked)")

        full = np.broadcast_shapes(tuple(shape), tuple(getattr(mean, "shape", ())), tuple(getattr(stddev, "shape", ())))
        z = standard_normal(full, seed, key=key)
        dt = next(v.dtype for v in (mean, stddev) if isinstance(v, Tensor))
        return add(mul(z if z.dtype is dt else cast(z, dt), stddev), mean)
    if stddev < 0:
        raise ValueError(f"normal: stddev must be non-negative, got {stddev}")
    return bind(RND.NORMAL, (_draw_seed(key or seed_key("normal", seed)),),
                {"shape": _size(tuple(shape), "normal"), "dtype": mstype.float32, "mean": float(mean),
                 "stddev": float(stddev)})


def randn(*size, dtype=None, seed=None):
    return bind(RND.NORMAL, (_draw_seed(seed_key("randn", seed)),), {"shape": _size(size, "randn"),
                                                                     "dtype": mstype.to_dtype(dtype or mstype.float32)})


def rand(*size, dtype=None, seed=None):
    return bind(RND.UNIFORM, (_draw_seed(seed_key("rand", seed)),), {"shape": _size(size, "rand"),
                                                                     "dtype": mstype.to_dtype(dtype or mstype.float32)})


def randint(low, high, size, seed=None, *, dtype=None, key=None):
    if high <= low:
        raise ValueError(f"randint: high ({high}) must be greater than low ({low})")
    return bind(RND.UNIFORM_INT, (_draw_seed(key or seed_key("randint", seed)),),
                {"shape": _size(tuple(size), "randint"), "dtype": mstype.to_dtype(dtype or mstype.int64),
                 "low": int(low), "high": int(high)})


def rand_like(input, seed=None, *, dtype=None):  # noqa: A002
    return rand(*input.shape, dtype=dtype or input.dtype, seed=seed)


def randn_like(input, seed=None, *, dtype=None):  # noqa: A002
    return randn(*input.shape, dtype=dtype or input.dtype, seed=seed)


# ---- state and printing ---------------------------------------------------------------------------
def _assign(prim, variable, value):
    if not isinstance(variable, Tensor):
        raise TypeError(f"{prim.name}: variable must be a Parameter, got {type(variable).__name__}")
    if getattr(variable, "_view", False) or _dispatch._builders and _dispatch._builders[-1].views.base_of(variable):
        # an eager view op's result (core/views.py), a traced one (ir/views.py): MindSpore refuses it too
        raise RuntimeError(f"{prim.name}: variable is a view of another tensor (the result of a view op such as "
                           f"reshape, transpose, squeeze or basic indexing); in-place {prim.name} does not take a "
                           f"view: write into its base, or into a copy (Tensor.copy())")
    if not isinstance(value, Tensor):
        value = Tensor(value, dtype=variable.dtype)
    elif value.dtype != variable.dtype:  # MindSpore converts the value to the variable's dtype
        value = cast(value, variable.dtype)
    if tuple(value.shape) != tuple(variable.shape):  # checked here too: eager skips the op's shape rule, and
        # NumPy would broadcast (MindSpore 2.10 raises ValueError for a value of another shape, scalars included)
        raise OpError(f"{prim.name}: value shape {list(value.shape)} differs from the variable's "
                      f"{list(variable.shape)} (an in-place write keeps the variable's shape; no broadcasting)")
    return bind(prim, (variable, value), {})


def assign(variable, value):
    """Write ``value`` into the Parameter ``variable`` in place; returns its new value."""
    return _assign(ST.ASSIGN, variable, value)


def assign_add(variable, value):
    return _assign(ST.ASSIGN_ADD, variable, value)


def assign_sub(variable, value):
    return _assign(ST.ASSIGN_SUB, variable, value)


def print_(*input_x):
    """Print each argument on its own line (tensors as their repr); returns None, as MindSpore does.
    Runs through the Print op of ``ops/host_ops.py`` so it also prints at run time inside jit."""
    from .host_ops import PRINT

    template, tensors = [], []
    for a in input_x:
        if isinstance(a, Tensor):
            template.append(("t", len(tensors), "repr"))
            tensors.append(a)
        else:
            template.append(("s", str(a)))
        template.append(("s", "\n"))
    bind(PRINT, (tuple(template), *tensors), {})
