"""Pooling layers MaxPool1d/2d/3d and AvgPool1d/2d/3d with MindSpore's pad modes ("valid", "same", "pad", any case)
and argument rules; 1-D and 3-D pools are composites over the 2-D MaxPool/AvgPool primitives (ops/pool_nd.py)."""
from __future__ import annotations

from ... import ops
from ...ops import nn_functional as NF
from ...ops import pool_nd as PN
from ...ops.pool_ops import MAXPOOL_ARGMAX
from ...core.dispatch import bind
from .. import _check as V
from ..cell import Cell


class _PoolNd(Cell):
    """Shared checks: pad_mode (str, any case), kernel_size and stride (positive int or tuple of them)."""

    def __init__(self, kernel_size, stride, pad_mode, data_format="NCHW"):
        super().__init__()
        owner = self.cls_name
        V.type_of(pad_mode, str, "pad_mode", owner)
        self.pad_mode = V.one_of(pad_mode.upper(), ("VALID", "SAME", "PAD"), "pad_mode", owner)
        self.format = V.one_of(data_format, ("NCHW", "NHWC"), "format", owner)
        if data_format == "NHWC":
            raise ValueError(f"For '{owner}', the 'NHWC' format is only supported on GPU in MindSpore; sprout runs "
                             "on CPU and supports 'NCHW'.")
        self.kernel_size = self._int_or_tuple("kernel_size", kernel_size)
        self.stride = self._int_or_tuple("stride", stride)

    def _int_or_tuple(self, name: str, value):
        V.type_of(value, (int, tuple), name, self.cls_name)
        items = (value,) if isinstance(value, int) else value
        if not items or any(not isinstance(v, int) or isinstance(v, bool) or v <= 0 for v in items):
            raise ValueError(f"For '{self.cls_name}', the '{name}' must be an positive int number or a tuple, but "
                             f"got {value}")
        return value[0] if isinstance(value, tuple) and len(value) == 1 else value

    def _nd(self, name: str, value, n: int) -> tuple:
        if isinstance(value, int):
            return (value,) * n
        if len(value) != n:
            raise ValueError(f"For {self.cls_name}, the length of {name} must be equal to {n}, but got {len(value)}.")
        return tuple(value)

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, pad_mode={self.pad_mode}"


def _max_padding(padding, nd: int, owner: str) -> tuple:
    """MaxPool's symmetric padding: an int or a tuple of 1 or ``nd`` non-negative ints."""
    V.type_of(padding, (int, tuple, list), "padding", owner)
    pads = (padding,) if isinstance(padding, int) else tuple(padding)
    for p in pads:
        V.non_negative_int(p, "padding", owner)
    if len(pads) == 1:
        return pads * nd
    if len(pads) != nd:
        raise ValueError(f"For {owner}, the length of padding must equal to {nd}, but got {len(pads)}.")
    return pads


def _dilation(dilation, nd: int, owner: str) -> tuple:
    if isinstance(dilation, int) and not isinstance(dilation, bool):
        return (dilation,) * nd
    if isinstance(dilation, tuple) and len(dilation) in (1, nd):
        return dilation * nd if len(dilation) == 1 else dilation
    if isinstance(dilation, tuple):
        raise ValueError(f"For {owner}, the length of 'dilation' must be 1 or {nd}, but got {len(dilation)}.")
    raise ValueError(f"For {owner}, the 'dilation' must be int or tuple, but got {type(dilation)}.")


def _avg_padding(padding, nd: int, owner: str) -> tuple:
    """AvgPool's padding: an int or a tuple of 1 or ``nd`` ints, each applied to both sides of its axis."""
    V.type_of(padding, (int, tuple, list), "padding", owner)
    pads = (padding,) if isinstance(padding, int) else tuple(padding)
    for p in pads:
        V.non_negative_int(p, "padding", owner)
    if len(pads) == 1:
        pads = pads * nd
    elif len(pads) != nd:
        raise ValueError(f"For {owner}, the padding must be a int or tuple/list contains 1 or {nd} int, but got "
                         f"tuple/list with length:{len(pads)}.")
    return tuple(p for p in pads for _ in range(2))


def _batched(x, rank: int, fn):
    """Run ``fn`` on a batched input, adding (and removing) the batch axis for an unbatched one."""
    if x.ndim == rank - 1:
        out = fn(ops.expand_dims(x, 0))
        return tuple(ops.squeeze(o, 0) for o in out) if isinstance(out, tuple) else ops.squeeze(out, 0)
    return fn(x)


