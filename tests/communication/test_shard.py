"""``shard`` (the SPMD pass) on the simulated mesh with 2 and 4 ranks: forward, gradients and training steps equal
to the one-process run (bitwise where the inputs are small integers, which makes every summation order exact),
and a clear refusal of what the pass does not support."""
import functools

import numpy as np
import pytest

import sprout as ms
from sprout import context, nn, ops
from sprout.communication import get_group_size, get_rank, init, simulate
from sprout.parallel.spmd_layout import ShardError

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL


def _ints(shape, seed):
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float32)


def _same_as_one_process(fn, arrays, strategy, n, positions, exact=True):
    """``ms.shard(fn, strategy)`` on ``n`` simulated ranks: the value and the gradients (``positions``) on every rank
    equal one process's (bitwise when ``exact``)."""
    args = lambda: tuple(ms.Tensor(a) for a in arrays)  # noqa: E731
    want = fn(*args()).asnumpy()
    gwant = [g.asnumpy() for g in ms.grad(fn, grad_position=positions)(*args())]

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        f = ms.shard(fn, in_strategy=strategy)
        return f(*args()).asnumpy(), [g.asnumpy() for g in ms.grad(f, grad_position=positions)(*args())]

    check = np.testing.assert_array_equal if exact else functools.partial(np.testing.assert_allclose, rtol=1e-5,
                                                                           atol=1e-6)
    for out, grads in simulate(rank_main, n):
        check(out, want)
        for g, gw in zip(grads, gwant):
            check(g, gw)


def _mm(x, w):
    return ops.relu(ops.matmul(x, w)).sum()


MATMUL_CASES = [(2, ((2, 1), (1, 1))), (2, ((1, 2), (2, 1))), (2, ((1, 1), (1, 2))), (2, ((2, 1), (1, 2))),
                (4, ((2, 2), (2, 1))), (4, ((4, 1), (1, 1))), (4, ((1, 2), (2, 2))), (4, ((1, 4), (4, 1))),
                (4, ((2, 1), (1, 1)))]


@pytest.mark.parametrize("n,strategy", MATMUL_CASES)
def test_matmul_strategies_give_the_unsharded_value_and_gradients(n, strategy):
    _same_as_one_process(_mm, (_ints((8, 12), 0), _ints((12, 4), 1)), strategy, n, (0, 1))


def _chain(x, w, b):
    h = ops.matmul(x, w) + b                       # MatMul, broadcast Add
    h = ops.transpose(ops.tanh(h), (1, 0))          # elementwise, Transpose
    h = ops.reshape(h, (2, -1))                     # Reshape (merge)
    s = ops.softmax(h, axis=-1) * 3.0               # Softmax over an unsplit axis, scalar Mul
    return s.mean(axis=1).sum() + h.max() + ops.reduce_sum(h * h, 0).mean()


@pytest.mark.parametrize("n,strategy", [(2, ((2, 1), (1, 1), (1,))), (2, ((1, 1), (1, 2), (2,))),
                                        (4, ((2, 2), (2, 1), (1,))), (4, ((1, 1), (1, 4), (4,))),
                                        (4, (None, (1, 2), (2,)))])
def test_a_chain_of_rules_matches_one_process(n, strategy):
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in ((8, 6), (6, 4), (4,))]
    _same_as_one_process(_chain, arrays, strategy, n, (0, 1, 2), exact=False)


class MLP(nn.Cell):
    def __init__(self, s1=None, s2=None):
        super().__init__()
        self.w1 = ms.Parameter(ms.Tensor(np.linspace(-1, 1, 8 * 16, dtype=np.float32).reshape(8, 16)), "w1")
        self.b1 = ms.Parameter(ms.Tensor(np.zeros(16, np.float32)), "b1")
        self.w2 = ms.Parameter(ms.Tensor(np.linspace(1, -1, 16 * 4, dtype=np.float32).reshape(16, 4)), "w2")
        self.mm1, self.mm2, self.relu = ops.MatMul(), ops.MatMul(), ops.ReLU()
        if s1:
            self.mm1.shard(s1)
        if s2:
            self.mm2.shard(s2)

    def construct(self, x):
        return self.mm2(self.relu(self.mm1(x, self.w1) + self.b1), self.w2)


