"""Pooling layers: MaxPool2d and AvgPool2d with MindSpore's pad modes ("valid", "same", "pad") over the
MaxPool / AvgPool primitives (attributes worked out once, at construction)."""
from __future__ import annotations

from ... import ops
from ...ops import nn_functional as NF
from ..cell import Cell


def _pair(value, name: str, owner: str) -> tuple:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value, value)
    if not (isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, int) and v >= 1
                                                                         for v in value)):
        raise ValueError(f"For '{owner}', '{name}' must be a positive int or a tuple of two, but got {value!r}.")
    return tuple(value)


class _Pool2d(Cell):
    def __init__(self, kernel_size, stride, pad_mode, padding, data_format):
        super().__init__()
        owner = self.cls_name
        self.kernel_size = _pair(kernel_size, "kernel_size", owner)
        self.stride = _pair(stride, "stride", owner)
        mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
        if mode not in ("valid", "same", "pad"):
            raise ValueError(f"For '{owner}', 'pad_mode' must be 'valid', 'same' or 'pad', but got {pad_mode!r}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{owner}', sprout supports data_format='NCHW' only, got {data_format!r}.")
        if mode != "pad" and padding != 0:
            raise ValueError(f"For '{owner}', 'padding' must be 0 unless 'pad_mode' is 'pad', but got {padding!r}.")
        self.pad_mode, self.padding, self.format = mode.upper(), padding, data_format

    def construct(self, x):
        squeeze = x.ndim == 3
        if squeeze:
            x = ops.expand_dims(x, 0)
        out = self._pool(x)
        if squeeze:
            out = ops.squeeze(out, 0) if not isinstance(out, tuple) else tuple(ops.squeeze(o, 0) for o in out)
        return out

    def extend_repr(self) -> str:
        k = self.kernel_size[0] if self.kernel_size[0] == self.kernel_size[1] else self.kernel_size
        s = self.stride[0] if self.stride[0] == self.stride[1] else self.stride
        return f"kernel_size={k}, stride={s}, pad_mode={self.pad_mode}"


class MaxPool2d(_Pool2d):
    """Max over kernel_size windows of (N, C, H, W) inputs; "same" pads with -inf so out = ceil(in / stride)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        if self.pad_mode != "PAD" and (dilation != 1 or return_indices or ceil_mode):
            raise ValueError("For MaxPool2d, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' can "
                             "not be set to non-default value when pad_mode is not 'pad', "
                             f"but got pad_mode:{pad_mode}.")
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode
        self._attrs = NF.pool_attrs("MaxPool", self.kernel_size, self.stride, self.pad_mode.lower(), padding,
                                    dilation, ceil_mode)

    def _pool(self, x):
        if self.return_indices:
            return NF.max_pool2d(x, self.kernel_size, self.stride, self.padding, self.dilation, True, self.ceil_mode)
        return NF.max_pool_raw(x, **self._attrs)


class AvgPool2d(_Pool2d):
    """Mean over kernel_size windows; "same" averages only the real (unpadded) elements, as MindSpore does."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, data_format)
        self.ceil_mode, self.count_include_pad, self.divisor_override = ceil_mode, count_include_pad, divisor_override
        self._attrs = NF.pool_attrs("AvgPool", self.kernel_size, self.stride, self.pad_mode.lower(), padding, 1,
                                    ceil_mode)
        self._attrs.update(count_include_pad=bool(count_include_pad) and self.pad_mode != "SAME",
                           divisor=int(divisor_override or 0))

    def _pool(self, x):
        return NF.avg_pool_raw(x, **self._attrs)
