"""LeNet-5 on scikit-learn's bundled digits with Model.train, LossMonitor, ModelCheckpoint and Model.eval.

Written exactly as a MindSpore 2.x user writes it: replace ``import sprout as ms`` (and the other
``sprout`` imports) by ``mindspore`` and it runs unchanged.

The network is the classic LeNet-5 (two 5x5 "valid" convolutions with 2x2 max pooling, then
120-84-10 dense layers), which expects 32x32 single-channel images. The digits are 8x8, too small
for two valid 5x5 convolutions plus two poolings. The default (``--image-size 8``) keeps LeNet-5's
layout - conv 6, pool, conv 16, pool, dense 120, 84, 10 - with 3x3 "same" convolutions, which leave
16x2x2 features. ``--image-size 32`` runs the unmodified textbook network on digits upsampled 4x
by pixel repetition; that adds no information, only compute, so it is not the default.

Training runs twice from the same seed: in PYNATIVE_MODE (every op eager) and in GRAPH_MODE (Model
compiles the train step and the eval step with jit), and the epoch times of both are printed.

Measured (python examples/lenet_digits.py: 10 epochs, 1437 train / 360 test images, batch 32,
Adam lr 0.01): test accuracy 0.981 in both modes (identical losses step by step). ``--small``
(5 epochs on 512 training images) reaches 0.839. ``--image-size 32`` (the textbook LeNet-5 on
upsampled digits) takes about 4x the CPU time per epoch and reaches 0.944 in the same 10 epochs.
Times are in docs/examples.md.
"""
import argparse
import os

import numpy as np
from sklearn.datasets import load_digits

from example_utils import EpochTimer, report_speed
import sprout as ms                     # import mindspore as ms
import sprout.dataset as ds             # import mindspore.dataset as ds
from sprout import nn                   # from mindspore import nn
from sprout.train import (Accuracy, CheckpointConfig, LossMonitor, Model,  # from mindspore.train import
                          ModelCheckpoint, TimeMonitor, load_checkpoint, load_param_into_net)


class LeNet5(nn.Cell):
    """LeNet-5's layout: conv - relu - pool - conv - relu - pool - dense 120 - dense 84 - dense num_class.

    ``image_size=32`` is the textbook network (5x5 "valid" convolutions, 16*5*5 features);
    ``image_size=8`` shrinks the kernels to 3x3 "same" so two 2x2 poolings leave 16*2*2 features.
    """

    def __init__(self, num_class=10, num_channel=1, image_size=8):
        super().__init__()
        if image_size == 32:
            kernel, pad_mode, side = 5, "valid", 5
        elif image_size == 8:
            kernel, pad_mode, side = 3, "same", 2
        else:
            raise ValueError(f"image_size must be 8 or 32, got {image_size}")
        self.conv1 = nn.Conv2d(num_channel, 6, kernel, pad_mode=pad_mode)
        self.conv2 = nn.Conv2d(6, 16, kernel, pad_mode=pad_mode)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * side * side, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_class)

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def load_data(image_size=8, n_train=None, seed=0):
    """Digits as (N, 1, size, size) float32 in [0, 1] plus int32 labels; a fixed 80/20 split."""
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None]  # (N, 1, 8, 8), NCHW
    if image_size != 8:  # upsample by pixel repetition (nearest neighbour): 8x8 -> 32x32
        factor = image_size // 8
        images = images.repeat(factor, axis=2).repeat(factor, axis=3)
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(images))
    images, labels = images[order], labels[order]
    split = int(len(images) * 0.8)
    train = images[:split], labels[:split]
    test = images[split:], labels[split:]
    if n_train is not None:
        train = train[0][:n_train], train[1][:n_train]
    return train, test


def create_dataset(data, batch_size, training):
    dataset = ds.NumpySlicesDataset({"image": data[0], "label": data[1]}, shuffle=training)
    return dataset.batch(batch_size, drop_remainder=training)


def run(mode, args, train, test):
    name = "PYNATIVE_MODE" if mode == ms.PYNATIVE_MODE else "GRAPH_MODE"
    ms.set_context(mode=mode, device_target="CPU")
    ms.set_seed(1)
    print(f"==== {name} ====")
    train_ds = create_dataset(train, args.batch_size, training=True)
    test_ds = create_dataset(test, args.batch_size, training=False)
    steps = train_ds.get_dataset_size()

    net = LeNet5(image_size=args.image_size)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Adam(net.trainable_params(), learning_rate=args.lr)
    model = Model(net, loss, opt, metrics={"accuracy": Accuracy()})

    prefix = "lenet_" + name.split("_")[0].lower()
    ckpt_cfg = CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=2)
    ckpt = ModelCheckpoint(prefix=prefix, directory=args.ckpt_dir, config=ckpt_cfg)
    timer = EpochTimer()
    model.train(args.epochs, train_ds, callbacks=[LossMonitor(steps), TimeMonitor(), ckpt, timer])

    acc = model.eval(test_ds)["accuracy"]
    print(f"[{name}] test accuracy: {acc:.4f}")

    # reload the last checkpoint into a fresh network: it must score the same
    last = ckpt.latest_ckpt_file_name
    fresh = LeNet5(image_size=args.image_size)
    load_param_into_net(fresh, load_checkpoint(last))
    reloaded = Model(fresh, loss, metrics={"accuracy": Accuracy()}).eval(test_ds)["accuracy"]
    print(f"[{name}] accuracy from {os.path.basename(last)}: {reloaded:.4f}")
    return acc, timer.times


def main(argv=None):
    parser = argparse.ArgumentParser(description="LeNet-5 on sklearn digits, PyNative vs graph mode")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--image-size", type=int, default=8, choices=(8, 32),
                        help="8: LeNet with 3x3 kernels on the 8x8 digits; 32: textbook LeNet-5 on upsampled digits")
    parser.add_argument("--n-train", type=int, default=None, help="use only this many training images")
    parser.add_argument("--ckpt-dir", default="./ckpt_lenet_digits")
    parser.add_argument("--small", action="store_true", help="5 epochs on 512 training images (for CI)")
    args = parser.parse_args(argv)
    if args.small:
        args.epochs, args.n_train = 5, 512

    train, test = load_data(args.image_size, args.n_train)
    print(f"digits: {len(train[0])} training and {len(test[0])} test images of {args.image_size}x{args.image_size}")
    acc_eager, t_eager = run(ms.PYNATIVE_MODE, args, train, test)
    acc_graph, t_graph = run(ms.GRAPH_MODE, args, train, test)

    m_eager, m_graph = report_speed("PYNATIVE_MODE", t_eager, "GRAPH_MODE", t_graph, "graph mode", "PyNative")
    print(f"test accuracy: PYNATIVE_MODE {acc_eager:.4f}, GRAPH_MODE {acc_graph:.4f}")
    return {"acc_pynative": acc_eager, "acc_graph": acc_graph, "epoch_pynative": m_eager, "epoch_graph": m_graph}


if __name__ == "__main__":
    main()
