"""Optimizers: three steps against MindSpore 2.10's numbers and NumPy references; state names; lr forms."""
import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, nn

W0 = np.array([[0.5, -0.3, 0.2], [0.1, 0.4, -0.6]], np.float32)
G0 = np.array([0.3, -0.2, 0.1], np.float32)
GRADS = [(np.array([[0.1, 0.2, -0.3], [0.4, -0.5, 0.6]], np.float32) * (k + 1) - 0.05 * k,
          np.array([0.2, -0.1, 0.05], np.float32) * (1 - 0.3 * k)) for k in range(3)]

# (weight, gamma) after three steps, printed by MindSpore 2.10 (CPU) for the same parameters and gradients
MINDSPORE = {
    "sgd_plain": ([[0.45500001, -0.40500003, 0.39500001], [-0.12500001, 0.71500003, -0.94500005]],
                  [0.25800002, -0.17900001, 0.089500003]),
    "sgd_mom": ([[0.42925, -0.45905, 0.48245001], [-0.23565, 0.85905004, -1.1122501]],
                [0.21466, -0.15732999, 0.078664996]),
    "sgd_nest_wd": ([[0.3830995, -0.55588728, 0.66716957], [-0.44993111, 1.1563923, -1.4351363]],
                    [0.17808002, -0.13904001, 0.069520004]),
    "mom": ([[0.42440003, -0.47070003, 0.50480002], [-0.26090002, 0.89499998, -1.1511]],
            [0.2112, -0.1556, 0.077799998]),
    "mom_wd_ls": ([[0.44836733, -0.37669373, 0.34636685], [-0.082676023, 0.63559109, -0.85793525]],
                  [0.25560001, -0.1778, 0.0889]),
    "adam_ls": ([[0.47021982, -0.32950461, 0.22906072], [0.070633776, 0.42912787, -0.62932092]],
                [0.27108553, -0.1710857, 0.071086012]),
    "adam": ([[0.47021964, -0.3295047, 0.22906077], [0.070633739, 0.4291279, -0.62932092]],
             [0.27108541, -0.17108545, 0.071085528]),
    "adam_wd_nest": ([[0.45260915, -0.34805149, 0.24810812], [0.051957879, 0.44810793, -0.64809102]],
                     [0.2577174, -0.15771745, 0.057717562]),
    "adamwd": ([[0.37603003, -0.42030677, 0.31856903], [-0.020872476, 0.51827967, -0.71856743]],
               [0.18159638, -0.081612326, -0.018355781]),
    "mom_listlr": ([[0.47384003, -0.35627002, 0.29428002], [-0.016490001, 0.55450004, -0.77671003]],
                   [0.26032001, -0.18016, 0.09008]),
    "mom_groups": ([[0.29576796, -0.60388958, 0.78040642], [-0.62378085, 1.3341248, -1.6223552]],
                   [0.2112, -0.1556, 0.077799998]),
}

CASES = {
    "sgd_plain": lambda p: nn.SGD(p, learning_rate=0.1),
    "sgd_mom": lambda p: nn.SGD(p, learning_rate=0.1, momentum=0.9, dampening=0.1),
    "sgd_nest_wd": lambda p: nn.SGD(p, learning_rate=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
    "mom": lambda p: nn.Momentum(p, 0.1, 0.9),
    "mom_wd_ls": lambda p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.05, loss_scale=2.0),
    "adam": lambda p: nn.Adam(p, learning_rate=0.01),
    "adam_ls": lambda p: nn.Adam(p, learning_rate=0.01, loss_scale=4.0),
    "adam_wd_nest": lambda p: nn.Adam(p, learning_rate=0.01, weight_decay=0.1, use_nesterov=True),
    "adamwd": lambda p: nn.AdamWeightDecay(p, learning_rate=0.01, weight_decay=0.1),
    "mom_listlr": lambda p: nn.Momentum(p, [0.1, 0.05, 0.01], 0.9),
    "mom_groups": lambda p: nn.Momentum([{"params": [p[0]], "lr": 0.2, "weight_decay": 0.1}, {"params": [p[1]]}],
                                        0.1, 0.9),
}


def _run(make, steps=3):
    w, g = Parameter(Tensor(W0.copy()), name="fc.weight"), Parameter(Tensor(G0.copy()), name="bn.gamma")
    opt = make([w, g])
    for gw, gg in GRADS[:steps]:
        assert opt((Tensor(gw), Tensor(gg))) is True
    return w.asnumpy(), g.asnumpy(), opt


