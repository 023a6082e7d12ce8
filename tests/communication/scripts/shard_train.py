"""Semi-auto parallel training of an MLP whose MatMuls carry Primitive.shard strategies (MindSpore's recipe): each
rank feeds its slice of the batch; 3 Momentum steps. Saves the weights to argv[1]_rank{r}.npz, and, sharded, each
rank's slices to argv[2]/rank_{r}/net.ckpt with the strategy file argv[2]/strategy.json. Without a launcher it is
one process on the whole batch (the strategies change nothing in a world of one). With argv[3] ("plain" or
"sharded"): GRAPH_MODE and Adam, with the optimizer state sharded over the ranks or not (enable_parallel_optimizer),
and the bytes of optimizer state this rank holds saved as "state"."""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import nn, ops
from mindspore.communication import get_group_size, get_rank, init

init()
n, r = get_group_size(), get_rank()
out, ckpt_dir = sys.argv[1], sys.argv[2]
opt_shard = sys.argv[3] if len(sys.argv) > 3 else ""
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL,
                             strategy_ckpt_config={"save_file": os.path.join(ckpt_dir, "strategy.json")},
                             enable_parallel_optimizer=opt_shard == "sharded",
                             parallel_optimizer_config={"parallel_optimizer_threshold": 0})
if opt_shard:
    ms.set_context(mode=ms.GRAPH_MODE)


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
opt = nn.Adam(net.trainable_params(), 0.01) if opt_shard else nn.Momentum(net.trainable_params(), 0.1, 0.9)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
for _ in range(3):
    loss = step(ms.Tensor(x[r * b:(r + 1) * b]), ms.Tensor(y[r * b:(r + 1) * b]))
state = 0
if opt_shard:
    from sprout.nn.parallel_optimizer import optimizer_state_bytes  # (sprout's measure, for the test)

    state = optimizer_state_bytes(opt)
np.savez(f"{out}_rank{r}.npz", *[p.asnumpy() for p in net.trainable_params()], loss=loss.asnumpy(),
         state=np.int64(state))
os.makedirs(os.path.join(ckpt_dir, f"rank_{r}"), exist_ok=True)
ms.save_checkpoint(net, os.path.join(ckpt_dir, f"rank_{r}", "net.ckpt"), integrated_save=False)
