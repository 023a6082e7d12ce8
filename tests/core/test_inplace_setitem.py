"""Eager ``x[i] = v`` writes the tensor's memory in place: views and bases see it, nothing else does, and
gradients read the values their ops read (MindSpore 2.10 fixtures: test_view_writes_oracle.py)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops


def _x():
    return Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


def test_setitem_keeps_the_tensor_and_writes_its_memory():
    x = _x()
    a = x.asnumpy()
    x[0, 1] = 9
    assert a[0, 1] == 9 and x.asnumpy() is a  # the same array, written (as MindSpore's asnumpy() sees it)


def test_tensor_of_an_ndarray_owns_its_memory():
    a = np.zeros((2, 3), np.float32)
    for t in (Tensor(a), Tensor(a[1:]), Tensor(a, ms.float32), ms.tensor(a)):
        t[0] = 5
    np.testing.assert_array_equal(a, 0)
    t = Tensor.from_numpy(a)  # from_numpy shares, as in MindSpore
    t[0, 0] = 5
    assert a[0, 0] == 5


@pytest.mark.parametrize("make", [lambda x: ops.flip(x, (0,)), lambda x: ops.abs(x), lambda x: x + 0,
                                  lambda x: x.copy(), lambda x: x[Tensor([1, 0])], lambda x: ops.diagonal(x)])
def test_results_of_other_ops_are_not_views(make):
    x = _x()
    y = make(x)
    y[0] = -1
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(2, 3))
    ops.assign(y, ops.zeros_like(y))  # not a view: assign takes it


@pytest.mark.parametrize("op,fn", [("Assign", ops.assign), ("AssignAdd", ops.assign_add),
                                   ("AssignSub", ops.assign_sub)])
def test_assign_into_a_view_names_the_op(op, fn):
    x = _x()
    with pytest.raises(RuntimeError, match=f"{op}: variable is a view"):
        fn(x.reshape(3, 2), ops.ones((3, 2), ms.float32))
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(2, 3))


def test_write_into_a_broadcast_view_is_refused():
    x = _x()
    y = ops.broadcast_to(x, (2, 2, 3))
    with pytest.raises(RuntimeError, match="broadcast view"):
        y[0, 0, 0] = 9
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(2, 3))


def test_bad_value_writes_nothing():
    x = _x()
    y = x[0]
    with pytest.raises(ValueError):
        y[0:2] = Tensor([1.0, 2.0, 3.0])
    with pytest.raises(IndexError):
        y[Tensor([0, 7])] = 1.0
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6).reshape(2, 3))


@pytest.mark.parametrize("value", [Tensor(7, ms.int32), Tensor(7.9, ms.float64), 7, 7.9])  # as MindSpore 2.10
def test_value_is_cast_to_the_tensor_dtype(value):
    x = Tensor(np.zeros((2, 3), np.int32))
    v = x[:, 1]
    v[0] = value
    assert x.dtype == ms.int32 and x.asnumpy()[0, 1] == 7


def test_gradient_reads_the_value_before_a_write_through_a_view():
    # x is written through its view v between its two reads: each product's gradient is the x it read
    x = _x()
    v = x.reshape(3, 2)

    def f(w):
        y = w * x
        v[0] = 100
        return y.sum() + 2 * (w * x).sum()

    g = ops.grad(f)(Tensor(np.ones((2, 3), np.float32))).asnumpy()
    after = np.arange(6, dtype=np.float32).reshape(2, 3)
    after[0, :2] = 100
    np.testing.assert_array_equal(g, np.arange(6).reshape(2, 3) + 2 * after)


def test_setitem_on_a_differentiated_tensor_is_differentiated():
    def f(w):
        y = w * 2
        y[0] = 0
        return y.sum()

    g = np.full((2, 3), 2, np.float32)
    g[0] = 0
    np.testing.assert_array_equal(ops.grad(f)(_x()).asnumpy(), g)  # (tests/autodiff/test_inplace_grads.py)
