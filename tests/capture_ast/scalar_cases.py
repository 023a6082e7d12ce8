"""Variable scalars (``float(t)``, ``int(t)``, ``bool(t)``, ``t.item()``, ``t.tolist()`` of a traced tensor), written
once for any framework module: ``make_cases(ms)`` works with ``sprout`` (tests/capture_ast/test_variable_scalars.py)
and with ``mindspore`` (``tools/ms_oracle_variable_scalars.py`` records MindSpore 2.10's graph-mode results under
jit_syntax_level=STRICT into data/ms_variable_scalars.json).

Each case: ``Case(fn, args, sprout, grad)``. ``sprout``: "graph" (one graph under STRICT), or the name of the
error sprout's STRICT raises (LAX then runs it as host segments with eager's result); ``grad``: also compare the
gradient w.r.t. the first argument."""
from __future__ import annotations

from collections import namedtuple

import numpy as np

Case = namedtuple("Case", "fn args sprout grad", defaults=("graph", False))


def make_cases(ms) -> dict:
    Tensor, ops = ms.Tensor, ms.ops

    def t(*v, dtype=np.float32):
        return Tensor(np.array(v, dtype))

    x3 = t(1.0, 2.0, 3.0)
    cases: dict = {}

    def case(*args, **kw):
        def deco(fn):
            cases[fn.__name__] = Case(fn, args or (x3,), **kw)
            return fn
        return deco

    # ---- what compiles: the variable scalar is a graph value ---------------------------------------------
    @case(grad=True)
    def scale_by_float(x):
        s = float(x.sum())
        return x * s

    @case(t(1.0, -2.0, 3.0), grad=True)
    def if_on_item(x):
        if x.sum().item() > 0:
            return x + 1
        return x - 1

    @case(t(-1.0, -2.0, 0.5), grad=True)
    def if_on_item_else(x):
        if x.sum().item() > 0:
            return x + 1
        return x - 1

    @case(grad=True)
    def if_on_float(x):
        if float(x.sum()) > 7:
            return x * 2
        return x * 3

    @case(t(1.0, -2.0, 3.0), grad=True)
    def if_on_bool(x):
        if bool(x.sum() > 2):
            return x + 1
        return x - 1

    @case(grad=True)
    def while_on_float(x):
        f = float(x.sum())
        while f < 20:
            f = f * 2
        return x * f

    @case(grad=True)
    def ternary_and_not(x):
        b = bool(x[0] > 0)
        y = x * 2 if not b else x + 1
        return y, not b

    @case()
    def returns_python_scalars(x):
        return float(x.sum()), int(x.sum()), bool(x.sum()), x.sum().item(), x[1:2].item()

    @case()
    def tolist_of_tensors(x):
        return x.sum().tolist(), x[:1].tolist(), x.tolist()

    @case(t(3, 4, dtype=np.int32))
    def item_and_tolist_of_ints(x):
        return x[0].item(), x.tolist()

    @case(t(True, False, dtype=np.bool_))
    def item_and_tolist_of_bools(x):
        return x[0].item(), x.tolist()

    @case()
    def float_arithmetic(x):
        a = float(x.sum())
        return a + 1.5, a / 4, a * 2, a - 0.1, a * 0.1

    @case(t(-7, 2, dtype=np.int32))
    def int_arithmetic(x):
        a, b = int(x[0]), int(x[1])
        return a // b, a % b, a * 3, a + 1, a / b, -a // b

    @case(t(-7.5, 2.0))
    def float_floor_mod_pow(x):
        a, b = float(x[0]), float(x[1])
        return a // b, a % b, a ** b

    @case(t(-2.7, 2.7))
    def int_truncates(x):
        return int(x[0]), int(x[1]), int(x[0] * 2)

    @case(t(0.0, 0.5))
    def bool_of_numbers(x):
        return bool(x[0]), bool(x[1]), bool(x[0]) + 1

    @case(t(0.1, 16777217.0, dtype=np.float64))
    def float32_precision(x):
        return float(x[0]), int(x[1]), float(x[1])

    @case(t(3, 16777217, dtype=np.int64))
    def int64_precision(x):
        return float(x[0]), int(x[1]), float(x[1])

    @case()
    def comparisons(x):
        return float(x.sum()) > 2.0, int(x.sum()) == 6, bool(x.sum()) and bool(x[0])

    @case(grad=True)
    def scalar_meets_tensor(x):
        a = float(x.sum())
        return a + x, x - a, a / (x + 1), x.sum() + a

    @case(t(1.0, 2.0, dtype=np.float16))
    def weak_scalar_float16(x):
        return x * float(x.sum()), x + int(x.sum()), float(x.sum()) + x.sum()

    @case(t(1.0, 2.0, dtype=np.float64))
    def weak_scalar_float64(x):
        return x * float(x.sum()), x + int(x.sum())

    @case(t(2, 3, dtype=np.int32))
    def weak_scalar_int32(x):
        return x * float(x.sum()), x * int(x.sum()), int(x.sum()) * 2

    @case(t(True, False, dtype=np.bool_))
    def weak_scalar_bool(x):
        return x * float(x.sum()), x + int(x.sum())

    @case()
    def builtins_on_scalars(x):
        a = float(x.sum())
        return max(a, 1.0), min(int(x.sum()), 2), float(int(x.sum())), Tensor(a)

    @case()
    def index_a_tensor(x):
        return x[int(x[0])]

    @case(grad=True)
    def ops_taking_scalars(x):
        a = float(x.sum())
        return ops.fill(ms.float32, (2,), a), ops.clamp(x, min=a / 4.0), ops.pow(x, a / 6.0)

    @case()
    def scalar_to_tensor(x):
        return ops.scalar_to_tensor(float(x.sum()))

    @case(grad=True)
    def from_a_helper(x):
        def total(v):
            return float(v.sum())

        return x * total(x) + total(x * 2)

    @case()
    def neg_and_abs(x):  # MindSpore 2.10's graph: TypeError (its Abs wants a Tensor); sprout: Python's result
        a = float(x[0] - 5)
        return -a, abs(a)

    @case()
    def round_of_scalar(x):  # MindSpore 2.10's graph: TypeError (its Round wants a Tensor); sprout: Python's result
        return round(float(x.sum()) / 4)

    # ---- refused by sprout's STRICT (MindSpore 2.10 runs them: dynamic shapes, variable loops) -----------
    @case(sprout="JitValueError")
    def scalar_as_shape(x):
        n = int(x.sum())
        return ops.zeros((n,), ms.float32)

    @case(sprout="JitTypeError")
    def scalar_as_range_bound(x):
        y = x
        for _ in range(int(x[1])):
            y = y + 1
        return y

    @case(sprout="JitTypeError")
    def scalar_as_tuple_index(x):
        return (1.0, 2.0, 3.0, 4.0)[int(x[1])]

    @case(sprout="JitValueError")
    def str_of_scalar(x):
        return str(float(x.sum()))

    # ---- refused everywhere (eager and MindSpore too) ------------------------------------------------
    @case(sprout="JitValueError")
    def float_of_many_elements(x):
        return float(x)

    return cases
