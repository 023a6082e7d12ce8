"""Basic layers: Dense, Flatten, Dropout, Identity."""
from __future__ import annotations

import math

from ... import dtype as mstype
from ... import ops
from ...common.initializer import HeUniform, Uniform, initializer
from ...core.tensor import Parameter, Tensor
from ..cell import Cell
from .activation import get_activation


def _positive_int(value, name: str, owner: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):  # MindSpore: TypeError for a non-int
        raise TypeError(f"For '{owner}', the '{name}' must be an int, but got {type(value).__name__} {value!r}.")
    if value <= 0:
        raise ValueError(f"For '{owner}', the '{name}' must be a positive int, but got {value!r}.")
    return value


class Dense(Cell):
    """y = activation(x @ weight.T + bias), weight of shape (out_channels, in_channels). Default init as
    MindSpore 2.x: weight HeUniform(sqrt(5)), bias Uniform(1/sqrt(in_channels))."""

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 activation=None, dtype=mstype.float32):
        super().__init__()
        self.in_channels = _positive_int(in_channels, "in_channels", "Dense")
        self.out_channels = _positive_int(out_channels, "out_channels", "Dense")
        if not isinstance(has_bias, bool):
            raise TypeError(f"For 'Dense', 'has_bias' must be a bool, but got {type(has_bias).__name__}.")
        self.has_bias = has_bias
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_channels, in_channels):
            raise ValueError(f"For 'Dense', weight init shape error: 'weight_init' has shape "
                             f"{list(weight_init.shape)}, expected [{out_channels}, {in_channels}].")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], dtype=dtype), name="weight")
        self.bias = None
        if has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"For 'Dense', bias init shape error: 'bias_init' has shape "
                                 f"{list(bias_init.shape)}, expected [{out_channels}].")
            if bias_init is None:
                bias_init = Uniform(scale=1 / math.sqrt(in_channels))
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")
        self.activation = get_activation(activation) if isinstance(activation, str) else activation
        if activation is not None and not callable(self.activation):
            raise TypeError(f"For 'Dense', the 'activation' must be str or Cell or Primitive, but got "
                            f"{type(activation).__name__}.")
        self.activation_flag = self.activation is not None
        self.matmul = ops.MatMul(transpose_b=True)  # MindSpore's attribute: dense.matmul.shard(...) splits it

    def construct(self, x):
        shape = x.shape
        if len(shape) != 2:
            x = ops.reshape(x, (-1, shape[-1]))
        x = self.matmul(x, self.weight)
        if self.has_bias:
            x = ops.add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(shape) != 2:
            x = ops.reshape(x, tuple(shape[:-1]) + (x.shape[-1],))
        return x

    def extend_repr(self) -> str:
        s = f"input_channels={self.in_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s


class Flatten(Cell):
    """Flatten dims start_dim..end_dim into one (MindSpore 2.x: start_dim=1)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        nd = max(x.ndim, 1)
        for axis in (self.start_dim, self.end_dim):
            if not -nd <= axis < nd:
                raise ValueError("'start_dim' or 'end_dim' out of range.")
        if x.ndim == 0:
            return ops.reshape(x, (1,))
        s, e = self.start_dim % nd, self.end_dim % nd
        if s > e:
            raise ValueError(f"For 'Flatten', 'start_dim' ({self.start_dim}) must not come after 'end_dim' "
                             f"({self.end_dim}).")
        shape = tuple(x.shape)
        return ops.reshape(x, shape[:s] + (-1,) + shape[e + 1:])


class Dropout(Cell):
    """Zero elements with probability ``p`` (or ``1 - keep_prob``) and scale the rest by 1/(1-p) while training;
    identity in eval mode (``set_train(False)``, the default)."""

    def __init__(self, keep_prob=0.5, p=None, dtype=mstype.float32):
        super().__init__()
        if p is None:
            if not isinstance(keep_prob, float):
                raise TypeError(f"For 'Dropout', 'keep_prob' must be a float, but got {type(keep_prob).__name__}.")
            if keep_prob <= 0 or keep_prob > 1:
                raise ValueError(f"For 'Dropout', the 'keep_prob' must be a number in range (0, 1], "
                                 f"but got {keep_prob}.")
            self.drop_rate = 1.0 - keep_prob
        else:
            if isinstance(p, bool) or not isinstance(p, (float, int)):
                raise TypeError(f"For 'Dropout', 'p' must be a float, but got {type(p).__name__}.")
            if p < 0 or p >= 1:
                raise ValueError(f"For 'Dropout', the 'p' must be a number in range [0, 1), but got {p}.")
            self.drop_rate = float(p)
        self.p = p
        self.keep_prob = keep_prob

    def construct(self, x):
        if not self.training or self.drop_rate == 0:
            return x
        return ops.dropout(x, p=self.drop_rate, training=True)

    def extend_repr(self) -> str:
        return f"p={self.p}" if self.p is not None else f"keep_prob={self.keep_prob}"


class Identity(Cell):
    """Returns its input."""

    def construct(self, x):
        return x
