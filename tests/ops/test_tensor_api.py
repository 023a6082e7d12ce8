"""Tensor methods and functional conventions whose return shapes/dtypes MindSpore 2.10 fixes (each
expectation was checked against the real MindSpore), plus indexing, in-place state and random seeding."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, ops

X = np.array([[1, 5, 3], [4, 2, 6]], np.float32)


def x():
    return Tensor(X)


def same(t, values, dtype):
    assert isinstance(t, Tensor) and t.dtype is dtype, (t, dtype)
    np.testing.assert_allclose(t.asnumpy(), values, rtol=1e-6)


# ---- max / min / argmax: MindSpore 2.x return conventions -----------------------------------------
def test_ops_max_min_return_values_and_int64_indices():
    v, i = ops.max(x(), 1)
    same(v, [5, 6], ms.float32)
    same(i, [1, 2], ms.int64)
    v, i = ops.min(x(), 0, keepdims=True)
    same(v, [[1, 2, 3]], ms.float32)
    same(i, [[0, 1, 0]], ms.int64)


def test_ops_max_without_axis_returns_index_zero_like_mindspore():
    v, i = ops.max(Tensor(np.array([3.0, 9.0, 1.0], np.float32)))
    same(v, 9.0, ms.float32)
    same(i, 0, ms.int64)


def test_tensor_max_overloads():
    same(x().max(), 6, ms.float32)
    same(x().max(axis=1), [5, 6], ms.float32)                 # numpy-style keyword: values only
    same(x().max(1, keepdims=True), [[5], [6]], ms.float32)
    v, i = x().max(1)                                           # positional axis: (values, indices)
    same(v, [5, 6], ms.float32)
    same(i, [1, 2], ms.int64)
    v, i = x().max(dim=1)
    same(i, [1, 2], ms.int64)
    v, i = x().min(1, True)
    same(v, [[1], [2]], ms.float32)
    same(i, [[0], [1]], ms.int64)
    v, i = x().max(axis=1, return_indices=True)
    same(i, [1, 2], ms.int64)


def test_argmax_is_int64_and_argmin_int32():
    same(ops.argmax(x()), 5, ms.int64)
    same(ops.argmax(x(), 1, True), [[1], [2]], ms.int64)
    same(x().argmax(axis=1, keepdims=True), [[1], [2]], ms.int64)
    same(ops.argmin(x()), 0, ms.int32)
    same(x().argmin(1), [0, 1], ms.int32)
    same(ops.Argmax(axis=0)(x()), [1, 0, 1], ms.int32)
    same(ops.Argmax(output_type=ms.int64)(x()), [1, 2], ms.int64)
    i, v = ops.ArgMaxWithValue(axis=1)(x())
    same(i, [1, 2], ms.int64)
    same(v, [5, 6], ms.float32)


# ---- other reductions ----------------------------------------------------------------------------------
def test_reduction_spellings():
    same(x().sum(1, True), [[9], [12]], ms.float32)
    same(x().sum(dim=1, keepdim=True), [[9], [12]], ms.float32)
    same(x().sum(axis=(0, 1)), 21, ms.float32)
    same(x().sum(1, dtype=ms.int32), [9, 12], ms.int32)
    same(x().mean(1, True), [[3], [4]], ms.float32)
    same(x().mean(axis=1, keep_dims=True), [[3], [4]], ms.float32)
    same(x().prod(1, True), [[15], [48]], ms.float32)
    same(ops.ReduceMax(keep_dims=True)(x(), 1), [[5], [6]], ms.float32)
    same(ops.ReduceMean()(Tensor(X.astype(np.int32))), 3, ms.int32)


def test_std_var_use_population_variance_by_default():
    same(x().std(), 1.7078251, ms.float32)
    same(x().std(1), [1.6329932, 1.6329932], ms.float32)
    same(x().var(1, True), [4, 4], ms.float32)                  # the second positional is ddof
    same(ops.std(x(), 1, 1), [2, 2], ms.float32)
    same(ops.var(x(), 1, keepdims=True), [[2.6666667], [2.6666667]], ms.float32)
    same(ops.logsumexp(x(), 1), [5.142932, 6.142932], ms.float32)


def test_any_all():
    same(x().any(), True, ms.bool_)
    same((x() > 2).all(1), [False, False], ms.bool_)
    same((x() > 2).any(axis=1, keep_dims=True), [[True], [True]], ms.bool_)
    same(ops.ReduceAll()(x() > 2), False, ms.bool_)


# ---- shape and conversion methods ------------------------------------------------------------------
def test_metadata_and_host_access():
    t = x()
    assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and t.dtype is ms.float32
    assert ops.shape(t) == (2, 3) and ops.rank(t) == 2 and ops.size(t) == 6 and ops.dtype(t) is ms.float32
    assert t[0, 1].item() == 5.0 and t.tolist() == [[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]
    assert isinstance(t.asnumpy(), np.ndarray)
    with pytest.raises(ValueError):
        t.item()


def test_astype_reshape_flatten_squeeze():
    t = x()
    assert t.astype(ms.int32).dtype is ms.int32 and t.astype(np.int32).dtype is ms.int32
    assert t.astype("int32").dtype is ms.int32 and t.int().dtype is ms.int32 and t.half().dtype is ms.float16
    assert t.reshape(3, 2).shape == (3, 2) and t.reshape((3, -1)).shape == (3, 2) and t.view(6).shape == (6,)
    assert t.transpose().shape == (3, 2) and t.T.shape == (3, 2)
    cube = Tensor(np.ones((2, 3, 4), np.float32))
    assert cube.flatten().shape == (24,) and ops.flatten(cube).shape == (2, 12)
    assert ops.flatten(cube, start_dim=0).shape == (24,)
    ones = Tensor(np.ones((1, 2, 1)))
    assert ones.squeeze().shape == (2,) and ops.squeeze(ones, (0, 2)).shape == (2,)
    assert ops.squeeze(ones, 1).shape == (1, 2, 1)            # a size-2 axis is left alone, as MindSpore
    assert t.expand_dims(0).shape == (1, 2, 3) and t.unsqueeze(-1).shape == (2, 3, 1)


def test_copy_is_independent():
    t = x()
    c = t.copy()
    t[0, 0] = 100.0
    assert c[0, 0].item() == 1.0


# ---- indexing ------------------------------------------------------------------------------------------
def test_getitem_basic_and_advanced():
    t = x()
    np.testing.assert_array_equal(t[1].asnumpy(), X[1])
    np.testing.assert_array_equal(t[:, ::2].asnumpy(), X[:, ::2])
    np.testing.assert_array_equal(t[None, 1].asnumpy(), X[None, 1])
    np.testing.assert_array_equal(t[..., -1].asnumpy(), X[..., -1])
    np.testing.assert_array_equal(t[[1, 0]].asnumpy(), X[[1, 0]])
    np.testing.assert_array_equal(t[Tensor(np.array([1, 0]))].asnumpy(), X[[1, 0]])
    np.testing.assert_array_equal(t[t > 2].asnumpy(), X[X > 2])
    np.testing.assert_array_equal(t[[0, 1], [2, 0]].asnumpy(), X[[0, 1], [2, 0]])


def test_setitem_basic_and_advanced():
    t = x()
    t[0] = 0.0
    t[:, 1] = Tensor(np.array([7.0, 8.0], np.float32))
    t[t > 5] = -1.0
    t[[1], [0]] = 9.0
    want = X.copy()
    want[0] = 0
    want[:, 1] = [7, 8]
    want[want > 5] = -1
    want[1, 0] = 9
    np.testing.assert_array_equal(t.asnumpy(), want)
    assert t.dtype is ms.float32


def test_operators_broadcast_and_reflect():
    t, row = x(), Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    np.testing.assert_allclose((t + row).asnumpy(), X + [1, 2, 3])
    np.testing.assert_allclose((2 - t).asnumpy(), 2 - X)
    np.testing.assert_allclose((1 / t).asnumpy(), 1 / X, rtol=1e-6)
    np.testing.assert_allclose((t ** 2).asnumpy(), X ** 2)
    np.testing.assert_allclose((t @ t.T).asnumpy(), X @ X.T)
    np.testing.assert_array_equal((t >= row).asnumpy(), X >= [1, 2, 3])
    np.testing.assert_array_equal(((t > 2) & (t < 5)).asnumpy(), (X > 2) & (X < 5))
    np.testing.assert_array_equal((~(t > 2)).asnumpy(), ~(X > 2))
    xi = Tensor(X.astype(np.int32))
    same(xi & xi, X.astype(np.int32), ms.int32)                  # & on ints is bitwise
    same(-xi // 4, -X.astype(np.int32) // 4, ms.int32)
    same(Tensor(np.array([-7.5], np.float32)) % 2, [0.5], ms.float32)


# ---- in-place state and random ops ------------------------------------------------------------------------
def test_assign_writes_the_parameter_in_place():
    p = ms.Parameter(Tensor(np.ones(3, np.float32)), name="p")
    data = p.asnumpy()
    same(ops.assign(p, Tensor(np.array([1, 2, 3], np.float32))), [1, 2, 3], ms.float32)
    same(ops.assign_add(p, Tensor(np.ones(3, np.float32))), [2, 3, 4], ms.float32)
    same(ops.AssignSub()(p, Tensor(np.ones(3, np.float32))), [1, 2, 3], ms.float32)
    assert p.asnumpy() is data
    np.testing.assert_array_equal(data, [1, 2, 3])


def test_batch_norm_updates_running_statistics():
    xs = Tensor((np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)) ** 1.5)
    rm = ms.Parameter(Tensor(np.zeros(2, np.float32)), name="rm")
    rv = ms.Parameter(Tensor(np.ones(2, np.float32)), name="rv")
    w = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")
    b = ms.Parameter(Tensor(np.zeros(2, np.float32)), name="b")
    out = ops.batch_norm(xs, rm, rv, w, b, training=True, momentum=0.1)
    # values captured from MindSpore 2.10's ops.batch_norm
    np.testing.assert_allclose(out.asnumpy().ravel()[:4], [-1.120543, -1.0498227, -0.9205157, -0.7530694], rtol=1e-5)
    np.testing.assert_allclose(rm.asnumpy(), [1.5844706, 3.141461], rtol=1e-5)
    np.testing.assert_allclose(rv.asnumpy(), [23.750895, 42.28541], rtol=1e-5)
    out = ops.batch_norm(xs, rm, rv, w, b, training=False)
    np.testing.assert_allclose(out.asnumpy().ravel()[:4], [-0.32512033, -0.11992856, 0.25524962, 0.74108726],
                               rtol=1e-5)


@pytest.mark.parametrize("draw", [lambda: ops.rand(3, 4), lambda: ops.randn((3, 4)), lambda: ops.randint(0, 9, (5,)),
                                  lambda: ops.uniform((2, 2), Tensor(1.0), Tensor(2.0)),
                                  lambda: ops.standard_normal((4,)),
                                  lambda: ops.dropout(Tensor(np.ones((50,), np.float32)), 0.5)])
def test_random_ops_follow_set_seed(draw):
    ms.set_seed(11)
    a = draw().asnumpy()
    b = draw().asnumpy()
    ms.set_seed(11)
    np.testing.assert_array_equal(draw().asnumpy(), a)
    assert not np.array_equal(a, b)


def test_dropout_gradient_uses_the_forward_mask():
    ms.set_seed(5)
    xs = Tensor(np.ones((200,), np.float32))
    out, grad = ms.value_and_grad(lambda t: ops.sum(ops.dropout(t, 0.25) * 3.0))(xs)
    ms.set_seed(5)
    mask = ops.Dropout(keep_prob=0.75)(xs)[1].asnumpy()
    np.testing.assert_allclose(grad.asnumpy(), mask * 3.0 / 0.75, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), (mask * 3.0 / 0.75).sum(), rtol=1e-5)
    same(ops.dropout(xs, 0.5, training=False), np.ones(200), ms.float32)


def test_losses_match_mindspore():
    logits = x()
    idx = Tensor(np.array([1, 2], np.int32))
    probs = Tensor(np.array([[0.2, 0.8, 0], [0, 0, 1]], np.float32))
    w = Tensor(np.array([1, 2, 3], np.float32))
    cases = [  # (value, MindSpore 2.10's result)
        (ops.cross_entropy(logits, idx), 0.142931),
        (ops.cross_entropy(logits, Tensor(np.array([1, -100], np.int32))), 0.142931),
        (ops.cross_entropy(logits, idx, w), 0.142931),
        (ops.cross_entropy(logits, idx, label_smoothing=0.1), 0.342931),
        (ops.cross_entropy(logits, probs), 0.542931),
        (ops.nll_loss(ops.log_softmax(logits), idx, w, reduction="sum"), 0.714643),
        (ops.mse_loss(logits, logits * 2), 15.1667),
        (ops.l1_loss(logits, logits * 2, reduction="sum"), 21.0),
        (ops.binary_cross_entropy_with_logits(logits - 3, Tensor(np.array([[0, 1, 0], [1, 1, 0]], np.float32))),
         0.937019),
        (ops.binary_cross_entropy_with_logits(logits - 3, Tensor(np.array([[0, 1, 0], [1, 1, 0]], np.float32)), w,
                                              Tensor(np.array([2, 2, 1], np.float32))), 2.95657),
        (ops.SparseSoftmaxCrossEntropyWithLogits()(logits, idx), 0.142932),
    ]
    for got, want in cases:
        assert got.shape == () and got.dtype is ms.float32
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-4)
    loss, grad = ops.SoftmaxCrossEntropyWithLogits()(logits, Tensor(np.array([[0, 1, 0], [0, 0, 1]], np.float32)))
    np.testing.assert_allclose(loss.asnumpy(), [0.1429317, 0.1429316], rtol=1e-5)
    np.testing.assert_allclose(grad.asnumpy()[0], [0.01587624, -0.1331867, 0.11731042], rtol=1e-5)
    y, mean, var = ops.LayerNorm()(logits, Tensor(np.ones(3, np.float32)), Tensor(np.zeros(3, np.float32)))
    np.testing.assert_allclose(y.asnumpy()[0], [-1.2247448, 1.2247448, 0.0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mean.asnumpy(), [[3], [4]])
    np.testing.assert_allclose(var.asnumpy(), [[2.6666667], [2.6666667]], rtol=1e-6)


def test_activations_match_mindspore():
    t = x()
    cases = [  # first row of MindSpore 2.10's output
        (ops.gelu(t), [0.841344714, 4.99999857, 2.99595022]),
        (ops.gelu(t, approximate="tanh"), [0.841192007, 4.99999952, 2.99636269]),
        (ops.GeLU()(t), [0.841192007, 4.99999952, 2.99636269]),
        (ops.FastGeLU()(t), [0.845795751, 4.99899292, 2.98192883]),
        (ops.silu(t), [0.731058896, 4.96653605, 2.85772228]),
        (ops.softplus(t), [1.31326103, 5.00671530, 3.04858708]),
        (ops.softplus(t, beta=2, threshold=5), [1.06346405, 5.0, 3.0]),
        (ops.leaky_relu(t - 3), [-0.4, 2.0, 0.0]),
        (ops.elu(t - 3), [-0.864664793, 2.0, 0.0]),
        (ops.HSwish()(t), [0.666666687, 5.0, 3.0]),
        (ops.erf(t), [0.842700779, 1.0, 0.999977887]),
        (ops.softmax(t), [0.0158762224, 0.866813362, 0.117310368]),
        (ops.log_softmax(t), [-4.14292860, -0.142928436, -2.14292836]),
    ]
    for got, want in cases:
        assert got.dtype is ms.float32
        np.testing.assert_allclose(got.asnumpy()[0], want, rtol=1e-5, atol=1e-5)  # MindSpore is ~1 ulp off


def test_mindspore_module_spellings_and_higher_order_helpers():
    from sprout.ops import composite as C, functional as F, operations as P

    t = x()
    same(P.ReduceSum(keep_dims=True)(t, 1), [[9], [12]], ms.float32)
    assert F.depend(t, None) is t
    add = C.MultitypeFuncGraph("add")

    @add.register("Tensor", "Number")
    def _(a, b):
        return a + b

    @add.register("Number", "Number")
    def _(a, b):
        return a * 10 + b

    out = C.HyperMap()(add, (t, 1), (1.0, 2))
    same(out[0], X + 1, ms.float32)
    assert out[1] == 12
    nested = ops.HyperMap(ops.partial(add, 1))(((1, 2), 3))
    assert nested == ((11, 12), 13)
    with pytest.raises(TypeError, match="no overload"):
        add("a", "b")
    grads = C.GradOperation(get_all=True)(lambda a, b: ops.sum(a * b))(t, t)
    same(grads[0], X, ms.float32)
    clipped = ops.clip_by_global_norm((t * 0 + 3, t * 0 + 4), 1.0)
    np.testing.assert_allclose(np.sqrt(sum((c.asnumpy() ** 2).sum() for c in clipped)), 1.0, rtol=1e-6)
