"""Two executor streams (``inter_op_parallel_num=2``): the compile-time schedule's structure, bitwise equality with
the one-stream code on W4/W5/W6-like graphs, effect ordering, buffers kept alive across a fork, re-entrancy, and
the worker pool itself."""
import os
import re
import threading
import time

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from sprout.backend import pool, schedule
from sprout.communication import blas
from sprout.jit.api import explain

from stream_forcing import force, restore

rng = np.random.default_rng(13)


def _a(*shape):
    return rng.standard_normal(shape).astype(np.float32)


@pytest.fixture
def streams():
    saved = force(every_node=False)
    yield
    restore(saved)


def _schedule(jf, *args) -> str:
    ex = explain(jf, *args)
    assert not ex.schedule or f"== two streams ==\n{ex.schedule}" in str(ex)
    return ex.schedule


def _fork_regions_safe(src: str) -> None:
    """Between ``tK = _submit(_taskK, a, b)`` and ``_join(tK)`` no line writes or frees a, b (``out=``, ``del``,
    an in-place state call on them)."""
    lines = src.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"\s*(t\d+) = _submit\d*\(_task\d+((?:, \w+)*)\)", line)
        if not m:
            continue
        names = [p.strip() for p in m.group(2).split(",") if p.strip()]
        end = next(j for j in range(i + 1, len(lines)) if f"({m.group(1)})" in lines[j] and "_join" in lines[j])
        for between in lines[i + 1:end]:
            code = between.split("  #")[0]
            for name in names:
                assert f"out={name})" not in code and not re.search(rf"\bdel\b.*\b{name}\b", code), between
                assert not re.match(rf"\s*_\w+\({name}[,)]", code) or "=" in code.split("(")[0], between


# ---- schedule structure ---------------------------------------------------------------------------------------
def test_two_independent_gemms_fork_one_and_join_before_its_use(streams):
    def f(x, w, y, v):
        return ops.matmul(x, w).sum() + ops.matmul(y, v).sum()

    args = [ms.Tensor(_a(128, 128)) for _ in range(4)]
    jf = ms.jit(f)
    got = jf(*args)
    # the first GEMM's result is used at once, the second's later: the second runs on the worker from the start
    assert _schedule(jf, *args) == "fork   MatMul#2\nmain   MatMul#0\njoin   MatMul#2"
    src = explain(jf, *args).source
    assert "_task0(" in src and "_join" in src
    bc = ms.jit(f, capture_mode="bytecode")
    np.testing.assert_array_equal(got.asnumpy(), bc(*args).asnumpy())
    ms.set_context(inter_op_parallel_num=1)
    assert explain(ms.jit(f), *args).executable.gen.schedule == ""
    np.testing.assert_array_equal(got.asnumpy(), ms.jit(f)(*args).asnumpy())
    np.testing.assert_array_equal(got.asnumpy(), bc(*args).asnumpy())  # the segment compiles again for one stream


def test_a_lone_big_gemm_splits_and_small_ones_stay(streams):
    def f(x, w, s, t):
        return ops.matmul(x, w) + ops.matmul(s, t).sum()

    big, small = [ms.Tensor(_a(256, 256)) for _ in range(2)], [ms.Tensor(_a(8, 8)) for _ in range(2)]
    jf = ms.jit(f)
    out = jf(*big, *small)
    assert _schedule(jf, *big, *small) == "split   MatMul#0"
    want = big[0].asnumpy() @ big[1].asnumpy() + (small[0].asnumpy() @ small[1].asnumpy()).sum()
    np.testing.assert_array_equal(out.asnumpy(), want)


def test_matmul_rows_is_bitwise_one_call_both_ways():
    for shape_a, shape_b in (((64, 784), (784, 512)), ((512, 64), (64, 96)), ((3, 5), (5, 2)), ((2, 7), (7, 9))):
        a, b = _a(*shape_a), _a(*shape_b)
        np.testing.assert_array_equal(pool.matmul_rows(a, b), a @ b)
        np.testing.assert_array_equal(pool.matmul_rows(a.astype(np.float64), b.astype(np.float64)),
                                      a.astype(np.float64) @ b.astype(np.float64))


def test_cost_model_counts_gemm_and_conv_multiply_adds():
    def f(x, w):
        return ops.matmul(x, w)

    g = explain(ms.jit(f), ms.Tensor(_a(4, 6)), ms.Tensor(_a(6, 5))).executable.graph
    assert [schedule.cost(n) for n in g.nodes] == [4 * 5 * 6]


