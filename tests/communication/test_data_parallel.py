"""Data parallel on the simulated mesh: the gradient reducer, TrainOneStepCell / Model / value_and_grad loops as
MindSpore builds them, parameter broadcast, checkpoints; every rank ends with identical weights, equal to one
process trained on the same global batches."""
import os

import numpy as np
import pytest

import sprout as ms
from sprout import context, nn, ops
from sprout.communication import get_group_size, get_rank, init, simulate
from sprout.nn.grad_reducer import AUTO_ALONE_BYTES, plan_buckets

DP = context.ParallelMode.DATA_PARALLEL
RNG = np.random.default_rng(0)
X = RNG.standard_normal((32, 6)).astype(np.float32)
Y = RNG.integers(0, 3, 32).astype(np.int32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8)
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(ops.relu(self.fc1(x)))


def _build(seed=1):
    ms.set_seed(seed)
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, loss, opt


def _weights(net):
    return [p.asnumpy().copy() for p in net.trainable_params()]


def _single_process(steps, batch, mode):
    """One process, global batch = the ranks' local batches of each step, in rank order."""
    ms.set_context(mode=mode)
    net, loss, opt = _build()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    n = 2
    for s in range(steps):
        rows = np.concatenate([np.arange(32)[r::n][s * batch:(s + 1) * batch] for r in range(n)])
        step(ms.Tensor(X[rows]), ms.Tensor(Y[rows]))
    return _weights(net)


def _assert_same_everywhere(per_rank, single, rtol=2e-6):
    for w0, w1 in zip(per_rank[0], per_rank[1]):
        np.testing.assert_array_equal(w0, w1)  # identical on every rank, bit for bit
    for w, s in zip(per_rank[0], single):
        np.testing.assert_allclose(w, s, rtol=rtol, atol=1e-6)  # the same training, up to summation order


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_train_one_step_cell_reduces_gradients(mode):
    def rank_main():
        ms.set_context(mode=mode)
        init()
        context.set_auto_parallel_context(parallel_mode=DP, gradients_mean=True)
        net, loss, opt = _build()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
        assert isinstance(step.grad_reducer, nn.DistributedGradReducer)
        assert (step.grad_reducer.mean, step.grad_reducer.degree) == (True, 2)
        r, n = get_rank(), get_group_size()
        for s in range(4):
            rows = np.arange(32)[r::n][s * 4:(s + 1) * 4]
            step(ms.Tensor(X[rows]), ms.Tensor(Y[rows]))
        return _weights(net)

    per_rank = simulate(rank_main, 2)
    context.reset_auto_parallel_context()
    _assert_same_everywhere(per_rank, _single_process(4, 4, mode))


def test_model_train_with_sharded_dataset():
    """MindSpore's DP recipe unchanged: init, DATA_PARALLEL + gradients_mean, NumpySlicesDataset sharded by
    num_shards/shard_id, Model.train."""
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=DP, gradients_mean=True)
        data = ms.dataset.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False, num_shards=get_group_size(),
                                             shard_id=get_rank()).batch(4)
        net, loss, opt = _build()
        ms.Model(net, loss, opt).train(1, data)
        return _weights(net)

    per_rank = simulate(rank_main, 2)
    context.reset_auto_parallel_context()
    _assert_same_everywhere(per_rank, _single_process(4, 4, ms.PYNATIVE_MODE))


def test_value_and_grad_loop_with_a_reducer_inside_jit():
    """MindSpore's functional DP loop: the user builds DistributedGradReducer and calls it in the step."""
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=DP, gradients_mean=True)
        net, loss_fn, opt = _build()
        grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
        reducer = nn.DistributedGradReducer(opt.parameters)

        @ms.jit
        def train_step(x, y):
            loss, grads = grad_fn(x, y)
            opt(reducer(grads))
            return loss

        r, n = get_rank(), get_group_size()
        for s in range(4):
            rows = np.arange(32)[r::n][s * 4:(s + 1) * 4]
            train_step(ms.Tensor(X[rows]), ms.Tensor(Y[rows]))
        return _weights(net)

    per_rank = simulate(rank_main, 2)
    context.reset_auto_parallel_context()
    _assert_same_everywhere(per_rank, _single_process(4, 4, ms.PYNATIVE_MODE))


