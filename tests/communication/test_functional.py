"""mindspore.mint.distributed / ops.communication on the simulated mesh: the uneven collectives along dim 0
(all_gather_into_tensor_uneven, reduce_scatter_tensor_uneven, all_to_all_single) and their argument checks;
the primitives' MindSpore examples (AllGatherV, ReduceScatterV, AlltoAllV)."""
import numpy as np
import pytest

import sprout as ms
from sprout import mint, ops
from sprout.communication import get_rank, init, simulate


def test_primitives_reproduce_mindspore_examples():
    def body():
        init()
        r = get_rank()
        gathered = ops.AllGatherV()(ms.Tensor(np.arange(r + 3, dtype=np.int32)), [3, 4])
        scattered = ops.ReduceScatterV(ops.ReduceOp.SUM)(ms.Tensor([0, 1, 2.0]), [2, 1])
        data, send, recv = ([0., 1., 2.], [1, 2], [1, 2]) if r == 0 else ([3., 4., 5.], [2, 1], [2, 1])
        exchanged = ops.AlltoAllV()(ms.Tensor(data), send, recv)
        return gathered.asnumpy(), scattered.asnumpy(), exchanged.asnumpy()

    (g0, s0, e0), (g1, s1, e1) = simulate(body, 2)
    np.testing.assert_array_equal(g0, [0, 1, 2, 0, 1, 2, 3])
    assert g0.dtype == np.int32 and (g1 == g0).all()
    np.testing.assert_array_equal(s0, [0, 2])
    np.testing.assert_array_equal(s1, [4])
    np.testing.assert_array_equal(e0, [0, 3, 4])
    np.testing.assert_array_equal(e1, [1, 2, 5])


def test_primitive_argument_errors():
    def body():
        init()
        with pytest.raises(ValueError, match="group size 2"):
            ops.AllGatherV()(ms.Tensor(np.zeros(3, np.float32)), [3])
        with pytest.raises(ValueError, match="has 2 elements but output_split_sizes gives this rank"):
            ops.AllGatherV()(ms.Tensor(np.zeros(2, np.float32)), [3, 3])
        with pytest.raises(ValueError, match="add up to 4"):
            ops.ReduceScatterV()(ms.Tensor(np.zeros(3, np.float32)), [2, 2])
        with pytest.raises(ValueError, match="'prod' is not supported"):
            ops.ReduceScatterV("prod")(ms.Tensor(np.zeros(4, np.float32)), [2, 2])
        with pytest.raises(TypeError, match="must hold ints"):
            ops.AlltoAllV()(ms.Tensor(np.zeros(4, np.float32)), [2.5, 1.5], [2, 2])
        with pytest.raises(TypeError, match="block_size"):
            ops.AlltoAllV(block_size=1.0)
        return True

    assert simulate(body, 2) == [True, True]


def test_empty_results_have_shape_scalar_as_mindspore():
    def body():
        init()
        a = ops.AllGatherV()(ms.Tensor(np.zeros(0, np.float32)), [0, 0])
        b = ops.ReduceScatterV()(ms.Tensor(np.ones(3, np.float32)), [3, 0])
        return a.shape, b.shape

    assert simulate(body, 2) == [((), (3,)), ((), ())]


def test_all_gather_into_tensor_uneven_and_reduce_scatter_tensor_uneven():
    def body():
        init()
        r = get_rank()
        x = ms.Tensor(np.full((r + 1, 2), r + 1.0, np.float32))
        out = ms.Tensor(np.zeros((6, 2), np.float32))
        assert mint.distributed.all_gather_into_tensor_uneven(out, x, output_split_sizes=[1, 2, 3]) is None
        full = ms.Tensor(np.arange(12, dtype=np.float32).reshape(6, 2) * (r + 1))
        mine = ms.Tensor(np.zeros((r + 1, 2), np.float32))
        handle = ops.reduce_scatter_tensor_uneven(mine, full, [1, 2, 3], op="max", async_op=True)
        handle.wait()
        even_in = ms.Tensor(np.full((1, 2), float(r), np.float32))
        even_out = ms.Tensor(np.zeros((3, 2), np.float32))
        mint.distributed.all_gather_into_tensor_uneven(even_out, even_in)  # None: an even split
        return out.asnumpy(), mine.asnumpy(), even_out.asnumpy()

    res = simulate(body, 3)
    want = np.concatenate([np.full((k + 1, 2), k + 1.0) for k in range(3)])
    spans = np.split(np.arange(12, dtype=np.float32).reshape(6, 2) * 3, [1, 3])
    for r, (out, mine, even) in enumerate(res):
        np.testing.assert_array_equal(out, want)
        np.testing.assert_array_equal(mine, spans[r])
        np.testing.assert_array_equal(even, np.repeat(np.arange(3.0), 2).reshape(3, 2))


