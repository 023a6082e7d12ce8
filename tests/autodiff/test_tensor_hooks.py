"""Tensor.register_hook / hooks / remove_hook / the handle's remove, and requires_grad_. Expected gradients were
read from MindSpore 2.10 (CPU, PyNative): a hook sees its tensor's complete gradient and its non-None result
replaces it; hooks run in registration order; inside a jitted function (AST or bytecode capture) a hook is
ignored and register_hook returns the tensor, while a hook on a tensor passed into a jitted function applies."""
import warnings

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor


def _x():
    return Tensor(np.array([1.0, 2.0], np.float32))


def _sq(x):
    return (x * x).sum()


def test_hook_on_an_intermediate_scales_what_flows_back():
    seen = []

    def hook(g):
        seen.append(g.asnumpy().tolist())
        return g * 2

    def f(x):
        y = x * 3
        assert type(y.register_hook(hook)).__name__ == "_TensorHookHandle"
        return (y * y).sum()

    assert ms.grad(f)(_x()).asnumpy().tolist() == [36.0, 72.0]
    assert seen == [[6.0, 12.0]]


def test_mindspores_doc_example():
    def hook_test(a, b):
        z = a * b
        z.register_hook(lambda g: g * 2)
        return z * b

    ga, gb = ms.grad(hook_test, grad_position=(0, 1))(Tensor(1, ms.float32), Tensor(2, ms.float32))
    assert (ga.item(), gb.item()) == (8.0, 6.0)

    def removed(a, b):
        z = a * b
        handle = z.register_hook(lambda g: g * 2)
        z = z * b
        handle.remove()
        return z

    ga, gb = ms.grad(removed, grad_position=(0, 1))(Tensor(1, ms.float32), Tensor(2, ms.float32))
    assert (ga.item(), gb.item()) == (4.0, 4.0)


def test_hooks_on_inputs_and_parameters():
    x = _x()
    h = x.register_hook(lambda g: g * 10)
    assert ms.grad(_sq)(x).asnumpy().tolist() == [20.0, 40.0]
    assert len(x.hooks()) == 1 and x.hooks()[0](1) == 10
    h.remove()
    assert ms.grad(_sq)(x).asnumpy().tolist() == [2.0, 4.0] and x.hooks() == []
    h.remove()  # a second remove does nothing
    x2 = _x()
    x2.register_hook(lambda g: g + 1)
    second = x2.register_hook(lambda g: g * 100)
    assert ms.grad(_sq)(x2).asnumpy().tolist() == [300.0, 500.0]  # in order: (g + 1) * 100
    Tensor.remove_hook(second.id)
    assert ms.grad(_sq)(x2).asnumpy().tolist() == [3.0, 5.0]
    x3 = _x()
    x3.register_hook(lambda g: g * 5)  # the hook sees the sum of both uses
    assert ms.grad(lambda x: (x * x).sum() + x.sum())(x3).asnumpy().tolist() == [15.0, 25.0]
    value, g = ms.value_and_grad(lambda x: (x * 3).sum())(x3)
    assert value.item() == 9.0 and g.asnumpy().tolist() == [15.0, 15.0]
    x4 = _x()
    x4.register_hook(lambda g: None)  # None keeps the gradient
    assert ms.grad(_sq)(x4).asnumpy().tolist() == [2.0, 4.0]
    p = ms.Parameter(_x(), name="p")
    p.register_hook(lambda g: g * 7)
    (gp,) = ms.grad(lambda x: (x * p).sum(), grad_position=None, weights=[p])(_x())
    assert gp.asnumpy().tolist() == [7.0, 14.0]


@pytest.mark.parametrize("capture", ["ast", "bytecode"])
def test_under_jit_inner_hooks_are_ignored_and_input_hooks_apply(capture):
    def g(x):
        y = x * 3
        r = y.register_hook(lambda d: d * 2)
        assert r is y
        return (y * y).sum()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert ms.grad(ms.jit(g, capture_mode=capture))(_x()).asnumpy().tolist() == [18.0, 36.0]
    assert any("register_hook inside a graph" in str(w.message) for w in caught)
    x = _x()
    x.register_hook(lambda d: d * 3)
    assert ms.grad(ms.jit(_sq, capture_mode=capture))(x).asnumpy().tolist() == [6.0, 12.0]


