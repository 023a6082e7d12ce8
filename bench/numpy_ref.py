"""The workloads' shared inputs and initial parameters (one seeded generator, so every framework starts
from the same numbers) and their hand-written NumPy versions: the no-framework baseline.

Parameter layouts are MindSpore's (and PyTorch's): Dense weight (out, in), Conv2d weight
(out, in, kh, kw). The NumPy versions keep whatever layout they compute fastest in (channel-last
for LeNet) and convert back only in ``state()``. Runs on NumPy 1.26 (MindSpore's venv) and NumPy 2."""
from __future__ import annotations

import numpy as np

from common import Prepared

SEED = 20240601
LR = 0.01

# ---- sizes --------------------------------------------------------------------------------------
W2_PAIRS = 500                  # W2: 500 x (mul, add) = 1000 small ops
W3_SHAPE = (2048, 2048)         # W3: 4M float32
MLP_SIZES = (784, 512, 512, 10)
MLP_BATCH = 64
LENET_BATCH = 32
RNN_T, RNN_B, RNN_I, RNN_H = 50, 16, 128, 128
CHAIN_PAIRS = 100               # W7b: 100 x (mul, add) = 200 small ops


def _rng(tag: int) -> np.random.Generator:
    return np.random.default_rng([SEED, tag])


def _uniform(rng, shape, fan_in):
    bound = 1.0 / np.sqrt(fan_in)
    return ((rng.random(shape, dtype=np.float32) * 2 - 1) * bound).astype(np.float32)


def w1_data():
    return np.ones((3, 3), np.float32)


def w2_data():
    rng = _rng(2)
    x = np.ones((3, 3), np.float32)
    c = (0.5 + 0.4 * rng.random((3, 3), dtype=np.float32)).astype(np.float32)
    d = rng.random((3, 3), dtype=np.float32)
    return x, c, d


def w3_data():
    rng = _rng(3)
    return rng.standard_normal(W3_SHAPE, dtype=np.float32), rng.standard_normal(W3_SHAPE, dtype=np.float32)


def mlp_data():
    """x (64, 784), labels (64,) int32, params [w1, b1, w2, b2, w3, b3] in (out, in) layout."""
    rng = _rng(4)
    x = rng.standard_normal((MLP_BATCH, MLP_SIZES[0]), dtype=np.float32)
    y = rng.integers(0, 10, MLP_BATCH).astype(np.int32)
    params = []
    for fan_in, fan_out in zip(MLP_SIZES[:-1], MLP_SIZES[1:]):
        params += [_uniform(rng, (fan_out, fan_in), fan_in), _uniform(rng, (fan_out,), fan_in)]
    return x, y, params


def lenet_data():
    """x (32, 1, 32, 32), labels, params [conv1 (6,1,5,5), conv2 (16,6,5,5), fc1 w/b, fc2 w/b, fc3 w/b]."""
    rng = _rng(5)
    x = rng.standard_normal((LENET_BATCH, 1, 32, 32), dtype=np.float32)
    y = rng.integers(0, 10, LENET_BATCH).astype(np.int32)
    params = [_uniform(rng, (6, 1, 5, 5), 25), _uniform(rng, (16, 6, 5, 5), 150)]
    for fan_in, fan_out in ((400, 120), (120, 84), (84, 10)):
        params += [_uniform(rng, (fan_out, fan_in), fan_in), _uniform(rng, (fan_out,), fan_in)]
    return x, y, params


def rnn_data():
    """xs (50, 16, 128), h0 (16, 128), params [wx (I, H), wh (H, H), b (H,)]; h' = tanh(x@wx + h@wh + b)."""
    rng = _rng(6)
    xs = rng.standard_normal((RNN_T, RNN_B, RNN_I), dtype=np.float32)
    h0 = np.zeros((RNN_B, RNN_H), np.float32)
    params = [_uniform(rng, (RNN_I, RNN_H), RNN_I), _uniform(rng, (RNN_H, RNN_H), RNN_H),
              _uniform(rng, (RNN_H,), RNN_H)]
    return xs, h0, params


def chain_data():
    return _rng(7).random((3, 3), dtype=np.float32)


