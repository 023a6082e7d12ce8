"""The JIT Fallback list of issue 9, written once for any framework module: ``make_cases(ms)`` works with
``sprout`` (the tests) and with ``mindspore`` (``tools/ms_fallback_fixtures.py`` records MindSpore's results).

Each case: ``Case(fn, args, host, strict, grad)``. ``host``: sprout runs it as host segments under LAX
(False: it compiles into one graph); ``strict``: the error type name STRICT raises (None: STRICT compiles it
too); ``grad``: also compare gradients w.r.t. the float tensor arguments."""
from __future__ import annotations

from collections import namedtuple

import numpy as np

Case = namedtuple("Case", "fn args host strict grad", defaults=(True, "JitSyntaxError", False))


def make_cases(ms) -> dict:
    Tensor = ms.Tensor

    def t(*v, dtype=np.float32):
        return Tensor(np.array(v, dtype))

    cases: dict = {}

    def case(*args, **kw):
        def deco(fn):
            cases[fn.__name__] = Case(fn, args, **kw)
            return fn
        return deco

    # no gradient comparison: the gradient would pass through NumPy (an error in sprout, eager and jit alike;
    # tests/fuzz/test_regressions_capture.py)
    @case(t(1.0, 2.0, 3.0), strict="JitAttributeError")
    def asnumpy_in_graph(x):
        y = x * 2
        a = y.asnumpy()
        return Tensor(a + 1) * x

    @case(t(1.0, 2.0, 3.0), host=False, strict=None, grad=True)  # a variable scalar: one graph in every level
    def int_of_tensor(x):
        return x * int(x.sum())

    @case(t(1.0, 2.0, 3.0), host=False, strict=None, grad=True)  # a variable scalar: one graph in every level
    def float_of_tensor(x):
        return x * float(x.max())

    @case(t(1.0, -2.0, 3.0), host=False, strict=None, grad=True)  # a variable scalar: one graph in every level
    def bool_of_tensor(x):
        if bool(x.sum() > 0):
            return x + 1
        return x - 1

    @case(t(1.0, 2.0, 3.0), strict="JitValueError")
    def str_of_tensor(x):
        return x + 1, str(x.sum())

    @case(t(1.0, 2.0, 3.0), strict="JitValueError")
    def str_of_a_list_of_tensors(x):
        y = x * 2
        return y, str([y, 1]), repr((y.sum(),))

    @case(t(1.0, 2.0, 3.0), strict="JitValueError")
    def fstring_of_tensor(x):
        y = x + 1
        return y, f"sum is {y.sum()}"

    @case(t(1.0, 2.0, 3.0), strict="JitAttributeError")
    def print_asnumpy(x):
        y = x * 3
        print("y is", y.asnumpy(), "max", y.max().asnumpy())
        return y

    @case(t(0.5, 1.0), strict="JitTypeError")
    def numpy_on_tensor(x):
        return np.sin(x + 1) * 2

    @case(t(0.5, 1.0, 4.0), grad=True, strict="JitAttributeError")
    def numpy_on_asnumpy(x):
        m = np.max(np.abs(x.asnumpy()))
        return x / float(m)

    @case(t(1.0, 2.0), host=False, strict=None)
    def is_none_checks(x):
        y = None
        out = x + 1 if y is None else x
        return out if x is not None else None

    @case(t(1.0, 2.0), t(3.0, 4.0), strict="JitValueError")
    def is_between_arguments(x, y):
        if x is y:
            return x + 1
        return x - y

    @case(t(3.0), strict="JitValueError")
    def is_on_a_counter(x):
        a, i, three, two = 0, 0, 3, 2
        while i < x:  # a and i become traced values; eager's ``a is 3`` compares (cached) Python ints
            i = i + 1
            a = a + 1
        return a is three, a is not two

    @case(t(1.0, 2.0), grad=True, strict="JitTypeError")
    def branch_results_differ_in_shape(x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x.sum()
        return y

    @case(t(1.0, 2.0), strict="JitTypeError")
    def branch_results_differ_in_kind(x):
        if x.sum() > 0:
            y = x
        else:
            y = (x, x)
        return y

    @case(t(1.0), t(10.0), grad=True, host=False, strict=None)
    def while_shape1_tensors(x, y):
        i = 0
        while x < y and i < 5:
            x = x * 2
            i = i + 1
        return x

    @case(t(1.0), t(10.0), strict="JitTypeError")
    def while_condition_changes_shape(x, y):
        c = x < y
        while c:
            x = x * 2
            c = x.sum() < y.sum()
        return x

    @case(t(1.0, 2.0), ms.mutable(3), strict="JitTypeError")
    def range_of_mutable(x, n):
        for i in range(n):
            x = x + i
        return x

    def halve_until(x, n):
        if n == 0:
            return x
        return halve_until(x * 0.5, n - 1)

    @case(t(8.0, 4.0), grad=True, host=False, strict=None)
    def recursion_constant_depth(x):
        return halve_until(x, 3)

    def double_until_big(x):
        if x.sum() > 50:
            return x
        return double_until_big(x * 2)

    @case(t(1.0, 2.0), grad=True, strict="RecursionError")
    def recursion_tensor_depth(x):
        return double_until_big(x)

    @case(t(1.0, 2.0, 3.0), host=False, strict=None)
    def int_and_tensor(x):
        return 6 & (x > 1).astype(ms.int32), 3 | Tensor(np.array([4, 8], np.int32))

    @case(t(1.3, 2.6, -3.5), host=False, strict=None)
    def round_of_tensor(x):
        return round(x), round(x.sum())

    @case(t(1.0, 2.0), ms.mutable([1, 2, 3]), host=False, strict=None)
    def len_of_mutable(x, seq):
        return x * len(seq)

    @case(ms.mutable(2), ms.mutable(3), host=False, strict=None)
    def mutable_int_result(a, b):
        return a * b + 1

    @case(ms.mutable(2.5), ms.mutable(0.5), host=False, strict=None)
    def mutable_float_result(a, b):
        return a / b - 1, a > b

    return cases


def seed_002_run(ms):
    """Seed 002's example: ``run(x)`` builds a Network (Parameters and all) and calls it."""
    nn = ms.nn

    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.flatten = nn.Flatten()
            self.dense_relu_sequential = nn.SequentialCell(nn.Dense(28 * 28, 512), nn.ReLU(), nn.Dense(512, 512),
                                                           nn.ReLU(), nn.Dense(512, 10))

        def construct(self, x):
            x = self.flatten(x)
            return self.dense_relu_sequential(x)

    def run(x):
        model = Network()
        return model(x)

    return run
