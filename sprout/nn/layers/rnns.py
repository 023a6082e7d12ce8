"""Multi-layer, optionally bidirectional RNN, LSTM and GRU over (T, B, I) (or batch_first) sequences, with
variable lengths (``seq_length``: states stop at each sequence's end, outputs there are zero) and dropout
between layers while training. Parameters ``weight_ih_l{k}[_reverse]``, ``weight_hh_l{k}``, ``bias_ih_l{k}``,
``bias_hh_l{k}`` as in MindSpore. The input projection of every step is one matmul; the recurrence is unrolled."""
from __future__ import annotations

import math

import numpy as np

from ... import _seed
from ... import dtype as mstype
from ... import ops
from ...core.tensor import Parameter, ParameterTuple, Tensor
from .. import _check as V
from ..cell import Cell
from .basic import Dropout
from .rnn_cells import check_float, check_tensor, gru_step, lstm_step, project, rnn_step

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def reverse_sequence(x, seq_length):
    """Reverse the first seq_length[b] steps of every batch column b of (T, B, ...), the rest stays in place."""
    steps = x.shape[0]
    t = ops.reshape(ops.arange(0, steps, dtype=mstype.int32), (steps, 1))
    n = ops.reshape(ops.cast(seq_length, mstype.int32), (1, -1))
    idx = ops.where(ops.less(t, n), ops.sub(ops.sub(n, 1), t), ops.broadcast_to(t, (steps, n.shape[1])))
    idx = ops.broadcast_to(ops.reshape(idx, tuple(idx.shape) + (1,) * (x.ndim - 2)), tuple(x.shape))
    return ops.gather_elements(x, 0, idx)