# ---- W1, W2, W3, W7b ----------------------------------------------------------------------------
def w1_prepare() -> Prepared:
    a = w1_data()

    def seed_cell():
        x = a + a          # Add
        x = x + x
        x = x * x          # Mul
        x = x * x
        x = x + x          # Add
        return x + x

    return Prepared(seed_cell)


def w2_prepare() -> Prepared:
    x, c, d = w2_data()

    def ops1000():
        y = x
        for _ in range(W2_PAIRS):
            y = y * c
            y = y + d
        return y

    return Prepared(ops1000, per=2 * W2_PAIRS)


def w3_prepare() -> Prepared:
    """The 16-op chain with two preallocated temporaries and ``out=`` everywhere (one output buffer)."""
    x, y = w3_data()
    t1, t2, out = np.empty_like(x), np.empty_like(x), np.empty_like(x)

    def expr():
        np.multiply(x, y, out=t1)       # 1 a = x*y
        np.add(t1, x, out=t1)           # 2 b = a+x
        np.subtract(t1, y, out=t1)      # 3 c = b-y
        np.abs(y, out=t2)               # 4 d = |y|
        np.add(t2, 1.0, out=t2)         # 5 e = d+1
        np.divide(t1, t2, out=t1)       # 6 f = c/e
        np.tanh(t1, out=t2)             # 7 g = tanh(f)
        np.multiply(t2, 0.5, out=out)   # 8 h = g*0.5
        np.exp(out, out=out)            # 9 i = exp(h)
        np.subtract(out, 1.0, out=out)  # 10 j = i-1
        np.maximum(out, 0.0, out=out)   # 11 k = max(j, 0)
        np.abs(t1, out=t1)              # 12 l = |f|
        np.sqrt(t1, out=t1)             # 13 m = sqrt(l)
        np.multiply(out, t1, out=out)   # 14 n = k*m
        np.add(out, t2, out=out)        # 15 o = n+g
        np.multiply(out, y, out=out)    # 16 o*y
        return out

    return Prepared(expr)


def w3_plain(x, y):
    """The same chain as plain NumPy expressions (one temporary per op)."""
    f = (x * y + x - y) / (np.abs(y) + 1.0)
    g = np.tanh(f)
    return (np.maximum(np.exp(g * 0.5) - 1.0, 0.0) * np.sqrt(np.abs(f)) + g) * y


def w3_blocked(x, y, block: int = 1 << 16):
    """The chain over cache-sized blocks with ``out=`` buffers: how far NumPy alone can go."""
    xf, yf = x.reshape(-1), y.reshape(-1)
    out = np.empty_like(xf)
    t1, t2 = np.empty(block, np.float32), np.empty(block, np.float32)
    for s in range(0, xf.size, block):
        xb, yb, ob = xf[s:s + block], yf[s:s + block], out[s:s + block]
        a, b = t1[:xb.size], t2[:xb.size]
        np.multiply(xb, yb, out=a)
        a += xb
        a -= yb
        np.abs(yb, out=b)
        b += 1.0
        a /= b
        np.tanh(a, out=b)
        np.multiply(b, 0.5, out=ob)
        np.exp(ob, out=ob)
        ob -= 1.0
        np.maximum(ob, 0.0, out=ob)
        np.abs(a, out=a)
        np.sqrt(a, out=a)
        ob *= a
        ob += b
        ob *= yb
    return out.reshape(x.shape)


def chain_prepare() -> Prepared:
    x0 = chain_data()

    def chain():
        x = x0
        for _ in range(CHAIN_PAIRS):
            x = x * 0.999
            x = x + 0.001
        return x

    return Prepared(chain)


# ---- softmax cross-entropy (mean over the batch), shared by W4 and W5 -----------------------------
def _softmax_xent_grad(logits, y, scale):
    """Loss, and dlogits * scale written into ``logits`` (scale folds 1/batch and the learning rate)."""
    n = logits.shape[0]
    rows = np.arange(n)
    logits -= logits.max(axis=1, keepdims=True)
    picked = logits[rows, y]
    np.exp(logits, out=logits)
    s = logits.sum(axis=1, keepdims=True)
    loss = np.float32(np.mean(np.log(s[:, 0]) - picked))
    logits /= s
    logits[rows, y] -= 1.0
    logits *= scale
    return loss, logits


