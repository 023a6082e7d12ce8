"""Pipeline parallel (``nn.PipelineCell`` under ``pipeline_stages > 1``, GPipe): training on the simulated mesh (2 and
3 stages) and under ``mpiexec -n 2`` (GRAPH_MODE TrainOneStepCell; value_and_grad + PipelineGradReducer inside @jit)
equals the one-process run on each stage's parameters and the last stage's loss; what is not supported raises."""
import os
import subprocess
import sys

import numpy as np
import pytest

import sprout as ms
from sprout import context, nn
from sprout.communication import get_rank, init, simulate

from .conftest import ROOT, SCRIPTS

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL
_rng = np.random.default_rng(0)
X = _rng.standard_normal((12, 8)).astype(np.float32)
Y = _rng.standard_normal((12, 4)).astype(np.float32)
W = [_rng.standard_normal(s).astype(np.float32) * 0.3 for s in ((16, 8), (16, 16), (4, 16))]


class Net(nn.Cell):
    def __init__(self, dropout=False):
        super().__init__()
        self.l1 = nn.Dense(8, 16, weight_init=ms.Tensor(W[0]), bias_init="zeros")
        self.l2 = nn.Dense(16, 16, weight_init=ms.Tensor(W[1]), bias_init="zeros")
        self.l3 = nn.Dense(16, 4, weight_init=ms.Tensor(W[2]), bias_init="zeros")
        self.act = nn.Dropout(p=0.5) if dropout else nn.ReLU()

    def construct(self, x):
        return self.l3(self.act(self.l2(ms.ops.tanh(self.l1(x)))))  # tanh: no cell, runs where l1's output is


def _train(stages, micro=4, steps=3, dropout=False, x=X, y=Y, prepare=None):
    net = Net(dropout)
    if prepare is not None:
        prepare(net)
    for cell, s in zip((net.l1, net.l2, net.l3), stages):
        cell.pipeline_stage = s
    step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), micro),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    net.set_train()
    losses = [float(step(ms.Tensor(x), ms.Tensor(y)).asnumpy()) for _ in range(steps)]
    return losses, [p.asnumpy() for p in net.trainable_params()]


@pytest.mark.parametrize("n,stages", [(2, (0, 0, 1)), (2, (0, 1, 1)), (3, (0, 1, 2))])
def test_pipelined_training_equals_one_process(n, stages):
    want_losses, want = _train(stages)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=n)
        return _train(stages)

    for r, (losses, params) in enumerate(simulate(rank_main, n)):
        if r == n - 1:  # the loss lives on the last stage; the others return zeros
            np.testing.assert_allclose(losses, want_losses, rtol=1e-6)
        else:
            assert losses == [0.0] * len(losses)
        for k, (p, w) in enumerate(zip(params, want)):
            if stages[k // 2] == r:  # each stage's parameters are trained on its rank
                np.testing.assert_allclose(p, w, rtol=1e-5, atol=1e-6)


def _errors(fn, n=2):
    def rank_main():
        init()
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - the test reads the type and message
            return type(exc), str(exc)
        return None, "no error"

    return simulate(rank_main, n)


@pytest.mark.parametrize("full_batch", [True, False])
def test_stages_with_data_parallel_replicas_equal_one_process(full_batch):
    """4 ranks = 2 stages x 2 replicas: each replica takes half the batch (full_batch: sliced by the cell; else fed its
    half), gradients are averaged over a stage's replicas (gradients_mean); the parameters equal the one-process run
    on the whole batch and each replica's loss is its half's (their mean is the one-process loss). With full_batch the
    result is also broadcast (pipeline_result_broadcast): each replica's first stage gets that replica's loss."""
    stages = (0, 1, 1)
    want_losses, want = _train(stages, micro=2)
    half = len(X) // 2

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2, gradients_mean=True,
                                          full_batch=full_batch, pipeline_result_broadcast=full_batch)
        r = get_rank() % 2  # this rank's replica's half of the batch, unless the cell slices the whole batch
        part = slice(None) if full_batch else slice(r * half, (r + 1) * half)
        return _train(stages, micro=2, x=X[part], y=Y[part])

    results = simulate(rank_main, 4)
    last = [np.array(results[r][0]) for r in (2, 3)]
    np.testing.assert_allclose(last[0][0] / 2 + last[1][0] / 2, want_losses[0], rtol=1e-6)
    if full_batch:  # ranks 0 and 2 are replica 0, ranks 1 and 3 replica 1
        assert results[0][0] == results[2][0] and results[1][0] == results[3][0] != results[0][0]
    else:
        assert results[0][0] == [0.0] * 3 and results[1][0] == [0.0] * 3
    for r, (_, params) in enumerate(results):
        for k, (p, w) in enumerate(zip(params, want)):
            if stages[k // 2] == r // 2:  # each stage's parameters are trained on both of its replicas
                np.testing.assert_allclose(p, w, rtol=1e-5, atol=1e-6)
    for k in range(len(want)):  # the replicas of a stage hold the same parameters
        np.testing.assert_array_equal(results[0][1][k], results[1][1][k])
        np.testing.assert_array_equal(results[2][1][k], results[3][1][k])


def _tied(stages, x=X, y=None, micro=2):
    """l3 (16 -> 16) uses l2's weight (tied weights on different stages)."""
    def prepare(net):
        net.l3 = nn.Dense(16, 16, weight_init=ms.Tensor(W[1]), bias_init="zeros")
        net.l3.weight = net.l2.weight
    y = np.tanh(X @ W[0].T)[:, :16] * 0.5 if y is None else y
    return _train(stages, micro=micro, x=x, y=y, prepare=prepare), y


@pytest.mark.parametrize("n,stages,dp,micro", [(2, (0, 0, 1), 1, 2), (3, (0, 1, 2), 1, 3), (4, (0, 0, 1), 2, 2)])
def test_parameters_shared_across_stages_train_as_one_process(n, stages, dp, micro):
    """A Parameter read by two stages (l2's weight, also l3's; stages 0 and 2 of 3 with stage 1 between them; and with
    2 replicas per stage) gets on each of their ranks the sum of the stages' parts of its gradient, so every rank
    updates it as the one-process run does."""
    (want_losses, want), y = _tied(stages, micro=micro)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=n // dp, gradients_mean=True,
                                          full_batch=True)
        return _tied(stages, y=y, micro=micro)[0]

    results = simulate(rank_main, n)
    names = ["l1.w", "l1.b", "l2.w (= l3.w)", "l2.b", "l3.b"]
    users = [{stages[0]}, {stages[0]}, {stages[1], stages[2]}, {stages[1]}, {stages[2]}]
    for r, (losses, params) in enumerate(results):
        assert len(params) == len(names)
        if r // dp == n // dp - 1 and dp == 1:
            np.testing.assert_allclose(losses, want_losses, rtol=1e-6)
        for name, p, w, u in zip(names, params, want, users):
            if r // dp in u:
                np.testing.assert_allclose(p, w, rtol=1e-5, atol=1e-6, err_msg=f"rank {r}: {name}")


