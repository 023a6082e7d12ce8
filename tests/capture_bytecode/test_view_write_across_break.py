"""A view on the value stack across a graph break, written in the next segment before its base is: found by the
in-place fuzz feature (seed 331171, ``p0[-2:].mul_(s if t > 0.5 else u); ops.assign_sub(p0, 1)``), reproduced with
``__setitem__`` on main before in-place methods wrote memory. Eagerly the base's later write wins; under bytecode
capture the view's write-back, done after the base's, restores the view's rows."""
import numpy as np
import pytest

import sprout as ms
from sprout import Parameter, Tensor, ops


def _run(jit: bool) -> np.ndarray:
    p = Parameter(Tensor(np.array([[-1.19, 0.34], [1.34, -0.18], [-1.44, -1.17]], np.float32)), name="p")

    def f():
        p[-2:].__setitem__(slice(None), ops.ones((2, 2)) * (ops.ones((2, 3)).sum() if ops.ones(()) > 0.5 else 1.0))
        ops.assign_sub(p, ops.ones((3, 2)))
        return ops.ones((2,))

    (ms.jit(f, capture_mode="bytecode") if jit else f)()
    return p.asnumpy()


def test_eager_reference():
    np.testing.assert_allclose(_run(False), [[-2.19, -0.66], [5, 5], [5, 5]], rtol=1e-6)


@pytest.mark.xfail(strict=True, reason="bytecode capture: a view crossing a graph break on the stack is written back "
                                       "after its base's later write (capture/bytecode, left to its owner)")
def test_bytecode_capture_keeps_the_base_write():
    np.testing.assert_allclose(_run(True), _run(False), rtol=1e-6)


def _g(x):
    v = (x * 2) * 1.0
    v[-1:].__setitem__(slice(None), ops.tanh(v.sum() if ops.sin(ops.mean(x)) > 0.1 else ops.mean(x)))
    return v + 0


@pytest.mark.xfail(strict=True, reason="bytecode capture: a write into a view left on the value stack at a graph "
                                       "break does not reach its base (fuzz seed 332129, shrunk; main had it with "
                                       "__setitem__ too)")
def test_bytecode_capture_writes_a_view_held_across_a_break():
    x = Tensor(np.array([[0.41, -0.96, -1.91], [1.39, -1.19, 0.73]], np.float32))
    want = _g(x).asnumpy()
    np.testing.assert_allclose(want[1], np.tanh(np.float32(-0.255)) * np.ones(3), rtol=1e-5)
    np.testing.assert_allclose(ms.jit(_g, capture_mode="bytecode")(x).asnumpy(), want, rtol=1e-6)


def _method_across_break(x):
    v = x * 1.0
    v.sub_(x * 0.5 if ops.ones(()) > 0.5 else x * 2)  # ``v.sub_`` is on the value stack at the break
    return v + 0


def test_inplace_method_bound_across_a_break():
    """Fuzz seed 334061 (shrunk): the re-made eager tensor the bound method holds is written as state (Assign),
    as before in-place methods wrote memory; a graph write of it was lost at the segment's exit."""
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_allclose(_method_across_break(x).asnumpy(), [0.5, 1.0, 1.5])
    np.testing.assert_allclose(ms.jit(_method_across_break, capture_mode="bytecode")(x).asnumpy(), [0.5, 1.0, 1.5])


@pytest.mark.xfail(strict=True, reason="bytecode capture: the write of a tensor re-made at a graph break is not seen "
                                       "by the tape of grad-of-jit (gave 1.5x instead of x before in-place methods "
                                       "wrote memory too; left to the capture/grad-graph owners)")
def test_grad_of_inplace_method_bound_across_a_break():
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    g = ms.grad(lambda t: (ms.jit(_method_across_break, capture_mode="bytecode")(t) * t).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), ms.grad(lambda t: (_method_across_break(t) * t).sum())(x).asnumpy())
