"""Composite ops (Python over primitives): forward against NumPy, backward against finite differences."""
import math

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from optable import BOOL, F64, POS, Case, finite_differences, scalar_objective
from reference import erf, log_softmax, softmax

LABELS = np.array([1, 0, 2], np.int32)


def _softplus(x, beta=1.0, threshold=20.0):
    return np.where(beta * x > threshold, x, np.log1p(np.exp(beta * x)) / beta)


def _layer_norm(x, w, b, eps=1e-5):
    m = x.mean(-1, keepdims=True)
    v = x.var(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * w + b


def _ce(x, labels=LABELS, smoothing=0.0):
    lp = log_softmax(x, 1)
    nll = -lp[np.arange(len(labels)), labels]
    smooth = -lp.mean(1)
    return ((1 - smoothing) * nll + smoothing * smooth).mean()


def _bce(x, t, w, p):
    s = 1 / (1 + np.exp(-x))
    return (-w * (p * t * np.log(s) + (1 - t) * np.log(1 - s))).mean()


COMPOSITES = [
    Case("logsumexp", lambda x: ops.logsumexp(x, 1), (F64(2, 4),), lambda x: np.log(np.exp(x).sum(1))),
    Case("std", lambda x: ops.std(x, 1, 1), (F64(2, 4),), lambda x: x.std(1, ddof=1)),
    Case("var", lambda x: ops.var(x, (0, 1), keepdims=True), (F64(2, 4),), lambda x: x.var(keepdims=True)),
    Case("clamp", lambda x: ops.clamp(x, -1.0, 1.0), (F64(3, 4),), lambda x: np.clip(x, -1, 1)),
    Case("masked_fill", lambda x, m: ops.masked_fill(x, m, 0.5), (F64(2, 3), BOOL(2, 3)),
         lambda x, m: np.where(m, 0.5, x), grad=(0,)),
    Case("gelu", ops.gelu, (F64(2, 3),), lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2)))),
    Case("gelu-tanh", lambda x: ops.gelu(x, "tanh"), (F64(2, 3),),
         lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    Case("fast_gelu", ops.fast_gelu, (F64(2, 3),), lambda x: x / (1 + np.exp(-1.702 * x))),
    Case("silu", ops.silu, (F64(2, 3),), lambda x: x / (1 + np.exp(-x))),
    Case("softplus", lambda x: ops.softplus(x, 2, 3), (F64(2, 3),), lambda x: _softplus(x, 2, 3)),
    Case("leaky_relu", lambda x: ops.leaky_relu(x, 0.1), (F64(2, 3),), lambda x: np.where(x > 0, x, 0.1 * x)),
    Case("elu", ops.elu, (F64(2, 3),), lambda x: np.where(x > 0, x, np.expm1(x))),
    Case("mish", ops.mish, (F64(2, 3),), lambda x: x * np.tanh(np.log1p(np.exp(x)))),
    Case("hardswish", ops.hardswish, (F64(2, 3),), lambda x: x * np.clip(x + 3, 0, 6) / 6),
    Case("softmax-axis0", lambda x: ops.softmax(x, 0), (F64(3, 2),), lambda x: softmax(x, 0)),
    Case("layer_norm", lambda x, w, b: ops.layer_norm(x, (4,), w, b), (F64(3, 4), F64(4), F64(4)), _layer_norm),
    Case("dense", ops.dense, (F64(2, 3), F64(4, 3), F64(4)), lambda x, w, b: x @ w.T + b),
    Case("cross_entropy", lambda x: ops.cross_entropy(x, ms.Tensor(LABELS), label_smoothing=0.1), (F64(3, 3),),
         lambda x: _ce(x, smoothing=0.1)),
    Case("nll_loss", lambda lp: ops.nll_loss(lp, ms.Tensor(LABELS), reduction="sum"), (F64(3, 3),),
         lambda lp: -lp[np.arange(3), LABELS].sum()),
    Case("bce_with_logits", lambda x, t, w, p: ops.binary_cross_entropy_with_logits(x, t, w, p),
         (F64(2, 3), F64(2, 3, lo=0.1, hi=0.9), POS(3), POS(3)), _bce),
    Case("mse_loss", ops.mse_loss, (F64(2, 3), F64(2, 3)), lambda a, b: ((a - b) ** 2).mean()),
    Case("smooth_l1_loss", lambda a, b: ops.smooth_l1_loss(a, b, reduction="sum"), (F64(2, 3), F64(2, 3)),
         lambda a, b: np.where(np.abs(a - b) < 1, 0.5 * (a - b) ** 2, np.abs(a - b) - 0.5).sum()),
    Case("kl_div", lambda lp, t: ops.kl_div(lp, t, "sum"), (F64(2, 3), POS(2, 3)),
         lambda lp, t: (t * (np.log(t) - lp)).sum()),
    Case("norm", ops.norm, (F64(2, 3),), lambda x: np.sqrt((x ** 2).sum())),
    Case("tril", lambda x: ops.tril(x, 1), (F64(3, 4),), lambda x: np.tril(x, 1)),
    Case("batch_norm-train", lambda x, w, b: ops.batch_norm(
        x, ms.Parameter(ms.Tensor(np.zeros(2)), name="m"), ms.Parameter(ms.Tensor(np.ones(2)), name="v"), w, b,
        training=True), (F64(3, 2, 2), F64(2), F64(2)),
         lambda x, w, b: (x - x.mean((0, 2), keepdims=True)) / np.sqrt(x.var((0, 2), keepdims=True) + 1e-5)
         * w.reshape(1, 2, 1) + b.reshape(1, 2, 1)),
]


@pytest.mark.parametrize("case", COMPOSITES, ids=lambda c: c.op)
def test_composite_forward(case):
    values = case.make_inputs(7)
    np.testing.assert_allclose(case.fn(*case.wrap(values)).asnumpy(), case.ref(*values), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("case", COMPOSITES, ids=lambda c: c.op)
def test_composite_backward(case):
    values = case.make_inputs(7)
    positions = case.grad_positions(values)
    loss, numeric = scalar_objective(case, values, positions)
    grads = ms.grad(loss, grad_position=tuple(range(len(positions))))(*[case.wrap(values)[p] for p in positions])
    expected = finite_differences(numeric, [values[p] for p in positions])
    for g, e in zip(grads, expected):
        np.testing.assert_allclose(g.asnumpy(), e, rtol=1e-5, atol=1e-6, err_msg=case.op)
