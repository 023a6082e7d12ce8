"""Conv2D kernels: the channel-major path (one GEMM; dx of a stride-1 conv as a convolution of dout) against the
per-sample path and a direct sum over the filter taps, on geometries around the path choice."""
import numpy as np
import pytest

from sprout.ops import conv_ops as C

GEOMETRIES = [  # (N, C, O, H, W, kh, kw, stride, dilation, pad_mode, pad)
    (2, 8, 8, 7, 6, 3, 3, (1, 1), (1, 1), "pad", (1, 1, 1, 1)),
    (2, 8, 4, 6, 6, 3, 3, (1, 1), (1, 1), "pad", (1, 1, 1, 1)),      # C > O
    (2, 4, 8, 6, 6, 3, 3, (1, 1), (1, 1), "pad", (1, 1, 1, 1)),      # C < O: dx takes the col2im path
    (2, 8, 8, 8, 8, 3, 3, (2, 2), (1, 1), "pad", (1, 1, 1, 1)),      # stride 2
    (1, 8, 8, 9, 9, 3, 3, (1, 1), (2, 2), "pad", (2, 2, 2, 2)),      # dilation 2
    (2, 16, 8, 6, 5, 2, 2, (1, 1), (1, 1), "same", (0, 0, 0, 0)),    # 'same' with an even kernel: uneven pads
    (2, 8, 8, 6, 6, 3, 3, (1, 1), (1, 1), "pad", (0, 2, 1, 0)),      # asymmetric pads
    (2, 8, 8, 5, 5, 3, 3, (1, 1), (1, 1), "pad", (3, 3, 3, 3)),      # pad > k-1: dx falls back to col2im
    (2, 8, 8, 6, 6, 3, 3, (1, 1), (1, 1), "valid", (0, 0, 0, 0)),
    (2, 64, 16, 8, 8, 1, 1, (2, 2), (1, 1), "valid", (0, 0, 0, 0)),  # 1x1 stride 2, no padding
]


def direct(x, w, stride, dilation, pad_mode, pad):
    """Forward, input and filter gradient as sums over the kh*kw taps (float64)."""
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    gh, gw = C.geometry(h, wd, kh, kw, stride, dilation, pad_mode, pad)
    ho, wo = gh[0], gw[0]
    xp = C.pad_input(x.astype(np.float64), gh, gw)
    taps = {}
    for i in range(kh):
        for j in range(kw):
            r, q = i * dilation[0], j * dilation[1]
            taps[i, j] = (slice(r, r + stride[0] * (ho - 1) + 1, stride[0]),
                          slice(q, q + stride[1] * (wo - 1) + 1, stride[1]))
    out = sum(np.einsum("ncyx,oc->noyx", xp[:, :, a, b], w[:, :, i, j]) for (i, j), (a, b) in taps.items())

    def grads(d):
        dxp = np.zeros_like(xp)
        dw = np.zeros(w.shape)
        for (i, j), (a, b) in taps.items():
            dxp[:, :, a, b] += np.einsum("noyx,oc->ncyx", d, w[:, :, i, j])
            dw[:, :, i, j] = np.einsum("noyx,ncyx->oc", d, xp[:, :, a, b])
        return C.crop(dxp, gh, gw, h, wd), dw

    return out, grads