class _RNNBase(Cell):
    """The shared multi-layer recurrence; ``mode`` is "LSTM", "GRU", "RNN_TANH" or "RNN_RELU"."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, dtype=mstype.float32):
        super().__init__()
        owner = self.cls_name
        V.positive_int(hidden_size, "hidden_size", owner)
        V.positive_int(input_size, "input_size", owner)
        V.positive_int(num_layers, "num_layers", owner)
        if isinstance(dropout, bool) or not isinstance(dropout, float):
            raise TypeError(f"For '{owner}', the type of 'dropout' must be 'float', but got "
                            f"'{type(dropout).__name__}'.")
        for name, v in (("has_bias", has_bias), ("batch_first", batch_first), ("bidirectional", bidirectional)):
            V.type_of(v, bool, name, owner)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{owner}', the 'dropout' must be a number in range [0, 1) representing the "
                             f"probability of an element being zeroed, but got {dropout}.")
        if mode not in _GATES:
            raise ValueError(f"For '{owner}', the 'mode' must be in ['RNN_RELU', 'RNN_TANH', 'LSTM', 'GRU'], but got "
                             f"{mode}.")
        self.mode, self.is_lstm = mode, mode == "LSTM"
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.has_bias, self.batch_first, self.bidirectional = has_bias, batch_first, bidirectional
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        directions = 2 if bidirectional else 1
        gate = _GATES[mode] * hidden_size
        stdv = 1 / math.sqrt(hidden_size)
        rng = _seed.rng()  # U(-1/sqrt(hidden), 1/sqrt(hidden)) as MindSpore, repeatable under ms.set_seed
        w_ih, w_hh, b_ih, b_hh = [], [], [], []
        for layer in range(num_layers):
            for direction in range(directions):
                width = input_size if layer == 0 else hidden_size * directions
                suffix = "_reverse" if direction == 1 else ""

                def param(shape, name):
                    return Parameter(Tensor(rng.uniform(-stdv, stdv, shape).astype(np.float32), dtype), name=name)

                w_ih.append(param((gate, width), f"weight_ih_l{layer}{suffix}"))
                w_hh.append(param((gate, hidden_size), f"weight_hh_l{layer}{suffix}"))
                if has_bias:
                    b_ih.append(param((gate,), f"bias_ih_l{layer}{suffix}"))
                    b_hh.append(param((gate,), f"bias_hh_l{layer}{suffix}"))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    # ---- one direction of one layer --------------------------------------------------------------------
    def _run(self, x, h, seq_length, k: int):
        """Outputs (T, B, H) and the final state of the k-th (layer, direction) over x (T, B, F)."""
        dtype = x.dtype
        w_ih = ops.cast(self.w_ih_list[k], dtype)
        w_hh = ops.cast(self.w_hh_list[k], dtype)
        b_ih = ops.cast(self.b_ih_list[k], dtype) if self.has_bias else None
        b_hh = ops.cast(self.b_hh_list[k], dtype) if self.has_bias else None
        gi = project(x, w_ih, b_ih)  # (T, B, gates): every step's input projection at once
        steps = x.shape[0]
        keep = None
        if seq_length is not None:
            lengths = ops.reshape(ops.cast(seq_length, mstype.int32), (-1, 1))
        outputs = []
        state = h
        for t in range(steps):
            g = gi[t]
            if self.is_lstm:
                new = lstm_step(g, state, w_hh, b_hh)
                out = new[0]
            elif self.mode == "GRU":
                new = out = gru_step(g, state, w_hh, b_hh)
            else:
                new = out = rnn_step(g, state, w_hh, b_hh, self.mode == "RNN_RELU")
            if seq_length is not None:  # finished sequences keep their state and output zeros
                keep = ops.greater(lengths, t)
                if self.is_lstm:
                    new = (ops.where(keep, new[0], state[0]), ops.where(keep, new[1], state[1]))
                else:
                    new = ops.where(keep, new, state)
                out = ops.where(keep, out, ops.zeros_like(out))
            state = new
            outputs.append(out)
        return ops.stack(outputs, 0), state

    def _layers(self, x, hx, seq_length):
        directions = 2 if self.bidirectional else 1
        h_n, c_n = [], []
        layer_in = x
        out = x
        for layer in range(self.num_layers):
            outs = []
            for d in range(directions):
                k = layer * directions + d
                h0 = (hx[0][k], hx[1][k]) if self.is_lstm else hx[k]
                seq = layer_in
                if d == 1:
                    seq = ops.flip(layer_in, (0,)) if seq_length is None else reverse_sequence(layer_in, seq_length)
                o, state = self._run(seq, h0, seq_length, k)
                if d == 1:
                    o = ops.flip(o, (0,)) if seq_length is None else reverse_sequence(o, seq_length)
                outs.append(o)
                if self.is_lstm:
                    h_n.append(state[0])
                    c_n.append(state[1])
                else:
                    h_n.append(state)
            out = outs[0] if directions == 1 else ops.concat(outs, 2)
            last = layer == self.num_layers - 1
            layer_in = self.dropout_op(out) if self.dropout != 0 and not last else out
        if self.is_lstm:
            return out, (ops.stack(h_n, 0), ops.stack(c_n, 0))
        return out, ops.stack(h_n, 0)

    def construct(self, x, hx=None, seq_length=None):
        owner = self.cls_name
        check_tensor("x", x, owner)
        if x.ndim != 3:
            raise ValueError(f"For '{owner}', the input must be 3-D ({'B, T' if self.batch_first else 'T, B'}, "
                             f"input_size), but got shape {list(x.shape)}.")
        batch = x.shape[0] if self.batch_first else x.shape[1]
        directions = 2 if self.bidirectional else 1
        dtype = x.dtype
        check_float("x", x, owner)
        if hx is not None:
            if self.is_lstm:
                if not isinstance(hx, tuple):
                    raise TypeError(f"For '{owner}', the 'hx' must be a tuple (h, c), but got "
                                    f"'{type(hx).__name__}'")
                if len(hx) != 2:
                    raise TypeError(f"For '{owner}', the length of 'hx' must be '2', but got '{len(hx)}'")
                states = hx
            else:
                states = (hx,)
            for i, s in enumerate(states):
                check_tensor(f"hx[{i}]" if self.is_lstm else "hx", s, owner)
                if s.dtype is not dtype:
                    raise TypeError(f"For '{owner}', the dtype of 'hx' ({s.dtype}) must be the same as x's ({dtype}).")
                want = (self.num_layers * directions, batch, self.hidden_size)
                if tuple(s.shape) != want:
                    raise ValueError(f"For '{owner}', the hidden state must have shape {list(want)}, but got "
                                     f"{list(s.shape)}.")
        else:
            zeros = ops.zeros((self.num_layers * directions, batch, self.hidden_size), dtype)
            hx = (zeros, zeros) if self.is_lstm else zeros
        if seq_length is not None:
            check_tensor("seq_length", seq_length, owner)
            if seq_length.dtype not in (mstype.int32, mstype.int64):
                raise TypeError(f"For '{owner}', the 'seq_length' type must be in [Int32, Int64], but got "
                                f"{seq_length.dtype}.")
            if seq_length.shape[0] != batch:
                raise ValueError(f"For '{owner}' batch size of x and seq_length must be equal, but got {batch} of x "
                                 f"and {seq_length.shape[0]} of seq_length.")
        if self.batch_first:
            x = ops.transpose(x, (1, 0, 2))
        out, state = self._layers(x, hx, seq_length)
        if self.batch_first:
            out = ops.transpose(out, (1, 0, 2))
        return out, state

    def extend_repr(self) -> str:
        return (f"input_size={self.input_size}, hidden_size={self.hidden_size}, num_layers={self.num_layers}, "
                f"has_bias={self.has_bias}, batch_first={self.batch_first}, dropout={self.dropout}, "
                f"bidirectional={self.bidirectional}")


class RNN(_RNNBase):
    """Elman RNN: h_t = tanh (``nonlinearity="tanh"``, default) or relu (x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)."""

    def __init__(self, *args, **kwargs):
        nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"For 'RNN', the 'nonlinearity' must be in ['tanh', 'relu'], but got {nonlinearity}.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)


class GRU(_RNNBase):
    """Gated recurrent unit layers (gates reset, update, new)."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    """Long short-term memory layers (gates input, forget, cell, output); returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)
