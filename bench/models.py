"""Real-model workloads written against the MindSpore API (run under sprout or MindSpore, as
workloads.py chooses): M1 a ResNet-18-style CIFAR train step, M2 a Transformer-encoder classifier
train step, M3 an LSTM classifier train step; their inputs, seeded initial parameters and the
matmul/convolution FLOPs of one step (for the physical-limit floor).

Sizes: ``full`` (what the suite times) or ``tiny`` (the default test suite's smoke run), chosen by
the environment variable BENCH_MODEL_SIZE."""
from __future__ import annotations

import os

import numpy as np

SIZES = {
    # ResNet-18 layout (stem conv, 4 stages x 2 basic blocks, stride 2 from stage 2), width/4, CIFAR 32x32
    "full": {"M1": dict(batch=16, image=32, width=16, classes=10),
             "M2": dict(batch=16, seq=32, vocab=1000, d_model=128, nhead=4, ffn=256, layers=2, classes=10),
             "M3": dict(batch=16, seq=32, inputs=64, hidden=128, classes=10)},
    # tiny M1: BatchNorm's batch statistics in training mode need several values per channel in the last stage
    # (here 4 x 2 x 2); with 2 the step is so ill-conditioned that float32 frameworks differ from each other by ~1%
    "tiny": {"M1": dict(batch=4, image=16, width=4, classes=3),
             "M2": dict(batch=2, seq=4, vocab=11, d_model=8, nhead=2, ffn=8, layers=1, classes=3),
             "M3": dict(batch=2, seq=3, inputs=4, hidden=5, classes=3)},
}
SEED = 20251125


def size() -> str:
    name = os.environ.get("BENCH_MODEL_SIZE", "full")
    if name not in SIZES:
        raise ValueError(f"BENCH_MODEL_SIZE must be one of {sorted(SIZES)}, got {name!r}")
    return name


def config(w: str) -> dict:
    return SIZES[size()][w]


def describe(w: str) -> str:
    """One line naming the workload and its sizes (as the suite's table shows it)."""
    c = config(w)
    if w == "M1":
        return f"M1 ResNet-18-style CIFAR train step ({c['image']}x{c['image']}, width {c['width']}, BN, b{c['batch']})"
    if w == "M2":
        return (f"M2 Transformer encoder classifier train step ({c['layers']} x d{c['d_model']} h{c['nhead']} "
                f"ffn{c['ffn']}, T{c['seq']}, b{c['batch']})")
    return f"M3 LSTM classifier train step (T{c['seq']}, b{c['batch']}, {c['inputs']}->{c['hidden']})"


def inputs(w: str):
    """(data, int32 labels) of workload ``w`` at the current size."""
    c = config(w)
    rng = np.random.default_rng([SEED, int(w[1:])])
    if w == "M1":
        x = rng.standard_normal((c["batch"], 3, c["image"], c["image"]), dtype=np.float32)
    elif w == "M2":
        x = rng.integers(0, c["vocab"], (c["batch"], c["seq"])).astype(np.int32)
    else:
        x = rng.standard_normal((c["seq"], c["batch"], c["inputs"]), dtype=np.float32)
    return x, rng.integers(0, c["classes"], c["batch"]).astype(np.int32)


def initial_values(w: str, shapes: list[tuple[str, tuple]]) -> list[np.ndarray]:
    """Seeded initial values for parameters (name, shape) in order, the same in every framework:
    norm scales (gamma) 1, other vectors U(-0.1, 0.1), matrices/filters U(+-1/sqrt(fan_in))."""
    rng = np.random.default_rng([SEED, 100 + int(w[1:])])
    out = []
    for name, shape in shapes:
        if len(shape) == 1:
            a = np.ones(shape, np.float32) if "gamma" in name else \
                (rng.random(shape, dtype=np.float32) * 0.2 - 0.1).astype(np.float32)
        else:
            bound = 1.0 / np.sqrt(int(np.prod(shape[1:])))
            a = ((rng.random(shape, dtype=np.float32) * 2 - 1) * bound).astype(np.float32)
        out.append(a)
    return out


