"""``shard`` (the SPMD pass) on the simulated mesh with 2 and 4 ranks: forward, gradients and training steps equal
to the one-process run (bitwise where the inputs are small integers, which makes every summation order exact),
and a clear refusal of what the pass does not support."""
import numpy as np
import pytest

import sprout as ms
from sprout import context, nn, ops
from sprout.communication import get_group_size, get_rank, init, simulate
from sprout.parallel.spmd_layout import ShardError

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL


def _ints(shape, seed):
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float32)


def _mm(x, w):
    return ops.relu(ops.matmul(x, w)).sum()


MATMUL_CASES = [(2, ((2, 1), (1, 1))), (2, ((1, 2), (2, 1))), (2, ((1, 1), (1, 2))), (2, ((2, 1), (1, 2))),
                (4, ((2, 2), (2, 1))), (4, ((4, 1), (1, 1))), (4, ((1, 2), (2, 2))), (4, ((1, 4), (4, 1))),
                (4, ((2, 1), (1, 1)))]


@pytest.mark.parametrize("n,strategy", MATMUL_CASES)
def test_matmul_strategies_give_the_unsharded_value_and_gradients(n, strategy):
    x, w = _ints((8, 12), 0), _ints((12, 4), 1)
    want = _mm(ms.Tensor(x), ms.Tensor(w)).asnumpy()
    gwant = [g.asnumpy() for g in ms.grad(_mm, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))]

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        f = ms.shard(_mm, in_strategy=strategy)
        out = f(ms.Tensor(x), ms.Tensor(w)).asnumpy()
        grads = ms.grad(f, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))
        return out, [g.asnumpy() for g in grads]

    for out, grads in simulate(rank_main, n):
        np.testing.assert_array_equal(out, want)
        for g, gw in zip(grads, gwant):
            np.testing.assert_array_equal(g, gw)


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
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((8, 6), (6, 4), (4,)))
    args = lambda: (ms.Tensor(x), ms.Tensor(w), ms.Tensor(b))  # noqa: E731
    want = _chain(*args()).asnumpy()
    gwant = [g.asnumpy() for g in ms.grad(_chain, grad_position=(0, 1, 2))(*args())]

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        f = ms.shard(_chain, in_strategy=strategy)
        return f(*args()).asnumpy(), [g.asnumpy() for g in ms.grad(f, grad_position=(0, 1, 2))(*args())]

    for out, grads in simulate(rank_main, n):
        np.testing.assert_allclose(out, want, rtol=1e-5)
        for g, gw in zip(grads, gwant):
            np.testing.assert_allclose(g, gw, rtol=1e-5, atol=1e-6)


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


def test_strategy_types_are_checked_as_mindspore():
    with pytest.raises(TypeError, match="tuple"):
        ms.shard(_mm, in_strategy=[(2, 1), (1, 1)])
    with pytest.raises(TypeError, match=r"tuple\(int\)"):
        ms.shard(_mm, in_strategy=((2.0, 1), (1, 1)))
    with pytest.raises(TypeError, match="consistent type"):
        ms.shard(_mm, in_strategy=(ms.Layout((2,), ("dp",))("dp", "None"), (1, 1)))
    with pytest.raises(NotImplementedError, match="out_strategy"):
        ops.MatMul().shard(((2, 1), (1, 1)), out_strategy=((2, 1),))


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
