"""Compiled graphs check their collectives across ranks once per run (at the first one, with a digest of all of
them) instead of before every collective; eager collectives and other graphs keep checking."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.communication import CollectiveMismatchError, collective, get_rank, init, simulate


def _three(x, y):
    # x * 1 is a dead buffer of the graph: the first AllReduce runs in place; y's are small (a private copy)
    a = ops.AllReduce()(x * 1.0)
    b = ops.AllReduce()(y + 1.0)
    c = ops.AllReduce()(a * 0.5)
    return a, b, c


def _inputs():
    r = get_rank()
    return (ms.Tensor(np.arange(1 << 16, dtype=np.float32) * (r + 1)),
            ms.Tensor(np.full(5, r + 2.0, np.float32)))


class _PerRank:
    """Cross-rank checks counted per (simulated) rank."""

    def __init__(self):
        self.by_rank = {}

    def __getitem__(self, _key):
        return self.by_rank.get(get_rank(), 0)


@pytest.fixture
def checks(monkeypatch):
    count = _PerRank()
    original = collective._check

    def counted(*a):
        count.by_rank[get_rank()] = count["n"] + 1
        return original(*a)

    monkeypatch.setattr(collective, "_check", counted)
    return count


def test_a_compiled_graph_checks_once_per_run_and_agrees_with_eager(checks):
    step = ms.jit(_three)

    def body():
        init()
        x, y = _inputs()
        step(x, y)  # compile
        before = checks["n"]
        got = [step(x, y) for _ in range(3)]
        compiled_checks = checks["n"] - before
        before = checks["n"]
        want = _three(x, y)
        eager_checks = checks["n"] - before
        return got, want, compiled_checks, eager_checks

    res = simulate(body, 2)
    assert [r[2] for r in res] == [3, 3]  # one check per run on each rank (was three)
    assert [r[3] for r in res] == [3, 3]  # eager: every collective checks
    for got, want, _, _ in res:
        for run in got:
            for g, w in zip(run, want):
                np.testing.assert_array_equal(g.asnumpy(), w.asnumpy())


def test_an_eager_collective_between_runs_is_checked_and_the_next_run_checks_again(checks):
    step = ms.jit(_three)

    def body():
        init()
        x, y = _inputs()
        step(x, y)
        before = checks["n"]
        step(x, y)
        ops.AllReduce()(y)
        step(x, y)
        return checks["n"] - before

    assert simulate(body, 2) == [3, 3]


def test_ranks_running_graphs_whose_later_collectives_differ_check_each_collective(checks):
    def other(x, y):  # the same first collective, then a different shape
        a = ops.AllReduce()(x * 1.0)
        b = ops.AllReduce()(ops.concat((y, y)) + 1.0)
        return a, b, ops.AllReduce()(a * 0.5)

    steps = [ms.jit(_three), ms.jit(other)]

    def body():
        init()
        x, y = _inputs()
        return steps[get_rank()](x, y)

    with pytest.raises(RuntimeError) as info:  # raised inside the graph: GraphRuntimeError naming the node
        simulate(body, 2)
    assert isinstance(info.value.__cause__, CollectiveMismatchError)
    text = str(info.value)
    assert "AllReduce #2" in text and "rank 0: AllReduce float32[5]" in text and "rank 1: AllReduce float32[10]" in text


def test_different_graphs_with_the_same_collectives_run_and_a_recompile_on_one_rank_is_caught(checks):
    step = ms.jit(_three)
    twin = ms.jit(lambda x, y: _three(x, y))  # another graph, the same collectives

    def body():
        init()
        x, y = _inputs()
        same = [(step if get_rank() == 0 else twin)(x, y) for _ in range(2)]
        if get_rank() == 1:
            y = ms.Tensor(np.ones(6, np.float32))
        step(x, y)
        return same

    with pytest.raises(RuntimeError, match=r"AllReduce #8 .*rank 0: AllReduce float32\[5\].*rank 1: AllReduce "
                       r"float32\[6\]") as info:
        simulate(body, 2)
    assert isinstance(info.value.__cause__, CollectiveMismatchError)


def test_collectives_under_control_flow_keep_checking_every_call(checks):
    @ms.jit
    def looped(x):
        for _ in range(2):
            x = ops.AllReduce()(x) * 0.5
        if x.sum() > 0:
            x = ops.AllReduce()(x)
        return x

    def body():
        init()
        x = ms.Tensor(np.ones(4, np.float32))
        looped(x)
        before = checks["n"]
        out = looped(x)
        return checks["n"] - before, out.asnumpy()

    for n, out in simulate(body, 2):
        np.testing.assert_array_equal(out, np.full(4, 2.0, np.float32))
        assert n == 3  # no sites: the if-branch runs as a sub-graph
