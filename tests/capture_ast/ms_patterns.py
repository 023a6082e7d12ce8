"""A catalogue of MindSpore's canonical graph-mode patterns (JIT Fallback, mutable scalars, recursion,
jit_class, GradNet wrappers, PIJit), written once for any framework module: ``make_patterns(ms)`` works with
``sprout`` (test_patterns.py) and ``mindspore`` (tools/ms_fallback_fixtures.py records MindSpore's results).
The forms follow MindSpore's own system tests (tests/st/fallback, tests/st/mutable, tests/st/pi_jit, the
jit_class and GradOperation docs), re-written here.

Each pattern is ``make() -> (target, args)``: ``target`` is a Cell (graph mode = ``GRAPH_MODE``) or a function
(graph mode = ``ms.jit(target)``; ``mode`` set: ``ms.jit(target, mode=...)``)."""
from __future__ import annotations

from collections import namedtuple

import numpy as np

Pattern = namedtuple("Pattern", "make mode", defaults=(None,))


def make_patterns(ms) -> dict:
    nn, ops, Tensor = ms.nn, ms.ops, ms.Tensor
    mutable = ms.mutable
    pats: dict = {}

    def pattern(mode=None):
        def deco(fn):
            pats[fn.__name__] = Pattern(fn, mode)
            return fn
        return deco

    def f32(*v):
        return Tensor(np.array(v, np.float32))

    # ---- JIT Fallback: NumPy, asnumpy, Python values at run time ------------------------------------------
    @pattern()
    def numpy_exp_in_cell_method():
        class Net(nn.Cell):
            def helper(self, a, b):
                return np.exp(a.asnumpy() + b.asnumpy())

            def construct(self, a, b):
                return self.helper(a, b)
        return Net(), (Tensor(np.array(2, np.int32)), Tensor(np.array(1, np.int32)))

    @pattern()
    def asnumpy_round_trip():
        class Net(nn.Cell):
            def construct(self, x):
                a = Tensor(x.asnumpy())
                b = a.asnumpy()
                return a, b
        return Net(), (Tensor(np.array(10, np.float64)),)

    @pattern()
    def numpy_arrays_built_in_graph():
        def f():
            a = np.array([1, 2, 3])
            b = np.array([4, 5, 6])
            return Tensor(a + b)
        return f, ()

    @pattern()
    def tensor_created_in_construct():
        class Net(nn.Cell):
            def construct(self):
                return Tensor(1, dtype=ms.int32)
        return Net(), ()

    @pattern()
    def undecorated_class_calling_asnumpy():
        class Inner:
            def __init__(self):
                self.number = 2

            def func(self, x):
                return self.number * x.asnumpy()

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.inner = Inner()

            def construct(self, x):
                return self.inner.func(x)
        return Net(), (Tensor(np.array(2, np.int32)),)

    @pattern()
    def is_on_int_of_tensor():
        def f(x):
            three, two = 3, 2
            return int(x) is three, int(x) is not two
        return f, (Tensor(np.array([3], np.int64)),)

    @pattern()
    def is_none_of_asnumpy():
        def f():
            value = Tensor(np.array([1], np.int32)).asnumpy()
            return value is not None, value is None
        return f, ()

    @pattern()
    def none_and_dict_returned():
        def f(a):
            d = {"a": a, "b": 2}
            return None, a, (d, (1, 2))
        return f, (f32(1.0),)

    @pattern()
    def round_of_object_attribute():
        class Holder:
            def __init__(self):
                self.attr = 99.909
                self.step = 1

            def add(self, x):
                return x + self.step

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.holder = Holder()

            def construct(self):
                return round(self.holder.add(self.holder.attr), 2), round(100.909, 2)
        return Net(), ()

    @pattern()
    def float_and_int_of_tensor_at_run_time():
        def f(x):
            return float(x.sum()) * 2, int(x.max()) + 1, x * float(x.min())
        return f, (f32(1.5, 2.5),)

    @pattern()
    def builtins_on_tensors():
        def f(x):
            return abs(x), len(x), max(x.asnumpy()), round(x)
        return f, (f32(-1.4, 2.6, 0.5),)

    @pattern()
    def list_built_and_appended():
        def f(x):
            out = [x]
            out.append(x * 2)
            out.insert(0, x - 1)
            return out
        return f, (f32(1.0, 2.0),)

    @pattern()
    def print_tensor_and_text():
        def f(x):
            y = x * 2
            print("y:", y)
            return y + 1
        return f, (f32(1.0, 2.0),)

    @pattern()
    def string_of_computed_tensor():
        def f(x):
            return f"total={x.sum().asnumpy()}", str(x.asnumpy())
        return f, (f32(1.0, 2.0),)

    # ---- control flow on tensors --------------------------------------------------------------------------
    @pattern()
    def while_counter_against_tensor():
        def f(x):
            a, i = 0, 0
            while i < x:
                i = i + 1
                a = a + 2
            return a
        return f, (Tensor(np.array([3], np.int64)),)

    @pattern()
    def if_on_tensor_then_python_scalar():
        def f(x):
            a = 0
            if x > 1:
                a = a + 1
            return a
        return f, (Tensor(np.array([3], np.int64)),)

    @pattern()
    def for_range_with_tensor_if_inside():
        class Net(nn.Cell):
            def construct(self, x, y):
                for i in range(3):
                    if x.sum() > y.sum():
                        x = x - i
                    else:
                        y = y - i
                return x, y
        return Net(), (f32(4.0, 5.0), f32(1.0, 2.0))

    # ---- mutable ------------------------------------------------------------------------------------------
    @pattern()
    def mutable_tensor_created_in_construct():
        class Net(nn.Cell):
            def construct(self, x):
                y = mutable(Tensor(np.array([[0.5, 1.0], [1.5, 2.0]], np.float32)))
                return ops.matmul(x, y)
        return Net(), (f32([1.0, 2.0]),)

    @pattern()
    def mutable_scalar_arguments():
        def f(a, b):
            return a + b, a * 2, b / 2
        return f, (mutable(4), mutable(3))

    @pattern()
    def grad_of_net_over_mutable_tuple():
        class Net(nn.Cell):
            def construct(self, z):
                return ops.matmul(z[0], z[1])

        class GradNet(nn.Cell):
            def __init__(self, net):
                super().__init__()
                self.net = net
                self.grad_op = ops.GradOperation()

            def construct(self):
                z = mutable((Tensor(np.array([[0.5, 0.6], [1.2, 1.3]], np.float32)),
                             Tensor(np.array([[0.1, 0.3], [2.1, 1.2]], np.float32))))
                return self.grad_op(self.net)(z)
        return GradNet(Net()), ()

    # ---- recursion ----------------------------------------------------------------------------------------
    @pattern()
    def recursion_with_constant_depth():
        def fact(n):
            if n <= 1:
                return 1
            return n * fact(n - 1)

        def f(x):
            return x * fact(4)
        return f, (f32(1.0, 0.5),)

    @pattern()
    def recursion_on_a_tensor_condition():
        def shrink(x):
            if x.sum() < 1:
                return x
            return shrink(x / 2)

        def f(x):
            return shrink(x)
        return f, (f32(3.0, 5.0),)

    # ---- jit_class ----------------------------------------------------------------------------------------
    @pattern()
    def jit_class_in_construct():
        @ms.jit_class
        class Scale:
            def __init__(self):
                self.w = Tensor(np.array([2.0], np.float32))

            def apply(self, x):
                return x * self.w

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.scale = Scale()

            def construct(self, x):
                return self.scale.apply(x) + self.scale.w
        return Net(), (f32(1.0, 2.0),)

    @pattern()
    def jit_class_created_in_function():
        @ms.jit_class
        class Offset:
            def __init__(self, k):
                self.k = k

            def apply(self, x):
                return x + self.k

        def f(x):
            return Offset(3).apply(x)
        return f, (f32(1.0, 2.0),)

    # ---- GradNet wrappers and gradients in graphs --------------------------------------------------------
    @pattern()
    def gradnet_get_all_with_tensor_if():
        class Net(nn.Cell):
            def construct(self, x, y):
                if x.sum() > y.sum():
                    return x * y
                return x + y * y

        class GradNet(nn.Cell):
            def __init__(self, net):
                super().__init__()
                self.net = net
                self.grad_all = ops.GradOperation(get_all=True)

            def construct(self, *inputs):
                return self.grad_all(self.net)(*inputs)
        return GradNet(Net()), (f32(3.0, 4.0), f32(1.0, 2.0))

    @pattern()
    def gradnet_with_while_loop():
        class Net(nn.Cell):
            def construct(self, x):
                y = x
                while y.sum() < 20:
                    y = y * x
                return y.sum()

        class GradNet(nn.Cell):
            def __init__(self, net):
                super().__init__()
                self.net = net
                self.grad = ops.GradOperation()

            def construct(self, x):
                return self.grad(self.net)(x)
        return GradNet(Net()), (f32(1.5, 2.0),)

    @pattern()
    def grad_inside_jitted_function():
        def loss(x):
            if x.sum() > 0:
                return (x * x).sum()
            return x.sum()
        grad_fn = ops.grad(loss)

        def f(x):
            return grad_fn(x)
        return f, (f32(1.0, -0.5),)

    @pattern()
    def train_step_value_and_grad():
        ms.set_seed(3)
        net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
        opt = nn.SGD(net.trainable_params(), learning_rate=0.1)

        def forward(x, y):
            out = net(x)
            if out.sum() > 0:
                return ((out - y) ** 2).mean()
            return (out - y).abs().mean()
        grad_fn = ms.value_and_grad(forward, None, opt.parameters)

        def step(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss
        return step, (Tensor(np.array([[1.0, 2.0, 3.0]], np.float32)), Tensor(np.array([[1.0, 0.0]], np.float32)))

    # ---- PIJit --------------------------------------------------------------------------------------------
    @pattern(mode="PIJit")
    def pijit_with_python_in_between():
        def f(x):
            y = ops.tanh(x) * 2
            m = float(np.abs(y.asnumpy()).max())
            if y.sum() > 0:
                y = y + m
            return y * 3
        return f, (f32(0.5, -0.25),)

    return pats


def run_pattern(ms, p: Pattern, graph: bool):
    """Build a fresh target and run it eagerly (PyNative) or in graph mode; returns the result."""
    target, args = p.make()
    if not graph:
        return target(*args)
    if isinstance(target, ms.nn.Cell):
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            return target(*args)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    jitted = ms.jit(target, mode=p.mode) if p.mode else ms.jit(target)
    return jitted(*args)
