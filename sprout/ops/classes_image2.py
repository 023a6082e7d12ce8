"""PascalCase primitive classes MaxPool3DWithArgmax, GridSampler3D, DepthwiseConv2dNative, ExtractImagePatches,
Dilation2D, FractionalMaxPool and FractionalAvgPool: composites over the pooling, convolution, gather and slicing
primitives."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .classes_linalg import _Flag
from .functional_image import grid_sample_nd
from .nn_functional import conv2d_raw, conv_attrs
from .pool_nd import pool3d_raw

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_NUMBERS = _FLOATS + (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8, mstype.uint16,
                      mstype.uint32, mstype.uint64)


def _ints(v, n: int, name: str, op: str, low: int = 1, four: bool = False) -> tuple:
    """An int or a tuple of ``n`` ints (or, with ``four``, (1, 1, h, w)), each >= low."""
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v,) * n
    if isinstance(v, list):
        v = tuple(v)
    if not isinstance(v, tuple) or not all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        raise TypeError(f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got {v!r}.")
    if four and len(v) == 4:
        if v[:2] != (1, 1):
            raise ValueError(f"For '{op}', a 4-element '{name}' must be (1, 1, h, w), but got {v}.")
        v = v[2:]
    if len(v) != n:
        raise ValueError(f"For '{op}', the '{name}' must have {n} elements{' (or 4)' if four else ''}, but got {v}.")
    if any(i < low for i in v):
        raise ValueError(f"For '{op}', every element of '{name}' must be >= {low}, but got {v}.")
    return v


def _tensor(x, name: str, op: str, ndim: int, dtypes=_NUMBERS) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    if x.dtype not in dtypes:
        raise TypeError(f"For '{op}', the '{name}' dtype {x.dtype} is not supported (one of "
                        f"{[str(d) for d in dtypes]}).")
    if x.ndim != ndim:
        raise ValueError(f"For '{op}', the '{name}' must be {ndim}-D, but got shape {list(x.shape)}.")
    return x


def _pad_mode(mode, op: str, allowed=("same", "valid")) -> str:
    if not isinstance(mode, str):
        raise TypeError(f"For '{op}', the 'pad_mode' must be a str, but got {type(mode).__name__}.")
    if mode.lower() not in allowed:
        raise ValueError(f"For '{op}', the 'pad_mode' must be one of {list(allowed)}, but got '{mode}'.")
    return mode.lower()


def _window_out(size: int, k: int, s: int, d: int, mode: str) -> tuple:
    """(output size, pad before, pad after) of a TensorFlow-style 'same' / 'valid' window along one axis."""
    span = d * (k - 1) + 1
    if mode == "valid":
        return (size - span) // s + 1, 0, 0
    out = -(-size // s)
    need = max(0, (out - 1) * s + span - size)
    return out, need // 2, need - need // 2


def _taps(x, kernel, stride, rates, mode, op, fill=0.0):
    """Every window tap of (N, C, H, W): a list over (i, j) in row-major kernel order of (N, C, oh, ow) strided
    slices of ``x`` padded with ``fill`` ('same') as TensorFlow places it."""
    h, w = x.shape[2], x.shape[3]
    (oh, top, bottom), (ow, left, right) = (_window_out(h, kernel[0], stride[0], rates[0], mode),
                                            _window_out(w, kernel[1], stride[1], rates[1], mode))
    if oh <= 0 or ow <= 0:
        raise ValueError(f"For '{op}', the window {kernel} with rates {rates} does not fit the input "
                         f"{list(x.shape)} (output {oh} x {ow}).")
    if top or bottom or left or right:
        x = F.pad(x, (left, right, top, bottom), value=fill)
    taps = []
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            r0, c0 = i * rates[0], j * rates[1]
            taps.append(x[:, :, r0:r0 + (oh - 1) * stride[0] + 1:stride[0], c0:c0 + (ow - 1) * stride[1] + 1:stride[1]])
    return taps


class MaxPool3DWithArgmax(_Flag):
    """``MaxPool3DWithArgmax(ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False, data_format='NCDHW',
    argmax_type=mstype.int64)(x)`` -> (output, argmax): argmax is the flat index d * H * W + h * W + w of each
    window's first maximum in its (D, H, W) volume."""

    defaults = {"ksize": None, "strides": None, "pads": None, "dilation": (1, 1, 1), "ceil_mode": False,
                "data_format": "NCDHW", "argmax_type": mstype.int64}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "MaxPool3DWithArgmax"
        if not isinstance(self.ceil_mode, bool):
            raise TypeError(f"For '{op}', the 'ceil_mode' must be a bool, but got {type(self.ceil_mode).__name__}.")
        if not isinstance(self.data_format, str):
            raise TypeError(f"For '{op}', the 'data_format' must be a str, but got {self.data_format!r}.")
        if self.data_format != "NCDHW":
            raise ValueError(f"For '{op}', the 'data_format' must be 'NCDHW', but got '{self.data_format}'.")
        if self.argmax_type not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{op}', the 'argmax_type' must be mstype.int32 or mstype.int64, but got "
                            f"{self.argmax_type}.")
        self.ksize = _ints(self.ksize, 3, "ksize", op)
        self.strides = _ints(self.strides, 3, "strides", op)
        self.pads = _ints(self.pads, 3, "pads", op, low=0)
        dil = self.dilation
        if isinstance(dil, (tuple, list)) and len(dil) == 5:  # MindSpore also takes (1, 1, d, h, w)
            dil = tuple(dil)[2:]
        self.dilation = _ints(dil, 3, "dilation", op)

    def __call__(self, x):
        op = "MaxPool3DWithArgmax"
        _tensor(x, "x", op, 5)
        p = self.pads
        for axis, (k, pad, d) in enumerate(zip(self.ksize, p, self.dilation)):
            if pad > k // 2 or d * (k - 1) + 1 > x.shape[2 + axis] + 2 * pad:
                raise ValueError(f"For '{op}', 'pads' {p} must be at most half of 'ksize' {self.ksize} and the dilated "
                                 f"window must fit the padded input {list(x.shape)}.")
        out, arg = pool3d_raw(x, "max", self.ksize, self.strides, "pad", (p[0], p[0], p[1], p[1], p[2], p[2]),
                              self.dilation, self.ceil_mode, return_indices=True)
        return out, F.cast(arg, self.argmax_type)


