"""Combined layers: Conv2dBnAct and DenseBnAct (a Conv2d / Dense, an optional BatchNorm and an optional activation,
children named ``conv``/``dense``, ``batchnorm``, ``activation`` as in MindSpore)."""
from __future__ import annotations

from .. import _check as V
from ..cell import Cell
from .activation import LeakyReLU, get_activation
from .basic import Dense
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d


def _activation(cell, activation, alpha):
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    act = get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not callable(act):
        raise TypeError(f"For '{cell.cls_name}', the 'activation' must be str or Cell or Primitive, but got "
                        f"{type(activation).__name__}.")
    return act


class Conv2dBnAct(Cell):
    """Conv2d, then BatchNorm2d (``has_bn``, momentum 0.997), then the activation. ``after_fake`` is a quantisation
    flag MindSpore only stores."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros", has_bn=False, momentum=0.997,
                 eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        self.has_bn = V.bool_value(has_bn, "has_bn", self.cls_name)
        self.has_act = activation is not None
        self.after_fake = V.bool_value(after_fake, "after_fake", self.cls_name)
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation(self, activation, alpha)

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class DenseBnAct(Cell):
    """Dense, then BatchNorm1d (``has_bn``), then the activation."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 has_bn=False, momentum=0.9, eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = V.bool_value(has_bn, "has_bn", self.cls_name)
        self.has_act = activation is not None
        self.after_fake = V.bool_value(after_fake, "after_fake", self.cls_name)
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation(self, activation, alpha)

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
