"""Every supported syntax form compiles with @jit and matches eager (forward and gradients)."""
import numpy as np

import sprout as ms
from sprout import nn, ops

from .helpers import T, check

SCALE = 3.0


def helper_add(a, b=2.0, *rest, k=1.0, **kw):
    out = a * b + k
    for r in rest:
        out = out + r
    return out


def test_arithmetic_comparison_unary():
    def f(x, y):
        a = -x + y * 2 - x / (y + 3) + x ** 2 + abs(y) + (x % 3) + (y // 2)
        b = x > y
        return a, b, +a
    check(f, T(1.0, -2.0, 3.0), T(0.5, 2.0, -1.0))


def test_gradients_of_arithmetic():
    def f(x, y):
        return (x * y + x / (y * y + 1) - ops.exp(x)).sum()
    check(f, T(0.1, -0.2, 0.3), T(0.5, 2.0, -1.0), grad=True)


def test_tuple_list_dict_literals_indexing_slicing_unpacking():
    def f(x):
        t = (x, x * 2, x * 3)
        a, b, *rest = t
        lst = [a, b]
        lst.append(rest[0])
        d = {"u": lst[1], "v": t[-1]}
        (p, q), r = (d["u"], d["v"]), x[1:]
        return p + q, r[::-1], x[0], lst[-1][None, 1:2]
    check(f, T(1.0, 2.0, 3.0))


def test_list_comprehension_and_builtins_on_constants():
    def f(x):
        ys = [x * i for i in range(4) if i % 2 == 0]
        n = len(ys) + len((1, 2)) + int(2.7) + max(1, 3) + min(4, 2) + abs(-1)
        ok = isinstance(x, ms.Tensor) and bool(1)
        z = float(n) * x if ok else x
        for i, (a, b) in enumerate(zip(ys, ys[1:])):
            z = z + a * b * i
        for _key, val in {"a": 1.0, "b": 2.0}.items():
            z = z + val
        return z, sum(ys)
    check(f, T(1.0, 2.0))


def test_calls_defaults_keywords_star_args_closures():
    scale = 2.0

    def inner(v):
        return v * scale + SCALE

    def f(x, y):
        a = helper_add(x)
        b = helper_add(x, 3.0, y, y, k=0.5)
        args = (x, 2.0)
        c = helper_add(*args, **{"k": 4.0})
        return inner(a) + b + c + (lambda v: v * 2)(y)
    check(f, T(1.0, 2.0), T(3.0, 4.0), grad=True)


def test_ternary_and_boolean_operators_on_python_values():
    def f(x, flag, n):
        y = x * 2 if flag else x
        if flag and n > 2 or not flag:
            y = y + 1
        if 0 < n < 5:
            y = y * 3
        return y
    for flag in (True, False):
        for n in (1, 3, 7):
            check(f, T(1.0, 2.0), flag, n)


def test_ops_functions_primitive_classes_and_tensor_methods():
    add = ops.Add()

    def f(x, y):
        a = add(x, y)
        b = ops.matmul(x.reshape(1, 2), y.reshape(2, 1))
        return a.sum(), b, ops.maximum(x, y), x.mean(), ops.ReduceSum(keep_dims=True)(x)
    check(f, T(1.0, 2.0), T(3.0, -4.0))


class Inner(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x * 2
        return -x


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.dense = nn.Dense(2, 2)
        self.factor = 3.0

    def construct(self, x):
        y = self.inner(x) * self.factor
        return self.dense(y), self.helper(y)

    def helper(self, y):
        return y + self.factor


def test_cells_methods_and_parameters_from_self():
    net = Outer()
    x = T([[1.0, -2.0]])
    expected = net(x)
    jitted = ms.jit(net)
    from .helpers import assert_same
    assert_same(jitted(x), expected)
    assert_same(jitted(-x), net(-x))


def test_private_attribute_names_in_methods():
    class Box:
        def __init__(self):
            self.__k = 5.0

        def get(self, x):
            return x * self.__k

    box = Box()
    check(lambda x: box.get(x), T(1.0, 2.0))


def test_super_call_in_converted_method():
    class Base(nn.Cell):
        def construct(self, x):
            return x + 1

    class Child(Base):
        def construct(self, x):
            if x.sum() > 0:
                x = x * 2
            return super().construct(x)

    net = Child()
    from .helpers import assert_same
    assert_same(ms.jit(net)(T(1.0, 2.0)), net(T(1.0, 2.0)))


def test_nested_function_definitions_are_converted_too():
    def f(x):
        def pick(v):
            if v.sum() > 0:
                return v
            return -v
        return pick(x) + pick(-x * 2)
    check(f, T(1.0, -3.0), grad=True)


def test_walrus_under_lax():
    def f(x):
        if (n := 3) > 2:
            x = x * n
        return x
    check(f, T(1.0))


def test_numpy_on_constants_is_folded_at_compile_time():
    def f(x):
        return x * float(np.sqrt(4.0)) + ms.Tensor(np.ones(2, np.float32))
    check(f, T(1.0, 2.0))


def recursive_div(a, b, *, rounding_mode=None):
    if rounding_mode == "trunc":
        return ops.trunc(recursive_div(a, b))
    return a / b


def test_a_function_calling_itself_by_its_global_name():
    """The converted function's own name must stay a global (it was a 'no cell' error)."""
    x, y = T(7.0, -7.0, 3.0), T(2.0, 2.0, 2.0)
    check(recursive_div, x, y, grad=True)
    check(recursive_div, x, y, rounding_mode="trunc")


def test_sprout_functions_are_traced_not_converted():
    """Like MindSpore's resolve, which treats its own ops as primitives: jit(ops.div) traces the library
    function as it is (only user code is rewritten), with keywords, gradients and the closures of
    generated functions (ops.sub is a closure of a factory)."""
    from sprout.capture.ast import convert

    for fn in (ops.div, ops.sub, ops.add, ops.softmax):
        assert convert(fn) is fn
    x, y = T(7.0, -7.0, 3.0), T(2.0, 4.0, 2.0)
    check(ops.div, x, y, grad=True)
    check(ops.div, x, y, rounding_mode="floor")
    check(ops.sub, x, y, grad=True)
    assert "RealDiv(" in ms.jit(ops.div).get_ir(x, y)


def test_the_converted_code_keeps_the_function_name():
    from sprout.capture.ast import convert

    code = convert(recursive_div).__wrapped__.__code__
    assert code.co_name == "recursive_div" and code.co_qualname == "recursive_div"


def test_function_without_source_warns_once_and_still_traces():
    import warnings as _w

    import numpy as np

    from sprout import Tensor, jit
    from sprout.core.errors import JitWarning

    ns: dict = {}
    exec("def no_source(x):\n    return x * 2 + 1\n", ns)  # noqa: S102 - a function with no readable source
    f = jit(ns["no_source"])
    with _w.catch_warnings(record=True) as caught:
        _w.simplefilter("always")
        out = f(Tensor(np.ones(3, np.float32)))
    assert out.asnumpy().tolist() == [3.0, 3.0, 3.0]
    assert [w for w in caught if issubclass(w.category, JitWarning) and "cannot be read" in str(w.message)]
