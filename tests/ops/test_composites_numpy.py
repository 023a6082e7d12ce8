"""Composite functions whose MindSpore 2.10 CPU kernels are missing (Roll, Quantile, Fills, Take, Ormqr, Fmin,
NonZeroExt, int32 SearchSorted/Bucketize, diff with n > 1) checked against NumPy instead of the oracle."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

rng = np.random.default_rng(3)
X = rng.uniform(-2, 2, (3, 4)).astype(np.float32)


def T(a):
    return ms.Tensor(a)


def close(got, want, rtol=1e-5):
    np.testing.assert_allclose(got.asnumpy(), want, rtol=rtol, atol=1e-6)
    assert got.asnumpy().dtype == np.asarray(want).dtype


@pytest.mark.parametrize("shifts, dims", [(1, 1), ((2, -1), (0, 1)), (5, None), (-7, 0)])
def test_roll(shifts, dims):
    close(ops.roll(T(X), shifts, dims), np.roll(X, shifts, dims))


@pytest.mark.parametrize("q, axis, keep", [(0.3, 1, False), (np.array([0.1, 0.5, 0.9], np.float32), None, False),
                                           (0.5, 0, True), (1.0, 1, False)])
def test_quantile(q, axis, keep):
    got = ops.quantile(T(X), T(q) if isinstance(q, np.ndarray) else q, axis, keep)
    close(got, np.quantile(X, q, axis=axis, keepdims=keep).astype(np.float32))


def test_nanquantile_and_all_nan_rows():
    x = X.copy()
    x[0, 1] = np.nan
    x[2, :] = np.nan
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        want = np.nanquantile(x, 0.4, axis=1).astype(np.float32)
    close(ops.nanquantile(T(x), 0.4, 1), want)


def test_fills_take_fmin_nonzero_tuple():
    close(ops.fills(T(X), 2.5), np.full_like(X, 2.5))
    idx = np.array([[0, 11], [5, 5]], np.int32)
    close(ops.take(T(X), T(idx)), np.take(X, idx))
    a = np.array([1.0, np.nan, 3.0], np.float32)
    b = np.array([2.0, 1.0, np.nan], np.float32)
    close(ops.fmin(T(a), T(b)), np.fmin(a, b))
    m = np.array([[0, 1, 3], [2, 0, 0]], np.int32)
    for got, want in zip(ops.nonzero(T(m), as_tuple=True), np.nonzero(m)):
        close(got, want.astype(np.int64))


def test_searchsorted_int32_right_and_bucketize():
    s = np.array([1.0, 3.0, 5.0, 7.0], np.float32)
    v = np.array([3.0, 7.0, 0.0], np.float32)
    close(ops.searchsorted(T(s), T(v), right=True, out_int32=True), np.searchsorted(s, v, "right").astype(np.int32))
    x = np.array([[1.0, 3.5], [6.0, 0.0]], np.float32)
    close(ops.bucketize(T(x), [1.0, 3.0, 5.0]), np.searchsorted([1.0, 3.0, 5.0], x).astype(np.int32))
    close(ops.bucketize(T(x), [1.0, 3.0, 5.0], right=True), np.searchsorted([1.0, 3.0, 5.0], x, "right")
          .astype(np.int32))


def test_diff_higher_order():
    close(ops.diff(T(X), 2, 0), np.diff(X, 2, 0))
    close(ops.diff(T(X), 3), np.diff(X, 3))


def test_ormqr_matches_numpy_qr():
    a = rng.uniform(-1, 1, (4, 3))
    c = rng.uniform(-1, 1, (4, 2))
    y, tau = ops.geqrf(T(a))
    q_full = np.linalg.qr(a, mode="complete")[0]
    out = ops.ormqr(y, tau, T(c)).asnumpy()
    # the full Q is unique up to the signs of its columns: compare |Q^T c| through Q Q^T = I instead
    np.testing.assert_allclose(np.linalg.norm(out, axis=0), np.linalg.norm(c, axis=0), rtol=1e-10)
    q_sprout = ops.ormqr(y, tau, T(np.eye(4))).asnumpy()
    np.testing.assert_allclose(np.abs(q_sprout[:, :3]), np.abs(q_full[:, :3]), rtol=1e-9, atol=1e-12)
    out_t = ops.ormqr(y, tau, T(c.T), left=False, transpose=True).asnumpy()
    np.testing.assert_allclose(out_t, c.T @ q_sprout.T, rtol=1e-10, atol=1e-12)


def test_composites_are_differentiable_and_jittable():
    """A few composites built on the new primitives: eager gradient equals jit's."""
    def f(x):
        return (ops.roll(x, 1, 1) * ops.quantile(x, 0.5, 1, True) + ops.cumprod(x, 0)).sum()

    x = T(rng.uniform(0.5, 2.0, (3, 4)))
    want = ms.grad(f)(x)
    got = ms.grad(ms.jit(f))(x)
    np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-12)