_X = np.random.default_rng(0).standard_normal((16, 8)).astype(np.float32)
_Y = np.random.default_rng(1).standard_normal((16, 4)).astype(np.float32)


def _train(net, x, y, steps=3):
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = [float(step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for _ in range(steps)]
    return losses, [p.asnumpy() for p in net.trainable_params()]


@pytest.mark.parametrize("n,s1,s2", [(2, None, None), (2, ((1, 1), (1, 2)), ((1, 2), (2, 1))),
                                     (4, ((2, 1), (1, 2)), ((2, 2), (2, 1))), (4, ((1, 2), (2, 2)), None)])
def test_semi_auto_training_of_an_mlp_with_sharded_matmuls_equals_one_process(n, s1, s2):
    """MindSpore's recipe: semi-auto parallel, Primitive.shard on the MatMuls, each rank feeding its slice of the
    batch (dataset_strategy data_parallel), TrainOneStepCell with Momentum."""
    want_losses, want_params = _train(MLP(), _X, _Y)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI)
        b = 16 // get_group_size()
        r = get_rank()
        return _train(MLP(s1, s2), _X[r * b:(r + 1) * b], _Y[r * b:(r + 1) * b])

    for losses, params in simulate(rank_main, n):
        np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
        for p, pw in zip(params, want_params):
            np.testing.assert_allclose(p, pw, rtol=1e-5, atol=1e-6)


def test_cell_shard_with_parameter_plan_and_out_strategy():
    x = _ints((8, 8), 5)
    want = MLP()(ms.Tensor(x)).asnumpy()

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        net = MLP().shard(in_strategy=((2, 1),), out_strategy=((2, 1),), parameter_plan={"w1": (1, 2)})
        out = net(ms.Tensor(x)).asnumpy()
        return get_rank(), out

    for r, out in simulate(rank_main, 2):
        np.testing.assert_array_equal(out, want[r * 4:(r + 1) * 4])  # out_strategy: each rank its block of rows


def test_a_world_of_one_returns_the_function_itself():
    assert ms.shard(_mm, in_strategy=((2, 1), (1, 1))) is _mm
    net = MLP()
    assert net.shard(((2, 1),)) is net and net._shard is None


def _run_refused(fn, strategy, args, n=2, **ctx):
    def rank_main():
        init()
        context.set_auto_parallel_context(**{"parallel_mode": SEMI, "full_batch": True, **ctx})
        f = ms.shard(fn, in_strategy=strategy)
        try:
            f(*args)
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            return type(exc), str(exc)
        return None, ""

    return simulate(rank_main, n)[0]


def test_unsupported_strategies_and_ops_are_refused_by_name():
    x = ms.Tensor(_ints((4, 6), 2))
    kind, msg = _run_refused(lambda a: ops.Softmax()(a), ((1, 2),), (x,))
    assert kind is None  # no Primitive strategy: the softmax axis is gathered, the value is right

    sm = ops.Softmax()
    sm.shard(((1, 2),))
    kind, msg = _run_refused(lambda a: sm(a), (None,), (x,))
    assert kind is ShardError and "Softmax with strategy ((1, 2),)" in msg and "cannot be split" in msg

    cs = ops.CumSum()
    cs.shard(((2, 1),))
    kind, msg = _run_refused(lambda a: cs(a, 0), (None,), (x,))
    assert kind is ShardError and "with strategy ((2, 1),)" in msg and "no sharding rule" in msg

    kind, msg = _run_refused(lambda a: ops.dropout(a, 0.5)[0], ((2, 1),), (x,))
    assert kind is ShardError and "random op" in msg

    kind, msg = _run_refused(lambda a: a * 2, ((3, 1),), (x,))
    assert kind is ShardError and "cannot be divided" in msg

    kind, msg = _run_refused(lambda a: a * 2, ((2, 1),), (x,), parallel_mode="data_parallel")
    assert kind is ShardError and "semi_auto_parallel" in msg

    kind, msg = _run_refused(lambda a: a * 2, ((2, 1),), (x,), device_num=4)
    assert kind is ShardError and "device_num=4" in msg


