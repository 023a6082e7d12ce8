"""The auto-parallel options that change what the SPMD pass emits (simulated mesh): ``enable_alltoall`` (a split moving
from one dim to another is one AlltoAll), ``force_fp32_communication`` (reduce collectives of float16 values in
float32), ``loss_repeated_mean=False`` (every replica of an output takes the caller's cotangent) and ``search_mode``
(AUTO_PARALLEL runs only as sharding propagation; the strategy searches are refused), plus ``pipeline_config``'s
checks. Each is compared with the one-process result."""
import numpy as np
import pytest

import sprout as ms
from sprout import context, nn, ops
from sprout.communication import init, simulate
from sprout.parallel.auto_parallel import AutoParallel

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL
AUTO = context.ParallelMode.AUTO_PARALLEL


@pytest.fixture(autouse=True)
def _reset():
    yield
    context.reset_auto_parallel_context()


def _ints(shape, seed, dtype=np.float32):
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(dtype)


def _graph(f):
    return f._cache[next(iter(f._cache))].graph


def _comms(f) -> list:
    """(op name, input dtype) of each collective of the rank's graph, Mirror excluded."""
    return [(nd.op.name, str(nd.inputs[0].type.dtype)) for nd in _graph(f).nodes
            if nd.op.kind == "collective" and nd.op.name != "Mirror"]


def _run(fn, arrays, n, positions, **settings):
    """``ms.shard(fn)`` on ``n`` simulated ranks under ``settings``: per rank the value, the gradients and the
    collectives of the rank's graph."""
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True, **settings)
        f = ms.shard(fn, in_strategy=(None,) * len(arrays))
        args = [ms.Tensor(a) for a in arrays]
        value = f(*args).asnumpy()
        grads = ms.grad(f, grad_position=positions)(*args)
        return value, [g.asnumpy() for g in grads], _comms(f)

    return simulate(rank_main, n)


@pytest.mark.parametrize("n", [2, 4])
def test_enable_alltoall_moves_a_split_between_dims_with_one_alltoall(n):
    x, w = _ints((8, 8), 1), _ints((8, 4), 2)
    layout = ms.Layout((n,), ("mp",))

    def net(a, b):
        h = ms.reshard(ops.relu(a) * 2.0, layout("mp", "None"))     # rows split
        h = ms.reshard(h + 1.0, layout("None", "mp"))               # -> columns split
        return ops.matmul(h, b[: h.shape[1]]).sum()

    want = net(ms.Tensor(x), ms.Tensor(w)).asnumpy()
    gwant = [g.asnumpy() for g in ms.grad(net, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))]
    for enabled in (True, False):
        for value, grads, comms in _run(net, (x, w), n, (0, 1), enable_alltoall=enabled):
            np.testing.assert_array_equal(value, want)
            for g, gw in zip(grads, gwant):
                np.testing.assert_array_equal(g, gw)
            names = [c[0] for c in comms]
            if enabled:
                assert "AlltoAll" in names and "AllGather" not in names[:names.index("AlltoAll")], names
            else:
                assert "AlltoAll" not in names and "AllGather" in names, names


def test_force_fp32_communication_reduces_float16_in_float32():
    """A contracting split (partial sums, AllReduce) and a row split gathered whole (AllGather, whose gradient is a
    ReduceScatter) of float16 values: with the option every reduce collective takes float32 (forward, and the
    backward through the AllGather's float32 input); the result is one process's within float16 rounding."""
    x, w = _ints((4, 8), 3, np.float16), _ints((8, 4), 4, np.float16)

    def net(a, b):
        y = ops.MatMul().shard(((1, 2), (2, 1)))(a, b)              # partial sums over the 2 ranks
        return ops.reshard(y * 0.5, ms.Layout((2,), ("mp",))("mp", "None")).sum()

    want = net(ms.Tensor(x), ms.Tensor(w)).asnumpy()
    gwant = [g.asnumpy() for g in ms.grad(net, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))]
    for forced in (True, False):
        for value, grads, comms in _run(net, (x, w), 2, (0, 1), force_fp32_communication=forced,
                                        gradient_fp32_sync=False):
            assert value.dtype == np.float16
            np.testing.assert_allclose(value.astype(np.float32), want.astype(np.float32), rtol=2e-3)
            for g, gw in zip(grads, gwant):
                assert g.dtype == np.float16
                np.testing.assert_allclose(g.astype(np.float32), gw.astype(np.float32), rtol=2e-3, atol=2e-3)
            reduces = [c for c in comms if c[0] in ("AllReduce", "ReduceScatter", "AllGather")]
            assert reduces, comms
            assert {dt for _, dt in reduces} == ({"Float32"} if forced else {"Float16"}), comms


def test_force_fp32_communication_sums_float16_parameter_gradients_in_float32():
    """Mirror (the gradient sum of a replicated Parameter) runs in float32 under the option even with
    gradient_fp32_sync=False."""
    x = _ints((8, 4), 5, np.float16)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.linspace(-1, 1, 8, dtype=np.float16).reshape(4, 2)), "w")

        def construct(self, a):
            return ops.matmul(a, self.w).sum()

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, gradient_fp32_sync=False, force_fp32_communication=True)
        net = Net()
        net.shard(in_strategy=((2, 1),))
        net(ms.Tensor(x[:4]))
        return [str(nd.inputs[0].type.dtype) for nd in _graph(net._shard).nodes if nd.op.name == "Mirror"]

    for mirrored in simulate(rank_main, 2):
        assert mirrored == ["Float32"], mirrored


