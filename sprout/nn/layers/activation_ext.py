"""More activation cells (CELU, SeLU, Softmin, Softmax2d, Hardtanh, Tanhshrink, HShrink, SoftShrink, Threshold, GLU,
PReLU, RReLU, LRN), composed from existing primitives; argument rules as MindSpore's."""
from __future__ import annotations

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Parameter, Tensor
from .. import _check as V
from ..cell import Cell
from .activation import _ACTIVATIONS

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _number(v, name: str, owner: str):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"For '{owner}', the type of '{name}' should be one of '['float', 'int']', but got type "
                        f"'{type(v).__name__}'.")
    return v


def _float_input(x, owner: str):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{owner}', the input must be a Tensor, but got {type(x).__name__}.")
    if not x.dtype.is_float:
        raise TypeError(f"For '{owner}', the input must be a float tensor, but got {x.dtype}.")
    return x


class CELU(Cell):
    """max(0, x) + min(0, alpha * (exp(x / alpha) - 1)); ``alpha`` a non-zero float."""

    def __init__(self, alpha=1.0):
        super().__init__()
        if not isinstance(alpha, float):
            raise TypeError(f"For 'CeLU', the 'alpha' must be a float, but got {type(alpha).__name__}.")
        if alpha == 0:
            raise ValueError("For primitive[CeLU], the alpha must be not equal to 0 , but got 0.")
        self.alpha = alpha

    def construct(self, x):
        x = _float_input(x, "CeLU")
        neg = ops.mul(ops.expm1(ops.div(ops.minimum(x, 0.0), self.alpha)), self.alpha)
        return ops.add(ops.relu(x), ops.minimum(neg, 0.0))


class SeLU(Cell):
    """scale * (max(0, x) + min(0, alpha * (exp(x) - 1))) with the self-normalising constants."""

    def construct(self, input_x):
        x = _float_input(input_x, "SeLU")
        neg = ops.mul(ops.expm1(ops.minimum(x, 0.0)), _SELU_ALPHA)
        return ops.mul(ops.add(ops.relu(x), neg), _SELU_SCALE)


class Softmin(Cell):
    """softmax(-x) along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, tuple)):
            raise TypeError(f"For 'Softmax', the type of 'axis' should be one of '[int, tuple of int]', but got "
                            f"{type(axis)}.")
        self.axis = axis

    def construct(self, x):
        return ops.softmax(ops.neg(x), self.axis)


class Softmax2d(Cell):
    """Softmax over the channel axis (-3) of (C, H, W) or (N, C, H, W) inputs."""

    def construct(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"For '{self.cls_name}', the in_shape must have 3 or 4 dims, but got {x.ndim}.")
        return ops.softmax(x, -3)


class Hardtanh(Cell):
    """clip(x, min_val, max_val)."""

    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        _number(min_val, "min_val", "Hardtanh")
        _number(max_val, "max_val", "Hardtanh")
        if min_val >= max_val:
            raise ValueError(f"For Hardtanh, min_val should be less than max_val,but got {min_val} and {max_val}")
        self.min_val, self.max_val = min_val, max_val

    def construct(self, x):
        return ops.minimum(ops.maximum(x, float(self.min_val)), float(self.max_val))


class Tanhshrink(Cell):
    """x - tanh(x)."""

    def construct(self, x):
        return ops.sub(x, ops.tanh(_float_input(x, "Tanhshrink")))


class HShrink(Cell):
    """x where |x| > lambd, 0 elsewhere."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = float(_number(lambd, "lambd", "HShrink"))

    def construct(self, input):  # noqa: A002 - MindSpore's argument name
        x = _float_input(input, "HShrink")
        return ops.where(ops.greater(ops.abs(x), self.lambd), x, ops.zeros_like(x))