def test_strategy_types_are_checked_as_mindspore():
    with pytest.raises(TypeError, match="tuple"):
        ms.shard(_mm, in_strategy=[(2, 1), (1, 1)])
    with pytest.raises(TypeError, match=r"tuple\(int\)"):
        ms.shard(_mm, in_strategy=((2.0, 1), (1, 1)))
    with pytest.raises(TypeError, match="consistent type"):
        ms.shard(_mm, in_strategy=(ms.Layout((2,), ("dp",))("dp", "None"), (1, 1)))
    with pytest.raises(TypeError, match=r"tuple\(int\)"):
        ops.MatMul().shard(((2, 1.5), (1, 1)))
    with pytest.raises(TypeError, match="out_strategy entries"):
        ops.MatMul().shard(((2, 1), (1, 1)), out_strategy=([2, 1],))


def test_layout_strategies_place_on_the_mesh():
    x, w = _ints((8, 4), 7), _ints((4, 6), 8)
    want = _mm(ms.Tensor(x), ms.Tensor(w)).asnumpy()

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        lay = ms.Layout((2, 2), ("dp", "mp"))
        f = ms.shard(_mm, in_strategy=(lay("dp", "mp"), lay("mp", "None")))
        return f(ms.Tensor(x), ms.Tensor(w)).asnumpy()

    for out in simulate(rank_main, 4):
        np.testing.assert_array_equal(out, want)


def test_sliced_checkpoints_strategy_file_and_merges(tmp_path):
    """Each rank saves its blocks (integrated_save=False) and rank 0 the strategy file; merge_sliced_parameter,
    load_distributed_checkpoint and transform_checkpoints (back to whole parameters, and re-sliced by the same
    strategy) give the trained parameters back."""
    strategy_file = str(tmp_path / "strategy.json")

    def rank_save():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, strategy_ckpt_config={"save_file": strategy_file})
        b, r = 16 // get_group_size(), get_rank()
        net = MLP(((1, 1), (1, 2)), ((1, 2), (2, 1)))
        _train(net, _X[r * b:(r + 1) * b], _Y[r * b:(r + 1) * b])
        d = tmp_path / "ckpt" / f"rank_{r}"
        d.mkdir(parents=True, exist_ok=True)
        ms.save_checkpoint(net, str(d / "net.ckpt"), integrated_save=False)
        return True

    simulate(rank_save, 2)
    _, want = _train(MLP(), _X, _Y)
    strategy = ms.build_searched_strategy(strategy_file)
    assert strategy["w1"]["dev_matrix"] == [2] and strategy["w1"]["shape"] == [8, 16]
    slices = [ms.load_checkpoint(str(tmp_path / "ckpt" / f"rank_{r}" / "net.ckpt")) for r in range(2)]
    assert slices[0]["w1"].shape == (8, 8) and slices[0]["w2"].shape == (8, 4)
    for k, name in enumerate(("w1", "b1", "w2")):
        merged = ms.merge_sliced_parameter([s[name] for s in slices], strategy)
        np.testing.assert_allclose(merged.asnumpy(), want[k], rtol=1e-5, atol=1e-6)
    net = MLP()
    ms.load_distributed_checkpoint(net, [str(tmp_path / "ckpt" / f"rank_{r}" / "net.ckpt") for r in range(2)],
                                   None, strategy_file)
    for p, w in zip(net.trainable_params(), want):
        np.testing.assert_allclose(p.asnumpy(), w, rtol=1e-5, atol=1e-6)
    ms.transform_checkpoints(str(tmp_path / "ckpt"), str(tmp_path / "again"), "net", strategy_file, strategy_file)
    again = ms.load_checkpoint(str(tmp_path / "again" / "rank_1" / "net1.ckpt"))
    np.testing.assert_array_equal(again["w1"].asnumpy(), slices[1]["w1"].asnumpy())
    with pytest.raises(ValueError, match="JSON"):
        ms.build_searched_strategy(str(tmp_path / "ckpt" / "rank_0" / "net.ckpt"))


