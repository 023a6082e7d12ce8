"""The RNN primitive classes ops.LSTM (MindSpore's CPU LSTM with its flat weight), DynamicRNN, DynamicGRUV2 and
BasicLSTMCell, composed from the step functions nn.LSTM / nn.GRU use (ops/rnn_steps.py), so they differentiate and
compile like any composite."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .classes_linalg import _Flag
from .rnn_steps import lstm_step, project

_HALF_SINGLE = (mstype.float16, mstype.float32)


def _int(v, name: str, op: str, low: int = 1) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"For '{op}', the '{name}' must be an int, but got {type(v).__name__}.")
    if v < low:
        raise ValueError(f"For '{op}', the '{name}' must be {'positive' if low else 'non-negative'}, but got {v}.")
    return v


def _typed(v, types, name: str, op: str):
    if isinstance(v, bool) and bool not in types or not isinstance(v, types):
        want = " or ".join(t.__name__ for t in types)
        raise TypeError(f"For '{op}', the '{name}' must be {want}, but got {type(v).__name__}.")
    return v


def _choice(v, allowed, name: str, op: str):
    _typed(v, (str,), name, op)
    if v not in allowed:
        raise ValueError(f"For '{op}', the '{name}' must be one of {list(allowed)}, but got '{v}'.")
    return v


def _tensor(t, name: str, op: str, dtypes=None, rank=None):
    if not isinstance(t, Tensor):
        raise TypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(t).__name__}.")
    if dtypes is not None and t.dtype not in dtypes:
        raise TypeError(f"For '{op}', the input '{name}' must be a Tensor of {[str(d) for d in dtypes]}, "
                        f"but got {t.dtype}.")
    if rank is not None and t.ndim != rank:
        raise ValueError(f"For '{op}', the input '{name}' must be {rank}-D, but got shape {list(t.shape)}.")
    return t


def _shape(t, want: tuple, name: str, op: str) -> None:
    if tuple(t.shape) != tuple(want):
        raise ValueError(f"For '{op}', the shape of '{name}' must be {list(want)}, but got {list(t.shape)}.")


def _only(op: str, pairs) -> None:
    """Options MindSpore accepts but sprout has no defined behaviour for: refused rather than ignored."""
    for name, value, plain in pairs:
        if value is not plain and value != plain:
            shown = type(value).__name__ if plain is None else repr(value)
            raise ValueError(f"For '{op}', '{name}'={shown} is not supported by sprout (only {plain!r}).")


# ---- ops.LSTM ------------------------------------------------------------------------------------------------------
class LSTM(_Flag):
    """``LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0)(x, h, c, w)`` ->
    ``(output, h_n, c_n, reserve, state)``. ``w`` is MindSpore's flat CPU weight: every (layer, direction)'s
    ``weight_ih`` (4H, in) row-major, then every ``weight_hh`` (4H, real_H), then every projection (proj_size, H),
    then one bias (4H) per (layer, direction); gates (input, forget, cell, output). ``reserve`` holds every step's
    cell state (T * layers * directions * B * H, 1); ``state`` is the (1, 1) zero dropout state."""

    defaults = {"input_size": None, "hidden_size": None, "num_layers": None, "has_bias": None,
                "bidirectional": None, "dropout": None, "proj_size": 0}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "LSTM"
        _int(self.input_size, "input_size", op)
        _int(self.hidden_size, "hidden_size", op)
        _int(self.proj_size, "proj_size", op, low=0)
        if self.proj_size >= self.hidden_size:
            raise ValueError(f"For '{op}', the 'proj_size' must be in [0, {self.hidden_size}), but got "
                             f"{self.proj_size}.")
        _int(self.num_layers, "num_layers", op)
        _typed(self.has_bias, (bool,), "has_bias", op)
        _typed(self.bidirectional, (bool,), "bidirectional", op)
        _typed(self.dropout, (float,), "dropout", op)
        if not 0.0 <= self.dropout <= 1.0:
            raise ValueError(f"For '{op}', the 'dropout' must be in [0.0, 1.0], but got {self.dropout}.")
        self.num_directions = 2 if self.bidirectional else 1

    def _sizes(self):
        hid, dirs, real = self.hidden_size, self.num_directions, self.proj_size or self.hidden_size
        widths = [self.input_size if layer == 0 else real * dirs for layer in range(self.num_layers)]
        return hid, dirs, real, widths

    def weight_size(self) -> int:
        """How many leading values of ``w`` the op reads."""
        hid, dirs, real, widths = self._sizes()
        n = sum(4 * hid * (w + real) * dirs for w in widths)
        n += self.num_layers * dirs * self.proj_size * hid
        return n + (self.num_layers * dirs * 4 * hid if self.has_bias else 0)

    def _unpack(self, w):
        hid, dirs, real, widths = self._sizes()
        flat = F.reshape(w, (-1,))
        off = 0

        def take(shape):
            nonlocal off
            n = int(np.prod(shape))
            part = F.reshape(flat[off:off + n], shape)
            off += n
            return part

        w_ih = [take((4 * hid, widths[k // dirs])) for k in range(self.num_layers * dirs)]
        w_hh = [take((4 * hid, real)) for _ in range(self.num_layers * dirs)]
        w_r = [take((self.proj_size, hid)) if self.proj_size else None for _ in range(self.num_layers * dirs)]
        bias = [take((4 * hid,)) if self.has_bias else None for _ in range(self.num_layers * dirs)]
        return w_ih, w_hh, w_r, bias

    def __call__(self, x, h, c, w):
        op = "LSTM"
        floats = (mstype.float16, mstype.float32, mstype.float64)
        for name, t in (("input", x), ("h", h), ("c", c), ("w", w)):
            _tensor(t, name, op, floats)
            if t.dtype != x.dtype:
                raise TypeError(f"For '{op}', the input '{name}' must have the dtype of 'input' ({x.dtype}), but got "
                                f"{t.dtype}.")
        _tensor(x, "input", op, rank=3)
        hid, dirs, real, _ = self._sizes()
        steps, batch, feat = x.shape
        if feat != self.input_size:
            raise ValueError(f"For '{op}', the last dimension of 'input' must be input_size {self.input_size}, "
                             f"but got shape {list(x.shape)}.")
        _shape(h, (self.num_layers * dirs, batch, real), "h", op)
        _shape(c, (self.num_layers * dirs, batch, hid), "c", op)
        if w.size < self.weight_size():
            raise ValueError(f"For '{op}', the weight 'w' must hold at least {self.weight_size()} values for "
                             f"these sizes, but got shape {list(w.shape)}.")
        w_ih, w_hh, w_r, bias = self._unpack(w)
        layer_in, h_n, c_n, cells = x, [], [], []
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                seq = F.flip(layer_in, (0,)) if d == 1 else layer_in
                gi = project(seq, w_ih[k], bias[k])
                state, ys, cs = (h[k], c[k]), [], []
                for t in range(steps):
                    hh, cc = lstm_step(gi[t], state, w_hh[k], None)
                    if w_r[k] is not None:
                        hh = project(hh, w_r[k], None)
                    state = (hh, cc)
                    ys.append(hh)
                    cs.append(cc)
                y = F.stack(ys, 0)
                cseq = F.stack(cs, 0)
                outs.append(F.flip(y, (0,)) if d == 1 else y)
                cells.append(F.flip(cseq, (0,)) if d == 1 else cseq)
                h_n.append(state[0])
                c_n.append(state[1])
            out = outs[0] if dirs == 1 else F.concat(outs, 2)
            last = layer == self.num_layers - 1
            layer_in = F.dropout(out, p=self.dropout) if self.dropout and not last else out
        reserve = F.reshape(F.stack(cells, 1), (-1, 1))
        state = F.zeros((1, 1), x.dtype)
        return layer_in, F.stack(h_n, 0), F.stack(c_n, 0), reserve, state


# ---- DynamicRNN / BasicLSTMCell: TensorFlow's block LSTM (gates i, j, f, o; w is (input + hidden, 4 * hidden)) ----
def tf_lstm_step(x, h, c, w, b, forget_bias: float, cell_clip: float):
    """One step of the block LSTM: (c', h', i, j, f, o, tanh(c')) with i, f, o sigmoids, j tanh, the forget bias
    added before its sigmoid and c' clipped to [-cell_clip, cell_clip] when cell_clip > 0."""
    gates = F.add(F.matmul(F.concat((x, h), -1), w), b)
    i, j, f, o = F.split(gates, gates.shape[-1] // 4, -1)
    i, j, o = F.sigmoid(i), F.tanh(j), F.sigmoid(o)
    f = F.sigmoid(F.add(f, forget_bias) if forget_bias else f)
    c2 = F.add(F.mul(f, c), F.mul(i, j))
    if cell_clip > 0:
        c2 = F.clamp(c2, -cell_clip, cell_clip)
    tanh_c = F.tanh(c2)
    return c2, F.mul(o, tanh_c), i, j, f, o, tanh_c


def dynamic_rnn(x, w, b, init_h, init_c, forget_bias=0.0, cell_clip=-1.0):
    """DynamicRNN's recurrence in the dtype of ``b`` (any float dtype): (y, output_h, output_c, i, j, f, o, tanhc),
    each (T, B, H); ``output_h`` is ``y`` (DynamicRNN casts it to float16)."""
    dt = b.dtype
    x, w, h, c = (F.cast(t, dt) for t in (x, w, init_h[0], init_c[0]))
    rows = [[] for _ in range(7)]
    for t in range(x.shape[0]):
        c, h, *gates = tf_lstm_step(x[t], h, c, w, b, forget_bias, cell_clip)
        for row, v in zip(rows, (h, c, *gates)):
            row.append(v)
    y, cs, i, j, f, o, tanh_c = (F.stack(r, 0) for r in rows)
    return y, y, cs, i, j, f, o, tanh_c


class DynamicRNN(_Flag):
    """``DynamicRNN(...)(x, w, b, seq_length, init_h, init_c)`` (Ascend's LSTM over a whole sequence; x, w, init_h,
    init_c float16, b float16 or float32) -> (y, output_h, output_c, i, j, f, o, tanhct), each (T, B, H): ``y`` and
    the gates in b's dtype, ``output_h`` float16. Gates (i, j, f, o) along w's columns."""

    defaults = {"cell_type": "LSTM", "direction": "UNIDIRECTIONAL", "cell_depth": 1, "use_peephole": False,
                "keep_prob": 1.0, "cell_clip": -1.0, "num_proj": 0, "time_major": True, "activation": "tanh",
                "forget_bias": 0.0, "is_training": True}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "DynamicRNN"
        _typed(self.forget_bias, (float,), "forget_bias", op)
        _typed(self.cell_depth, (int,), "cell_depth", op)
        _typed(self.keep_prob, (float,), "keep_prob", op)
        if not 0.0 <= self.keep_prob <= 1.0:
            raise ValueError(f"For '{op}', the 'keep_prob' must be in [0.0, 1.0], but got {self.keep_prob}.")
        _typed(self.cell_clip, (float,), "cell_clip", op)
        _int(self.num_proj, "num_proj", op, low=0)
        for name in ("use_peephole", "time_major", "is_training"):
            _typed(getattr(self, name), (bool,), name, op)
        if not self.time_major:
            raise ValueError(f"For '{op}', the 'time_major' must be True (the only supported value), but got False.")
        _choice(self.cell_type, ("LSTM",), "cell_type", op)
        _choice(self.direction, ("UNIDIRECTIONAL",), "direction", op)
        _choice(self.activation, ("tanh",), "activation", op)
        _only(op, (("use_peephole", self.use_peephole, False), ("keep_prob", self.keep_prob, 1.0),
                                   ("num_proj", self.num_proj, 0), ("cell_depth", self.cell_depth, 1)))

    def __call__(self, x, w, b, seq_length, init_h, init_c):
        op = "DynamicRNN"
        half = (mstype.float16,)
        _tensor(x, "x", op, half, 3)
        _tensor(w, "w", op, half, 2)
        _tensor(b, "b", op, _HALF_SINGLE, 1)
        _tensor(init_h, "init_h", op, half, 3)
        _tensor(init_c, "init_c", op, half, 3)
        _only(op, (("seq_length", seq_length, None),))
        steps, batch, feat = x.shape
        hid = w.shape[1] // 4
        _shape(w, (feat + hid, 4 * hid), "w", op)
        _shape(b, (4 * hid,), "b", op)
        _shape(init_h, (1, batch, hid), "init_h", op)
        _shape(init_c, (1, batch, hid), "init_c", op)
        y, out_h, *rest = dynamic_rnn(x, w, b, init_h, init_c, self.forget_bias, self.cell_clip)
        return (y, F.cast(out_h, mstype.float16), *rest)


class BasicLSTMCell(_Flag):
    """``BasicLSTMCell(keep_prob=1.0, forget_bias=1.0, state_is_tuple=True, activation='tanh')(x, h, c, w, b)`` ->
    (ct, ht, it, jt, ft, ot, tanhct): one step of DynamicRNN's cell (MindSpore deprecates it for DynamicRNN); ``ht``
    is float16, the others have c's dtype."""

    defaults = {"keep_prob": 1.0, "forget_bias": 1.0, "state_is_tuple": True, "activation": "tanh"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "BasicLSTMCell"
        _typed(self.keep_prob, (float,), "keep_prob", op)
        if not 0.0 <= self.keep_prob <= 1.0:
            raise ValueError(f"For '{op}', the 'keep_prob' must be in [0.0, 1.0], but got {self.keep_prob}.")
        _typed(self.forget_bias, (float,), "forget_bias", op)
        _typed(self.state_is_tuple, (bool,), "state_is_tuple", op)
        _choice(self.activation, ("tanh",), "activation", op)
        if self.keep_prob != 1.0:
            raise ValueError(f"For '{op}', 'keep_prob'={self.keep_prob!r} is not supported by sprout (only 1.0).")

    def __call__(self, x, h, c, w, b):
        op = "BasicLSTMCell"
        for name, t in (("x", x), ("h", h), ("w", w)):
            _tensor(t, name, op, _HALF_SINGLE)
        _tensor(c, "c", op, _HALF_SINGLE)
        _tensor(b, "b", op, _HALF_SINGLE)
        if c.dtype != b.dtype:
            raise TypeError(f"For '{op}', the inputs 'c' and 'b' must have one dtype, but got {c.dtype} and "
                            f"{b.dtype}.")
        for name, t, rank in (("x", x, 2), ("h", h, 2), ("c", c, 2), ("w", w, 2), ("b", b, 1)):
            _tensor(t, name, op, rank=rank)
        batch, hid = h.shape
        _shape(x, (batch, x.shape[1]), "x", op)
        _shape(c, (batch, hid), "c", op)
        _shape(w, (x.shape[1] + hid, 4 * hid), "w", op)
        _shape(b, (4 * hid,), "b", op)
        dt = c.dtype
        ct, ht, *gates = tf_lstm_step(F.cast(x, dt), F.cast(h, dt), c, F.cast(w, dt), b, self.forget_bias, -1.0)
        return (ct, F.cast(ht, mstype.float16), *gates)


# ---- DynamicGRUV2 ----------------------------------------------------------------------------------------------------
def dynamic_gru_v2(x, w_i, w_h, b_i, b_h, init_h, gate_order="rzh", reset_after=True):
    """DynamicGRUV2's recurrence in init_h's dtype: (y, output_h, update, reset, new, hidden_new), each (T, B, H).
    w_i (I, 3H) and w_h (H, 3H) hold the gates in ``gate_order`` ('rzh' or 'zrh') along their columns;
    ``hidden_new`` is the hidden-side term of the new gate (h W_hn + b_hn, or (r * h) W_hn + b_hn without
    reset_after)."""
    dt = init_h.dtype
    hid = init_h.shape[-1]

    def cols(m):
        parts = F.split(m, hid, -1)
        return (parts[1], parts[0], parts[2]) if gate_order == "zrh" else tuple(parts)  # as (r, z, n)

    w_i, w_h = F.cast(w_i, dt), F.cast(w_h, dt)
    (wir, wiz, win), (whr, whz, whn) = cols(w_i), cols(w_h)
    zero = F.zeros((3 * hid,), dt)
    (bir, biz, bin_), (bhr, bhz, bhn) = (cols(zero if bb is None else F.cast(bb, dt)) for bb in (b_i, b_h))
    x = F.cast(x, dt)
    # the input side of every step at once
    xr, xz, xn = (F.add(F.matmul(x, wm), bm) for wm, bm in ((wir, bir), (wiz, biz), (win, bin_)))
    h = init_h
    rows = [[] for _ in range(5)]
    for t in range(x.shape[0]):
        r = F.sigmoid(F.add(xr[t], F.add(F.matmul(h, whr), bhr)))
        z = F.sigmoid(F.add(xz[t], F.add(F.matmul(h, whz), bhz)))
        hn = F.add(F.matmul(h if reset_after else F.mul(r, h), whn), bhn)
        n = F.tanh(F.add(xn[t], F.mul(r, hn) if reset_after else hn))
        h = F.add(n, F.mul(z, F.sub(h, n)))  # (1 - z) n + z h
        for row, v in zip(rows, (h, z, r, n, hn)):
            row.append(v)
    out_h, z, r, n, hn = (F.stack(row, 0) for row in rows)
    return out_h, out_h, z, r, n, hn


class DynamicGRUV2(_Flag):
    """``DynamicGRUV2(...)(x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h)`` -> (y,
    output_h, update, reset, new, hidden_new), each (T, B, H), in the dtype of bias_input (else bias_hidden, else
    init_h). x and the weights float16; init_h float16 or float32; the biases may be None."""

    defaults = {"direction": "UNIDIRECTIONAL", "cell_depth": 1, "keep_prob": 1.0, "cell_clip": -1.0, "num_proj": 0,
                "time_major": True, "activation": "tanh", "gate_order": "rzh", "reset_after": True,
                "is_training": True}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "DynamicGRUV2"
        _typed(self.cell_depth, (int,), "cell_depth", op)
        _typed(self.keep_prob, (float,), "keep_prob", op)
        _typed(self.cell_clip, (float,), "cell_clip", op)
        _int(self.num_proj, "num_proj", op, low=0)
        for name in ("time_major", "is_training", "reset_after"):
            _typed(getattr(self, name), (bool,), name, op)
        _choice(self.direction, ("UNIDIRECTIONAL",), "direction", op)
        _choice(self.activation, ("tanh",), "activation", op)
        _choice(self.gate_order, ("zrh", "rzh"), "gate_order", op)
        _only(op, (("keep_prob", self.keep_prob, 1.0), ("num_proj", self.num_proj, 0),
                                   ("cell_depth", self.cell_depth, 1), ("cell_clip", self.cell_clip, -1.0),
                                   ("time_major", self.time_major, True)))

    def __call__(self, x, weight_input, weight_hidden, bias_input, bias_hidden, seq_length, init_h):
        op = "DynamicGRUV2"
        half = (mstype.float16,)
        _tensor(x, "x", op, half, 3)
        _tensor(weight_input, "weight_input", op, half, 2)
        _tensor(weight_hidden, "weight_hidden", op, half, 2)
        _tensor(init_h, "init_h", op, _HALF_SINGLE, 2)
        _only(op, (("seq_length", seq_length, None),))
        steps, batch, feat = x.shape
        hid = init_h.shape[1]
        _shape(weight_input, (feat, 3 * hid), "weight_input", op)
        _shape(weight_hidden, (hid, 3 * hid), "weight_hidden", op)
        _shape(init_h, (batch, hid), "init_h", op)
        for name, bias in (("bias_input", bias_input), ("bias_hidden", bias_hidden)):
            if bias is not None:
                _tensor(bias, name, op, _HALF_SINGLE, 1)
                _shape(bias, (3 * hid,), name, op)
        dtype = next((bb.dtype for bb in (bias_input, bias_hidden) if bb is not None), init_h.dtype)
        outs = dynamic_gru_v2(x, weight_input, weight_hidden, bias_input, bias_hidden, F.cast(init_h, dtype),
                              self.gate_order, self.reset_after)
        return outs


__all__ = ["LSTM", "DynamicRNN", "BasicLSTMCell", "DynamicGRUV2"]
