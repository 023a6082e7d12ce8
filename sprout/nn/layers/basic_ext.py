"""More basic layers: Linear, ClipByNorm, Norm, OneHot, Unfold, Tril/Triu, MatrixDiag/MatrixDiagPart/MatrixSetDiag,
Roll, Unflatten, L1Regularizer, Upsample and the channel dropouts Dropout1d/2d/3d (MindSpore's names and rules)."""
from __future__ import annotations

import math

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...common.initializer import HeUniform, Uniform, initializer
from ...core.tensor import Parameter, Tensor
from .. import _check as V
from ..cell import Cell


class Linear(Cell):
    """y = x @ weight.T + bias for inputs of any rank (MindSpore 2.x's PyTorch-style dense layer)."""

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None):
        super().__init__()
        owner = self.cls_name
        self.in_features = V.positive_int(in_features, "in_features", owner)
        self.out_features = V.positive_int(out_features, "out_features", owner)
        self.has_bias = V.bool_value(bias, "has_bias", owner)
        dtype = mstype.float32 if dtype is None else dtype
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_features, in_features):
            raise ValueError(f"For '{owner}', weight init shape error: 'weight_init' has shape "
                             f"{list(weight_init.shape)}, expected [{out_features}, {in_features}].")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_features, in_features], dtype=dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_features,):
                raise ValueError(f"For '{owner}', bias init shape error: 'bias_init' has shape "
                                 f"{list(bias_init.shape)}, expected [{out_features}].")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_features))
            self.bias = Parameter(initializer(bias_init, [out_features], dtype=dtype), name="bias")

    def construct(self, x):
        return ops.dense(x, self.weight, self.bias)

    def extend_repr(self) -> str:
        s = f"input_features={self.in_features}, output_features={self.out_features}"
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


def _l2(x, axis):
    return ops.sqrt(ops.sum(ops.square(x), axis, keepdim=True))


class ClipByNorm(Cell):
    """x * clip_norm / max(||x||_2 over ``axis``, clip_norm): rescales x so its L2 norm is at most clip_norm."""

    def __init__(self, axis=None):
        super().__init__()
        if axis is not None:
            V.type_of(axis, (int, tuple, list), "axis", self.cls_name)
        self.axis = axis

    def construct(self, x, clip_norm):
        if not isinstance(x, Tensor) or not isinstance(clip_norm, Tensor):
            raise TypeError(f"For '{self.cls_name}', the input args must be tensor.")
        axis = tuple(range(x.ndim)) if self.axis is None else self.axis
        norm = _l2(ops.cast(x, mstype.float32), axis)
        clip = ops.cast(clip_norm, mstype.float32)
        out = ops.div(ops.mul(ops.cast(x, mstype.float32), clip), ops.maximum(norm, clip))
        return ops.cast(out, x.dtype)


class Norm(Cell):
    """sqrt(sum(x^2)) over ``axis`` (() = every axis); without keep_dims every size-1 axis is squeezed, as the
    MindSpore cell does."""

    def __init__(self, axis=(), keep_dims=False):
        super().__init__()
        V.bool_value(keep_dims, "keep_dims", self.cls_name)
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        axis = tuple(range(x.ndim)) if self.axis == () else self.axis
        out = _l2(x, axis)
        if not self.keep_dims:
            out = ops.squeeze(out, self.axis) if self.axis != () else ops.squeeze(out)
        return out

    def extend_repr(self) -> str:
        return f"axis={self.axis}, keep_dims={self.keep_dims}"


class OneHot(Cell):
    """One-hot encoding of int indices along ``axis`` with on/off values of ``dtype``."""

    def __init__(self, axis=-1, depth=1, on_value=1.0, off_value=0.0, dtype=mstype.float32):
        super().__init__()
        V.type_of(axis, int, "axis", "OneHot")
        V.type_of(depth, int, "depth", "OneHot")
        if depth < 0:
            raise ValueError(f"For 'OneHot', the 'depth' must be >= 0, but got {depth}.")
        self.axis, self.depth, self.dtype = axis, depth, dtype
        self.on_value, self.off_value = on_value, off_value

    def construct(self, indices):
        return ops.one_hot(indices, self.depth, Tensor(self.on_value, self.dtype), Tensor(self.off_value, self.dtype),
                           self.axis)


def _patch_arg(name: str, value, owner: str) -> tuple:
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"For '{owner}', the type of '{name}s' should be one of '['tuple', 'list']', but got type "
                        f"'{type(value).__name__}'.")
    if len(value) != 4 or value[0] != 1 or value[3] != 1:
        raise ValueError(f"For '{owner}' the format of '{name}s' must be [1, {name}_row, {name}_col, 1], but got "
                         f"{value}.")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value[1:3]):
        raise ValueError(f"For '{owner}' the {name}_row and {name}_col in '{name}s' must be an positive integer "
                         f"number, but got {name}_row is {value[1]}, {name}_col is {value[2]}")
    return (value[1], value[2])