class MaxPool2d(_PoolNd):
    """Max over kernel_size windows of (N, C, H, W); pad_mode "pad" adds padding, dilation, ceil_mode and
    return_indices (Int64 index into each H*W plane)."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        owner = self.cls_name
        self.return_indices, self.ceil_mode = return_indices, ceil_mode
        k, s = self._nd("kernel_size", self.kernel_size, 2), self._nd("stride", self.stride, 2)
        if self.pad_mode == "PAD":
            self.padding = _max_padding(padding, 2, owner)
            self.dilation = _dilation(dilation, 2, owner)
            pads = (self.padding[0], self.padding[0], self.padding[1], self.padding[1])
        else:
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"For {owner}, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                                 "can not be set to non-default value when pad_mode is not 'pad', "
                                 f"but got pad_mode:{pad_mode}.")
            self.padding, self.dilation, pads = padding, dilation, (0, 0, 0, 0)
        self._attrs = {"kernel": k, "stride": s, "dilation": self._nd("dilation", self.dilation, 2),
                       "pad_mode": self.pad_mode.lower(), "pad": pads, "ceil_mode": bool(ceil_mode)}

    def _pool(self, x):
        out = NF.max_pool_raw(x, **self._attrs)
        return (out, bind(MAXPOOL_ARGMAX, (x,), self._attrs)) if self.return_indices else out

    def construct(self, x):
        return _batched(x, 4, self._pool)


class MaxPool1d(_PoolNd):
    """Max pooling of (N, C, L) (or (C, L)); pad_mode "pad" adds padding, dilation, ceil_mode, return_indices."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode)
        owner = self.cls_name
        V.int_value(self.kernel_size, "kernel_size", owner, 1)
        V.int_value(self.stride, "stride", owner, 1)
        self.return_indices, self.ceil_mode = return_indices, ceil_mode
        if self.pad_mode == "PAD":
            self.padding = _max_padding(padding, 1, owner)[0]
            self.dilation = _dilation(dilation, 1, owner)[0]
        else:
            if padding != 0 or dilation != 1 or return_indices or ceil_mode:
                raise ValueError(f"For {owner}, the parameter 'padding', 'dilation', 'return_indices', 'ceil_mode' "
                                 "can not be set to non-default value when pad_mode is not 'pad', "
                                 f"but got pad_mode:{pad_mode}.")
            self.padding, self.dilation = 0, 1

    def _pool(self, x):
        if x.ndim != 3:
            raise ValueError(f"For '{self.cls_name}', the input must has 3 dim, but got {x.ndim}")
        return PN.pool1d_raw(x, "max", self.kernel_size, self.stride, self.pad_mode.lower(), self.padding,
                             self.dilation, self.ceil_mode, return_indices=self.return_indices)

    def construct(self, x):
        return _batched(x, 3, self._pool)