@pytest.mark.parametrize("n,out", [(2, (1, 2)), (2, (2, 1)), (4, (1, 4)), (4, (2, 2)), (4, (4, 1))])
def test_a_contracting_split_lands_in_the_out_strategy(n, out):
    """Partial sums go straight to the output's blocks (ReduceScatter when a dim is split over exactly the partial
    axes); each rank's block, and the gradients of the sum of all blocks, equal one process's."""
    x, w = _ints((8, 8), 11), _ints((8, 8), 12)
    y = x @ w
    gx, gw = (g.asnumpy() for g in ms.grad(lambda a, b: ops.matmul(a, b).sum(), grad_position=(0, 1))(
        ms.Tensor(x), ms.Tensor(w)))

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        f = ms.shard(lambda a, b: ops.matmul(a, b), in_strategy=((1, n), (n, 1)), out_strategy=(out,))
        block = f(ms.Tensor(x), ms.Tensor(w)).asnumpy()
        grads = ms.grad(lambda a, b: f(a, b).sum(), grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))
        return get_rank(), block, [g.asnumpy() for g in grads]

    for r, block, grads in simulate(rank_main, n):
        rows, cols = 8 // out[0], 8 // out[1]
        i, j = divmod(r, n // out[0]) if out[0] > 1 else (0, r) if out[1] == n else (r, 0)
        np.testing.assert_array_equal(block, y[i * rows:(i + 1) * rows, j * cols:(j + 1) * cols])
        np.testing.assert_array_equal(grads[0], gx)
        np.testing.assert_array_equal(grads[1], gw)


@pytest.mark.parametrize("n,ins,out", [(2, ((1, 2), (2, 1)), (2, 1)), (4, ((2, 2), (2, 1)), (4, 1)),
                                        (4, ((1, 4), (4, 1)), (4, 1)), (4, ((1, 2), (2, 2)), (2, 2))])
def test_primitive_out_strategy_reduce_scatters_a_contracting_split(n, ins, out):
    """MatMul.shard(in_strategy, out_strategy): the partial sums of a split contraction are reduce-scattered into
    the output layout (MindSpore's choice of ReduceScatter over AllReduce); the next op sees that layout and the
    values and gradients equal one process's."""
    x, w, v = _ints((8, 8), 31), _ints((8, 8), 32), _ints((8, 4), 33)
    kinds = []

    def net(a, b, c):
        mm = ops.MatMul().shard(ins, out_strategy=(out,))
        return ops.matmul(ops.relu(mm(a, b)), c).sum()

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        f = ms.shard(net, in_strategy=(None, None, None))
        value = f(ms.Tensor(x), ms.Tensor(w), ms.Tensor(v)).asnumpy()
        graph = f._cache[next(iter(f._cache))].graph
        kinds.append(sorted({nd.op.name for nd in graph.nodes if nd.op.kind == "collective"}))
        grads = ms.grad(f, grad_position=(0, 1, 2))(ms.Tensor(x), ms.Tensor(w), ms.Tensor(v))
        return value, [g.asnumpy() for g in grads]

    want = net(ms.Tensor(x), ms.Tensor(w), ms.Tensor(v)).asnumpy()
    gwant = [g.asnumpy() for g in ms.grad(net, grad_position=(0, 1, 2))(ms.Tensor(x), ms.Tensor(w), ms.Tensor(v))]
    for value, grads in simulate(rank_main, n):
        np.testing.assert_array_equal(value, want)
        for g, gw in zip(grads, gwant):
            np.testing.assert_array_equal(g, gw)
    assert all("ReduceScatter" in k for k in kinds), kinds


@pytest.mark.parametrize("n,strategy", [(2, ((2, 1, 1), (2, 1, 1))), (4, ((2, 1, 2), (2, 2, 1))),
                                        (4, ((1, 2, 1), (1, 1, 2)))])
def test_batch_matmul_strategies(n, strategy):
    _same_as_one_process(lambda a, b: ops.BatchMatMul()(a, b).sum(), (_ints((4, 6, 8), 21), _ints((4, 8, 2), 22)),
                         strategy, n, (0, 1))


def test_a_sharded_function_inside_jit_is_refused_on_the_simulated_mesh():
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        f = ms.shard(lambda a: a * 2, in_strategy=((2, 1),))
        try:
            ms.jit(lambda a: f(a) + 1)(ms.Tensor(np.ones((4, 2), np.float32)))
        except ShardError as exc:
            return str(exc)
        return ""

    assert all("simulated mesh" in m for m in simulate(rank_main, 2))


def _dense_net(split: bool):
    w1 = ms.Tensor(np.linspace(-1, 1, 16 * 8, dtype=np.float32).reshape(16, 8))
    w2 = ms.Tensor(np.linspace(1, -1, 4 * 16, dtype=np.float32).reshape(4, 16))
    d1, d2 = nn.Dense(8, 16, weight_init=w1, bias_init="zeros"), nn.Dense(16, 4, weight_init=w2, bias_init="zeros")
    if split:  # MindSpore's way: the Dense's MatMul primitive (weight stored (out, in), transpose_b)
        d1.matmul.shard(((1, 1), (2, 1)))   # column parallel: the weight's out dim split
        d2.matmul.shard(((1, 2), (1, 2)))   # row parallel: the contracting dim split, partial sums
    return nn.SequentialCell([d1, nn.ReLU(), d2])


def test_dense_matmul_shard_trains_like_one_process():
    want_losses, want_params = _train(_dense_net(False), _X, _Y)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI)
        r = get_rank()
        return _train(_dense_net(True), _X[r * 8:(r + 1) * 8], _Y[r * 8:(r + 1) * 8])

    for losses, params in simulate(rank_main, 2):
        np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
        for p, pw in zip(params, want_params):
            np.testing.assert_allclose(p, pw, rtol=1e-5, atol=1e-6)


