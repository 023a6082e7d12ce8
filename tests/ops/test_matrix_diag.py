"""matrix_diag / matrix_diag_part / matrix_set_diag against MindSpore 2.10's outputs (k ranges, every align, padding,
non-square and batched inputs, bad input; tests/ops/data/oracle_matrix_diag.json from tools/ms_oracle_matrix_diag.py),
eager against jit, and gradients against finite differences."""
import builtins
import json
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from optable import finite_differences

DATA = json.loads((Path(__file__).parent / "data" / "oracle_matrix_diag.json").read_text())["cases"]


def _k(k):
    return tuple(k) if isinstance(k, list) else k


def _call(c):
    x = ms.Tensor(np.array(c["x"], np.float32).reshape(c["x_shape"]))
    if c["op"] == "matrix_diag_part":
        return lambda: ops.matrix_diag_part(x, _k(c["k"]), c["padding_value"], c["align"])
    if c["op"] == "matrix_set_diag":
        d = ms.Tensor(np.array(c["diagonal"], np.float32).reshape(c["diagonal_shape"]))
        return lambda: ops.matrix_set_diag(x, d, _k(c["k"]), c["align"])
    return lambda: ops.matrix_diag(x, _k(c["k"]), c["num_rows"], c["num_cols"], c["padding_value"], c["align"])


def _id(c):
    return f"{c['op']}-{c['x_shape']}-k{c['k']}-{c['align']}-pad{c.get('padding_value')}-r{c.get('num_rows')}"


@pytest.mark.parametrize("case", DATA, ids=[_id(c) for c in DATA])
def test_matches_mindspore(case):
    run = _call(case)
    if "error" in case:
        with pytest.raises(getattr(builtins, case["error"]),
                           match={"matrix_diag": "MatrixDiag", "matrix_diag_part": "MatrixDiagPart",
                                  "matrix_set_diag": "MatrixSetDiag"}[case["op"]]):
            run()
        return
    got = run().asnumpy()
    want = np.array(case["out"], np.float32).reshape(case["out_shape"])
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def test_every_error_case_names_a_mindspore_exception():
    errors = {c["error"] for c in DATA if "error" in c}
    assert errors == {"ValueError"}, errors
    assert sum("error" in c for c in DATA) >= 15


_JIT = [c for c in DATA if "error" not in c and (isinstance(c["k"], list) or c["op"] == "matrix_diag")][::3]


@pytest.mark.parametrize("case", _JIT, ids=[_id(c) for c in _JIT])
@pytest.mark.parametrize("capture", ["ast", "bytecode"])
def test_jit_agrees_with_eager(case, capture):
    x = ms.Tensor(np.array(case["x"], np.float32).reshape(case["x_shape"]))
    k, align = _k(case["k"]), case["align"]
    if case["op"] == "matrix_diag_part":
        def f(a):
            return ops.matrix_diag_part(a, k, case["padding_value"], align)
        args = (x,)
    elif case["op"] == "matrix_set_diag":
        def f(a, d):
            return ops.matrix_set_diag(a, d, k, align)
        args = (x, ms.Tensor(np.array(case["diagonal"], np.float32).reshape(case["diagonal_shape"])))
    else:
        def f(a):
            return ops.matrix_diag(a, k, case["num_rows"], case["num_cols"], case["padding_value"], align)
        args = (x,)
    np.testing.assert_array_equal(ms.jit(f, capture_mode=capture)(*args).asnumpy(), f(*args).asnumpy())


def _check_grads(fn, arrays, tol=1e-6):
    tensors = [ms.Tensor(a) for a in arrays]
    w = np.random.default_rng(3).uniform(0.5, 1.5, fn(*tensors).shape)

    def loss(*ts):
        return ops.sum(fn(*ts) * ms.Tensor(w))

    grads = ms.grad(loss, grad_position=tuple(range(len(arrays))))(*tensors)
    grads = grads if isinstance(grads, tuple) else (grads,)
    want = finite_differences(lambda vals: float((fn(*[ms.Tensor(a) for a in vals]).asnumpy() * w).sum()), arrays)
    for g, fd in zip(grads, want):
        np.testing.assert_allclose(g.asnumpy(), fd, rtol=tol, atol=tol)


@pytest.mark.parametrize("align", ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"])
@pytest.mark.parametrize("k", [1, (-1, 1), (-2, -1), (1, 2)])
def test_gradients_match_finite_differences(k, align):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 3, 4))
    _check_grads(lambda a: ops.matrix_diag_part(a, k, 0.5, align), [x])
    part = ops.matrix_diag_part(ms.Tensor(x), k, 0.0, align).asnumpy()
    d = rng.standard_normal(part.shape)
    _check_grads(lambda a, b: ops.matrix_set_diag(a, b, k, align), [x, d])
    _check_grads(lambda b: ops.matrix_diag(b, k, 3, 4, -1.0, align), [d])


def test_matrix_diag_part_bprop_is_the_cotangent_set_on_zeros():
    """d/dx <w, matrix_diag_part(x)> = matrix_set_diag(zeros, w): padding slots send nothing back."""
    rng = np.random.default_rng(1)
    x = ms.Tensor(rng.standard_normal((3, 4)))
    w = ms.Tensor(rng.standard_normal((3, 3)))
    g = ms.grad(lambda a: ops.sum(ops.matrix_diag_part(a, (-1, 1), 2.0, "LEFT_RIGHT") * w))(x)
    want = ops.matrix_set_diag(ops.zeros((3, 4), ms.float64), w, (-1, 1), "LEFT_RIGHT")
    np.testing.assert_allclose(g.asnumpy(), want.asnumpy())


def test_padding_value_gets_a_zero_gradient_as_in_mindspore():
    """MindSpore 2.10 (checked on its CPU build): d/d padding_value of sum(matrix_diag_part(x, (-1, 1), p)) is 0 and
    matrix_diag's x gradient skips the slots that fall outside the matrix."""
    x = ms.Tensor(np.arange(1, 13, dtype=np.float32).reshape(3, 4))
    gx, gp = ms.grad(lambda a, p: ops.sum(ops.matrix_diag_part(a, (-1, 1), p)), grad_position=(0, 1))(
        x, ms.Tensor(np.float32(9.0)))
    np.testing.assert_array_equal(gx.asnumpy(), [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1]])
    assert float(gp.asnumpy()) == 0.0
    d = ms.Tensor(np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    gd, gp = ms.grad(lambda a, p: ops.sum(ops.matrix_diag(a, (-1, 0), 3, 3, p)), grad_position=(0, 1))(
        d, ms.Tensor(np.float32(9.0)))
    np.testing.assert_array_equal(gd.asnumpy(), [[1, 1, 1], [1, 1, 0]])
    assert float(gp.asnumpy()) == 0.0
