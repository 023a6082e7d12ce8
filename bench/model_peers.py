"""PyTorch and JAX versions of the real-model train steps M1-M3 (models.py): the same architectures, the
same seeded initial parameters (models.initial_values, matched by the MindSpore parameter name), the same
inputs, mean softmax cross-entropy and one plain SGD update, so their loss and updated parameters can be
checked against sprout eager's.

Every contestant runs a real training step: the MindSpore cells are in training mode (``set_train(True)``, as
Model.train sets it), so M1's BatchNorm normalises with the batch statistics (biased variance) and updates its
moving statistics, ``moving = 0.9 * moving + 0.1 * batch`` with the unbiased batch variance (MindSpore's
momentum 0.9 is PyTorch's 0.1); torch modules are in ``train()`` mode, the JAX model computes the batch
statistics and returns the updated moving ones as state. M2's Dropout has p=0 (identity in training too).
The state checked comes back in the MindSpore cell's order: ``trainable_params()``, then
``untrainable_params()`` (the moving statistics)."""
from __future__ import annotations

import functools
import math

import numpy as np

import models
import numpy_ref as ref
from common import Prepared

MODELS = ("M1", "M2", "M3")
BN_EPS = 1e-5   # nn.BatchNorm2d's default in MindSpore and PyTorch
BN_MOMENTUM = 0.9   # nn.BatchNorm2d's default in MindSpore (weight of the old moving value; PyTorch's 1 - 0.9)
LN_EPS = 1e-5   # nn.TransformerEncoderLayer's layer_norm_eps in both


@functools.cache
def _spec(w: str, size: str) -> tuple[tuple[tuple[str, tuple], ...], tuple[str, ...]]:
    import workloads
    net = workloads._BUILD(w)
    return (tuple((p.name, tuple(p.shape)) for p in net.trainable_params()),
            tuple(p.name for p in net.untrainable_params()))


def param_spec(w: str, size: str) -> tuple[tuple[str, tuple], ...]:
    """(MindSpore name, shape) of the model's trainable parameters, in order, read from sprout's cell."""
    return _spec(w, size)[0]


def moving_names(w: str) -> tuple[str, ...]:
    """MindSpore names of the model's BatchNorm moving statistics (its untrainable parameters), in order."""
    return _spec(w, models.size())[1]


def initial_params(w: str) -> dict[str, np.ndarray]:
    """{MindSpore parameter name: initial value}, insertion-ordered as trainable_params()."""
    spec = param_spec(w, models.size())
    return dict(zip((n for n, _ in spec), models.initial_values(w, list(spec))))


# ================================ PyTorch =========================================================
def _torch_name(w: str, name: str) -> str:
    """PyTorch's name of a MindSpore parameter of the torch modules below."""
    if name.endswith(".gamma"):
        return name[:-len("gamma")] + "weight"
    if name.endswith(".beta"):
        return name[:-len("beta")] + "bias"
    if name.endswith(".moving_mean"):
        return name[:-len("moving_mean")] + "running_mean"
    if name.endswith(".moving_variance"):
        return name[:-len("moving_variance")] + "running_var"
    if w == "M2":
        name = name.replace("embedding_table", "weight").replace(".dense1.", ".linear1.")
        return name.replace(".dense2.", ".linear2.")
    return name


