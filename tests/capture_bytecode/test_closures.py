"""PIJit caches entries per code object; closures made by one factory share their code but not their
free variables, so each closure must get its own entries (they used to reuse the first closure's graph)."""
import numpy as np

import sprout as ms
from sprout import ops


def _scale_by(k):
    def f(x):
        return x * k
    return f


def _apply(g):
    def f(x):
        return g(x) + 1
    return f


def _caller(fn):
    def h(x):
        return fn(x) * 2
    return h


def test_closures_of_one_factory_do_not_share_graphs():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    for make, args, ref in ((_scale_by, (2.0, 3.0), lambda a, v: v * a),
                            (_apply, (ops.sin, ops.cos), lambda a, v: a(v) + 1)):
        for a in args:
            got = ms.jit(make(a), capture_mode="bytecode")(x).asnumpy()
            want = ref(a, x).asnumpy() if callable(a) else ref(a, x.asnumpy())
            np.testing.assert_allclose(got, want, rtol=1e-6)


def test_library_closures_and_nested_python_calls():
    """ops.add / ops.sub are closures of one factory in sprout; nested closures reached through Python
    fallback (a graph break) are looked up per closure too."""
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    y = ms.Tensor(np.array([3.0, 5.0], np.float32))
    np.testing.assert_allclose(ms.jit(ops.add, capture_mode="bytecode")(x, y).asnumpy(), [4.0, 7.0])
    np.testing.assert_allclose(ms.jit(ops.sub, capture_mode="bytecode")(x, y).asnumpy(), [-2.0, -3.0])
    for k in (2.0, 5.0):
        np.testing.assert_allclose(ms.jit(_caller(_scale_by(k)), capture_mode="bytecode")(x).asnumpy(),
                                   x.asnumpy() * k * 2)
