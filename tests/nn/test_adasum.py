"""nn.AdaSumByGradWrapCell / AdaSumByDeltaWeightWrapCell on the simulated mesh (4 and 2 ranks) and in one process,
against the AdaSum formula in NumPy (MindSpore 2.10 runs them only on 16+ Ascend/GPU devices in semi-auto parallel)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn
from sprout.communication import get_rank, init, simulate


def ref_pair(a, b):
    d = (a * b).sum()
    return (1 - d / (2 * (a * a).sum())) * a + (1 - d / (2 * (b * b).sum())) * b


def ref_tree(vs):
    while len(vs) > 1:
        vs = [ref_pair(vs[i], vs[i + 1]) for i in range(0, len(vs), 2)]
    return vs[0]


G = [(np.array([[1.0, 2.0], [0.5, -1.0]]) * (r + 1) + np.eye(2) * r - r * 0.3).astype(np.float32) for r in range(4)]
B = [np.array([0.5, -0.25], np.float32) * (r - 1.5) for r in range(4)]


def _net():
    return nn.Dense(2, 2, weight_init="ones", bias_init="zeros")


@pytest.mark.parametrize("world", [2, 4])
def test_by_grad_applies_the_adasum_of_the_ranks_gradients(world):
    def body():
        init()
        r = get_rank()
        net = _net()
        step = nn.AdaSumByGradWrapCell(nn.SGD(net.trainable_params(), 0.1))
        step((Tensor(G[r]), Tensor(B[r])))
        return net.weight.asnumpy(), net.bias.asnumpy()

    want_w, want_b = ref_tree(G[:world]), ref_tree(B[:world])
    for w, b in simulate(body, world):  # every rank ends with the same parameters
        np.testing.assert_allclose(w, 1 - 0.1 * want_w, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(b, -0.1 * want_b, rtol=1e-5, atol=1e-6)


def test_by_delta_weight_combines_each_ranks_own_optimizer_step():
    def body():
        init()
        r = get_rank()
        net = _net()
        step = nn.AdaSumByDeltaWeightWrapCell(nn.Adam(net.trainable_params(), 0.01))
        out = step((Tensor(G[r]), Tensor(B[r])))
        assert [p.name for p in out] == ["weight", "bias"]
        return net.weight.asnumpy()

    steps = []
    for r in range(4):  # each rank's own Adam step, alone
        net = _net()
        nn.Adam(net.trainable_params(), 0.01)((Tensor(G[r]), Tensor(B[r])))
        steps.append(net.weight.asnumpy() - 1.0)
    for w in simulate(body, 4):
        np.testing.assert_allclose(w, 1.0 + ref_tree(steps), rtol=1e-5, atol=1e-6)


def test_one_process_is_a_world_of_one():
    net = _net()
    nn.AdaSumByGradWrapCell(nn.SGD(net.trainable_params(), 0.1))((Tensor(G[1]), Tensor(B[1])))
    np.testing.assert_allclose(net.weight.asnumpy(), 1 - 0.1 * G[1], rtol=1e-6)
    net2 = _net()
    step = nn.AdaSumByDeltaWeightWrapCell(nn.Momentum(net2.trainable_params(), 0.1, 0.9))
    ms.jit(lambda g, b: step((g, b)))(Tensor(G[2]), Tensor(B[2]))
    np.testing.assert_allclose(net2.weight.asnumpy(), 1 - 0.1 * G[2], rtol=1e-6)


def test_checks():
    with pytest.raises(TypeError, match="optimizer"):
        nn.AdaSumByGradWrapCell(_net())

    def body():
        init()
        nn.AdaSumByGradWrapCell(nn.SGD(_net().trainable_params(), 0.1))

    with pytest.raises(RuntimeError, match="power-of-2"):
        simulate(body, 3)
