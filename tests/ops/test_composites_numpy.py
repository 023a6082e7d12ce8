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


def _conv_transpose_ref(x, w, stride, pad, out_pad, groups, dil):
    n, cin, h, wd = x.shape
    _, cog, kh, kw = w.shape
    ho = (h - 1) * stride[0] - 2 * pad[0] + dil[0] * (kh - 1) + out_pad[0] + 1
    wo = (wd - 1) * stride[1] - 2 * pad[1] + dil[1] * (kw - 1) + out_pad[1] + 1
    full = np.zeros((n, cog * groups, ho + 2 * pad[0] + kh * dil[0], wo + 2 * pad[1] + kw * dil[1]))
    cig = cin // groups
    for b in range(n):
        for ci in range(cin):
            g = ci // cig
            for i in range(h):
                for j in range(wd):
                    for a in range(kh):
                        for c in range(kw):
                            full[b, g * cog:(g + 1) * cog, i * stride[0] + a * dil[0], j * stride[1] + c * dil[1]] += \
                                x[b, ci, i, j] * w[ci, :, a, c]
    return full[:, :, pad[0]:pad[0] + ho, pad[1]:pad[1] + wo]


@pytest.mark.parametrize("stride, pad, out_pad, groups, dil", [((2, 2), (1, 1), (1, 1), 1, (1, 1)),
                                                               ((1, 2), (0, 0), (0, 0), 2, (2, 2))])
def test_conv_transpose2d(stride, pad, out_pad, groups, dil):
    x = rng.uniform(-1, 1, (1, 4, 3, 4))
    w = rng.uniform(-1, 1, (4, 3, 3, 2))
    b = rng.uniform(-1, 1, (3 * groups,))
    got = ops.conv_transpose2d(T(x), T(w), T(b), stride, pad, out_pad, groups, dil)
    want = _conv_transpose_ref(x, w, stride, pad, out_pad, groups, dil) + b.reshape(1, -1, 1, 1)
    close(got, want, rtol=1e-10)


def test_norms_swiglu_accumulate():
    x = rng.uniform(-1, 1, (2, 3, 4))
    g = rng.uniform(0.5, 1.5, (4,))
    y, rstd = ops.rms_norm(T(x), T(g))
    want_rstd = 1 / np.sqrt((x ** 2).mean(-1, keepdims=True) + 1e-6)
    close(y, x * want_rstd * g, rtol=1e-10)
    close(rstd, want_rstd, rtol=1e-10)
    y2, _, s = ops.add_rms_norm(T(x), T(x), T(g))
    close(s, 2 * x)
    bb = rng.uniform(-1, 1, (4,))
    out, mean, r = ops.add_layer_norm(T(x), T(x), T(g), T(bb))
    s2 = 2 * x
    mu, var = s2.mean(-1, keepdims=True), s2.var(-1, keepdims=True)
    close(out, (s2 - mu) / np.sqrt(var + 1e-5) * g + bb, rtol=1e-10)
    sw = ops.swiglu(T(x))
    a, c = x[..., :2], x[..., 2:]
    close(sw, a * c / (1 + np.exp(-c)), rtol=1e-10)
    close(ops.accumulate_n([T(x), T(x), T(x)]), 3 * x)


def test_embedding_padding_idx_and_max_norm():
    w = ms.Parameter(T(rng.uniform(-2, 2, (5, 3))), name="table")
    idx = T(np.array([[0, 2], [4, 2]], np.int32))
    before = w.asnumpy().copy()
    out = ops.embedding(idx, w, max_norm=1.0)
    norms = np.linalg.norm(before, axis=1, keepdims=True)
    fixed = np.where(norms > 1.0, before * (1.0 / (norms + 1e-7)), before)
    used = [0, 2, 4]
    np.testing.assert_allclose(w.asnumpy()[used], fixed[used], rtol=1e-10)
    np.testing.assert_allclose(w.asnumpy()[[1, 3]], before[[1, 3]])
    close(out, fixed[idx.asnumpy()], rtol=1e-10)
    table = T(rng.uniform(-1, 1, (4, 3)))
    grad = ms.grad(lambda t: ops.embedding(T(np.array([0, 1, 1, 3], np.int32)), t, padding_idx=1).sum())(table)
    np.testing.assert_allclose(grad.asnumpy(), np.array([[1.0] * 3, [0.0] * 3, [0.0] * 3, [1.0] * 3]))


def test_roi_align_gradients_match_finite_differences_and_jit():
    feats = rng.uniform(-1, 1, (2, 2, 5, 6))
    rois = T(np.array([[0, 0.5, 0.7, 3.2, 3.9], [1, 1.0, 0.2, 4.6, 2.8]]))
    w = rng.uniform(0.5, 1.5, (2, 2, 2, 3))

    def loss(x):
        return (ops.ROIAlign(2, 3, 1.0, 2, 1)(x, rois) * T(w)).sum()

    g = ms.grad(loss)(T(feats)).asnumpy()
    eps = 1e-6
    fd = np.zeros_like(feats)
    for idx in np.ndindex(feats.shape):
        hi, lo = feats.copy(), feats.copy()
        hi[idx] += eps
        lo[idx] -= eps
        fd[idx] = (loss(T(hi)).asnumpy() - loss(T(lo)).asnumpy()) / (2 * eps)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ms.grad(ms.jit(loss))(T(feats)).asnumpy(), g, rtol=1e-12)


def test_inplace_spellings_and_ext_aliases():
    x = T(np.array([0.5, -2.0, 3.0], np.float32))
    y = ops.tanh_(x)
    assert y is x
    close(x, np.tanh(np.array([0.5, -2.0, 3.0], np.float32)))
    z = T(np.array([0.5, -2.0, 3.0], np.float32))
    ops.clamp_(z, -1.0, 1.0)
    close(z, np.array([0.5, -1.0, 1.0], np.float32))
    a, b = X, X[::-1]
    close(ops.mse_loss_ext(T(a), T(b)), np.float32(((a - b) ** 2).mean()))


def test_rotary_position_embedding_both_modes(tmp_path):
    x = rng.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
    cos = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
    sin = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
    half = np.concatenate([-x[..., 2:], x[..., :2]], -1)
    close(ops.rotary_position_embedding(T(x), T(cos), T(sin)), x * cos + half * sin)
    pairs = np.stack([-x[..., 1::2], x[..., 0::2]], -1).reshape(x.shape)
    close(ops.rotary_position_embedding(T(x), T(cos), T(sin), 1), x * cos + pairs * sin)
    ops.tensordump(str(tmp_path / "dump"), T(x))  # MindSpore's naming: <file>_<dtype>_<id>.npy
    (path,) = tmp_path.glob("dump_float32_*.npy")
    np.testing.assert_array_equal(np.load(path), x)
