"""Semi-auto parallel training of an MLP whose MatMuls carry Primitive.shard strategies (MindSpore's recipe): each
rank feeds its slice of the batch; 3 Momentum steps. Saves the weights to argv[1]_rank{r}.npz, and, sharded, each
rank's slices to argv[2]/rank_{r}/net.ckpt with the strategy file argv[2]/strategy.json. Without a launcher it is
one process on the whole batch (the strategies change nothing in a world of one)."""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import nn, ops
from mindspore.communication import get_group_size, get_rank, init

init()
n, r = get_group_size(), get_rank()
out, ckpt_dir = sys.argv[1], sys.argv[2]
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL,
                             strategy_ckpt_config={"save_file": os.path.join(ckpt_dir, "strategy.json")})


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w1 = ms.Parameter(ms.Tensor(np.linspace(-1, 1, 8 * 16, dtype=np.float32).reshape(8, 16)), "w1")
        self.b1 = ms.Parameter(ms.Tensor(np.zeros(16, np.float32)), "b1")
        self.w2 = ms.Parameter(ms.Tensor(np.linspace(1, -1, 16 * 4, dtype=np.float32).reshape(16, 4)), "w2")
        self.mm1 = ops.MatMul().shard(((1, 1), (1, n)))
        self.mm2 = ops.MatMul().shard(((1, n), (n, 1)))
        self.relu = ops.ReLU()

    def construct(self, x):
        return self.mm2(self.relu(self.mm1(x, self.w1) + self.b1), self.w2)


rng = np.random.default_rng(0)
x = rng.standard_normal((16, 8)).astype(np.float32)
y = rng.standard_normal((16, 4)).astype(np.float32)
b = 16 // n
net = MLP()
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9))
for _ in range(3):
    loss = step(ms.Tensor(x[r * b:(r + 1) * b]), ms.Tensor(y[r * b:(r + 1) * b]))
np.savez(f"{out}_rank{r}.npz", *[p.asnumpy() for p in net.trainable_params()], loss=loss.asnumpy())
os.makedirs(os.path.join(ckpt_dir, f"rank_{r}"), exist_ok=True)
ms.save_checkpoint(net, os.path.join(ckpt_dir, f"rank_{r}", "net.ckpt"), integrated_save=False)
