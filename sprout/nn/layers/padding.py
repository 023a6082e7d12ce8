"""Padding layers: Pad (CONSTANT / REFLECT / SYMMETRIC per-axis pairs), ConstantPad1d/2d/3d, ZeroPad2d,
ReflectionPad1d/2d/3d and ReplicationPad1d/2d/3d (``padding`` runs from the last axis backwards: left, right, top,
bottom, front, back)."""
from __future__ import annotations

from ... import ops
from ...ops import pad_nd
from .. import _check as V
from ..cell import Cell


class Pad(Cell):
    """Pads by ``paddings``, one (before, after) pair per input axis, with zeros (``"CONSTANT"``), a mirror without
    the edge (``"REFLECT"``) or with it (``"SYMMETRIC"``)."""

    def __init__(self, paddings, mode="CONSTANT"):
        super().__init__()
        owner = self.cls_name
        self.mode = V.one_of(mode, ("CONSTANT", "REFLECT", "SYMMETRIC"), "mode", owner)
        if not isinstance(paddings, tuple):
            raise TypeError(f"For '{owner}', the type of 'paddings' must be tuple, but got "
                            f"{type(paddings).__name__}.")
        for item in paddings:
            if len(item) != 2:
                raise ValueError(f"For '{owner}', the dimension of 'paddings' must be (n, 2), but got {paddings}.")
            for v in item:
                V.type_of(v, int, "paddings item", owner)
                if mode != "CONSTANT" and v < 0:
                    raise ValueError(f"For '{owner}', {mode} paddings must be non-negative, but got {paddings}.")
        if len(paddings) > 4:
            raise ValueError(f"For '{owner}', only 'paddings' up to 4 dims is supported, but got {len(paddings)}.")
        self.paddings = tuple(tuple(p) for p in paddings)

    def construct(self, x):
        if len(self.paddings) != x.ndim:
            raise ValueError(f"For '{self.cls_name}', 'paddings' must hold one pair per input dimension: got "
                             f"{len(self.paddings)} pairs for an input of rank {x.ndim}.")
        if self.mode == "CONSTANT":
            return ops.pad_raw(x, self.paddings, 0)
        return pad_nd.pad_mode_raw(x, self.paddings, self.mode.lower(), self.cls_name)

    def extend_repr(self) -> str:
        return f"paddings={self.paddings}, mode={self.mode}"


class _ConstantPadNd(Cell):
    """Pads the last n axes with ``value``; negative padding crops."""

    _n = 1

    def __init__(self, padding, value):
        super().__init__()
        owner = self.cls_name
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * self._n)
        elif isinstance(padding, tuple):
            if len(padding) % 2:
                raise ValueError(f"For '{owner}', the length of parameter 'padding' with tuple type must be a "
                                 f"multiple of 2, but got {len(padding)}")
            if len(padding) > 2 * self._n or (self._n == 1 and len(padding) != 2):
                raise ValueError(f"For '{owner}', the length of parameter 'padding' with tuple type must be no more "
                                 f"than {2 * self._n}, but got {len(padding)}")
            for p in padding:
                V.type_of(p, int, "padding item", owner)
        else:
            raise TypeError(f"For '{owner}', the type of parameter 'padding' must be in [int, tuple], but got "
                            f"{type(padding)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{owner}', the type of parameter 'value' must be in [int, float], but got "
                            f"{type(value)}")
        self.padding, self.value = padding, value

    def construct(self, x):
        return ops.pad(x, self.padding, value=self.value)

    def extend_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """Pad the last axis with a constant: padding (left, right)."""

    _n = 1


class ConstantPad2d(_ConstantPadNd):
    """Pad the last two axes with a constant: padding (left, right, top, bottom)."""

    _n = 2


class ConstantPad3d(_ConstantPadNd):
    """Pad the last three axes with a constant: padding (left, right, top, bottom, front, back)."""

    _n = 3


class ZeroPad2d(_ConstantPadNd):
    """Pad the last two axes with zeros."""

    _n = 2

    def __init__(self, padding):
        super().__init__(padding, 0)


class _ModePadNd(Cell):
    """Non-constant padding of the last n axes; the input may lack the batch axis."""

    _n = 1
    _mode = "reflect"

    def __init__(self, padding):
        super().__init__()
        owner = self.cls_name
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * (2 * self._n)
        if not isinstance(padding, tuple):
            raise TypeError(f"For '{owner}' the input 'padding' must be an integer or tuple, but got "
                            f"{type(padding).__name__}")
        if len(padding) % 2:
            raise ValueError(f"For '{owner}' the length of input 'padding' must be divisible by 2, but got padding of "
                             f"length {len(padding)}. ")
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in padding):
            raise TypeError(f"For '{owner}' every element in 'padding' must be integer, but got {padding}. ")
        if not all(p >= 0 for p in padding):
            raise ValueError(f"For '{owner}' every element in 'padding' must be >= 0. but got {padding}. ")
        if len(padding) > 2 * self._n:
            raise ValueError(f"For '{owner}', 'padding' can hold at most {2 * self._n} values, but got {padding}.")
        self.padding = padding

    def construct(self, x):
        if x.ndim < self._n + 1:
            raise ValueError(f"For '{self.cls_name}', the input must have at least {self._n + 1} dimensions, but got "
                             f"shape {list(x.shape)}.")
        return pad_nd.pad_last(x, self.padding, self._mode, self.cls_name)

    def extend_repr(self) -> str:
        return f"padding={self.padding}"


class ReflectionPad1d(_ModePadNd):
    """Mirror the last axis without repeating the edge: padding (left, right)."""

    _n, _mode = 1, "reflect"


class ReflectionPad2d(_ModePadNd):
    _n, _mode = 2, "reflect"


class ReflectionPad3d(_ModePadNd):
    _n, _mode = 3, "reflect"


class ReplicationPad1d(_ModePadNd):
    """Repeat the edge values of the last axis: padding (left, right)."""

    _n, _mode = 1, "edge"


class ReplicationPad2d(_ModePadNd):
    _n, _mode = 2, "edge"


class ReplicationPad3d(_ModePadNd):
    _n, _mode = 3, "edge"