def test_parameter_broadcast_starts_every_rank_from_rank_0():
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=DP, gradients_mean=True, parameter_broadcast=True)
        data = ms.dataset.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False, num_shards=2,
                                             shard_id=get_rank()).batch(4)
        net, loss, opt = _build(seed=10 + get_rank())  # different initial weights per rank
        ms.Model(net, loss, opt).train(1, data)
        return _weights(net)

    w0, w1 = simulate(rank_main, 2)
    for a, b in zip(w0, w1):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("mode", [DP, context.ParallelMode.SEMI_AUTO_PARALLEL])
def test_parameter_broadcast_in_a_training_cell_without_model(mode):
    """parameter_broadcast=True with a TrainOneStepCell called directly (no Model): the first call starts every rank
    from rank 0's parameters, in data parallel and in semi-auto parallel (sprout's parameters are whole there);
    without it the ranks' different initial weights stay different."""
    def rank_main(broadcast):
        init()
        context.set_auto_parallel_context(parallel_mode=mode, gradients_mean=True, parameter_broadcast=broadcast)
        net, loss, opt = _build(seed=10 + get_rank())  # different initial weights per rank
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
        r = get_rank()
        step(ms.Tensor(X[4 * r:4 * r + 4]), ms.Tensor(Y[4 * r:4 * r + 4]))
        return _weights(net)

    w0, w1 = simulate(rank_main, 2, True)
    for a, b in zip(w0, w1):
        np.testing.assert_array_equal(a, b)
    w0, w1 = simulate(rank_main, 2, False)
    assert any(not np.array_equal(a, b) for a, b in zip(w0, w1))


def test_hybrid_parallel_is_data_parallel_and_semi_auto_shards_the_network():
    def rank_main():
        init()
        net, loss, opt = _build()
        context.set_auto_parallel_context(parallel_mode=context.ParallelMode.HYBRID_PARALLEL)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
        assert isinstance(step.grad_reducer, nn.DistributedGradReducer) and step.grad_reducer.mean is False
        context.set_auto_parallel_context(parallel_mode=context.ParallelMode.SEMI_AUTO_PARALLEL)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)  # the network runs through the SPMD pass
        assert step.reducer_flag is False and step.network._shard is not None
        context.set_auto_parallel_context(enable_parallel_optimizer=True)  # semi-auto: the gradients are whole already
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
        assert step.grad_reducer.reduced is True
        return True

    assert simulate(rank_main, 2) == [True, True]
    net, loss, opt = _build()  # one process: semi-auto parallel over one rank is the plain network (MindSpore)
    context.set_auto_parallel_context(parallel_mode=context.ParallelMode.SEMI_AUTO_PARALLEL)
    assert nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt).reducer_flag is False


def test_layerwise_parallel_and_dtypes():
    def rank_main():
        init()
        a = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="a")
        b = ms.Parameter(ms.Tensor(np.zeros(2, np.float16)), name="b")
        c = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="c", layerwise_parallel=True)
        red = nn.DistributedGradReducer([a, b, c], mean=True)
        g = (ms.Tensor(np.full(3, get_rank() + 1.0, np.float32)), ms.Tensor(np.full(2, get_rank() + 1.0, np.float16)),
             ms.Tensor(np.full(2, get_rank() + 1.0, np.float32)))
        return [t.asnumpy() for t in red(g)]

    for r, (ga, gb, gc) in enumerate(simulate(rank_main, 2)):
        np.testing.assert_array_equal(ga, np.full(3, 1.5, np.float32))
        assert gb.dtype == np.float16 and np.all(gb == np.float16(1.5))
        np.testing.assert_array_equal(gc, np.full(2, r + 1.0, np.float32))  # left alone


def test_reducer_arguments(fresh_comm):
    p = [ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")]
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="'degree'"):
            nn.DistributedGradReducer(p, degree=bad)
    init()
    red = nn.DistributedGradReducer(p)
    assert red.degree == 1 and red.mean is False
    with pytest.raises(ValueError, match="got 2 gradients for 1 parameters"):
        red((ms.Tensor(np.ones(2, np.float32)),) * 2)


def _params(*sizes, fusion=None):
    out = []
    for i, n in enumerate(sizes):
        p = ms.Parameter(ms.Tensor(np.zeros(n, np.float32)), name=f"p{i}")
        if fusion is not None:
            p.comm_fusion = fusion[i]
        out.append(p)
    return out


