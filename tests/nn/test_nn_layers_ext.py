"""Layers MindSpore 2.10's CPU build cannot run (Unfold = ExtractImagePatches, MatrixDiag*, Roll, InstanceNorm) or
computes wrongly (ClipByNorm with an axis, SeLU's gradient): checked against NumPy references, eagerly and under
jit, with gradients against finite differences."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn

RNG = np.random.default_rng(7)


def _fd(f, x, eps=1e-3):
    """Central finite differences of the scalar f at x (float64)."""
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[idx] = eps
        g[idx] = (f(x + d) - f(x - d)) / (2 * eps)
    return g


def _both(cell, *xs):
    """Eager and jit outputs of ``cell`` agree; returns the eager one."""
    eager = cell(*xs)
    jitted = ms.jit(lambda *a: cell(*a))(*xs)
    pairs = zip(eager if isinstance(eager, tuple) else (eager,), jitted if isinstance(jitted, tuple) else (jitted,))
    for e, j in pairs:
        np.testing.assert_allclose(j.asnumpy(), e.asnumpy(), rtol=1e-6, atol=1e-6)
    return eager


def _unfold_ref(x, k, s, r, same):
    n, c, h, w = x.shape
    eh, ew = (k[0] - 1) * r[0] + 1, (k[1] - 1) * r[1] + 1
    if same:
        oh, ow = -(-h // s[0]), -(-w // s[1])
        ph, pw = max((oh - 1) * s[0] + eh - h, 0), max((ow - 1) * s[1] + ew - w, 0)
        x = np.pad(x, ((0, 0), (0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2)))
    else:
        oh, ow = (h - eh) // s[0] + 1, (w - ew) // s[1] + 1
    out = np.zeros((n, k[0] * k[1] * c, oh, ow), x.dtype)
    for i in range(k[0]):
        for j in range(k[1]):
            for ch in range(c):
                out[:, (i * k[1] + j) * c + ch] = x[:, ch, i * r[0]:i * r[0] + (oh - 1) * s[0] + 1:s[0],
                                                    j * r[1]:j * r[1] + (ow - 1) * s[1] + 1:s[1]]
    return out


@pytest.mark.parametrize("args,same", [(((2, 2), (2, 1), (1, 2)), False), (((3, 2), (2, 2), (1, 1)), True)])
def test_unfold(args, same):
    x = RNG.standard_normal((2, 3, 5, 6)).astype(np.float32)
    k, s, r = args
    cell = nn.Unfold([1, *k, 1], [1, *s, 1], [1, *r, 1], "same" if same else "valid")
    np.testing.assert_allclose(_both(cell, Tensor(x)).asnumpy(), _unfold_ref(x, k, s, r, same), rtol=1e-6)
    g = ms.grad(lambda t: (cell(t) ** 2).sum())(Tensor(x.astype(np.float64))).asnumpy()
    np.testing.assert_allclose(g, _fd(lambda t: (_unfold_ref(t, k, s, r, same) ** 2).sum(), x.astype(np.float64)),
                               rtol=1e-5, atol=1e-6)


def test_matrix_diag_family():
    v = RNG.standard_normal((2, 3)).astype(np.float32)
    m = RNG.standard_normal((2, 4, 3)).astype(np.float32)
    np.testing.assert_allclose(_both(nn.MatrixDiag(), Tensor(v)).asnumpy(), np.stack([np.diag(r) for r in v]))
    np.testing.assert_allclose(_both(nn.MatrixDiagPart(), Tensor(m)).asnumpy(), m * np.eye(4, 3))
    d = RNG.standard_normal((2, 3)).astype(np.float32)
    want = m.copy()
    for b in range(2):
        want[b][np.arange(3), np.arange(3)] = d[b]
    np.testing.assert_allclose(_both(nn.MatrixSetDiag(), Tensor(m), Tensor(d)).asnumpy(), want, rtol=1e-6)


def test_roll():
    x = RNG.standard_normal((3, 2, 4)).astype(np.float32)
    np.testing.assert_array_equal(_both(nn.Roll((1, -2), (0, 2)), Tensor(x)).asnumpy(), np.roll(x, (1, -2), (0, 2)))
    np.testing.assert_array_equal(nn.Roll(5, -1)(Tensor(x)).asnumpy(), np.roll(x, 5, -1))
    with pytest.raises(ValueError):
        nn.Roll(1, 3)(Tensor(x))


def test_clip_by_norm_axis_follows_the_formula():
    """MindSpore 2.10's CPU kernel scales the rows with the wrong norms; sprout computes x * c / max(|x|_axis, c)."""
    x = RNG.standard_normal((3, 5)).astype(np.float32)
    out = _both(nn.ClipByNorm(axis=1), Tensor(x), Tensor(np.float32(1.2))).asnumpy()
    norm = np.sqrt((x ** 2).sum(1, keepdims=True))
    np.testing.assert_allclose(out, x * 1.2 / np.maximum(norm, 1.2), rtol=1e-6)


