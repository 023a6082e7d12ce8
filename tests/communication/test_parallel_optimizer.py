"""enable_parallel_optimizer in data parallel (simulated mesh): each rank holds 1/k of the optimizer state of the
sharded parameters, and training gives the weights of unsharded data parallel (bit for bit with one shard group)."""
import numpy as np
import pytest

import sprout as ms
from sprout import context, nn
from sprout.communication import get_group_size, get_rank, init, simulate
from sprout.nn.parallel_optimizer import ParallelOptimizerReducer, optimizer_state_bytes

# Net: fc1 (8, 6) and its bias (8,) split over 2 or 4 ranks; fc2's (3, 8) and (3,) do not (dim 0 is 3)
from .test_data_parallel import DP, Net, X, Y

OPTIMIZERS = {"Adam": lambda ps: nn.Adam(ps, 0.01, weight_decay=0.01),
              "Momentum": lambda ps: nn.Momentum(ps, 0.1, 0.9),
              "RMSProp": lambda ps: nn.RMSProp(ps, 0.01, centered=True)}


def _train(n, mode, opt_name, sharded, shard_size=-1, steps=3):
    def rank_main():
        ms.set_context(mode=mode)
        init()
        context.set_auto_parallel_context(parallel_mode=DP, gradients_mean=True, enable_parallel_optimizer=sharded,
                                          parallel_optimizer_config={"parallel_optimizer_threshold": 0,
                                                                     "optimizer_weight_shard_size": shard_size})
        ms.set_seed(1)
        net = Net()
        opt = OPTIMIZERS[opt_name](net.trainable_params())
        full_bytes = optimizer_state_bytes(opt)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                         reduction="mean")), opt)
        assert isinstance(step.grad_reducer, ParallelOptimizerReducer) == sharded
        r, size = get_rank(), get_group_size()
        for s in range(steps):
            rows = np.arange(32)[r::size][s * 2:(s + 1) * 2]
            step(ms.Tensor(X[rows]), ms.Tensor(Y[rows]))
        return [p.asnumpy().copy() for p in net.trainable_params()], full_bytes, optimizer_state_bytes(opt)

    try:
        return simulate(rank_main, n)
    finally:
        context.reset_auto_parallel_context()


@pytest.mark.parametrize("opt_name", list(OPTIMIZERS))
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_sharded_optimizer_state_trains_like_data_parallel(mode, opt_name):
    plain = _train(2, mode, opt_name, False)
    sharded = _train(2, mode, opt_name, True)
    per_param = [8 * 6, 8, 3 * 8, 3]  # fc1.weight, fc1.bias, fc2.weight, fc2.bias
    n_states = {"Adam": 2, "Momentum": 1, "RMSProp": 3}[opt_name]
    for (w_plain, full, held_plain), (w_sharded, full_s, held) in zip(plain, sharded):
        assert full == full_s == held_plain == n_states * 4 * sum(per_param)
        # fc1's two parameters are split in half; fc2's (dim 0 = 3) stay whole on every rank
        assert held == n_states * 4 * (8 * 6 // 2 + 8 // 2 + 3 * 8 + 3) < full
        for a, b in zip(w_plain, w_sharded):
            np.testing.assert_array_equal(a, b)  # one shard group of 2: the same sums, the same element updates
    for a, b in zip(sharded[0][0], sharded[1][0]):
        np.testing.assert_array_equal(a, b)


def test_shard_groups_smaller_than_the_world():
    """4 ranks, optimizer_weight_shard_size 2: ranks {0,1} and {2,3} each split the state in half; gradients are
    reduce-scattered in the pair, then summed across the pairs (another summation order: equal within rounding)."""
    plain = _train(4, ms.GRAPH_MODE, "Adam", False)
    sharded = _train(4, ms.GRAPH_MODE, "Adam", True, shard_size=2)
    for r in range(4):
        assert sharded[r][2] == 2 * 4 * (8 * 6 // 2 + 8 // 2 + 3 * 8 + 3)
        for a, b in zip(plain[r][0], sharded[r][0]):
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
        for a, b in zip(sharded[0][0], sharded[r][0]):
            np.testing.assert_array_equal(a, b)


def test_parameters_loaded_after_construction_are_picked_up():
    """A parameter set after the training cell was built (a checkpoint load, parameter_broadcast) is what the
    sharded optimizer updates: each step takes its slice from the parameter."""
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=DP, enable_parallel_optimizer=True,
                                          parallel_optimizer_config={"parallel_optimizer_threshold": 0})
        net = nn.Dense(2, 4, has_bias=False)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.5))
        net.weight.set_data(ms.Tensor(np.ones((4, 2), np.float32)))
        step(ms.Tensor(np.zeros((1, 2), np.float32)), ms.Tensor(np.zeros((1, 4), np.float32)))  # zero gradient
        return net.weight.asnumpy()

    try:
        for w in simulate(rank_main, 2):
            np.testing.assert_array_equal(w, np.ones((4, 2), np.float32))
    finally:
        context.reset_auto_parallel_context()


