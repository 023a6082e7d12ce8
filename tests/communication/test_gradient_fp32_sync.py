"""``gradient_fp32_sync`` (semi-auto parallel, True by default as in MindSpore): the gradient of a float16 Parameter is
summed over the ranks in float32 (Cast, Mirror in float32, Cast back); with False in float16. Training equals one
process within float16 rounding either way (simulated mesh, 4 ranks)."""
import numpy as np
import pytest

import sprout as ms
from sprout import context, nn, ops
from sprout.communication import get_rank, init, simulate

SEMI = context.ParallelMode.SEMI_AUTO_PARALLEL
_X = np.random.default_rng(0).standard_normal((16, 8)).astype(np.float16)
_Y = np.random.default_rng(1).standard_normal((16, 4)).astype(np.float16)


class Half(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.linspace(-1, 1, 32, dtype=np.float16).reshape(8, 4)), "w")

    def construct(self, x):
        return ops.matmul(x, self.w)


def _train(x, y):
    net = Half()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    for _ in range(2):
        step(ms.Tensor(x), ms.Tensor(y))
    return step, net.w.asnumpy()


@pytest.mark.parametrize("fp32_sync", [True, False])
def test_float16_gradients_are_summed_in_float32_by_default(fp32_sync):
    _, want = _train(_X, _Y)

    def rank_main():
        init()
        context.set_auto_parallel_context(parallel_mode=SEMI, gradient_fp32_sync=fp32_sync)
        r = get_rank()
        step, w = _train(_X[4 * r:4 * r + 4], _Y[4 * r:4 * r + 4])
        graph = next(iter(step.network._shard._cache.values())).graph
        mirrored = [str(n.inputs[0].type.dtype) for n in graph.nodes if n.op.name == "Mirror"]
        return w, mirrored

    try:
        for w, mirrored in simulate(rank_main, 4):
            assert mirrored == (["Float32"] if fp32_sync else ["Float16"]), mirrored
            np.testing.assert_allclose(w.astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=2e-3)
    finally:
        context.reset_auto_parallel_context()
