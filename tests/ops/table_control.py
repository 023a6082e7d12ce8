"""Op-table entries for the control ops (Cond, WhileLoop, Print, PyCall): op name -> test callable.
Each builds the op through jit (the only way these nodes are made), checks the forward against a
NumPy reference and eager, and the backward against finite differences; every mode of ``modes.MODES``
(eager, jit, PIJit: where a tensor ``if`` is a graph break instead of a Cond) gives the eager values,
gradients and printed text."""
import contextlib
import io

import numpy as np

import sprout as ms
from sprout import ops
from modes import MODES, grad_in_mode, run_in_mode


def _t(*v):
    return ms.Tensor(np.array(v, np.float32))


def _fd(fn, x, eps=1e-3):
    x = x.astype(np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[i] += eps
        lo[i] -= eps
        g[i] = (float(fn(ms.Tensor(hi.astype(np.float32))).asnumpy().sum())
                - float(fn(ms.Tensor(lo.astype(np.float32))).asnumpy().sum())) / (2 * eps)
    return g


def _modes_agree(fn, x, grad=True):
    want = fn(x).asnumpy()
    g_want = ms.grad(fn)(x).asnumpy() if grad else None
    for mode in MODES[1:]:
        np.testing.assert_allclose(run_in_mode(fn, [x], mode).asnumpy(), want, rtol=1e-6, err_msg=mode)
        if grad:
            np.testing.assert_allclose(grad_in_mode(fn, [x], mode, (0,))[0].asnumpy(), g_want, rtol=1e-6, err_msg=mode)


def _cond_fn(x):
    if x.sum() > 1:
        y = x * x
    else:
        y = ops.sin(x) * 3
    return y


def check_cond():
    jitted = ms.jit(_cond_fn)
    assert "Cond(" in jitted.get_ir(_t(1.0, 2.0))
    for v in ((1.0, 2.0), (0.1, -0.3)):
        x = np.array(v, np.float32)
        ref = x * x if x.sum() > 1 else np.sin(x) * 3
        np.testing.assert_allclose(jitted(ms.Tensor(x)).asnumpy(), ref, rtol=1e-6)
        g = ms.grad(jitted)(ms.Tensor(x)).asnumpy()
        np.testing.assert_allclose(g, ms.grad(_cond_fn)(ms.Tensor(x)).asnumpy(), rtol=1e-5)
        np.testing.assert_allclose(g, _fd(jitted, x), rtol=1e-2, atol=1e-2)
        _modes_agree(_cond_fn, ms.Tensor(x))


def _while_fn(x):
    y = x
    while y.sum() < 10:
        y = y * 1.5 + x
    return y


def check_while_loop():
    jitted = ms.jit(_while_fn)
    assert "WhileLoop(" in jitted.get_ir(_t(1.0, 2.0))
    for v in ((1.0, 2.0), (0.3, 0.2), (20.0, 1.0)):
        x = np.array(v, np.float32)
        ref = x.copy()
        while ref.sum() < 10:
            ref = ref * 1.5 + x
        np.testing.assert_allclose(jitted(ms.Tensor(x)).asnumpy(), ref, rtol=1e-5)
        g = ms.grad(jitted)(ms.Tensor(x)).asnumpy()
        np.testing.assert_allclose(g, ms.grad(_while_fn)(ms.Tensor(x)).asnumpy(), rtol=1e-5)
        np.testing.assert_allclose(g, _fd(jitted, x), rtol=2e-2, atol=2e-2)
        _modes_agree(_while_fn, ms.Tensor(x))


def check_print():
    def f(x):
        print("x is", x + 1)
        return x

    for mode in MODES:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            run_in_mode(f, [_t(1.0, 2.0)], mode)
        assert buf.getvalue() == "x is " + str(_t(2.0, 3.0)) + "\n", mode


def check_pycall():
    from sprout.ops.host_ops import py_call

    def f(x):
        return py_call(np.cumsum, (x,), {}) * 2

    jitted = ms.jit(f)
    x = _t(1.0, 2.0, 3.0)
    np.testing.assert_allclose(np.asarray(jitted(x)), np.cumsum([1.0, 2.0, 3.0]) * 2)
    assert "PyCall(" in jitted.get_ir(x)
    for mode in MODES:
        np.testing.assert_allclose(np.asarray(run_in_mode(f, [x], mode)), np.cumsum([1.0, 2.0, 3.0]) * 2)


ENTRIES = {"Cond": check_cond, "WhileLoop": check_while_loop, "Print": check_print, "PyCall": check_pycall}
