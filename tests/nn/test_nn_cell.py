"""nn.Cell: registration and naming (checked against MindSpore 2.10), modes, repr, hooks and custom bprop."""
import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, nn, ops


def _t(values):
    return Tensor(np.array(values, np.float32))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 4)
        self.seq = nn.SequentialCell([nn.Dense(4, 2), nn.ReLU(), nn.Dense(2, 2)])
        self.bn = nn.BatchNorm1d(2)
        self.cl = nn.CellList([nn.Dense(2, 2)])
        self.cd = nn.CellDict({"a": nn.Dense(2, 2)})
        self.w = Parameter(_t([1.0, 1.0]))
        self.w2 = Parameter(_t([1.0, 1.0]), name="custom")

    def construct(self, x):
        return x


# what MindSpore 2.10 prints for Net().get_parameters() / cells_and_names()
MS_PARAM_NAMES = ["w", "custom", "fc1.weight", "fc1.bias", "seq.0.weight", "seq.0.bias", "seq.2.weight", "seq.2.bias",
                  "bn.moving_mean", "bn.moving_variance", "bn.gamma", "bn.beta", "cl.0.weight", "cl.0.bias",
                  "cd.a.weight", "cd.a.bias"]
MS_CELL_NAMES = ["", "fc1", "seq", "seq.0", "seq.1", "seq.2", "bn", "cl", "cl.0", "cd", "cd.a"]
MS_REPR = """Net(
  (fc1): Dense(input_channels=3, output_channels=4, has_bias=True)
  (seq): SequentialCell(
    (0): Dense(input_channels=4, output_channels=2, has_bias=True)
    (1): ReLU()
    (2): Dense(input_channels=2, output_channels=2, has_bias=True)
  )
  (bn): BatchNorm1d(num_features=2, eps=1e-05, momentum=0.9, gamma=Parameter (name=bn.gamma, shape=(2,), \
dtype=Float32, requires_grad=True), beta=Parameter (name=bn.beta, shape=(2,), dtype=Float32, requires_grad=True), \
moving_mean=Parameter (name=bn.moving_mean, shape=(2,), dtype=Float32, requires_grad=False), \
moving_variance=Parameter (name=bn.moving_variance, shape=(2,), dtype=Float32, requires_grad=False))
  (cl): CellList(
    (0): Dense(input_channels=2, output_channels=2, has_bias=True)
  )
  (cd): CellDict(
    (a): Dense(input_channels=2, output_channels=2, has_bias=True)
  )
)"""


def test_parameter_names_match_mindspore():
    net = Net()
    assert [p.name for p in net.get_parameters()] == MS_PARAM_NAMES
    paths = [n for n, _ in net.parameters_and_names()]
    assert paths == [n if n != "custom" else "w2" for n in MS_PARAM_NAMES]
    assert [n for n, _ in net.cells_and_names()] == MS_CELL_NAMES
    assert list(net.name_cells()) == ["fc1", "seq", "bn", "cl", "cd"]
    assert list(net.parameters_dict()) == MS_PARAM_NAMES
    assert [p.name for p in net.trainable_params()] == [n for n in MS_PARAM_NAMES if "moving" not in n]
    assert [p.name for p in net.untrainable_params()] == ["bn.moving_mean", "bn.moving_variance"]
    assert repr(net) == MS_REPR


