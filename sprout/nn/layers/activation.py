"""Activation cells (ReLU, Sigmoid, Tanh, GELU, Softmax, LogSoftmax, LeakyReLU, ...) and ``get_activation``."""
from __future__ import annotations

from ... import ops
from ..cell import Cell


class ReLU(Cell):
    """max(x, 0)."""

    def construct(self, x):
        return ops.relu(x)


class ReLU6(Cell):
    """min(max(x, 0), 6)."""

    def construct(self, x):
        return ops.relu6(x)


class Sigmoid(Cell):
    """1 / (1 + exp(-x))."""

    def construct(self, x):
        return ops.sigmoid(x)


class Tanh(Cell):
    def construct(self, x):
        return ops.tanh(x)


class GELU(Cell):
    """GELU; ``approximate=True`` (MindSpore's default) uses the tanh form."""

    def __init__(self, approximate=True):
        super().__init__()
        if not isinstance(approximate, bool):
            raise TypeError(f"For 'GELU', 'approximate' must be a bool, but got {type(approximate).__name__}.")
        self.approximate = approximate

    def construct(self, x):
        return ops.gelu(x, approximate="tanh" if self.approximate else "none")


class FastGelu(Cell):
    def construct(self, x):
        return ops.fast_gelu(x)


class SiLU(Cell):
    """x * sigmoid(x)."""

    def construct(self, x):
        return ops.silu(x)


class LeakyReLU(Cell):
    """x if x >= 0 else alpha * x."""

    def __init__(self, alpha=0.2):
        super().__init__()
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
            raise TypeError(f"For 'leaky_relu', the type of 'alpha' should be one of '['float', 'int']', but got "
                            f"type '{type(alpha).__name__}'.")
        self.alpha = alpha

    def construct(self, x):
        return ops.leaky_relu(x, self.alpha)


class ELU(Cell):
    """x if x > 0 else exp(x) - 1 (MindSpore's Elu supports alpha == 1.0 only)."""

    def __init__(self, alpha=1.0):
        super().__init__()
        if not isinstance(alpha, float):
            raise TypeError(f"For 'Elu', the 'alpha' must be a float, but got {type(alpha).__name__}.")
        if alpha != 1.0:
            raise ValueError(f"For 'Elu', 'alpha' must be 1.0, but got {alpha}.")
        self.alpha = alpha

    def construct(self, x):
        return ops.elu(x, self.alpha)


class Softplus(Cell):
    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def construct(self, x):
        return ops.softplus(x, self.beta, self.threshold)


def _check_axis(axis, owner: str):
    if isinstance(axis, bool) or not isinstance(axis, (int, tuple)):
        raise TypeError(f"For '{owner}', the type of 'axis' should be one of '[int, tuple of int]', but got "
                        f"{type(axis)}.")
    return axis


class Softmax(Cell):
    """exp(x) / sum(exp(x)) along ``axis``."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _check_axis(axis, "Softmax")

    def construct(self, x):
        return ops.softmax(x, self.axis)


class LogSoftmax(Cell):
    """log(softmax(x)) along ``axis``, computed stably."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _check_axis(axis, "LogSoftmax")

    def construct(self, x):
        return ops.log_softmax(x, self.axis)


class HSwish(Cell):
    def construct(self, x):
        return ops.hardswish(x)


class HSigmoid(Cell):
    def construct(self, x):
        return ops.hardsigmoid(x)


class Mish(Cell):
    def construct(self, x):
        return ops.mish(x)


class LogSigmoid(Cell):
    def construct(self, x):
        return ops.logsigmoid(x)


class Softsign(Cell):
    """x / (1 + |x|) (composed here: sprout.ops has no softsign yet)."""

    def construct(self, x):
        return ops.div(x, ops.add(ops.abs(x), 1.0))


_ACTIVATIONS = {  # extended with the cells of activation_ext.py there
    "relu": ReLU, "relu6": ReLU6, "sigmoid": Sigmoid, "tanh": Tanh, "gelu": GELU, "fast_gelu": FastGelu,
    "silu": SiLU, "leakyrelu": LeakyReLU, "elu": ELU, "softplus": Softplus, "softmax": Softmax,
    "logsoftmax": LogSoftmax, "hswish": HSwish, "hsigmoid": HSigmoid, "mish": Mish, "logsigmoid": LogSigmoid,
    "softsign": Softsign,
}


def get_activation(name, prim_name=None):
    """The activation cell for a name such as ``"relu"`` (None gives None)."""
    if name is None:
        return None
    if name not in _ACTIVATIONS:
        raise KeyError(f"For '{prim_name or 'get_activation'}', the activation '{name}' is not one of "
                       f"{sorted(_ACTIVATIONS)}.")
    return _ACTIVATIONS[name]()
