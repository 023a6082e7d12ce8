"""The seeds' @jit / ms_function examples print exactly what the seeds show."""
import numpy as np

import sprout as ms
import sprout.nn as nn
from sprout import Tensor, jit, ms_function, ops


class Add(nn.Cell):
    def construct(self, x):
        x = x + x
        x = x + x
        return x


class Mul(nn.Cell):
    @ms_function
    def construct(self, x):
        x = x * x
        x = x * x
        return x


class Test(nn.Cell):
    __test__ = False  # the seed's name, not a pytest class

    def __init__(self):
        super().__init__()
        self.add = Add()
        self.mul = Mul()

    def construct(self, x):
        x = self.add(x)
        x = self.mul(x)
        x = self.add(x)
        return x


def test_add_jitted_mul_add_gives_1024(capsys):
    print(Test()(Tensor(np.ones([3, 3], dtype=np.float32))))
    assert capsys.readouterr().out == "[[1024. 1024. 1024.]\n [1024. 1024. 1024.]\n [1024. 1024. 1024.]]\n"


def test_same_in_graph_mode(capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    print(Test()(Tensor(np.ones([3, 3], dtype=np.float32))))
    assert capsys.readouterr().out == "[[1024. 1024. 1024.]\n [1024. 1024. 1024.]\n [1024. 1024. 1024.]]\n"


def test_ms_function_add_func(capsys):
    @ms_function
    def add_func(x, y):
        return ops.add(x, y)

    print(add_func(Tensor(np.ones([3, 3], np.float32)), Tensor(np.ones([3, 3], np.float32))))
    assert capsys.readouterr().out == "[[2. 2. 2.]\n [2. 2. 2.]\n [2. 2. 2.]]\n"


class AddCell(nn.Cell):
    @ms_function
    def construct(self, x, y):
        return x + y


class MulCell(nn.Cell):
    @ms_function
    def construct(self, x, y):
        return x * y


def test_grad_operation_get_all_on_jitted_cells(capsys):
    x = Tensor(np.array([1.0, 2.0, 3.0]).astype(np.float32))
    y = Tensor(np.array([4.0, 5.0, 6.0]).astype(np.float32))
    net = AddCell()
    grad_out = ops.GradOperation(get_all=True)(net)(x, y)
    print(net(x, y))
    print(grad_out[0])
    print(grad_out[1])
    assert capsys.readouterr().out == "[5. 7. 9.]\n[1. 1. 1.]\n[1. 1. 1.]\n"
    ones = Tensor(np.ones([3, 3], dtype=np.float32))
    gx, gy = ops.GradOperation(get_all=True)(MulCell())(ones, ones)
    assert np.array_equal(gx.asnumpy(), np.ones((3, 3))) and np.array_equal(gy.asnumpy(), np.ones((3, 3)))
    print(ops.GradOperation(get_all=True)(MulCell())(ones, ones))
    assert "1.00000000e+00" in capsys.readouterr().out


value = 5


@ms_function
def func(x, y):
    out = x + y
    value = 1  # noqa: F841 - the seed's point: this is not seen outside
    return out


def test_global_is_unchanged(capsys):
    func(Tensor(np.ones([3, 3], np.float32)), Tensor(np.ones([3, 3], np.float32)))
    print(value)
    assert capsys.readouterr().out == "5\n"


class Func(nn.Cell):
    def __init__(self):
        super().__init__()
        self.value = 5

    @ms_function
    def construct(self, x):
        out = self.value + x
        return out


def test_cell_attribute_is_baked_in(capsys):
    x = Tensor(np.array([1.0, 2.0, 3.0]).astype(np.float32))
    f = Func()
    print("out1:", f(x))
    f.value = 1
    print("out2:", f(x))
    assert capsys.readouterr().out == "out1: [6. 7. 8.]\nout2: [6. 7. 8.]\n"
    assert ms.jit.stats(Func.construct)["compiles"] == 1


def test_tensor_cal_psjit(capsys):
    @jit
    def tensor_cal(x, y, z):
        return ops.matmul(x, y) + z

    x = Tensor(np.ones(shape=[2, 3]), ms.float32)
    y = Tensor(np.ones(shape=[3, 4]), ms.float32)
    z = Tensor(np.ones(shape=[2, 4]), ms.float32)
    print(tensor_cal(x, y, z))
    assert capsys.readouterr().out == "[[4. 4. 4. 4.]\n [4. 4. 4. 4.]]\n"
