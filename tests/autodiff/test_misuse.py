"""Autodiff misuse raises a typed error naming the function or argument, eagerly and under jit alike."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

# What MindSpore 2.10 does with each misuse (PyNative / GRAPH_MODE), probed in /work/msvenv. It accepts most
# silently (an empty tuple or zeros: a gradient that is not computed); sprout raises, with the exception type
# MindSpore uses where it does raise (RuntimeError for custom bprops), TypeError for a value of the wrong type.
MINDSPORE = {
    "grad w.r.t. an int or a Python float": "returns () (both modes); with grad_position=(0, 1) on (x, 2) the "
                                            "int's gradient is dropped",
    "function returning None or a string": "zeros for the input (both modes); value_and_grad returns (None, 0)",
    "through asnumpy()": "zeros (both modes)",
    "weights that are not Parameters": "PyNative zeros; GRAPH RuntimeError ('The pointer[eval_result] is null.'),"
                                       " a float: ValueError",
    "bprop wrong shape": "PyNative RuntimeError 'grad tensor should be broadcast to expected shape, but got {2, 2} "
                         "vs {3}' (a shape the input broadcasts to is summed down: (2, 3) -> (3,)); GRAPH accepts",
    "bprop too few gradients": "RuntimeError 'Grad size should lager than forward inputs, but got 1 vs 2' "
                               "(GRAPH: 'The output size of the 'bprop' must match ...')",
    "bprop too many gradients": "accepted, extras ignored (both modes)",
    "bprop int dtype": "cast to the input's dtype (PyNative)",
}

X = np.array([1.0, 2.0, 3.0], np.float32)


def _runners(grad_call):
    """grad_call(f_or_jitted) -> result; run eagerly, grad-of-jit and jit-of-grad (both captures)."""
    return {
        "eager": lambda f, *a: grad_call(f)(*a),
        "grad_of_jit_ast": lambda f, *a: grad_call(ms.jit(f))(*a),
        "grad_of_jit_bytecode": lambda f, *a: grad_call(ms.jit(f, capture_mode="bytecode"))(*a),
        "jit_of_grad_ast": lambda f, *a: ms.jit(lambda *b: grad_call(f)(*b))(*a),
        "jit_of_grad_bytecode": lambda f, *a: ms.jit(lambda *b: grad_call(f)(*b), capture_mode="bytecode")(*a),
    }


MODES = list(_runners(None))


def _sq(a):
    return (a * a).sum()


def _scaled(a, n):
    return (a * n).sum()


@pytest.mark.parametrize("mode", MODES)
def test_gradient_wrt_an_int_or_a_python_float(mode):
    run = _runners(lambda f: ops.grad(f, grad_position=(0, 1)))[mode]
    with pytest.raises(TypeError, match=r"'_scaled' w.r.t. argument 1 \(int 2\)"):
        run(_scaled, Tensor(X), 2)
    with pytest.raises(TypeError, match=r"'_scaled' w.r.t. argument 1 \(float 2.5\)"):
        run(_scaled, Tensor(X), 2.5)
    np.testing.assert_allclose(ops.grad(_scaled)(Tensor(X), 2).asnumpy(), [2.0, 2.0, 2.0])  # position 0 only


def _returns_none(a):
    a * 2


def _returns_str(a):
    return "loss"


@pytest.mark.parametrize("mode", MODES)
def test_gradient_of_a_function_returning_none_or_a_string(mode):
    run = _runners(ops.grad)[mode]
    with pytest.raises(TypeError, match="'_returns_none' returned None"):
        run(_returns_none, Tensor(X))
    with pytest.raises(TypeError, match="'_returns_str' returned 'loss'"):
        run(_returns_str, Tensor(X))
    with pytest.raises(TypeError, match="'_returns_none' returned None"):
        _runners(ops.value_and_grad)[mode](_returns_none, Tensor(X))


def _through_numpy(a):
    return Tensor(a.asnumpy() * 2).sum()


@pytest.mark.parametrize("mode", MODES)
def test_gradient_through_asnumpy(mode):
    with pytest.raises(RuntimeError, match=r"output of '_through_numpy' depends on its inputs through NumPy.*asnumpy"):
        _runners(ops.grad)[mode](_through_numpy, Tensor(X))
    # a host conversion next to a differentiable output (logging) is fine
    def logs(a):
        _ = a.asnumpy().mean()
        return (a * 3).sum()
    np.testing.assert_allclose(ops.grad(logs)(Tensor(X)).asnumpy(), [3.0, 3.0, 3.0])


@pytest.mark.parametrize("mode", MODES)
def test_weights_that_are_not_parameters(mode):
    plain = Tensor(np.ones(3, np.float32))
    run = _runners(lambda f: ops.grad(f, grad_position=None, weights=[plain]))[mode]
    with pytest.raises(TypeError, match=r"weights\[0\] is a Tensor \(not a Parameter\)"):
        run(_sq, Tensor(X))
    with pytest.raises(TypeError, match=r"weights\[0\] is float"):
        ops.grad(_sq, grad_position=None, weights=[1.0])
    with pytest.raises(TypeError, match="weights is a Tensor"):
        ops.grad(_sq, weights=plain)
    with pytest.raises(TypeError, match=r"weights\[0\] is a Tensor"):
        ops.GradOperation(get_by_list=True)(_sq, [plain])


class _Times3(nn.Cell):
    def __init__(self, grad_fn):
        super().__init__()
        self.grad_fn = grad_fn

    def construct(self, a):
        return a * 3

    def bprop(self, a, out, dout):
        return self.grad_fn(dout)


class _Mul(nn.Cell):
    def construct(self, a, b):
        return a * b

    def bprop(self, a, b, out, dout):
        return (dout * b,)


@pytest.mark.parametrize("mode", MODES)
def test_custom_bprop_wrong_shape_or_number_of_gradients(mode):
    run = _runners(ops.grad)[mode]
    wrong_shape = _Times3(lambda d: (ops.ones((2, 2), ms.float32),))
    with pytest.raises(RuntimeError, match=r"_Times3.bprop: the gradient of input 0 has shape \[2, 2\], but the "
                                           r"input has shape \[3\]"):
        run(lambda a: wrong_shape(a).sum(), Tensor(X))
    too_many = _Times3(lambda d: (d, d))
    with pytest.raises(RuntimeError, match="_Times3.bprop returned 2 gradients for the 1 inputs"):
        run(lambda a: too_many(a).sum(), Tensor(X))
    too_few = _Mul()
    with pytest.raises(RuntimeError, match="_Mul.bprop returned 1 gradients for the 2 inputs"):
        run(lambda a: too_few(a, a * 2).sum(), Tensor(X))
    # as MindSpore PyNative: a gradient of a shape the input broadcasts to is summed down, a dtype is cast
    summed = _Times3(lambda d: (ops.ones((2, 3), ms.float32) * 5,))
    np.testing.assert_allclose(run(lambda a: summed(a).sum(), Tensor(X)).asnumpy(), [10.0, 10.0, 10.0])
    cast = _Times3(lambda d: (ops.cast(d * 7, ms.int32),))
    g = run(lambda a: cast(a).sum(), Tensor(X))
    assert g.dtype == ms.float32
    np.testing.assert_allclose(g.asnumpy(), [7.0, 7.0, 7.0])