class SoftShrink(Cell):
    """x - lambd where x > lambd, x + lambd where x < -lambd, 0 elsewhere (``lambd`` >= 0)."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = float(_number(lambd, "lambd", "SoftShrink"))
        if self.lambd < 0:
            raise ValueError(f"For 'SoftShrink', the values for lambd should be greater or equal to 0, but found "
                             f"to be [{lambd}].")

    def construct(self, input):  # noqa: A002
        x = _float_input(input, "SoftShrink")
        return ops.sub(x, ops.clamp(x, -self.lambd, self.lambd))


class Threshold(Cell):
    """x where x > threshold, ``value`` elsewhere."""

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = _number(threshold, "thr", "threshold")
        self.value = _number(value, "value", "threshold")

    def construct(self, input_x):
        x = input_x
        return ops.where(ops.greater(x, self.threshold), x, ops.fill(x.dtype, x.shape, self.value))


class GLU(Cell):
    """a * sigmoid(b) where (a, b) are the two halves of x along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        V.type_of(axis, int, "axis", "Split")
        self.dim = axis

    def construct(self, x):
        size = x.shape[self.dim]
        if size % 2:
            raise ValueError(f"For 'GLU', the size {size} of axis {self.dim} must be even.")
        a, b = ops.split(x, size // 2, self.dim)
        return ops.mul(a, ops.sigmoid(b))


class PReLU(Cell):
    """x where x > 0, w * x elsewhere, with a learnable slope per channel (axis 1) named ``a``."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        owner = self.cls_name
        V.positive_int(channel, "channel", owner)
        if isinstance(w, (float, np.float32)):
            w = Tensor(np.full((channel,), w, np.float32))
        elif isinstance(w, list):
            if len(w) != channel:
                raise ValueError(f"For '{owner}', the length of 'w' must be equal to the 'channel' when the 'w' is a "
                                 f"list, but got the length of 'w': {len(w)}, the 'channel': {channel}.")
            for item in w:
                if not isinstance(item, (float, np.float32)):
                    raise ValueError(f"For '{owner}', all elements in 'w' must be float when the 'w' is a list, but "
                                     f"got {item}.")
            w = Tensor(np.array(w, np.float32))
        elif isinstance(w, Tensor):
            if w.dtype not in (mstype.float16, mstype.float32):
                raise ValueError(f"For '{owner}', the dtype of 'w' must be float16 or float32 when the 'w' is a "
                                 f"tensor, but got {w.dtype}.")
            if w.ndim != 1 or w.shape[0] != channel:
                raise ValueError(f"For '{owner}', the dimension of 'w' must be 1, and the elements number should be "
                                 f"equal to the 'channel' when the 'w' is a tensor, but got 'w' shape {w.shape}, "
                                 f"the 'channel' {channel}.")
        else:
            raise TypeError(f"For '{owner}', the 'w' only supported float, list and tensor, but got "
                            f"{type(w).__name__}.")
        self.channel = channel
        self.w = Parameter(w, name="a")

    def construct(self, x):
        w = ops.cast(self.w, x.dtype)
        if x.ndim >= 2 and self.channel > 1:
            if x.shape[1] != self.channel:
                raise ValueError(f"For 'PReLU', the weight of {self.channel} channels does not match the input's "
                                 f"channel axis of {x.shape[1]}.")
            w = ops.reshape(w, (1, self.channel) + (1,) * (x.ndim - 2))
        return ops.where(ops.greater(x, 0.0), x, ops.mul(x, w))


class RReLU(Cell):
    """x where x >= 0, a * x elsewhere with a drawn uniformly from [lower, upper] for every element (MindSpore
    draws in every call, training or not)."""

    def __init__(self, lower=1 / 8, upper=1 / 3):
        super().__init__()
        _number(upper, "upper", self.cls_name)
        _number(lower, "lower", self.cls_name)
        if lower > upper:
            raise ValueError(f"For {self.cls_name}, the value of 'upper' must be greater than or equal to 'lower', but "
                             f"got upper: {upper}, lower: {lower}. ")
        self.lower, self.upper = float(lower), float(upper)

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise TypeError(f"For 'rrelu', the input must be a Tensor, but got {type(x)}.")
        slope = ops.cast(ops.uniform(x.shape, Tensor(self.lower, mstype.float32),
                                     Tensor(self.upper, mstype.float32)), x.dtype)
        return ops.where(ops.less(x, 0.0), ops.mul(x, slope), x)


class LRN(Cell):
    """Local response normalisation across channels: x / (bias + alpha * sum of x^2 over the 2r+1 neighbouring
    channels) ^ beta, on (N, C, H, W)."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        super().__init__()
        V.type_of(depth_radius, int, "depth_radius", "LRN")
        for name, v in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            V.type_of(v, float, name, "LRN")
        V.non_negative_int(depth_radius, "depth_radius", "LRN")
        V.one_of(norm_region, ("ACROSS_CHANNELS",), "norm_region", "LRN")
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta

    def construct(self, input_x):
        x = _float_input(input_x, "LRN")
        if x.ndim != 4:
            raise ValueError(f"For 'LRN', the input must be 4-D (N, C, H, W), but got shape {list(x.shape)}.")
        r, c = self.depth_radius, x.shape[1]
        sq = ops.pad_raw(ops.square(x), ((0, 0), (r, r), (0, 0), (0, 0)), 0)
        total = None
        for i in range(2 * r + 1):
            part = sq[:, i:i + c]
            total = part if total is None else ops.add(total, part)
        scale = ops.pow(ops.add(ops.mul(total, self.alpha), self.bias), self.beta)
        return ops.div(x, scale)


_ACTIVATIONS.update({
    "softmin": Softmin, "softmax2d": Softmax2d, "rrelu": RReLU, "tanhshrink": Tanhshrink, "hardtanh": Hardtanh,
    "prelu": PReLU, "softshrink": SoftShrink, "hshrink": HShrink, "threshold": Threshold, "celu": CELU,
    "selu": SeLU, "glu": GLU,
})
