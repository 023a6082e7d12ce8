"""enable_parallel_optimizer under semi-auto parallel (and ``AutoParallel(...).hsdp()``): the SPMD pass gives every
rank the whole summed gradient, each rank updates its rows of each sharded parameter with 1/k of the optimizer state,
then the slices are all-gathered -- bitwise the weights of unsharded semi-auto training (simulated mesh, 2 and 4
ranks, PyNative; GRAPH_MODE under mpiexec -n 2)."""
import sys

import numpy as np
import pytest

import sprout as ms
from sprout import context, nn
from sprout.communication import get_group_size, get_rank, init, simulate
from sprout.nn.parallel_optimizer import ParallelOptimizerReducer, optimizer_state_bytes
from sprout.parallel.auto_parallel import AutoParallel

from .conftest import SCRIPTS, run_job
from .test_shard import MLP, _X, _Y

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL
S1, S2 = ((1, 1), (1, 2)), ((1, 2), (2, 1))


def _train(n, mode, sharded, hsdp=False, steps=3):
    def rank_main():
        ms.set_context(mode=mode)
        init()
        net = MLP(S1, S2)
        if hsdp:  # the configuration lives on the AutoParallel cell, not in the global context
            auto = AutoParallel(net, parallel_mode="semi_auto")
            auto.hsdp(threshold=0)
            loss_net = nn.WithLossCell(auto, nn.MSELoss())
        else:
            context.set_auto_parallel_context(parallel_mode=SEMI, enable_parallel_optimizer=sharded,
                                              parallel_optimizer_config={"parallel_optimizer_threshold": 0})
            loss_net = nn.WithLossCell(net, nn.MSELoss())
        opt = nn.Adam(net.trainable_params(), 0.01)
        full = optimizer_state_bytes(opt)
        step = nn.TrainOneStepCell(loss_net, opt)
        assert isinstance(step.grad_reducer, ParallelOptimizerReducer) == (sharded or hsdp)
        b, r = 16 // get_group_size(), get_rank()
        for _ in range(steps):
            step(ms.Tensor(_X[r * b:(r + 1) * b]), ms.Tensor(_Y[r * b:(r + 1) * b]))
        return [p.asnumpy().copy() for p in net.trainable_params()], full, optimizer_state_bytes(opt)

    try:
        return simulate(rank_main, n)
    finally:
        context.reset_auto_parallel_context()


@pytest.mark.parametrize("n", [2, 4])
def test_sharded_state_trains_like_unsharded_semi_auto(n):
    plain, sharded = _train(n, ms.PYNATIVE_MODE, False), _train(n, ms.PYNATIVE_MODE, True)
    for (w_plain, full, held_plain), (w_sharded, _, held) in zip(plain, sharded):
        assert held_plain == full and held == full // n  # w1 (8, 16), b1 (16,), w2 (16, 4): dim 0 divides by n
        for a, b in zip(w_plain, w_sharded):
            np.testing.assert_array_equal(a, b)


def test_hsdp_on_an_auto_parallel_cell():
    plain, hsdp = _train(2, ms.PYNATIVE_MODE, False), _train(2, ms.PYNATIVE_MODE, False, hsdp=True)
    for (w_plain, full, _), (w_hsdp, _, held) in zip(plain, hsdp):
        assert held == full // 2
        for a, b in zip(w_plain, w_hsdp):
            np.testing.assert_array_equal(a, b)


def test_parallel_optimizer_with_pipeline_stages_is_refused():
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2, enable_parallel_optimizer=True)
        net = MLP()
        try:
            nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 2), nn.SGD(net.trainable_params()))
        except NotImplementedError as exc:
            return str(exc)
        return "built"

    try:
        assert all("pipeline_stages > 1" in msg for msg in simulate(rank_main, 2))
    finally:
        context.reset_auto_parallel_context()


def test_sharded_state_under_mpiexec_in_graph_mode(tmp_path):
    script = str(SCRIPTS / "shard_train.py")
    for kind in ("plain", "sharded"):
        proc = run_job(["mpiexec", "-n", "2", sys.executable, "-m", "sprout.run", script, str(tmp_path / kind),
                        str(tmp_path / f"ckpt_{kind}"), kind], 90, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    for r in range(2):
        plain, sharded = (np.load(tmp_path / f"{kind}_rank{r}.npz") for kind in ("plain", "sharded"))
        assert int(sharded["state"]) * 2 == int(plain["state"]) > 0
        for k in range(3):
            np.testing.assert_array_equal(plain[f"arr_{k}"], sharded[f"arr_{k}"])


def test_optimizer_inside_a_sharded_step_with_parallel_optimizer_is_refused():
    """The optimizer inside the sharded function itself (AutoParallel(train_step).hsdp()): refused, not ignored."""
    def rank_main():
        init()
        net = MLP()
        opt = nn.SGD(net.trainable_params(), 0.1)
        grad_fn = ms.value_and_grad(lambda x, y: nn.MSELoss()(net(x), y), None, net.trainable_params())

        def step(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss

        auto = AutoParallel(step, parallel_mode="semi_auto")
        auto.hsdp()
        try:
            auto(ms.Tensor(_X[:8]), ms.Tensor(_Y[:8]))
        except NotImplementedError as exc:
            return str(exc)
        return "ran"

    msgs = simulate(rank_main, 2)
    assert all("enable_parallel_optimizer with the optimizer" in msg for msg in msgs), msgs
