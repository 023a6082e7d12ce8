"""Adaptive pooling layers (AdaptiveAvgPool1d/2d/3d, AdaptiveMaxPool1d/2d/3d): the output size is fixed and each
output element pools its bin [floor(i L / o), ceil((i + 1) L / o)) (composites in ops/pool_nd.py)."""
from __future__ import annotations

from ...ops import pool_nd as PN
from .. import _check as V
from ..cell import Cell


class _Adaptive1d(Cell):
    """MindSpore's 1-D adaptive pools need L divisible by output_size (they run as a fixed pool)."""

    def __init__(self, output_size):
        super().__init__()
        V.type_of(output_size, int, "output_size", self.cls_name)
        self.output_size = V.int_value(output_size, "output_size", self.cls_name, 1)

    def _check(self, x) -> None:
        owner = self.cls_name
        if x.ndim != 3:
            raise ValueError(f"For {owner}, the input must has 3 dim, but got {x.ndim}.")
        if x.shape[2] < self.output_size:
            raise ValueError(f"For {owner}, the input's last dimension must be greater or equal to output size "
                             f"{self.output_size}, but got {x.shape[2]}.")
        if x.shape[2] % self.output_size:
            raise ValueError(f"For {owner}, the input's last dimension must be divisible by output size "
                             f"{self.output_size}, but got {x.shape[2]}.")
        if x.dtype.name not in ("Float16", "Float32"):
            raise TypeError(f"For {owner}, the x_dtype must be float16 or float32, but got {x.dtype}.")

    def extend_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_Adaptive1d):
    """(N, C, L) -> (N, C, output_size), the mean of each of output_size equal bins."""

    def construct(self, input):  # noqa: A002 - MindSpore's argument name
        self._check(input)
        return PN.adaptive_avg_pool_nd(input, (self.output_size,), self.cls_name)


class AdaptiveMaxPool1d(_Adaptive1d):
    """(N, C, L) -> (N, C, output_size), the max of each of output_size equal bins."""

    def construct(self, x):
        self._check(x)
        return PN.adaptive_max_pool_nd(x, (self.output_size,), False, self.cls_name)


class AdaptiveAvgPool2d(Cell):
    """(N, C, H, W) or (C, H, W) -> (..., oh, ow); ``output_size`` an int or (oh, ow), None keeps that size."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):  # noqa: A002
        return PN.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool3d(Cell):
    """(N, C, D, H, W) or (C, D, H, W) -> (..., od, oh, ow)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def construct(self, input):  # noqa: A002
        return PN.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool2d(Cell):
    """(N, C, H, W) or (C, H, W) -> (..., oh, ow); with ``return_indices`` also the Int64 argmax in each H*W plane."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = V.bool_value(return_indices, "return_indices", self.cls_name)

    def construct(self, input):  # noqa: A002
        return PN.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(Cell):
    """(N, C, D, H, W) or (C, D, H, W) -> (..., od, oh, ow) (and the Int64 argmax in each D*H*W volume)."""

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = V.bool_value(return_indices, "return_indices", self.cls_name)

    def construct(self, input):  # noqa: A002
        return PN.adaptive_max_pool3d(input, self.output_size, self.return_indices)