def test_unsupported_configurations_raise():
    def ranks_not_a_multiple_of_stages():
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2)
        _train((0, 0, 1))

    for kind, msg in _errors(ranks_not_a_multiple_of_stages, 3):
        assert kind is ValueError and "multiple of pipeline_stages" in msg

    def one_f_one_b():
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2,
                                          pipeline_config={"pipeline_interleave": False, "pipeline_scheduler": "1f1b"})
        _train((0, 0, 1))

    for kind, msg in _errors(one_f_one_b):
        assert kind is NotImplementedError and "GPipe" in msg

    def operator_parallel_in_a_stage():
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2)
        _train((0, 0, 1), prepare=lambda net: net.l1.matmul.shard(((2, 1), (1, 1))))

    for kind, msg in _errors(operator_parallel_in_a_stage, 4):
        assert kind is NotImplementedError and "operator parallel" in msg, msg

    def random_op_in_a_stage():
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2)
        _train((0, 0, 1), dropout=True)

    for kind, msg in _errors(random_op_in_a_stage):
        assert kind is NotImplementedError and "random" in msg

    def too_few_micro_batches():
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2)
        _train((0, 0, 1), micro=1)

    for kind, msg in _errors(too_few_micro_batches):
        assert kind is ValueError and "micro_size" in msg

    def keyword_inputs():
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2)
        nn.PipelineCell(nn.WithLossCell(Net(), nn.MSELoss()), 2)(ms.Tensor(X), label=ms.Tensor(Y))

    for kind, msg in _errors(keyword_inputs):
        assert kind is TypeError and "keyword arguments" in msg

    def data_parallel_mode():
        context.set_auto_parallel_context(parallel_mode="data_parallel", pipeline_stages=2)
        _train((0, 0, 1))

    for kind, msg in _errors(data_parallel_mode):
        assert kind is RuntimeError and "semi_auto_parallel" in msg

    def no_pipeline_cell():
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2)
        net = Net()
        nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))

    for kind, msg in _errors(no_pipeline_cell):
        assert kind is RuntimeError and "PipelineCell" in msg


