"""Regenerate tests/nn/fixtures/mindspore_layers.json with real MindSpore.

Run with the oracle venv: /work/msvenv/bin/python tools/nn_oracle_layers.py
"""

import json

import numpy as np
from mindspore import nn, Tensor, ops

R = {}


def put(k, v):
    R[k] = np.round(np.asarray(v, np.float64), 6).tolist()


x2 = (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5) / 2
W = np.array([[0.1, -0.2, 0.3], [0.5, 0.4, -0.6]], np.float32)
b = np.array([0.05, -0.1], np.float32)
d = nn.Dense(3, 2, weight_init=Tensor(W), bias_init=Tensor(b), activation="relu")
put("dense_relu", d(Tensor(x2)).asnumpy())
d2 = nn.Dense(3, 2, weight_init=Tensor(W), bias_init=Tensor(b))
put("dense_3d", d2(Tensor(np.stack([x2, x2 * 2]))).asnumpy())
img = (np.sin(np.arange(2 * 2 * 5 * 5, dtype=np.float32)) * 2).reshape(2, 2, 5, 5)
cw = (np.cos(np.arange(3 * 2 * 3 * 3, dtype=np.float32)) / 3).reshape(3, 2, 3, 3)
cb = np.array([0.1, -0.2, 0.3], np.float32)
put("conv_same", nn.Conv2d(2, 3, 3, weight_init=Tensor(cw))(Tensor(img)).asnumpy())
put(
    "conv_valid_s2_bias",
    nn.Conv2d(2, 3, 3, stride=2, pad_mode="valid", has_bias=True, weight_init=Tensor(cw), bias_init=Tensor(cb))(
        Tensor(img)
    ).asnumpy(),
)
put(
    "conv_pad1_dil2",
    nn.Conv2d(2, 3, 3, pad_mode="pad", padding=1, dilation=2, weight_init=Tensor(cw))(Tensor(img)).asnumpy(),
)
put("conv_same_s2", nn.Conv2d(2, 3, 3, stride=2, weight_init=Tensor(cw))(Tensor(img)).asnumpy())
gw = (np.cos(np.arange(4 * 1 * 3 * 3, dtype=np.float32)) / 3).reshape(4, 1, 3, 3)
put("conv_group", nn.Conv2d(2, 4, 3, group=2, pad_mode="valid", weight_init=Tensor(gw))(Tensor(img)).asnumpy())
put(
    "conv_pad4", nn.Conv2d(2, 3, 3, pad_mode="pad", padding=(1, 0, 2, 1), weight_init=Tensor(cw))(Tensor(img)).asnumpy()
)
put("maxpool_2_2", nn.MaxPool2d(2, 2)(Tensor(img)).asnumpy())
put("maxpool_3_2_same", nn.MaxPool2d(3, 2, pad_mode="same")(Tensor(img)).asnumpy())
put("maxpool_3_1_pad1", nn.MaxPool2d(3, 1, pad_mode="pad", padding=1)(Tensor(img)).asnumpy())
put("avgpool_2_2", nn.AvgPool2d(2, 2)(Tensor(img)).asnumpy())
put("avgpool_3_2_same", nn.AvgPool2d(3, 2, pad_mode="same")(Tensor(img)).asnumpy())
put("avgpool_3_2_pad1", nn.AvgPool2d(3, 2, pad_mode="pad", padding=1)(Tensor(img)).asnumpy())
put(
    "avgpool_3_2_pad1_nocnt",
    nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, count_include_pad=False)(Tensor(img)).asnumpy(),
)
a = Tensor(x2 * 3)
for name, cell in [
    ("softmax", nn.Softmax()),
    ("logsoftmax", nn.LogSoftmax()),
    ("softmax0", nn.Softmax(0)),
    ("gelu", nn.GELU()),
    ("gelu_exact", nn.GELU(approximate=False)),
    ("leaky", nn.LeakyReLU()),
    ("silu", nn.SiLU()),
    ("elu", nn.ELU()),
    ("hswish", nn.HSwish()),
    ("mish", nn.Mish()),
    ("relu6", nn.ReLU6()),
    ("sigmoid", nn.Sigmoid()),
    ("tanh", nn.Tanh()),
    ("hsigmoid", nn.HSigmoid()),
    ("logsigmoid", nn.LogSigmoid()),
    ("softsign", nn.Softsign()),
]:
    put("act_" + name, cell(a).asnumpy())
