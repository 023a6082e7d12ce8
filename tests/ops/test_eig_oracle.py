"""ops.eig / ops.eigvals / ops.Eig / Tensor.eigvals against MindSpore 2.10's values (tools/ms_oracle_eig.py):
complex dtypes, eigenvalues as a multiset, each eigenvector up to the unit phase Eigen and LAPACK leave open."""
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import ops

DATA = np.load(Path(__file__).parent / "data" / "oracle_eig.npz")
NAMES = sorted({k.split("/")[0] for k in DATA.files if "/" in k})


def _match(w_ms, w_sp, tol):
    """For each of MindSpore's eigenvalues the index of the nearest unused one of sprout's."""
    used, order = set(), []
    for lam in w_ms:
        dist = [abs(lam - mu) if j not in used else np.inf for j, mu in enumerate(w_sp)]
        j = int(np.argmin(dist))
        assert dist[j] <= tol * max(1.0, abs(lam)), f"eigenvalue {lam} of MindSpore not found in {w_sp}"
        used.add(j)
        order.append(j)
    return order


@pytest.mark.parametrize("name", NAMES)
def test_eig_matches_mindspore_up_to_order_and_phase(name):
    x, w_ms, v_ms = DATA[name + "/x"], DATA[name + "/w"], DATA[name + "/v"]
    w, v = ops.eig(ms.Tensor(x))
    assert w.dtype.np == w_ms.dtype and v.dtype.np == v_ms.dtype
    assert w.shape == w_ms.shape and v.shape == v_ms.shape
    tol = 1e-5 if w_ms.dtype == np.complex64 else 1e-12
    for b in np.ndindex(*x.shape[:-2]):
        w_sp, v_sp = w.asnumpy()[b], v.asnumpy()[b]
        order = _match(w_ms[b], w_sp, tol)
        for i, j in enumerate(order):
            a, c = v_ms[b][:, i], v_sp[:, j]
            np.testing.assert_allclose(np.linalg.norm(c), 1.0, rtol=tol * 10)
            phase = np.vdot(c, a)  # a = phase * c for unit vectors of one eigenspace
            np.testing.assert_allclose(abs(phase), 1.0, rtol=tol * 10, atol=tol * 10)
            np.testing.assert_allclose(a, phase * c, rtol=tol * 10, atol=tol * 10)
    assert sorted(_match(DATA[name + "/eigvals"].reshape(-1), ops.eigvals(ms.Tensor(x)).asnumpy().reshape(-1),
                         tol)) == list(range(w_ms.size))
    np.testing.assert_array_equal(ops.Eig(compute_v=True)(ms.Tensor(x))[0].asnumpy(), w.asnumpy())
    np.testing.assert_array_equal(ms.Tensor(x).eigvals().asnumpy(), w.asnumpy())


@pytest.mark.parametrize("dtype", ["float16", "int32"])
def test_eig_refuses_other_dtypes_with_mindsporess_message(dtype):
    with pytest.raises(TypeError) as info:
        ops.eig(ms.Tensor(np.eye(2, dtype=dtype)))
    assert str(info.value) == str(DATA[f"error_{dtype}"])


def test_eig_primitive_without_vectors_returns_an_empty_second_output():
    w, v = ops.Eig()(ms.Tensor(np.eye(3)))
    assert w.shape == (3,) and v.size == 0 and v.dtype == ms.complex128
    with pytest.raises(TypeError, match="compute_v"):
        ops.Eig(1)


def test_eig_refuses_non_square_input():
    with pytest.raises(ValueError, match="Eig"):
        ops.eig(ms.Tensor(np.ones((2, 3), np.float32)))


def test_eig_eigenvalues_of_a_real_matrix_are_complex_and_decompose_it():
    x = np.array([[0.5, -2.0, 0.3], [1.5, 0.2, 0.1], [0.4, 0.3, 2.0]], np.float32)
    w, v = (t.asnumpy() for t in ops.eig(ms.Tensor(x)))
    assert w.dtype == np.complex64 and np.abs(w.imag).max() > 1
    np.testing.assert_allclose(x @ v, v * w, atol=1e-5)