def _lookup(table, ids, w):
    h = ops.gather(table, ids, 0)                   # (B, S, H): an embedding lookup
    h = ops.squeeze(ops.expand_dims(h, 1), 1)       # ExpandDims / Squeeze
    return ops.tanh(ops.matmul(ops.reshape(h, (-1, 6)), w)).sum()


@pytest.mark.parametrize("n,strategy", [(2, ((1, 1), (2, 1), (1, 1))), (2, ((1, 2), (2, 1), (1, 1))),
                                        (4, ((1, 2), (2, 1), (2, 1))), (4, ((1, 1), (4, 1), (1, 4)))])
def test_embedding_lookup_with_split_ids_and_table(n, strategy):
    rng = np.random.default_rng(9)
    arrays = (rng.standard_normal((10, 6)).astype(np.float32), rng.integers(0, 10, (8, 3)).astype(np.int32),
              rng.standard_normal((6, 4)).astype(np.float32))
    _same_as_one_process(_lookup, arrays, strategy, n, (0, 2), exact=False)


def _cnn(x, w, v):
    h = ops.max_pool2d(ops.relu(ops.conv2d(x, w, pad_mode="pad", padding=1)), 2, 2)   # (B, 4, 3, 3)
    return ops.tanh(ops.matmul(ops.reshape(h, (h.shape[0], -1)), v)).sum()          # Reshape keeps the batch split