def test_misuse_and_requires_grad():
    x = _x()
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int"):
        x.register_hook(3)
    with pytest.raises(TypeError, match="with '@jit' is not supported"):
        x.register_hook(ms.jit(lambda g: g))
    assert x.requires_grad_() is None and x._requires_grad
    x.requires_grad_(False)
    assert not x._requires_grad
    p = ms.Parameter(_x(), name="q")
    p.requires_grad_(False)
    assert p.requires_grad is False and not p._requires_grad


# ---- ms.saved_tensors_hooks (MindSpore 2.10's gradients for the same functions) --------------------------------
def _logged(log):
    def pack(x):
        log.append(("pack", x.asnumpy().tolist()))
        return x + 1

    def unpack(x):
        log.append(("unpack", x.asnumpy().tolist()))
        return x

    return pack, unpack


def test_saved_tensors_hooks_change_what_the_backward_reads():
    from sprout import ops

    log = []
    pack, unpack = _logged(log)
    x, y = ops.ones(2, dtype=ms.float32), ops.ones(2, dtype=ms.float32) * 3

    def forward_fn(x, y):
        with ms.saved_tensors_hooks(pack, unpack):
            out = x * y
        log.append("forward end")
        return out

    value, (gx, gy) = ms.value_and_grad(forward_fn, grad_position=(0, 1))(x, y)
    assert value.asnumpy().tolist() == [3.0, 3.0]
    assert gx.asnumpy().tolist() == [4.0, 4.0] and gy.asnumpy().tolist() == [2.0, 2.0]  # MindSpore's values
    # the inputs (and, in sprout, the output) are packed in the forward pass and unpacked in the backward
    assert log[:2] == [("pack", [1.0, 1.0]), ("pack", [3.0, 3.0])] and log.index("forward end") < log.index(
        ("unpack", [2.0, 2.0]))
    log.clear()
    assert forward_fn(x, y).asnumpy().tolist() == [3.0, 3.0] and log == ["forward end"]  # no tape: nothing packed

    def through(f):
        def g(x):
            with ms.saved_tensors_hooks(pack, unpack):
                out = f(x)
            return out.sum()

        return ms.grad(g)(x).asnumpy()

    assert np.allclose(through(ops.exp), np.e + 1)  # Exp's backward reads its output: e + 1
    assert np.allclose(through(ops.sin), np.cos(2.0))  # Sin's reads its input: cos(1 + 1)
    assert np.allclose(through(lambda t: t + 2), 1.0)

    def as_numpy(x):  # a pack hook may store anything; unpack gives the tensor back
        with ms.saved_tensors_hooks(lambda t: t.asnumpy(), lambda a: Tensor(a)):
            out = x * x
        return out.sum()

    assert ms.grad(as_numpy)(x).asnumpy().tolist() == [2.0, 2.0]


def test_saved_tensors_hooks_misuse():
    with pytest.raises(TypeError, match="pack_hook must be callable"):
        ms.saved_tensors_hooks(1, lambda t: t)

    def bad_unpack(x):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: 3):
            out = x * x
        return out.sum()

    with pytest.raises(TypeError, match="unpack_hook must return a Tensor"):
        ms.grad(bad_unpack)(_x())

    square = ms.jit(lambda x: x * x)

    def around_jit(x):  # what a compiled graph saves are its residuals, which the hooks cannot see
        with ms.saved_tensors_hooks(lambda t: t * 0, lambda t: t):
            out = square(x)
        return out.sum()

    with pytest.raises(RuntimeError, match="not supported in Graph and Jit mode"):
        ms.grad(around_jit)(_x())


def test_a_dead_tensor_leaves_no_hooks_behind():
    from sprout.core import tensor_hooks

    x = _x()
    handle = x.register_hook(lambda g: g)
    assert ms.grad(_sq)(x).asnumpy().tolist() == [2.0, 4.0]
    del x
    import gc

    gc.collect()
    assert handle.id not in tensor_hooks._owner
    handle.remove()  # removing after the tensor died does nothing
