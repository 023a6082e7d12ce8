"""sprout.train.lr: the functional learning-rate lists, checked against values MindSpore 2.10 printed."""
import pytest

from sprout.train import lr as L

# captured from mindspore.nn.* with the same arguments
EXPECTED = {
    "exp": (lambda: L.exponential_decay_lr(0.1, 0.9, 6, 2, 1),
            [0.1, 0.1, 0.09000000000000001, 0.09000000000000001, 0.08100000000000002, 0.08100000000000002]),
    "exp_stair": (lambda: L.exponential_decay_lr(0.1, 0.9, 6, 2, 2, True),
            [0.1, 0.1, 0.1, 0.1, 0.09000000000000001, 0.09000000000000001]),
    "nat": (lambda: L.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True),
            [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657]),
    "inv": (lambda: L.inverse_decay_lr(0.1, 0.5, 6, 2, 2),
            [0.1, 0.1, 0.08, 0.08, 0.06666666666666667, 0.06666666666666667]),
    "inv_stair": (lambda: L.inverse_decay_lr(0.1, 0.5, 6, 2, 2, True),
            [0.1, 0.1, 0.1, 0.1, 0.06666666666666667, 0.06666666666666667]),
    "cos": (lambda: L.cosine_decay_lr(0.01, 0.1, 6, 2, 2),
            [0.1, 0.1, 0.05500000000000001, 0.05500000000000001, 0.01, 0.01]),
    "poly": (lambda: L.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5),
            [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01]),
    "poly_upd": (lambda: L.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 0.5, True),
            [0.1, 0.07363961030678928, 0.01, 0.05500000000000001, 0.01, 0.04674234614174767]),
    "warm": (lambda: L.warmup_lr(0.1, 6, 2, 2),
            [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]),
    "pw": (lambda: L.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01]),
            [0.1, 0.1, 0.05, 0.05, 0.05, 0.01]),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_matches_mindspore(name):
    make, want = EXPECTED[name]
    assert make() == want


def test_argument_errors():
    with pytest.raises(ValueError, match="total_step"):
        L.exponential_decay_lr(0.1, 0.9, 0, 2, 1)
    with pytest.raises(TypeError, match="learning_rate"):
        L.exponential_decay_lr(1, 0.9, 4, 2, 1)
    with pytest.raises(ValueError, match="max_lr"):
        L.cosine_decay_lr(0.2, 0.1, 4, 2, 1)
    with pytest.raises(ValueError, match="same with the size"):
        L.piecewise_constant_lr([2, 4], [0.1])
    with pytest.raises(ValueError, match="greater than"):
        L.piecewise_constant_lr([4, 2], [0.1, 0.2])


def test_exported_from_sprout_train():
    import sprout.train as train
    assert train.cosine_decay_lr is L.cosine_decay_lr and train.piecewise_constant_lr is L.piecewise_constant_lr