def define(ms, nn, ops):
    """The model cells for framework ``ms``: {workload: zero-argument constructor}."""

    class BasicBlock(nn.Cell):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, pad_mode="pad", padding=1, has_bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, pad_mode="pad", padding=1, has_bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.SequentialCell([nn.Conv2d(cin, cout, 1, stride=stride, has_bias=False),
                                               nn.BatchNorm2d(cout)])

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            skip = x if self.down is None else self.down(x)
            return self.relu(out + skip)

    class ResNet18(nn.Cell):
        def __init__(self, width, classes):
            super().__init__()
            self.stem = nn.SequentialCell([nn.Conv2d(3, width, 3, pad_mode="pad", padding=1, has_bias=False),
                                           nn.BatchNorm2d(width), nn.ReLU()])
            blocks, cin = [], width
            for stage in range(4):
                cout = width * 2 ** stage
                blocks += [BasicBlock(cin, cout, 1 if stage == 0 else 2), BasicBlock(cout, cout, 1)]
                cin = cout
            self.blocks = nn.SequentialCell(blocks)
            self.fc = nn.Dense(cin, classes)

        def construct(self, x):
            x = self.blocks(self.stem(x))
            return self.fc(ops.mean(x, (2, 3)))

    class EncoderClassifier(nn.Cell):
        def __init__(self, vocab, d_model, nhead, ffn, layers, classes):
            super().__init__()
            self.embed = nn.Embedding(vocab, d_model)
            layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=ffn, dropout=0.0, batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, layers)
            self.fc = nn.Dense(d_model, classes)

        def construct(self, tokens):
            h = self.encoder(self.embed(tokens))
            return self.fc(ops.mean(h, 1))

    class LSTMClassifier(nn.Cell):
        def __init__(self, inputs, hidden, classes):
            super().__init__()
            self.lstm = nn.LSTM(inputs, hidden)
            self.fc = nn.Dense(hidden, classes)

        def construct(self, xs):
            out, _ = self.lstm(xs)
            return self.fc(out[-1])

    def build(w):
        c = dict(config(w))
        c.pop("batch")
        if w == "M1":
            return ResNet18(c["width"], c["classes"])
        if w == "M2":
            c.pop("seq")
            return EncoderClassifier(**c)
        c.pop("seq")
        return LSTMClassifier(**c)

    return build


def flops(w: str) -> int:
    """Matmul/convolution FLOPs of one train step of ``w`` (forward, input gradient except of the first
    layer, weight gradient; elementwise work, norms and softmax not counted)."""
    c = config(w)
    b = c["batch"]
    if w == "M1":
        s, width = c["image"], c["width"]
        layers = [(3, width, 3, s, False)]           # (cin, cout, k, output side, has input gradient)
        cin = width
        for stage in range(4):
            cout, side = width * 2 ** stage, s // 2 ** stage
            for blk in range(2):
                stride_in = cin if blk == 0 else cout
                layers += [(stride_in, cout, 3, side, True), (cout, cout, 3, side, True)]
                if blk == 0 and (stage > 0):
                    layers.append((cin, cout, 1, side, True))
            cin = cout
        total = 0
        for ci, co, k, side, dx in layers:
            f = 2 * b * side * side * ci * co * k * k
            total += f * (3 if dx else 2)
        return total + 3 * 2 * b * cin * c["classes"]
    if w == "M2":
        t, d, f = c["seq"], c["d_model"], c["ffn"]
        per_layer = 2 * b * t * (4 * d * d + 2 * d * f) + 2 * 2 * b * t * t * d   # projections + attention
        return 3 * c["layers"] * per_layer + 3 * 2 * b * d * c["classes"]
    t, i, h = c["seq"], c["inputs"], c["hidden"]
    fwd = 2 * t * b * 4 * h * (i + h)
    return 3 * fwd - 2 * t * b * 4 * h * i + 3 * 2 * b * h * c["classes"]
