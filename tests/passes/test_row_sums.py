"""Rewrites for unrolled loops' backward: sums of GetItemGrad rows become one concatenation, a Concat of a run
of an earlier Concat's pieces is a slice of it, and a small inner-axis SplitV hands fused kernels contiguous
parts. Values equal eager's; the IR / generated source shows the rewrite."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.jit.api import explain

rng = np.random.default_rng(5)


def _t(*shape):
    return ms.Tensor(rng.standard_normal(shape).astype(np.float32))


def _same(got, want):
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("rows", [(0, 1, 2, 3), (3, 1), (0, 2, 2, -1)])
def test_row_gradients_sum_as_one_concatenation(rows):
    def loss(x, w):
        h = ops.zeros((2, 3), ms.float32)
        for t in rows:                        # x[t] read once per step (twice when t repeats)
            h = ops.tanh(ops.matmul(x[t], w) + h)
        return (h * h).sum()

    x, w = _t(4, 2, 3), _t(3, 3)
    g = ms.grad(loss, (0, 1))
    want = g(x, w)
    jg = ms.jit(g)
    _same(jg(x, w), want)
    src = explain(jg, x, w).source
    distinct = len({t % 4 for t in rows})
    # one scatter stays per repeated row; every distinct row is a piece of one concatenation
    assert src.count("_GetItemGrad(") == len(rows) - distinct
    assert "cat0 = _np.empty((8, 3), _np.float32)" in src or "_np.concatenate(" in src


def test_a_concatenation_of_a_run_of_pieces_is_a_slice():
    def f(a, b, c):
        p0, p1, p2 = a * 2.0, b * 3.0, c * 4.0
        whole = ops.concat((p0, p1, p2), 0)
        tail = ops.concat((p1, p2), 0)
        return whole.sum(0) + 1.0, tail * 2.0

    args = (_t(2, 3), _t(3, 3), _t(1, 3))
    want = f(*args)
    jf = ms.jit(f)
    _same(jf(*args), want)
    src = explain(jf, *args).source
    assert src.count("_np.concatenate") + src.count("_np.empty(") == 1 and "[2:6:,]" in src


def test_a_returned_concatenation_stays_its_own_array():
    def f(a, b, c):
        whole = ops.concat((a * 2.0, b * 3.0, c * 4.0), 0)
        return whole, ops.concat((b * 3.0, c * 4.0), 0)   # returned: never a view of another result

    args = (_t(2, 3), _t(3, 3), _t(1, 3))
    want = f(*args)
    got = ms.jit(f)(*args)
    _same(got, want)
    assert not np.shares_memory(got[0].asnumpy(), got[1].asnumpy())


def test_small_inner_axis_split_gives_contiguous_parts():
    def f(x):
        i, g, o = ops.split(x, (4, 4, 8), axis=1)
        return ops.sigmoid(i) * ops.tanh(g) + o[:, :4] * 2.0

    x = _t(3, 16)
    want = f(x)
    jf = ms.jit(f)
    _same((jf(x),), (want,))
    src = explain(jf, x).source
    assert "x0[:, 0:4].copy(), x0[:, 4:8].copy(), x0[:, 8:16].copy()" in src


def test_weight_gradient_of_a_batched_input_is_one_gemm():
    def loss(x, w):
        return ops.tanh(ops.matmul(x, w, transpose_b=True)).sum()    # x (4, 3, 5) @ w.T, w (6, 5)

    x, w = _t(4, 3, 5), _t(6, 5)
    g = ms.grad(loss, (0, 1))
    want = g(x, w)
    jg = ms.jit(g)
    _same(jg(x, w), want)
    src = explain(jg, x, w).source
    assert "reshape((12, 5))" in src and "reshape((12, 6))" in src    # both operands flattened: one GEMM
    assert "_MatMul(" not in src and "_SumTo(" not in src


def test_batched_transposed_products_are_emitted_as_views():
    def f(a, b):
        return ops.matmul(a, b, transpose_a=True) + ops.matmul(a, b, transpose_b=True).sum()

    a, b = _t(2, 3, 3), _t(2, 3, 3)
    want = f(a, b)
    jf = ms.jit(f)
    _same((jf(a, b),), (want,))
    src = explain(jf, a, b).source
    assert "x0.swapaxes(-1, -2) @ x1" in src and "x0 @ x1.swapaxes(-1, -2)" in src
