"""RNNCell, LSTMCell and GRUCell: one step of the recurrences, with MindSpore's gate order (LSTM: input, forget,
cell, output; GRU: reset, update, new) and parameter names ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``,
so MindSpore checkpoints load. The step functions are shared with the multi-step LSTM / GRU / RNN layers."""
from __future__ import annotations

import math

from ... import dtype as mstype
from ...common.initializer import Uniform, initializer
from ...core.tensor import Parameter, Tensor
from .. import _check as V
from ..cell import Cell
from ...ops.rnn_steps import gru_step, lstm_step, project, rnn_step  # noqa: F401  (re-exported for rnns.py)

_FLOATS = (mstype.float16, mstype.float32)


def check_tensor(name: str, x, owner: str):
    if x is not None and not isinstance(x, Tensor):
        raise TypeError(f"For '{owner}', the '{name}' must be 'Tensor', but got '{type(x).__name__}'")
    return x


def check_float(name: str, x, owner: str) -> None:
    if x.dtype not in _FLOATS:
        raise TypeError(f"For '{owner}', the '{name}' type must be in [Float16, Float32], but got {x.dtype}.")


class RNNCellBase(Cell):
    """Shared parameters: weight_ih (chunks * hidden, input), weight_hh (chunks * hidden, hidden) and the biases,
    all drawn from U(-1/sqrt(hidden), 1/sqrt(hidden))."""

    def __init__(self, input_size, hidden_size, has_bias, num_chunks, dtype=mstype.float32):
        super().__init__()
        owner = self.cls_name
        V.type_of(has_bias, bool, "has_bias", owner)
        V.positive_int(hidden_size, "hidden_size", owner)
        V.positive_int(input_size, "input_size", owner)
        self.input_size, self.hidden_size, self.has_bias = input_size, hidden_size, has_bias
        stdv = 1 / math.sqrt(hidden_size)
        gates = num_chunks * hidden_size

        def param(shape, name):
            return Parameter(initializer(Uniform(stdv), shape, dtype), name=name)

        self.weight_ih = param((gates, input_size), "weight_ih")
        self.weight_hh = param((gates, hidden_size), "weight_hh")
        if has_bias:
            self.bias_ih = param((gates,), "bias_ih")
            self.bias_hh = param((gates,), "bias_hh")
        else:
            self.bias_ih = self.bias_hh = None

    def reset_parameters(self, dtype=mstype.float32) -> None:
        stdv = 1 / math.sqrt(self.hidden_size)
        for p in self.get_parameters():
            p.set_data(initializer(Uniform(stdv), p.shape, dtype))

    def _gi(self, x):
        return project(x, self.weight_ih, self.bias_ih)


class RNNCell(RNNCellBase):
    """h' = tanh (or relu)(x @ W_ih.T + b_ih + h @ W_hh.T + b_hh)."""

    _non_linearity = ("tanh", "relu")

    def __init__(self, input_size, hidden_size, has_bias=True, nonlinearity="tanh", dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, 1, dtype)
        V.type_of(nonlinearity, str, "nonlinearity", self.cls_name)
        self.nonlinearity = V.one_of(nonlinearity, self._non_linearity, "nonlinearity", self.cls_name)

    def construct(self, x, hx):
        check_tensor("x", x, self.cls_name)
        check_tensor("hx", hx, self.cls_name)
        check_float("x", x, self.cls_name)
        check_float("hx", hx, self.cls_name)
        return rnn_step(self._gi(x), hx, self.weight_hh, self.bias_hh, self.nonlinearity == "relu")


class LSTMCell(RNNCellBase):
    """(h', c') = one LSTM step of x with state hx = (h, c)."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32, *args, **kwargs):
        if args or {"batch_size", "dropout", "bidirectional"} & set(kwargs):
            raise ValueError("The arguments of `nn.LSTMCell` from old MindSpore version(<1.6) are detected, if you "
                             "still need use single LSTM layer, please use `nn.LSTM` instead.")
        if kwargs:
            raise TypeError(f"LSTMCell got unexpected keyword arguments {sorted(kwargs)}")
        super().__init__(input_size, hidden_size, has_bias, 4, dtype)

    def construct(self, x, hx):
        owner = self.cls_name
        check_tensor("x", x, owner)
        if not isinstance(hx, tuple):
            raise TypeError(f"For '{owner}', the 'hx' must be a tuple (h, c), but got '{type(hx).__name__}'")
        if len(hx) != 2:
            raise TypeError(f"For '{owner}', the length of 'hx' must be '2', but got '{len(hx)}'")
        check_tensor("hx[0]", hx[0], owner)
        check_tensor("hx[1]", hx[1], owner)
        for name, t in (("x", x), ("hx[0]", hx[0]), ("hx[1]", hx[1])):
            check_float(name, t, owner)
        return lstm_step(self._gi(x), hx, self.weight_hh, self.bias_hh)


class GRUCell(RNNCellBase):
    """h' = one GRU step of x with state hx."""

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, 3, dtype)

    def construct(self, x, hx):
        check_tensor("x", x, self.cls_name)
        check_tensor("hx", hx, self.cls_name)
        check_float("x", x, self.cls_name)
        check_float("hx", hx, self.cls_name)
        return gru_step(self._gi(x), hx, self.weight_hh, self.bias_hh)

