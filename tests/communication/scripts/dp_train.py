"""An unmodified MindSpore data-parallel script (the recipe of MindSpore's data_parallel tutorial): init,
DATA_PARALLEL with gradients_mean, a dataset sharded by rank, Model.train. Saves this rank's final weights to
argv[1]_rank{r}.npz. Without a launcher it is one process on the whole global batch. argv[2] "parallel_optimizer"
shards the optimizer state."""
import sys

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.communication import get_group_size, get_rank, init

GLOBAL_BATCH = 16
ms.set_seed(1)
init()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
if sys.argv[2:] == ["parallel_optimizer"]:  # optimizer state sharded over the ranks (every parameter here)
    ms.set_auto_parallel_context(enable_parallel_optimizer=True,
                                 parallel_optimizer_config={"parallel_optimizer_threshold": 0})
rng = np.random.default_rng(0)
data = {"x": rng.standard_normal((128, 10)).astype(np.float32), "y": rng.integers(0, 4, 128).astype(np.int32)}
dataset = ms.dataset.NumpySlicesDataset(data, shuffle=False, num_shards=get_group_size(), shard_id=get_rank())
dataset = dataset.batch(GLOBAL_BATCH // get_group_size())
net = nn.SequentialCell([nn.Dense(10, 16), nn.ReLU(), nn.Dense(16, 4)])
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
model = ms.Model(net, loss, nn.Momentum(net.trainable_params(), 0.05, 0.9))
model.train(3, dataset)
np.savez(f"{sys.argv[1]}_rank{get_rank()}.npz", *[p.asnumpy() for p in net.trainable_params()])
