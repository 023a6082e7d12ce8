"""Convolution layers Conv1d, Conv2d, Conv3d (NCHW / NCDHW; MindSpore's default pad_mode is "same").

Weights have MindSpore's layouts, so checkpoints load: Conv2d (C_out, C_in // group, kh, kw), Conv1d
(C_out, C_in // group, 1, k) (a Conv2d of height 1), Conv3d (C_out, C_in // group, kd, kh, kw)."""
from __future__ import annotations

import math

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...common.initializer import HeUniform, Uniform, _fans, initializer
from ...core.tensor import Parameter, Tensor
from ...ops import conv_nd
from ...ops import nn_functional as NF
from .. import _check as V
from ..cell import Cell


def pad_mode_of(pad_mode, owner: str) -> str:
    """The conv layers take the pad mode in lower case only, as MindSpore's do ('SAME' is refused)."""
    if not isinstance(pad_mode, str) or pad_mode not in ("same", "valid", "pad"):
        raise ValueError(f"For '{owner}', the 'pad_mode' must be str and must be in ['valid', 'same', 'pad'], "
                         f"but got {pad_mode!r}.")
    return pad_mode


def padding_of(padding, n: int, pad_mode: str, owner: str) -> tuple:
    """An int or a tuple of ``n`` non-negative ints (2 per spatial axis), 0 unless pad_mode is 'pad'."""
    if isinstance(padding, bool) or not isinstance(padding, (int, tuple)):
        raise TypeError(f"For '{owner}', the type of 'padding' must be int or tuple(int), but got "
                        f"{type(padding).__name__}.")
    pads = (padding,) * n if isinstance(padding, int) else padding
    if len(pads) != n:
        raise ValueError(f"For '{owner}', the 'padding' must be an int or a tuple of {n} ints, but got {padding!r}.")
    for p in pads:
        V.non_negative_int(p, "padding item", owner)
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"For '{owner}', the 'padding' must be zero when 'pad_mode' is not 'pad', but got "
                         f"{padding!r} with 'pad_mode' {pad_mode!r}.")
    return tuple(pads)


class _Conv(Cell):
    """Shared construction: argument checks, weight (transposed: (C_in, C_out // group, *k)) and bias."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                 weight_init, bias_init, data_format="NCHW", transposed=False, dtype=mstype.float32):
        super().__init__()
        owner = self.cls_name
        self.in_channels = V.positive_int(in_channels, "in_channels", owner)
        self.out_channels = V.positive_int(out_channels, "out_channels", owner)
        self.group = V.positive_int(group, "group", owner)
        if in_channels % group:
            raise ValueError(f"For '{owner}', the attr 'in_channels' must be divisible by attr 'group', but got "
                             f"'in_channels': {in_channels} and 'group': {group}.")
        if out_channels % group:
            raise ValueError(f"For '{owner}', the 'out_channels' must be divisible by attr 'group', but got "
                             f"'out_channels': {out_channels} and 'group': {group}.")
        if data_format not in ("NCHW", "NCDHW"):
            raise ValueError(f"For '{owner}', the 'data_format' must be 'NCHW' (or 'NCDHW' for 3-D); 'NHWC' is a "
                             f"GPU-only format in MindSpore and is not supported, but got {data_format!r}.")
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.pad_mode = pad_mode
        self.data_format = data_format
        self.has_bias = V.bool_value(has_bias, "has_bias", owner)
        if transposed:
            shape = [in_channels, out_channels // group, *kernel_size]
        else:
            shape = [out_channels, in_channels // group, *kernel_size]
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight_init = weight_init
        self.weight = Parameter(initializer(weight_init, shape, dtype=dtype), name="weight")
        self.bias_init = bias_init
        self.bias = None
        if has_bias:
            if bias_init is None:
                fan_in, _ = _fans(shape)
                bias_init = Uniform(1 / math.sqrt(fan_in)) if fan_in else "zeros"
                self.bias_init = bias_init
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")

    def _add_bias(self, out):
        return NF.bias_add(out, self.bias) if self.has_bias else out

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, format={self.data_format}")


def _weight_1d(weight_init, owner: str):
    """A 3-D Tensor initialiser of a 1-D conv gets MindSpore's (.., .., 1, k) layout."""
    if isinstance(weight_init, Tensor):
        if weight_init.ndim != 3:
            raise ValueError(f"For '{owner}', the 'weight_init_shape' must be 3-D, but got {list(weight_init.shape)}.")
        return Tensor(np.expand_dims(weight_init.asnumpy(), 2), weight_init.dtype)
    return weight_init