def test_selu_gradient_is_the_derivative():
    """MindSpore 2.10 returns scale * (y + 1) as SeLU's gradient for x < 0; sprout returns the derivative."""
    x = np.array([-2.0, -0.5, 0.5, 1.5])
    g = ms.grad(lambda t: nn.SeLU()(t).sum())(Tensor(x)).asnumpy()
    scale, alpha = 1.0507009873554805, 1.6732632423543772
    np.testing.assert_allclose(g, np.where(x > 0, scale, scale * alpha * np.exp(x)), rtol=1e-12)


@pytest.mark.parametrize("cls,shape", [(nn.InstanceNorm1d, (2, 3, 5)), (nn.InstanceNorm2d, (2, 3, 4, 3)),
                                       (nn.InstanceNorm3d, (2, 3, 2, 3, 2))])
def test_instance_norm(cls, shape):
    x = RNG.standard_normal(shape).astype(np.float32)
    cell = cls(3, gamma_init=Tensor(np.array([1.0, 2.0, 0.5], np.float32)))
    axes = tuple(range(2, len(shape)))
    bshape = (1, 3) + (1,) * (len(shape) - 2)
    want = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-5) \
        * np.array([1.0, 2.0, 0.5]).reshape(bshape)
    np.testing.assert_allclose(_both(cell, Tensor(x)).asnumpy(), want, rtol=1e-4, atol=1e-5)
    cell.set_train(True)
    cell(Tensor(x))
    count = int(np.prod(shape[2:]))
    np.testing.assert_allclose(cell.moving_mean.asnumpy(), 0.1 * x.mean(axes).mean(0), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(cell.moving_variance.asnumpy(),
                               0.9 + 0.1 * (x.var(axes) * count / (count - 1)).mean(0), rtol=1e-5)
    with pytest.raises(ValueError):
        cell(Tensor(np.ones((2, 3), np.float32)))


def test_channel_dropout_zeroes_whole_channels():
    x = Tensor(np.ones((8, 6, 3, 3), np.float32))
    cell = nn.Dropout2d(0.5).set_train(True)
    ms.set_seed(0)
    y = cell(x).asnumpy()
    per_channel = y.reshape(8, 6, -1)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2.0).all(-1))
    assert 0 < (per_channel == 0).all(-1).mean() < 1
    np.testing.assert_array_equal(nn.Dropout2d(0.5)(x).asnumpy(), x.asnumpy())  # eval mode: identity
    d1 = nn.Dropout1d(0.25).set_train(True)(Tensor(np.ones((4, 5), np.float32))).asnumpy()
    assert np.all((d1 == 0).all(-1) | np.isclose(d1, 1 / 0.75).all(-1))


def test_rrelu_draws_slopes_in_range():
    x = Tensor(-np.ones((200,), np.float32))
    y = nn.RReLU(0.1, 0.3)(x).asnumpy()
    assert np.all(y <= -0.1 + 1e-6) and np.all(y >= -0.3 - 1e-6) and len(np.unique(y)) > 50
    np.testing.assert_array_equal(nn.RReLU()(Tensor(np.ones(3, np.float32))).asnumpy(), np.ones(3))


def test_layers_run_in_graph_mode():
    """GRAPH_MODE compiles the cell's construct as a whole; results equal PyNative."""
    cells = [(nn.Conv3dTranspose(2, 2, 3, stride=2), (1, 2, 2, 3, 2)), (nn.AdaptiveMaxPool2d(3, True), (1, 2, 7, 5)),
             (nn.ReflectionPad2d(1), (1, 2, 3, 3)),
             (nn.MaxPool3d(2, 2, 'pad', 1, return_indices=True), (1, 1, 3, 4, 4)),
             (nn.PixelShuffle(2), (1, 4, 2, 2)), (nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]), (1, 2, 3, 3))]
    for cell, shape in cells:
        x = Tensor(RNG.standard_normal(shape).astype(np.float32))
        want = cell(x)
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            got = cell(x)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
        for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
            np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6, err_msg=type(cell).__name__)


def test_attention_bool_padding_mask_with_float_attn_mask_masks_out():
    """A bool key_padding_mask always masks (-inf), also next to a float attn_mask (MindSpore 2.10 adds it as 0/1
    there); a Transformer runs in GRAPH_MODE with the same result."""
    ms.set_seed(0)
    mha = nn.MultiheadAttention(8, 2)
    q, k = (Tensor(RNG.standard_normal(s).astype(np.float32)) for s in ((4, 2, 8), (5, 2, 8)))
    kpm = np.array([[0, 0, 1, 0, 1], [0, 0, 0, 0, 0]], bool)
    mask = Tensor((RNG.standard_normal((4, 5)) * 0.5).astype(np.float32))
    out_bool, w = mha(q, k, k, key_padding_mask=Tensor(kpm), attn_mask=mask)
    out_float, _ = mha(q, k, k, key_padding_mask=Tensor(np.where(kpm, -np.inf, 0).astype(np.float32)),
                       attn_mask=mask)
    np.testing.assert_allclose(out_bool.asnumpy(), out_float.asnumpy(), rtol=1e-6)
    assert np.all(w.asnumpy()[0][:, kpm[0]] == 0)
    model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
    src, tgt = Tensor(RNG.standard_normal((5, 2, 8)).astype(np.float32)), q
    want = model(src, tgt).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(model(src, tgt).asnumpy(), want, rtol=1e-5, atol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