def test_nested_names_and_auto_prefix():
    class Sub(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w2 = Parameter(_t([1.0, 1.0]), name="custom")
            self.d = nn.Dense(2, 2)

    class Top(nn.Cell):
        def __init__(self):
            super().__init__()
            self.sub = Sub()

    assert [p.name for p in Sub().get_parameters()] == ["custom", "d.weight", "d.bias"]
    top = Top()
    assert [p.name for p in top.get_parameters()] == ["sub.w2", "sub.d.weight", "sub.d.bias"]
    wl = nn.WithLossCell(top, nn.MSELoss())  # auto_prefix=False: names unchanged, paths prefixed
    assert [p.name for p in wl.trainable_params()] == ["sub.w2", "sub.d.weight", "sub.d.bias"]
    assert [n for n, _ in wl.parameters_and_names()] == ["_backbone.sub.w2", "_backbone.sub.d.weight",
                                                          "_backbone.sub.d.bias"]
    assert isinstance(top.sub.d, nn.Dense) and top.sub.d.weight is top.sub.d._params["weight"]


def test_attribute_rules():
    net = nn.Dense(2, 2)
    old = net.weight
    net.weight = _t([[1.0, 2.0], [3.0, 4.0]])  # a Tensor assigned to a Parameter attribute sets its data
    assert net.weight is old and net.weight.asnumpy()[1, 0] == 3.0
    with pytest.raises(TypeError):
        net.weight = "oops"
    net.bias = None
    assert net._params["bias"] is None and [p.name for p in net.get_parameters()] == ["weight"]
    seq = nn.SequentialCell(nn.Dense(2, 2))
    with pytest.raises(TypeError):
        seq.insert_child_to_cell("x", 3)
    with pytest.raises(KeyError):
        net.insert_param_to_cell("a.b", Parameter(_t([1.0])))
    shared = Parameter(_t([1.0]), name="s")

    class Two(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = shared
            self.b = shared

    assert len(list(Two().get_parameters())) == 1  # a parameter reached twice is listed once


def test_containers():
    seq = nn.SequentialCell(nn.Dense(3, 2, weight_init="ones", bias_init="zeros"), nn.ReLU())
    x = _t([[1.0, -2.0, 0.5]])
    np.testing.assert_allclose(seq(x).asnumpy(), [[0.0, 0.0]])
    seq.append(nn.Dense(2, 1, weight_init="ones", bias_init=1.0))
    assert len(seq) == 3 and [p.name for p in seq.get_parameters()][-2:] == ["2.weight", "2.bias"]
    np.testing.assert_allclose(seq(x).asnumpy(), [[1.0]])
    assert isinstance(seq[1], nn.ReLU) and len(seq[:2]) == 2
    del seq[0]
    assert [p.name for p in seq.get_parameters()] == ["1.weight", "1.bias"]

    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 2)])
            self.layers.append(nn.Dense(2, 1))
            self.heads = nn.CellDict({"x": nn.Dense(1, 1)})
            self.heads["y"] = nn.Dense(1, 1)

    h = Holder()
    assert [p.name for p in h.get_parameters()] == [
        "layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias", "layers.2.weight", "layers.2.bias",
        "heads.x.weight", "heads.x.bias", "heads.y.weight", "heads.y.bias"]
    assert len(h.layers) == 3 and list(h.heads.keys()) == ["x", "y"] and "y" in h.heads
    with pytest.raises(TypeError):
        nn.CellDict({"s": nn.SequentialCell()})


def test_set_train_and_flags():
    net = Net()
    assert net.training is False and net.bn.training is False  # MindSpore cells start in eval mode
    assert net.set_train() is net
    assert all(c.training for _, c in net.cells_and_names())
    net.set_train(False)
    assert not any(c.training for _, c in net.cells_and_names())
    assert net.set_grad().requires_grad is True
    net.add_flags_recursive(sink_mode=True)
    assert net.fc1.sink_mode is True and net.get_flags()["sink_mode"] is True
    net.set_jit_config("cfg")
    assert net._jit_config == "cfg"
    seen = []
    net.apply(lambda c: seen.append(type(c).__name__))
    assert seen[-1] == "Net" and "Dense" in seen