class MaxPool3d(_PoolNd):
    """Max pooling of (N, C, D, H, W) (or (C, D, H, W)); ``padding`` an int or (d, h, w) on both sides."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode)
        owner = self.cls_name
        self.return_indices, self.ceil_mode = return_indices, ceil_mode
        pads = _max_padding(padding, 3, owner)
        self.dilation = _dilation(dilation, 3, owner)
        if ceil_mode and self.pad_mode != "PAD":
            raise ValueError(f"For '{owner}', when the 'pad_mode' is 'same' or 'valid', the 'ceil_mode' only "
                             "supports False.")
        if (dilation != 1 or return_indices) and self.pad_mode != "PAD":
            raise ValueError(f"For {owner}, the pad_mode must be 'pad' when dilation is not 1 or return_indices is "
                             f"True, but got pad_mode:{pad_mode}.")
        if self.pad_mode != "PAD" and any(pads):
            raise ValueError(f"For '{owner}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got "
                             f"{padding!r}.")
        self.padding = pads
        self._pads = (pads[0], pads[0], pads[1], pads[1], pads[2], pads[2])

    def _pool(self, x):
        if x.ndim != 5:
            raise ValueError(f"For '{self.cls_name}', the input must be 4-D or 5-D, but got shape {list(x.shape)}.")
        return PN.pool3d_raw(x, "max", self._nd("kernel_size", self.kernel_size, 3), self._nd("stride", self.stride, 3),
                             self.pad_mode.lower(), self._pads, self.dilation, self.ceil_mode,
                             return_indices=self.return_indices)

    def construct(self, x):
        return _batched(x, 5, self._pool)


class AvgPool2d(_PoolNd):
    """Mean over kernel_size windows of (N, C, H, W) (or (C, H, W)); "same" averages only real elements; padding,
    ceil_mode, count_include_pad and divisor_override as MindSpore's AvgPool3D path."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, data_format)
        owner = self.cls_name
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{owner}', the 'divisor_override' must be > 0, but got {divisor_override}.")
        pads = _avg_padding(padding, 2, owner)
        if self.pad_mode != "PAD" and any(pads):
            raise ValueError(f"For '{owner}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got "
                             f"{padding!r}.")
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override
        self._attrs = {"kernel": self._nd("kernel_size", self.kernel_size, 2),
                       "stride": self._nd("stride", self.stride, 2), "dilation": (1, 1),
                       "pad_mode": self.pad_mode.lower(), "pad": pads, "ceil_mode": bool(ceil_mode),
                       "count_include_pad": bool(count_include_pad), "divisor": int(divisor_override or 0)}
        # MindSpore's plain AvgPool never counts "same" padding; its AvgPool3D path (taken with ceil_mode, a
        # divisor or count_include_pad=False) counts it when count_include_pad is set
        plain = not (ceil_mode or divisor_override or not count_include_pad)
        self._count_same = self.pad_mode == "SAME" and count_include_pad and not plain

    def _pool(self, x):
        attrs = self._attrs
        if self._count_same:
            attrs = dict(attrs, pad_mode="pad", ceil_mode=False,
                         pad=PN.same_pads(x.shape[2:], attrs["kernel"], attrs["stride"]))
        return NF.avg_pool_raw(x, **attrs)

    def construct(self, x):
        return _batched(x, 4, self._pool)


class AvgPool1d(_PoolNd):
    """Mean pooling of (N, C, L) (or (C, L))."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode)
        owner = self.cls_name
        V.int_value(self.kernel_size, "kernel_size", owner, 1)
        V.int_value(self.stride, "stride", owner, 1)
        pads = _avg_padding(padding, 1, owner)
        if self.pad_mode != "PAD" and any(pads):
            raise ValueError(f"For '{owner}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got "
                             f"{padding!r}.")
        self.padding, self.ceil_mode, self.count_include_pad = pads[0], ceil_mode, count_include_pad

    def _pool(self, x):
        if x.ndim != 3:
            raise ValueError(f"For '{self.cls_name}', the input must has 3 dim, but got {x.ndim}")
        plain = not (self.ceil_mode or not self.count_include_pad)  # MindSpore's plain AvgPool path
        return PN.pool1d_raw(x, "avg", self.kernel_size, self.stride, self.pad_mode.lower(), self.padding, 1,
                             self.ceil_mode, self.count_include_pad and not (plain and self.pad_mode == "SAME"))

    def construct(self, x):
        return _batched(x, 3, self._pool)


class AvgPool3d(_PoolNd):
    """Mean pooling of (N, C, D, H, W) (or (C, D, H, W)); ``padding`` an int or (d, h, w) on both sides."""

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode)
        owner = self.cls_name
        pads = _avg_padding(padding, 3, owner)
        if divisor_override is not None and divisor_override <= 0:
            raise ValueError(f"For '{owner}', the 'divisor_override' must be > 0, but got {divisor_override}.")
        if self.pad_mode != "PAD" and any(pads):
            raise ValueError(f"For '{owner}', the 'padding' must be 0 when 'pad_mode' is not 'pad', but got "
                             f"{padding!r}.")
        self.padding, self.ceil_mode, self.count_include_pad = pads, ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def _pool(self, x):
        if x.ndim != 5:
            raise ValueError(f"For '{self.cls_name}', the input must be 4-D or 5-D, but got shape {list(x.shape)}.")
        return PN.pool3d_raw(x, "avg", self._nd("kernel_size", self.kernel_size, 3), self._nd("stride", self.stride, 3),
                             self.pad_mode.lower(), self.padding, (1, 1, 1), self.ceil_mode,
                             self.count_include_pad, int(self.divisor_override or 0))

    def construct(self, x):
        return _batched(x, 5, self._pool)