def test_pipeline_stage_property_and_grad_reducer():
    d = nn.Dense(2, 2)
    with pytest.raises(AttributeError, match="pipeline_stage"):
        d.pipeline_stage  # noqa: B018 - unset, as in MindSpore
    d.pipeline_stage = 1
    assert d.pipeline_stage == 1
    with pytest.raises(ValueError, match="can not be less than 0"):
        d.pipeline_stage = -1
    with pytest.raises(TypeError, match="must be int type"):
        d.pipeline_stage = True
    params = d.trainable_params()
    grads = (ms.Tensor(np.full((2, 2), 3.0, np.float32)), ms.Tensor(np.ones(2, np.float32)))
    out = nn.PipelineGradReducer(params, scale_sense=2.0)(grads)
    np.testing.assert_array_equal(out[0].asnumpy(), np.full((2, 2), 1.5, np.float32))
    with pytest.raises(NotImplementedError, match="opt_shard"):
        nn.PipelineGradReducer(params, opt_shard=True)


def _job(cmd, timeout=90):
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


def test_pipeline_under_mpiexec_equals_one_process(mpirun, tmp_path):
    script = str(SCRIPTS / "pipeline_train.py")
    one = _job([sys.executable, script, str(tmp_path / "one"), "graph"])
    assert one.returncode == 0, one.stderr
    want = np.load(tmp_path / "one_rank0.npz")
    for mode in ("graph", "functional"):
        proc = mpirun(2, "pipeline_train.py", tmp_path / mode, mode, timeout=90)
        assert proc.returncode == 0, proc.stderr
        got = [np.load(tmp_path / f"{mode}_rank{r}.npz") for r in range(2)]
        np.testing.assert_array_equal(got[1]["losses"], want["losses"])
        for k in range(6):  # l1, l2 on stage 0, l3 on stage 1: bitwise the one-process compiled run
            np.testing.assert_array_equal(got[0 if k < 4 else 1][f"arr_{k}"], want[f"arr_{k}"])


