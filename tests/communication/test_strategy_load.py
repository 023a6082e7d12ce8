"""``strategy_ckpt_config={"load_file": ...}`` (and ``AutoParallel.load_param_strategy_file``): the parameter layouts a
sharded run saved are imposed on a run whose network carries no strategies -- each rank then uses (and saves) the
same blocks, and training still equals one process; a file for another shape or mesh raises."""
import numpy as np
import pytest

import sprout as ms
from sprout import context
from sprout.communication import get_group_size, get_rank, init, simulate
from sprout.parallel import spmd_ckpt
from sprout.parallel.auto_parallel import AutoParallel

from .test_shard import MLP, _X, _Y, _train

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL
S1, S2 = ((1, 1), (1, 2)), ((1, 2), (2, 1))


def _run(net_factory, **ctx):
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, **ctx)
        b, r = 16 // get_group_size(), get_rank()
        net = net_factory()
        losses, params = _train(net, _X[r * b:(r + 1) * b], _Y[r * b:(r + 1) * b])
        return losses, params, [spmd_ckpt.layout_of(p) for p in net.trainable_params()]

    try:
        return simulate(rank_main, 2)
    finally:
        context.reset_auto_parallel_context()


def test_loaded_layouts_are_imposed(tmp_path):
    path = str(tmp_path / "strategy.json")
    saved = _run(lambda: MLP(S1, S2), strategy_ckpt_config={"save_file": path})
    assert saved[0][2][0]["tensor_map"] == [-1, 0]  # w1 split by columns
    plain = _run(MLP)  # no strategies: every parameter replicated
    assert plain[0][2][0]["tensor_map"] == [-1, -1]
    loaded = _run(MLP, strategy_ckpt_config={"load_file": path})
    want_losses, want_params = _train(MLP(), _X, _Y)
    for (_, _, lay_saved), (losses, params, lay) in zip(saved, loaded):
        assert lay == lay_saved
        np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
        for p, w in zip(params, want_params):
            np.testing.assert_allclose(p, w, rtol=1e-5, atol=1e-6)


def test_auto_parallel_load_param_strategy_file_and_mismatches(tmp_path):
    path = str(tmp_path / "strategy.json")
    _run(lambda: MLP(S1, S2), strategy_ckpt_config={"save_file": path})

    def rank_main():
        init()
        auto = AutoParallel(MLP(), parallel_mode="semi_auto")
        auto.load_param_strategy_file(path)
        auto.dataset_strategy("full_batch")
        auto(ms.Tensor(_X))
        return [spmd_ckpt.layout_of(p)["tensor_map"] for p in auto.network.trainable_params()]

    for maps in simulate(rank_main, 2):
        assert maps[0] == [-1, 0]
    other = tmp_path / "other.json"
    other.write_text('{"parallel_layout": {"w1": {"dev_matrix": [2], "tensor_map": [0, -1], "shape": [4, 16]}}}')
    with pytest.raises(ValueError, match="was saved as shape"):
        _run(MLP, strategy_ckpt_config={"load_file": str(other)})
