"""ops.ApplyMomentum, ops.Adam, ... (sprout/ops/classes_optim.py): what each call returns, the same updates inside a
jitted Cell (AST and bytecode capture) as eagerly, and MindSpore's argument checks. Updated values against
MindSpore 2.10 are in oracle/cases_optim.py."""
import json
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops

from optim_misuse_cases import CASES as MISUSE


def _params(*arrays):
    return [ms.Parameter(ms.Tensor(np.array(a, np.float32)), name=f"p{i}") for i, a in enumerate(arrays)]


def test_returns_the_variable_or_the_updated_state_as_new_tensors():
    v, a = _params([1.0, 2.0], [0.5, 0.5])
    out = ops.ApplyMomentum()(v, a, 0.1, ms.Tensor(np.array([1.0, -1.0], np.float32)), 0.9)
    np.testing.assert_allclose(a.asnumpy(), [1.45, -0.55], rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), v.asnumpy()) and np.testing.assert_allclose(v.asnumpy(), [0.855, 2.055])
    v, m, s = _params([1.0, 2.0], [0.0, 0.0], [0.0, 0.0])
    outs = ops.Adam()(v, m, s, 0.9, 0.999, 0.01, 0.9, 0.999, 1e-8, ms.Tensor(np.array([1.0, -1.0], np.float32)))
    assert len(outs) == 3 and all(type(o) is ms.Tensor for o in outs)
    for got, param in zip(outs, (v, m, s)):
        np.testing.assert_array_equal(got.asnumpy(), param.asnumpy())
    v, acc = _params([1.0], [1.0])
    got_v, got_acc = ops.ApplyAdagrad()(v, acc, 0.5, ms.Tensor(np.array([1.0], np.float32)))
    np.testing.assert_allclose(got_acc.asnumpy(), [2.0]) and np.testing.assert_allclose(got_v.asnumpy(), v.asnumpy())
    got_acc_before = got_acc.asnumpy().copy()
    ops.ApplyAdagrad()(v, acc, 0.5, ms.Tensor(np.array([1.0], np.float32)))
    np.testing.assert_array_equal(got_acc.asnumpy(), got_acc_before)  # a copy, not the Parameter itself


class _MomentumStep(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")
        self.acc = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="acc")
        self.opt = ops.ApplyMomentum(use_nesterov=True)
        self.rms = ops.ApplyRMSProp()
        self.ms = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="ms")
        self.mom = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="mom")

    def construct(self, grad):
        self.opt(self.w, self.acc, 0.1, grad, 0.9)
        return self.rms(self.w, self.ms, self.mom, 0.01, grad * 2, 0.9, 0.5, 1e-6)


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_same_updates_inside_jit(mode):
    grad = ms.Tensor(np.array([0.5, -1.0, 2.0], np.float32))
    eager, compiled = _MomentumStep(), _MomentumStep()
    run = ms.jit(compiled.construct, capture_mode=mode)
    for _ in range(3):
        want, got = eager(grad), run(grad)
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6)
    for name in ("w", "acc", "ms", "mom"):
        np.testing.assert_allclose(getattr(compiled, name).asnumpy(), getattr(eager, name).asnumpy(), rtol=1e-6)


def test_argument_checks():
    with pytest.raises(TypeError, match="'use_nesterov' must be a bool"):
        ops.ApplyMomentum(use_nesterov=1)
    with pytest.raises(TypeError, match="unexpected arguments"):
        ops.Adam(use_lock=True)
    v, a, st = _params([1.0], [0.0], [1.0])
    with pytest.raises(ValueError, match="'dampening' must be 0 when 'nesterov' is True"):
        ops.SGD(0.5, 0.0, True)(v, ms.Tensor(np.ones(1, np.float32)), ms.Tensor(np.float32(0.1)), a,
                                ms.Tensor(np.float32(0.9)), st)
    scaled_v, scaled_a = _params([1.0], [0.0])
    ops.ApplyMomentum(gradient_scale=0.5)(scaled_v, scaled_a, 1.0, ms.Tensor(np.array([2.0], np.float32)), 0.0)
    np.testing.assert_allclose(scaled_v.asnumpy(), [0.0])  # 1 - 1.0 * (2 * 0.5)


# ---- misuse: rejected up front, with MindSpore's exception type, before anything is written ----------------------
MISUSE_ORACLE = json.loads((Path(__file__).parent / "data" / "optim_misuse.json").read_text())


def _env(params):
    def P(a, n):  # noqa: N802 - the cases' spelling
        p = ms.Parameter(ms.Tensor(np.asarray(a)), name=n)
        params.append((p, p.asnumpy().copy()))
        return p

    return {"ops": ops, "Tensor": ms.Tensor, "np": np, "P": P}


@pytest.mark.parametrize("case", sorted(MISUSE))
def test_misuse_as_mindspore(case):
    """Shapes, dtypes and hyper-parameters are checked before the kernel runs (the op's own rule, eagerly and in
    graphs): a rejected update leaves every Parameter as it was, and the message names the op and the argument."""
    params = []
    expr = MISUSE[case]
    want = MISUSE_ORACLE[case]
    if want == "OK":
        eval(expr, _env(params))  # noqa: S307 - our own fixed expressions
        return
    with pytest.raises({"ValueError": ValueError, "TypeError": TypeError}[want]) as info:
        eval(expr, _env(params))  # noqa: S307
    op = expr.split("(")[0].split(".")[1]
    assert str(info.value).startswith(f"{op}: '")
    for p, before in params:
        np.testing.assert_array_equal(p.asnumpy(), before)


def test_misuse_rejected_in_a_graph_too():
    v, a = _params([1.0, 2.0], [0.0, 0.0])

    @ms.jit
    def step(g):
        return ops.ApplyMomentum()(v, a, 0.1, g, 0.9)

    with pytest.raises(ValueError, match="ApplyMomentum: 'grad' of shape \\[1\\] does not match"):
        step(ms.Tensor(np.ones(1, np.float32)))
    with pytest.raises(TypeError, match="ApplyMomentum: 'grad' of dtype float64 cannot be cast"):
        step(ms.Tensor(np.ones(2)))
    np.testing.assert_array_equal(v.asnumpy(), [1.0, 2.0])
