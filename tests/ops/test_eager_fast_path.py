"""The inlined eager paths of unary/binary ops (ops/_binary_call.py) and quiet kernels (ops/_quiet.py) behave as
``bind`` and ``np.errstate`` do."""
import threading
import warnings

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.ops import elementwise as E
from sprout.ops._quiet import quiet


def _t(values, dtype=np.float32):
    return ms.Tensor(np.asarray(values, dtype))


@pytest.mark.parametrize("prim, call", [
    (E.MUL, lambda x: x * x), (E.ADD, lambda x: ops.add(x, 1.0)), (E.DIV, lambda x: x / x),
    (E.EXP, ops.exp), (E.NEG, lambda x: -x), (E.SQRT, lambda x: x.sqrt()),
])
def test_a_replaced_kernel_is_the_one_the_fast_path_runs(prim, call):
    x = _t([1.0, 4.0])
    seen = []
    impl = prim.impl

    def spy(*args, **attrs):
        seen.append(args)
        return impl(*args, **attrs)

    prim.impl = spy
    try:
        call(x)
    finally:
        prim.impl = impl
    assert len(seen) == 1
    call(x)
    assert len(seen) == 1  # restored: the spy is no longer called


@pytest.mark.parametrize("dtype", [np.int32, np.bool_])
def test_unary_float_ops_cast_bool_and_int_first(dtype):
    x = ms.Tensor(np.array([0, 1], dtype))
    for f in (ops.exp, ops.sqrt, ops.tanh, ops.log1p):
        out = f(x)
        assert out.dtype == ms.float32
        np.testing.assert_allclose(out.asnumpy(), getattr(np, f.__name__ if f is not ops.log1p else "log1p")(
            np.array([0, 1], np.float32)), rtol=1e-6)
    assert (-ms.Tensor(np.array([1, 2], np.int32))).dtype == ms.int32


def test_division_promotes_as_before():
    i = ms.Tensor(np.array([1, 2, 0], np.int32))
    h = ms.Tensor(np.array([1, 2, 4], np.float16))
    assert (i / i).dtype == ms.float32
    np.testing.assert_array_equal((i / ms.Tensor(np.array([2, 4, 1], np.int32))).asnumpy(), [0.5, 0.5, 0.0])
    assert (h / h).dtype == ms.float16
    assert (h / 2).dtype == ms.float16 and (2 / h).dtype == ms.float16
    assert (i / 2.0).dtype == ms.float32
    assert (_t([1.0]) / ms.Tensor(np.array([2.0], np.float64))).dtype == ms.float64
    assert ops.div(i, ms.Tensor(np.array([2, 1, 3], np.int32)), rounding_mode="floor").dtype == ms.int32


def test_fast_path_results_equal_the_recorded_path():
    x = ms.Parameter(_t([0.5, -2.0, 3.0]), name="x")

    def f(p):
        return (ops.exp(-p) * p / (p + 4.0)).sum()

    eager = f(x).asnumpy()
    value, grad = ms.value_and_grad(f)(x)
    np.testing.assert_allclose(value.asnumpy(), eager, rtol=1e-6)
    a = np.array([0.5, -2.0, 3.0], np.float32)
    expect = (np.exp(-a) * (1 - a) * (a + 4) - np.exp(-a) * a) / (a + 4) ** 2
    np.testing.assert_allclose(grad.asnumpy(), expect, rtol=1e-5)


def test_quiet_kernels_warn_nothing_and_keep_the_callers_other_modes():
    before = np.geterr()
    z, one = _t([0.0]), _t([1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan((z / z).asnumpy()[0]) and np.isinf((one / z).asnumpy()[0])
        assert np.isnan(ops.sqrt(_t([-1.0])).asnumpy()[0]) and np.isinf(ops.log(z).asnumpy()[0])
        assert np.isnan(ops.acos(_t([2.0])).asnumpy()[0])
    with np.errstate(over="raise"):
        with pytest.raises(Exception, match="overflow"):
            _t([3e38]) / _t([1e-3])
        assert np.geterr()["over"] == "raise"
    assert np.geterr() == before


def test_quiet_is_np_errstate_per_thread():
    divide = quiet(np.true_divide, divide="ignore")
    big, small = np.float32([3e38]), np.float32([1e-3])
    failures = []

    def worker(mode):
        try:
            with np.errstate(over=mode):
                for _ in range(300):
                    assert np.isinf(divide(np.float32([1.0]), np.float32([0.0])))[0]
                    if mode == "raise":
                        with pytest.raises(FloatingPointError):
                            divide(big, small)
                    else:
                        divide(big, small)
                    assert np.geterr()["over"] == mode
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=worker, args=(m,)) for m in ("raise", "ignore", "raise", "ignore")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures
