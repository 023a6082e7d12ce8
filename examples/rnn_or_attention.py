"""A GRU written from ops reads each digit row by row (8 steps of 8 pixels) and classifies it; @jit train step.

Written exactly as a MindSpore 2.x user writes it: replace ``import sprout as ms`` (and the other
``sprout`` imports) by ``mindspore`` and it runs unchanged.

The task is scikit-learn's bundled digits seen as sequences: image row t (8 pixels) is the input at
time step t, and the class is predicted from the last hidden state, so the network has to carry
what it saw in the upper rows through its recurrent state. The GRU cell is written with
``ops.matmul``/``ops.sigmoid``/``ops.tanh`` on its own Parameters; the eight steps are a
fixed-count Python loop in ``construct``, which graph compilation unrolls into one graph.

The training loop is MindSpore's functional style: ``value_and_grad`` over the loss, the optimizer
applied inside ``train_step``, and ``ms.jit(train_step)`` (the same as decorating it with
``@ms.jit``) compiles the whole step - forward, backward through all eight steps, and the Adam
update - into one static graph. It is trained once eagerly and once jitted, from the same seed.

Measured (python examples/rnn_or_attention.py: 15 epochs, 1437 train / 360 test digits, batch 32,
Adam lr 0.01, 64 hidden units): test accuracy 0.989 eager and jitted (identical losses).
``--small`` (4 epochs on 512 training digits) reaches 0.814. Times are in docs/examples.md.
"""
import argparse
import time

import numpy as np
from sklearn.datasets import load_digits

from example_utils import report_speed
import sprout as ms                     # import mindspore as ms
import sprout.dataset as ds             # import mindspore.dataset as ds
from sprout import nn, ops              # from mindspore import nn, ops
from sprout.common.initializer import Uniform, initializer  # from mindspore.common.initializer import ...


class GRU(nn.Cell):
    """One-layer GRU over a (batch, time, features) sequence; returns the last hidden state.

    r = sigmoid(x Wr + h Ur + br), z = sigmoid(x Wz + h Uz + bz),
    n = tanh(x Wn + bn + r * (h Un + cn)), h' = (1 - z) * n + z * h.
    """

    def __init__(self, input_size, hidden_size, seq_len):
        super().__init__()
        self.hidden_size = hidden_size
        self.seq_len = seq_len
        bound = Uniform(1.0 / hidden_size ** 0.5)
        gates = 3 * hidden_size  # [reset | update | new] side by side
        self.w_in = ms.Parameter(initializer(bound, (input_size, gates), ms.float32), name="w_in")
        self.w_hid = ms.Parameter(initializer(bound, (hidden_size, gates), ms.float32), name="w_hid")
        self.b_in = ms.Parameter(initializer(bound, (gates,), ms.float32), name="b_in")
        self.b_hid = ms.Parameter(initializer(bound, (gates,), ms.float32), name="b_hid")

    def construct(self, x):
        hs = self.hidden_size
        # the input projections of all time steps in one matmul: (batch, time, 3 * hidden)
        x_gates = ops.matmul(x, self.w_in) + self.b_in
        h = ops.zeros((x.shape[0], hs), ms.float32)
        for t in range(self.seq_len):
            gx = x_gates[:, t, :]
            gh = ops.matmul(h, self.w_hid) + self.b_hid
            r = ops.sigmoid(gx[:, :hs] + gh[:, :hs])
            z = ops.sigmoid(gx[:, hs:2 * hs] + gh[:, hs:2 * hs])
            n = ops.tanh(gx[:, 2 * hs:] + r * gh[:, 2 * hs:])
            h = (1 - z) * n + z * h
        return h


class RowReader(nn.Cell):
    """GRU over the image rows, then a dense layer from the last hidden state to the classes."""

    def __init__(self, rows=8, cols=8, hidden=64, num_class=10):
        super().__init__()
        self.gru = GRU(cols, hidden, rows)
        self.head = nn.Dense(hidden, num_class)

    def construct(self, x):
        return self.head(self.gru(x))


def load_data(n_train=None, seed=0):
    """Digits as (N, 8 rows, 8 pixels) float32 sequences in [0, 1] plus int32 labels; a fixed 80/20 split."""
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(x))
    x, y = x[order], y[order]
    split = int(len(x) * 0.8)
    train, test = (x[:split], y[:split]), (x[split:], y[split:])
    if n_train is not None:
        train = train[0][:n_train], train[1][:n_train]
    return train, test


def run(use_jit, args, train, test):
    name = "jit" if use_jit else "eager"
    ms.set_seed(1)
    print(f"==== {name} ====")
    net = RowReader(hidden=args.hidden)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=args.lr)

    def forward_fn(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    def predict(x):
        return ops.argmax(net(x), 1)

    if use_jit:
        train_step = ms.jit(train_step)
        predict = ms.jit(predict)

    dataset = ds.NumpySlicesDataset({"rows": train[0], "label": train[1]}, shuffle=True)
    dataset = dataset.batch(args.batch_size, drop_remainder=True)
    net.set_train()
    times = []
    for epoch in range(1, args.epochs + 1):
        start = time.perf_counter(), time.process_time()
        losses = [float(train_step(x, y).asnumpy()) for x, y in dataset.create_tuple_iterator()]
        times.append((time.perf_counter() - start[0], time.process_time() - start[1]))
        print(f"[{name}] epoch {epoch}: mean loss {np.mean(losses):.4f}  ({times[-1][0] * 1e3:.1f} ms)")
    net.set_train(False)
    pred = predict(ms.Tensor(test[0])).asnumpy()
    acc = float((pred == test[1]).mean())
    print(f"[{name}] test accuracy: {acc:.4f}")
    return acc, times


def main(argv=None):
    parser = argparse.ArgumentParser(description="GRU over digit rows, eager vs @jit train step")
    parser.add_argument("--epochs", type=int, default=15)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--n-train", type=int, default=None, help="use only this many training digits")
    parser.add_argument("--small", action="store_true", help="4 epochs on 512 training digits (for CI)")
    args = parser.parse_args(argv)
    if args.small:
        args.epochs, args.n_train = 4, 512

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    train, test = load_data(args.n_train)
    print(f"digits as sequences: {len(train[0])} training and {len(test[0])} test digits, 8 steps of 8 pixels")
    acc_eager, t_eager = run(False, args, train, test)
    acc_jit, t_jit = run(True, args, train, test)

    m_eager, m_jit = report_speed("eager", t_eager, "jit", t_jit, "jit", "eager")
    print(f"test accuracy: eager {acc_eager:.4f}, jit {acc_jit:.4f}")
    return {"acc_eager": acc_eager, "acc_jit": acc_jit, "epoch_eager": m_eager, "epoch_jit": m_jit}


if __name__ == "__main__":
    main()