class Mul3(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(_t([2.0, 3.0]), name="w")

    def construct(self, x, y):
        return x * y * self.w


X, Y = [1.0, 2.0], [3.0, 4.0]


def test_forward_hooks_and_removal():
    calls = []
    net = Mul3()
    h1 = net.register_forward_pre_hook(lambda cell, inputs: calls.append(("pre", len(inputs))))
    h2 = net.register_forward_hook(lambda cell, inputs, out: out + 1)
    np.testing.assert_allclose(net(_t(X), _t(Y)).asnumpy(), [7.0, 25.0])  # MindSpore: [7. 25.]
    h1.remove()
    h2.remove()
    h2.remove()  # idempotent
    np.testing.assert_allclose(net(_t(X), _t(Y)).asnumpy(), [6.0, 24.0])
    assert calls == [("pre", 2)]
    net.register_forward_pre_hook(lambda cell, inputs: (inputs[0] * 0, inputs[1]))
    np.testing.assert_allclose(net(_t(X), _t(Y)).asnumpy(), [0.0, 0.0])
    net2 = Mul3()
    net2.register_forward_pre_hook(lambda cell, args, kwargs: ((args[0] * 2, args[1]), kwargs), with_kwargs=True)
    np.testing.assert_allclose(net2(_t(X), _t(Y)).asnumpy(), [12.0, 48.0])
    assert net._plain is False and Mul3()._plain is True


def test_forward_hook_always_call_runs_when_the_call_raises():
    class Bad(nn.Cell):
        def construct(self, x):
            raise ValueError("boom")

    seen = []
    net = Bad()
    net.register_forward_hook(lambda cell, args, out: seen.append(("always", out)), always_call=True)
    net.register_forward_hook(lambda cell, args, out: seen.append(("plain", out)))
    with pytest.raises(ValueError, match="boom"):
        net(_t(X))
    assert seen == [("always", None)]  # MindSpore 2.10: [('h1', None)]

    def failing(cell, args, out):
        seen.append("failing")
        raise KeyError("hook")

    ok = Mul3()
    ok.register_forward_hook(failing, always_call=True)  # it ran once: an error of its own is not run again
    seen.clear()
    with pytest.raises(KeyError):
        ok(_t(X), _t(Y))
    assert seen == ["failing"]
    bad = Bad()
    bad.register_forward_hook(failing, always_call=True)
    with pytest.warns(UserWarning, match="always_call=True"), pytest.raises(ValueError, match="boom"):
        bad(_t(X))


def test_backward_hooks_see_and_replace_gradients():
    log = []

    def bhook(cell, grad_in, grad_out):
        log.append(("b", [None if g is None else g.asnumpy().tolist() for g in grad_in],
                    [g.asnumpy().tolist() for g in grad_out]))

    net = Mul3()
    net.register_backward_pre_hook(lambda cell, grad_out: log.append(("pre", grad_out[0].asnumpy().tolist())))
    handle = net.register_backward_hook(bhook)
    gx, gy = ops.grad(net, grad_position=(0, 1))(_t(X), _t(Y))
    np.testing.assert_allclose(gx.asnumpy(), [6.0, 12.0])
    np.testing.assert_allclose(gy.asnumpy(), [2.0, 6.0])
    # MindSpore 2.10: pre hook with (ones,), then hook with grad_input ([6,12],[2,6]) and grad_output (ones,)
    assert log == [("pre", [1.0, 1.0]), ("b", [[6.0, 12.0], [2.0, 6.0]], [[1.0, 1.0]])]
    log.clear()
    (gw,) = ops.grad(net, grad_position=None, weights=net.trainable_params())(_t(X), _t(Y))
    np.testing.assert_allclose(gw.asnumpy(), [3.0, 8.0])
    assert log == [("pre", [1.0, 1.0]), ("b", [None], [[1.0, 1.0]])]  # no input differentiated: (None,)
    handle.remove()
    net.register_backward_hook(lambda cell, gi, go: (gi[0] * 10, gi[1]))
    gx, gy = ops.grad(net, grad_position=(0, 1))(_t(X), _t(Y))
    np.testing.assert_allclose(gx.asnumpy(), [60.0, 120.0])
    np.testing.assert_allclose(gy.asnumpy(), [2.0, 6.0])



def test_backward_hooks_wrap_the_forward_hooks_output():
    # MindSpore 2.10 (docs' hook tutorial, all four hooks on one ReLU): the forward hook doubles the output; the
    # backward hooks see the gradient of the doubled output (1), grad_input is the cell input's gradient (2)
    log = []
    relu = nn.ReLU()
    relu.register_forward_hook(lambda cell, inputs, out: out + out)
    relu.register_backward_pre_hook(lambda cell, go: log.append(("pre", go[0].asnumpy().tolist())))
    relu.register_backward_hook(lambda cell, gi, go: log.append(("b", gi[0].asnumpy().tolist(),
                                                                  go[0].asnumpy().tolist())))
    gx, gy = ops.grad(lambda x, y: relu(x + y), grad_position=(0, 1))(_t([1.0]), _t([1.0]))
    np.testing.assert_allclose(gx.asnumpy(), [2.0])
    np.testing.assert_allclose(gy.asnumpy(), [2.0])
    assert log == [("pre", [1.0]), ("b", [2.0], [1.0])]

class CustomBprop(Mul3):
    def bprop(self, x, y, out, dout):
        self.seen = (out.asnumpy().tolist(), dout.asnumpy().tolist())
        return dout * 100, y * 0 + 7


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = CustomBprop()

    def construct(self, x, y):
        return self.net(x * 2, y) * 3


def test_custom_bprop_matches_mindspore():
    net = CustomBprop()
    gx, gy = ops.grad(net, grad_position=(0, 1))(_t(X), _t(Y))
    np.testing.assert_allclose(gx.asnumpy(), [100.0, 100.0])
    np.testing.assert_allclose(gy.asnumpy(), [7.0, 7.0])
    assert net.seen == ([6.0, 24.0], [1.0, 1.0])
    outer = Outer()
    gx, gy = ops.GradOperation(get_all=True)(outer)(_t(X), _t(Y))
    np.testing.assert_allclose(gx.asnumpy(), [600.0, 600.0])  # MindSpore: [600, 600], [7, 7]
    np.testing.assert_allclose(gy.asnumpy(), [7.0, 7.0])
    assert outer.net.seen == ([12.0, 48.0], [3.0, 3.0])
    # parameters inside a custom-bprop cell get zero gradients, as in MindSpore
    (gw,) = ops.grad(net, grad_position=None, weights=net.trainable_params())(_t(X), _t(Y))
    np.testing.assert_allclose(gw.asnumpy(), [0.0, 0.0])
    np.testing.assert_allclose(net(_t(X), _t(Y)).asnumpy(), [6.0, 24.0])  # forward unchanged off the tape


def test_bprop_returning_wrong_count_is_an_error():
    class Bad(Mul3):
        def bprop(self, x, y, out, dout):
            return (dout,)

    with pytest.raises(RuntimeError, match="one gradient per input"):  # MindSpore: RuntimeError
        ops.grad(Bad(), grad_position=(0, 1))(_t(X), _t(Y))


def test_graph_mode_runs_construct_compiled():
    net = nn.SequentialCell(nn.Dense(3, 2, weight_init="ones", bias_init="zeros"), nn.ReLU())
    x = _t([[1.0, 2.0, -4.0], [1.0, 1.0, 1.0]])
    eager = net(x).asnumpy()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        from sprout.jit import graph_mode_entry

        np.testing.assert_allclose(net(x).asnumpy(), eager)
        assert graph_mode_entry(net).stats["compiles"] >= 1
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(eager, [[0.0, 0.0], [3.0, 3.0]])


def test_hooks_are_refused_in_graph_mode():
    net = nn.Dense(3, 2)
    handle = net.register_forward_hook(lambda cell, inputs, out: out)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        with pytest.raises(RuntimeError, match="PyNative"):
            net(_t([[1.0, 2.0, 3.0]]))
        handle.remove()
        assert net(_t([[1.0, 2.0, 3.0]])).shape == (1, 2)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_recompute_mark_is_checked_as_mindspore_checks_it():
    net = nn.Dense(2, 2)
    assert net.recompute(mp_comm_recompute=False, recompute_slice_activation=True) is net
    # MindSpore 2.10's errors
    with pytest.raises(ValueError, match="keyword 'foo' is not recognized"):
        net.recompute(foo=1)
    with pytest.raises(TypeError, match="'mp_comm_recompute' must be <class 'bool'>"):
        net.recompute(mp_comm_recompute=1)
    with pytest.raises(ValueError, match="context_fn is only supported when use_reentrant=False"):
        net.recompute(context_fn=lambda: None)
    net.recompute(use_reentrant=False, context_fn=lambda: None)
