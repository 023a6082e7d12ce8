"""The seeds' side-effect rules, print at run time, and warnings for dropped side effects."""
import warnings

import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops
from sprout.core.errors import JitWarning

from .helpers import T

value = 5
counter = 0


def test_seed_assigning_a_name_called_like_a_global_does_not_change_it():
    @ms.jit
    def func(x, y):
        out = x + y
        value = 1  # noqa: F841
        return out
    func(T(1.0, 2.0), T(3.0, 4.0))
    assert value == 5


def test_global_statement_write_is_dropped_with_one_warning():
    @ms.jit
    def func(x):
        global counter
        counter = counter + 1
        return x * counter
    with pytest.warns(JitWarning, match="the global 'counter' is assigned inside a jitted function"):
        out = func(T(2.0))
    assert float(out.asnumpy()) == 2.0  # the local copy is used inside
    assert counter == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        func(T(2.0))  # cached: no second warning


def test_seed_cell_attribute_is_baked_in_at_compile_time():
    class Func(nn.Cell):
        def __init__(self):
            super().__init__()
            self.value = 5

        @ms.jit
        def construct(self, x):
            out = self.value + x
            return out

    func = Func()
    x = T(1.0, 2.0, 3.0)
    np.testing.assert_allclose(func(x).asnumpy(), [6, 7, 8])
    func.value = 1
    np.testing.assert_allclose(func(x).asnumpy(), [6, 7, 8])


def test_print_of_tensors_happens_at_run_time(capsys):
    @ms.jit
    def f(x):
        y = x * 2
        print("y:", y)
        print("pair", (x, 1))
        return y

    f(T(1.0, 2.0))
    first = capsys.readouterr().out
    f(T(3.0, 4.0))  # cached graph: still prints, with the new values
    second = capsys.readouterr().out
    assert first.splitlines()[0] == "y: " + str(T(2.0, 4.0))
    assert second.splitlines()[0] == "y: " + str(T(6.0, 8.0))
    assert second.splitlines()[1].startswith("pair (Tensor(shape=[2]")
    assert "Print(" in ms.jit(f).get_ir(T(1.0, 2.0))


def test_print_eagerly_is_plain_print(capsys):
    from sprout.capture.ast import convert

    def f(x):
        print("v", x)
        return x
    convert(f)(T(1.0))
    assert capsys.readouterr().out == "v " + str(T(1.0)) + "\n"


def test_mutating_a_list_argument_warns_once():
    @ms.jit
    def f(x, acc):
        acc.append(x)
        return x * 2

    acc = []
    with pytest.warns(JitWarning, match="the argument 'acc' is mutated inside a jitted function"):
        f(T(1.0), acc)
    assert acc == []  # the caller's list is not changed


def test_attribute_write_does_not_leak_symbolic_tensors():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.last = T(0.0)

        def construct(self, x):
            self.last = x * 2
            return self.last + 1

    net = Net()
    out = ms.jit(net)(T(1.0))  # the jit collects the write and assigns the computed value after the call
    assert float(out.asnumpy()) == 3.0
    assert type(net.last) is ms.Tensor and float(net.last.asnumpy()) == 2.0


def test_attribute_write_outside_the_jit_collector_warns_and_does_not_leak():
    from sprout.capture.ast import convert
    from sprout.capture.trace import trace

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.last = T(0.0)

        def construct(self, x):
            self.last = x * 2
            return self.last + 1

    net = Net()
    with pytest.warns(JitWarning, match="Net.last is assigned a tensor"):
        trace(convert(Net.construct), (net, T(1.0)), {}, name="construct")
    assert type(net.last) is ms.Tensor and float(net.last.asnumpy()) == 0.0


def test_constant_attribute_write_happens_at_compile_time():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.calls = 0

        def construct(self, x):
            self.calls += 1
            return x + self.calls

    net = Net()
    jitted = ms.jit(net)
    assert float(jitted(T(1.0)).asnumpy()) == 2.0
    assert float(jitted(T(1.0)).asnumpy()) == 2.0  # the cached graph baked calls == 1
    assert net.calls == 1


def test_lax_runs_unsupported_calls_as_python_and_strict_refuses():
    def f(x):
        y = np.sin(x)  # a NumPy function on a tensor: Python between graph segments under LAX
        return ops.exp(ms.Tensor(y)) if False else y * 2

    x = T(0.5, 1.0)
    lax = ms.jit(f)
    out = lax(x)
    assert isinstance(out, np.ndarray)  # what eager returns (MindSpore's JIT Fallback too)
    np.testing.assert_allclose(out, np.sin([0.5, 1.0]) * 2, rtol=1e-6)
    np.testing.assert_allclose(lax(T(0.0, 2.0)), np.sin([0.0, 2.0]) * 2, rtol=1e-6)
    assert lax.stats["host_fallbacks"] == 1
    from sprout.core.errors import JitTypeError
    with pytest.raises(JitTypeError, match="jit_syntax_level=STRICT"):
        ms.jit(f, fullgraph=True)(x)
