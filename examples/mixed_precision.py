"""Mixed-precision training (amp_level O2) with dynamic loss scaling that survives an injected overflow.

Written exactly as a MindSpore 2.x user writes it: replace ``import sprout as ms`` (and the other ``sprout``
imports) by ``mindspore`` and it runs unchanged (MindSpore's CPU backend itself refuses dynamic loss scaling).

LeNet-5 (examples/lenet_digits.py) on scikit-learn's digits, trained by ``Model`` twice from the same seed in
GRAPH_MODE: in float32 (O0) and in float16 (O2: every layer computes in float16, BatchNorm would stay float32,
the loss is float32) with a ``DynamicLossScaleManager``. One training batch is poisoned (multiplied by 1e5,
beyond float16's 65504): its forward pass overflows, the train step sees non-finite gradients, skips the
optimizer update (the weights stay bit-identical) and halves the loss scale; after ``scale_window`` clean steps
the scale doubles again. A ``SummaryCollector`` writes the loss curve for TensorBoard
(``tensorboard --logdir summary_amp``).

Measured (python examples/mixed_precision.py: 10 epochs of 45 steps, batch 32): test accuracy O0 0.978, O2 0.981.
Besides the injected overflow at step 5, the scale keeps doubling until, from 65536 on, the scaled gradients
overflow float16 by themselves (13 more skipped steps); it then settles between 32768 and 65536 - dynamic
loss scaling at work. ``--small`` (5 epochs on 512 images): O0 0.839, O2 0.886, only the injected overflow.
"""
import argparse
import os

import numpy as np

import sprout as ms                                          # import mindspore as ms
from sprout import nn                                        # from mindspore import nn
from sprout.train import (Accuracy, Callback, DynamicLossScaleManager, Model,  # from mindspore.train import
                          SummaryCollector)
from lenet_digits import LeNet5, create_dataset, load_data   # the network and data of examples/lenet_digits.py


class PoisonOneBatch:
    """A batch-level map: multiplies the images of training batch number ``at`` (counted from 1) by 1e5."""

    def __init__(self, at: int):
        self.at, self.seen = at, 0

    def __call__(self, images):
        self.seen += 1
        return images * np.float32(1e5) if self.seen == self.at else images


class LossScaleWatcher(Callback):
    """Reports what the loss-scaled train step did: overflow, skipped update, scale changes."""

    def __init__(self, watched):
        super().__init__()
        self.watched, self.events = watched, []

    def on_train_step_begin(self, run_context):
        self.before = self.watched.asnumpy().copy()

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        loss, overflow, scale = cb.net_outputs  # TrainOneStepWithLossScaleCell's outputs
        loss, overflow, scale = float(loss.asnumpy()), bool(overflow.asnumpy()), float(scale.asnumpy())
        unchanged = np.array_equal(self.before, self.watched.asnumpy())
        new_scale = float(cb.train_network.scale_sense.asnumpy())
        if overflow or new_scale != scale:
            what = "overflow, update skipped" if overflow else "no overflow"
            weights = "unchanged" if unchanged else "updated"
            print(f"  step {cb.cur_step_num}: loss {loss:.4f}, {what}, weights {weights}, "
                  f"loss scale {scale:g} -> {new_scale:g}")
        self.events.append((cb.cur_step_num, overflow, unchanged, scale, new_scale))


def run(level, args, train, test):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    print(f"==== amp_level {level} ====")
    train_ds = create_dataset(train, args.batch_size, training=True)
    test_ds = create_dataset(test, args.batch_size, training=False)
    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Adam(net.trainable_params(), learning_rate=args.lr)
    callbacks = []
    if level == "O0":
        model = Model(net, loss, opt, metrics={"accuracy": Accuracy()})
    else:
        train_ds = train_ds.map(PoisonOneBatch(args.poison_step), input_columns="image")
        manager = DynamicLossScaleManager(init_loss_scale=2 ** 12, scale_factor=2, scale_window=args.scale_window)
        model = Model(net, loss, opt, metrics={"accuracy": Accuracy()}, amp_level=level,
                      loss_scale_manager=manager)
        callbacks = [LossScaleWatcher(net.fc3.weight),
                     SummaryCollector(os.path.join(args.workdir, "summary_amp"), collect_freq=1)]
    model.train(args.epochs, train_ds, callbacks=callbacks)
    acc = model.eval(test_ds)["accuracy"]
    print(f"[{level}] test accuracy: {acc:.4f}")
    return acc, callbacks


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--poison-step", type=int, default=5, help="the training batch that overflows float16")
    parser.add_argument("--scale-window", type=int, default=20, help="clean steps before the scale grows")
    parser.add_argument("--workdir", default=".", help="where the summary directory goes")
    parser.add_argument("--small", action="store_true", help="5 epochs on 512 training images (for the tests)")
    args = parser.parse_args(argv)
    n_train = 512 if args.small else None
    if args.small:
        args.epochs = 5
    train, test = load_data(8, n_train)
    acc_o0, _ = run("O0", args, train, test)
    acc_o2, (watcher, collector) = run("O2", args, train, test)
    poisoned = [e for e in watcher.events if e[1]]
    print(f"overflow steps: {[e[0] for e in poisoned]}; updates skipped at all of them: "
          f"{all(e[2] for e in poisoned)}; final loss scale {watcher.events[-1][4]:g}")
    print(f"loss curve for TensorBoard in {os.path.join(args.workdir, 'summary_amp')}")
    print(f"test accuracy: O0 {acc_o0:.4f}, O2 {acc_o2:.4f}")


if __name__ == "__main__":
    main()
