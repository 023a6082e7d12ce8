"""Tensor methods MindSpore 2.10's CPU build cannot run (no kernel: repeat, unique, roll, the in-place
``*_`` spellings, the samplers ...; or a MindSpore bug: kthvalue, eigvals), checked against NumPy. The
methods it can run are checked against its stored results in oracle/cases_tensor.py."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor

RNG = np.random.default_rng(7)
A = RNG.uniform(-2, 2, (3, 4)).astype(np.float32)


def t(a=A):
    return Tensor(a.copy())


def test_every_mindspore_method_name_exists_or_is_listed():
    """The names deliberately left out are the device/storage/Parameter internals noted in the module docs."""
    left_out = {"assign_value_cpp", "const_arg", "convert_bytes_to_tensor",
                "delete_", "delta_seed", "flush_from_cache", "getitem_index_info", "index",
                "index_of_parent_", "init_finished", "init_flag", "is_init",
                "offload", "offload_file_path", "param_info", "parent_tensor_", "pin_memory", "set_", "set_cast_dtype",
                "set_const_arg", "set_device_address", "set_init_flag", "set_param_info", "setitem_index_info",
                "storage", "symbolic_shape", "to_", "untyped_storage", "virtual_flag", "wait_pipeline"}
    spot = ["repeat", "select", "resize", "value", "expand", "swapaxes", "multiply", "not_equal", "less_equal",
            "greater_equal", "eq", "t", "bmm", "log2", "gather_nd", "nonzero", "dot", "repeat_interleave", "take",
            "uniform", "copy_", "argmax_with_value", "init", "from_numpy", "kthvalue", "unique", "add_", "fill_",
            "register_hook", "remove_hook", "hooks", "requires_grad_", "to_coo", "to_csr", "data_ptr", "data_sync",
            "get_bytes", "is_meta", "is_pinned", "is_shared"]
    assert all(hasattr(Tensor, n) for n in spot)
    assert not any(hasattr(Tensor, n) for n in left_out if n not in ("init",))


@pytest.mark.parametrize("reps", [(2, 1), (1, 2, 3), ((2, 2),)])
def test_repeat_tiles(reps):
    want = np.tile(A, reps[0] if isinstance(reps[0], tuple) else reps)
    np.testing.assert_array_equal(t().repeat(*reps).asnumpy(), want)


def test_repeat_misuse():
    with pytest.raises(ValueError, match="repeat"):
        t().repeat(2)
    with pytest.raises(TypeError, match="repeat"):
        t().repeat(2.0, 1)


def test_unique_variants():
    a = np.array([3, 1, 3, 2, 1], np.int64)
    v, inv, cnt = Tensor(a).unique(return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(v.asnumpy(), [1, 2, 3])
    np.testing.assert_array_equal(v.asnumpy()[inv.asnumpy()], a)
    np.testing.assert_array_equal(cnt.asnumpy(), [2, 1, 2])
    v, inv = Tensor(a).unique(sorted=False, return_inverse=True)
    np.testing.assert_array_equal(v.asnumpy(), [3, 1, 2])
    np.testing.assert_array_equal(v.asnumpy()[inv.asnumpy()], a)
    rows = np.array([[1, 2], [0, 0], [1, 2]], np.int32)
    np.testing.assert_array_equal(Tensor(rows).unique(dim=0).asnumpy(), [[0, 0], [1, 2]])


def test_kthvalue():
    v, i = t().kthvalue(2, 1)
    s = np.sort(A, 1)
    np.testing.assert_array_equal(v.asnumpy(), s[:, 1])
    np.testing.assert_array_equal(A[np.arange(3), i.asnumpy()], s[:, 1])
    assert i.dtype == ms.int64
    v, _ = t().kthvalue(1, 0, keepdim=True)
    assert v.shape == (1, 4)
    with pytest.raises(ValueError, match="kthvalue"):
        t().kthvalue(5, 1)


def test_no_cpu_kernel_methods_against_numpy():
    x = t()
    np.testing.assert_allclose(x.roll(1, 0).asnumpy(), np.roll(A, 1, 0))
    np.testing.assert_allclose(x.fmin(-x).asnumpy(), np.fmin(A, -A))
    np.testing.assert_array_equal(Tensor(np.array([1, -2], np.int32)).bitwise_not().asnumpy(), [-2, 1])
    np.testing.assert_array_equal(x.fills(2.5).asnumpy(), np.full_like(A, 2.5))
    np.testing.assert_allclose(x.quantile(0.3, 1).asnumpy(), np.quantile(A, 0.3, 1), rtol=1e-5)
    sym = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    np.testing.assert_allclose(np.sort(Tensor(sym).eigvals().asnumpy().real), np.linalg.eigvalsh(sym), rtol=1e-5)
    np.testing.assert_array_equal(x.new_full((2,), 3).asnumpy(), [3.0, 3.0])
    assert x.new_full(2, 1, dtype=ms.int32).dtype == ms.int32


INPLACE = [
    ("add_", lambda x: x.add_(1.5, alpha=2), lambda a: a + 3.0),
    ("log_", lambda x: x.log_(), np.log),
    ("sigmoid_", lambda x: x.sigmoid_(), lambda a: 1 / (1 + np.exp(-a))),
    ("sign_", lambda x: x.sign_(), np.sign),
    ("floor_", lambda x: x.floor_(), np.floor),
    ("tanh_", lambda x: x.tanh_(), np.tanh),
    ("clamp_", lambda x: x.clamp_(-0.5, 0.5), lambda a: np.clip(a, -0.5, 0.5)),
    ("fill_", lambda x: x.fill_(2.0), lambda a: np.full_like(a, 2.0)),
    ("zero_", lambda x: x.zero_(), np.zeros_like),
    ("masked_fill_", lambda x: x.masked_fill_(x > 0, 2.0), lambda a: np.where(a > 0, 2.0, a)),
    ("remainder_", lambda x: x.remainder_(0.7), lambda a: np.mod(a, 0.7)),
    ("floor_divide_", lambda x: x.floor_divide_(0.7), lambda a: np.floor_divide(a, 0.7)),
    ("div_floor", lambda x: x.div_(0.7, rounding_mode="floor"), lambda a: np.floor(a / 0.7)),
]


@pytest.mark.parametrize("name, call, ref", INPLACE, ids=[c[0] for c in INPLACE])
def test_inplace_updates_the_tensor(name, call, ref):
    a = np.abs(A) if name == "log_" else A
    x = t(a)
    assert call(x) is x
    np.testing.assert_allclose(x.asnumpy(), ref(a).astype(np.float32), rtol=1e-5, atol=1e-6)


def test_inplace_indexing_methods():
    x = t()
    x.index_fill_(1, Tensor(np.array([0, 2])), -1.0)
    want = A.copy()
    want[:, [0, 2]] = -1
    np.testing.assert_array_equal(x.asnumpy(), want)
    src = RNG.uniform(size=(3, 2)).astype(np.float32)
    x.index_copy_(1, Tensor(np.array([3, 1])), Tensor(src))
    want[:, [3, 1]] = src
    np.testing.assert_array_equal(x.asnumpy(), want)
    x.index_add_(0, Tensor(np.array([0, 0])), Tensor(np.ones((2, 4), np.float32)), alpha=2)
    want[0] += 4
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    x.index_put_((Tensor(np.array([1])), Tensor(np.array([2]))), Tensor(np.array([9.0], np.float32)))
    want[1, 2] = 9
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    x.put_(Tensor(np.array([0, -1])), Tensor(np.array([5.0, 6.0], np.float32)))
    want.flat[[0, -1]] = [5, 6]
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    x.put_(Tensor(np.array([1, 1])), Tensor(np.array([1.0, 1.0], np.float32)), accumulate=True)
    want.flat[1] += 2
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    x.masked_scatter_(x > 100, Tensor(np.zeros(12, np.float32)))  # nothing selected: unchanged
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    idx = np.array([[0, 1], [2, 0], [1, 1]])
    x.scatter_(1, Tensor(idx), 0.0)
    np.put_along_axis(want, idx, 0.0, 1)
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    x.scatter_add_(1, Tensor(idx), Tensor(np.ones((3, 2), np.float32)))
    np.add.at(want, (np.arange(3)[:, None], idx), 1.0)
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-6)
    got = x.scatter(1, Tensor(idx), Tensor(np.full((3, 2), 2.0, np.float32)), reduce="add")
    ref = want.copy()
    np.add.at(ref, (np.arange(3)[:, None], idx), 2.0)
    np.testing.assert_allclose(got.asnumpy(), ref, rtol=1e-6)
    with pytest.raises(ValueError, match="multiply"):
        x.scatter(1, Tensor(idx), 1.0, reduce="multiply")


def test_fill_diagonal_and_addmm_():
    for shape, wrap in (((3, 3), False), ((5, 2), True), ((5, 2), False), ((2, 2, 2), False)):
        a = np.zeros(shape, np.float32)
        x = Tensor(a.copy())
        x.fill_diagonal_(1.0, wrap)
        np.fill_diagonal(a, 1.0, wrap=wrap)
        np.testing.assert_array_equal(x.asnumpy(), a)
    m = RNG.uniform(size=(3, 2)).astype(np.float32)
    y = Tensor(np.ones((3, 3), np.float32))
    y.addmm_(Tensor(m), Tensor(m.T), beta=0.5, alpha=2.0)
    np.testing.assert_allclose(y.asnumpy(), 0.5 + 2 * m @ m.T, rtol=1e-6)


def test_samplers_shapes_ranges_and_seeds():
    x = t()
    ms.set_seed(3)
    u = x.copy().uniform_(2.0, 3.0)
    assert u.shape == A.shape and u.dtype == ms.float32
    assert np.all((u.asnumpy() >= 2) & (u.asnumpy() < 3))
    ms.set_seed(3)
    np.testing.assert_array_equal(x.copy().uniform_(2.0, 3.0).asnumpy(), u.asnumpy())
    r = x.copy().random_(0, 5).asnumpy()
    assert set(np.unique(r)) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    b = x.copy().bernoulli_(0.0).asnumpy()
    assert np.all(b == 0)
    assert np.all(Tensor(np.ones((2, 2), np.float32)).bernoulli().asnumpy() == 1)
    assert np.all(x.copy().exponential_(2.0).asnumpy() > 0)
    assert x.copy().normal_(1.0, 0.0).asnumpy().tolist() == np.ones_like(A).tolist()
    assert x.uniform().shape == A.shape
    with pytest.raises(TypeError, match="generator"):
        x.uniform_(generator=object())
    with pytest.raises(ValueError, match="sigma"):
        x.cauchy(0.0, -1.0)


def test_inplace_on_parameter_and_under_jit():
    p = ms.Parameter(t(), name="p")
    p.add_(1.0)
    np.testing.assert_allclose(p.asnumpy(), A + 1, rtol=1e-6)

    @ms.jit
    def step(x):
        x.mul_(2.0)
        return x + 1

    x = t()
    out = step(x)
    np.testing.assert_allclose(x.asnumpy(), A * 2, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), A * 2 + 1, rtol=1e-6)


def test_inplace_keeps_shape_and_dtype():
    x = Tensor(np.arange(4, dtype=np.int32))
    x.add_(1.7)
    assert x.dtype == ms.int32
    with pytest.raises(RuntimeError, match="shape"):
        Tensor(np.zeros(3, np.float32)).copy_(Tensor(np.zeros((2, 3), np.float32)))


def test_host_side_helpers():
    a = np.arange(6, dtype=np.float32)
    x = Tensor.from_numpy(a)
    a[0] = 9
    assert x.asnumpy()[0] == 9  # shares memory
    y = Tensor.from_dlpack(x.to_dlpack())
    np.testing.assert_array_equal(y.asnumpy(), a)
    with pytest.raises(TypeError, match="from_numpy"):
        Tensor.from_numpy([1, 2])
    c = Tensor(np.array([0, 3, -1]))
    ch = [Tensor(np.array([1, 2, 3])), Tensor(np.array([4, 5, 6]))]
    np.testing.assert_array_equal(c.choose(ch, mode="wrap").asnumpy(), np.choose([0, 3, -1], [[1, 2, 3], [4, 5, 6]],
                                                                                   mode="wrap"))
    with pytest.raises(ValueError, match="choose"):
        c.choose(ch, mode="raise")
    with pytest.raises(ValueError, match="take"):
        t().take(Tensor(np.array([0])), mode="bogus")
    with pytest.raises(IndexError, match="select"):
        t().select(2, 0)
    with pytest.raises(IndexError, match="select"):
        t().select(0, 3)
    with pytest.raises(ValueError, match="sum_to_size"):
        t().sum_to_size(2, 4)
    assert t().itemset(0, 1.0).asnumpy().flat[0] == 1.0


@pytest.mark.parametrize("upper, transpose, unit", [(True, False, False), (False, False, False),
                                                    (True, True, False), (False, True, True)])
def test_triangular_solve(upper, transpose, unit):
    import scipy.linalg

    a = RNG.uniform(0.5, 2.0, (3, 3)).astype(np.float64) + 3 * np.eye(3)
    b = RNG.uniform(-1, 1, (3, 2)).astype(np.float64)
    x, tri = Tensor(b).triangular_solve(Tensor(a), upper, transpose, unit)
    want = scipy.linalg.solve_triangular(a, b, trans=1 if transpose else 0, lower=not upper, unit_diagonal=unit)
    np.testing.assert_allclose(x.asnumpy(), want, rtol=1e-10)
    ref_tri = np.triu(a) if upper else np.tril(a)
    if unit:
        np.fill_diagonal(ref_tri, 1.0)
    np.testing.assert_allclose(tri.asnumpy(), ref_tri)
    g = ms.grad(lambda bb: bb.triangular_solve(Tensor(a), upper, transpose, unit)[0].sum())(Tensor(b))
    eps = 1e-6
    fd = np.zeros_like(b)
    for i in np.ndindex(b.shape):
        bp, bm = b.copy(), b.copy()
        bp[i] += eps
        bm[i] -= eps
        fd[i] = (scipy.linalg.solve_triangular(a, bp, trans=int(transpose), lower=not upper, unit_diagonal=unit).sum()
                 - scipy.linalg.solve_triangular(a, bm, trans=int(transpose), lower=not upper,
                                                 unit_diagonal=unit).sum()) / (2 * eps)
    np.testing.assert_allclose(g.asnumpy(), fd, rtol=1e-5, atol=1e-7)