put("act_softplus", ops.softplus(a).asnumpy())
emb = nn.Embedding(5, 3, embedding_table=Tensor(np.arange(15, dtype=np.float32).reshape(5, 3)))
put("embedding", emb(Tensor(np.array([[0, 4], [2, 2]], np.int32))).asnumpy())
gn = nn.GroupNorm(2, 4)
put("groupnorm", gn(Tensor(np.concatenate([img, img[:, ::-1] * 0.5], 1))).asnumpy())
logits = np.array([[1.0, 2.0, 0.5, -1.0], [0.3, -0.2, 2.5, 1.0], [0.0, 0.0, 0.0, 3.0]], np.float32)
labels = np.array([1, 2, 3], np.int32)
put(
    "sce_sparse_mean",
    nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(Tensor(logits), Tensor(labels)).asnumpy(),
)
oh = np.eye(4, dtype=np.float32)[[0, 2, 1]] * 0.8 + 0.05
put("sce_dense_none", nn.SoftmaxCrossEntropyWithLogits()(Tensor(logits), Tensor(oh)).asnumpy())
put(
    "sce_sparse_sum",
    nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="sum")(Tensor(logits), Tensor(labels)).asnumpy(),
)
cw4 = Tensor(np.array([1.0, 2.0, 0.5, 1.5], np.float32))
lab2 = Tensor(np.array([1, -100, 3], np.int32))
put("ce_mean", nn.CrossEntropyLoss()(Tensor(logits), Tensor(labels)).asnumpy())
put("ce_weight_ignore", nn.CrossEntropyLoss(weight=cw4)(Tensor(logits), lab2).asnumpy())
put("ce_weight_none", nn.CrossEntropyLoss(weight=cw4, reduction="none")(Tensor(logits), lab2).asnumpy())
put("ce_smooth", nn.CrossEntropyLoss(label_smoothing=0.2)(Tensor(logits), Tensor(labels)).asnumpy())
put(
    "ce_smooth_weight_sum",
    nn.CrossEntropyLoss(weight=cw4, label_smoothing=0.1, reduction="sum")(Tensor(logits), Tensor(labels)).asnumpy(),
)
put("ce_probs", nn.CrossEntropyLoss()(Tensor(logits), Tensor(oh)).asnumpy())
lp = ops.log_softmax(Tensor(logits), 1)
put("nll_mean", nn.NLLLoss()(lp, Tensor(labels)).asnumpy())
put("nll_weight_ignore", nn.NLLLoss(weight=cw4, ignore_index=3)(lp, Tensor(labels)).asnumpy())
tgt = np.array([[1.0, 0.0, 0.5, 1.0], [0.0, 1.0, 1.0, 0.2], [0.3, 0.3, 0.0, 1.0]], np.float32)
put("bcel_mean", nn.BCEWithLogitsLoss()(Tensor(logits), Tensor(tgt)).asnumpy())
put(
    "bcel_w_pw_none",
    nn.BCEWithLogitsLoss(
        reduction="none",
        weight=Tensor(np.array([1.0, 2.0, 1.0, 0.5], np.float32)),
        pos_weight=Tensor(np.array([2.0, 1.0, 1.0, 3.0], np.float32)),
    )(Tensor(logits), Tensor(tgt)).asnumpy(),
)
probs = 1 / (1 + np.exp(-logits))
put("bce_mean", nn.BCELoss()(Tensor(probs), Tensor(tgt)).asnumpy())
put("mse_mean", nn.MSELoss()(Tensor(logits), Tensor(tgt)).asnumpy())
put("l1_sum", nn.L1Loss(reduction="sum")(Tensor(logits), Tensor(tgt)).asnumpy())
put("smoothl1_none", nn.SmoothL1Loss(beta=0.5)(Tensor(logits), Tensor(tgt)).asnumpy())
g = ops.grad(nn.CrossEntropyLoss(weight=cw4, label_smoothing=0.1))(Tensor(logits), lab2)
put("ce_grad", g.asnumpy())
g = ops.grad(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))(Tensor(logits), Tensor(labels))
put("sce_grad", g.asnumpy())
g = ops.grad(nn.BCEWithLogitsLoss(pos_weight=Tensor(np.array([2.0, 1.0, 1.0, 3.0], np.float32))))(
    Tensor(logits), Tensor(tgt)
)
put("bcel_grad", g.asnumpy())
cv = nn.Conv2d(2, 3, 3, stride=2, weight_init=Tensor(cw))
g = ops.grad(lambda x: cv(x).sum(), 0, cv.trainable_params())(Tensor(img))
put("conv_grad_x", g[0].asnumpy())
put("conv_grad_w", g[1][0].asnumpy())
mp = nn.MaxPool2d(3, 2, pad_mode="same")
put("maxpool_grad", ops.grad(lambda x: (mp(x) * mp(x)).sum())(Tensor(img)).asnumpy())
ap = nn.AvgPool2d(3, 2, pad_mode="same")
put("avgpool_grad", ops.grad(lambda x: (ap(x) * ap(x)).sum())(Tensor(img)).asnumpy())
x4 = np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) ** 1.3 / 10
bn = nn.BatchNorm2d(3, momentum=0.8)
bn.gamma.set_data(Tensor(np.array([1.0, 2.0, 0.5], np.float32)))
bn.beta.set_data(Tensor(np.array([0.1, -0.2, 0.3], np.float32)))
bn.set_train(True)
put("bn2d_train", bn(Tensor(x4)).asnumpy())
put("bn2d_moving_mean", bn.moving_mean.asnumpy())
put("bn2d_moving_var", bn.moving_variance.asnumpy())
bn.set_train(False)
put("bn2d_eval", bn(Tensor(x4)).asnumpy())
b1 = nn.BatchNorm1d(3)
b1.set_train(True)
x1 = np.array([[1.0, 2.0, 3.0], [2.0, 5.0, 1.0], [0.0, 1.0, 1.0], [4.0, 4.0, 4.0]], np.float32)
put("bn1d_train", b1(Tensor(x1)).asnumpy())
put("bn1d_moving_var", b1.moving_variance.asnumpy())
b1.set_train(True)
put("bn1d_grad", ops.grad(lambda x: (b1(x) * Tensor(x1)).sum())(Tensor(x1)).asnumpy())
put("ln_axis1", nn.LayerNorm((3, 2, 2), begin_norm_axis=1, begin_params_axis=1)(Tensor(x4)).asnumpy())
put("ln_last", nn.LayerNorm((2,))(Tensor(x4)).asnumpy())
ln = nn.LayerNorm((2,))
put("ln_grad", ops.grad(lambda x: (ln(x) * Tensor(x4)).sum())(Tensor(x4)).asnumpy())
json.dump(
    R,
    open(
        __import__("os").path.join(
            __import__("os").path.dirname(__file__), "..", "tests", "nn", "fixtures", "mindspore_layers.json"
        ),
        "w",
    ),
)
print(len(R))
