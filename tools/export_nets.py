"""The LeNet / MLP / ResNet-style nets used by the export fixtures, written once for MindSpore and sprout.

``build(ms, name)`` takes either framework's top-level module (``import mindspore`` or ``import sprout``) and
returns (net in eval mode, tuple of example inputs) with deterministic weights."""

import numpy as np

NAMES = ("lenet", "mlp", "resnet", "mixed")


def save_io(path, xs, ys):
    """Inputs x0.. and outputs y0.. of one network run (shared with sprout's side of the check)."""
    ys = ys if isinstance(ys, (tuple, list)) else (ys,)
    np.savez(
        path, **{f"x{i}": x.asnumpy() for i, x in enumerate(xs)}, **{f"y{i}": y.asnumpy() for i, y in enumerate(ys)}
    )


def load_io(path):
    io = np.load(path)
    xs = [io[f"x{i}"] for i in range(sum(k.startswith("x") for k in io.files))]
    ys = [io[f"y{i}"] for i in range(sum(k.startswith("y") for k in io.files))]
    return xs, ys


def build(ms, name: str):
    nn, ops = ms.nn, ms.ops

    class LeNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(2, 2)
            self.flat = nn.Flatten()
            self.fc1 = nn.Dense(400, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = self.flat(x)
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(20, 32)
            self.act = nn.Tanh()
            self.fc2 = nn.Dense(32, 16)
            self.sig = nn.Sigmoid()
            self.fc3 = nn.Dense(16, 4)
            self.sm = nn.Softmax()

        def construct(self, x):
            h = self.sig(self.fc2(self.act(self.fc1(x))))
            return self.sm(self.fc3(h) * 2.0 - 1.0)

    class Block(nn.Cell):
        def __init__(self, c):
            super().__init__()
            self.c1 = nn.Conv2d(c, c, 3, has_bias=False)
            self.b1 = nn.BatchNorm2d(c)
            self.c2 = nn.Conv2d(c, c, 3, has_bias=False)
            self.b2 = nn.BatchNorm2d(c)
            self.relu = nn.ReLU()

        def construct(self, x):
            y = self.relu(self.b1(self.c1(x)))
            y = self.b2(self.c2(y))
            return self.relu(x + y)

    class ResNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 8, 3, stride=2, pad_mode="pad", padding=1, has_bias=False)
            self.bn = nn.BatchNorm2d(8)
            self.relu = nn.ReLU()
            self.block1 = Block(8)
            self.block2 = Block(8)
            self.pool = nn.AvgPool2d(2, 2)
            self.flat = nn.Flatten()
            self.fc = nn.Dense(8 * 4 * 4, 5)

        def construct(self, x):
            x = self.relu(self.bn(self.stem(x)))
            x = self.block2(self.block1(x))
            return self.fc(self.flat(self.pool(x)))

    class Mixed(nn.Cell):
        """Many ops, two inputs (one of them integer indices), a tuple output."""

        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones((4, 6), np.float32)), name="w")
            self.ln = nn.LayerNorm((6,))
            self.emb = nn.Embedding(10, 6)

        def construct(self, x, idx):
            b = ops.cast(ops.cast(x, ms.float16), ms.float32)
            d = ops.transpose(ops.reshape(b, (3, 4)), (1, 0))
            e = ops.mean(d, 1, keep_dims=True)
            f = ops.squeeze(ops.expand_dims(ops.concat((d, e), axis=1), 0), 0)
            k = ops.sum(f, (0,)) + ops.amax(f, 1)
            m = ops.matmul(f[:, 0:3], self.w[1:, :])
            n = self.ln(m) + self.emb(idx)
            o = ops.exp(n) / ops.sqrt(ops.abs(n) + 1) - ops.log(ops.abs(n) + 1) * 0.5
            p = ops.maximum(o, 0.1) ** 2
            q = ops.relu(p) + ops.neg(p) * ops.sigmoid(p) + ops.erf(p) - ops.tanh(p)
            r = ops.select(q > 0.5, q, ops.zeros_like(q))
            return (
                r,
                k,
                ops.log_softmax(q, -1),
                ops.gather(q, ms.Tensor(np.array([0, 2], np.int32)), 1),
                ops.tile(k, (2,)),
                q[1:, :2].sum(),
                q[-1],
            )

    if name == "mixed":
        net = Mixed()
        rng = np.random.default_rng(11)
        for _, param in sorted(net.parameters_and_names(), key=lambda kv: kv[0]):
            param.set_data(ms.Tensor((rng.standard_normal(param.shape) * 0.5).astype(np.float32)))
        net.set_train(False)
        x = ms.Tensor(np.random.default_rng(5).standard_normal((12,)).astype(np.float32))
        return net, (x, ms.Tensor(np.array([1, 2, 3, 4], np.int32)))
    net, shape = {"lenet": (LeNet, (2, 1, 32, 32)), "mlp": (MLP, (3, 20)), "resnet": (ResNet, (2, 3, 16, 16))}[name]
    net = net()
    rng = np.random.default_rng(11)
    for p in sorted(net.parameters_and_names(), key=lambda kv: kv[0]):
        param = p[1]
        if "moving_variance" in p[0]:
            value = rng.uniform(0.5, 1.5, param.shape)
        else:
            value = rng.standard_normal(param.shape) * (0.1 if param.ndim > 1 else 0.5)
        param.set_data(ms.Tensor(value.astype(np.float32)))
    net.set_train(False)
    x = ms.Tensor(np.random.default_rng(5).standard_normal(shape).astype(np.float32))
    return net, (x,)
