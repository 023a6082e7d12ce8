"""Parameter initializers (``mindspore.common.initializer``): Normal, Uniform, HeUniform, ... and ``initializer``."""
from __future__ import annotations

import math
import numbers
import sys

import numpy as np

from .. import _seed
from .. import dtype as mstype
from ..core.tensor import Tensor

_ALIASES: dict[str, type] = {}


def _register(*aliases):
    def wrap(cls):
        _ALIASES.setdefault(cls.__name__.lower(), cls)
        for alias in aliases:
            _ALIASES.setdefault(alias, cls)
        return cls

    return wrap


class Initializer:
    """Base class: subclasses fill a NumPy array in place in ``_initialize(arr)``."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _initialize(self, arr: np.ndarray) -> None:
        raise NotImplementedError("Initializer subclasses must define _initialize(arr)")

    def __call__(self, arr: np.ndarray) -> np.ndarray:
        self._initialize(arr)
        return arr

    def init_data(self, shape, dtype=mstype.float32) -> np.ndarray:
        """A new array of ``shape`` and ``dtype`` filled by this initializer (used by ``Tensor(init=...)``)."""
        dt = mstype.to_dtype(dtype)
        arr = np.zeros(tuple(shape), dt.np)
        self._initialize(arr)
        return arr

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


def _fill(arr: np.ndarray, values) -> None:
    arr[...] = np.asarray(values).astype(arr.dtype, copy=False)


def _fans(shape) -> tuple[int, int]:
    """(fan_in, fan_out) of a weight: dims 0/1 are out/in channels, the rest is the receptive field."""
    if len(shape) < 2:
        raise ValueError(f"'fan_in' and 'fan_out' can not be computed for tensor with fewer than 2 dimensions, "
                         f"but got dimensions {len(shape)}.")
    field = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * field, shape[0] * field


def _gain(nonlinearity: str, negative_slope) -> float:
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                        "conv_transpose3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if negative_slope is None else negative_slope
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise ValueError(f"For 'HeUniform', 'negative_slope' {slope!r} is not a valid number.")
        return math.sqrt(2.0 / (1 + slope ** 2))
    raise ValueError(f"For 'HeUniform', the argument 'nonlinearity' should be one of ['sigmoid', 'tanh', 'relu' or "
                     f"'leaky_relu'], but got {nonlinearity}.")


def _fan(shape, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"'mode' {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _fans(shape)
    return fan_in if mode == "fan_in" else fan_out


def _uniform(arr, low, high):
    _fill(arr, _seed.rng().uniform(low, high, arr.shape))


def _normal(arr, mean, sigma):
    if sigma < 0:
        raise ValueError("sigma < 0")
    _fill(arr, _seed.rng().normal(mean, sigma, arr.shape))


@_register("zeros")
class Zero(Initializer):
    """All zeros."""

    def _initialize(self, arr):
        arr.fill(0)


@_register("ones")
class One(Initializer):
    """All ones."""

    def _initialize(self, arr):
        arr.fill(1)


class Constant(Initializer):
    """Every element set to ``value``."""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _initialize(self, arr):
        _fill(arr, self.value)


@_register()
class Uniform(Initializer):
    """U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _initialize(self, arr):
        _uniform(arr, -self.scale, self.scale)


@_register()
class Normal(Initializer):
    """N(mean, sigma^2)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _initialize(self, arr):
        _normal(arr, self.mean, self.sigma)


@_register()
class TruncatedNormal(Initializer):
    """N(mean, sigma^2) restricted to [a, b] (redrawn until inside)."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _initialize(self, arr):
        if self.sigma < 0:
            raise ValueError("sigma < 0")
        rng = _seed.rng()
        out = rng.normal(self.mean, self.sigma, arr.shape)
        bad = (out < self.a) | (out > self.b)
        for _ in range(100):
            if not bad.any():
                break
            out[bad] = rng.normal(self.mean, self.sigma, int(bad.sum()))
            bad = (out < self.a) | (out > self.b)
        _fill(arr, np.clip(out, self.a, self.b))


@_register("xavier_uniform")
class XavierUniform(Initializer):
    """U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        _uniform(arr, -bound, bound)


@_register("xavier_normal")
class XavierNormal(Initializer):
    """N(0, s^2) with s = gain * sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        _normal(arr, 0.0, self.gain * math.sqrt(2.0 / float(fan_in + fan_out)))


