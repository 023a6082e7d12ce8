"""``Layout(..., rank_list=...)``: a device matrix whose positions hold the ranks in another order, on the simulated
mesh (2 and 4 ranks) and under ``mpiexec -n 2``: values and gradients equal to one process (bitwise: small-integer
inputs), each rank holding the blocks of its position, checkpoint blocks placed by the same order."""
import json

import numpy as np
import pytest

import sprout as ms
from sprout import context, ops
from sprout.communication import init, simulate
from sprout.parallel import spmd_ckpt
from sprout.parallel.spmd_layout import ShardError

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL


def _ints(shape, seed):
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(np.float32)


def _mm(x, w):
    return ops.relu(ops.matmul(x, w)).sum()


X, W = _ints((8, 12), 0), _ints((12, 4), 1)


def _layouts(n, order):
    if n == 2:
        lay = ms.Layout((2,), ("mp",), rank_list=order)
        return (lay("None", "mp"), lay("mp", "None"))  # contracting split: partial sums, then all-reduced
    lay = ms.Layout((2, 2), ("dp", "mp"), rank_list=order)
    return (lay("dp", "mp"), lay("mp", "None"))


def _run(fn, n, strategy, blocks=False):
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        f = ms.shard(fn, in_strategy=strategy())
        x, w = ms.Tensor(X), ms.Tensor(W)
        return f(x, w).asnumpy(), [g.asnumpy() for g in ms.grad(f, grad_position=(0, 1))(x, w)]

    return simulate(rank_main, n)


@pytest.mark.parametrize("n,order", [(2, [1, 0]), (4, [3, 1, 2, 0]), (4, [1, 3, 0, 2]), (4, [0, 1, 2, 3])])
def test_rank_list_gives_the_one_process_value_and_gradients(n, order):
    x, w = ms.Tensor(X), ms.Tensor(W)
    want = _mm(x, w).asnumpy()
    gwant = [g.asnumpy() for g in ms.grad(_mm, grad_position=(0, 1))(x, w)]
    for out, grads in _run(_mm, n, lambda: _layouts(n, order)):
        np.testing.assert_array_equal(out, want)
        for g, gw in zip(grads, gwant):
            np.testing.assert_array_equal(g, gw)


def _rows(x, w):
    return ops.matmul(x, w)


def test_each_rank_holds_the_block_of_its_position():
    """out_strategy splitting the rows over the contracting devices (a ReduceScatter of the partial sums): the block
    a rank receives is the one at its position in rank_list, not at its rank."""
    order = [2, 0, 3, 1]
    want = _rows(ms.Tensor(X), ms.Tensor(W)).asnumpy()

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        lay = ms.Layout((4,), ("mp",), rank_list=order)
        f = ms.shard(_rows, in_strategy=(lay("None", "mp"), lay("mp", "None")), out_strategy=(lay("mp", "None"),))
        return f(ms.Tensor(X), ms.Tensor(W)).asnumpy()

    outs = simulate(rank_main, 4)
    for r, out in enumerate(outs):
        pos = order.index(r)
        np.testing.assert_array_equal(out, want[2 * pos:2 * pos + 2])


def _shard_error(strategy) -> list:
    """The ShardError message each of 2 ranks gets from a shard(_mm) call with ``strategy()``."""
    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, full_batch=True)
        try:
            ms.shard(_mm, in_strategy=strategy())(ms.Tensor(X), ms.Tensor(W))
        except ShardError as exc:
            return str(exc)
        return "no error"

    return simulate(rank_main, 2)


def test_different_rank_lists_in_one_function_are_refused():
    def strategy():
        a, b = ms.Layout((2,), ("mp",), rank_list=[1, 0]), ms.Layout((2,), ("mp",))
        return (a("None", "mp"), b("mp", "None"))

    for msg in _shard_error(strategy):
        assert "different rank_lists" in msg


def test_rank_list_must_be_a_permutation_of_the_ranks():
    def strategy():
        lay = ms.Layout((2,), ("mp",), rank_list=[1, 1])
        return (lay("None", "mp"), lay("mp", "None"))

    for msg in _shard_error(strategy):
        assert "each of the 2 ranks once" in msg


def test_checkpoint_blocks_follow_the_rank_list():
    class P:
        pass

    p = P()
    spmd_ckpt.record(p, (2,), ((0,), ()), (4, 3), [1, 0])
    info = spmd_ckpt.layout_of(p)
    assert info["rank_list"] == [1, 0]
    whole = np.arange(12, dtype=np.float32).reshape(4, 3)
    blocks = [whole[spmd_ckpt.block_index(info, r)] for r in range(2)]
    np.testing.assert_array_equal(blocks[1], whole[:2])  # rank 1 sits at position 0
    np.testing.assert_array_equal(spmd_ckpt.merge_slices(blocks, json.loads(json.dumps(info))), whole)


def test_rank_list_under_mpiexec_equals_the_simulated_mesh(mpirun, tmp_path):
    proc = mpirun(2, "layout_rank_list.py", tmp_path / "out", timeout=60)
    assert proc.returncode == 0, proc.stderr
    sim = _run(_mm, 2, lambda: _layouts(2, [1, 0]))
    for r in range(2):
        got = np.load(tmp_path / f"out_rank{r}.npz")
        np.testing.assert_array_equal(got["value"], sim[r][0])
        np.testing.assert_array_equal(got["gx"], sim[r][1][0])
        np.testing.assert_array_equal(got["gw"], sim[r][1][1])
