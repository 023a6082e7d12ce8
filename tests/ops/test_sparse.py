"""Sparse tensors (COOTensor, CSRTensor, RowTensor, SparseTensor), the ops.coo_* / ops.csr_* family, SparseToDense
and SparseTensorDenseMatmul: every case of tools/sparse_oracle.py against MindSpore 2.10's output (fixture), the
cases MindSpore's CPU build cannot run (no AKG kernel: csr_mul/csr_div by a dense tensor, csr_mv, csr.mm,
csr_reduce_sum, csr2coo, coo2csr, to_csr/to_coo, csr_mm) against NumPy on the dense matrices, jit of functions
taking and returning sparse tensors (AST and bytecode capture == eager, no recompile for new values) and
gradients w.r.t. the values."""
import json
import re
from pathlib import Path

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

FIXTURE = json.loads((Path(__file__).parent / "data" / "sparse_oracle.json").read_text())
_TOOL = (Path(__file__).parents[2] / "tools" / "sparse_oracle.py").read_text()
SETUP = _TOOL.split('SETUP = """', 1)[1].split('"""', 1)[0]

# MindSpore's own failures on CPU that are not the API's behaviour (missing AKG kernels; graph-only primitives):
# sprout computes these, checked against NumPy below
NO_CPU_KERNEL = ("Response is empty", "Open() error")
# deliberate differences, each with its reason
DIFFERENT = {
    # MindSpore 2.10 CPU's SparseConcat returns 1 for every value of the first input (its kernel reads them with
    # the wrong type); the documented result concatenates the values
    "ops.coo_concat((coo, coo2), 0)": {"coo": [["Int64", [[0, 1], [1, 2], [2, 0], [3, 1], [3, 3], [5, 0]]],
                                               ["Float32", [1.0, -2.0, 3.0, 4.0, 5.0, 6.0]], [6, 4]]},
    "ops.coo_concat((coo, coo2), 1)": {"coo": [["Int64", [[0, 1], [0, 5], [0, 7], [1, 2], [2, 0], [2, 4]]],
                                               ["Float32", [1.0, 4.0, 5.0, -2.0, 3.0, 6.0]], [3, 8]]},
    # SparseMatrixSoftmax has no bprop in MindSpore ("bprop not defined"); sprout's softmax is composed of ops and
    # differentiates: d softmax(row)[0] / d logits of a one-element row is 0
    "ms.grad(lambda v: ops.csr_softmax(ms.CSRTensor(csr.indptr, csr.indices, v, (3, 4)), ms.float32).values[0])(cv)":
        ["Float32", [0.0, 0.0, 0.0]],
}


def _scope():
    scope = {"ms": ms, "Tensor": Tensor, "nn": nn, "ops": ops}
    exec(SETUP, scope)
    return scope


def show(v):
    if isinstance(v, ms.COOTensor):
        return {"coo": [show(v.indices), show(v.values), list(v.shape)]}
    if isinstance(v, ms.CSRTensor):
        return {"csr": [show(v.indptr), show(v.indices), show(v.values), list(v.shape)]}
    if isinstance(v, Tensor):
        return [str(v.dtype), v.asnumpy().tolist()]
    if isinstance(v, (tuple, list)):
        return [show(x) for x in v]
    if isinstance(v, (bool, int, float)):
        return v
    return str(v)


def _close(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return bool(np.isclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True))
    return a == b


def _cases(kind):
    for expr, r in FIXTURE.items():
        if expr in DIFFERENT:
            yield pytest.param(expr, ["OK", DIFFERENT[expr]], id=expr[:60]) if kind == "ok" else None
            continue
        if r[0] == "ERR" and (any(m in r[2] for m in NO_CPU_KERNEL) or r[1] == "Crash"):
            continue
        if (r[0] == "OK") == (kind == "ok"):
            yield pytest.param(expr, r, id=expr[:60])


# log1p of the fixture's values below -1 is NaN in MindSpore too; NumPy's warning about it is expected noise
@pytest.mark.filterwarnings("ignore:invalid value encountered in log1p:RuntimeWarning")
@pytest.mark.parametrize("expr,expected", [c for c in _cases("ok") if c is not None])
def test_matches_mindspore(expr, expected):
    assert _close(show(eval(expr, _scope())), expected[1])


@pytest.mark.parametrize("expr,expected", [c for c in _cases("err") if c is not None])
def test_rejects_like_mindspore(expr, expected):
    with pytest.raises(getattr(__builtins__, expected[1], None) or Exception) as info:
        eval(expr, _scope())
    assert type(info.value).__name__ == expected[1]
    assert _msg(str(info.value)) == _msg(expected[2])