# ---- bitwise equality with one stream on W4/W5/W6-like graphs --------------------------------------------------
def _train(make_net, data, label, steps=3):
    net = make_net()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.SGD(net.trainable_params(), learning_rate=0.05)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    losses = [step(data, label).asnumpy() for _ in range(steps)]
    return losses, [p.asnumpy() for p in net.trainable_params()], _schedule(step, data, label), \
        explain(step, data, label).source


def _same_init(net_cls):
    init = {}

    def make():
        net = net_cls()
        for p in net.trainable_params():
            if p.name not in init:
                init[p.name] = np.random.default_rng(len(init)).standard_normal(p.shape).astype(np.float32) * 0.1
            p.set_data(ms.Tensor(init[p.name]))
        return net
    return make


def _compare(make, data, label, streams_fixture_on):
    ms.set_context(inter_op_parallel_num=1)
    want = _train(make, data, label)
    ms.set_context(inter_op_parallel_num=2)
    got = _train(make, data, label)
    for a, b in zip(want[0] + want[1], got[0] + got[1]):
        np.testing.assert_array_equal(a, b)
    assert want[2] == ""
    _fork_regions_safe(got[3])
    return got[2]


def test_mlp_train_step_two_streams_bitwise(streams):
    mlp = _same_init(lambda: nn.SequentialCell([nn.Dense(256, 256), nn.ReLU(), nn.Dense(256, 256), nn.ReLU(),
                                                nn.Dense(256, 10)]))
    sched = _compare(mlp, ms.Tensor(_a(64, 256)), ms.Tensor(rng.integers(0, 10, 64).astype(np.int32)), streams)
    # the second layer's weight gradient runs on the worker while the main stream computes its data gradient;
    # the forward GEMMs and the first layer's weight gradient split over both streams
    assert sched.splitlines()[:2] == ["split   MatMul#0", "split   MatMul#3"]
    assert re.search(r"fork   MatMul#(\d+)\nmain   MatMul#\d+\njoin   MatMul#\1", sched), sched
    assert pool.STATS["run_by_worker"] > 0


class _LeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc = nn.Dense(16 * 5 * 5, 10)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)

    def construct(self, x):
        x = self.pool(ops.relu(self.conv1(x)))
        x = self.pool(ops.relu(self.conv2(x)))
        return self.fc(ops.flatten(x))


def test_lenet_train_step_two_streams_bitwise(streams):
    sched = _compare(_same_init(_LeNet), ms.Tensor(_a(32, 1, 32, 32)),
                     ms.Tensor(rng.integers(0, 10, 32).astype(np.int32)), streams)
    # the second convolution's filter gradient runs on the worker beside its input gradient and the first
    # convolution's filter gradient (the pair overlapping the most work)
    assert re.search(r"fork   Conv2DBackpropFilter#(\d+)\nmain   Conv2DBackpropInput#\d+\n"
                     r"main   Conv2DBackpropFilter#\d+\njoin   Conv2DBackpropFilter#\1", sched), sched


_RNN_INIT = [_a(128, 128) * 0.1, _a(128, 128) * 0.1, _a(128) * 0.1]


class _RNN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.wx = ms.Parameter(ms.Tensor(_RNN_INIT[0]), name="wx")
        self.wh = ms.Parameter(ms.Tensor(_RNN_INIT[1]), name="wh")
        self.b = ms.Parameter(ms.Tensor(_RNN_INIT[2]), name="b")

    def construct(self, xs, h):
        for t in range(10):
            h = ops.tanh(ops.matmul(xs[t], self.wx) + ops.matmul(h, self.wh) + self.b)
        return ops.mean(h * h)


def _rnn_grads():
    net = _RNN()
    grad_fn = ms.value_and_grad(net, None, net.trainable_params())
    return ms.jit(lambda a, h: grad_fn(a, h))


def test_rnn_fwd_bwd_two_streams_bitwise_and_reentrant(streams):
    xs, h = ms.Tensor(_a(10, 16, 128)), ms.Tensor(_a(16, 128))
    ms.set_context(inter_op_parallel_num=1)
    serial = _rnn_grads()
    want = [t.asnumpy() for t in [serial(xs, h)[0], *serial(xs, h)[1]]]
    ms.set_context(inter_op_parallel_num=2)
    jf = _rnn_grads()
    sched = _schedule(jf, xs, h)
    assert "fork   MatMul" in sched and "split   MatMul" in sched, sched  # the two weight GEMMs; the input GEMM
    _fork_regions_safe(explain(jf, xs, h).source)
    results, errors = [], []

    def caller():
        try:
            for _ in range(10):
                loss, grads = jf(xs, h)
                results.append([loss.asnumpy(), *[g.asnumpy() for g in grads]])
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=caller) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 20
    for got in results:
        for a, b in zip(want, got):
            np.testing.assert_array_equal(a, b)


