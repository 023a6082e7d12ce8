"""auto_mixed_precision O0-O3 and Cell.to_float against MindSpore 2.10 outputs (tools/amp_oracle.py)."""
import os
import sys

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, amp, nn, ops

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))
import amp_oracle  # noqa: E402  (the oracle's network, run here with sprout)

FIX = np.load(os.path.join(HERE, "fixtures", "amp_mindspore.npz"))


@pytest.mark.parametrize("level", ["O0", "O1", "O2", "O3"])
@pytest.mark.parametrize("train", [False, True])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_levels_match_mindspore(level, train, mode):
    ms.set_context(mode=mode)
    net = amp.auto_mixed_precision(amp_oracle.make_net(), level)
    net.set_train(train)
    y = net(Tensor(FIX["x"]))
    assert y.dtype == ms.float32
    want = FIX[f"{level}_{'train' if train else 'eval'}"]
    if level in ("O1", "O2"):  # float16 arithmetic identical to MindSpore's CPU kernels
        np.testing.assert_array_equal(y.asnumpy(), want)
    elif level == "O3":  # MindSpore's BatchNorm kernel computes float16 inputs in float32 inside
        np.testing.assert_allclose(y.asnumpy(), want, atol=2e-3)
    else:
        np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("level", ["O0", "O2", "O3"])
def test_build_train_network_matches_mindspore(level):
    net = amp_oracle.make_net()
    kwargs = {"loss_scale_manager": amp.FixedLossScaleManager(1024.0, False)} if level == "O2" else {}
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9, loss_scale=1024.0 if level == "O2" else 1.0)
    step = amp.build_train_network(net, opt, nn.MSELoss(), level=level, **kwargs)
    target = Tensor(np.linspace(0, 1, 10, dtype=np.float32).reshape(2, 5))
    losses = [float(step(Tensor(FIX["x"]), target).asnumpy()) for _ in range(3)]
    tol = 1e-6 if level != "O3" else 2e-4
    np.testing.assert_allclose(losses, FIX[f"train_{level}_losses"], rtol=tol, atol=tol)
    np.testing.assert_allclose(net.fc.weight.asnumpy(), FIX[f"train_{level}_fc_weight"],
                               atol=1e-6 if level != "O3" else 5e-5)


class _Mixed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p = ms.Parameter(Tensor(np.ones(3, np.float32)), name="p")

    def construct(self, x, d, n):
        a = x + self.p
        b = ops.cast(x, ms.float32)
        c = d * 2
        e = n + 1
        f = ops.ones(3, ms.float32) + 0
        g = x.astype(ms.float32) * 1
        h = ops.cast(x, ms.float64)
        return a, b, c, e, f, g, h


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_to_float_casts_every_op_input_as_pynative(mode):
    # MindSpore 2.10 PyNative: each op's float inputs become float16, explicit casts keep their dtype
    ms.set_context(mode=mode)
    net = _Mixed().to_float(ms.float16)
    out = net(Tensor(np.ones(3, np.float32)), Tensor(np.ones(3, np.float64)), Tensor(np.ones(3, np.int32)))
    assert [o.dtype for o in out] == [ms.float16, ms.float32, ms.float16, ms.int32, ms.float16, ms.float16,
                                      ms.float64]
    assert net.p.dtype == ms.float32  # parameters are stored as they were


def test_to_float_nested_override_and_jit_cache():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = nn.Dense(3, 2)
            self.bn = nn.BatchNorm1d(2)

        def construct(self, x):
            y = self.inner(x)
            return y, self.bn(y), y * 2

    o = Outer()
    o.to_float(ms.float16)
    o.bn.to_float(ms.float32)
    x = Tensor(np.ones((4, 3), np.float32))
    assert [t.dtype for t in o(x)] == [ms.float16, ms.float32, ms.float16]

    @ms.jit
    def f(a):
        return a * 2 + 1

    class Wrap(nn.Cell):
        def construct(self, a):
            return f(a)

    w = Wrap()
    assert f(x).dtype == ms.float32
    assert w.to_float(ms.float16)(x).dtype == ms.float16  # the policy is part of the compile key
    assert f(x).dtype == ms.float32
    assert f.stats["compiles"] == 2


def test_float16_overflow_is_real():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros").to_float(ms.float16)
    with np.errstate(over="ignore"):
        y = net(Tensor(np.array([[40000.0, 40000.0]], np.float32)))
    assert y.dtype == ms.float16 and np.isinf(y.asnumpy()).all()


def test_o2_keeps_batchnorm_float32_and_tree():
    net = amp_oracle.make_net()
    bn = net.bn
    wrapped = amp.auto_mixed_precision(net, "O2")
    assert net.bn is bn and wrapped._amp_level == "O2"
    seen = {}
    bn.register_forward_hook(lambda cell, args, out: seen.update(inp=args[0].dtype, out=out.dtype))
    wrapped(Tensor(FIX["x"]))
    assert seen == {"inp": ms.float16, "out": ms.float16}
    assert bn.gamma.dtype == ms.float32


def test_errors():
    with pytest.raises(TypeError):
        amp.auto_mixed_precision(lambda x: x, "O2")
    with pytest.raises(ValueError):
        amp.auto_mixed_precision(nn.Dense(2, 2), "O4")
    with pytest.raises(NotImplementedError, match="auto"):
        amp.auto_mixed_precision(nn.Dense(2, 2), "auto")
    with pytest.raises(ValueError):
        nn.Dense(2, 2).to_float(ms.int32)
    with pytest.raises(ValueError):
        amp.custom_mixed_precision(nn.Dense(2, 2))
    with pytest.raises(ValueError, match="Unsupported arg"):
        amp.build_train_network(nn.Dense(2, 2), nn.SGD(nn.Dense(2, 2).trainable_params()), level="O2", bad=1)
    assert nn.BatchNorm2d in amp.get_black_list() and nn.Dense in amp.get_white_list()


def test_custom_mixed_precision_black_list():
    net = amp.custom_mixed_precision(amp_oracle.make_net(), black_list=amp.get_black_list())
    y = net(Tensor(FIX["x"]))
    np.testing.assert_array_equal(y.asnumpy(), FIX["O2_eval"])