@pytest.mark.parametrize("case", sorted(CASES))
def test_three_steps_match_mindspore(case):
    w, g, opt = _run(CASES[case])
    np.testing.assert_allclose(w, MINDSPORE[case][0], rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(g, MINDSPORE[case][1], rtol=2e-5, atol=1e-6)
    assert opt.global_step.asnumpy().tolist() == [3]


def _np_adam(p, grads, lr, b1=0.9, b2=0.999, eps=1e-8, nesterov=False):
    p, m, v = p.astype(np.float64), 0.0, 0.0
    for t, g in enumerate(grads, 1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        lr_t = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        num = m * b1 + (1 - b1) * g if nesterov else m
        p = p - lr_t * num / (np.sqrt(v) + eps)
    return p, m, v


def test_adam_state_against_numpy():
    w, _, opt = _run(CASES["adam"])
    ref_w, ref_m, ref_v = _np_adam(W0, [gw for gw, _ in GRADS], 0.01)
    np.testing.assert_allclose(w, ref_w, rtol=1e-5)
    np.testing.assert_allclose(opt.moment1[0].asnumpy(), ref_m, rtol=1e-5)
    np.testing.assert_allclose(opt.moment2[0].asnumpy(), ref_v, rtol=1e-5)
    np.testing.assert_allclose(opt.beta1_power.asnumpy(), 0.9 ** 3, rtol=1e-6)
    np.testing.assert_allclose(opt.beta2_power.asnumpy(), 0.999 ** 3, rtol=1e-6)


def test_momentum_and_sgd_against_numpy():
    w, g, opt = _run(CASES["mom"])
    p, acc = W0.astype(np.float64), 0.0
    for gw, _ in GRADS:
        acc = 0.9 * acc + gw
        p = p - 0.1 * acc
    np.testing.assert_allclose(w, p, rtol=1e-5)
    np.testing.assert_allclose(opt.moments[0].asnumpy(), acc, rtol=1e-5)
    w, _, opt = _run(CASES["sgd_mom"])
    p, acc = W0.astype(np.float64), None
    for gw, _ in GRADS:
        acc = gw if acc is None else 0.9 * acc + 0.9 * gw  # first step: accum = grad; dampening 0.1
        p = p - 0.1 * acc
    np.testing.assert_allclose(w, p, rtol=1e-5)
    np.testing.assert_array_equal(opt.stat[0].asnumpy(), np.zeros_like(W0))


def test_momentum_nesterov_uses_the_documented_update():
    # MindSpore documents var -= lr * (grad + momentum * accum); its CPU kernel ignores use_nesterov.
    w, _, _ = _run(lambda p: nn.Momentum(p, 0.1, 0.9, use_nesterov=True))
    p, acc = W0.astype(np.float64), 0.0
    for gw, _ in GRADS:
        acc = 0.9 * acc + gw
        p = p - 0.1 * (gw + 0.9 * acc)
    np.testing.assert_allclose(w, p, rtol=1e-5)


def test_state_names_match_mindspore():
    w, g = Parameter(Tensor(W0), name="fc.weight"), Parameter(Tensor(G0), name="bn.gamma")
    names = [n for n, _ in nn.Adam([w, g]).parameters_and_names()]
    assert names == ["global_step", "learning_rate", "fc.weight", "bn.gamma", "beta1_power", "beta2_power",
                     "moment1.fc.weight", "moment1.bn.gamma", "moment2.fc.weight", "moment2.bn.gamma"]
    assert [p.name for p in nn.Momentum([w, g], 0.1, 0.9).get_parameters()] == [
        "global_step", "learning_rate", "fc.weight", "bn.gamma", "momentum", "moments.fc.weight", "moments.bn.gamma"]
    assert [n for n, _ in nn.SGD([w], 0.1, momentum=0.9).parameters_and_names()] == [
        "global_step", "learning_rate", "fc.weight", "momentum", "accum.fc.weight", "stat.fc.weight"]
    assert [n for n, _ in nn.AdamWeightDecay([w]).parameters_and_names()] == [
        "global_step", "learning_rate", "fc.weight", "adam_m.fc.weight", "adam_v.fc.weight"]
    grouped = nn.Momentum([{"params": [g], "lr": 0.2}, {"params": [w]}], 0.1, 0.9)
    assert [n for n, _ in grouped.parameters_and_names()] == [
        "global_step", "learning_rate_group_0", "learning_rate", "bn.gamma", "fc.weight", "momentum",
        "moments.bn.gamma", "moments.fc.weight"]
    ordered = nn.Momentum([{"params": [g], "lr": 0.2}, {"params": [w]}, {"order_params": [w, g]}], 0.1, 0.9)
    assert [p.name for p in ordered.parameters] == ["fc.weight", "bn.gamma"]
    np.testing.assert_allclose(ordered.get_lr_parameter(g).asnumpy(), 0.2)


def test_learning_rate_forms():
    w = Parameter(Tensor(np.zeros(2, np.float32)), name="w")
    opt = nn.SGD([w], learning_rate=[0.1, 0.01])
    one = (Tensor(np.ones(2, np.float32)),)
    opt(one)
    np.testing.assert_allclose(opt.get_lr().asnumpy(), 0.01)
    opt(one)
    np.testing.assert_allclose(w.asnumpy(), [-0.11, -0.11], rtol=1e-6)
    with pytest.raises(IndexError):  # MindSpore also fails past the end of a learning-rate list
        opt(one)
    w2 = Parameter(Tensor(np.zeros(2, np.float32)), name="w2")
    sched = nn.SGD([w2], learning_rate=nn.ExponentialDecayLR(0.1, 0.5, 1))
    for _ in range(3):
        sched(one)
    np.testing.assert_allclose(w2.asnumpy(), [-0.175, -0.175], rtol=1e-6)  # MindSpore: -0.175
    w3 = Parameter(Tensor(np.zeros(2, np.float32)), name="w3")
    tensor_lr = nn.Momentum([w3], Tensor(np.float32(0.5)), 0.0)
    tensor_lr(one)
    np.testing.assert_allclose(w3.asnumpy(), [-0.5, -0.5])
    with pytest.raises(TypeError):
        nn.SGD([w], learning_rate="fast")
    with pytest.raises(TypeError):
        nn.SGD(w, 0.1)
    with pytest.raises(ValueError):
        nn.SGD([w], 0.1, nesterov=True)


STEP5 = {  # MindSpore 2.10: schedule(Tensor([5], int32))
    "exp": 0.08766033500432968, "exp_stair": 0.08999999612569809, "nat": 0.0027323728427290916,
    "inv": 0.061538465321063995, "cos": 0.037779249250888824, "poly": 0.06511352211236954,
    "poly_upd": 0.06511352211236954, "warm": 0.05000000074505806,
}


def test_learning_rate_schedules_match_mindspore():
    scheds = {
        "exp": nn.ExponentialDecayLR(0.1, 0.9, 4), "exp_stair": nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=True),
        "nat": nn.NaturalExpDecayLR(0.1, 0.9, 4, True), "inv": nn.InverseDecayLR(0.1, 0.5, 4),
        "cos": nn.CosineDecayLR(0.01, 0.1, 8), "poly": nn.PolynomialDecayLR(0.1, 0.01, 8, 0.5),
        "poly_upd": nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5, update_decay_steps=True), "warm": nn.WarmUpLR(0.1, 10),
    }
    step = Tensor(np.array([5], np.int32))
    for name, sched in scheds.items():
        out = sched(step)
        assert out.shape == (1,) and out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), [STEP5[name]], rtol=1e-5, err_msg=name)


def test_large_parameters_take_the_same_numbers():
    """Big contiguous parameters may take the one-pass loops (numba, when installed); results must equal the
    NumPy formulas exactly."""
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((260, 130)).astype(np.float32)
    grads = [rng.standard_normal(w0.shape).astype(np.float32) for _ in range(2)]
    for nesterov in (False, True):
        w = Parameter(Tensor(w0.copy()), name="big")
        opt = nn.Momentum([w], 0.1, 0.9, use_nesterov=nesterov)
        p, acc = w0.copy(), np.zeros_like(w0)
        for g in grads:
            opt((Tensor(g),))
            acc *= np.float32(0.9)
            acc += g
            p -= np.float32(0.1) * (g + np.float32(0.9) * acc) if nesterov else np.float32(0.1) * acc
        np.testing.assert_array_equal(w.asnumpy(), p)
        np.testing.assert_array_equal(opt.moments[0].asnumpy(), acc)
    w = Parameter(Tensor(w0.copy()), name="big")
    nn.SGD([w], 0.05)((Tensor(grads[0]),))
    np.testing.assert_array_equal(w.asnumpy(), w0 - np.float32(0.05) * grads[0])
