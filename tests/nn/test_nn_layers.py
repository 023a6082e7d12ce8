"""Layer outputs on fixed weights against MindSpore 2.10 (fixtures/mindspore_layers.json, written by
tools/nn_oracle_layers.py), plus train/eval behaviour of BatchNorm and Dropout."""
import json
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

REF = {k: np.array(v) for k, v in json.loads((Path(__file__).parent / "fixtures" / "mindspore_layers.json")
                                              .read_text()).items()}

X2 = (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5) / 2
W = np.array([[0.1, -0.2, 0.3], [0.5, 0.4, -0.6]], np.float32)
B = np.array([0.05, -0.1], np.float32)
IMG = (np.sin(np.arange(2 * 2 * 5 * 5, dtype=np.float32)) * 2).reshape(2, 2, 5, 5)
CW = (np.cos(np.arange(3 * 2 * 3 * 3, dtype=np.float32)) / 3).reshape(3, 2, 3, 3)
CB = np.array([0.1, -0.2, 0.3], np.float32)
X4 = np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) ** 1.3 / 10
X1 = np.array([[1., 2., 3.], [2., 5., 1.], [0., 1., 1.], [4., 4., 4.]], np.float32)


def check(name, value, atol=2e-5):
    value = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
    np.testing.assert_allclose(value, REF[name], rtol=1e-4, atol=atol, err_msg=name)


def test_dense():
    d = nn.Dense(3, 2, weight_init=Tensor(W), bias_init=Tensor(B), activation="relu")
    check("dense_relu", d(Tensor(X2)))
    d2 = nn.Dense(3, 2, weight_init=Tensor(W), bias_init=Tensor(B))
    check("dense_3d", d2(Tensor(np.stack([X2, X2 * 2]))))
    assert repr(d2) == "Dense(input_channels=3, output_channels=2, has_bias=True)"
    with pytest.raises(ValueError):
        nn.Dense(3, 2, weight_init=Tensor(W.T))
    nb = nn.Dense(3, 2, weight_init=Tensor(W), has_bias=False)
    np.testing.assert_allclose(nb(Tensor(X2)).asnumpy(), X2 @ W.T, rtol=1e-6)


def test_batchnorm_train_and_eval():
    bn = nn.BatchNorm2d(3, momentum=0.8)
    bn.gamma.set_data(Tensor(np.array([1.0, 2.0, 0.5], np.float32)))
    bn.beta.set_data(Tensor(np.array([0.1, -0.2, 0.3], np.float32)))
    before = bn(Tensor(X4)).asnumpy()  # eval mode by default: moving stats (0, 1)
    np.testing.assert_allclose(before, X4 / np.sqrt(1 + 1e-5) * np.array([1, 2, .5])[:, None, None]
                               + np.array([.1, -.2, .3])[:, None, None], rtol=1e-5)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), np.zeros(3))  # eval does not update
    bn.set_train(True)
    check("bn2d_train", bn(Tensor(X4)))
    check("bn2d_moving_mean", bn.moving_mean)  # momentum * moving + (1 - momentum) * batch
    check("bn2d_moving_var", bn.moving_variance)  # ... with the unbiased batch variance
    bn.set_train(False)
    check("bn2d_eval", bn(Tensor(X4)))
    b1 = nn.BatchNorm1d(3).set_train(True)
    check("bn1d_train", b1(Tensor(X1)))
    check("bn1d_moving_var", b1.moving_variance)
    check("bn1d_grad", ops.grad(lambda x: (b1(x) * Tensor(X1)).sum())(Tensor(X1)), atol=1e-4)
    with pytest.raises(ValueError):
        b1(Tensor(X4))
    fixed = nn.BatchNorm1d(3, use_batch_statistics=False).set_train(True)
    np.testing.assert_allclose(fixed(Tensor(X1)).asnumpy(), X1 / np.sqrt(1 + 1e-5), rtol=1e-5)
    np.testing.assert_array_equal(fixed.moving_mean.asnumpy(), np.zeros(3))


