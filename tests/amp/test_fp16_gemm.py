"""float16 MatMul / Conv2D (and their gradients) run through float32 BLAS, rounded once: the same values as NumPy's
own float16 matmul (which also accumulates in float32) up to the order of partial sums, and inf past 65504."""
import numpy as np

import sprout as ms
from sprout import ops
from sprout.ops._gemm import gemm


def test_gemm_matches_numpy_float16_matmul():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 16, 96)).astype(np.float16)
    b = rng.standard_normal((96, 24)).astype(np.float16)
    got, want = gemm(a, b), np.matmul(a, b)
    assert got.dtype == np.float16 and got.shape == want.shape
    exact = np.matmul(a.astype(np.float64), b.astype(np.float64))
    # both round a float32 sum once: at most one float16 step apart, and as close to the exact product
    assert np.all(np.abs(got.astype(np.float64) - want) <= np.spacing(np.abs(want)).astype(np.float64))
    assert np.abs(got - exact).max() <= 1.01 * np.abs(want - exact).max() + 1e-3
    ints = rng.integers(-8, 8, (5, 7)).astype(np.float16)
    assert np.array_equal(gemm(ints, ints.T), np.matmul(ints, ints.T))  # exact sums agree bit for bit
    assert gemm(a.astype(np.float32), b.astype(np.float32)).dtype == np.float32


def test_float16_overflow_is_inf_eager_and_jit():
    a = ms.Tensor(np.full((2, 3), 300, np.float16))
    b = ms.Tensor(np.full((3, 2), 300, np.float16))
    for out in (ops.matmul(a, b), ms.jit(lambda x, y: ops.matmul(x, y))(a, b)):
        assert out.dtype == ms.float16 and np.isposinf(out.asnumpy()).all()
    x = ms.Tensor(np.full((1, 1, 3, 3), 200, np.float16))
    w = ms.Tensor(np.full((1, 1, 3, 3), 200, np.float16))
    assert np.isposinf(ops.conv2d(x, w).asnumpy()).all()


def test_float16_conv_gradients_close_to_float32():
    rng = np.random.default_rng(1)
    x32 = rng.standard_normal((2, 3, 6, 6)).astype(np.float32)
    w32 = rng.standard_normal((4, 3, 3, 3)).astype(np.float32) * 0.3

    def grads(dtype):
        f = ms.grad(lambda x, w: ops.conv2d(x, w, pad_mode="pad", padding=1).sum(), grad_position=(0, 1))
        gx, gw = f(ms.Tensor(x32.astype(dtype)), ms.Tensor(w32.astype(dtype)))
        assert gx.dtype == ms.Tensor(x32.astype(dtype)).dtype
        return gx.asnumpy().astype(np.float32), gw.asnumpy().astype(np.float32)

    (gx16, gw16), (gx, gw) = grads(np.float16), grads(np.float32)
    np.testing.assert_allclose(gx16, gx, rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(gw16, gw, rtol=1e-2, atol=3e-2)
