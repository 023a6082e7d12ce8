"""The pooling sequences of ops.FractionalMaxPool / FractionalAvgPool (ops/pool_fractional_tf.py): every draw starts at
0, ends at the input length and steps by floor or ceil of the ratio, in both modes; pseudo-random draws follow
ceil(a (i + u)) - ceil(a u); ``deterministic`` instances repeat their windows, others draw anew."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.ops.pool_fractional_tf import _sequence_impl


@pytest.mark.parametrize("pseudo", [False, True])
@pytest.mark.parametrize("length, out", [(7, 4), (9, 5), (60, 25), (10, 10), (31, 3)])
def test_sequences_have_tensorflow_steps(length, out, pseudo):
    alpha = length / out
    for seed in range(40):
        s = _sequence_impl(seed, length, out, pseudo)
        assert s[0] == 0 and s[-1] == length and len(s) == out + 1
        assert set(np.diff(s).tolist()) <= {length // out, -(-length // out)}, (seed, s)
        if pseudo:  # the inner starts are ceil(a (i + u)) - ceil(a u) for one u
            i = np.arange(1, out)
            assert any(np.array_equal(s[1:-1], np.ceil(alpha * (i + u)) - np.ceil(alpha * u))
                       for u in np.linspace(0, 1, 2001) * min((length + 2) / alpha - 1,
                                                               (length + 1 - 1e-5) / alpha - (out - 1)))


def test_deterministic_instances_repeat_their_windows():
    x = ms.Tensor(np.random.default_rng(0).standard_normal((1, 40, 40, 1)))
    fixed = ops.FractionalMaxPool([1.0, 1.6, 1.6, 1.0], deterministic=True, seed=3)
    first = fixed(x)
    for _ in range(3):
        again = fixed(x)
        assert all(np.array_equal(a.asnumpy(), b.asnumpy()) for a, b in zip(first, again))
    free = ops.FractionalMaxPool([1.0, 1.6, 1.6, 1.0])
    draws = {tuple(free(x)[1].asnumpy()) for _ in range(6)}
    assert len(draws) > 1