def _msg(text: str) -> str:
    """A message without its class paths (mindspore.common.tensor.Tensor == sprout.core.tensor.Tensor) and with
    MindSpore's typo 'euqal' read as 'equal'."""
    return re.sub(r"<class '(?:\w+\.)*(\w+)'>", r"<class '\1'>", text.split("\n")[0]).replace("euqal", "equal")


def test_the_fixture_covers_the_cpu_less_cases():
    """The cases MindSpore CPU could not run are exactly the ones checked against NumPy below."""
    missing = {e for e, r in FIXTURE.items() if r[0] == "ERR" and any(m in r[2] for m in NO_CPU_KERNEL)}
    assert missing <= {"ops.csr_mul(csr, dense)", "ops.csr_div(csr, dense)", "ops.csr_reduce_sum(csr, 1)",
                       "ops.csr_mv(csr, Tensor(np.ones((4, 1), np.float32)))", "ops.csr2coo(csr.indptr, 3)",
                       "ops.coo2csr(Tensor(np.array([0, 1, 2], np.int32)), 3)", "coo.to_csr()", "csr.to_coo()",
                       "csr.mm(D)"}, missing


# ---- the operations MindSpore CPU has no kernel for: against NumPy on dense matrices -----------------------------
def _rand_csr(seed, m=5, n=6, density=0.4):
    rng = np.random.default_rng(seed)
    a = np.where(rng.random((m, n)) < density, rng.standard_normal((m, n)), 0).astype(np.float32)
    return a, ops.dense_to_sparse_csr(Tensor(a))


def test_csr_arithmetic_against_numpy():
    a, x = _rand_csr(0)
    d = np.random.default_rng(1).standard_normal((5, 6)).astype(np.float32) + 3
    mask = a != 0
    assert np.allclose(ops.csr_mul(x, Tensor(d)).to_dense().asnumpy(), a * d)
    assert np.allclose(ops.csr_div(x, Tensor(d)).to_dense().asnumpy(), np.where(mask, a / d, 0))
    row = d[:1]  # broadcast (1, 6) -> (5, 6)
    assert np.allclose((x * Tensor(row)).to_dense().asnumpy(), a * row)
    v = np.random.default_rng(2).standard_normal((6, 1)).astype(np.float32)
    assert np.allclose(ops.csr_mv(x, Tensor(v)).asnumpy(), a @ v, atol=1e-5)
    m = np.random.default_rng(3).standard_normal((6, 3)).astype(np.float32)
    assert np.allclose(x.mm(Tensor(m)).asnumpy(), a @ m, atol=1e-5)
    assert np.allclose(ops.csr_reduce_sum(x, 1).asnumpy(), a.sum(1, keepdims=True), atol=1e-6)
    assert np.allclose(x.sum(-1).asnumpy(), a.sum(1, keepdims=True), atol=1e-6)
    b_dense, b = _rand_csr(4, 6, 4)
    c = ops.csr_mm(x, b)
    assert isinstance(c, ms.CSRTensor) and c.shape == (5, 4)
    assert np.allclose(c.to_dense().asnumpy(), a @ b_dense, atol=1e-5)
    assert np.allclose(ops.csr_mm(b, x, trans_a=True, trans_b=True).to_dense().asnumpy(), (a @ b_dense).T, atol=1e-5)
    with pytest.raises(ValueError, match="axis"):
        ops.csr_reduce_sum(x, 0)


def test_conversions_against_numpy():
    a, x = _rand_csr(5)
    coo = x.to_coo()
    rows, cols = np.nonzero(a)
    assert coo.indices.asnumpy().tolist() == np.stack([rows, cols], 1).tolist()
    assert np.array_equal(coo.to_dense().asnumpy(), a)
    assert np.array_equal(ops.csr2coo(x.indptr, x.values.shape[0]).asnumpy(), rows)
    assert np.array_equal(ops.coo2csr(Tensor(rows.astype(np.int32)), 5).asnumpy(), x.indptr.asnumpy())
    # an unsorted COO tensor: to_csr sorts rows stably, duplicates add up in the dense form
    idx = np.array([[2, 1], [0, 3], [2, 0], [0, 3]], np.int32)
    unsorted = ms.COOTensor(Tensor(idx), Tensor(np.array([1., 2., 3., 4.], np.float32)), (3, 4))
    c = unsorted.to_csr()
    assert c.indptr.asnumpy().tolist() == [0, 2, 2, 4] and c.indices.asnumpy().tolist() == [3, 3, 1, 0]
    assert np.array_equal(c.to_dense().asnumpy(), unsorted.to_dense().asnumpy())
    assert unsorted.to_dense().asnumpy()[0, 3] == 6.0
    co = unsorted.coalesce()
    assert co.indices.asnumpy().tolist() == [[0, 3], [2, 0], [2, 1]] and co.values.asnumpy().tolist() == [6, 3, 1]


