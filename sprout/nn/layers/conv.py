"""Convolution layers: Conv2d and Conv1d over the Conv2D primitive (NCHW; MindSpore's default pad_mode is "same")."""
from __future__ import annotations

import math

from ... import dtype as mstype
from ... import ops
from ...ops import nn_functional as NF
from ...common.initializer import HeUniform, Uniform, _fans, initializer
from ...core.tensor import Parameter
from ..cell import Cell


def _pair(value, name: str, owner: str) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        out = (value, value)
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        out = tuple(value)
    else:
        raise TypeError(f"For '{owner}', '{name}' must be an int or a tuple of two ints, but got {value!r}.")
    for v in out:
        if not isinstance(v, int) or v < 1:
            raise ValueError(f"For '{owner}', every '{name}' item must be a positive int, but got {value!r}.")
    return out


def _check_padding(padding, pad_mode: str, owner: str):
    if pad_mode not in ("same", "valid", "pad"):
        raise ValueError(f"For '{owner}', 'pad_mode' must be one of ['same', 'valid', 'pad'], but got {pad_mode!r}.")
    pads = (padding,) if isinstance(padding, int) else tuple(padding)
    if not pads or any(not isinstance(p, int) or p < 0 for p in pads):
        raise ValueError(f"For '{owner}', 'padding' must be a non-negative int or tuple of them, got {padding!r}.")
    if pad_mode != "pad" and any(pads):
        raise ValueError(f"For '{owner}', 'padding' must be 0 when 'pad_mode' is {pad_mode!r}, but got {padding}.")
    return padding


class _Conv(Cell):
    def _init_params(self, shape, has_bias, weight_init, bias_init, dtype):
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
            self.bias = Parameter(initializer(bias_init, [shape[0]], dtype=dtype), name="bias")

    def extend_repr(self) -> str:
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}, "
                f"padding={self.padding}, dilation={self.dilation}, group={self.group}, has_bias={self.has_bias}, "
                f"weight_init={self.weight_init}, bias_init={self.bias_init}, format={self.data_format}")


class Conv2d(_Conv):
    """2-D convolution over (N, C_in, H, W); weight (C_out, C_in // group, kh, kw)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        owner = "Conv2d"
        if data_format != "NCHW":
            raise ValueError(f"For '{owner}', sprout supports data_format='NCHW' only, got {data_format!r}.")
        if not isinstance(group, int) or group < 1 or in_channels % group or out_channels % group:
            raise ValueError(f"The argument 'group' should be divisible by 'in_channels' and 'out_channels', "
                             f"but got group:{group}, in_channels:{in_channels}, out_channels:{out_channels}.")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _pair(kernel_size, "kernel_size", owner)
        self.stride = _pair(stride, "stride", owner)
        self.dilation = _pair(dilation, "dilation", owner)
        self.pad_mode, self.padding = pad_mode, _check_padding(padding, pad_mode, owner)
        self.group, self.has_bias, self.data_format = group, has_bias, data_format
        self._init_params([out_channels, in_channels // group, *self.kernel_size], has_bias, weight_init, bias_init,
                          dtype)
        # attributes of the Conv2D primitive, worked out once (padding may be (top, bottom, left, right))
        self._attrs = NF.conv_attrs("Conv2D", self.stride, pad_mode, padding, self.dilation, group)

    def construct(self, x):
        out = NF.conv2d_raw(x, self.weight, **self._attrs)
        if self.has_bias:
            out = NF.bias_add(out, self.bias)
        return out


class Conv1d(_Conv):
    """1-D convolution over (N, C_in, L); weight (C_out, C_in // group, k), run as a (1, k) Conv2d."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        super().__init__()
        owner = "Conv1d"
        for name, v in (("kernel_size", kernel_size), ("stride", stride), ("dilation", dilation)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise ValueError(f"For '{owner}', '{name}' must be a positive int, but got {v!r}.")
        if not isinstance(padding, int):
            raise TypeError(f"For '{owner}', 'padding' must be an int, but got {padding!r}.")
        if not isinstance(group, int) or group < 1 or in_channels % group or out_channels % group:
            raise ValueError(f"For '{owner}', 'group' must divide in_channels and out_channels, got {group}.")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.dilation = kernel_size, stride, dilation
        self.pad_mode, self.padding = pad_mode, _check_padding(padding, pad_mode, owner)
        self.group, self.has_bias, self.data_format = group, has_bias, "NCW"
        self._init_params([out_channels, in_channels // group, kernel_size], has_bias, weight_init, bias_init, dtype)
        self._attrs = NF.conv_attrs("Conv1D", (1, stride), pad_mode, (0, 0, padding, padding), (1, dilation), group)

    def construct(self, x):
        out = NF.conv2d_raw(ops.expand_dims(x, 2), ops.expand_dims(self.weight, 2), **self._attrs)
        if self.has_bias:
            out = NF.bias_add(out, self.bias)
        return ops.squeeze(out, 2)