@pytest.mark.parametrize("geo", GEOMETRIES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_channel_major_path_matches_direct_sums_and_the_per_sample_path(geo, dtype, monkeypatch):
    n, c, o, h, wd, kh, kw, stride, dilation, pad_mode, pad = geo
    rng = np.random.default_rng(sum(geo[:7]))
    x = rng.standard_normal((n, c, h, wd)).astype(dtype)
    w = rng.standard_normal((o, c, kh, kw)).astype(dtype)
    attrs = dict(stride=stride, dilation=dilation, pad_mode=pad_mode, pad=pad, groups=1)
    want, grads = direct(x, w, stride, dilation, pad_mode, pad)
    d = rng.standard_normal(want.shape).astype(dtype)
    want_dx, want_dw = grads(d.astype(np.float64))
    tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-10)
    cols_cm, calls = C._cols_cm, []
    monkeypatch.setattr(C, "_cols_cm", lambda *a: calls.append(1) or cols_cm(*a))
    for rows in (C._CM_MIN_ROWS, 1 << 30):  # the channel-major path where it applies, then never
        monkeypatch.setattr(C, "_CM_MIN_ROWS", rows)
        calls.clear()
        got = (C._conv_impl(x, w, **attrs), C._input_grad(d, w, x.shape, **attrs),
               C._filter_grad(d, x, w.shape, **attrs))
        for g, ref in zip(got, (want, want_dx, want_dw)):
            assert g.dtype == dtype and g.shape == ref.shape and g.flags.c_contiguous
            np.testing.assert_allclose(g, ref, **tol)
        assert bool(calls) == (rows == 64 and c * kh * kw >= 64)


def test_float16_runs_through_float32_gemms():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((2, 8, 6, 6)).astype(np.float16)
    w = (rng.standard_normal((8, 8, 3, 3)) * 0.1).astype(np.float16)
    attrs = dict(stride=(1, 1), dilation=(1, 1), pad_mode="pad", pad=(1, 1, 1, 1), groups=1)
    want, grads = direct(x.astype(np.float32), w.astype(np.float32), (1, 1), (1, 1), "pad", (1, 1, 1, 1))
    d = rng.standard_normal(want.shape).astype(np.float16)
    want_dx, want_dw = grads(d.astype(np.float64))
    for got, ref in ((C._conv_impl(x, w, **attrs), want), (C._input_grad(d, w, x.shape, **attrs), want_dx),
                     (C._filter_grad(d, x, w.shape, **attrs), want_dw)):
        assert got.dtype == np.float16
        np.testing.assert_allclose(got.astype(np.float32), ref, rtol=2e-2, atol=2e-2 * np.abs(ref).max())


@pytest.mark.parametrize("n,c,o,pad_mode", [(1, 8, 1, "pad"), (1, 1, 8, "valid"), (2, 8, 8, "pad"),
                                            (1, 16, 4, "valid")])
def test_results_never_share_the_reused_work_arrays(n, c, o, pad_mode, monkeypatch):
    """im2col copies, GEMM results and col2im accumulators live in per-thread scratch arrays reused by the next
    call; every returned array is its own (also where a transpose of the scratch would already be contiguous:
    one image, one channel), so a second call leaves the first results unchanged."""
    from sprout.ops import _scratch

    rng = np.random.default_rng(n * 100 + c * 10 + o)
    attrs = dict(stride=(1, 1), dilation=(1, 1), pad_mode=pad_mode, pad=(1, 1, 1, 1), groups=1)
    x, x2 = (rng.standard_normal((n, c, 9, 9)).astype(np.float32) for _ in range(2))
    w, w2 = (rng.standard_normal((o, c, 3, 3)).astype(np.float32) for _ in range(2))
    for rows in (C._CM_MIN_ROWS, 1 << 30):
        monkeypatch.setattr(C, "_CM_MIN_ROWS", rows)
        first = C._conv_impl(x, w, **attrs)
        d = rng.standard_normal(first.shape).astype(np.float32)
        got = [first, C._input_grad(d, w, x.shape, **attrs), C._filter_grad(d, x, w.shape, **attrs)]
        kept = [g.copy() for g in got]
        scratch = list(_scratch._local.bufs.values())
        assert not any(np.shares_memory(g, s) for g in got for s in scratch)
        C._conv_impl(x2, w2, **attrs)
        C._input_grad(d * 2, w2, x.shape, **attrs)
        C._filter_grad(d, x2, w.shape, **attrs)
        for g, k in zip(got, kept):
            np.testing.assert_array_equal(g, k)
