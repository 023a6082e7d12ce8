"""grad / value_and_grad / vjp / GradOperation return structures (captured from MindSpore 2.10)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops


def _v(t):
    return t.asnumpy().tolist()


X = Tensor(np.array([1.0, 2.0], np.float32))
Y = Tensor(np.array([3.0, 4.0], np.float32))


def f(a, b):
    return (a * b).sum(), a + b


def test_grad_sums_over_every_output():
    ga, gb = ms.grad(f, (0, 1))(X, Y)
    assert _v(ga) == [4, 5] and _v(gb) == [2, 3]


def test_grad_has_aux_returns_grads_and_aux_tuple():
    g, aux = ms.grad(f, 0, has_aux=True)(X, Y)
    assert _v(g) == [3, 4]
    assert isinstance(aux, tuple) and len(aux) == 1 and _v(aux[0]) == [4, 6]


def test_value_and_grad_has_aux():
    (value, aux), g = ms.value_and_grad(f, 0, has_aux=True)(X, Y)
    assert value.item() == 11 and _v(aux) == [4, 6] and _v(g) == [3, 4]


def test_vjp_always_returns_a_tuple():
    _, fn = ms.vjp(lambda a, b: a * b, X, Y)
    ga, gb = fn(Tensor(np.ones(2, np.float32)))
    assert _v(ga) == [3, 4] and _v(gb) == [1, 2]
    _, fn1 = ms.vjp(lambda a: a * 2, X)
    (g,) = fn1(Tensor(np.ones(2, np.float32)))
    assert _v(g) == [2, 2]


def test_gradoperation_get_all_int_input_gets_zeros():
    ga, gb = ops.GradOperation(get_all=True)(lambda a, b: a * 2)(X, Tensor(np.array([1, 2], np.int32)))
    assert _v(ga) == [2, 2] and gb.dtype == ms.int32 and _v(gb) == [0, 0]


def test_gradoperation_skips_python_scalars():
    out = ops.GradOperation(get_all=True)(lambda a, s: a * s)(X, 3.0)
    assert len(out) == 1 and _v(out[0]) == [3, 3]


def test_unused_input_gets_zero_gradient():
    _, gb = ms.grad(lambda a, b: a * 2, (0, 1))(X, Y)
    assert _v(gb) == [0, 0]


def test_same_tensor_passed_twice_gets_two_gradients():
    ga, gb = ms.grad(lambda a, b: a * 3 + b, (0, 1))(X, X)
    assert _v(ga) == [3, 3] and _v(gb) == [1, 1]


def test_weights_and_sens_param():
    w = ms.Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
    net = lambda x: x * w  # noqa: E731
    gw = ops.GradOperation(get_by_list=True)(net, ms.ParameterTuple([w]))(X)
    assert _v(gw[0]) == [1, 2]
    (gx,), (gw2,) = ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)(net, [w])(
        X, Tensor(np.array([10.0, 10.0], np.float32)))
    assert _v(gx) == [20, 30] and _v(gw2) == [10, 20]
    g_pos, g_w = ms.grad(net, 0, weights=[w])(X)
    assert _v(g_pos) == [2, 3] and _v(g_w[0]) == [1, 2]


def test_higher_order_gradients():
    g2 = ms.grad(ms.grad(lambda x: (x * x * x).sum()))
    assert _v(g2(X)) == [6, 12]
    g3 = ms.grad(ms.grad(ms.grad(lambda x: (x * x * x * x).sum())))
    assert _v(g3(X)) == [24, 48]
    mixed = ms.grad(lambda x: ms.grad(lambda y: (x * y * y).sum())(x).sum())
    assert _v(mixed(X)) == [4, 8]


def test_forward_without_transform_records_nothing():
    from sprout.core import dispatch

    assert not dispatch._slow
    _ = X * Y
    assert not dispatch.active_tapes()


def test_bad_grad_position():
    with pytest.raises(ValueError, match="out of range"):
        ms.grad(f, 5)(X, Y)
    with pytest.raises(ValueError, match="cannot both be None"):
        ms.grad(f, None)