def test_pipeline_with_data_parallel_stages_under_mpiexec(mpirun, tmp_path):
    """mpiexec -n 4: 2 stages x 2 data-parallel replicas (GRAPH_MODE TrainOneStepCell) and l3 tied to l2's weight
    (shared by the stages): each stage's parameters equal the one-process run within float rounding (the replicas'
    gradients are averaged: another summation order), the replicas of a stage bitwise equal, the shared weight the
    same on all four ranks, and the mean of the two last-stage losses is the one-process loss."""
    script = str(SCRIPTS / "pipeline_train.py")
    one = _job([sys.executable, script, str(tmp_path / "one"), "graph", "1", "tied"])
    assert one.returncode == 0, one.stderr
    want = np.load(tmp_path / "one_rank0.npz")
    proc = mpirun(4, "pipeline_train.py", tmp_path / "dp", "graph", 2, "tied", timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = [np.load(tmp_path / f"dp_rank{r}.npz") for r in range(4)]
    np.testing.assert_allclose((got[2]["losses"] + got[3]["losses"]) / 2, want["losses"], rtol=1e-5)
    # parameters: l1.w, l1.b, l2.w (= l3.w), l2.b on stage 0 (ranks 0, 1); l3.b on stage 1 (ranks 2, 3)
    for k, ranks in enumerate([(0, 1), (0, 1), (0, 1, 2, 3), (0, 1), (2, 3)]):
        np.testing.assert_allclose(got[ranks[0]][f"arr_{k}"], want[f"arr_{k}"], rtol=1e-5, atol=1e-6)
        for r in ranks[1:]:
            np.testing.assert_array_equal(got[ranks[0]][f"arr_{k}"], got[r][f"arr_{k}"])


def test_pipeline_checkpoint_helpers(tmp_path):
    """Each stage saves its parameters; load_segmented_checkpoints combines the files, merge_pipeline_strategys the
    strategy files; sync_pipeline_shared_parameters gives a parameter held by two stages' cells the first stage's
    value on every rank."""
    stages = (0, 0, 1)
    want_losses, want = _train(stages)
    names = [p.name for p in Net().trainable_params()]

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2)
        net = Net()
        for cell, s in zip((net.l1, net.l2, net.l3), stages):
            cell.pipeline_stage = s
        step = nn.TrainOneStepCell(nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 4),
                                   nn.Momentum(net.trainable_params(), 0.1, 0.9))
        for _ in range(3):
            step(ms.Tensor(X), ms.Tensor(Y))
        r = get_rank()
        mine = [{"name": p.name, "data": p} for k, p in enumerate(net.trainable_params()) if stages[k // 2] == r]
        ms.save_checkpoint(mine, str(tmp_path / f"stage_{r}.ckpt"))
        shared = Net()  # l1 and l3 (different stages) hold the same bias Parameter; the ranks start apart
        shared.l1.pipeline_stage, shared.l3.pipeline_stage = 0, 1
        shared.l3.bias = ms.Parameter(ms.Tensor(np.full(4, float(r), np.float32)), name="tied")
        shared.l1.tied = shared.l3.bias
        ms.sync_pipeline_shared_parameters(shared)
        return shared.l3.bias.asnumpy()

    for tied in simulate(rank_main, 2):
        np.testing.assert_array_equal(tied, np.zeros(4, np.float32))  # stage 0's value everywhere
    loaded = ms.load_segmented_checkpoints(str(tmp_path))
    assert sorted(loaded) == sorted(names)
    for name, w in zip(names, want):
        np.testing.assert_allclose(loaded[name].asnumpy(), w, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="not a directory|doesn't exist"):
        ms.load_segmented_checkpoints(str(tmp_path / "missing"))
    a, b = tmp_path / "s" / "a.json", tmp_path / "s" / "b.json"
    a.parent.mkdir()
    a.write_text('{"parallel_layout": {"w": {"dev_matrix": [2], "tensor_map": [0, -1], "shape": [4, 2]}}}')
    b.write_text('{"parallel_layout": {"v": {"dev_matrix": [2], "tensor_map": [-1], "shape": [3]}}}')
    ms.merge_pipeline_strategys(str(a.parent), str(tmp_path / "merged.json"))
    assert sorted(ms.build_searched_strategy(str(tmp_path / "merged.json"))) == ["v", "w"]
    b.write_text('{"parallel_layout": {"w": {"dev_matrix": [2], "tensor_map": [-1, -1], "shape": [4, 2]}}}')
    with pytest.raises(ValueError, match="disagree on parameter 'w'"):
        ms.merge_pipeline_strategys(str(a.parent), str(tmp_path / "merged.json"))


def test_auto_parallel_pipeline_of_a_parallel_nn_pipeline():
    """MindSpore 2.6+'s form: AutoParallel(parallel.nn.Pipeline(loss net, micro)).pipeline(stages, 'gpipe',
    output_broadcast=True), the global context left stand-alone: the loss on every rank."""
    from sprout.parallel.auto_parallel import AutoParallel
    from sprout.parallel.nn import Pipeline

    stages = (0, 1, 1)
    want_losses, want = _train(stages)

    def rank_main():
        init()
        net = Net()
        for cell, s in zip((net.l1, net.l2, net.l3), stages):
            cell.pipeline_stage = s
        auto = AutoParallel(Pipeline(nn.WithLossCell(net, nn.MSELoss()), 4), parallel_mode="semi_auto")
        auto.pipeline(stages=2, scheduler="gpipe", output_broadcast=True)
        step = nn.TrainOneStepCell(auto, nn.Momentum(net.trainable_params(), 0.1, 0.9))
        losses = [float(step(ms.Tensor(X), ms.Tensor(Y)).asnumpy()) for _ in range(3)]
        assert context.get_auto_parallel_context("pipeline_stages") == 1  # only the cell's configuration changed
        return losses, [p.asnumpy() for p in net.trainable_params()]

    for r, (losses, params) in enumerate(simulate(rank_main, 2)):
        np.testing.assert_allclose(losses, want_losses, rtol=1e-6)
        for k, (p, w) in enumerate(zip(params, want)):
            if stages[k // 2] == r:
                np.testing.assert_allclose(p, w, rtol=1e-5, atol=1e-6)


def test_gradient_with_respect_to_the_inputs():
    """grad of a pipelined PipelineCell with respect to its input (no weights): the stage reading the input has the
    one-process gradient, the others zeros (each Receive depends on the inputs too, so its gradient is sent back)."""
    def grad_x(staged):
        net = Net()
        if staged:
            net.l1.pipeline_stage, net.l2.pipeline_stage, net.l3.pipeline_stage = 0, 1, 1
        pp = nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 2)
        return ms.grad(pp, grad_position=0)(ms.Tensor(X), ms.Tensor(Y)).asnumpy()

    want = grad_x(False)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2)
        return grad_x(True)

    first, last = simulate(rank_main, 2)
    np.testing.assert_allclose(first, want, rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(last, np.zeros_like(want))


def test_pipeline_result_broadcast_gives_every_stage_the_loss():
    """set_auto_parallel_context(pipeline_result_broadcast=True) (AutoParallel.pipeline(output_broadcast=True)): the
    last stage's loss on every rank; training is unchanged."""
    stages = (0, 0, 1)
    want_losses, want = _train(stages)
    with pytest.raises(TypeError, match="pipeline_result_broadcast"):
        context.set_auto_parallel_context(pipeline_result_broadcast=1)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, pipeline_stages=2, pipeline_result_broadcast=True)
        return _train(stages)

    for r, (losses, params) in enumerate(simulate(rank_main, 2)):
        np.testing.assert_allclose(losses, want_losses, rtol=1e-6)
        for k, (p, w) in enumerate(zip(params, want)):
            if stages[k // 2] == r:
                np.testing.assert_allclose(p, w, rtol=1e-5, atol=1e-6)
