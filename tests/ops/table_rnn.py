"""Op-table cases for the RNN primitive classes (ops/classes_rnn.py: ops.LSTM, DynamicRNN, DynamicGRUV2,
BasicLSTMCell), composites whose kernels are MatMul steps: forward against plain NumPy recurrences (MindSpore 2.10 runs
only single-layer ops.LSTM on CPU -- tests/ops/oracle/cases_rnn.py checks that against MindSpore; the other three are
Ascend-only there), gradients against finite differences, the same in every mode."""
import numpy as np

from sprout import ops
from sprout.ops import classes_rnn
from optable import F64, Case, Spec


def _sig(z):
    return 1 / (1 + np.exp(-z))


def _lstm_ref(x, h0, c0, w, I, H, L, D, bias, P=0):  # noqa: E741
    """Stacked (bi)LSTM over MindSpore's flat CPU weight layout."""
    R = P or H
    off, w = 0, w.ravel()

    def take(*shape):
        nonlocal off
        n = int(np.prod(shape))
        off += n
        return w[off - n:off].reshape(shape)

    wih = [take(4 * H, I if k // D == 0 else R * D) for k in range(L * D)]
    whh = [take(4 * H, R) for _ in range(L * D)]
    wr = [take(P, H) if P else None for _ in range(L * D)]
    bs = [take(4 * H) if bias else 0.0 for _ in range(L * D)]
    inp, hn, cn = x, [], []
    for layer in range(L):
        outs = []
        for d in range(D):
            k = layer * D + d
            h, c, ys = h0[k], c0[k], []
            for t in (range(len(x)) if d == 0 else range(len(x) - 1, -1, -1)):
                i, f, g, o = np.split(inp[t] @ wih[k].T + h @ whh[k].T + bs[k], 4, -1)
                c = _sig(f) * c + _sig(i) * np.tanh(g)
                h = _sig(o) * np.tanh(c)
                h = h @ wr[k].T if P else h
                ys.append(h)
            outs.append(np.stack(ys[::-1] if d else ys))
            hn.append(h)
            cn.append(c)
        inp = np.concatenate(outs, -1)
    return inp, np.stack(hn), np.stack(cn)


def _lstm_case(I, H, L, D, bias, P=0, T=3, B=2, label=""):  # noqa: E741
    R = P or H
    n = sum(4 * H * ((I if layer == 0 else R * D) + R) * D for layer in range(L)) + L * D * P * H
    n += L * D * 4 * H if bias else 0

    def fn(x, h, c, w):
        return ops.LSTM(I, H, L, bias, D == 2, 0.0, P)(x, h, c, w)[:3]

    return Case("MatMul", fn, (F64(T, B, I), F64(L * D, B, R), F64(L * D, B, H), F64(n, 1, 1, lo=-0.7, hi=0.7)),
                lambda x, h, c, w: _lstm_ref(x, h, c, w, I, H, L, D, bias, P), label="ops.LSTM-" + label)


def _tf_cell(x, h, c, w, b, forget_bias, clip=-1.0):
    i, j, f, o = np.split(np.concatenate([x, h], -1) @ w + b, 4, -1)
    i, j, f, o = _sig(i), np.tanh(j), _sig(f + forget_bias), _sig(o)
    c = f * c + i * j
    c = np.clip(c, -clip, clip) if clip > 0 else c
    return c, o * np.tanh(c), i, j, f, o, np.tanh(c)


def _dynamic_rnn_ref(x, w, b, h0, c0, forget_bias=0.0, clip=-1.0):
    h, c, rows = h0[0], c0[0], []
    for t in range(len(x)):
        c, h, *g = _tf_cell(x[t], h, c, w, b, forget_bias, clip)
        rows.append((h, h, c, *g))
    return tuple(np.stack(r) for r in zip(*rows))


def _gru_ref(x, wi, wh, bi, bh, h, order="rzh", reset_after=True):
    def cols(m):
        a, b_, n = np.split(m, 3, -1)
        return (b_, a, n) if order == "zrh" else (a, b_, n)

    (wir, wiz, win), (whr, whz, whn), (bir, biz, bin_), (bhr, bhz, bhn) = map(cols, (wi, wh, bi, bh))
    rows = []
    for t in range(len(x)):
        r = _sig(x[t] @ wir + bir + h @ whr + bhr)
        z = _sig(x[t] @ wiz + biz + h @ whz + bhz)
        hn = (h if reset_after else r * h) @ whn + bhn
        n = np.tanh(x[t] @ win + bin_ + (r * hn if reset_after else hn))
        h = (1 - z) * n + z * h
        rows.append((h, h, z, r, n, hn))
    return tuple(np.stack(r) for r in zip(*rows))


def _half(*shape):
    return Spec(lambda rng: rng.uniform(-1, 1, shape).astype(np.float16), label=f"f16{list(shape)}")


def _as64(ref):
    """The NumPy reference on float64 copies, cast to the dtypes the float16 op returns."""
    def run(*args, dtypes):
        return tuple(o.astype(d) for o, d in zip(ref(*[a.astype(np.float64) for a in args]), dtypes))
    return run


_F16_RNN = (np.float16,) * 8
CASES = [
    _lstm_case(3, 4, 1, 1, True, label="bias"),
    _lstm_case(3, 2, 1, 2, False, label="bidirectional"),
    _lstm_case(3, 3, 2, 2, True, label="2-layer-bidirectional"),
    _lstm_case(2, 4, 2, 1, True, P=2, label="2-layer-proj"),
    Case("MatMul", lambda x, w, b, h, c: classes_rnn.dynamic_rnn(x, w, b, h, c, 1.0, 0.8),
         (F64(4, 2, 3), F64(7, 16, lo=-0.8, hi=0.8), F64(16), F64(1, 2, 4), F64(1, 2, 4)),
         lambda *a: _dynamic_rnn_ref(*a, 1.0, 0.8), label="DynamicRNN-recurrence"),
    Case("MatMul", lambda x, w, b, h, c: ops.DynamicRNN(forget_bias=0.5)(x, w, b, None, h, c),
         (_half(4, 2, 3), _half(7, 16), _half(16), _half(1, 2, 4), _half(1, 2, 4)),
         lambda *a: _as64(lambda *v: _dynamic_rnn_ref(*v, 0.5))(*a, dtypes=_F16_RNN), rtol=2e-2, atol=5e-3,
         label="DynamicRNN"),
    Case("MatMul", lambda x, w, b, h, c: ops.DynamicRNN()(x, w, b, None, h, c),
         (_half(3, 2, 3), _half(7, 16), F64(16, dtype=np.float32), _half(1, 2, 4), _half(1, 2, 4)),
         lambda *a: _as64(_dynamic_rnn_ref)(*a, dtypes=(np.float32, np.float16) + (np.float32,) * 6),
         rtol=1e-2, atol=2e-3, grad=(), label="DynamicRNN-f32-bias"),
    Case("MatMul", lambda x, h, c, w, b: classes_rnn.tf_lstm_step(x, h, c, w, b, 1.0, -1.0),
         (F64(2, 3), F64(2, 4), F64(2, 4), F64(7, 16), F64(16)),
         lambda *a: _tf_cell(*a, 1.0), label="BasicLSTMCell-step"),
    Case("MatMul", lambda x, h, c, w, b: ops.BasicLSTMCell()(x, h, c, w, b),
         (F64(2, 3, dtype=np.float32), F64(2, 4, dtype=np.float32), F64(2, 4, dtype=np.float32),
          F64(7, 16, dtype=np.float32), F64(16, dtype=np.float32)),
         lambda *a: tuple(o.astype(np.float16 if k == 1 else np.float32)
                          for k, o in enumerate(_tf_cell(*[v.astype(np.float64) for v in a], 1.0))),
         rtol=1e-3, atol=1e-3, grad=(), label="BasicLSTMCell"),
    Case("MatMul", lambda *a: classes_rnn.dynamic_gru_v2(*a, "rzh", True),
         (F64(4, 2, 3), F64(3, 12), F64(4, 12), F64(12), F64(12), F64(2, 4)),
         lambda *a: _gru_ref(*a, "rzh", True), label="DynamicGRUV2-recurrence"),
    Case("MatMul", lambda *a: classes_rnn.dynamic_gru_v2(*a, "zrh", False),
         (F64(4, 2, 3), F64(3, 12), F64(4, 12), F64(12), F64(12), F64(2, 4)),
         lambda *a: _gru_ref(*a, "zrh", False), label="DynamicGRUV2-zrh-reset-before"),
    Case("MatMul", lambda x, wi, wh, bi, bh, h: ops.DynamicGRUV2()(x, wi, wh, bi, bh, None, h),
         (_half(3, 2, 3), _half(3, 12), _half(4, 12), F64(12, dtype=np.float32), F64(12, dtype=np.float32),
          _half(2, 4)),
         lambda *a: _as64(_gru_ref)(*a, dtypes=(np.float32,) * 6), rtol=1e-2, atol=3e-3, grad=(), label="DynamicGRUV2"),
    Case("MatMul", lambda x, wi, wh, h: ops.DynamicGRUV2(gate_order="zrh")(x, wi, wh, None, None, None, h),
         (_half(3, 2, 3), _half(3, 12), _half(4, 12), _half(2, 4)),
         lambda x, wi, wh, h: _as64(lambda *v: _gru_ref(*v, "zrh"))(x, wi, wh, np.zeros(12), np.zeros(12), h,
                                                                      dtypes=(np.float16,) * 6),
         rtol=2e-2, atol=5e-3, label="DynamicGRUV2-no-bias"),
]
