"""Fast paths of the code generator and the GEMM rewrites: same results as eager (and as the unrewritten
graph), and the generated source really uses them."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from sprout.jit.api import explain
from sprout.ops import conv_ops, pool_ops

rng = np.random.default_rng(3)


def _t(*shape):
    return ms.Tensor(rng.standard_normal(shape).astype(np.float32))


class _RNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.wx = ms.Parameter(_t(6, 5), name="wx")
        self.wh = ms.Parameter(_t(5, 5), name="wh")
        self.b = ms.Parameter(_t(5), name="b")

    def construct(self, xs, h):
        for t in range(4):
            h = ops.tanh(ops.matmul(xs[t], self.wx) + ops.matmul(h, self.wh) + self.b)
        return ops.mean(h * h)


def _rnn_jit_source(net, steps: int) -> str:
    """The jitted loss and gradients of ``net`` over ``steps`` steps, checked against eager; the generated source."""
    grad_fn = ms.value_and_grad(net, None, net.trainable_params())
    xs, h = _t(steps, 3, 6), _t(3, 5)
    want_loss, want = grad_fn(xs, h)
    jf = ms.jit(lambda a, b: grad_fn(a, b))
    got_loss, got = jf(xs, h)
    np.testing.assert_allclose(got_loss.asnumpy(), want_loss.asnumpy(), rtol=1e-5)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-4, atol=1e-6)
    return explain(jf, xs, h).source


def test_rnn_grads_use_one_gemm_per_weight_and_match_eager():
    src = _rnn_jit_source(_RNN(), 4)
    assert "reshape((12, 6))" in src            # the input projection of every step: one GEMM
    # weight gradients summed over steps: one GEMM each, over a concatenation the steps write in place
    assert "_np.concatenate" not in src and "cat0 = _np.empty((12, 5), _np.float32)" in src and "out=cat0[" in src
    assert src.count(".T @") <= 3


def test_training_step_updates_parameters_through_fused_gemm_like_eager():
    def make():
        net = nn.SequentialCell([nn.Dense(7, 6), nn.ReLU(), nn.Dense(6, 3)])
        for p, v in zip(net.trainable_params(), init):
            p.set_data(ms.Tensor(v))
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
        grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

        def step(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss

        return net, step

    init = [rng.standard_normal(s).astype(np.float32) for s in ((6, 7), (6,), (3, 6), (3,))]
    x, y = _t(5, 7), ms.Tensor(np.array([0, 2, 1, 1, 0], np.int32))
    net_e, step_e = make()
    net_j, step_j = make()
    step_j = ms.jit(step_j)
    for _ in range(3):
        le, lj = step_e(x, y), step_j(x, y)
        np.testing.assert_allclose(lj.asnumpy(), le.asnumpy(), rtol=1e-5)
    for pe, pj in zip(net_e.trainable_params(), net_j.trainable_params()):
        np.testing.assert_allclose(pj.asnumpy(), pe.asnumpy(), rtol=1e-5, atol=1e-6)
    assert "_gemm_descent" in explain(step_j, x, y).source


def _conv_ref(x, w, stride, pad):
    """Direct-loop reference convolution (NCHW, zero padding (top, bottom, left, right))."""
    xp = np.pad(x, ((0, 0), (0, 0), pad[:2], pad[2:]))
    n, c, h, wd = xp.shape
    o, _, kh, kw = w.shape
    ho, wo = (h - kh) // stride[0] + 1, (wd - kw) // stride[1] + 1
    out = np.zeros((n, o, ho, wo))
    for i in range(ho):
        for j in range(wo):
            patch = xp[:, :, i * stride[0]:i * stride[0] + kh, j * stride[1]:j * stride[1] + kw]
            out[:, :, i, j] = np.einsum("nchw,ochw->no", patch, w)
    return out


def test_weight_used_transposed_by_many_small_gemms_is_copied_once_and_matches_eager():
    class RNN6(_RNN):
        def construct(self, xs, h):
            for t in range(6):
                h = ops.tanh(ops.matmul(xs[t], self.wx) + ops.matmul(h, self.wh) + self.b)
            return ops.mean(h * h)

    src = _rnn_jit_source(RNN6(), 6)
    copies = [ln.split("=")[0].strip() for ln in src.splitlines() if "_np.ascontiguousarray(" in ln]
    assert len(copies) == 1                     # wh.T, for the 5 backward steps' dh @ wh.T
    assert src.count(f"@ {copies[0]}") == 5


def test_conv_kernels_match_a_direct_loop_and_their_adjoints():
    for stride, pad in (((1, 1), (0, 0, 0, 0)), ((1, 1), (1, 2, 0, 3)), ((2, 1), (1, 1, 1, 1))):
        attrs = dict(stride=stride, dilation=(1, 1), pad_mode="pad", pad=pad, groups=1)
        x, w = rng.standard_normal((3, 4, 9, 8)), rng.standard_normal((6, 4, 3, 2))
        y = conv_ops._conv_impl(x, w, **attrs)
        np.testing.assert_allclose(y, _conv_ref(x, w, stride, pad), rtol=1e-10, atol=1e-10)
        d = rng.standard_normal(y.shape)
        dx = conv_ops._input_grad(d, w, x.shape, **attrs)
        dw = conv_ops._filter_grad(d, x, w.shape, **attrs)
        # adjoint identities: <conv(x, w), d> == <x, dx> == <w, dw>
        np.testing.assert_allclose(np.vdot(y, d), np.vdot(x, dx), rtol=1e-10)
        np.testing.assert_allclose(np.vdot(y, d), np.vdot(w, dw), rtol=1e-10)


class _ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, pad_mode="valid")                         # per-sample columns (K = 9)
        self.c2 = nn.Conv2d(8, 4, 3, pad_mode="pad", padding=1)                # channel-major columns (K = 72)
        self.c3 = nn.Conv2d(4, 4, 3, stride=2, pad_mode="same", group=2)       # grouped, strided

    def construct(self, x):
        y = self.c3(ops.relu(self.c2(ops.relu(self.c1(x)))))
        return ops.mean(y * y)


def test_conv_forward_keeps_its_columns_for_the_filter_gradient_and_matches_eager():
    net = _ConvNet()
    grad_fn = ms.value_and_grad(net, None, net.trainable_params())
    x = ms.Tensor(np.random.default_rng(11).standard_normal((3, 1, 9, 10)).astype(np.float32))  # (not rng: keep
    # the module stream other tests draw from as it was)
    want_loss, want = grad_fn(x)
    jf = ms.jit(lambda a: grad_fn(a))
    for _ in range(2):  # the second call reuses the kept buffers
        got_loss, got = jf(x)
        np.testing.assert_allclose(got_loss.asnumpy(), want_loss.asnumpy(), rtol=1e-6)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-7)
    src = explain(jf, x).source
    assert src.count("_produce") == 3 and src.count("_consume") == 3
    assert "Conv2DBackpropFilter(" not in src


def test_kept_buffer_is_lent_once_at_a_time():
    from sprout.ops._scratch import Kept

    k = Kept()
    a = k.take((4, 5), np.float32)
    b = k.take((4, 5), np.float32)          # still lent: a fresh array
    assert not np.shares_memory(a, b)
    k.give_back(b)                          # not the lent one: the loan goes on
    assert not np.shares_memory(k.take((2, 3), np.float32), a)
    k.give_back(a)
    c = k.take((2, 3), np.float64)          # back: the same memory again
    assert np.shares_memory(c, a)


def test_numba_col2im_input_gradient_matches_the_numpy_forms(monkeypatch):
    pytest.importorskip("numba")
    from sprout.ops import conv_loops

    loops = conv_loops.LOOPS.load()
    r = np.random.default_rng(5)
    for dtype in (np.float32, np.float64):
        for pad, dil, stride in (((0, 0, 0, 0), (1, 1), (1, 1)), ((1, 2, 0, 3), (1, 1), (1, 1)),
                                 ((1, 1, 1, 1), (1, 1), (2, 1)), ((2, 0, 1, 1), (2, 1), (1, 1))):
            attrs = dict(stride=stride, dilation=dil, pad_mode="pad", pad=pad, groups=1)
            x, w = r.standard_normal((6, 5, 19, 17)).astype(dtype), r.standard_normal((16, 5, 3, 4)).astype(dtype)
            d = r.standard_normal(conv_ops._conv_impl(x, w, **attrs).shape).astype(dtype)
            monkeypatch.setattr(conv_loops.LOOPS, "kernels", loops)
            assert conv_loops.usable(d.size * 12, dtype, stride, dil) == (stride == dil == (1, 1))
            got = conv_ops._input_grad(d, w, x.shape, **attrs)
            monkeypatch.setattr(conv_loops.LOOPS, "kernels", {})  # the NumPy forms
            want = conv_ops._input_grad(d, w, x.shape, **attrs)
            assert got.dtype == want.dtype == dtype and got.flags.c_contiguous
            np.testing.assert_allclose(got, want, rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-5)


@pytest.mark.parametrize("numba_loops", [False, True])
def test_tiled_2x2_max_pool_loops_match_the_numpy_taps(monkeypatch, numba_loops):
    from sprout.ops import conv_loops

    if numba_loops:
        pytest.importorskip("numba")
        monkeypatch.setattr(conv_loops.LOOPS, "kernels", conv_loops.LOOPS.load())
    else:
        monkeypatch.setattr(conv_loops.LOOPS, "kernels", {})
    attrs = dict(kernel=(2, 2), stride=(2, 2), dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), ceil_mode=False)
    r = np.random.default_rng(11)
    for dtype in (np.float32, np.float64):
        for shape in ((8, 16, 32, 32), (9, 15, 33, 31)):   # odd: the last row / column is in no window
            x = np.maximum(r.standard_normal(shape), 0).astype(dtype)   # ties at 0
            x[0, 0, 0, 1] = np.nan                                     # a NaN wins its window
            x[1, 2, 4:6, 6:8] = np.inf
            assert conv_loops.pool_usable(x, (2, 2)) == numba_loops
            y = pool_ops._maxpool_impl(x, **attrs)
            taps = [x[:, :, i:i + 2 * y.shape[2]:2, j:j + 2 * y.shape[3]:2] for i in range(2) for j in range(2)]
            want = np.maximum(np.maximum(np.maximum(taps[0], taps[1]), taps[2]), taps[3])
            np.testing.assert_array_equal(y, want)
            assert y.dtype == dtype and np.isnan(y[0, 0, 0, 0])
            d = r.standard_normal(y.shape).astype(dtype)
            d[2, 3, 1, 1] = np.inf                                      # off-maximum taps stay exactly 0
            g = pool_ops._maxpool_grad_impl(x, d, **attrs)
            want_g = np.zeros_like(x)
            free = np.ones(y.shape, bool)
            for k, t in enumerate(taps):
                hit = free & (t == y)
                want_g[:, :, k // 2:k // 2 + 2 * y.shape[2]:2, k % 2:k % 2 + 2 * y.shape[3]:2][hit] = d[hit]
                free &= ~hit
            np.testing.assert_array_equal(g, want_g)
            assert not np.isnan(g).any() and g[0, 0, 0, 1] == 0 and g[0, 0, 0, 0] == 0


def test_tiled_max_pool_grad_routes_ties_to_the_first_tap():
    attrs = dict(kernel=(2, 2), stride=(2, 2), dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), ceil_mode=False)
    for shape in ((2, 3, 8, 8), (2, 3, 9, 7)):
        x = np.maximum(rng.standard_normal(shape), 0).astype(np.float32)  # many tied zeros
        d = rng.standard_normal(pool_ops._maxpool_impl(x, **attrs).shape).astype(np.float32)
        g = pool_ops._maxpool_grad_impl(x, d, **attrs)
        want = np.zeros_like(x)
        for n in range(shape[0]):
            for c in range(shape[1]):
                for i in range(shape[2] // 2):
                    for j in range(shape[3] // 2):
                        win = x[n, c, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
                        k = int(np.argmax(win))
                        want[n, c, 2 * i + k // 2, 2 * j + k % 2] = d[n, c, i, j]
        np.testing.assert_array_equal(g, want)


def test_gemm_descent_matches_matmul_then_update_for_every_layout():
    from sprout.backend.pycodegen import _gemm_descent

    for dtype in (np.float32, np.float64, np.float16):
        for ta in (False, True):
            for tb in (False, True):
                a = rng.standard_normal((4, 3) if ta else (3, 4)).astype(dtype)
                b = rng.standard_normal((5, 4) if tb else (4, 5)).astype(dtype)
                var = rng.standard_normal((3, 5)).astype(dtype)
                want = var - np.asarray(0.1, dtype) * ((a.T if ta else a) @ (b.T if tb else b))
                out = _gemm_descent(var, np.asarray(0.1, np.float32), a, b, ta, tb)
                assert out is var
                np.testing.assert_allclose(var, want, rtol=1e-2 if dtype == np.float16 else 1e-5)


def test_sum_of_matmuls_with_other_terms_merges_and_matches_eager():
    def f(a1, b1, a2, b2, c, s1, s2):
        mm = ops.matmul(a1, b1, transpose_a=True) + c + ops.matmul(a2, b2, transpose_a=True)
        return mm + ops.matmul(b1, ops.transpose(a1, (1, 0)), transpose_a=True, transpose_b=True), \
            ops.sum_to(s1, (4,)) + ops.sum_to(s2, (4,)) if hasattr(ops, "sum_to") else s1.sum(0) + s2.sum(0)

    args = (_t(3, 4), _t(3, 4), _t(2, 4), _t(2, 4), _t(4, 4), _t(5, 4), _t(5, 4))
    want = f(*args)
    jf = ms.jit(f)
    got = jf(*args)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-6)
    assert "_np.concatenate" in explain(jf, *args).source


def test_float_mask_of_a_bool_stays_alive_and_typed():
    def f(x, y):
        m = x > 0                                # bool, large: eligible for in-place reuse
        fm = ops.cast(m, ms.float32)             # only used by operators: the cast is elided
        n = ops.logical_not(m)                   # last direct use of m
        return y * fm + ops.cast(n, ms.float32) * 2.0, fm * fm

    x, y = _t(200, 200), _t(200, 200)
    want = f(x, y)
    got = ms.jit(f)(x, y)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)


def test_rnn_training_step_with_in_place_updates_matches_eager():
    def make():
        net = _RNN()
        for p, v in zip(net.trainable_params(), init):
            p.set_data(ms.Tensor(v))
        opt = nn.SGD(net.trainable_params(), learning_rate=0.05)
        grad_fn = ms.value_and_grad(net, None, opt.parameters)

        def step(xs, h):
            loss, grads = grad_fn(xs, h)
            opt(grads)
            return loss

        return net, step

    init = [p.asnumpy().copy() for p in _RNN().trainable_params()]
    xs, h = _t(4, 3, 6), _t(3, 5)
    net_e, step_e = make()
    net_j, step_j = make()
    step_j = ms.jit(step_j)
    for _ in range(3):
        np.testing.assert_allclose(step_j(xs, h).asnumpy(), step_e(xs, h).asnumpy(), rtol=1e-5)
    for pe, pj in zip(net_e.trainable_params(), net_j.trainable_params()):
        np.testing.assert_allclose(pj.asnumpy(), pe.asnumpy(), rtol=1e-5, atol=1e-6)
    src = explain(step_j, xs, h).source
    assert "reshape((12, 6))" in src and "cat0 = _np.empty((12, 5), _np.float32)" in src


def test_broadcast_used_only_by_operators_is_left_to_numpy():
    def f(x, y, z):
        b = ops.broadcast_to(x, (4, 5))
        c = ops.broadcast_to(z, (4, 5))
        return b * y - y, ops.exp(c) + b

    args = (_t(4, 1), _t(4, 5), _t(1, 5))
    want = f(*args)
    jf = ms.jit(f, jit_level="O0")   # (under O1 the operators are a fused small group, which reads b itself)
    got = jf(*args)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)
    assert explain(jf, *args).source.count("_BroadcastTo") == 1   # c feeds exp: materialised


def test_dropped_broadcasts_keep_the_result_shape():
    """Two BroadcastTo operands of one Add: the operator may broadcast one of them by itself, not both
    (the result was 0-d; found by the fuzzer, seed 232)."""
    def f(x, y):
        return ops.add(ops.broadcast_to(x.mean(), (3, 3)), ops.broadcast_to(y.mean(), (3, 3)))

    x, y = _t(3, 2), _t(3, 2)
    out = ms.jit(f)(x, y)
    assert out.shape == (3, 3)
    np.testing.assert_allclose(out.asnumpy(), f(x, y).asnumpy(), rtol=1e-6)
    gx, gy = ms.grad(ms.jit(f), (0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), np.full((3, 2), 1.5, np.float32), rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), np.full((3, 2), 1.5, np.float32), rtol=1e-6)


def test_sign_of_a_dead_big_input_is_not_written_in_place():
    """NumPy's float32 sign runs ~12x slower with out= its own input: the generator gives it a fresh array while
    the next big ufunc still reuses a dead input."""
    def f(x, d):
        y = x * 2.0
        return ops.sign(y) * d

    jf = ms.jit(f, jit_level="O0")
    x, d = _t(64, 1024), _t(64, 1024)
    src = explain(jf, x, d).source
    assert "= _np.sign(v0)" in src
    assert "_np.multiply(v1, x1, out=v1)" in src   # the multiply still writes into the dead sign result
    want = np.sign(x.asnumpy() * 2) * d.asnumpy()
    np.testing.assert_array_equal(jf(x, d).asnumpy(), want)
    np.testing.assert_array_equal(f(x, d).asnumpy(), want)