@pytest.mark.parametrize("n", [2, 4])
def test_loss_repeated_mean_false_seeds_every_replica(n):
    """A scalar loss is replicated on every rank: with loss_repeated_mean (the default) the gradients are exact; with
    False each replica takes the whole cotangent and the summed gradients are n times larger (MindSpore's
    as_loss_divisor of 1). A split output has no replicas: unchanged either way."""
    x, w = _ints((8, 4), 6), _ints((4, 4), 7)

    def loss(a, b):
        return (ops.matmul(a, b) ** 2).sum()

    gwant = [g.asnumpy() for g in ms.grad(loss, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))]
    for mean, factor in ((True, 1), (False, n)):
        for _value, grads, _ in _run(loss, (x, w), n, (0, 1), loss_repeated_mean=mean):
            for g, gw in zip(grads, gwant):
                np.testing.assert_array_equal(g, gw * factor)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True, loss_repeated_mean=False)
        f = ms.shard(lambda a, b: ops.matmul(a, b), in_strategy=((n, 1), (1, 1)), out_strategy=((n, 1),))
        return ms.grad(lambda a, b: f(a, b).sum(), grad_position=1)(ms.Tensor(x), ms.Tensor(w)).asnumpy()

    g1 = ms.grad(lambda a, b: ops.matmul(a, b).sum(), grad_position=1)(ms.Tensor(x), ms.Tensor(w)).asnumpy()
    for g in simulate(rank_main, n):
        np.testing.assert_array_equal(g, g1)


def test_auto_parallel_runs_only_as_sharding_propagation():
    x = _ints((4, 2), 8)

    def fn(a):
        return ops.relu(a) * 2.0

    def rank_main(settings):
        init()
        context.set_auto_parallel_context(parallel_mode=AUTO, full_batch=True, **settings)
        return ms.shard(fn, in_strategy=((2, 1),))(ms.Tensor(x)).asnumpy()

    for settings in ({}, {"search_mode": "recursive_programming"}, {"search_mode": "dynamic_programming"},
                     {"auto_parallel_search_mode": "dynamic_programming"}):
        with pytest.raises(NotImplementedError, match="sharding_propagation"):
            simulate(rank_main, 2, settings)
    want = fn(ms.Tensor(x)).asnumpy()
    for settings in ({"search_mode": "sharding_propagation"}, {"auto_parallel_search_mode": "sharding_propagation"},
                     {"sharding_propagation": True}):
        for out in simulate(rank_main, 2, settings):
            np.testing.assert_array_equal(out, want)

    def auto_cell(mode):
        init()
        return AutoParallel(nn.Dense(2, 2), mode)(ms.Tensor(x)).asnumpy()

    with pytest.raises(NotImplementedError, match="recursive_programming"):
        simulate(auto_cell, 2, "recursive_programming")
    simulate(auto_cell, 2, "sharding_propagation")
    # a world of one runs the network itself, whatever the search mode (MindSpore's stand-alone rule)
    context.set_auto_parallel_context(parallel_mode=AUTO)
    np.testing.assert_array_equal(ms.shard(fn, in_strategy=((2, 1),))(ms.Tensor(x)).asnumpy(), want)


def test_search_mode_names_are_one_setting():
    context.set_auto_parallel_context(auto_parallel_search_mode="sharding_propagation")
    assert context.get_auto_parallel_context("search_mode") == "sharding_propagation"
    context.set_auto_parallel_context(search_mode="dynamic_programming")
    assert context.get_auto_parallel_context("auto_parallel_search_mode") == "dynamic_programming"


def test_pipeline_config_is_checked_as_mindspore():
    get = context.get_auto_parallel_context
    assert (get("pipeline_interleave"), get("pipeline_scheduler")) == (False, "1f1b")
    with pytest.raises(KeyError):
        context.set_auto_parallel_context(pipeline_config={"pipeline_scheduler": "gpipe"})
    with pytest.raises(TypeError, match="only '1f1b'"):
        context.set_auto_parallel_context(pipeline_config={"pipeline_interleave": False, "pipeline_scheduler": "gpipe"})
    with pytest.raises(TypeError, match="bool"):
        context.set_auto_parallel_context(pipeline_config={"pipeline_interleave": 1, "pipeline_scheduler": "1f1b"})
    with pytest.raises(ValueError, match="must be in"):
        context.set_auto_parallel_context(pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "x"})
    with pytest.raises(ValueError, match="Unknown config"):
        context.set_auto_parallel_context(pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "1f1b",
                                                           "stages": 2})
    with pytest.raises(TypeError, match="dict"):
        context.set_auto_parallel_context(pipeline_config=[1])
    context.set_auto_parallel_context(pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "gpipe"})
    assert (get("pipeline_interleave"), get("pipeline_scheduler")) == (True, "gpipe")
    with pytest.raises(ValueError, match="not recognized"):
        get("pipeline_config")  # MindSpore has getters for its keys only