class GridSampler3D(_Flag):
    """``GridSampler3D(interpolation_mode='bilinear', padding_mode='zeros', align_corners=False)(input_x, grid)``:
    trilinear or nearest sampling of (N, C, D, H, W) at grid (N, Do, Ho, Wo, 3) coordinates (x, y, z)."""

    defaults = {"interpolation_mode": "bilinear", "padding_mode": "zeros", "align_corners": False}

    def __call__(self, input_x, grid):
        op = "GridSampler3D"
        _tensor(input_x, "input_x", op, 5, _FLOATS)
        _tensor(grid, "grid", op, 5, _FLOATS)
        if not isinstance(self.align_corners, bool):
            raise TypeError(f"For '{op}', the 'align_corners' must be a bool, but got {self.align_corners!r}.")
        return grid_sample_nd(input_x, grid, self.interpolation_mode, self.padding_mode, self.align_corners, op)


class DepthwiseConv2dNative(_Flag):
    """``DepthwiseConv2dNative(channel_multiplier, kernel_size, mode=3, pad_mode='valid', pad=0, stride=1,
    dilation=1, group=1)(x, w)``: each input channel convolved with its own filter; w is (1, C, kh, kw) (MindSpore
    rejects any other first dimension), so the channel multiplier is 1."""

    defaults = {"channel_multiplier": None, "kernel_size": None, "mode": 3, "pad_mode": "valid", "pad": 0,
                "stride": 1, "dilation": 1, "group": 1}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "DepthwiseConv2dNative"
        self.kernel_size = _ints(self.kernel_size, 2, "kernel_size", op)
        self.stride = _ints(self.stride, 2, "stride", op)
        self.dilation = _ints(self.dilation, 2, "dilation", op)
        for name in ("stride", "dilation"):
            v = getattr(self, name)
            if v[0] != v[1]:
                raise ValueError(f"For '{op}', the height and width of '{name}' must be equal, but got {v}.")
        pad = self.pad
        if isinstance(pad, bool) or not isinstance(pad, (int, tuple)):
            raise TypeError(f"For '{op}', the 'pad' must be an int or a tuple, but got {type(pad).__name__}.")
        pad = (pad,) * 4 if isinstance(pad, int) else pad
        if len(pad) != 4:
            raise ValueError(f"For '{op}', the 'pad' must have 4 elements, but got {pad}.")
        self.pad_mode = _pad_mode(self.pad_mode, op, ("valid", "same", "pad"))
        if self.pad_mode != "pad" and pad != (0, 0, 0, 0):
            raise ValueError(f"For '{op}', the 'pad' must be zero or (0, 0, 0, 0) when 'pad_mode' is not 'pad', but "
                             f"got {pad}.")
        if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in pad):
            raise ValueError(f"For '{op}', every 'pad' item must be a non-negative int, but got {pad}.")
        self.pad = pad
        if self.mode != 3:
            raise ValueError(f"For '{op}', the 'mode' must be 3, but got {self.mode}.")
        for name in ("channel_multiplier", "group"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"For '{op}', the '{name}' must be an int, but got {type(v).__name__}.")
            if v <= 0:
                raise ValueError(f"For '{op}', the '{name}' must be positive, but got {v}.")

    def __call__(self, x, w):
        op = "DepthwiseConv2dNative"
        _tensor(x, "x", op, 4, _FLOATS)
        _tensor(w, "w", op, 4, _FLOATS)
        if x.dtype != w.dtype:
            raise TypeError(f"For '{op}', 'x' and 'w' must have one dtype, but got {x.dtype} and {w.dtype}.")
        channels = x.shape[1]
        if w.shape[1] != channels:
            raise ValueError(f"For '{op}', x_shape[1] ({channels}) must equal w_shape[1] ({w.shape[1]}).")
        if tuple(w.shape[2:]) != self.kernel_size:
            raise ValueError(f"For '{op}', 'kernel_size' {self.kernel_size} must equal w_shape[2:4] "
                             f"{tuple(w.shape[2:])}.")
        if w.shape[0] != 1:
            raise ValueError(f"For '{op}', the batch of 'weight' must be 1, but got {w.shape[0]}.")
        if self.channel_multiplier != 1:
            raise ValueError(f"For '{op}', a 'channel_multiplier' of {self.channel_multiplier} has no filters in a "
                             f"weight of batch 1; sprout supports 1 only.")
        attrs = conv_attrs(op, self.stride, self.pad_mode, self.pad, self.dilation, channels)
        return conv2d_raw(x, F.reshape(w, (channels, 1) + self.kernel_size), **attrs)