class Unfold(Cell):
    """Image patches of (N, C, H, W): (N, kh * kw * C, out_h, out_w), the channel axis ordered (row, col, channel);
    ``ksizes``/``strides``/``rates`` are [1, r, c, 1]; ``padding`` "valid" or "same"."""

    def __init__(self, ksizes, strides, rates, padding="valid"):
        super().__init__()
        owner = self.cls_name
        self.ksizes = _patch_arg("ksize", ksizes, owner)
        self.strides = _patch_arg("stride", strides, owner)
        self.rates = _patch_arg("rate", rates, owner)
        if not isinstance(padding, str) or padding.upper() not in ("VALID", "SAME"):
            raise ValueError(f"For '{owner}', the 'padding' must be 'valid' or 'same', but got {padding!r}.")
        self.padding = padding.upper()

    def construct(self, input_x):
        x = input_x
        if x.ndim != 4:
            raise ValueError(f"For '{self.cls_name}', the input must be 4-D (N, C, H, W), but got shape "
                             f"{list(x.shape)}.")
        n, c, h, w = x.shape
        (kh, kw), (sh, sw), (rh, rw) = self.ksizes, self.strides, self.rates
        eh, ew = (kh - 1) * rh + 1, (kw - 1) * rw + 1
        if self.padding == "SAME":
            oh, ow = -(-h // sh), -(-w // sw)
            ph, pw = max((oh - 1) * sh + eh - h, 0), max((ow - 1) * sw + ew - w, 0)
            x = ops.pad_raw(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)), 0)
        else:
            oh, ow = (h - eh) // sh + 1, (w - ew) // sw + 1
            if oh <= 0 or ow <= 0:
                raise ValueError(f"For '{self.cls_name}', the kernel {self.ksizes} with rates {self.rates} does not "
                                 f"fit the input {list(input_x.shape)}.")
        taps = [x[:, :, i * rh:i * rh + (oh - 1) * sh + 1:sh, j * rw:j * rw + (ow - 1) * sw + 1:sw]
                for i in range(kh) for j in range(kw)]
        return ops.reshape(ops.stack(taps, 1), (n, kh * kw * c, oh, ow))


def _tri_mask(x, k, lower: bool):
    if not isinstance(k, int) or isinstance(k, bool):
        raise TypeError(f"For '{'tril' if lower else 'triu'}', the 'k value' must be int, but got {type(k).__name__}.")
    if x.ndim < 1:
        raise ValueError(f"For '{'tril' if lower else 'triu'}', the x rank must be >= 1, but got {x.ndim}.")
    rows, cols = (x.shape[-2], x.shape[-1]) if x.ndim >= 2 else (1, x.shape[-1])
    m = np.tril(np.ones((rows, cols)), k) if lower else np.triu(np.ones((rows, cols)), k)
    return Tensor(m.reshape((cols,) if x.ndim == 1 else (rows, cols)).astype(np.float32))


class Tril(Cell):
    """The lower triangle (on and below diagonal k) of the last two axes; the rest zero."""

    def construct(self, x, k=0):
        return ops.cast(ops.mul(ops.cast(x, mstype.float32), _tri_mask(x, k, True)), x.dtype)


class Triu(Cell):
    """The upper triangle (on and above diagonal k) of the last two axes; the rest zero."""

    def construct(self, x, k=0):
        return ops.cast(ops.mul(ops.cast(x, mstype.float32), _tri_mask(x, k, False)), x.dtype)


class MatrixDiag(Cell):
    """(..., n) -> (..., n, n) with the input on the diagonal."""

    def construct(self, input_x):
        n = input_x.shape[-1]
        return ops.mul(ops.expand_dims(input_x, -1), Tensor(np.eye(n, dtype=input_x.dtype.np)))


class MatrixDiagPart(Cell):
    """(..., m, n) -> (..., m, n) keeping only the main diagonal (MindSpore's cell multiplies by an eye mask)."""

    def construct(self, input_x):
        if input_x.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the x rank must be >= 2, but got {input_x.ndim}.")
        m, n = input_x.shape[-2:]
        return ops.mul(input_x, Tensor(np.eye(m, n, dtype=input_x.dtype.np)))


class MatrixSetDiag(Cell):
    """Replace the main diagonal of (..., m, n) by ``diagonal`` (..., min(m, n))."""

    def construct(self, input_x, diagonal):
        if input_x.ndim < 2:
            raise ValueError(f"For '{self.cls_name}', the x rank must be >= 2, but got {input_x.ndim}.")
        m, n = input_x.shape[-2:]
        k = min(m, n)
        eye = Tensor(np.eye(m, n, dtype=input_x.dtype.np))
        # (..., 1, n): column j holds diagonal[j]; the eye mask puts it at (j, j)
        spread = ops.matmul(ops.expand_dims(diagonal, -2), Tensor(np.eye(k, n, dtype=input_x.dtype.np)))
        return ops.add(ops.mul(input_x, 1 - eye), ops.mul(spread, eye))