# ---- W4: MLP 784-512-512-10 training step -------------------------------------------------------
def mlp_prepare() -> Prepared:
    x, y, params = mlp_data()
    w1, b1, w2, b2, w3, b3 = params
    scale = np.float32(LR / x.shape[0])

    def step():
        h1 = x @ w1.T
        h1 += b1
        np.maximum(h1, 0, out=h1)               # relu in place: relu(h) > 0 iff h > 0
        h2 = h1 @ w2.T
        h2 += b2
        np.maximum(h2, 0, out=h2)
        logits = h2 @ w3.T
        logits += b3
        loss, g = _softmax_xent_grad(logits, y, scale)   # g already holds lr * dloss/dlogits
        d2 = g @ w3
        d2 *= h2 > 0
        d1 = d2 @ w2
        d1 *= h1 > 0
        # SGD, p -= lr * grad (lr is folded into g); in place on the closure's arrays
        np.subtract(w3, g.T @ h2, out=w3)
        np.subtract(b3, g.sum(axis=0), out=b3)
        np.subtract(w2, d2.T @ h1, out=w2)
        np.subtract(b2, d2.sum(axis=0), out=b2)
        np.subtract(w1, d1.T @ x, out=w1)
        np.subtract(b1, d1.sum(axis=0), out=b1)
        return loss

    return Prepared(step, state=lambda: [p.copy() for p in params])


# ---- W5: LeNet-5 training step (im2col via as_strided, channel-last inside) ----------------------
def _windows(a, k):
    """(N, H, W, C) -> view (N, H-k+1, W-k+1, k, k, C) of every k x k patch (no copy)."""
    n, h, w, c = a.shape
    s = a.strides
    return np.lib.stride_tricks.as_strided(a, (n, h - k + 1, w - k + 1, k, k, c), (s[0], s[1], s[2], s[1], s[2], s[3]),
                                           writeable=False)


def _pool_fwd(o):
    """2x2/2 max pool of NHWC ``o``: pooled values and the four strided views (for the backward)."""
    views = (o[:, 0::2, 0::2], o[:, 0::2, 1::2], o[:, 1::2, 0::2], o[:, 1::2, 1::2])
    p = np.maximum(views[0], views[1])
    np.maximum(p, np.maximum(views[2], views[3]), out=p)
    return p, views


def _pool_bwd(dp, p, views, shape):
    """Route dp to the position of each window's maximum (ties between random floats do not occur)."""
    do = np.empty(shape, np.float32)
    for (i, j), v in zip(((0, 0), (0, 1), (1, 0), (1, 1)), views):
        np.multiply(dp, v == p, out=do[:, i::2, j::2])
    return do


