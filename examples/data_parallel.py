"""Data-parallel training of an MLP on scikit-learn's bundled digits, written as MindSpore's data-parallel tutorial
writes it: ``init()``, ``set_auto_parallel_context(parallel_mode=DATA_PARALLEL, gradients_mean=True)``, a dataset
sharded by ``num_shards=get_group_size(), shard_id=get_rank()``, ``Model.train``. Replace ``import sprout as ms``
(and the other ``sprout`` imports) by ``mindspore`` and it runs unchanged.

Start it with the launcher (2 processes on this machine; their output goes to ``logs/worker_{rank}.log`` and,
with ``--join True``, to the console):

    python -m sprout.msrun --worker_num 2 --local_worker_num 2 --join True --log_dir logs examples/data_parallel.py

or with ``mpiexec -n 2 python -m sprout.run examples/data_parallel.py``, or alone (``python
examples/data_parallel.py``: a world of one process on the whole global batch). The global batch is fixed
(``--batch``): each of N ranks trains on batch/N samples per step, TrainOneStepCell all-reduces the gradients,
and every rank ends with the same weights, equal to a one-process run (up to the order of float summation). Each
rank prints a checksum of its weights; rank 0 evaluates and saves checkpoints (ModelCheckpoint: ranks that share a
directory let rank 0 write).

Measured (2 ranks, 8 epochs, global batch 64): test accuracy 0.964, the same as one process; ``--small`` (3 epochs
on 512 images) 0.772.
"""
import argparse

import numpy as np
from sklearn.datasets import load_digits

import sprout as ms                                                        # import mindspore as ms
import sprout.dataset as ds                                                # import mindspore.dataset as ds
from sprout import nn                                                      # from mindspore import nn
from sprout.communication import get_group_size, get_rank, init           # from mindspore.communication ...
from sprout.train import Accuracy, CheckpointConfig, LossMonitor, Model, ModelCheckpoint  # from mindspore.train


class MLP(nn.Cell):
    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.SequentialCell([nn.Dense(64, hidden), nn.ReLU(), nn.Dense(hidden, hidden), nn.ReLU(),
                                      nn.Dense(hidden, 10)])

    def construct(self, x):
        return self.net(x)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=64, help="global batch (split over the ranks)")
    parser.add_argument("--small", action="store_true", help="3 epochs on 512 training images")
    parser.add_argument("--graph", action="store_true", help="GRAPH_MODE (each step one compiled graph)")
    parser.add_argument("--ckpt_dir", default="ckpt")
    args = parser.parse_args()

    ms.set_context(mode=ms.GRAPH_MODE if args.graph else ms.PYNATIVE_MODE)
    ms.set_seed(1)  # every rank builds the same initial weights
    init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    rank, size = get_rank(), get_group_size()

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(0).permutation(len(x))
    train, test = order[:1437], order[1437:]
    if args.small:
        train, args.epochs = train[:512], 3
    if args.batch % size:
        raise SystemExit(f"--batch {args.batch} must be divisible by the {size} ranks")
    dataset = ds.NumpySlicesDataset({"x": x[train], "y": y[train]}, shuffle=False, num_shards=size, shard_id=rank)
    dataset = dataset.batch(args.batch // size, drop_remainder=True)

    net = MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"acc": Accuracy()})
    config = CheckpointConfig(save_checkpoint_steps=dataset.get_dataset_size(), keep_checkpoint_max=1)
    callbacks = [LossMonitor(dataset.get_dataset_size()), ModelCheckpoint("mlp_dp", args.ckpt_dir, config)]
    model.train(args.epochs, dataset, callbacks=callbacks)

    checksum = float(sum(np.abs(p.asnumpy()).astype(np.float64).sum() for p in net.trainable_params()))
    print(f"rank {rank} of {size}: weight checksum {checksum:.10f}", flush=True)
    if rank == 0:
        test_set = ds.NumpySlicesDataset({"x": x[test], "y": y[test]}, shuffle=False).batch(64)
        print(f"test accuracy: {model.eval(test_set)['acc']:.3f}", flush=True)


if __name__ == "__main__":
    main()