def test_batchnorm_gradients_reach_gamma_and_beta():
    bn = nn.BatchNorm1d(3).set_train(True)
    g_gamma, g_beta = ops.grad(lambda x: (bn(x) * Tensor(X1)).sum(), None, [bn.gamma, bn.beta])(Tensor(X1))
    xhat = (X1 - X1.mean(0)) / np.sqrt(X1.var(0) + 1e-5)
    np.testing.assert_allclose(g_gamma.asnumpy(), (xhat * X1).sum(0), rtol=1e-4)
    np.testing.assert_allclose(g_beta.asnumpy(), X1.sum(0), rtol=1e-6)


def test_layernorm_and_groupnorm():
    check("ln_axis1", nn.LayerNorm((3, 2, 2), begin_norm_axis=1, begin_params_axis=1)(Tensor(X4)))
    ln = nn.LayerNorm((2,))
    check("ln_last", ln(Tensor(X4)))
    check("ln_grad", ops.grad(lambda x: (ln(x) * Tensor(X4)).sum())(Tensor(X4)), atol=2e-3)
    gn_in = np.concatenate([IMG, IMG[:, ::-1] * 0.5], 1)
    check("groupnorm", nn.GroupNorm(2, 4)(Tensor(gn_in)))


def test_dropout_train_and_eval():
    x = Tensor(np.ones((200, 50), np.float32))
    for drop in (nn.Dropout(keep_prob=0.8), nn.Dropout(p=0.2)):
        assert drop(x) is x  # eval mode (the default) is the identity
        drop.set_train(True)
        y = drop(x).asnumpy()
        kept = y != 0
        assert 0.75 < kept.mean() < 0.85
        np.testing.assert_allclose(y[kept], 1 / 0.8, rtol=1e-6)  # survivors scaled by 1 / keep_prob
    assert nn.Dropout(p=0.0).set_train(True)(x) is x
    assert repr(nn.Dropout(p=0.2)) == "Dropout(p=0.2)"
    for bad in (dict(keep_prob=0.0), dict(p=1.0), dict(p=-0.1)):
        with pytest.raises(ValueError):
            nn.Dropout(**bad)
    ms.set_seed(3)
    a = nn.Dropout(p=0.5).set_train(True)(x).asnumpy()
    ms.set_seed(3)
    b = nn.Dropout(p=0.5).set_train(True)(x).asnumpy()
    np.testing.assert_array_equal(a, b)


def test_flatten_identity():
    x = Tensor(np.zeros((2, 3, 4, 5), np.float32))
    assert nn.Flatten()(x).shape == (2, 60)
    assert nn.Flatten(0, 2)(x).shape == (24, 5)
    assert nn.Identity()(x) is x
    with pytest.raises(ValueError):
        nn.Flatten(5)(x)


@pytest.mark.parametrize("name", ["conv_same", "conv_valid_s2_bias", "conv_pad1_dil2", "conv_same_s2", "conv_group",
                                  "conv_pad4"])
def test_conv2d(name):
    kwargs = {
        "conv_same": {},
        "conv_valid_s2_bias": dict(stride=2, pad_mode="valid", has_bias=True, bias_init=Tensor(CB)),
        "conv_pad1_dil2": dict(pad_mode="pad", padding=1, dilation=2),
        "conv_same_s2": dict(stride=2),
        "conv_pad4": dict(pad_mode="pad", padding=(1, 0, 2, 1)),
    }
    if name == "conv_group":
        gw = (np.cos(np.arange(4 * 1 * 3 * 3, dtype=np.float32)) / 3).reshape(4, 1, 3, 3)
        conv = nn.Conv2d(2, 4, 3, group=2, pad_mode="valid", weight_init=Tensor(gw))
    else:
        conv = nn.Conv2d(2, 3, 3, weight_init=Tensor(CW), **kwargs[name])
    check(name, conv(Tensor(IMG)))


