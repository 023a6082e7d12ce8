"""Gradients of jitted functions whose outputs are inputs, aliases of inputs, or ignore an input
(issue 9: the compiled graph's pruned inputs were matched to the caller's arguments by position)."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops


def t(values):
    return ms.Tensor(np.asarray(values, np.float32))


def out_is_input(x, y):
    return x * y, x


def out_is_other_input(x, y):
    return y, x


def alias_then_shift(x, y):
    b0 = y
    b1 = y - 0.1
    return b0, b1


def alias_then_shift_swapped(x, y):
    b0 = y
    b1 = y - 0.1
    return b1, b0


def only_second(x, y):
    return (y,)


def second_scaled(x, y):
    return y * 2


def same_input_twice(x, y):
    return x, x


CASES = [out_is_input, out_is_other_input, alias_then_shift, alias_then_shift_swapped, only_second, second_scaled,
         same_input_twice]


def _np(tree):
    if isinstance(tree, (tuple, list)):
        return [_np(v) for v in tree]
    return tree.asnumpy()


def _close(a, b):
    a, b = _np(a), _np(b)
    if isinstance(a, list):
        assert len(a) == len(b)
        for u, v in zip(a, b):
            _close_arrays(u, v)
    else:
        _close_arrays(a, b)


def _close_arrays(a, b):
    if isinstance(a, list):
        for u, v in zip(a, b):
            _close_arrays(u, v)
    else:
        np.testing.assert_allclose(a, b, rtol=1e-6)


@pytest.mark.parametrize("fn", CASES, ids=lambda f: f.__name__)
def test_grad_of_jit_matches_eager(fn):
    x, y = t([1.0, 2.0, 3.0]), t([4.0, 5.0, 6.0])
    eager = ops.value_and_grad(fn, grad_position=(0, 1))(x, y)
    compiled = ops.value_and_grad(ms.jit(fn), grad_position=(0, 1))(x, y)
    _close(compiled, eager)
    _close(ms.jit(ops.grad(fn, grad_position=(0, 1)))(x, y), eager[1])


def test_pruned_input_higher_order():
    def f(x, y):
        return y * y * y

    x, y = t([1.0, 2.0]), t([3.0, 4.0])
    jf = ms.jit(f)
    g2 = ops.grad(ops.grad(jf, grad_position=1), grad_position=1)(x, y)
    np.testing.assert_allclose(g2.asnumpy(), 6 * y.asnumpy())


def test_weight_gradient_through_a_parameter_written_before_its_use():
    """``assign_sub(p, ...)`` then reading ``p``: the read is a read of the Parameter (the tape tracks that
    object), eagerly and when the joint graph is replayed (grad-of-jit / PIJit); the weight gradient was 0."""
    p = ms.Parameter(t([1.0, 2.0, 3.0]), name="p_written")

    def f(x):
        ops.assign_sub(p, x * 0.1)
        return (p * x).sum()

    x = t([0.3, 0.5, 0.7])
    results = []
    for g in (ops.grad(f, 0, [p]), ops.grad(ms.jit(f), 0, [p]), ms.jit(ops.grad(f, 0, [p])),
              ops.grad(ms.jit(f, capture_mode="bytecode"), 0, [p])):
        p.set_data(t([1.0, 2.0, 3.0]))
        dx, (dp,) = g(x)
        results.append((dx.asnumpy(), dp.asnumpy(), p.asnumpy().copy()))
    for got in results[1:]:
        for a, b in zip(got, results[0]):
            np.testing.assert_allclose(a, b, rtol=1e-6)
    np.testing.assert_allclose(results[0][1], x.asnumpy())


def test_jit_of_grad_writes_through_to_the_argument():
    """grad's inputs are aliases of the arguments (a new object per position); eagerly they share the
    argument's buffer, so an in-place write inside the differentiated function writes the argument. Inside
    jit the alias is the same graph value, and a write through it is a write of the argument (fuzz seed 254)."""
    def f(x):
        ops.assign_sub(x, ops.ones((3, 2)))
        return (x * 2).sum()

    def g(x):
        return ops.grad(f)(x)

    results = []
    for fn in (g, ms.jit(g), ms.jit(g, capture_mode="bytecode")):
        x = t(np.arange(6).reshape(3, 2))
        results.append((fn(x).asnumpy(), x.asnumpy().copy()))
    for got in results[1:]:
        np.testing.assert_allclose(got[0], results[0][0])
        np.testing.assert_allclose(got[1], results[0][1])
    np.testing.assert_allclose(results[0][1], np.arange(6).reshape(3, 2) - 1)


def test_grad_of_jit_writes_the_argument_buffer():
    """grad passes the jitted function an alias sharing the argument's buffer; the jitted write-back goes
    into that buffer as an eager ``assign`` does, so the caller's tensor changes (fuzz seed 22)."""
    def f(z):
        v1 = ops.stack((ops.ones((2, 3)), z)).mean(0)
        ops.assign(z, ops.ones((2, 3)))
        return v1

    results = []
    for fn in (f, ms.jit(f)):
        z = t(np.arange(6).reshape(2, 3))
        g = ops.grad(lambda u, fn=fn: (fn(u) * 2).sum())(z)
        results.append((g.asnumpy(), z.asnumpy().copy()))
    np.testing.assert_allclose(results[1][0], results[0][0])
    np.testing.assert_allclose(results[1][1], results[0][1])
    np.testing.assert_allclose(results[0][1], np.ones((2, 3)))


def test_copy_of_a_parameter_taken_before_writing_it():
    """``x = p * 1.0`` is a copy eagerly; the passes fold it to ``p``, which the gradient must not read
    after ``assign_add(p)``: gradients differentiate the graph as traced (fuzz seed 126)."""
    p = ms.Parameter(t([[0.66, -0.63], [-0.39, -1.53]]), name="p_copied")

    def f():
        x = p * 1.0
        ops.assign_add(p, ops.ones((2, 2)))
        return (x * x).sum()

    results = []
    for g in (ops.grad(f, (), [p]), ops.grad(ms.jit(f), (), [p]), ms.jit(ops.grad(f, (), [p])),
              ops.grad(ms.jit(f, capture_mode="bytecode"), (), [p])):
        p.set_data(t([[0.66, -0.63], [-0.39, -1.53]]))
        results.append((g()[1][0].asnumpy(), p.asnumpy().copy()))
    for got in results[1:]:
        np.testing.assert_allclose(got[0], results[0][0], rtol=1e-6)
        np.testing.assert_allclose(got[1], results[0][1], rtol=1e-6)
    np.testing.assert_allclose(results[0][0], 2 * np.array([[0.66, -0.63], [-0.39, -1.53]]), rtol=1e-6)
