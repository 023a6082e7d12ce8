"""float32 polynomial exp/tanh/sigmoid for fused numba loops (backend/fastmath.py): ulp error and special values."""
import numpy as np
import pytest

from sprout.backend import fastmath, kernels
from sprout.ops.elementwise import _sigmoid_impl

numba = pytest.importorskip("numba")

_LOOPS = """
import numpy as np
import numba
{helpers}

@numba.njit(error_model="numpy")
def vexp(x, o):
    for j in range(x.shape[0]):
        o[j] = _fexp(x[j])


@numba.njit(error_model="numpy")
def vtanh(x, o):
    for j in range(x.shape[0]):
        o[j] = _ftanh(x[j])


@numba.njit(error_model="numpy")
def vsigmoid(x, o):
    for j in range(x.shape[0]):
        o[j] = {sigmoid}
"""


@pytest.fixture(scope="module")
def loops():
    from sprout.ops.elementwise import SIGMOID

    ns: dict = {}
    src = _LOOPS.format(helpers=fastmath.helpers_source(), sigmoid=SIGMOID.fuse.poly.format("x[j]"))
    exec(compile(src, "<fastmath loops>", "exec"), ns)  # noqa: S102 - the test's own source
    return ns


SPECIAL = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 1e-30, -1e-30, 0.625, -0.625, 0.62499994,
           88.72, 88.7228, 88.72284, 88.73, 89.0, -87.33, -87.34, -100.0, -103.9, -103.972, -103.98, -110.0,
           9.0, -9.0, 20.0, -20.0, 3.4e38, -3.4e38]


def _inputs():
    rng = np.random.default_rng(0)
    parts = [rng.uniform(-110, 95, 400_000), rng.standard_normal(200_000) * 3, np.linspace(-2, 2, 200_001),
             np.array(SPECIAL)]
    return np.concatenate(parts).astype(np.float32)


def _ulp_error(got, x, fn):
    """Max error in units of the float32 spacing at the exactly rounded result (finite results only), and the
    positions where a non-finite result or a NaN differs from the correctly rounded one."""
    with np.errstate(all="ignore"):
        exact = fn(x.astype(np.float64))
        r32 = exact.astype(np.float32)
        fin = np.isfinite(r32)
        err = np.abs(got[fin].astype(np.float64) - exact[fin]) / np.spacing(np.abs(r32[fin]))
    same = (got == r32) | (np.isnan(got) & np.isnan(r32))
    return float(err.max()), np.flatnonzero(~fin & ~same)


@pytest.mark.parametrize("name, fn, bound", [("vexp", np.exp, 1.0), ("vtanh", np.tanh, 1.5)])
def test_ulp_error_and_special_values(loops, name, fn, bound):
    x = _inputs()
    got = np.empty_like(x)
    loops[name](x, got)
    assert got.dtype == np.float32
    err, bad = _ulp_error(got, x, fn)
    assert err <= bound, f"{name}: {err:.3f} ulp"
    assert bad.size == 0, f"{name}: non-finite results differ at {x[bad][:5]}"
    with np.errstate(all="ignore"):
        numpy_err, _ = _ulp_error(fn(x), x, fn)
    assert err <= max(bound, numpy_err + 0.5)      # no worse than NumPy's own float32 kernel
    sub = x[(x > -103.97) & (x < -87.34)]           # gradual underflow: subnormal results
    if name == "vexp":
        out = np.empty_like(sub)
        loops[name](sub, out)
        assert np.all(out > 0) and np.allclose(out, np.exp(sub.astype(np.float64)), rtol=0, atol=2e-45)


@pytest.mark.parametrize("name, fn", [("vexp", np.exp), ("vtanh", np.tanh)])
def test_signed_zeros_and_tiny_inputs_match_numpy(loops, name, fn):
    # bitwise: tanh(-0.0) is -0.0 (an FMA-evaluated polynomial x + x * (p * x^2) gives +0.0 there)
    x = np.array([0.0, -0.0, 1e-45, -1e-45, 1e-38, -1e-38, 1e-30, -1e-30], np.float32)
    got = np.empty_like(x)
    loops[name](x, got)
    want = fn(x)
    assert np.array_equal(np.signbit(got), np.signbit(want)), (x, got, want)
    assert np.array_equal(got, want)


def test_sigmoid_form_matches_the_eager_impl(loops):
    x = _inputs()
    got = np.empty_like(x)
    loops["vsigmoid"](x, got)
    with np.errstate(all="ignore"):
        want = _sigmoid_impl(x)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    fin = ~np.isnan(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=1e-6, atol=1e-7)


def test_polynomial_forms_make_transcendental_groups_numba_candidates():
    import sys
    import os

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from test_fusion import _data, _graph, expr16

    from sprout.passes.fuse import fuse_elementwise

    for dt, want in ((np.float32, True), (np.float64, False)):
        arrays = [a.astype(dt) for a in _data(np.random.default_rng(5), (4096,), (4096,))]
        g = _graph(expr16, *arrays)
        sub = fuse_elementwise(g, choose=lambda s, n: "numpy_blocked", min_elements=1).nodes[-1].attrs["graph"]
        assert ("numba" in kernels.candidates(sub, 1 << 22)) is (want and kernels.numba_available())
        assert ("_ftanh(" in kernels.numba_source(sub)) is want
        if want:
            from sprout.backend.interpret import interpret

            (got,) = kernels.build(sub, "numba")(*arrays)
            (ref,) = interpret(g, *arrays)
            np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6)
