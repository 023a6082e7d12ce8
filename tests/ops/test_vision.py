"""Misuse of the issue-10 image ops where MindSpore 2.10 CPU gives no fixture (ComputeAccidentalHits has no CPU
kernel) or where sprout's compile-time rules apply (a size that is not a constant), and the seeded noise."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops, Tensor


def test_compute_accidental_hits_misuse():
    t, s = Tensor(np.array([[1, 2]], np.int64)), Tensor(np.array([2, 1, 2], np.int64))
    with pytest.raises(TypeError, match="ComputeAccidentalHits.*num_true"):
        ops.ComputeAccidentalHits(1.0)
    with pytest.raises(TypeError, match="ComputeAccidentalHits: true_classes"):
        ops.ComputeAccidentalHits(2)(Tensor(np.array([[1.0, 2.0]], np.float32)), s)
    with pytest.raises(ValueError, match="ComputeAccidentalHits: true_classes has 2 columns, num_true is 3"):
        ops.ComputeAccidentalHits(3)(t, s)
    with pytest.raises(TypeError, match="ComputeAccidentalHits: true_classes and sampled_candidates must be Tensors"):
        ops.ComputeAccidentalHits(2)([[1, 2]], s)
    idx, ids, w = ops.ComputeAccidentalHits(2)(t, s)
    assert idx.tolist() == [0, 0, 0] and ids.tolist() == [1, 0, 2] and w.dtype == ms.float32


@pytest.mark.parametrize("op", ["ScaleAndTranslate", "ExtractGlimpse"])
def test_size_must_be_a_constant_under_jit(op):
    x = Tensor(np.ones((1, 4, 4, 1), np.float32))
    size = Tensor(np.array([2, 2], np.int32))
    if op == "ScaleAndTranslate":
        fn = ms.jit(lambda a, n: ops.ScaleAndTranslate()(a, n, Tensor(np.ones(2, np.float32)),
                                                        Tensor(np.zeros(2, np.float32))))
    else:
        fn = ms.jit(lambda a, n: ops.ExtractGlimpse()(a, n, Tensor(np.zeros((1, 2), np.float32))))
    with pytest.raises(ValueError, match=f"{op}: the value of size must be constant"):
        fn(x, size)


def test_extract_glimpse_noise_follows_set_seed_and_is_not_differentiable():
    x = Tensor(np.ones((1, 3, 3, 1), np.float32))
    op = ops.ExtractGlimpse(False, False, False, "gaussian")
    size, off = Tensor(np.array([5, 5], np.int32)), Tensor(np.array([[0.0, 0.0]], np.float32))
    ms.set_seed(3)
    a = op(x, size, off).asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(op(x, size, off).asnumpy(), a)
    noise = a[0, :2].ravel()  # rows -2, -1: outside the image
    assert 8.0 < noise.mean() < 12.0 and noise.min() >= 0
    with pytest.raises(TypeError, match="ExtractGlimpse is not differentiable"):
        ms.grad(lambda v: op(v, size, off).sum())(x)
