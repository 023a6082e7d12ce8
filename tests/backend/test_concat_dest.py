"""Concatenations built in place (backend/concat_dest.py): the pieces' producers write into one buffer; results
equal eager's, and pieces that outlive the concatenation, or are returned, are never overwritten."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.jit.api import explain

rng = np.random.default_rng(11)


def _t(*shape):
    return ms.Tensor(rng.standard_normal(shape).astype(np.float32))


def _check(f, *args):
    want = f(*args)
    jf = ms.jit(f)
    for _ in range(2):  # the second call reuses nothing from the first
        got = jf(*args)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-6)
    return explain(jf, *args).source


def test_gemm_and_ufunc_pieces_write_into_the_buffer_and_stay_readable():
    def f(a, b, w):
        p1 = ops.matmul(a, w)
        p2 = ops.matmul(b, w, transpose_b=True)
        p3 = a * b
        c = ops.concat((p1, p2, p3), 0)
        return c.sum(0), p1 + 1.0, p3 - p2        # pieces read after the concatenation

    src = _check(f, _t(3, 4), _t(3, 4), _t(4, 4))
    assert "_np.concatenate" not in src
    assert "cat0 = _np.empty((9, 4), _np.float32)" in src
    assert "out=cat0[0:3]" in src and "out=cat0[3:6]" in src
    assert ".into((cat0[6:9], None,)" in src                   # p3 in a small fused kernel beside p3 - p2


def test_pieces_that_are_inputs_or_results_are_copied_in():
    def f(a, b, w):
        p1 = ops.matmul(a, w)
        p2 = ops.matmul(b, w)
        return ops.concat((a, p1, p2, p1 * 2.0), 0), p2   # a is an input, p2 a result

    src = _check(f, _t(2, 4), _t(2, 4), _t(4, 4))
    assert "cat0[0:2] = x0" in src and "out=cat0[2:4]" in src and "cat0[4:6] = " in src
    assert "out=cat0[6:8]" in src


def test_a_piece_used_twice_is_not_planned():
    def f(a, w):
        p = ops.matmul(a, w)
        return ops.concat((p, p), 0) * 1.5

    src = _check(f, _t(2, 3), _t(3, 3))
    assert "_np.concatenate" in src and "cat0" not in src


def test_big_buffer_is_not_reused_in_place_while_a_piece_lives():
    # (256, 128) pieces: results this big are normally written into a dead input's buffer (out=); the
    # concatenation is dead after exp, but p1 (a view of its rows) is read afterwards
    def f(a, b, w):
        p1 = ops.matmul(a, w)
        p2 = ops.matmul(b, w)
        c = ops.concat((p1, p2), 0)
        e = ops.exp(c * 0.01)
        return e, p1 * 2.0

    _check(f, _t(256, 128), _t(256, 128), _t(128, 128))


def test_other_axes_keep_np_concatenate():
    def f(a, w):
        p1 = ops.matmul(a, w)
        p2 = ops.matmul(a, w) * 2.0
        return ops.concat((p1, p2), 1)

    src = _check(f, _t(2, 3), _t(3, 3))
    assert "_np.concatenate" in src


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_rnn_backward_concatenates_in_place_at_every_level(level, monkeypatch):
    from sprout.backend import kernels, small

    monkeypatch.setattr(small, "TIER_UP_CALLS", 1)   # small kernels compiled from the second call on
    class RNN(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.wx = ms.Parameter(_t(6, 5), name="wx")
            self.wh = ms.Parameter(_t(5, 5), name="wh")
            self.b = ms.Parameter(_t(5), name="b")

        def construct(self, xs, h):
            for t in range(5):
                h = ops.tanh(ops.matmul(xs[t], self.wx) + ops.matmul(h, self.wh) + self.b)
            return ops.mean(h * h)

    net = RNN()
    grad_fn = ms.value_and_grad(net, None, net.trainable_params())
    xs, h = _t(5, 3, 6), _t(3, 5)
    want_loss, want = grad_fn(xs, h)
    jf = ms.jit(lambda a, b: grad_fn(a, b), jit_level=level)
    for _ in range(4):
        loss, got = jf(xs, h)
        np.testing.assert_allclose(loss.asnumpy(), want_loss.asnumpy(), rtol=1e-5)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-4, atol=1e-6)
    src = explain(jf, xs, h).source
    assert "_np.concatenate" not in src and "[::-1" not in src   # rows in step order: no reversed copy of xs
    if level == "O1" and kernels.numba_available():   # the steps' small kernels wrote their rows themselves
        assert ".into((cat" in src
        assert any(getattr(k, "fast_into", None) for k in kernels._built.values())