def test_misuse_is_rejected():
    s = _scope()
    with pytest.raises(TypeError, match="csr_to_coo, input argument must be a CSRTensor"):
        ops.csr_to_coo(s["coo"])
    with pytest.raises(ValueError, match="cannot broadcast"):
        ops.csr_mul(s["csr"], Tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(ValueError, match="input number < 2"):
        ops.coo_concat([s["coo"]])
    with pytest.raises(TypeError, match="same dtype"):
        ops.SparseTensorDenseMatmul()(s["ci"], s["cv"], (3, 4), Tensor(np.ones((4, 2), np.float64)))
    with pytest.raises(ValueError, match="inner dimensions"):
        ops.SparseTensorDenseMatmul()(s["ci"], s["cv"], (3, 4), Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(TypeError, match="must be a bool"):
        nn.SparseTensorDenseMatmul(adjoint_st=1)
    with pytest.raises(ValueError, match="dense shape"):
        ms.RowTensor(Tensor([0, 2], ms.int32), Tensor(np.ones((2, 3), np.float32)), (3, 2))


# ---- jit: sparse tensors in and out, both captures ----------------------------------------------------------------
def _f_unary(c):
    return ops.coo_relu(ops.coo_neg(c))


def _f_mm(c, d):
    return c.mm(d) * 2 + ops.csr_reduce_sum(c, 1)


def _f_softmax(c):
    return ops.csr_softmax(c, ms.float32)


def _f_convert(c):
    return c.to_csr().to_dense() + ops.SparseToDense()(c.indices, c.values, c.shape)


def _f_build(i, v):
    coo = ms.COOTensor(i, v, (3, 4))
    return coo, ops.coo_concat((coo, coo), 1)


def _f_stdm(i, v, d):
    return nn.SparseTensorDenseMatmul(adjoint_st=True)(i, v, (3, 4), d)


@pytest.mark.parametrize("capture", ["ast", "bytecode"])
@pytest.mark.parametrize("fn,args", [
    (_f_unary, lambda s: (s["coo"],)), (_f_mm, lambda s: (s["csr"], s["D"])), (_f_softmax, lambda s: (s["csr2"],)),
    (_f_convert, lambda s: (s["coo"],)), (_f_build, lambda s: (s["ci"], s["cv"])),
    (_f_stdm, lambda s: (s["ci"], s["cv"], Tensor(np.ones((3, 2), np.float32)))),
])
def test_jit_equals_eager(fn, args, capture):
    s = _scope()
    f = ms.jit(fn, capture_mode=capture)
    assert _close(show(f(*args(s))), show(fn(*args(s))))
    # new values of the same structure: the same compiled function, new results
    s["coo"] = ms.COOTensor(s["ci"], s["cv"] * 3, (3, 4))
    s["csr"] = ms.CSRTensor(s["csr"].indptr, s["csr"].indices, s["cv"] * -2, (3, 4))
    s["csr2"] = ms.CSRTensor(s["csr2"].indptr, s["csr2"].indices, s["csr2"].values * 0.5, (3, 4))
    s["cv"] = s["cv"] + 7
    assert _close(show(f(*args(s))), show(fn(*args(s))))


def test_jit_recompiles_only_for_a_new_sparse_shape():
    s = _scope()
    f = ms.jit(_f_convert)
    f(s["coo"])
    f(ms.COOTensor(s["ci"], s["cv"] + 1, (3, 4)))
    assert ms.jit.stats(f)["compiles"] == 1
    out = f(ms.COOTensor(s["ci"], s["cv"], (4, 4)))
    assert out.shape == (4, 4) and ms.jit.stats(f)["compiles"] == 2


def test_data_dependent_results_refuse_jit():
    s = _scope()
    with pytest.raises(Exception, match="depends on the index values"):
        ms.jit(lambda a, b: ops.coo_add(a, b, Tensor(0.0, ms.float32)).values)(s["coo"], s["coo2"])


# ---- gradients w.r.t. the values ---------------------------------------------------------------------------------
@pytest.mark.parametrize("capture", [None, "ast", "bytecode"])
def test_gradients_through_sparse_ops(capture):
    s = _scope()
    csr, D = s["csr"], s["D"]

    def loss(v, d):
        x = ms.CSRTensor(csr.indptr, csr.indices, v, (3, 4))
        y = ops.csr_exp(x)
        return (x.mm(d) * 2).sum() + ops.csr_reduce_sum(y, 1).sum() + ops.csr_mul(x, d[:, 0]).values.sum()

    f = loss if capture is None else ms.jit(loss, capture_mode=capture)
    v = s["cv"]
    gv, gd = ms.grad(f, grad_position=(0, 1))(v, ms.Tensor(np.ones((4, 3), np.float32)))
    a_cols = csr.indices.asnumpy()
    expect_v = 2 * 3 + np.exp(v.asnumpy()) + 1.0  # d(mm*2).sum(): 2 * row sum of d; exp; d[col, 0] = 1
    assert np.allclose(gv.asnumpy(), expect_v, atol=1e-5)
    dense_a = csr.to_dense().asnumpy()
    assert np.allclose(gd.asnumpy()[:, 1:], 2 * dense_a.sum(0)[:, None].repeat(2, 1), atol=1e-5)
    assert a_cols.shape == (3,)
    # the gradient w.r.t. a sparse argument is the gradient of its values (as MindSpore's)
    g = ms.grad(lambda c: ops.coo_square(c).to_dense().sum())(s["coo"])
    assert np.allclose(g.asnumpy(), 2 * s["cv"].asnumpy())
    del D


def test_gradients_match_finite_differences():
    s = _scope()
    ci, D = s["ci"], s["D"]
    v0 = np.array([0.3, -0.7, 1.1], np.float32)

    def loss(v):
        coo = ms.COOTensor(ci, v, (3, 4))
        out = ops.SparseTensorDenseMatmul()(coo.indices, coo.values, coo.shape, D)
        soft = ops.csr_softmax(coo.to_csr(), ms.float32)
        return (out * out).sum() + (soft.values * ms.Tensor(np.array([1., 2., 3.], np.float32))).sum()

    g = ms.grad(loss)(Tensor(v0)).asnumpy()
    eps = 1e-3
    num = [(loss(Tensor(v0 + eps * e)).asnumpy() - loss(Tensor(v0 - eps * e)).asnumpy()) / (2 * eps)
           for e in np.eye(3, dtype=np.float32)]
    assert np.allclose(g, num, rtol=1e-2, atol=1e-2)


# ---- coalesce / Coalesce, SparseTensorDenseAdd, SparseSlice (MindSpore 2.10's first-call outputs; its CPU
# Coalesce returns stale extra columns on later calls, so the documented result is checked) -----------------------
def test_coalesce_dense_add_and_slice():
    ix = Tensor(np.array([[0, 0, 1, 1], [1, 0, 1, 1]], np.int64))
    xv, xs = Tensor(np.array([1., 5., 4., 2.], np.float32)), Tensor(np.array([3, 3], np.int64))
    for fn in (ops.coalesce, ops.Coalesce()):
        idx, val, shape = fn(ix, xv, xs)
        assert idx.asnumpy().tolist() == [[0, 0, 1], [0, 1, 1]] and val.asnumpy().tolist() == [5.0, 1.0, 6.0]
        assert shape.asnumpy().tolist() == [3, 3]
    assert ms.grad(lambda v: ops.coalesce(ix, v, xs)[1].sum() * 2)(xv).asnumpy().tolist() == [2.0] * 4
    i2 = Tensor(np.array([[0, 0], [1, 2]], np.int64))
    add = ops.SparseTensorDenseAdd()
    out = add(i2, Tensor([1., 2.]), Tensor(np.array([3, 4], np.int64)), Tensor(np.ones((3, 4), np.float32)))
    assert out.asnumpy().tolist() == [[2, 1, 1, 1], [1, 1, 3, 1], [1, 1, 1, 1]]
    g = ms.grad(lambda v: add(i2, v, Tensor(np.array([3, 4], np.int64)), Tensor(np.ones((3, 4), np.float32))).sum())
    assert g(Tensor([1., 2.])).asnumpy().tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="must be all tensor and those type must be same"):
        add(Tensor(np.array([[0, 0], [1, 2]], np.int32)), Tensor([1., 2.]), (3, 4), Tensor(np.ones((3, 4), np.float32)))
    si = Tensor(np.array([[0, 1], [1, 2], [1, 3], [2, 2]], np.int64))
    sv, ss = Tensor(np.array([1, 2, 3, 4], np.int64)), Tensor(np.array([3, 4], np.int64))
    cases = [((0, 1), (2, 3), [[0, 0], [1, 1], [1, 2]], [1, 2, 3], [2, 3]),
             ((1, 2), (5, 5), [[0, 0], [0, 1], [1, 0]], [2, 3, 4], [2, 2])]
    for start, size, want_i, want_v, want_s in cases:
        i, v, s = ops.SparseSlice()(si, sv, ss, Tensor(np.array(start, np.int64)), Tensor(np.array(size, np.int64)))
        assert (i.asnumpy().tolist(), v.asnumpy().tolist(), s.asnumpy().tolist()) == (want_i, want_v, want_s)