def test_conv2d_gradients():
    conv = nn.Conv2d(2, 3, 3, stride=2, weight_init=Tensor(CW))
    gx, (gw,) = ops.grad(lambda x: conv(x).sum(), 0, conv.trainable_params())(Tensor(IMG))
    check("conv_grad_x", gx, atol=1e-4)
    check("conv_grad_w", gw, atol=1e-4)


def test_conv_seed_example_runs():
    # seed 001: nn.Conv2d(3, 4, 3, stride=2, padding=0) on a (1, 3, 3, 3) input, default pad_mode "same"
    out = nn.Conv2d(3, 4, 3, stride=2, padding=0)(Tensor(np.ones((1, 3, 3, 3), np.float32)))
    assert out.shape == (1, 4, 2, 2)


@pytest.mark.parametrize("name,cell", [
    ("maxpool_2_2", lambda: nn.MaxPool2d(2, 2)),
    ("maxpool_3_2_same", lambda: nn.MaxPool2d(3, 2, pad_mode="same")),
    ("maxpool_3_1_pad1", lambda: nn.MaxPool2d(3, 1, pad_mode="pad", padding=1)),
    ("avgpool_2_2", lambda: nn.AvgPool2d(2, 2)),
    ("avgpool_3_2_same", lambda: nn.AvgPool2d(3, 2, pad_mode="same")),
    ("avgpool_3_2_pad1", lambda: nn.AvgPool2d(3, 2, pad_mode="pad", padding=1)),
    ("avgpool_3_2_pad1_nocnt", lambda: nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, count_include_pad=False)),
])
def test_pooling(name, cell):
    check(name, cell()(Tensor(IMG)))


def test_pooling_gradients():
    mp = nn.MaxPool2d(3, 2, pad_mode="same")
    check("maxpool_grad", ops.grad(lambda x: (mp(x) * mp(x)).sum())(Tensor(IMG)), atol=1e-4)
    ap = nn.AvgPool2d(3, 2, pad_mode="same")
    check("avgpool_grad", ops.grad(lambda x: (ap(x) * ap(x)).sum())(Tensor(IMG)), atol=1e-4)


ACTIVATIONS = {
    "softmax": nn.Softmax, "logsoftmax": nn.LogSoftmax, "softmax0": lambda: nn.Softmax(0), "gelu": nn.GELU,
    "gelu_exact": lambda: nn.GELU(approximate=False), "leaky": nn.LeakyReLU, "silu": nn.SiLU, "elu": nn.ELU,
    "hswish": nn.HSwish, "mish": nn.Mish, "relu6": nn.ReLU6, "sigmoid": nn.Sigmoid, "tanh": nn.Tanh,
    "hsigmoid": nn.HSigmoid, "logsigmoid": nn.LogSigmoid, "softsign": nn.Softsign, "softplus": nn.Softplus,
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activations(name):
    check("act_" + name, ACTIVATIONS[name]()(Tensor(X2 * 3)))


def test_get_activation():
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    with pytest.raises(KeyError):
        nn.get_activation("nope")


def test_embedding():
    emb = nn.Embedding(5, 3, embedding_table=Tensor(np.arange(15, dtype=np.float32).reshape(5, 3)))
    ids = Tensor(np.array([[0, 4], [2, 2]], np.int32))
    check("embedding", emb(ids))
    (g,) = ops.grad(lambda i: emb(i).sum(), None, [emb.embedding_table])(ids)
    np.testing.assert_array_equal(g.asnumpy()[:, 0], [1, 0, 2, 0, 1])  # repeated ids accumulate
    one_hot = nn.Embedding(5, 3, use_one_hot=True, embedding_table=Tensor(np.arange(15, dtype=np.float32)
                                                                          .reshape(5, 3)))
    check("embedding", one_hot(ids))
    padded = nn.Embedding(4, 2, padding_idx=1)
    np.testing.assert_array_equal(padded.embedding_table.asnumpy()[1], [0, 0])
