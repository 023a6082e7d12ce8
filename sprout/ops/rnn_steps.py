"""One step of the RNN / LSTM / GRU recurrences over sprout ops, shared by nn.RNN/LSTM/GRU (and their cells) and the
RNN primitive classes (ops.LSTM, DynamicRNN, DynamicGRUV2, BasicLSTMCell). Gate order is MindSpore's nn order
(LSTM: input, forget, cell, output; GRU: reset, update, new)."""
from __future__ import annotations

from . import functional as ops


def project(x, w, b):
    """x @ w.T (+ b) over the last axis of x (any leading shape)."""
    lead = tuple(x.shape[:-1])
    y = ops.matmul(ops.reshape(x, (-1, x.shape[-1])) if len(lead) != 1 else x, w, transpose_b=True)
    if b is not None:
        y = ops.add(y, b)
    return ops.reshape(y, lead + (w.shape[0],)) if len(lead) != 1 else y


def rnn_step(gi, h, w_hh, b_hh, relu: bool):
    """h' = act(gi + h @ w_hh.T + b_hh), ``gi`` the input projection (with b_ih) of this step."""
    g = ops.add(gi, project(h, w_hh, b_hh))
    return ops.relu(g) if relu else ops.tanh(g)


def lstm_step(gi, state, w_hh, b_hh):
    """(h', c') of one LSTM step; gates (input, forget, cell, output) in this order along the last axis."""
    h, c = state
    gates = ops.add(gi, project(h, w_hh, b_hh))
    i, f, g, o = ops.split(gates, gates.shape[-1] // 4, -1)
    c2 = ops.add(ops.mul(ops.sigmoid(f), c), ops.mul(ops.sigmoid(i), ops.tanh(g)))
    return ops.mul(ops.sigmoid(o), ops.tanh(c2)), c2


def gru_step(gi, h, w_hh, b_hh):
    """h' of one GRU step; gates (reset, update, new) along the last axis; n = tanh(i_n + r * (h @ w_hn + b_hn))."""
    gh = project(h, w_hh, b_hh)
    size = gi.shape[-1] // 3
    i_r, i_z, i_n = ops.split(gi, size, -1)
    h_r, h_z, h_n = ops.split(gh, size, -1)
    r = ops.sigmoid(ops.add(i_r, h_r))
    z = ops.sigmoid(ops.add(i_z, h_z))
    n = ops.tanh(ops.add(i_n, ops.mul(r, h_n)))
    return ops.add(n, ops.mul(z, ops.sub(h, n)))