def test_refusals_and_context_checks(caplog):
    with pytest.raises(ValueError, match=r"Unknown config: \['bad'\]"):
        context.set_auto_parallel_context(parallel_optimizer_config={"bad": 1})
    with pytest.raises(ValueError, match="non-negative"):
        context.set_auto_parallel_context(parallel_optimizer_config={"parallel_optimizer_threshold": -1})
    with pytest.raises(ValueError, match="positive"):
        context.set_auto_parallel_context(parallel_optimizer_config={"optimizer_weight_shard_size": 0})
    with pytest.raises(TypeError):
        context.set_auto_parallel_context(parallel_optimizer_config={"parallel_optimizer_threshold": 1.5})
    with pytest.raises(ValueError, match="Optimizer level"):
        context.set_auto_parallel_context(parallel_optimizer_config={"optimizer_level": "level9"})
    context.set_auto_parallel_context(parallel_optimizer_config={"parallel_optimizer_threshold": 8})
    context.set_auto_parallel_context(parallel_optimizer_config={"optimizer_weight_shard_size": 2})
    assert context.get_auto_parallel_context("parallel_optimizer_config") == {
        "parallel_optimizer_threshold": 8, "optimizer_weight_shard_size": 2}
    context.reset_auto_parallel_context()

    def rank_main(make_opt, config, wrap=nn.TrainOneStepCell):
        init()
        context.set_auto_parallel_context(parallel_mode=DP, enable_parallel_optimizer=True,
                                          parallel_optimizer_config=config)
        net = nn.Dense(4, 4)
        try:
            wrap(nn.WithLossCell(net, nn.MSELoss()), make_opt(net.trainable_params()))
        except (NotImplementedError, ValueError) as e:
            return f"{type(e).__name__}: {e}"
        return "built"

    cases = [(lambda ps: nn.Lamb(ps, 0.1), {}, "NotImplementedError: enable_parallel_optimizer: the optimizer Lamb"),
             (lambda ps: nn.SGD(ps, 0.1), {"optimizer_level": "level3"}, "NotImplementedError: parallel_optimizer_"),
             (lambda ps: nn.SGD(ps, 0.1), {"optimizer_weight_shard_size": 3}, "ValueError: enable_parallel_optimizer:"
                                                                                " optimizer_weight_shard_size 3"),
             (lambda ps: nn.SGD(ps, 0.1), {"optimizer_weight_shard_size": 8}, "ValueError: enable_parallel_optimizer:"
                                                                                " optimizer_weight_shard_size 8"),
             (lambda ps: nn.SGD(ps, 0.1), {"gradient_accumulation_shard": True},
              "NotImplementedError: parallel_optimizer_config gradient_accumulation_shard"),
             (lambda ps: nn.SGD(ps, 0.1), {"optimizer_weight_shard_size": 1}, "built")]
    try:
        for make_opt, config, want in cases:
            assert all(r.startswith(want) for r in simulate(rank_main, 4, make_opt, config)), want
        assert "'optimizer_weight_shard_size' is invalid" in caplog.text  # 1 is ignored with MindSpore's warning
        scaled = simulate(rank_main, 2, lambda ps: nn.SGD(ps, 0.1), {},
                          lambda net, opt: nn.TrainOneStepWithLossScaleCell(net, opt, ms.Tensor(np.float32(8))))
        assert all("TrainOneStepWithLossScaleCell with enable_parallel_optimizer" in r for r in scaled)
    finally:
        context.reset_auto_parallel_context()


def test_integrated_save_refuses_optimizer_state_slices(tmp_path):
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=DP, enable_parallel_optimizer=True,
                                          parallel_optimizer_config={"parallel_optimizer_threshold": 0})
        net = Net()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True)),
                                   nn.Momentum(net.trainable_params(), 0.1, 0.9))
        path = str(tmp_path / f"r{get_rank()}.ckpt")
        with pytest.raises(NotImplementedError, match="integrated_save=True would merge 'moments.fc1.weight'"):
            ms.save_checkpoint(step, path)
        ms.save_checkpoint(step, path, integrated_save=False)  # this rank's slices
        ms.save_checkpoint(step, path, choice_func=lambda name: not name.startswith("moments."))
        return ms.load_checkpoint(path)["fc1.weight"].shape

    try:
        assert simulate(rank_main, 2) == [(8, 6), (8, 6)]
    finally:
        context.reset_auto_parallel_context()
