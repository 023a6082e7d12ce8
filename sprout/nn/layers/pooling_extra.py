"""More pooling cells: LPPool1d/2d, MaxUnpool1d/2d/3d, FractionalMaxPool2d/3d, and ChannelShuffle."""
from __future__ import annotations

from ... import ops
from ...core.tensor import Tensor
from ...ops.pool_fractional import fractional_max_pool2d, fractional_max_pool3d
from .. import _check as V
from ..cell import Cell


class _LPPool(Cell):
    _fn = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        V.float_value(norm_type, "norm_type", self.cls_name, 0, low_open=True)
        V.type_of(kernel_size, (int, tuple, list), "kernel_size", self.cls_name)
        if stride is not None:
            V.type_of(stride, (int, tuple, list), "stride", self.cls_name)
        V.bool_value(ceil_mode, "ceil_mode", self.cls_name)
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def construct(self, x):
        return type(self)._fn(x, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)

    def extend_repr(self) -> str:
        return f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, " \
               f"ceil_mode={self.ceil_mode}"


class LPPool1d(_LPPool):
    """(sum over each window of x^p)^(1/p) over the last axis of (N, C, L) or (C, L)."""

    _fn = staticmethod(ops.lp_pool1d)


class LPPool2d(_LPPool):
    """(sum over each window of x^p)^(1/p) over the last two axes of (N, C, H, W)."""

    _fn = staticmethod(ops.lp_pool2d)


class _MaxUnpool(Cell):
    _fn = None
    _nd = 0

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        V.type_of(kernel_size, (int, tuple), "kernel_size", self.cls_name)
        if stride is not None:
            V.type_of(stride, (int, tuple), "stride", self.cls_name)
        V.type_of(padding, (int, tuple), "padding", self.cls_name)
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding

    def construct(self, x, indices, output_size=None):
        if output_size is not None:
            if not isinstance(output_size, tuple):
                raise ValueError(f"For {self.cls_name}, output_size must be tuple, but type {type(output_size)}.")
            if not output_size:
                raise ValueError(f"For {self.cls_name}, the length of output_size must be positive, but got 0.")
        return type(self)._fn(x, indices, self.kernel_size, self.stride, self.padding, output_size)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpool):
    """The inverse of MaxPool1d: each value goes to its flat ``indices`` position, zeros elsewhere."""

    _fn = staticmethod(ops.max_unpool1d)


class MaxUnpool2d(_MaxUnpool):
    """The inverse of MaxPool2d: each value goes to its flat ``indices`` position in its (H, W) plane."""

    _fn = staticmethod(ops.max_unpool2d)


class MaxUnpool3d(_MaxUnpool):
    """The inverse of MaxPool3d: each value goes to its flat ``indices`` position in its (D, H, W) volume."""

    _fn = staticmethod(ops.max_unpool3d)


class _FractionalMaxPool(Cell):
    _fn = None

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        if output_size is None and output_ratio is None:
            raise ValueError(f"For '{self.cls_name}', 'output_size' and 'output_ratio' can not be None "
                             "at the same time.")
        V.bool_value(return_indices, "return_indices", self.cls_name)
        if _random_samples is not None and not isinstance(_random_samples, Tensor):
            raise TypeError(f"For '{self.cls_name}', '_random_samples' must be a Tensor or None, "
                            f"but got {type(_random_samples).__name__}.")
        self.kernel_size, self.output_size, self.output_ratio = kernel_size, output_size, output_ratio
        self.return_indices, self._random_samples = return_indices, _random_samples

    def construct(self, input):  # noqa: A002
        return type(self)._fn(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                              self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPool):
    """Max pooling with pseudo-random, overlapping-free window steps (Graham's fractional max pooling); the
    steps come from ``_random_samples`` (N, C, 2) in [0, 1), drawn per call when not given."""

    _fn = staticmethod(fractional_max_pool2d)


class FractionalMaxPool3d(_FractionalMaxPool):
    """3-D fractional max pooling; ``_random_samples`` has shape (N, C, 3)."""

    _fn = staticmethod(fractional_max_pool3d)


class ChannelShuffle(Cell):
    """Split the C channels of (N, C, ...) into ``groups`` groups and interleave them (ShuffleNet)."""

    def __init__(self, groups):
        super().__init__()
        if not isinstance(groups, int) or isinstance(groups, bool):
            raise TypeError(f"For ChannelShuffle, the param `groups` must be int, but got {type(groups)}.")
        if groups < 1:
            raise ValueError(f"For ChannelShuffle, the param `groups` must be larger than 0, but got {groups}.")
        self.groups = groups

    def construct(self, x):
        return ops.channel_shuffle(x, self.groups)
