"""Pipeline-parallel training (GPipe) of an MLP on scikit-learn's bundled digits, written as MindSpore's pipeline
tutorial writes it: ``set_auto_parallel_context(parallel_mode=SEMI_AUTO_PARALLEL, pipeline_stages=2)``, each layer's
``pipeline_stage``, ``nn.PipelineCell(nn.WithLossCell(net, loss), micro_size=4)``, ``Model.train``. Replace
``import sprout as ms`` (and the other ``sprout`` imports) by ``mindspore`` and it runs unchanged.

Start it with the launcher, one process per stage:

    python -m sprout.msrun --worker_num 2 --local_worker_num 2 --join True --log_dir logs examples/pipeline_parallel.py

or alone (``python examples/pipeline_parallel.py``: every stage in one process). Rank 0 runs the first two layers,
rank 1 the last one and the loss; every rank reads the same batches (4 micro-batches each). Each rank saves the
parameters of its stage to ``ckpt/stage_{rank}.ckpt``; then rank 0 combines them with
``load_segmented_checkpoints`` and evaluates the whole network. The loss is reported by the last stage (and, with
``pipeline_result_broadcast=True``, set here, on every rank); the trained weights equal a one-process run.

Measured (2 ranks, ``--small``: 3 epochs on 512 images): test accuracy 0.772, the same as one process (the stages'
weight checksums add up to the one-process checksum within 4e-9 relative).
"""
import argparse
import os

import numpy as np
from sklearn.datasets import load_digits

import sprout as ms                                                        # import mindspore as ms
import sprout.dataset as ds                                                # import mindspore.dataset as ds
from sprout import nn                                                      # from mindspore import nn
from sprout.communication import get_group_size, get_rank, init           # from mindspore.communication ...
from sprout.train import LossMonitor, Model                                # from mindspore.train ...


class MLP(nn.Cell):
    def __init__(self, hidden=128):
        super().__init__()
        self.fc1 = nn.Dense(64, hidden)
        self.fc2 = nn.Dense(hidden, hidden)
        self.fc3 = nn.Dense(hidden, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=64, help="batch per step (4 micro-batches)")
    parser.add_argument("--small", action="store_true", help="3 epochs on 512 training images")
    parser.add_argument("--ckpt_dir", default="ckpt")
    args = parser.parse_args()

    ms.set_seed(1)  # every rank builds the same initial weights
    init()
    rank, size = get_rank(), get_group_size()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=size,
                                 pipeline_result_broadcast=True)

    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(0).permutation(len(x))
    train, test = order[:1437], order[1437:]
    if args.small:
        train, args.epochs = train[:512], 3
    dataset = ds.NumpySlicesDataset({"x": x[train], "y": y[train]}, shuffle=False).batch(args.batch,
                                                                                        drop_remainder=True)

    net = MLP()
    net.fc1.pipeline_stage = 0
    net.fc2.pipeline_stage = 0
    net.fc3.pipeline_stage = size - 1                  # the loss after it runs on the last stage too
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net_with_loss = nn.PipelineCell(nn.WithLossCell(net, loss), micro_size=4)
    model = Model(net_with_loss, optimizer=nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(args.epochs, dataset, callbacks=[LossMonitor(dataset.get_dataset_size())])

    os.makedirs(args.ckpt_dir, exist_ok=True)
    stage_cells = {"fc1": 0, "fc2": 0, "fc3": size - 1}  # where each layer was trained
    mine = [{"name": p.name, "data": p} for name, p in net.parameters_and_names()
            if stage_cells[name.split(".")[0]] == rank or size == 1]
    ms.save_checkpoint(mine, os.path.join(args.ckpt_dir, f"stage_{rank}.ckpt"))
    checksum = float(sum(np.abs(d["data"].asnumpy()).astype(np.float64).sum() for d in mine))
    print(f"rank {rank} of {size}: stage weight checksum {checksum:.10f}", flush=True)
    if size > 1:
        ms.ops.Barrier()()                             # every stage's checkpoint is written
    if rank == 0:
        whole = MLP()
        ms.load_param_into_net(whole, ms.load_segmented_checkpoints(args.ckpt_dir))
        logits = whole(ms.Tensor(x[test])).asnumpy()
        print(f"test accuracy: {float((logits.argmax(1) == y[test]).mean()):.3f}", flush=True)


if __name__ == "__main__":
    main()