# ---- effects and flags -------------------------------------------------------------------------------------------
def test_worker_gemm_joins_before_a_state_write(streams):
    p = ms.Parameter(ms.Tensor(_a(128, 128)), name="p")

    def f(x, w, y):
        a = ops.matmul(x, w)
        b = ops.matmul(y, p)
        ops.assign(p, p * 2.0)
        c = ops.matmul(y, p)
        return a.sum() + b.sum() + c.sum()

    args = [ms.Tensor(_a(128, 128)) for _ in range(3)]
    x, w, y = (t.asnumpy() for t in args)
    p0 = p.asnumpy().copy()
    jf = ms.jit(f)
    out = jf(*args)
    want = np.float32((x @ w).sum()) + np.float32((y @ p0).sum()) + np.float32((y @ (p0 * 2)).sum())
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5)
    np.testing.assert_array_equal(p.asnumpy(), p0 * 2)
    sched = _schedule(jf, *args)
    assert sched.startswith("fork   MatMul#0\nmain   MatMul#1\njoin   MatMul#0"), sched
    src = explain(jf, *args).source
    assert src.index("_join") < src.index("_Assign")
    _fork_regions_safe(src)


def test_flag_recompiles_and_coordinates_blas():
    def f(x, w, y, v):
        return ops.matmul(x, w).sum() + ops.matmul(y, v).sum()

    args = [ms.Tensor(_a(128, 128)) for _ in range(4)]
    jf = ms.jit(f)
    before = blas.blas_threads()
    try:
        jf(*args)
        ms.set_context(inter_op_parallel_num=2)
        jf(*args)
        assert len(jf.cache.entries) == 2  # the number of streams is part of the cache key
        if before is not None:
            assert blas.blas_threads() == max(1, min(before, pool._cores() // 2))
    finally:
        ms.set_context(inter_op_parallel_num=0)
    assert blas.blas_threads() == before


# ---- the pool -----------------------------------------------------------------------------------------------------
def test_pool_propagates_errors_and_runs_unstarted_tasks_inline():
    def boom():
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        pool.join(pool.submit(boom))
    t = pool.Task(lambda a, b: a + b, (2, 3))  # never queued: its join runs it
    assert pool.join(t) == 5
    assert pool.both(lambda k: k * 2, lambda k: k * 3, 7) == (14, 21)


def test_pool_backs_off_after_losing_races(monkeypatch):
    monkeypatch.setattr(pool, "_skip", 0)
    monkeypatch.setattr(pool, "_misses", 0)
    gate = threading.Event()
    held = pool.submit(gate.wait)   # occupies the worker: the next tasks cannot be started by it
    while not held.claim.locked():
        time.sleep(0.0005)
    for k in range(pool.MISSES):
        assert pool.join(pool.submit(lambda k=k: k)) == k
    assert pool._skip == pool.BACKOFF
    t = pool.submit(lambda: 1)
    assert not t.queued and pool.join(t) == 1
    gate.set()
    pool.join(held)


def test_pool_backs_off_when_joins_wait_for_a_worker_off_the_cpu(monkeypatch):
    """A task the worker took but ran off the CPU (here: sleeping, as a descheduled worker would) while its join
    waited counts as a lost race: MISSES of them in a row back off as lost claims do."""
    monkeypatch.setattr(pool, "_skip", 0)
    monkeypatch.setattr(pool, "_misses", 0)
    stalled = pool.STATS["stalled"]
    for _ in range(10 * pool.MISSES):  # a join that did not wait (this thread descheduled 50 ms) resets the count
        if pool._skip:
            break
        t = pool.submit(time.sleep, 0.05)
        while not t.claim.locked():
            time.sleep(0.0002)
        pool.join(t)
        assert t.off_cpu >= 0.04
    assert pool._skip == pool.BACKOFF and pool.STATS["stalled"] - stalled >= pool.MISSES


def test_pool_starts_afresh_in_a_forked_child():
    pool.join(pool.submit(int))  # the parent's worker exists
    pid = os.fork()
    if pid == 0:  # the child: a new worker thread takes its tasks
        ok = False
        try:
            gate = threading.Event()
            t = pool.submit(gate.wait, 5)
            deadline = time.monotonic() + 10
            while not t.claim.locked() and time.monotonic() < deadline:
                time.sleep(0.0005)
            taken = t.claim.locked()
            gate.set()
            ok = taken and pool.join(t) is True and pool._worker is not None and pool._worker.is_alive()
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
