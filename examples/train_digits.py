"""Train an MLP on scikit-learn's bundled digits set, eagerly and with @jit, and compare speed.

Written exactly as a MindSpore user would write it; with real MindSpore installed, replace
``import sprout as ms`` by ``import mindspore as ms`` and it runs the same way.
"""
import argparse
import time

import numpy as np
from sklearn.datasets import load_digits

import sprout as ms
from sprout import nn, ops
import sprout.dataset as ds


class MLP(nn.Cell):
    def __init__(self, hidden=128):
        super().__init__()
        self.fc1 = nn.Dense(64, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, hidden)
        self.fc3 = nn.Dense(hidden, 10)

    def construct(self, x):
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def load(split_seed=0):
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(split_seed).permutation(len(x))
    x, y = x[order], y[order]
    n_train = int(len(x) * 0.8)
    return (x[:n_train], y[:n_train]), (x[n_train:], y[n_train:])


def run(use_jit: bool, epochs: int, batch_size: int, train, test):
    ms.set_seed(1)
    net = MLP()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=1e-2)

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    step = ms.jit(train_step) if use_jit else train_step
    dataset = ds.NumpySlicesDataset({"image": train[0], "label": train[1]}, shuffle=True)
    dataset = dataset.batch(batch_size, drop_remainder=True)
    label = "jit  " if use_jit else "eager"
    epoch_times = []
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = [step(x, y).asnumpy() for x, y in dataset.create_tuple_iterator()]
        epoch_times.append(time.perf_counter() - start)
        print(f"[{label}] epoch {epoch}: loss {np.mean(losses):.4f}  ({epoch_times[-1] * 1000:.1f} ms)")
    logits = net(ms.Tensor(test[0]))
    accuracy = float((ops.argmax(logits, 1).asnumpy() == test[1]).mean())
    print(f"[{label}] test accuracy: {accuracy:.4f}")
    return accuracy, epoch_times


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=32)
    args = parser.parse_args()
    train, test = load()
    print(f"digits: {len(train[0])} training and {len(test[0])} test images of 8x8 pixels, 10 classes")
    acc_eager, t_eager = run(False, args.epochs, args.batch_size, train, test)
    acc_jit, t_jit = run(True, args.epochs, args.batch_size, train, test)
    # the first jit epoch includes compilation; compare steady-state epochs by their median
    steady_eager = float(np.median(t_eager[1:] or t_eager))
    steady_jit = float(np.median(t_jit[1:] or t_jit))
    print(f"first epoch (jit includes compile): eager {t_eager[0] * 1000:.1f} ms, jit {t_jit[0] * 1000:.1f} ms")
    print(f"median epoch time: eager {steady_eager * 1000:.1f} ms, jit {steady_jit * 1000:.1f} ms "
          f"-> jit is {steady_eager / steady_jit:.2f}x eager")
    print(f"final accuracy: eager {acc_eager:.4f}, jit {acc_jit:.4f}")


if __name__ == "__main__":
    main()