def test_uneven_functions_check_shapes():
    def body():
        init()
        x = ms.Tensor(np.zeros((2, 2), np.float32))
        with pytest.raises(ValueError, match="needs an input of 1 rows"):
            mint.distributed.all_gather_into_tensor_uneven(x, x, [1, 1])
        with pytest.raises(ValueError, match="one entry per rank"):
            mint.distributed.reduce_scatter_tensor_uneven(x, x, [2])
        with pytest.raises(ValueError, match="split evenly"):
            mint.distributed.reduce_scatter_tensor_uneven(x, ms.Tensor(np.zeros((3, 2), np.float32)))
        with pytest.raises(TypeError, match="sum, min, max, avg"):
            mint.distributed.reduce_scatter_tensor_uneven(x, ms.Tensor(np.zeros((4, 2), np.float32)), op="prod")
        return True

    assert simulate(body, 2) == [True, True]


def test_all_to_all_single_uneven_splits():
    def body():
        init()
        r = get_rank()
        send = [1, 2] if r == 0 else [3, 1]
        recv = [1, 3] if r == 0 else [2, 1]
        x = ms.Tensor(np.arange(sum(send), dtype=np.float32) + 10 * r)
        out = ms.Tensor(np.zeros(sum(recv), np.float32))
        mint.distributed.all_to_all_single(out, x, output_split_sizes=recv, input_split_sizes=send)
        return out.asnumpy()

    r0, r1 = simulate(body, 2)
    np.testing.assert_array_equal(r0, [0, 10, 11, 12])
    np.testing.assert_array_equal(r1, [1, 2, 13])


def test_collective_gather_scatter_and_alltoallvc_reproduce_mindspore_examples():
    def body():
        init()
        r = get_rank()
        gathered = ops.CollectiveGather(dest_rank=0)(ms.Tensor(np.arange(4).reshape(2, 2).astype(np.float32)))
        scattered = ops.CollectiveScatter(src_rank=0)(ms.Tensor(np.arange(8).reshape(4, 2).astype(np.float32)))
        exchanged = ops.AlltoAllVC()(ms.Tensor(np.array([0, 1, 2.], np.float32) * r), ms.Tensor([[0, 3], [3, 0]]))
        with pytest.raises(ValueError, match="divisible"):
            ops.CollectiveScatter()(ms.Tensor(np.zeros((3, 2), np.float32)))
        with pytest.raises(ValueError, match="2x2"):
            ops.AlltoAllVC()(ms.Tensor(np.zeros(3, np.float32)), [0, 3, 3])
        return gathered.asnumpy(), scattered.asnumpy(), exchanged.asnumpy()

    (g0, s0, e0), (g1, s1, e1) = simulate(body, 2)
    np.testing.assert_array_equal(g0, np.tile(np.arange(4.0).reshape(2, 2), (2, 1)))
    np.testing.assert_array_equal(g1, [0.0])
    np.testing.assert_array_equal(s0, [[0, 1], [2, 3]])
    np.testing.assert_array_equal(s1, [[4, 5], [6, 7]])
    np.testing.assert_array_equal(e0, [0, 1, 2])
    np.testing.assert_array_equal(e1, [0, 0, 0])


def test_all_gather_matmul_and_matmul_reduce_scatter():
    """The fused communication + matmul functions are their compositions, values and gradients (3 ranks)."""
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((2, 4)).astype(np.float32) for _ in range(3)]
    w = rng.standard_normal((5, 4)).astype(np.float32)
    full = np.concatenate(xs)

    def body():
        init()
        r = get_rank()
        x = ms.Tensor(xs[r])
        out, gathered = ops.all_gather_matmul(x, ms.Tensor(w), "hccl_world_group", 3, trans_x2=True)
        _, empty = ops.all_gather_matmul(x, ms.Tensor(w.T.copy()), "hccl_world_group", 3, gather_output=False)
        scattered = ops.matmul_reduce_scatter(ms.Tensor(np.tile(xs[r], (3, 1))), ms.Tensor(w.T.copy()),
                                              "hccl_world_group", 3)
        dx = ms.grad(lambda t: ops.all_gather_matmul(t, ms.Tensor(w.T.copy()), "hccl_world_group", 3)[0].sum())(x)
        with pytest.raises(ValueError, match="world_size"):
            ops.all_gather_matmul(x, ms.Tensor(w.T.copy()), "hccl_world_group", 2)
        with pytest.raises(ValueError, match="gather_index"):
            ops.all_gather_matmul(x, ms.Tensor(w.T.copy()), "hccl_world_group", 3, gather_index=1)
        return out.asnumpy(), gathered.asnumpy(), empty.shape, scattered.asnumpy(), dx.asnumpy()

    for r, (out, gathered, empty, scattered, dx) in enumerate(simulate(body, 3)):
        np.testing.assert_allclose(out, full @ w.T, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(gathered, full)
        assert empty == (0,)
        block = np.tile(xs[0], (3, 1)) @ w.T + np.tile(xs[1], (3, 1)) @ w.T + np.tile(xs[2], (3, 1)) @ w.T
        np.testing.assert_allclose(scattered, block[2 * r:2 * r + 2], rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(dx, np.tile(w.sum(0), (2, 1)) * 3, rtol=1e-5, atol=1e-5)