def _torch_model(w: str):
    import torch
    nn = torch.nn
    c = models.config(w)

    def _bn(channels):
        return nn.BatchNorm2d(channels, eps=BN_EPS, momentum=1 - BN_MOMENTUM)

    class BasicBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
            self.bn1 = _bn(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
            self.bn2 = _bn(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False),
                                          _bn(cout))

        def forward(self, x):
            out = torch.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return torch.relu(out + (x if self.down is None else self.down(x)))

    class ResNet(nn.Module):
        def __init__(self, width, classes):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, width, 3, padding=1, bias=False),
                                      _bn(width), nn.ReLU())
            blocks, cin = [], width
            for stage in range(4):
                cout = width * 2 ** stage
                blocks += [BasicBlock(cin, cout, 1 if stage == 0 else 2), BasicBlock(cout, cout, 1)]
                cin = cout
            self.blocks = nn.Sequential(*blocks)
            self.fc = nn.Linear(cin, classes)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean(dim=(2, 3)))

    class Encoder(nn.Module):
        def __init__(self, vocab, d_model, nhead, ffn, layers, classes):
            super().__init__()
            self.embed = nn.Embedding(vocab, d_model)
            layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=ffn, dropout=0.0,
                                               layer_norm_eps=LN_EPS, batch_first=True)
            self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
            self.fc = nn.Linear(d_model, classes)

        def forward(self, tokens):
            return self.fc(self.encoder(self.embed(tokens)).mean(dim=1))

    class LSTMClassifier(nn.Module):
        def __init__(self, inputs, hidden, classes):
            super().__init__()
            self.lstm = nn.LSTM(inputs, hidden)
            self.fc = nn.Linear(hidden, classes)

        def forward(self, xs):
            out, _ = self.lstm(xs)
            return self.fc(out[-1])

    if w == "M1":
        return ResNet(c["width"], c["classes"])
    if w == "M2":
        return Encoder(c["vocab"], c["d_model"], c["nhead"], c["ffn"], c["layers"], c["classes"])
    return LSTMClassifier(c["inputs"], c["hidden"], c["classes"])


def torch_prepare(w: str, compiled: bool) -> Prepared:
    import torch
    from peers import torch_sgd_steps
    net = _torch_model(w).train()   # BatchNorm on batch statistics, updating the running ones
    by_name = dict(net.named_parameters())
    values = initial_params(w)
    ordered = [by_name.pop(_torch_name(w, name)) for name in values]
    if by_name:
        raise RuntimeError(f"{w}: torch parameters without a MindSpore counterpart: {sorted(by_name)}")
    with torch.no_grad():
        for p, (name, a) in zip(ordered, values.items()):
            if tuple(p.shape) != a.shape:
                raise RuntimeError(f"{w}: {name} has shape {a.shape} in MindSpore, {tuple(p.shape)} in torch")
            p.copy_(torch.from_numpy(a))
    buffers = dict(net.named_buffers())
    moving = [buffers[_torch_name(w, name)] for name in moving_names(w)]
    x, y = models.inputs(w)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y).long()
    if w == "M2":
        tx = tx.long()
    loss_of = lambda a, b: torch.nn.functional.cross_entropy(net(a), b)   # noqa: E731
    return torch_sgd_steps(ordered, torch.compile(loss_of) if compiled else loss_of, tx, ty,
                           buffers=moving)


# ================================ JAX ==============================================================
def _dense(p, name, x):
    return x @ p[name + ".weight"].T + p[name + ".bias"]