class Roll(Cell):
    """Shift elements along ``axis`` by ``shift`` (ints or equal-length sequences), wrapping around."""

    def __init__(self, shift, axis):
        super().__init__()
        owner = self.cls_name
        V.type_of(shift, (int, tuple, list), "shift", owner)
        V.type_of(axis, (int, tuple, list), "axis", owner)
        self.shift = list(shift) if isinstance(shift, (list, tuple)) else [shift]
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else [axis]
        if len(self.shift) != len(self.axis):
            raise ValueError(f"For '{owner}', the shape of 'shift' and the shape of 'axis' must be the same, but got "
                             f"the length of 'shift' {len(self.shift)} and the length of 'axis' {len(self.axis)}.")

    def construct(self, input_x):
        x = input_x
        for shift, axis in zip(self.shift, self.axis):
            if not -x.ndim <= axis < x.ndim:
                raise ValueError(f"For '{self.cls_name}', the 'axis' must be in range of [{-x.ndim}, {x.ndim}), but "
                                 f"got {axis}.")
            size = x.shape[axis]
            idx = (np.arange(size) - shift) % size
            x = ops.gather(x, Tensor(idx.astype(np.int32)), axis % x.ndim)
        return x


class Unflatten(Cell):
    """Split ``axis`` into ``unflattened_size``."""

    def __init__(self, axis, unflattened_size):
        super().__init__()
        V.type_of(axis, int, "axis", "Unflatten")
        V.type_of(unflattened_size, (list, tuple), "unflattended_size", "Unflatten")
        self.axis, self.unflattened_size = axis, tuple(unflattened_size)

    def construct(self, input_x):
        shape = tuple(input_x.shape)
        new = shape[:self.axis] + self.unflattened_size
        if self.axis != -1:
            new += shape[self.axis + 1:]
        return ops.reshape(input_x, new)


class L1Regularizer(Cell):
    """scale * sum(|weights|)."""

    def __init__(self, scale):
        super().__init__()
        owner = self.cls_name
        V.type_of(scale, (int, float), "scale", owner)
        if scale <= 0:
            raise ValueError(f"For '{owner}', the 'scale' must be greater than 0, but got {scale}.")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"For '{owner}', the 'scale' can not be INF or NAN, but got {scale}.")
        self.scale = Tensor(scale, mstype.float32)

    def construct(self, weights):
        return ops.mul(self.scale, ops.sum(ops.abs(weights)))


class _ChannelDropout(Cell):
    """Zero whole channels (every value of one (sample, channel)) with probability p while training; the kept ones
    are scaled by 1 / (1 - p)."""

    _ranks: tuple = ()
    _spatial = 1

    def __init__(self, p=0.5):
        super().__init__()
        V.type_of(p, float, "p", self.cls_name)
        if p < 0 or p > 1:
            raise ValueError(f"For '{self.cls_name}', the 'p' must be a number in range [0, 1], but got {p}.")
        self.p = p
        self.keep_prob = 1.0 - p

    def construct(self, x):
        if not self.training or self.p == 0:
            return x
        if x.ndim not in self._ranks:
            raise ValueError(f"For '{self.cls_name}', the input must be of rank {' or '.join(map(str, self._ranks))}, "
                             f"but got shape {list(x.shape)}.")
        if self.p == 1:
            return ops.zeros_like(x)
        lead = x.ndim - self._spatial  # (N, C) or just (C,) for an unbatched input
        mask = ops.dropout(ops.ones(tuple(x.shape[:lead]) + (1,) * self._spatial, x.dtype), p=self.p)
        return ops.mul(x, mask)

    def extend_repr(self) -> str:
        return f"p={self.p}"


class Dropout1d(_ChannelDropout):
    """Channel dropout of (N, C, L) or (C, L)."""

    _ranks = (2, 3)


class Dropout2d(_ChannelDropout):
    """Channel dropout of (N, C, H, W)."""

    _ranks, _spatial = (4,), 2


class Dropout3d(_ChannelDropout):
    """Channel dropout of (N, C, D, H, W)."""

    _ranks, _spatial = (5,), 3


class Upsample(Cell):
    """Resize the spatial axes by ``size`` or ``scale_factor`` with ``mode`` ("nearest", "linear", "bilinear",
    "bicubic", "trilinear", "area", ...): ``ops.interpolate`` with the same arguments."""

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode
        self.align_corners, self.recompute_scale_factor = align_corners, recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                               self.recompute_scale_factor)

    def extend_repr(self) -> str:
        return f"size={self.size}, scale_factor={self.scale_factor}, mode={self.mode}"