def test_bucket_plans():
    ps = _params(4, 4, 4, 4)
    assert plan_buckets(ps, [True] * 4) == [[0, 1, 2, 3]]
    assert plan_buckets(ps, [True, False, True, True]) == [[0, 2, 3]]
    assert plan_buckets(_params(4, 4, 4, 4, fusion=[1, 2, 1, 2]), [True] * 4) == [[0, 2], [1, 3]]
    context.set_auto_parallel_context(all_reduce_fusion_config=[1])
    assert plan_buckets(ps, [True] * 4) == [[0, 1], [2, 3]]
    context.reset_auto_parallel_context()
    context.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 32 / 2 ** 20}})
    assert plan_buckets(ps, [True] * 4) == [[0, 1], [2, 3]]  # 16 bytes each, 32 bytes per bucket
    context.set_auto_parallel_context(comm_fusion={"openstate": False})
    assert plan_buckets(ps, [True] * 4) == [[0], [1], [2], [3]]
    context.reset_auto_parallel_context()
    # "auto": a gradient of AUTO_ALONE_BYTES or more is reduced alone (in place), the small ones share a bucket
    big = AUTO_ALONE_BYTES // 4
    mixed = _params(4, big, 4, 4, big - 1)
    assert plan_buckets(mixed, [True] * 5) == [[0, 2, 3, 4], [1]]
    context.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 64}})
    assert plan_buckets(mixed, [True] * 5) == [[0, 1, 2, 3, 4]]  # a size the user chose packs everything


def test_checkpoints_from_one_rank_in_a_shared_directory(tmp_path):
    def rank_main(shared):
        init()
        context.set_auto_parallel_context(parallel_mode=DP, gradients_mean=True)
        directory = str(tmp_path / ("shared" if shared else f"ckpt_{get_rank()}"))
        data = ms.dataset.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False, num_shards=2,
                                             shard_id=get_rank()).batch(4)
        net, loss, opt = _build()
        cfg = ms.train.CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2)
        ms.Model(net, loss, opt).train(1, data, callbacks=[ms.ModelCheckpoint("dp", directory, cfg)])

    simulate(rank_main, 2, True)  # written once (by rank 0), the rank markers removed at the end
    assert sorted(os.listdir(tmp_path / "shared")) == ["dp-1_2.ckpt", "dp-1_4.ckpt"]
    simulate(rank_main, 2, False)  # a directory per rank: each rank writes its own
    for r in range(2):
        assert sorted(os.listdir(tmp_path / f"ckpt_{r}")) == ["dp-1_2.ckpt", "dp-1_4.ckpt"]
    one = ms.load_checkpoint(str(tmp_path / "ckpt_1" / "dp-1_4.ckpt"))
    other = ms.load_checkpoint(str(tmp_path / "shared" / "dp-1_4.ckpt"))
    for name in ("fc1.weight", "fc2.bias"):
        np.testing.assert_array_equal(one[name].asnumpy(), other[name].asnumpy())


@pytest.mark.parametrize("fusion", [None, {"openstate": False}, {"allreduce": {"mode": "size", "config": 64}}])
def test_eager_reducer_fast_path_equals_the_compiled_reducer_bitwise(fusion):
    """An eager reducer call (no tape) reduces each bucket in one buffer in place; its results are the compiled
    reducer's bit for bit (3 ranks: a rank-ordered reduction, a non power-of-two scale), the caller's gradients are
    left unchanged, and under a tape the op path still differentiates."""
    shapes = [(300, 200), (7,), (64, 64), (3,)]
    dtypes = [np.float32, np.float32, np.float16, np.float32]

    def rank_main():
        init()
        if fusion is not None:
            context.set_auto_parallel_context(comm_fusion=fusion)
        params = [ms.Parameter(ms.Tensor(np.zeros(s, d)), name=f"p{i}")
                  for i, (s, d) in enumerate(zip(shapes, dtypes))]
        red = nn.DistributedGradReducer(params, mean=True)
        rng = np.random.default_rng(get_rank())
        grads = tuple(ms.Tensor(rng.standard_normal(s).astype(d)) for s, d in zip(shapes, dtypes))
        before = [g.asnumpy().copy() for g in grads]
        eager = [t.asnumpy() for t in red(grads)]
        compiled = [t.asnumpy() for t in ms.jit(lambda *g: red(g))(*grads)]
        for g, b in zip(grads, before):
            np.testing.assert_array_equal(g.asnumpy(), b)
        dx = ms.grad(lambda t: red((t,) + grads[1:])[0].sum())(grads[0]).asnumpy()  # a tape: the op path
        return eager, compiled, dx

    for eager, compiled, dx in simulate(rank_main, 3):
        for e, c in zip(eager, compiled):
            assert e.dtype == c.dtype
            np.testing.assert_array_equal(e, c)
        np.testing.assert_allclose(dx, np.full((300, 200), 1.0, np.float32), rtol=1e-6)  # sum over 3 ranks x 1/3
