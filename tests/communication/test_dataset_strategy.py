"""``dataset_strategy`` as a tuple of input strategies or Layouts (set_auto_parallel_context, AutoParallel): each rank
feeds its block of every input's layout (a strategy using fewer devices repeats on the right, MindSpore's rule);
semi-auto training equals one process (simulated mesh, 2 and 4 ranks)."""
import numpy as np
import pytest

import sprout as ms
from sprout import context, nn
from sprout.communication import get_rank, init, simulate
from sprout.parallel.auto_parallel import AutoParallel
from sprout.parallel.spmd_layout import ShardError

from .test_shard import MLP, _X, _Y, _train

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL


def _block(a, splits, coord):
    """The block of ``a`` at block coordinate ``coord`` when each dim is cut into ``splits`` parts."""
    index = tuple(slice(c * (d // k), (c + 1) * (d // k)) for d, k, c in zip(a.shape, splits, coord))
    return a[index]


CASES = [(2, ((2, 1), (2, 1)), lambda r: (r, 0)),       # batch split over both ranks
         (2, ((1, 1), (1, 1)), lambda r: (0, 0)),       # every rank feeds the whole batch
         (4, ((2, 1), (2, 1)), lambda r: (r // 2, 0)),  # batch split in 2, repeated on the right
         (4, ((4, 1), (4, 1)), lambda r: (r, 0))]


@pytest.mark.parametrize("n,strategy,coord", CASES)
def test_tuple_dataset_strategy_trains_like_one_process(n, strategy, coord):
    want_losses, want_params = _train(MLP(), _X, _Y)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, dataset_strategy=strategy)
        c = coord(get_rank())
        return _train(MLP(((1, 1), (1, 2)), ((1, 2), (2, 1))) if n == 2 else MLP(),
                      _block(_X, strategy[0], c), _block(_Y, strategy[1], c))

    try:
        for losses, params in simulate(rank_main, n):
            np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
            for p, pw in zip(params, want_params):
                np.testing.assert_allclose(p, pw, rtol=1e-5, atol=1e-6)
    finally:
        context.reset_auto_parallel_context()


def test_layout_dataset_strategy_on_an_auto_parallel_cell():
    want_losses, want_params = _train(MLP(), _X, _Y)

    def rank_main():
        init()
        lay = ms.Layout((2,), ("dp",))
        auto = AutoParallel(MLP(), parallel_mode="semi_auto")
        auto.dataset_strategy((lay("dp", "None"), lay("dp", "None")))
        r = get_rank()
        step = nn.TrainOneStepCell(nn.WithLossCell(auto, nn.MSELoss()),
                                   nn.Momentum(auto.network.trainable_params(), 0.1, 0.9))
        losses = [float(step(ms.Tensor(_X[8 * r:8 * r + 8]), ms.Tensor(_Y[8 * r:8 * r + 8])).asnumpy())
                  for _ in range(3)]
        return losses, [p.asnumpy() for p in auto.network.trainable_params()]

    for losses, params in simulate(rank_main, 2):
        np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
        for p, pw in zip(params, want_params):
            np.testing.assert_allclose(p, pw, rtol=1e-5, atol=1e-6)


def test_a_strategy_that_does_not_match_the_inputs_raises():
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, dataset_strategy=((2, 1),))
        try:
            _train(MLP(), _X[:8], _Y[:8], steps=1)
        except (ValueError, ShardError) as exc:
            return str(exc)
        return "ran"

    try:
        assert all("dataset_strategy has 1 entries for 2 inputs" in m for m in simulate(rank_main, 2))
    finally:
        context.reset_auto_parallel_context()
