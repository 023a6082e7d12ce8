"""The simulated mesh: deterministic scheduling, failures reported with the ranks involved, per-rank state."""
import time

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.communication import (CollectiveMismatchError, CollectiveTimeoutError, get_rank, get_group_size, init,
                                  simulate)


def _t(*v):
    return ms.Tensor(np.array(v, np.float32))


def test_results_in_rank_order_and_independent_of_thread_timing():
    def body():
        init()
        x = _t(get_rank() + 1.0)
        return ops.AllReduce()(x).asnumpy()[0], get_rank(), get_group_size()

    assert simulate(body, 3) == [(6.0, 0, 3), (6.0, 1, 3), (6.0, 2, 3)]


def test_mismatched_shapes_raise_on_every_rank_listing_each_rank():
    def body():
        init()
        return ops.AllReduce()(ms.Tensor(np.ones(4 if get_rank() == 0 else 3, np.float32)))

    with pytest.raises(CollectiveMismatchError) as info:
        simulate(body, 2)
    text = str(info.value)
    assert "AllReduce #1" in text and "rank 0: AllReduce float32[4]" in text and "rank 1: AllReduce float32[3]" in text


def test_different_collectives_are_a_mismatch_not_garbage():
    def body():
        init()
        x = _t(1.0, 2.0)
        return ops.AllReduce()(x) if get_rank() == 0 else ops.AllGather()(x)

    with pytest.raises(CollectiveMismatchError, match="rank 0: AllReduce .*rank 1: AllGather"):
        simulate(body, 2)


def test_a_rank_missing_from_a_collective_is_named():
    def body():
        init()
        ops.AllReduce()(_t(1.0))
        if get_rank() != 1:
            ops.Barrier()()
        return get_rank()

    with pytest.raises(CollectiveTimeoutError, match=r"ranks not yet in it: \[1\] \(rank 1 finished\)"):
        simulate(body, 3)


def test_a_rank_that_raises_stops_the_run_with_its_own_error():
    def body():
        init()
        if get_rank() == 2:
            raise ValueError("boom on rank 2")
        ops.AllReduce()(_t(1.0))

    with pytest.raises(ValueError, match="boom on rank 2") as info:
        simulate(body, 3)
    assert "simulated rank 2 of 3" in "".join(getattr(info.value, "__notes__", []))


def test_sends_in_both_directions_first_deadlock_and_are_reported():
    def body():
        init()
        r = get_rank()
        ops.Send(0, 1 - r)(_t(1.0))
        return ops.Receive(0, 1 - r, (1,), ms.float32)()

    with pytest.raises(CollectiveTimeoutError, match="deadlock.*Send"):
        simulate(body, 2)


def test_a_rank_running_past_the_timeout_is_named():
    def body():
        init()
        if get_rank() == 1:
            time.sleep(1.0)
        ops.Barrier()()

    with pytest.raises(CollectiveTimeoutError, match="rank 1 ran for more than the collective timeout"):
        simulate(body, 2, timeout=0.3)


def test_each_rank_has_its_own_tapes_and_seed():
    def body():
        init()
        ms.set_seed(7)
        w = ms.Tensor(np.arange(3.0))

        def f(x):
            return (ops.AllReduce()(x * x) * (get_rank() + 1)).sum()

        g = ms.grad(f)(w)  # the tape of each rank sees only that rank's ops
        draw = ms.ops.uniform((2,), ms.Tensor(0.0), ms.Tensor(1.0)).asnumpy()
        return g.asnumpy(), draw

    (g0, d0), (g1, d1) = simulate(body, 2)
    # d/dw of sum_r (r+1) * sum(AllReduce(w*w)) = AllReduce((r+1)) * 2w = 3 * 2w on both ranks
    np.testing.assert_allclose(g0, 6 * np.arange(3.0))
    np.testing.assert_allclose(g1, 6 * np.arange(3.0))
    np.testing.assert_array_equal(d0, d1)  # same seed, separate generators: same draws


def test_nested_simulation_and_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="positive int"):
        simulate(lambda: None, 0)

    def body():
        simulate(lambda: None, 2)

    with pytest.raises(RuntimeError, match="inside a simulated rank"):
        simulate(body, 1)


def test_compiled_graphs_are_shared_between_ranks_and_agree_with_eager():
    step = ms.jit(lambda x: ops.AllGather()(ops.AllReduce()(x) * 2))

    def body():
        init()
        x = _t(get_rank(), 10.0)
        return step(x).asnumpy(), ops.AllGather()(ops.AllReduce()(x) * 2).asnumpy()

    for got, want in simulate(body, 2):
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(got, [2.0, 40.0, 2.0, 40.0])
