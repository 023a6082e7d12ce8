"""An MLP on scikit-learn's bundled digits with Model.fit, History, EarlyStopping and a learning-rate schedule.

Written exactly as a MindSpore 2.x user writes it: replace ``import sprout as ms`` (and the other
``sprout`` imports) by ``mindspore`` and it runs unchanged.

``Model.fit`` trains and evaluates on the validation set after every epoch. The callbacks:
``LossMonitor`` prints the loss (and the validation metrics), ``History`` records the metrics per
epoch, ``EarlyStopping`` stops when validation accuracy has not improved for ``--patience`` epochs
and restores the best weights, and ``LearningRateScheduler`` decays the learning rate by 0.7 after
every epoch (a step schedule written as a function of the step number). The whole run happens
twice from the same seed, in PYNATIVE_MODE (eager) and in GRAPH_MODE (Model compiles the train and
eval steps with jit), and the epoch times of both are printed.

Measured (python examples/mlp_model.py: at most 20 epochs, 1437 train / 360 test images, batch
32, Momentum lr 0.1): EarlyStopping ends the run after epoch 7 and restores epoch 4's weights,
test accuracy 0.983 in both modes (identical numbers). ``--small`` (6 epochs on 512 training
images) reaches 0.936. Times are in docs/examples.md.
"""
import argparse

import numpy as np
from sklearn.datasets import load_digits

from example_utils import EpochTimer, report_speed
import sprout as ms                     # import mindspore as ms
import sprout.dataset as ds             # import mindspore.dataset as ds
from sprout import nn                   # from mindspore import nn
from sprout.train import (Accuracy, EarlyStopping, History, LearningRateScheduler,  # from mindspore.train
                          Loss, LossMonitor, Model)


class MLP(nn.Cell):
    def __init__(self, in_features=64, hidden=128, num_class=10):
        super().__init__()
        self.fc1 = nn.Dense(in_features, hidden)
        self.fc2 = nn.Dense(hidden, hidden)
        self.fc3 = nn.Dense(hidden, num_class)
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def load_data(n_train=None, seed=0):
    """Digits as (N, 64) float32 in [0, 1] plus int32 labels; a fixed 80/20 split."""
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(x))
    x, y = x[order], y[order]
    split = int(len(x) * 0.8)
    train, test = (x[:split], y[:split]), (x[split:], y[split:])
    if n_train is not None:
        train = train[0][:n_train], train[1][:n_train]
    return train, test


def create_dataset(data, batch_size, training):
    dataset = ds.NumpySlicesDataset({"x": data[0], "label": data[1]}, shuffle=training)
    return dataset.batch(batch_size, drop_remainder=training)


def run(mode, args, train, test):
    name = "PYNATIVE_MODE" if mode == ms.PYNATIVE_MODE else "GRAPH_MODE"
    ms.set_context(mode=mode, device_target="CPU")
    ms.set_seed(1)
    print(f"==== {name} ====")
    train_ds = create_dataset(train, args.batch_size, training=True)
    test_ds = create_dataset(test, args.batch_size, training=False)
    steps = train_ds.get_dataset_size()

    net = MLP()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    model = Model(net, loss, opt, metrics={"accuracy": Accuracy(), "loss": Loss()})

    def step_decay(lr, cur_step_num):
        # called after every step; multiply by 0.7 at each epoch boundary
        if cur_step_num % steps == 0:
            lr = lr * 0.7
        return lr

    history = History()
    stopper = EarlyStopping(monitor="accuracy", patience=args.patience, restore_best_weights=True)
    timer = EpochTimer()
    callbacks = [LossMonitor(steps), history, stopper, LearningRateScheduler(step_decay), timer]
    model.fit(args.epochs, train_ds, test_ds, callbacks=callbacks)

    accs = history.history["accuracy"]
    print(f"[{name}] ran {len(accs)} epochs; validation accuracy per epoch: "
          + " ".join(f"{a:.3f}" for a in accs))
    print(f"[{name}] final learning rate: {float(opt.learning_rate.asnumpy()):.6f}")
    result = model.eval(test_ds)
    print(f"[{name}] test accuracy: {result['accuracy']:.4f}, test loss: {result['loss']:.4f}")
    logits = model.predict(ms.Tensor(test[0][:8]))
    print(f"[{name}] predict on 8 test images: {logits.argmax(1).asnumpy().tolist()} "
          f"(labels {test[1][:8].tolist()})")
    return result["accuracy"], timer.times


def main(argv=None):
    parser = argparse.ArgumentParser(description="MLP on sklearn digits with Model.fit, PyNative vs graph mode")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--patience", type=int, default=3)
    parser.add_argument("--n-train", type=int, default=None, help="use only this many training images")
    parser.add_argument("--small", action="store_true", help="6 epochs on 512 training images (for CI)")
    args = parser.parse_args(argv)
    if args.small:
        args.epochs, args.n_train = 6, 512

    train, test = load_data(args.n_train)
    print(f"digits: {len(train[0])} training and {len(test[0])} test vectors of 64 pixels")
    acc_eager, t_eager = run(ms.PYNATIVE_MODE, args, train, test)
    acc_graph, t_graph = run(ms.GRAPH_MODE, args, train, test)

    m_eager, m_graph = report_speed("PYNATIVE_MODE", t_eager, "GRAPH_MODE", t_graph, "graph mode", "PyNative")
    print(f"test accuracy: PYNATIVE_MODE {acc_eager:.4f}, GRAPH_MODE {acc_graph:.4f}")
    return {"acc_pynative": acc_eager, "acc_graph": acc_graph, "epoch_pynative": m_eager, "epoch_graph": m_graph}


if __name__ == "__main__":
    main()
