"""Shared checks: a function gives the same values (and gradients) with and without @jit."""
import numpy as np

import sprout as ms
from sprout.capture.ast import convert


def T(*values, dtype=np.float32):
    return ms.Tensor(np.array(values if len(values) != 1 else values[0], dtype=dtype))


def as_np(x):
    if isinstance(x, ms.Tensor):
        return x.asnumpy()
    if isinstance(x, (tuple, list)):
        return type(x)(as_np(v) for v in x)
    return x


def assert_same(a, b, tol=1e-5):
    a, b = as_np(a), as_np(b)
    if isinstance(a, (tuple, list)):
        assert isinstance(b, (tuple, list)) and len(a) == len(b), (a, b)
        for x, y in zip(a, b):
            assert_same(x, y, tol)
        return
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


def check(fn, *args, grad=False, **kw):
    """eager == convert(fn) run eagerly == jit(fn); with ``grad``, the same for grad over all inputs."""
    expected = fn(*args, **kw)
    assert_same(convert(fn)(*args, **kw), expected)
    jitted = ms.jit(fn)
    assert_same(jitted(*args, **kw), expected)
    assert_same(jitted(*args, **kw), expected)  # cached call
    if grad:
        pos = tuple(i for i, a in enumerate(args) if isinstance(a, ms.Tensor))
        g_eager = ms.grad(fn, grad_position=pos)(*args)
        g_jit = ms.grad(ms.jit(fn), grad_position=pos)(*args)
        assert_same(g_jit, g_eager, 1e-4)
    return expected


def finite_diff(fn, args, i, eps=1e-3):
    """Numerical gradient of sum(fn(*args)) w.r.t. args[i] (float64 central differences)."""
    base = [a.asnumpy().astype(np.float64) if isinstance(a, ms.Tensor) else a for a in args]
    x = base[i]
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        vals = []
        for sgn in (1, -1):
            xp = x.copy()
            xp[idx] += sgn * eps
            call = [ms.Tensor(b.astype(np.float32)) if isinstance(b, np.ndarray) else b for b in base]
            call[i] = ms.Tensor(xp.astype(np.float32))
            vals.append(float(np.sum(as_np(fn(*call)))))
        g[idx] = (vals[0] - vals[1]) / (2 * eps)
    return g
