"""The optional numba update loops give NumPy's float results bit for bit, and numba is imported for
them only once a run has done enough large updates to repay the import."""
import numpy as np
import pytest

from sprout.ops import _lazy_numba, optim_kernels as _kernels, optim_loops as _loops


def test_numba_import_is_deferred_until_it_pays():
    lazy = _lazy_numba
    assert not lazy.worth_loading(0, numba_imported=False)
    assert not lazy.worth_loading(lazy.IMPORT_AFTER - 1, numba_imported=False)
    assert lazy.worth_loading(lazy.IMPORT_AFTER, numba_imported=False)
    assert lazy.worth_loading(1, numba_imported=True)


def test_lazy_loops_count_large_calls_and_build_once():
    import importlib.util
    import sys

    built = []
    loops = _lazy_numba.LazyLoops(lambda numba: built.append(numba) or {"f": len})
    if "numba" not in sys.modules:
        for _ in range(_lazy_numba.IMPORT_AFTER - 1):
            assert not loops.ready()        # not worth importing numba yet: the NumPy forms run
        assert loops.kernels is None and not built
    if importlib.util.find_spec("numba") is None:
        assert not loops.ready() and loops.kernels == {}   # numba missing: the NumPy forms for good
        return
    assert loops.ready() and loops["f"] is len and len(built) == 1
    assert loops.ready() and len(built) == 1


@pytest.mark.parametrize("nesterov", [None, False, True])
def test_loops_match_numpy_bitwise(nesterov):
    pytest.importorskip("numba")
    if not _loops.LOOPS.load():
        pytest.skip("numba loops unavailable")
    rng = np.random.default_rng(0)
    n = _loops.MIN_SIZE + 7
    var, accum, grad = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    lr, mom = np.float32(0.01), np.float32(0.9)
    v1, a1 = var.copy(), accum.copy()
    if nesterov is None:
        _loops.gradient_descent(v1, lr, grad)
        expect = var - lr * grad
        np.testing.assert_array_equal(v1, expect)
        return
    _loops.momentum(v1, a1, lr, grad, mom, nesterov)
    a2 = accum * mom + grad
    v2 = var - lr * (grad + mom * a2) if nesterov else var - lr * a2
    np.testing.assert_array_equal(a1, a2)
    np.testing.assert_array_equal(v1, v2)
    # and the op kernel (whichever path it takes) agrees
    v3, a3 = var.copy(), accum.copy()
    _kernels._apply_momentum(v3, a3, lr, grad, mom, nesterov)
    np.testing.assert_array_equal(v3, v2)