def check_1d_args(owner: str, kernel_size, stride, padding, dilation) -> None:
    for name, v in (("kernel_size", kernel_size), ("stride", stride), ("padding", padding), ("dilation", dilation)):
        V.type_of(v, int, name, owner)
    V.int_value(kernel_size, "kernel_size", owner, 1)
    V.int_value(stride, "stride", owner, 1)
    V.non_negative_int(padding, "padding", owner)
    V.int_value(dilation, "dilation", owner, 1)


class Conv2d(_Conv):
    """2-D convolution over (N, C_in, H, W); weight (C_out, C_in // group, kh, kw)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCHW",
                 dtype=mstype.float32):
        owner = type(self).__name__
        kernel_size = V.int_tuple(kernel_size, 2, "kernel_size", owner)
        stride = V.int_tuple(stride, 2, "stride", owner)
        dilation = V.int_tuple(dilation, 2, "dilation", owner)
        mode = pad_mode_of(pad_mode, owner)
        pads = padding_of(padding, 4, mode, owner)
        super().__init__(in_channels, out_channels, kernel_size, stride, mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)
        self.padding = padding
        self._attrs = {"stride": stride, "dilation": dilation, "pad_mode": mode, "pad": pads, "groups": group}

    def construct(self, x):
        return self._add_bias(NF.conv2d_raw(x, self.weight, **self._attrs))


class Conv1d(_Conv):
    """1-D convolution over (N, C_in, L), run as a Conv2d of height 1; weight (C_out, C_in // group, 1, k)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        owner = type(self).__name__
        check_1d_args(owner, kernel_size, stride, padding, dilation)
        mode = pad_mode_of(pad_mode, owner)
        padding_of(padding, 2, mode, owner)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), mode, padding, (1, dilation), group,
                         has_bias, _weight_1d(weight_init, owner), bias_init, dtype=dtype)
        self.padding = (0, 0, padding, padding)
        self._attrs = {"stride": (1, stride), "dilation": (1, dilation), "pad_mode": mode, "pad": self.padding,
                       "groups": group}

    def construct(self, x):
        if x.ndim != 3:
            raise ValueError(f"For '{self.cls_name}', the input must be 3-D (N, C, L), but got shape {list(x.shape)}.")
        out = NF.conv2d_raw(ops.expand_dims(x, 2), self.weight, **self._attrs)
        return ops.squeeze(self._add_bias(out), 2)


class Conv3d(_Conv):
    """3-D convolution over (N, C_in, D, H, W); weight (C_out, C_in // group, kd, kh, kw). ``padding`` is an int or
    (head, tail, top, bottom, left, right)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        owner = type(self).__name__
        kernel_size = V.int_tuple(kernel_size, 3, "kernel_size", owner)
        stride = V.int_tuple(stride, 3, "stride", owner)
        dilation = V.int_tuple(dilation, 3, "dilation", owner)
        mode = pad_mode_of(pad_mode, owner)
        pads = padding_of(padding, 6, mode, owner)
        if data_format != "NCDHW":
            raise ValueError(f"For '{owner}', the 'data_format' must be 'NCDHW', but got {data_format!r}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, dtype=dtype)
        self.padding = padding
        self._pads = pads

    def construct(self, x):
        out = conv_nd.conv3d_raw(x, self.weight, self.stride, self.dilation, self.pad_mode, self._pads, self.group)
        return self._add_bias(out)
