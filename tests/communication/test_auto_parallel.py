"""AutoParallel (MindSpore 2.6+'s wrapper of the top-level network or training step), sharded training steps with
Parameter updates inside (optimizers, BatchNorm's moving statistics) and nested Cell.shard, on the simulated mesh
against one process."""
import numpy as np
import pytest

import sprout as ms
from sprout import context, nn, ops
from sprout.communication import get_rank, init, simulate
from sprout.parallel.auto_parallel import AutoParallel

_RNG = np.random.default_rng(5)
X = _RNG.standard_normal((8, 6)).astype(np.float32)
Y = _RNG.integers(0, 3, 8).astype(np.int32)


def _net(bn=False):
    ms.set_seed(0)
    layers = [nn.Dense(6, 8)] + ([nn.BatchNorm1d(8)] if bn else []) + [nn.ReLU(), nn.Dense(8, 3)]
    return nn.SequentialCell(layers)


def _train_step(net, adam=True):
    # (with BatchNorm, the gradient of the bias before it is rounding noise, which Adam scales up to lr-sized steps:
    # plain momentum then)
    opt = nn.Adam(net.trainable_params(), 0.01) if adam else nn.Momentum(net.trainable_params(), 0.05, 0.9)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, net.trainable_params())

    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    return step


def _one_process(bn=False, steps=3):
    net = _net(bn)
    net.set_train(True)
    step = _train_step(net, adam=not bn)
    losses = [step(ms.Tensor(X), ms.Tensor(Y)).asnumpy() for _ in range(steps)]
    return losses, [p.asnumpy() for p in net.get_parameters()]


def _close(got, want):
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("bn", [False, True])
def test_auto_parallel_of_a_training_step_equals_one_process(bn):
    """AutoParallel(train_step): each rank feeds its half of the batch; the loss, the Adam updates and BatchNorm's
    moving statistics (batch statistics of the global batch) are one process's, on every rank."""
    losses, params = _one_process(bn)

    def rank_main():
        init()
        r = get_rank()
        net = _net(bn)
        net.set_train(True)
        parallel = AutoParallel(_train_step(net, adam=not bn), parallel_mode="semi_auto")
        got = [parallel(ms.Tensor(X[r * 4:(r + 1) * 4]), ms.Tensor(Y[r * 4:(r + 1) * 4])).asnumpy()
               for _ in range(3)]
        assert context.get_auto_parallel_context("parallel_mode") == "stand_alone"  # its own configuration only
        return got, [p.asnumpy() for p in net.get_parameters()]

    for got, ps in simulate(rank_main, 2):
        _close(got, losses)
        _close(ps, params)


def test_model_with_an_auto_parallel_network_equals_one_process():
    net = _net()
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    for _ in range(2):
        step(ms.Tensor(X), ms.Tensor(Y))
    want = [p.asnumpy() for p in net.trainable_params()]

    def rank_main():
        init()
        r = get_rank()
        net = _net()
        parallel = AutoParallel(net)
        parallel.enable_gradients_mean()
        opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
        step = nn.TrainOneStepCell(nn.WithLossCell(parallel, loss_fn), opt)  # as Model builds it
        for _ in range(2):
            step(ms.Tensor(X[r * 4:(r + 1) * 4]), ms.Tensor(Y[r * 4:(r + 1) * 4]))
        return [p.asnumpy() for p in net.trainable_params()]

    for ps in simulate(rank_main, 2):
        _close(ps, want)


def test_auto_parallel_full_batch_and_strategy_file(tmp_path):
    x, w = X, _RNG.standard_normal((6, 4)).astype(np.float32)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(w), "w")
            self.mm = ops.MatMul().shard(((1, 2), (2, 1)))

        def construct(self, a):
            return ops.relu(self.mm(a, self.w))

    want = Net()(ms.Tensor(x)).asnumpy()
    path = str(tmp_path / "strategy.json")

    def rank_main():
        init()
        parallel = AutoParallel(Net())
        parallel.dataset_strategy("full_batch")
        parallel.save_param_strategy_file(path)
        return parallel(ms.Tensor(x)).asnumpy()

    for out in simulate(rank_main, 2):
        np.testing.assert_allclose(out, want, rtol=1e-6, atol=1e-6)
    assert "w" in ms.build_searched_strategy(path)


