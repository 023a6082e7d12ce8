"""Convolution and pooling kernels that split their batch over the executor's two streams (ops/_parallel.py)
compute bitwise what the one-call kernels compute."""
import threading

import numpy as np
import pytest

import sprout as ms
from sprout.backend import pool
from sprout.ops import _parallel, conv_loops, conv_ops, pool_ops
from sprout.ops._scratch import Kept

CASES = {  # x shape, w shape, attributes: each conv kernel path (channel-major, per-sample, numba col2im, strided)
    "lenet1": ((32, 1, 32, 32), (6, 1, 5, 5), {}),
    "lenet2": ((32, 6, 14, 14), (16, 6, 5, 5), {}),
    "padded": ((9, 8, 17, 15), (16, 8, 3, 3), dict(pad_mode="pad", pad=(1, 2, 0, 1))),
    "groups": ((8, 8, 20, 20), (16, 4, 3, 3), dict(groups=2)),
    "strided": ((7, 16, 21, 21), (32, 16, 3, 3), dict(stride=(2, 2))),
}
POOL = dict(kernel=(2, 2), stride=(2, 2), dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), ceil_mode=False)


def _threaded_both(lo, hi):
    """Both halves really at once: ``hi`` on a fresh thread (its own scratch arrays) while ``lo`` runs here."""
    out = {}

    def run():
        out["hi"] = hi()

    t = threading.Thread(target=run)
    t.start()
    a = lo()
    t.join()
    return a, out["hi"]


def _kernels(dtype):
    out = {}
    for name, (xs, ws, attrs) in CASES.items():
        r = np.random.default_rng(len(name))
        a = {**dict(stride=(1, 1), dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), groups=1), **attrs}
        x, w = r.standard_normal(xs).astype(dtype), r.standard_normal(ws).astype(dtype)
        y = conv_ops._conv_impl(x, w, **a)
        d = r.standard_normal(y.shape).astype(dtype)
        keep = Kept()
        y2, cols = conv_ops.conv_keep(x, w, keep, **a)
        dw = conv_ops.filter_grad_from_cols(d, cols, keep, w.shape, **a)
        out[name] = [y, y2, conv_ops._input_grad(d, w, x.shape, **a), conv_ops._filter_grad(d, x, w.shape, **a), dw]
    for shape in ((32, 6, 28, 28), (33, 16, 23, 21)):  # odd batch, a row and a column in no window
        x = np.maximum(np.random.default_rng(1).standard_normal(shape), 0).astype(dtype)  # tied zeros
        p = pool_ops._maxpool_impl(x, **POOL)
        out[shape] = [p, pool_ops._maxpool_grad_impl(x, np.random.default_rng(2).standard_normal(p.shape)
                                                     .astype(dtype), **POOL)]
    return out


@pytest.mark.parametrize("numba_loops", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batch_halves_on_two_threads_are_bitwise_the_one_call_kernels(monkeypatch, numba_loops, dtype):
    if numba_loops:
        pytest.importorskip("numba")
        monkeypatch.setattr(conv_loops.LOOPS, "kernels", conv_loops.LOOPS.load())
    else:
        monkeypatch.setattr(conv_loops.LOOPS, "kernels", {})
    monkeypatch.setattr(conv_ops, "_SPLIT_MACS", 1)   # every case splits, however small
    monkeypatch.setattr(conv_loops, "SPLIT_SIZE", 1)
    monkeypatch.setattr(_parallel, "_active", lambda: False)
    want = _kernels(dtype)
    calls = []
    monkeypatch.setattr(_parallel, "_active", lambda: True)
    monkeypatch.setattr(_parallel, "_both", lambda lo, hi: calls.append(1) or _threaded_both(lo, hi))
    got = _kernels(dtype)
    # every conv case splits its forward (twice: plain and keeping its columns) and both gradients; the pools
    # split with the numba loops only
    assert len(calls) >= 4 * len(CASES) + (4 if numba_loops else 0)
    for key, arrays in want.items():
        for i, (a, b) in enumerate(zip(arrays, got[key])):
            assert a.dtype == b.dtype == dtype and a.shape == b.shape, (key, i)
            np.testing.assert_array_equal(a, b, err_msg=f"{key} output {i}")


def test_filter_gradient_is_the_sum_of_the_batch_halves():
    """Channel-major filter gradients always add the two halves' GEMMs, whether or not they run at once."""
    r = np.random.default_rng(3)
    x, d = r.standard_normal((2, 6, 12, 12)), r.standard_normal((2, 16, 8, 8))
    attrs = ((1, 1), (1, 1), "valid", (0, 0, 0, 0), 1)
    got = conv_ops._filter_grad(d, x, (16, 6, 5, 5), *attrs)
    np.testing.assert_array_equal(got, conv_ops._filter_grad(d[:1], x[:1], (16, 6, 5, 5), *attrs)
                                  + conv_ops._filter_grad(d[1:], x[1:], (16, 6, 5, 5), *attrs))
    want = np.zeros((16, 6, 5, 5))
    for i in range(5):
        for j in range(5):
            want[:, :, i, j] = np.einsum("nohw,nchw->oc", d, x[:, :, i:i + 8, j:j + 8])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_kernels_split_only_on_two_streams_and_never_on_the_worker():
    ms.set_context(inter_op_parallel_num=0)
    try:
        assert not _parallel._active()
        ms.set_context(inter_op_parallel_num=2)
        if pool.streams() < 2:
            pytest.skip("one core")
        assert _parallel._active()
        t = pool.submit(_parallel._active)
        if t.queued and t.done.acquire(timeout=10):  # the worker ran it: its own halves would queue behind it
            assert t.result is False
        else:
            pool.join(t)
        release, started = threading.Event(), threading.Event()
        t = pool.submit(lambda: started.set() or release.wait(10))
        # a task queued or running: no halves beside it (under load the pool may be backing off after lost races:
        # then nothing is queued, the task runs at its join, and halves may split again)
        assert not t.queued or not _parallel._active()
        if started.wait(10) and t.claim.locked():   # the worker runs it (not this thread at a join)
            assert not _parallel._active()
        release.set()
        pool.join(t)
        assert _parallel._active() == (not pool._queue)   # idle again (once the worker dropped stale entries)
    finally:
        ms.set_context(inter_op_parallel_num=0)
