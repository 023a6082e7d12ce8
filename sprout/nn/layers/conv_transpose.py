"""Transposed convolutions Conv1dTranspose, Conv2dTranspose, Conv3dTranspose: the adjoint (input gradient) of the
convolution with the same arguments; weights (C_in, C_out // group, *kernel) as in MindSpore.

MindSpore quirk kept: Conv2dTranspose applies ``output_padding`` by appending zero rows/columns after the bias
(bottom and right), while Conv3dTranspose computes the extra positions as part of the transposed convolution."""
from __future__ import annotations

from ... import dtype as mstype
from ... import ops
from ...ops import conv_nd
from ...ops import nn_functional as NF
from .. import _check as V
from .conv import _Conv, _weight_1d, check_1d_args, pad_mode_of, padding_of


class Conv2dTranspose(_Conv):
    """2-D transposed convolution of (N, C_in, H, W) into (N, C_out, H_out, W_out)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0,
                 output_padding=0, dilation=1, group=1, has_bias=False, weight_init=None, bias_init=None,
                 dtype=mstype.float32):
        owner = type(self).__name__
        kernel_size = V.int_tuple(kernel_size, 2, "kernel_size", owner)
        stride = V.int_tuple(stride, 2, "stride", owner)
        dilation = V.int_tuple(dilation, 2, "dilation", owner)
        mode = pad_mode_of(pad_mode, owner)
        pads = padding_of(padding, 4, mode, owner)
        V.type_of(output_padding, (int, tuple), "output_padding", owner)
        out_pad = V.int_tuple(output_padding, 2, "output_padding", owner, positive=False)
        for i, (op, s, d) in enumerate(zip(out_pad, stride, dilation)):
            if op >= max(s, d):
                raise ValueError(f"For '{owner}', output_padding[{i}] must be in range of [0, max(stride, dilation)), "
                                 f"but got {op} with stride {s} and dilation {d}.")
        if mode != "pad" and any(out_pad):
            raise ValueError(f"For '{owner}', when 'output_padding' is not zero, 'pad_mode' must be 'pad', but got "
                             f"{pad_mode!r}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, transposed=True, dtype=dtype)
        self.padding, self.output_padding = padding, output_padding
        self._pads, self._out_pad = pads, out_pad
        self._attrs = {"stride": stride, "dilation": dilation, "pad_mode": mode, "pad": pads, "groups": group}

    def _out_hw(self, h, w) -> tuple:
        k, s, d, p = self.kernel_size, self.stride, self.dilation, self._pads
        return (conv_nd.deconv_length(self.pad_mode, h, k[0], s[0], d[0], p[0] + p[1]),
                conv_nd.deconv_length(self.pad_mode, w, k[1], s[1], d[1], p[2] + p[3]))

    def construct(self, x):
        if x.ndim != 4:
            raise ValueError(f"For '{self.cls_name}', the input must be 4-D (N, C, H, W), but got shape "
                             f"{list(x.shape)}.")
        n, _, h, w = x.shape
        ho, wo = self._out_hw(h, w)
        out = NF.conv2d_backprop_input(x, self.weight, (n, self.out_channels, ho, wo), **self._attrs)
        out = self._add_bias(out)
        if any(self._out_pad):
            out = ops.pad_raw(out, ((0, 0), (0, 0), (0, self._out_pad[0]), (0, self._out_pad[1])))
        return out


class Conv1dTranspose(_Conv):
    """1-D transposed convolution of (N, C_in, L); weight (C_in, C_out // group, 1, k)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init=None, bias_init=None, dtype=mstype.float32):
        owner = type(self).__name__
        check_1d_args(owner, kernel_size, stride, padding, dilation)
        mode = pad_mode_of(pad_mode, owner)
        padding_of(padding, 2, mode, owner)
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), mode, padding, (1, dilation), group,
                         has_bias, _weight_1d(weight_init, owner), bias_init, transposed=True, dtype=dtype)
        self.padding = (0, 0, padding, padding)
        self._attrs = {"stride": (1, stride), "dilation": (1, dilation), "pad_mode": mode, "pad": self.padding,
                       "groups": group}

    def construct(self, x):
        if x.ndim != 3:
            raise ValueError(f"For '{self.cls_name}', the dimension of input must be 3d, but got {x.ndim}.")
        n, _, length = x.shape
        lo = conv_nd.deconv_length(self.pad_mode, length, self.kernel_size[1], self.stride[1], self.dilation[1],
                                   2 * self.padding[2])
        out = NF.conv2d_backprop_input(ops.expand_dims(x, 2), self.weight, (n, self.out_channels, 1, lo),
                                       **self._attrs)
        return ops.squeeze(self._add_bias(out), 2)


class Conv3dTranspose(_Conv):
    """3-D transposed convolution of (N, C_in, D, H, W); weight (C_in, C_out // group, kd, kh, kw); ``padding`` an int
    or (head, tail, top, bottom, left, right); ``output_padding`` (only with pad_mode 'pad') lengthens the output."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, output_padding=0, has_bias=False, weight_init=None, bias_init=None, data_format="NCDHW",
                 dtype=mstype.float32):
        owner = type(self).__name__
        kernel_size = V.int_tuple(kernel_size, 3, "kernel_size", owner)
        stride = V.int_tuple(stride, 3, "stride", owner)
        dilation = V.int_tuple(dilation, 3, "dilation", owner)
        mode = pad_mode_of(pad_mode, owner)
        pads = padding_of(padding, 6, mode, owner)
        out_pad = V.int_tuple(output_padding, 3, "output_padding", owner, positive=False)
        if mode != "pad" and any(out_pad):
            raise ValueError(f"For '{owner}', the 'output_padding' must be zero or (0, 0, 0) when 'pad_mode' is not "
                             f"'pad', but got {output_padding!r} and 'pad_mode' {pad_mode!r}.")
        for i, (op, s, d) in enumerate(zip(out_pad, stride, dilation)):
            if op >= max(s, d):
                raise ValueError(f"For '{owner}', output_padding[{i}] must be in range of [0, max(stride, dilation)), "
                                 f"but got {op} with stride {s} and dilation {d}.")
        if data_format != "NCDHW":
            raise ValueError(f"For '{owner}', the 'data_format' must be 'NCDHW', but got {data_format!r}.")
        if dilation[0] != 1:
            raise ValueError(f"For '{owner}', the depth of parameter 'dilation' must be 1, but got {dilation[0]}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, mode, padding, dilation, group, has_bias,
                         weight_init, bias_init, data_format, transposed=True, dtype=dtype)
        self.padding, self.output_padding = padding, out_pad
        self._pads = pads

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError(f"For '{self.cls_name}', the input must be 5-D (N, C, D, H, W), but got shape "
                             f"{list(x.shape)}.")
        k, s, d, p = self.kernel_size, self.stride, self.dilation, self._pads
        size = tuple(conv_nd.conv3d_transpose_length(self.pad_mode, x.shape[2 + i], k[i], s[i], d[i],
                                                     p[2 * i] + p[2 * i + 1], self.output_padding[i])
                     for i in range(3))
        out = conv_nd.conv3d_transpose_raw(x, self.weight, size, s, d, self.pad_mode, p, self.group)
        return self._add_bias(out)