def test_auto_parallel_configuration_is_checked_as_mindspore():
    net = nn.Dense(2, 2)
    with pytest.raises(ValueError, match="parallel_mode"):
        AutoParallel(net, parallel_mode="data_parallel")
    ap = AutoParallel(net, "sharding_propagation")
    with pytest.raises(ValueError, match="'full_batch' or 'data_parallel'"):
        ap.dataset_strategy("both")
    with pytest.raises(ValueError, match="dataset_strategy is none"):
        ap.dataset_strategy(None)
    with pytest.raises(TypeError, match="str or tuple"):
        ap.dataset_strategy([1, 2])
    ap.dataset_strategy(((2, 1),))  # a tuple of input layouts (tests/communication/test_dataset_strategy.py)
    with pytest.raises(ValueError, match="shard_size"):
        ap.hsdp(shard_size=0)
    with pytest.raises(NotImplementedError, match="level3"):
        ap.hsdp(optimizer_level="level3")
    with pytest.raises(ValueError, match="larger than zero"):
        ap.pipeline(stages=0)
    with pytest.raises(NotImplementedError, match="GPipe"):
        ap.pipeline(stages=2)
    with pytest.raises(RuntimeError, match="PipelineCell"):
        ap.pipeline(stages=2, scheduler="gpipe")
    ap.pipeline(stages=1, scheduler="gpipe")
    assert ap.get_pipeline_stages() == 1
    with pytest.raises(TypeError, match="dict"):
        ap.comm_fusion([1])
    with pytest.raises(KeyError, match="absolute path"):
        ap.save_operator_strategy_file("x.json")
    with pytest.raises(KeyError, match="json"):
        ap.load_operator_strategy_file("/tmp/x.txt")
    with pytest.raises(TypeError, match="file_path"):
        ap.save_param_strategy_file(3)
    for call in (ap.print_local_norm, ap.enable_device_local_norm):
        with pytest.raises(NotImplementedError):
            call()
    ap.enable_fp32_communication()
    ap.comm_fusion({"allreduce": {"mode": "size", "config": 32}})
    ap.enable_gradients_mean()
    ap.disable_gradient_fp32_sync()
    ap.disable_loss_repeated_mean()
    ap.no_init_parameters_in_compile()
    ap.transformer_opt(None)
    settings = ap._settings()
    assert settings["parallel_mode"] == "auto_parallel" and settings["search_mode"] == "sharding_propagation"
    assert settings["gradients_mean"] and not settings["gradient_fp32_sync"] and not settings["loss_repeated_mean"]
    assert settings["comm_fusion"]["allreduce"] == {"mode": "size", "config": 32}
    assert settings["force_fp32_communication"] and settings["enable_alltoall"]  # AutoParallel's default: True
    x = ms.Tensor(np.ones((1, 2), np.float32))
    np.testing.assert_array_equal(ap(x).asnumpy(), net(x).asnumpy())  # a world of one: the network itself


def test_nested_cell_shard_constrains_layouts_inside_a_sharded_network():
    """A Cell.shard inside a network run through the pass: its in/out strategies and parameter_plan become layout
    constraints of the enclosing graph (MindSpore's nested shard); values and gradients equal one process's."""
    x = np.random.default_rng(7).integers(-3, 4, (8, 6)).astype(np.float32)

    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.arange(24, dtype=np.float32).reshape(6, 4) % 5 - 2), "block_w")

        def construct(self, a):
            return ops.matmul(a, self.w)

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.block = Block()

        def construct(self, a):
            return (ops.relu(self.block(a * 2.0)) ** 2).sum()

    want_net = Outer()
    want = want_net(ms.Tensor(x)).asnumpy()
    gwant = ms.grad(want_net, grad_position=None, weights=want_net.trainable_params())(ms.Tensor(x))[0].asnumpy()

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True)
        net = Outer()
        net.block.shard(in_strategy=((1, 2),), out_strategy=((2, 1),), parameter_plan={"block.block_w": (2, 1)})
        f = ms.shard(net, in_strategy=(None,))
        value = f(ms.Tensor(x)).asnumpy()
        g = ms.grad(f, grad_position=None, weights=net.trainable_params())(ms.Tensor(x))[0].asnumpy()
        graph = f._cache[next(iter(f._cache))].graph
        return value, g, [nd.op.name for nd in graph.nodes if nd.op.name in ("ReduceScatter", "AllReduce")]

    for value, g, comms in simulate(rank_main, 2):
        np.testing.assert_array_equal(value, want)
        np.testing.assert_array_equal(g, gwant)
        assert "ReduceScatter" in comms  # the contracting split lands in the nested out_strategy's rows
