"""Loss cells MindSpore 2.10's CPU build cannot run (SoftMarginLoss, MultilabelMarginLoss, TripletMarginLoss
kernels are missing) against NumPy references; CTCLoss's zero_infinity and (T, C) input; LossBase.get_loss."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn

RNG = np.random.default_rng(11)


def test_soft_margin_loss():
    x = RNG.standard_normal((4, 3)).astype(np.float32)
    y = np.sign(RNG.standard_normal((4, 3))).astype(np.float32)
    got = nn.SoftMarginLoss()(Tensor(x), Tensor(y)).asnumpy()
    np.testing.assert_allclose(got, np.log1p(np.exp(-y * x)).mean(), rtol=1e-6)
    g = ms.grad(lambda t: nn.SoftMarginLoss("sum")(t, Tensor(y)))(Tensor(x)).asnumpy()
    np.testing.assert_allclose(g, -y / (1 + np.exp(y * x)), rtol=1e-5)


def test_multilabel_margin_loss():
    x = RNG.standard_normal((3, 4)).astype(np.float32)
    target = np.array([[3, 0, -1, 1], [1, 2, 3, 0], [-1, 0, 1, 2]], np.int32)
    want = np.zeros(3)
    for n in range(3):
        labels = []
        for t in target[n]:
            if t < 0:
                break
            labels.append(t)
        others = [i for i in range(4) if i not in labels]
        want[n] = sum(max(0.0, 1 - (x[n, j] - x[n, i])) for j in labels for i in others) / 4
    got = nn.MultilabelMarginLoss(reduction="none")(Tensor(x), Tensor(target)).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5)
    jitted = ms.jit(lambda a, b: nn.MultilabelMarginLoss()(a, b))(Tensor(x), Tensor(target)).asnumpy()
    np.testing.assert_allclose(jitted, want.mean(), rtol=1e-5)


@pytest.mark.parametrize("p,swap", [(2, False), (1, True)])
def test_triplet_margin_loss(p, swap):
    a, pos, neg = (RNG.standard_normal((5, 3)).astype(np.float32) for _ in range(3))

    def dist(u, v):
        return (np.abs(u - v + 1e-6) ** p).sum(-1) ** (1 / p)

    d_neg = np.minimum(dist(a, neg), dist(pos, neg)) if swap else dist(a, neg)
    want = np.maximum(dist(a, pos) - d_neg + 0.5, 0)
    cell = nn.TripletMarginLoss(p=p, swap=swap, reduction="none", margin=0.5)
    np.testing.assert_allclose(cell(Tensor(a), Tensor(pos), Tensor(neg)).asnumpy(), want, rtol=1e-5)


def test_ctc_zero_infinity_and_unbatched_input():
    lp = np.log(np.full((3, 1, 3), 1 / 3, np.float32))
    targets = Tensor(np.array([[1, 1]], np.int32))  # needs a blank between the repeats: 3 steps are enough
    il, tl = Tensor(np.array([2], np.int32)), Tensor(np.array([2], np.int32))  # ... but only 2 are given
    assert np.isinf(nn.CTCLoss(reduction="none")(Tensor(lp[:2]), targets, il, tl).asnumpy()).all()
    zero = nn.CTCLoss(reduction="sum", zero_infinity=True)
    assert zero(Tensor(lp[:2]), targets, il, tl).asnumpy() == 0
    g = ms.grad(lambda t: zero(t, targets, il, tl))(Tensor(lp[:2])).asnumpy()
    np.testing.assert_array_equal(g, np.zeros_like(g))
    one = nn.CTCLoss(reduction="none")(Tensor(lp[:, 0]), Tensor(np.array([1, 2], np.int32)),
                                       Tensor(np.array([3], np.int32)), Tensor(np.array([2], np.int32)))
    # alignments of "12" in 3 steps: 12b, 1b2, b12, 112, 122 -> probability 5 / 27
    np.testing.assert_allclose(one.asnumpy(), -np.log(5 / 27), rtol=1e-5)


def test_lossbase_get_loss_weights_and_dtype():
    class Weighted(nn.LossBase):
        def construct(self, logits, labels):
            return self.get_loss(logits - labels, Tensor(np.array([1.0, 2.0], np.float32)))

    x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float16))
    y = Tensor(np.zeros((2, 2), np.float16))
    out = Weighted()(x, y)
    assert out.dtype == ms.float16 and out.asnumpy() == np.float16((1 + 4 + 3 + 8) / 4)
    assert Weighted("sum")(x, y).asnumpy() == 16
    assert Weighted("none")(x, y).shape == (2, 2)
    assert nn.loss.loss.LossBase is nn.LossBase
    with pytest.raises(ValueError):
        nn.LossBase("avg")