@pytest.mark.parametrize("n,strategy", [(2, ((2, 1, 1, 1), (1, 1, 1, 1), (1, 1))),    # batch
                                        (2, ((1, 1, 1, 1), (2, 1, 1, 1), (1, 1))),    # output channels
                                        (2, ((1, 2, 1, 1), (1, 2, 1, 1), (1, 1))),    # input channels: partial
                                        (4, ((2, 2, 1, 1), (1, 2, 1, 1), (2, 1)))])
def test_conv_and_pool_split_by_batch_and_channels(n, strategy):
    rng = np.random.default_rng(13)
    arrays = (rng.standard_normal((4, 2, 6, 6)).astype(np.float32), rng.standard_normal((4, 2, 3, 3)).astype(
        np.float32), rng.standard_normal((36, 3)).astype(np.float32))
    _same_as_one_process(_cnn, arrays, strategy, n, (0, 1, 2), exact=False)


def test_a_spatial_conv_split_is_refused():
    conv = ops.Conv2D(4, 3)
    conv.shard(((1, 1, 2, 1), (1, 1, 1, 1)))
    x, w = ms.Tensor(_ints((2, 2, 6, 6), 1)), ms.Tensor(_ints((4, 2, 3, 3), 2))
    kind, msg = _run_refused(lambda a, b: conv(a, b), (None, None), (x, w))
    assert kind is ShardError and "Conv2D with strategy ((1, 1, 2, 1), (1, 1, 1, 1))" in msg


def test_semi_auto_dense_net_with_sparse_cross_entropy_and_adam():
    """The data-parallel tutorial's network under semi-auto parallel with its Dense MatMuls split: the loss op has
    no rule (it runs on the gathered logits and int labels), Adam updates the whole parameters."""
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((16, 10)).astype(np.float32), rng.integers(0, 4, 16).astype(np.int32)

    def run(x, y, split):
        ms.set_seed(1)
        net = nn.SequentialCell([nn.Dense(10, 16), nn.ReLU(), nn.Dense(16, 4)])
        if split:
            net[0].matmul.shard(((1, 1), (2, 1)))
            net[2].matmul.shard(((1, 2), (1, 2)))
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Adam(net.trainable_params(), 0.01))
        losses = [float(step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for _ in range(3)]
        return losses, [p.asnumpy() for p in net.trainable_params()]

    want_losses, want_params = run(x, y, False)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI)
        r = get_rank()
        return run(x[r * 8:(r + 1) * 8], y[r * 8:(r + 1) * 8], True)

    for losses, params in simulate(rank_main, 2):
        np.testing.assert_allclose(losses, want_losses, rtol=1e-5)
        for p, pw in zip(params, want_params):
            np.testing.assert_allclose(p, pw, rtol=1e-4, atol=1e-5)


def _collectives(f) -> list:
    graph = f._cache[next(iter(f._cache))].graph
    return [nd.op.name for nd in graph.nodes if nd.op.kind == "collective" and nd.op.name != "Mirror"]


@pytest.mark.parametrize("n", [2, 4])
def test_reshard_fixes_a_layout_inside_a_sharded_function(n):
    """ms.reshard(x, layout) (and ops.Reshard): the value and gradients are one process's; the tensor's blocks
    follow the layout (a column split of a row-split input is an all-to-all's worth of slicing and gathering)."""
    x, w = _ints((8, 8), 41), _ints((8, 4), 42)
    layout = ms.Layout((n,), ("mp",))

    def net(a, b):
        h = ms.reshard(ops.relu(a) * 2.0, layout("None", "mp"))    # columns split
        h = ops.Reshard((layout("mp", "None"),), (layout("mp", "None"),), ((n, 1),))(h + 1.0)  # rows split
        return ops.matmul(h, b).sum()

    assert ms.reshard(ms.Tensor(x), layout("mp", "None")) is not None  # a world of one: the tensor itself

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        f = ms.shard(net, in_strategy=(None, None))
        value = f(ms.Tensor(x), ms.Tensor(w)).asnumpy()
        grads = ms.grad(f, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))
        return value, [g.asnumpy() for g in grads], _collectives(f)

    want = net(ms.Tensor(x), ms.Tensor(w)).asnumpy()
    gwant = [g.asnumpy() for g in ms.grad(net, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))]
    for value, grads, comms in simulate(rank_main, n):
        np.testing.assert_array_equal(value, want)
        for g, gw in zip(grads, gwant):
            np.testing.assert_array_equal(g, gw)
        assert "AllGather" in comms  # the column split is gathered before the rows are cut


