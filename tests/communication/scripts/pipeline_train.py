"""Pipeline parallel (GPipe) training of a 3-layer MLP split over 2 stages, 4 micro-batches, 3 Momentum steps, in the
mode argv[2] ("pynative": TrainOneStepCell; "graph": the same in GRAPH_MODE; "functional": value_and_grad +
PipelineGradReducer + optimizer inside @jit). Each rank saves its losses and parameters to argv[1]_rank{r}.npz.
Without a launcher it is the one-process run (the stages change nothing in a world of one). argv[3], if given, is
the number of stages (fewer than the ranks: data-parallel replicas inside each stage, full batch on every rank,
gradients averaged over the replicas); argv[4] == "tied": l3 is 16 -> 16 and uses l2's weight (a Parameter shared by
the two stages)."""
import sys

import numpy as np

import sprout as ms
from sprout import context, nn, ops
from sprout.communication import get_group_size, get_rank, init

init()
mode = sys.argv[2]
STAGES = int(sys.argv[3]) if len(sys.argv) > 3 else get_group_size()
if get_group_size() > 1:
    context.set_auto_parallel_context(parallel_mode=context.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=STAGES)
    if STAGES < get_group_size():
        context.set_auto_parallel_context(full_batch=True, gradients_mean=True)
if mode == "graph":
    ms.set_context(mode=ms.GRAPH_MODE)
rng = np.random.default_rng(0)
X = rng.standard_normal((16, 8)).astype(np.float32)
Y = rng.standard_normal((16, 4)).astype(np.float32)
WEIGHTS = [rng.standard_normal(s).astype(np.float32) * 0.3 for s in ((16, 8), (16, 16), (4, 16))]
TIED = len(sys.argv) > 4 and sys.argv[4] == "tied"
if TIED:
    Y = rng.standard_normal((16, 16)).astype(np.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Dense(8, 16, weight_init=ms.Tensor(WEIGHTS[0]), bias_init="zeros")
        self.l2 = nn.Dense(16, 16, weight_init=ms.Tensor(WEIGHTS[1]), bias_init="zeros")
        self.l3 = nn.Dense(16, 4, weight_init=ms.Tensor(WEIGHTS[2]), bias_init="zeros")
        if TIED:
            self.l3 = nn.Dense(16, 16, weight_init=ms.Tensor(WEIGHTS[1]), bias_init="zeros")
            self.l3.weight = self.l2.weight
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.l3(self.relu(self.l2(self.relu(self.l1(x)))))


def build():
    net = Net()
    net.l1.pipeline_stage = 0
    net.l2.pipeline_stage = 0  # the ReLU between l2 and l3 has no stage: it runs where its input is (stage 0)
    net.l3.pipeline_stage = STAGES - 1
    return net, nn.PipelineCell(nn.WithLossCell(net, nn.MSELoss()), 4)


net, pp = build()
opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
if mode == "functional":
    grad_fn = ops.value_and_grad(pp, None, opt.parameters)
    reducer = nn.PipelineGradReducer(opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(reducer(grads))
        return loss
else:
    step = nn.TrainOneStepCell(pp, opt)
losses = [step(ms.Tensor(X), ms.Tensor(Y)).asnumpy() for _ in range(3)]
np.savez(f"{sys.argv[1]}_rank{get_rank()}.npz", *[p.asnumpy() for p in net.trainable_params()],
         losses=np.array(losses))
