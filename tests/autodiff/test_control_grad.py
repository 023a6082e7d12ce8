"""Gradients through Cond / WhileLoop nodes by forward + residuals (autodiff/control.py): grad-of-jit,
jit-of-grad and higher orders agree with eager, and no forward ever runs twice."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.capture.ast import convert
from sprout.core.op import Op, register
from sprout.core.types import TensorType

CALLS = {"n": 0}


def _counted(x):
    CALLS["n"] += 1
    return np.sin(x)


COUNTED_SIN = register(Op("TestControlCountedSin", _counted, lambda x: TensorType(x.shape, x.dtype),
                          lambda x, out, d: (d * ops.cos(x),), kind="opaque"))


def t(*values):
    return ms.Tensor(np.asarray(values, np.float32))


def branchy(x):
    if x.sum() > 0:
        y = ops.sin(x) * x * x
    else:
        y = x * 3
    return y.sum()


def loopy(x):
    y = x
    i = x.sum() * 0
    while i < 3:
        y = ops.sin(y) * x
        i = i + 1
    return y.sum()


def nested(x):
    if x.sum() > 0:
        y = x
        while y.sum() < 5:
            y = y * ops.exp(x) + 0.1
    else:
        y = x
    return (y * y).sum()


def loop_with_weight(x, w):
    y = x
    while y.sum() < 20:
        y = ops.matmul(y, w) + 1
    return y.sum()


def zero_trips(x):
    y = x
    while y.sum() > 100:
        y = y * 2
    return (y * x).sum()


def _g(fn):
    return ops.grad(fn)


def _gg(fn):
    return ops.grad(lambda u: ops.grad(fn)(u).sum())


CASES = [branchy, loopy, nested, zero_trips]
INPUTS = [t(0.3, 0.5, 0.7), t(-0.3, -0.5, 0.2)]


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_first_and_second_order_match_eager(fn):
    cf = convert(fn)  # what capture does for functions reached through a gradient transform
    for x in INPUTS:
        g1, g2 = _g(fn)(x).asnumpy(), _gg(fn)(x).asnumpy()
        jf = ms.jit(fn)
        np.testing.assert_allclose(_g(jf)(x).asnumpy(), g1, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(_gg(jf)(x).asnumpy(), g2, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(ms.jit(_g(cf))(x).asnumpy(), g1, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(ms.jit(_gg(cf))(x).asnumpy(), g2, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(_g(lambda u: ms.jit(_g(cf))(u).sum())(x).asnumpy(), g2, rtol=1e-4, atol=1e-5)


def test_loop_invariant_weight_is_not_stacked():
    x, w = t(0.5, 1.0), ms.Tensor(np.array([[1.1, 0.2], [0.3, 0.9]], np.float32))
    gx, gw = ops.grad(loop_with_weight, (0, 1))(x, w)
    jx, jw = ms.jit(ops.grad(convert(loop_with_weight), (0, 1)))(x, w)
    np.testing.assert_allclose(jx.asnumpy(), gx.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(jw.asnumpy(), gw.asnumpy(), rtol=1e-5)
    ir = ms.jit(ops.grad(convert(loop_with_weight), (0, 1))).get_ir(x, w)
    # one stacked residual per iteration (y); w is read from outside the loop, not copied per iteration
    assert "stacked=(TensorType(shape=(2,)" in ir and "TensorType(shape=(2, 2)" not in ir


def _count_cond(x):
    if x.sum() > 0:
        y = COUNTED_SIN(x) * x
    else:
        y = x
    return y


def _count_while(x):
    y = x
    i = x.sum() * 0
    while i < 3:
        y = COUNTED_SIN(y) * x
        i = i + 1
    return y


@pytest.mark.parametrize("fn,runs", [(_count_cond, 1), (_count_while, 3)], ids=["cond", "while"])
def test_backward_never_reruns_the_forward(fn, runs):
    x = t(0.3, 0.5, 0.7)
    want = ops.grad(lambda u: fn(u).sum())(x).asnumpy()
    for grad_fn in (ops.grad(lambda u: ms.jit(fn)(u).sum()), ms.jit(ops.grad(lambda u: convert(fn)(u).sum()))):
        grad_fn(x)  # compile
        CALLS["n"] = 0
        np.testing.assert_allclose(grad_fn(x).asnumpy(), want, rtol=1e-5)
        assert CALLS["n"] == runs


def _drop_in_loop(x):
    y = x
    i = x.sum() * 0
    while i < 2:
        y = ops.dropout(y, p=0.3) * ops.sin(y)
        i = i + 1
    return y.sum()


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_dropout_in_loop_same_seed_same_gradients_first_and_second_order(mode):
    x = t(*np.linspace(0.1, 1.0, 32))
    jf = ms.jit(_drop_in_loop, capture_mode=mode)
    for order in (_g, _gg):
        ms.set_seed(7)
        want = order(_drop_in_loop)(x).asnumpy()
        ms.set_seed(7)
        np.testing.assert_allclose(order(jf)(x).asnumpy(), want, rtol=1e-4, atol=1e-6)


def test_random_seed_is_an_explicit_graph_input_of_random_ops():
    x = t(*np.linspace(0.1, 1.0, 16))
    f = ms.jit(lambda x: ops.dropout(x, p=0.5) + ops.rand(16))
    ir = f.get_ir(x)
    assert ir.count("RandomSeed(") == 2 and "Dropout(%0, %" in ir  # RandomSeed(<effect token>)
    for _ in range(2):
        ms.set_seed(4)
        eager = (ops.dropout(x, p=0.5) + ops.rand(16)).asnumpy()
        ms.set_seed(4)
        np.testing.assert_array_equal(f(x).asnumpy(), eager)


def test_random_op_replayed_with_its_seed_draws_the_same_values():
    from sprout.core.dispatch import bind
    from sprout.ops.random_ops import DROPOUT, RANDOM_SEED, UNIFORM

    x = t(*np.linspace(0.1, 1.0, 64))
    seed = RANDOM_SEED()
    a, b = bind(DROPOUT, (x, seed), {"keep_prob": 0.5}), bind(DROPOUT, (x, seed), {"keep_prob": 0.5})
    np.testing.assert_array_equal(a[1].asnumpy(), b[1].asnumpy())
    u = [bind(UNIFORM, (seed,), {"shape": (5,)}).asnumpy() for _ in range(2)]
    np.testing.assert_array_equal(u[0], u[1])
    assert not np.array_equal(bind(UNIFORM, (RANDOM_SEED(),), {"shape": (5,)}).asnumpy(), u[0])


P = ms.Parameter(ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="p_ctl")


def _print_in_cond(x):
    if x.sum() > 0:
        print("positive")
        y = ops.sin(x) * x
    else:
        y = x * 3
    return y.sum()


def _assign_in_while(x):
    # P is written every iteration and read after the loop (reads of a written Parameter inside loops:
    # tests/autodiff/test_read_after_write.py)
    y = x
    i = x.sum() * 0
    while i < 2:
        ops.assign(P, P + y)
        y = ops.sin(y) * x
        i = i + 1
    return (y * P).sum()


@pytest.mark.parametrize("fn", [_print_in_cond, _assign_in_while], ids=["print_in_cond", "assign_in_while"])
def test_effects_in_differentiated_bodies_match_eager(fn, capsys):
    x = t(0.3, 0.5, 0.7)
    start = np.array([1.0, 2.0, 3.0], np.float32)
    runs = {}
    makers = {"eager": ops.grad(fn), "grad_of_jit": ops.grad(ms.jit(fn)), "jit_of_grad": ms.jit(ops.grad(fn))}
    for name, g in makers.items():
        P.set_data(ms.Tensor(start))
        capsys.readouterr()
        runs[name] = (g(x).asnumpy(), P.asnumpy().copy(), capsys.readouterr().out)
    for name in ("grad_of_jit", "jit_of_grad"):
        np.testing.assert_allclose(runs[name][0], runs["eager"][0], rtol=1e-5, err_msg=name)
        np.testing.assert_allclose(runs[name][1], runs["eager"][1], rtol=1e-6, err_msg=name)
        assert runs[name][2] == runs["eager"][2], name
