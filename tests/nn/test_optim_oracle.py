"""Optimizers against MindSpore 2.10 (cases in optim_cases.py, fixtures written by tools/optim_oracle.py): three
steps with fixed gradients give MindSpore's parameters and optimizer state (compared by name), eagerly and in
GRAPH_MODE; the same exception types for bad arguments. Lamb, LARS and gradient centralisation, whose kernels
MindSpore 2.10's CPU build lacks, are checked against NumPy references of the documented formulas."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, nn

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("optim_cases", HERE / "optim_cases.py")
CASES_MOD = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(CASES_MOD)
with np.load(HERE / "fixtures" / "optim.npz") as _data:
    REF = {k: _data[k] for k in _data.files}
FIXED = [c for c in CASES_MOD.CASES if f"{c[0]}|w" in REF]


def make_params():
    rng = np.random.default_rng(0)
    return [Parameter(Tensor(rng.standard_normal((4, 16)).astype(np.float32)), name="w"),
            Parameter(Tensor(rng.standard_normal(2).astype(np.float32)), name="bias"),
            Parameter(Tensor(rng.uniform(0.5, 1.5, 2).astype(np.float32)), name="norm.gamma")]


def gradients(step, order):
    rng = np.random.default_rng(100 + step)
    by_name = {name: Tensor(rng.standard_normal(s).astype(np.float32) * (1.0 + step))
               for name, s in (("w", (4, 16)), ("bias", (2,)), ("norm.gamma", (2,)))}
    return tuple(by_name[p.name] for p in order)


def run(ctor, graph=False, steps=3):
    ms.set_seed(0)
    params = make_params()
    opt = eval(ctor, {"nn": nn, "params": params, "ms": ms})
    if graph:
        ms.set_context(mode=ms.GRAPH_MODE)
    try:
        for step in range(steps):
            opt(gradients(step, opt.parameters))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    return opt, params


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("case", FIXED, ids=lambda c: c[0])
def test_three_steps_match_mindspore(case, graph):
    key, ctor = case
    opt, params = run(ctor, graph)
    names = {k.split("|", 1)[1] for k in REF if k.startswith(key + "|")}
    ours = {p.name: p for p in list(opt.get_parameters()) + params}
    missing = sorted(names - set(ours))
    assert not missing, f"{key}: MindSpore has state {missing} that sprout lacks"
    for name in sorted(names):
        np.testing.assert_allclose(ours[name].asnumpy().astype(np.float64).reshape(REF[f"{key}|{name}"].shape),
                                   REF[f"{key}|{name}"], rtol=2e-5, atol=2e-6, err_msg=f"{key}: {name}")


@pytest.mark.parametrize("item", CASES_MOD.ERRORS, ids=lambda e: e[0])
def test_bad_arguments_raise_like_mindspore(item):
    key, code = item
    want = str(REF[f"{key}|error"])
    kinds = {"ValueError": ValueError, "TypeError": TypeError, "RuntimeError": RuntimeError, "KeyError": KeyError,
             "AttributeError": (AttributeError, TypeError)}
    with pytest.raises(Exception) as info:
        exec(code, {"nn": nn, "params": make_params(), "ms": ms})
    assert isinstance(info.value, kinds[want]), f"{key}: sprout raised {type(info.value).__name__}: {info.value}; " \
                                                f"MindSpore raises {want}"


def _lamb_ref(w, grads, lr, b1, b2, eps, wd):
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for t, g in enumerate(grads, 1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        r = m / (1 - b1 ** t) / (np.sqrt(v / (1 - b2 ** t)) + eps) + wd * w
        ratio = np.linalg.norm(w) / np.linalg.norm(r)
        w = w - lr * ratio * r
    return w


@pytest.mark.parametrize("wd", [0.0, 0.1])
def test_lamb_follows_the_documented_update(wd):
    opt, params = run(f"nn.Lamb(params, learning_rate=0.05, weight_decay={wd}, eps=1e-4)")
    start = make_params()
    for i, p in enumerate(params):
        grads = [gradients(s, make_params())[i].asnumpy().astype(np.float64) for s in range(3)]
        decay = wd if "gamma" not in p.name else 0.0
        np.testing.assert_allclose(p.asnumpy(), _lamb_ref(start[i].asnumpy().astype(np.float64), grads, 0.05, 0.9,
                                                          0.999, 1e-4, decay), rtol=1e-5, atol=1e-6, err_msg=p.name)


def test_lars_scales_gradients_by_the_trust_ratio():
    opt, params = run("nn.LARS(nn.SGD(params, 0.1, weight_decay=0.01), coefficient=0.5)", steps=1)
    start = make_params()
    g = gradients(0, start)
    for i, p in enumerate(params):
        w0, g0 = start[i].asnumpy().astype(np.float64), g[i].asnumpy().astype(np.float64)
        if p.name == "bias":  # the default filter skips biases: plain SGD, no decay
            want = w0 - 0.1 * g0
        else:
            wd = 0.0 if "gamma" in p.name else 0.01
            ratio = 0.5 * np.linalg.norm(w0) / (np.linalg.norm(g0) + wd * np.linalg.norm(w0) + 1e-5)
            want = w0 - 0.1 * ratio * (g0 + wd * w0)
        np.testing.assert_allclose(p.asnumpy(), want, rtol=1e-5, err_msg=p.name)


def test_gradient_centralization_groups():
    """Centralised (mean over axes 1.. removed) only for flagged groups, rank >= 2, second dim a multiple of 16."""
    opt, params = run("nn.SGD([{'params': [params[0]], 'grad_centralization': True}, {'params': params[1:]}], 0.1)",
                      steps=1)
    start, g = make_params(), gradients(0, make_params())
    g0 = g[0].asnumpy()
    np.testing.assert_allclose(params[0].asnumpy(), start[0].asnumpy() - 0.1 * (g0 - g0.mean(1, keepdims=True)),
                               rtol=1e-5)
    np.testing.assert_allclose(params[1].asnumpy(), start[1].asnumpy() - 0.1 * g[1].asnumpy(), rtol=1e-6)
    with pytest.raises(TypeError):
        nn.SGD([{"params": make_params(), "grad_centralization": 1}])


def test_ftrl_with_l1_follows_the_documented_formula():
    """MindSpore 2.10's CPU kernel computes l1 - linear where the formula has sign(linear) l1 - linear."""
    opt, params = run("nn.FTRL(params, learning_rate=0.05, l1=0.01, l2=0.02)")
    for i, p in enumerate(params):
        w = make_params()[i].asnumpy().astype(np.float64)
        acc, lin = np.full_like(w, 0.1), np.zeros_like(w)
        for s in range(3):
            g = gradients(s, make_params())[i].asnumpy().astype(np.float64)
            new = acc + g * g
            lin = lin + g - (np.sqrt(new) - np.sqrt(acc)) / 0.05 * w
            w = np.where(np.abs(lin) > 0.01, (np.sign(lin) * 0.01 - lin) / (np.sqrt(new) / 0.05 + 0.04), 0)
            acc = new
        np.testing.assert_allclose(p.asnumpy(), w, rtol=1e-5, atol=1e-7, err_msg=p.name)


def test_adagrad_without_slot_updates_keeps_accum():
    """update_slots=False leaves accum alone (MindSpore 2.10's CPU kernel ignores the flag)."""
    opt, params = run("nn.Adagrad(params, accum=0.5, learning_rate=0.1, update_slots=False)", steps=2)
    for i, p in enumerate(params):
        w = make_params()[i].asnumpy().astype(np.float64)
        for s in range(2):
            w = w - 0.1 * gradients(s, make_params())[i].asnumpy() / np.sqrt(0.5)
        np.testing.assert_allclose(p.asnumpy(), w, rtol=1e-5, err_msg=p.name)
        np.testing.assert_array_equal(opt.accum[i].asnumpy(), np.full(p.shape, 0.5, np.float32))