def lenet_prepare() -> Prepared:
    x, y, params = lenet_data()
    n = x.shape[0]
    # internal layouts: conv weights (out, kh*kw*c), fc1 columns in (h, w, c) order
    c1 = np.ascontiguousarray(params[0].transpose(0, 2, 3, 1).reshape(6, 25))
    c2 = np.ascontiguousarray(params[1].transpose(0, 2, 3, 1).reshape(16, 150))
    f1 = np.ascontiguousarray(params[2].reshape(120, 16, 5, 5).transpose(0, 2, 3, 1).reshape(120, 400))
    fb1, f2, fb2, f3, fb3 = params[3:]
    xh = np.ascontiguousarray(x.transpose(0, 2, 3, 1))          # NHWC input
    scale = np.float32(LR / n)

    def step():
        p1col = _windows(xh, 5).reshape(n * 784, 25)             # im2col (copies once)
        o1 = (p1col @ c1.T).reshape(n, 28, 28, 6)
        q1, v1 = _pool_fwd(o1)                                   # pool before relu: they commute
        r1 = np.maximum(q1, 0)
        p2col = _windows(r1, 5).reshape(n * 100, 150)
        o2 = (p2col @ c2.T).reshape(n, 10, 10, 16)
        q2, v2 = _pool_fwd(o2)
        r2 = np.maximum(q2, 0).reshape(n, 400)
        h1 = r2 @ f1.T
        h1 += fb1
        np.maximum(h1, 0, out=h1)
        h2 = h1 @ f2.T
        h2 += fb2
        np.maximum(h2, 0, out=h2)
        logits = h2 @ f3.T
        logits += fb3
        loss, g = _softmax_xent_grad(logits, y, scale)
        d2 = g @ f3
        d2 *= h2 > 0
        d1 = d2 @ f2
        d1 *= h1 > 0
        dr2 = (d1 @ f1).reshape(n, 5, 5, 16)
        dr2 *= q2 > 0
        do2 = _pool_bwd(dr2, q2, v2, o2.shape).reshape(n * 100, 16)
        dcol = (do2 @ c2).reshape(n, 10, 10, 5, 5, 6)
        dr1 = np.zeros((n, 14, 14, 6), np.float32)               # col2im: 25 shifted adds
        for i in range(5):
            for j in range(5):
                dr1[:, i:i + 10, j:j + 10, :] += dcol[:, :, :, i, j, :]
        dr1 *= q1 > 0
        do1 = _pool_bwd(dr1, q1, v1, o1.shape).reshape(n * 784, 6)
        np.subtract(f3, g.T @ h2, out=f3)
        np.subtract(fb3, g.sum(axis=0), out=fb3)
        np.subtract(f2, d2.T @ h1, out=f2)
        np.subtract(fb2, d2.sum(axis=0), out=fb2)
        np.subtract(f1, d1.T @ r2, out=f1)
        np.subtract(fb1, d1.sum(axis=0), out=fb1)
        np.subtract(c2, do2.T @ p2col, out=c2)
        np.subtract(c1, do1.T @ p1col, out=c1)
        return loss

    def state():
        return [c1.reshape(6, 5, 5, 1).transpose(0, 3, 1, 2).copy(),
                c2.reshape(16, 5, 5, 6).transpose(0, 3, 1, 2).copy(),
                f1.reshape(120, 5, 5, 16).transpose(0, 3, 1, 2).reshape(120, 400).copy(),
                fb1.copy(), f2.copy(), fb2.copy(), f3.copy(), fb3.copy()]

    return Prepared(step, state=state)


# ---- W6: tanh RNN cell, 50 steps, forward + backward (BPTT) --------------------------------------
def rnn_prepare() -> Prepared:
    xs, h0, (wx, wh, b) = rnn_data()
    t_steps, batch, hid = RNN_T, RNN_B, RNN_H
    hs = np.empty((t_steps + 1, batch, hid), np.float32)         # h_0 .. h_T
    da = np.empty((t_steps, batch, hid), np.float32)             # dloss / dpre-activation per step
    dh = np.empty((batch, hid), np.float32)
    x2 = xs.reshape(t_steps * batch, -1)

    def step():
        xw = (x2 @ wx).reshape(t_steps, batch, hid)              # all input projections: one gemm
        xw += b
        hs[0] = h0
        for t in range(t_steps):
            np.matmul(hs[t], wh, out=hs[t + 1])
            hs[t + 1] += xw[t]
            np.tanh(hs[t + 1], out=hs[t + 1])
        h = hs[t_steps]
        loss = np.float32(np.mean(h * h))
        dtanh = hs[1:] * hs[1:]                                  # 1 - h^2 for every step at once
        np.subtract(1.0, dtanh, out=dtanh)
        np.multiply(h, np.float32(2.0 / h.size), out=dh)
        wht = wh.T
        for t in range(t_steps - 1, -1, -1):
            np.multiply(dh, dtanh[t], out=da[t])
            if t:
                np.matmul(da[t], wht, out=dh)
        da2 = da.reshape(t_steps * batch, hid)
        dwx = x2.T @ da2
        dwh = hs[:-1].reshape(t_steps * batch, hid).T @ da2
        db = da2.sum(axis=0)
        return loss, dwx, dwh, db

    return Prepared(step, to_numpy=lambda out: list(out))


PREPARE = {"W1": w1_prepare, "W2": w2_prepare, "W3": w3_prepare, "W4": mlp_prepare, "W5": lenet_prepare,
           "W6": rnn_prepare, "W7b": chain_prepare}