def test_reshard_checks_its_arguments():
    def rank_main():
        init()
        with pytest.raises(TypeError, match="Layout"):
            ms.reshard(ms.Tensor(np.ones((2, 2), np.float32)), (2, 1))
        with pytest.raises(TypeError, match="Tensor type"):
            ms.reshard(np.ones((2, 2)), ms.Layout((2,), ("dp",))("dp", "None"))
        with pytest.raises(TypeError, match="tuple of one Layout"):
            ops.Reshard(ms.Layout((2,), ("dp",))("dp", "None"), (ms.Layout((2,), ("dp",))("dp", "None"),), ((2, 1),))
        return True

    assert simulate(rank_main, 2) == [True, True]


def _cat_split_tile(x, w):
    h = ops.matmul(x, w)                                   # rows split by the strategy below
    c = ops.concat((h, h * 2.0), 1)                         # along the unsplit dim: rows stay split
    a, b = ops.split(c, 4, 1)                               # SplitV along columns: rows stay split
    t = ops.tile(a - b, (1, 3))                             # tiled columns, rows kept
    u = ops.concat((t, ops.tile(b, (1, 3))), 0)             # along the split dim: gathered first
    return (u * u).sum() + ops.tile(x, (2, 1)).sum()


@pytest.mark.parametrize("n,strategy", [(2, ((2, 1), (1, 1))), (4, ((4, 1), (1, 1))), (4, ((2, 1), (1, 2)))])
def test_concat_split_tile_keep_splits_of_their_other_dims(n, strategy):
    _same_as_one_process(_cat_split_tile, (_ints((8, 6), 51), _ints((6, 4), 52)), strategy, n, (0, 1))


def test_primitive_strategies_for_concat_and_split():
    x = _ints((8, 6), 53)

    def net(a):
        cat = ops.Concat(1).shard(((2, 1), (2, 1)))
        return (cat((a, a * 3.0)) ** 2).sum()

    _same_as_one_process(net, (x,), (None,), 2, (0,))
    bad = ops.Concat(1).shard(((1, 2), (1, 2)))

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        with pytest.raises(ShardError, match=r"dimension\(s\) \[1\] cannot be split"):
            ms.shard(lambda a: bad((a, a)), in_strategy=(None,))(ms.Tensor(x))
        return True

    assert simulate(rank_main, 2) == [True, True]


@pytest.mark.parametrize("n,strategy", [(2, ((2, 1), (1, 1))), (4, ((2, 2), (1, 1))), (4, ((4, 1), (1, 1))),
                                        (4, ((2, 1), (2, 1))), (4, ((1, 2), (2, 1)))])
def test_gather_with_a_vocabulary_split_equals_one_process(n, strategy):
    """Gather(table, ids).shard(((v, h), (b, 1))): a vocabulary split (each rank holds V/v rows and zeros the ids
    it does not hold; the partial sums are reduced), hidden and batch splits; ids cover every block and repeat."""
    table = _ints((16, 8), 61)
    ids = np.array([[0, 15, 3, 8], [7, 7, 12, 1], [4, 9, 2, 14], [11, 5, 6, 10]], np.int32)
    w = _ints((8, 3), 62)

    def net(t, i, v):
        g = ops.Gather().shard(strategy)
        return (ops.matmul(g(t, i, 0), v) ** 2).sum()

    _same_as_one_process(net, (table, ids, w), (None, None, None), n, (0, 2))