@_register("he_uniform")
class HeUniform(Initializer):
    """Kaiming uniform: U(-b, b) with b = gain * sqrt(3 / fan)."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _initialize(self, arr):
        std = _gain(self.nonlinearity, self.negative_slope) / math.sqrt(_fan(arr.shape, self.mode))
        bound = math.sqrt(3.0) * std
        _uniform(arr, -bound, bound)


@_register("he_normal")
class HeNormal(Initializer):
    """Kaiming normal: N(0, s^2) with s = gain / sqrt(fan)."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def _initialize(self, arr):
        std = _gain(self.nonlinearity, self.negative_slope) / math.sqrt(_fan(arr.shape, self.mode))
        _normal(arr, 0.0, std)


@_register()
class Identity(Initializer):
    """A 2-D identity matrix (ones on the main diagonal)."""

    def _initialize(self, arr):
        if arr.ndim != 2:
            raise ValueError(f"For Identity initializer, the dimension of the initialized tensor should be 2, "
                             f"but got {arr.ndim}.")
        _fill(arr, np.eye(arr.shape[0], arr.shape[1]))


@_register()
class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix scaled by ``gain`` (trailing dims flattened)."""

    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def _initialize(self, arr):
        if arr.ndim < 2:
            raise ValueError(f"For Orthogonal initializer, the dimension of the initialized tensor should be at "
                             f"least 2, but got {arr.ndim}.")
        rows, cols = arr.shape[0], int(np.prod(arr.shape[1:]))
        flat = _seed.rng().normal(0.0, 1.0, (rows, cols))
        if rows < cols:
            flat = flat.T
        q, r = np.linalg.qr(flat)
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        _fill(arr, self.gain * q.reshape(arr.shape))


@_register()
class VarianceScaling(Initializer):
    """Scale-aware init: ``scale / fan`` variance from a (truncated) normal or a uniform distribution."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        if scale <= 0:
            raise ValueError(f"For VarianceScaling, 'scale' must be positive, got {scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"For VarianceScaling, 'mode' must be fan_in, fan_out or fan_avg, got {mode}.")
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"For VarianceScaling, unknown 'distribution' {distribution}.")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _initialize(self, arr):
        fan_in, fan_out = _fans(arr.shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        var = self.scale / max(1.0, fan)
        if self.distribution == "uniform":
            bound = math.sqrt(3.0 * var)
            _uniform(arr, -bound, bound)
        elif self.distribution == "untruncated_normal":
            _normal(arr, 0.0, math.sqrt(var))
        else:
            std = math.sqrt(var) / 0.87962566103423978
            TruncatedNormal(std, 0.0, -2 * std, 2 * std)._initialize(arr)


def initializer(init, shape=None, dtype=mstype.float32) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` filled by ``init`` (an Initializer, its alias string such as
    ``"normal"``/``"zeros"``/``"he_uniform"``, a number, or a Tensor returned unchanged)."""
    if not isinstance(init, (Tensor, numbers.Number, str, Initializer)):
        raise TypeError(f"For 'initializer', the type of the 'init' argument should be 'Tensor', 'number', 'string' "
                        f"or 'initializer', but got {type(init)}.")
    if isinstance(init, Tensor):
        if shape is not None:
            want = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
            if tuple(init.shape) != want:
                raise ValueError(f"For 'initializer', the shape of the 'init' argument should be same as the argument "
                                 f"'shape', but got the 'init' shape {list(init.shape)} and the 'shape' {list(want)}.")
        return init
    if shape is None:
        raise ValueError("For 'initializer', 'shape' is required unless 'init' is a Tensor.")
    if isinstance(shape, numbers.Number):
        shape = (shape,)
    shape = tuple(shape)
    for d in shape:
        if not isinstance(d, (int, np.integer)) or d <= 0:
            raise ValueError(f"For 'initializer', the argument 'shape' is invalid, the value of 'shape' must be "
                             f"positive integer, but got {shape}")
    if isinstance(init, str):
        cls = _ALIASES.get(init.lower())
        if cls is None:
            raise ValueError(f"For 'initializer', the class corresponding to '{init}' was not found.")
        init = cls()
    elif isinstance(init, numbers.Number):
        init = Constant(init)
    dt = mstype.to_dtype(dtype)
    lazy_init = sys.modules.get("sprout.core.lazy_init")  # imported by nn.no_init_parameters, only then active
    if lazy_init is not None and lazy_init.deferring():  # the values are made on first use
        return lazy_init.pending_tensor(lambda: init.init_data(shape, dt), shape, dt, init)
    out = Tensor.__new__(Tensor)
    out._data = init.init_data(shape, dt)
    return out


__all__ = ["Initializer", "initializer", "TruncatedNormal", "Normal", "Uniform", "HeUniform", "HeNormal",
           "XavierUniform", "XavierNormal", "One", "Zero", "Constant", "Identity", "Orthogonal", "VarianceScaling"]