def _resnet_logits(p, x):
    """(logits, {BatchNorm name: (batch mean, unbiased batch variance)}) in training mode."""
    import jax.numpy as jnp
    from jax import lax
    stats = {}

    def conv(a, name, stride, pad):
        return lax.conv_general_dilated(a, p[name], (stride, stride), [(pad, pad), (pad, pad)],
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def bn(a, name):   # batch statistics over (N, H, W), biased variance for the normalisation
        mean = jnp.mean(a, axis=(0, 2, 3))
        centred = a - mean[:, None, None]
        var = jnp.mean(jnp.square(centred), axis=(0, 2, 3))
        count = a.size // a.shape[1]
        stats[name] = (mean, var * (count / max(count - 1, 1)))
        scale = p[name + ".gamma"] / jnp.sqrt(var + BN_EPS)
        return centred * scale[:, None, None] + p[name + ".beta"][:, None, None]

    a = jnp.maximum(bn(conv(x, "stem.0.weight", 1, 1), "stem.1"), 0)
    for k in range(8):   # 4 stages x 2 blocks; the first block of stages 2-4 halves the side
        b = f"blocks.{k}."
        stride = 2 if k >= 2 and k % 2 == 0 else 1
        out = jnp.maximum(bn(conv(a, b + "conv1.weight", stride, 1), b + "bn1"), 0)
        out = bn(conv(out, b + "conv2.weight", 1, 1), b + "bn2")
        skip = bn(conv(a, b + "down.0.weight", stride, 0), b + "down.1") if b + "down.0.weight" in p else a
        a = jnp.maximum(out + skip, 0)
    return _dense(p, "fc", jnp.mean(a, axis=(2, 3))), stats


def _layer_norm(p, name, x):
    import jax.numpy as jnp
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
    return (x - mu) / jnp.sqrt(var + LN_EPS) * p[name + ".gamma"] + p[name + ".beta"]


def _encoder_logits(p, tokens, nhead: int, layers: int):
    import jax
    import jax.numpy as jnp
    h = jnp.take(p["embed.embedding_table"], tokens, axis=0)
    bsz, steps, d = h.shape
    hd = d // nhead
    for k in range(layers):
        name = f"encoder.layers.{k}."
        qkv = h @ p[name + "self_attn.in_proj_weight"].T + p[name + "self_attn.in_proj_bias"]
        q, key, v = (t.reshape(bsz, steps, nhead, hd).transpose(0, 2, 1, 3) for t in jnp.split(qkv, 3, axis=-1))
        att = jax.nn.softmax(q @ key.transpose(0, 1, 3, 2) / math.sqrt(hd), axis=-1)
        ctx = (att @ v).transpose(0, 2, 1, 3).reshape(bsz, steps, d)
        h = _layer_norm(p, name + "norm1", h + _dense(p, name + "self_attn.out_proj", ctx))
        ff = _dense(p, name + "dense2", jnp.maximum(_dense(p, name + "dense1", h), 0))
        h = _layer_norm(p, name + "norm2", h + ff)
    return _dense(p, "fc", jnp.mean(h, axis=1))


def _lstm_logits(p, xs):
    import jax
    import jax.numpy as jnp
    w_ih, w_hh = p["lstm.weight_ih_l0"], p["lstm.weight_hh_l0"]
    bias = p["lstm.bias_ih_l0"] + p["lstm.bias_hh_l0"]
    hidden = w_hh.shape[1]
    h = c = jnp.zeros((xs.shape[1], hidden), xs.dtype)
    for t in range(xs.shape[0]):   # unrolled in Python, as W6's RNN
        i, f, g, o = jnp.split(xs[t] @ w_ih.T + h @ w_hh.T + bias, 4, axis=-1)   # MindSpore/PyTorch gate order
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
    return _dense(p, "fc", h)


def jax_prepare(w: str, jitted: bool) -> Prepared:
    import jax
    import jax.numpy as jnp
    from peers import _jax_sync, _xent
    c = models.config(w)
    forward = {"M1": _resnet_logits,
               "M2": lambda p, x: (_encoder_logits(p, x, c.get("nhead"), c.get("layers")), {}),
               "M3": lambda p, x: (_lstm_logits(p, x), {})}[w]

    def loss_and_stats(p, x, y):
        logits, stats = forward(p, x)
        return _xent(logits, y), stats

    grad_fn = jax.value_and_grad(loss_and_stats, has_aux=True)

    def train_step(params, moving, x, y):
        (loss, stats), grads = grad_fn(params, x, y)
        new_moving = {}
        for bn, (mean, var) in stats.items():
            for key, batch in ((bn + ".moving_mean", mean), (bn + ".moving_variance", var)):
                new_moving[key] = BN_MOMENTUM * moving[key] + (1 - BN_MOMENTUM) * batch
        return loss, {k: v - ref.LR * grads[k] for k, v in params.items()}, new_moving

    f = jax.jit(train_step) if jitted else train_step
    names, stat_names = list(initial_params(w)), moving_names(w)
    # moving statistics start at MindSpore's defaults: mean 0, variance 1
    channels = {name: initial_params(w)[name.rsplit(".", 1)[0] + ".gamma"].shape for name in stat_names}
    holder = [{k: jnp.asarray(v) for k, v in initial_params(w).items()},
              {k: (jnp.zeros if k.endswith(".moving_mean") else jnp.ones)(channels[k], jnp.float32)
               for k in stat_names}]
    jx, jy = (jnp.asarray(a) for a in models.inputs(w))

    def step():
        loss, holder[0], holder[1] = f(holder[0], holder[1], jx, jy)
        return loss, holder[0]

    def state():
        return [np.asarray(holder[0][k]) for k in names] + [np.asarray(holder[1][k]) for k in stat_names]

    return Prepared(step, to_numpy=lambda out: [np.asarray(out[0])], sync=_jax_sync, state=state)