class ExtractImagePatches(_Flag):
    """``ExtractImagePatches(ksizes, strides, rates, padding='VALID')(input_x)``: every (kh, kw) patch of (N, C, H,
    W) as (N, kh * kw * C, oh, ow); depth index (i * kw + j) * C + c (TensorFlow's NHWC patch order); 'same' pads
    zeros."""

    defaults = {"ksizes": None, "strides": None, "rates": None, "padding": "VALID"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "ExtractImagePatches"
        for name in ("ksizes", "strides", "rates"):
            v = getattr(self, name)
            if not isinstance(v, (tuple, list)) or len(v) != 4:
                raise TypeError(f"For '{op}', the '{name}' must be a tuple or list of 4 ints [1, 1, row, col], "
                                f"but got {v!r}.")
            setattr(self, name, _ints(tuple(v), 2, name, op, four=True))
        self.padding = _pad_mode(self.padding, op)

    def __call__(self, input_x):
        op = "ExtractImagePatches"
        x = _tensor(input_x, "input_x", op, 4)
        taps = _taps(x, self.ksizes, self.strides, self.rates, self.padding, op)
        n, c, oh, ow = taps[0].shape
        return F.reshape(F.stack(taps, 1), (n, len(taps) * c, oh, ow))


class Dilation2D(_Flag):
    """``Dilation2D(stride, dilation, pad_mode='SAME', data_format='NCHW')(x, filter)``: grayscale dilation,
    out(n, c, h, w) = max over (i, j) of x(n, c, s0 h + d0 i, s1 w + d1 j) + filter(c, i, j); 'same' pads with 0 as
    MindSpore's docs state (no MindSpore backend runs it)."""

    defaults = {"stride": None, "dilation": None, "pad_mode": "SAME", "data_format": "NCHW"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "Dilation2D"
        self.stride = _ints(self.stride, 2, "stride", op, four=True)
        if any(s > 255 for s in self.stride):
            raise ValueError(f"For '{op}', the 'stride' must be in [1, 255], but got {self.stride}.")
        self.dilation = _ints(self.dilation, 2, "dilation", op, four=True)
        self.pad_mode = _pad_mode(self.pad_mode, op)
        if not isinstance(self.data_format, str) or self.data_format != "NCHW":
            raise ValueError(f"For '{op}', the 'data_format' must be 'NCHW', but got {self.data_format!r}.")

    def __call__(self, x, filter):  # noqa: A002 - MindSpore's argument name
        op = "Dilation2D"
        _tensor(x, "x", op, 4)
        _tensor(filter, "filter", op, 3)
        if x.dtype != filter.dtype:
            raise TypeError(f"For '{op}', 'x' and 'filter' must have one dtype, but got {x.dtype} and "
                            f"{filter.dtype}.")
        if filter.shape[0] != x.shape[1]:
            raise ValueError(f"For '{op}', the filter must have {x.shape[1]} channels (x's), but got shape "
                             f"{list(filter.shape)}.")
        kernel = tuple(filter.shape[1:])
        taps = _taps(x, kernel, self.stride, self.dilation, self.pad_mode, op)
        shifted = [F.add(t, F.reshape(filter[:, i, j], (1, -1, 1, 1)))
                   for t, (i, j) in zip(taps, ((i, j) for i in range(kernel[0]) for j in range(kernel[1])))]
        return F.amax(F.stack(shifted, 0), 0)


class FractionalMaxPool(_Flag):
    """``FractionalMaxPool(pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0,
    seed2=0)(x)`` on NHWC ``x`` -> (y, row_pooling_sequence, col_pooling_sequence): TensorFlow's fractional max
    pooling; ``pooling_ratio`` is the list [1.0, row ratio, col ratio, 1.0]; the sequences are drawn per call (once
    per instance when ``deterministic``), from the op's own stream when seeds are set."""

    defaults = {"pooling_ratio": None, "pseudo_random": False, "overlapping": False, "deterministic": False,
                "seed": 0, "seed2": 0}
    _kind = "max"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = type(self).__name__
        ratio = self.pooling_ratio
        if not isinstance(ratio, list):
            raise TypeError(f"For '{op}', the type of 'pooling_ratio' should be 'list', but got type "
                            f"'{type(ratio).__name__}'.")
        if len(ratio) != 4:
            raise ValueError(f"For '{op}', the size of parameter 'pooling_ratio' must be 4, but got {len(ratio)}.")
        if any(isinstance(r, bool) or not isinstance(r, (int, float)) for r in ratio):
            raise TypeError(f"For '{op}', the 'pooling_ratio' must hold floats, but got {ratio}.")
        if ratio[0] != 1.0 or ratio[3] != 1.0:
            raise ValueError(f"For '{op}', the first and last elements of 'pooling_ratio' must be 1.0, but got "
                             f"{ratio}.")
        if ratio[1] < 1.0 or ratio[2] < 1.0:
            raise ValueError(f"For '{op}', the row and column pooling ratios must be >= 1.0, but got {ratio}.")
        for name in ("pseudo_random", "overlapping", "deterministic"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"For '{op}', the '{name}' must be a bool, but got {getattr(self, name)!r}.")
        from .nn_functional import seed_key
        from .primitive_classes import _INSTANCES

        instance = next(_INSTANCES)
        self.key = seed_key(op, self.seed, self.seed2, instance)
        self._fixed = None
        if self.deterministic:  # one pooling region for every call of this instance
            self._fixed = Tensor(np.int64(np.random.SeedSequence((self.seed, self.seed2, 0 if self.seed or self.seed2
                                                                  else instance)).generate_state(1)[0] >> 1))

    def __call__(self, x):
        from .nn_functional import _draw_seed
        from .pool_fractional_tf import fractional_pool_nhwc, pooling_sequence

        op = type(self).__name__
        _tensor(x, "x", op, 4, (mstype.float32, mstype.float64, mstype.int32, mstype.int64))
        h, w = x.shape[1], x.shape[2]
        oh, ow = int(h // self.pooling_ratio[1]), int(w // self.pooling_ratio[2])
        if oh <= 0 or ow <= 0:
            raise ValueError(f"For '{op}', the output size ({oh}, {ow}) of input {list(x.shape)} with pooling ratio "
                             f"{self.pooling_ratio} cannot be 0.")
        seeds = (self._fixed, self._fixed) if self._fixed is not None else (_draw_seed(self.key), _draw_seed(self.key))
        rows = pooling_sequence(seeds[0], h, oh, self.pseudo_random)
        cols = pooling_sequence(seeds[1], w, ow, self.pseudo_random)
        return fractional_pool_nhwc(x, rows, cols, self.overlapping, self._kind), rows, cols


class FractionalAvgPool(FractionalMaxPool):
    """``FractionalAvgPool(...)(x)``: FractionalMaxPool's windows averaged (integer inputs truncated toward zero)."""

    _kind = "avg"


__all__ = ["MaxPool3DWithArgmax", "GridSampler3D", "DepthwiseConv2dNative", "ExtractImagePatches", "Dilation2D",
           "FractionalMaxPool", "FractionalAvgPool"]
