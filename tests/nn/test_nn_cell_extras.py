"""Cell buffers, state_dict / load_state_dict (keys, order, strictness, hooks, extra state), to / to_empty,
compile / compile_and_run and the bookkeeping methods, as MindSpore 2.10 behaves (keys and messages checked against
it by hand: see the docstrings)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 3)
        self.bn = nn.BatchNorm1d(3)
        self.register_buffer("stat", Tensor(np.ones(3, np.float32)))
        self.register_buffer("tmp", Tensor(np.zeros(2, np.float32)), persistent=False)

    def construct(self, x):
        return self.bn(self.fc(x)) + self.stat


def test_state_dict_keys_and_types_match_mindspore():
    """MindSpore 2.10: ['stat', 'fc.weight', 'fc.bias', 'bn.moving_mean', 'bn.moving_variance', 'bn.gamma',
    'bn.beta'] (own buffers, then each child's entries; non-persistent buffers left out)."""
    net = Net()
    sd = net.state_dict()
    assert list(sd) == ["stat", "fc.weight", "fc.bias", "bn.moving_mean", "bn.moving_variance", "bn.gamma", "bn.beta"]
    assert type(sd["stat"]) is Tensor and isinstance(sd["fc.weight"], ms.Parameter)
    assert [n for n, _ in net.named_buffers()] == ["stat", "tmp"] and len(list(net.buffers())) == 2
    assert [p.name for p in net.get_parameters()] == ["fc.weight", "fc.bias", "bn.moving_mean", "bn.moving_variance",
                                                       "bn.gamma", "bn.beta"]
    assert net.get_buffer("stat") is net.stat and net.get_sub_cell("bn") is net.bn


def test_load_state_dict_copies_values_and_reports_keys():
    src, dst = Net(), Net()
    src.stat = Tensor(np.full(3, 7.0, np.float32))
    assert repr(dst.load_state_dict(src.state_dict())) == "<All keys matched successfully>"
    np.testing.assert_array_equal(dst.fc.weight.asnumpy(), src.fc.weight.asnumpy())
    np.testing.assert_array_equal(dst.stat.asnumpy(), np.full(3, 7.0))
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "stat", "fc.bias"'):
        dst.load_state_dict({"fc.weight": src.fc.weight})
    keys = dst.load_state_dict({"fc.weight": src.fc.weight, "extra": src.stat}, strict=False)
    assert keys.unexpected_keys == ["extra"] and "bn.gamma" in keys.missing_keys
    with pytest.raises(RuntimeError, match="size mismatch for fc.weight"):
        dst.load_state_dict({**src.state_dict(), "fc.weight": Tensor(np.zeros((2, 2), np.float32))})
    with pytest.raises(TypeError):
        dst.load_state_dict([("fc.weight", src.fc.weight)])


def test_buffer_rules():
    net = Net()
    with pytest.raises(KeyError, match="attribute 'fc' already exists"):
        net.register_buffer("fc", Tensor(1.0))
    with pytest.raises(KeyError):
        net.register_buffer("a.b", Tensor(1.0))
    with pytest.raises(TypeError):
        net.register_buffer("c", np.ones(2))
    with pytest.raises(TypeError):
        net.stat = np.ones(3)
    del net.tmp
    assert "tmp" not in dict(net.named_buffers())


def test_hooks_and_extra_state():
    class WithExtra(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")
            self.note = "a"

        def get_extra_state(self):
            return {"note": self.note}

        def set_extra_state(self, state):
            self.note = state["note"]

        def construct(self, x):
            return x * self.w

    seen = []
    cell = WithExtra()
    cell.register_state_dict_pre_hook(lambda c, prefix, keep: seen.append(("pre", prefix)))
    handle = cell.register_state_dict_post_hook(lambda c, sd, prefix, meta: seen.append(("post", list(sd))))
    sd = cell.state_dict()
    assert sd["_extra_state"] == {"note": "a"} and seen == [("pre", ""), ("post", ["w", "_extra_state"])]
    handle.remove()
    other = WithExtra()
    other.register_load_state_dict_post_hook(lambda c, keys: seen.append(("loaded", keys.missing_keys)))
    other.load_state_dict({"w": sd["w"], "_extra_state": {"note": "b"}})
    assert other.note == "b" and seen[-1] == ("loaded", [])


def test_to_and_to_empty():
    net = Net()
    assert net.to(ms.float16) is net
    assert all(p.dtype == ms.float16 for p in net.get_parameters()) and net.stat.dtype == ms.float16
    net.to("cpu", ms.float64)
    assert net.fc.weight.dtype == ms.float64
    with pytest.raises(TypeError, match="floating point"):
        net.to(ms.int32)
    with pytest.raises(RuntimeError):
        net.to("Ascend")
    net.to_empty(device="CPU")
    assert not net.fc.weight.asnumpy().any()


def test_compile_then_graph_calls_reuse_it():
    net = Net()
    x = Tensor(np.random.default_rng(0).standard_normal((4, 2)).astype(np.float32))
    want = net(x).asnumpy()
    net.compile(x)
    assert net.compiled
    np.testing.assert_allclose(net.compile_and_run(x).asnumpy(), want, rtol=1e-6)


def test_bookkeeping():
    net = Net()
    net.update_cell_prefix()
    assert net.bn.param_prefix == "bn" and net.param_prefix == ""
    net.generate_scope()
    assert net.fc.get_scope() == "Default/fc-Dense"
    with pytest.raises(TypeError):
        net.bprop_debug = 1
    net.bprop_debug = True
    assert net.bprop_debug and isinstance(net.exist_names, set)
    assert set(net.parameters_broadcast_dict()) == {p.name for p in net.get_parameters()}
    assert net.set_comm_fusion(2) is net and net._comm_fusion["fc.weight"] == 2
    with pytest.raises(ValueError):
        net.set_comm_fusion(-1)
    with pytest.raises(ValueError):
        net.set_boost("more_bn")
    assert net.set_boost("less_bn").bn.less_bn
