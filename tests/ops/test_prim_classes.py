"""PascalCase classes whose MindSpore 2.10 CPU kernels do not exist (TripletMarginLoss, RmsNorm, Quantile,
LerpScalar; their argument checks are in oracle/cases_prims.py): values against NumPy, eager == jit (AST) == jit
(bytecode), and gradients where the class is differentiable; gradients of the colour-space classes (their values
are in oracle/cases_color.py)."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from modes import MODES, run_in_mode

RNG = np.random.default_rng(7)


def _t(*shape):
    return ms.Tensor(RNG.uniform(-2, 2, shape).astype(np.float32))


def _triplet_ref(a, p, n, margin, norm, eps, swap, reduction):
    def dist(x, y):
        return (np.abs(x - y + eps) ** norm).sum(-1) ** (1.0 / norm)
    d_neg = dist(a, n)
    if swap:
        d_neg = np.minimum(d_neg, dist(p, n))
    loss = np.maximum(dist(a, p) - d_neg + margin, 0)
    return {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("p, swap, reduction", [(2, False, "mean"), (1, True, "none"), (3, False, "sum")])
def test_triplet_margin_loss(mode, p, swap, reduction):
    a, pos, neg = _t(4, 5), _t(4, 5), _t(4, 5)
    margin = ms.Tensor(np.float32(1.5))
    prim = ops.TripletMarginLoss(p=p, swap=swap, reduction=reduction)
    got = run_in_mode(lambda *xs: prim(*xs), [a, pos, neg, margin], mode)
    want = _triplet_ref(a.asnumpy(), pos.asnumpy(), neg.asnumpy(), 1.5, p, 1e-6, swap, reduction)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_triplet_margin_loss_gradient_matches_finite_differences():
    a, pos, neg = (np.asarray(RNG.uniform(-2, 2, (3, 4)), np.float64) for _ in range(3))
    margin = ms.Tensor(np.float64(2.0))
    prim = ops.TripletMarginLoss()
    g = ms.grad(lambda x: prim(x, ms.Tensor(pos), ms.Tensor(neg), margin))(ms.Tensor(a)).asnumpy()
    fd = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        hi, lo = a.copy(), a.copy()
        hi[i] += 1e-6
        lo[i] -= 1e-6
        fd[i] = (_triplet_ref(hi, pos, neg, 2.0, 2, 1e-6, False, "mean")
                 - _triplet_ref(lo, pos, neg, 2.0, 2, 1e-6, False, "mean")) / 2e-6
    np.testing.assert_allclose(g, fd, rtol=1e-4, atol=1e-6)


def test_triplet_margin_loss_rejects_vectors_and_non_tensor_margin():
    x = _t(5)
    with pytest.raises(ValueError, match="TripletMarginLoss"):
        ops.TripletMarginLoss()(x, x, x, ms.Tensor(np.float32(1.0)))
    with pytest.raises(ValueError, match="margin"):
        ops.TripletMarginLoss()(_t(2, 5), _t(2, 5), _t(2, 5), ms.Tensor(np.ones(2, np.float32)))


@pytest.mark.parametrize("mode", MODES)
def test_rms_norm(mode):
    x, gamma = _t(3, 4, 6), _t(4, 6)
    y, rstd = run_in_mode(lambda a, b: ops.RmsNorm(1e-5)(a, b), [x, gamma], mode)
    xs = x.asnumpy().astype(np.float64)
    want_rstd = 1 / np.sqrt((xs ** 2).mean((1, 2), keepdims=True) + 1e-5)
    np.testing.assert_allclose(rstd.asnumpy(), want_rstd, rtol=1e-5)
    np.testing.assert_allclose(y.asnumpy(), xs * want_rstd * gamma.asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dim, keep", [(None, False), (1, True), (0, False)])
def test_quantile(mode, dim, keep):
    x, q = _t(5, 6), ms.Tensor(np.array([0.1, 0.5, 0.95], np.float32))
    got = run_in_mode(lambda a, b: ops.Quantile(dim=dim, keep_dims=keep)(a, b), [x, q], mode)
    want = np.quantile(x.asnumpy(), q.asnumpy(), axis=dim, keepdims=keep)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_quantile_ignore_nan():
    x = np.array([[1.0, np.nan, 5.0], [3.0, 4.0, np.nan], [np.nan, np.nan, np.nan]], np.float32)
    got = ops.Quantile(dim=1, ignore_nan=True)(ms.Tensor(x), ms.Tensor(np.array([0.5], np.float32))).asnumpy()
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        want = np.nanquantile(x, [0.5], axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_lerp_scalar(mode):
    a, b = _t(3, 4), _t(3, 4)
    got = run_in_mode(lambda x, y: ops.LerpScalar()(x, y, 0.25), [a, b], mode)
    np.testing.assert_allclose(got.asnumpy(), a.asnumpy() + 0.25 * (b.asnumpy() - a.asnumpy()), rtol=1e-6)
    with pytest.raises(TypeError, match="weight"):
        ops.LerpScalar()(a, b, "0.5")


@pytest.mark.parametrize("mode", MODES)
def test_nth_element_and_its_gradient_in_every_mode(mode):
    x = _t(3, 6)
    got = run_in_mode(lambda a: ops.NthElement(reverse=True)(a, 2), [x], mode)
    np.testing.assert_array_equal(got.asnumpy(), -np.sort(-x.asnumpy(), -1)[:, 2])
    g = ms.grad(lambda a: ops.NthElement()(a, 1).sum())(x).asnumpy()
    want = (x.asnumpy() == np.sort(x.asnumpy(), -1)[:, 1:2]).astype(np.float32)
    np.testing.assert_array_equal(g, want)


def test_renorm_matches_numpy():
    x = _t(3, 4)
    got = ops.Renorm(2, 1, 1.0)(x).asnumpy()
    xs = x.asnumpy()
    norms = np.sqrt((xs ** 2).sum(0, keepdims=True))
    want = np.where(norms > 1.0, xs / norms, xs)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    with pytest.raises(RuntimeError, match="dim"):
        ops.Renorm(2, 2, 1.0)(x)


def _finite_differences(fn, x, eps=1e-6):
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[i] += eps
        lo[i] -= eps
        grad[i] = (fn(hi) - fn(lo)) / (2 * eps)
    return grad


@pytest.mark.parametrize("make", [lambda: ops.RGBToHSV(), lambda: ops.AdjustSaturation(), lambda: ops.AdjustHue()],
                         ids=["RGBToHSV", "AdjustSaturation", "AdjustHue"])
def test_colour_gradients_match_finite_differences(make):
    prim = make()
    x = RNG.uniform(0.05, 0.95, (1, 2, 2, 3))  # distinct channels: away from the sector boundaries
    weights = RNG.uniform(-1, 1, x.shape)
    extra = () if isinstance(prim, ops.RGBToHSV) else (ms.Tensor(np.float32(0.3)),)

    def loss(a):
        return (prim(a, *extra) * ms.Tensor(weights)).sum()

    got = ms.grad(loss)(ms.Tensor(x)).asnumpy()
    want = _finite_differences(lambda a: float(loss(ms.Tensor(a)).asnumpy()), x)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_non_max_suppression_v3_argument_errors():
    boxes = ms.Tensor(np.array([[0, 0, 1, 1], [0, 0, 1, 1.1]], np.float32))
    scores = ms.Tensor(np.array([0.9, 0.8], np.float32))
    prim = ops.NonMaxSuppressionV3()
    np.testing.assert_array_equal(prim(boxes, scores, 2, 0.5, 0.0).asnumpy(), [0])
    with pytest.raises(TypeError, match="boxes"):
        prim(ms.Tensor(boxes.asnumpy().astype(np.float64)), scores, 2, 0.5, 0.0)
    with pytest.raises(ValueError, match="num_boxes, 4"):
        prim(ms.Tensor(np.ones((2, 3), np.float32)), scores, 2, 0.5, 0.0)
    with pytest.raises(ValueError, match="one score per box"):
        prim(boxes, ms.Tensor(np.ones(3, np.float32)), 2, 0.5, 0.0)
    with pytest.raises(TypeError, match="one dtype"):
        prim(boxes, scores, 2, 0.5, ms.Tensor(np.float16(0.0)))
    with pytest.raises(ValueError, match="iou_threshold"):
        prim(boxes, scores, 2, 1.5, 0.0)


def test_sparse_apply_rejects_duplicate_and_out_of_range_indices():
    var = ms.Parameter(ms.Tensor(np.ones((4, 2), np.float32)), name="v")
    accum = ms.Parameter(ms.Tensor(np.ones((4, 2), np.float32)), name="a")
    grad = ms.Tensor(np.ones((2, 2), np.float32))
    with pytest.raises(ValueError, match="unique"):
        ops.SparseApplyAdagrad(0.1)(var, accum, grad, ms.Tensor(np.array([1, 1], np.int32)))
    with pytest.raises(IndexError, match="SparseApplyAdagrad"):
        ops.SparseApplyAdagrad(0.1)(var, accum, grad, ms.Tensor(np.array([1, 4], np.int32)))
    np.testing.assert_array_equal(var.asnumpy(), np.ones((4, 2)))  # a rejected update leaves the rows as they were
    out, acc = ops.SparseApplyAdagrad(0.5)(var, accum, grad, ms.Tensor(np.array([-1, 0], np.int32)))
    want = np.ones((4, 2), np.float32)
    want[[3, 0]] -= 0.5 / np.sqrt(2.0)
    np.testing.assert_allclose(var.asnumpy(), want, rtol=1e-6)
    np.testing.assert_allclose(acc.asnumpy()[[0, 3]], 2.0)


def test_tridiagonal_matmul_and_matrix_solve_ls_gradients_match_finite_differences():
    sup, main, sub = (RNG.uniform(-1, 1, (1, 4)) for _ in range(3))
    rhs = RNG.uniform(-1, 1, (4, 2))
    w = RNG.uniform(-1, 1, (4, 2))
    tri = ops.TridiagonalMatMul()

    def tri_loss(s):
        return (tri(s, ms.Tensor(main), ms.Tensor(sub), ms.Tensor(rhs)) * ms.Tensor(w)).sum()

    got = ms.grad(tri_loss)(ms.Tensor(sup)).asnumpy()
    np.testing.assert_allclose(got, _finite_differences(lambda s: float(tri_loss(ms.Tensor(s)).asnumpy()), sup),
                               rtol=1e-5, atol=1e-7)
    a, b = RNG.uniform(-1, 1, (5, 3)), RNG.uniform(-1, 1, (5, 2))
    l2 = ms.Tensor(np.float64(0.2))
    wls = RNG.uniform(-1, 1, (3, 2))

    def ls_loss(m):
        return (ops.MatrixSolveLs()(m, ms.Tensor(b), l2) * ms.Tensor(wls)).sum()

    got = ms.grad(ls_loss)(ms.Tensor(a)).asnumpy()
    np.testing.assert_allclose(got, _finite_differences(lambda m: float(ls_loss(ms.Tensor(m)).asnumpy()), a),
                               rtol=1e-5, atol=1e-7)
