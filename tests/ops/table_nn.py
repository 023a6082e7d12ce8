"""Op-table cases for the array, neural-network, random and state primitives."""
import numpy as np

import sprout as ms
from sprout import ops
from sprout.ops import nn_functional as NF
from sprout.ops import functional as F
from sprout.ops import nn_ops as NN
from sprout.ops.random_ops import RANDOM_SEED
import reference as R
from optable import CONST, DISTINCT, F32, F64, INT, PARAM, Case, Spec

SAME = {"stride": (2, 2), "dilation": (1, 1), "pad_mode": "same", "pad": (0, 0, 0, 0), "groups": 1}
PADDED = {"stride": (1, 2), "dilation": (2, 1), "pad_mode": "pad", "pad": (1, 0, 2, 1), "groups": 2}
POOL = {"kernel": (3, 3), "stride": (2, 2), "dilation": (1, 1), "pad_mode": "same", "pad": (0, 0, 0, 0),
        "ceil_mode": False}
POOL_PAD = {**POOL, "pad_mode": "pad", "pad": (1, 1, 1, 1)}
AVG = {**POOL, "count_include_pad": False, "divisor": 0}
AVG_PAD = {**POOL_PAD, "count_include_pad": True, "divisor": 0}


def IDX(*shape, n, dtype=np.int32) -> Spec:
    return Spec(lambda rng: rng.integers(0, n, shape).astype(dtype), label=f"idx<{n}")


def _hot(y, depth):
    return (y[..., None] == np.arange(depth)).astype(np.float64)


def _xent_ref(x, y, reduction):
    loss = -(_hot(y, x.shape[-1]) * R.log_softmax(x)).sum(-1)
    return {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]


def _xent_grad(reduction):
    return lambda x, y, d: NN.bind(NN.SPARSE_XENT_GRAD, (x, y, d), {"reduction": reduction})


def _xent_grad_ref(x, y, d, reduction):
    g = (R.softmax(x) - _hot(y, x.shape[-1])) * ((y >= 0) & (y < x.shape[-1]))[..., None]
    return g * (d[..., None] if reduction == "none" else d / y.size if reduction == "mean" else d)


def _conv_ref(attrs):
    return lambda x, w: R.conv2d(x, w, attrs["stride"], attrs["pad_mode"], attrs["pad"], attrs["dilation"],
                                 attrs["groups"])


def _conv_grads(attrs, x_shape, w_shape):
    """References for the two backprop primitives: the exact gradients of sum(dout * conv(x, w)),
    obtained through the linearity of conv in each argument (probing with unit tensors)."""
    def input_grad(dout, w):
        g = np.zeros(x_shape)
        for idx in np.ndindex(x_shape):
            e = np.zeros(x_shape)
            e[idx] = 1
            g[idx] = (_conv_ref(attrs)(e, w) * dout).sum()
        return g

    def filter_grad(dout, x):
        g = np.zeros(w_shape)
        for idx in np.ndindex(w_shape):
            e = np.zeros(w_shape)
            e[idx] = 1
            g[idx] = (_conv_ref(attrs)(x, e) * dout).sum()
        return g

    return input_grad, filter_grad


_IN_GRAD, _FILTER_GRAD = _conv_grads(SAME, (1, 2, 5, 5), (3, 2, 3, 3))


def _pool_ref(attrs, kind):
    return lambda x: R.pool2d(x, attrs["kernel"], attrs["stride"], attrs["pad_mode"], attrs["pad"], kind,
                              attrs.get("count_include_pad", True))


def _maxpool_grad_ref(x, dout):
    """Route each output's gradient to the first maximum of its window (loops over windows)."""
    n, c, h, w = x.shape
    out = np.zeros_like(x)
    _, pt, _ = R.pads(h, 3, 2, 1, "same")
    _, pl, _ = R.pads(w, 3, 2, 1, "same")
    for b in range(n):
        for ch in range(c):
            for i in range(dout.shape[2]):
                for j in range(dout.shape[3]):
                    best, pos = -np.inf, None
                    for r in range(i * 2 - pt, i * 2 - pt + 3):
                        for q in range(j * 2 - pl, j * 2 - pl + 3):
                            if 0 <= r < h and 0 <= q < w and x[b, ch, r, q] > best:
                                best, pos = x[b, ch, r, q], (r, q)
                    out[b, ch][pos] += dout[b, ch, i, j]
    return out


def _avg_grad_ref(dout):
    """AvgPool is linear: its gradient is the adjoint, probed with unit inputs."""
    shape = (1, 2, 5, 4)
    g = np.zeros(shape)
    for idx in np.ndindex(shape):
        e = np.zeros(shape)
        e[idx] = 1
        g[idx] = (_pool_ref(AVG_PAD, "avg")(e) * dout).sum()
    return g


def _check_uniform(out, inputs):
    v = out.asnumpy()
    assert v.shape == (200, 3) and v.dtype == np.float32
    assert v.min() >= 0 and v.max() < 1 and 0.4 < v.mean() < 0.6


def _check_normal(out, inputs):
    v = out.asnumpy()
    assert v.shape == (400, 5) and v.dtype == np.float32
    assert abs(v.mean()) < 0.1 and 0.9 < v.std() < 1.1


def _check_randint(out, inputs):
    v = out.asnumpy()
    assert v.dtype == np.int64 and v.min() >= 2 and v.max() <= 6 and len(np.unique(v)) == 5


def _check_dropout(out, inputs):
    (y, mask), x = out, inputs[0]
    m = mask.asnumpy()
    assert set(np.unique(m)) <= {0.0, 1.0} and 0.6 < m.mean() < 0.9
    np.testing.assert_allclose(y.asnumpy(), x * m / 0.75)


def _check_seed_draw(out, inputs):
    v = out.asnumpy()
    assert v.shape == () and v.dtype == np.int64 and 0 <= int(v) < 2**63
    _check_seeded(RANDOM_SEED)


def _check_seeded(fn):
    """The same global seed gives the same draw; the next draw differs."""
    ms.set_seed(3)
    a = fn().asnumpy()
    b = fn().asnumpy()
    ms.set_seed(3)
    np.testing.assert_array_equal(fn().asnumpy(), a)
    assert not np.array_equal(a, b)


def _argmax_ref(x):
    """Flat index (in the 4x4 plane) of each 2x2 window's maximum."""
    out = np.zeros((1, 1, 2, 2), np.int64)
    for i in range(2):
        for j in range(2):
            a = np.argmax(x[0, 0, 2 * i:2 * i + 2, 2 * j:2 * j + 2])
            out[0, 0, i, j] = (2 * i + a // 2) * 4 + 2 * j + a % 2
    return out


def _check_max_pool_grad_grad(out, inputs):
    x, g = inputs
    ref = _pool_ref(POOL, "max")
    # MaxPoolGradGrad picks g at each window's argmax: on g == x it reproduces max pooling
    np.testing.assert_allclose(NF.max_pool_grad_grad(ms.Tensor(x), ms.Tensor(x), **POOL).asnumpy(), ref(x))
    assert out.shape == ref(x).shape


CASES = [
    # gather family and their scatter-add gradients
    Case("Gather", lambda x, i: ops.gather(x, i, 1), (F64(2, 4), IDX(3, n=4)), lambda x, i: R.gather(x, i, 1)),
    Case("Gather", lambda x, i: ops.gather(x, i, 1, 1), (F64(2, 4, 3), IDX(2, 2, n=4)),
         lambda x, i: R.gather(x, i, 1, 1), label="batch_dims"),
    Case("Gather", lambda x, i: ops.gather(x, i, 0), (F64(3, 2), CONST(np.array([[0, 2], [0, 0]]))),
         lambda x, i: R.gather(x, i, 0), label="repeat"),
    Case("GatherGrad", lambda d, i: F.gather_grad(d, i, (4, 3), 0), (F64(2, 3, 3), IDX(2, 3, n=4)),
         lambda d, i: R.gather_grad(d, i, (4, 3), 0)),
    Case("GatherD", lambda x, i: ops.gather_elements(x, 1, i), (F64(2, 3), IDX(2, 4, n=3)),
         lambda x, i: np.take_along_axis(x, i, 1)),
    Case("GatherDGrad", lambda d, i: F.gather_d_grad(d, i, (2, 3), 1), (F64(2, 4), IDX(2, 4, n=3)),
         lambda d, i: R.gather_d_grad(d, i, (2, 3), 1)),
    Case("Tile", lambda x: ops.tile(x, (2, 1, 3)), (F64(2, 3),), lambda x: np.tile(x, (2, 1, 3))),
    Case("CumSum", lambda x: ops.cumsum(x, 1), (F64(2, 4),), lambda x: np.cumsum(x, 1)),
    Case("CumSum", lambda x: ops.CumSum(exclusive=True, reverse=True)(x, 0), (F64(3, 2),),
         lambda x: np.flip(np.cumsum(np.flip(x, 0), 0), 0) - x, label="exclusive-reverse"),
    Case("ReverseV2", lambda x: ops.flip(x, (0, 2)), (F64(2, 3, 2),), lambda x: x[::-1, :, ::-1]),
    Case("Sort", lambda x: ops.sort(x, 1, True), (DISTINCT(2, 4),),
         lambda x: (-np.sort(-x, 1), np.argsort(-x, 1).astype(np.int32))),
    Case("Sort", lambda x: ops.sort(x, 0), (INT(4, 2),),
         lambda x: (np.sort(x, 0, kind="stable"), np.argsort(x, 0, kind="stable").astype(np.int32)), label="int"),
    Case("TopK", lambda x: ops.topk(x, 2), (DISTINCT(3, 4),),
         lambda x: (-np.sort(-x, 1)[:, :2], np.argsort(-x, 1)[:, :2].astype(np.int32))),
    Case("TopK", lambda x: ops.topk(x, 1, dim=0, largest=False), (DISTINCT(3, 4),),
         lambda x: (np.sort(x, 0)[:1], np.argsort(x, 0)[:1].astype(np.int32)), label="smallest"),
    Case("Pad", lambda x: ops.pad(x, (1, 2, 0, 1), value=0.5), (F64(2, 3),),
         lambda x: np.pad(x, ((0, 1), (1, 2)), constant_values=0.5)),
    Case("Pad", lambda x: F.pad_raw(x, ((-1, 1), (0, -1)), 0), (F64(3, 3),),
         lambda x: np.pad(x[1:, :2], ((0, 1), (0, 0))), label="crop"),
    Case("OneHot", lambda i: ops.one_hot(i, 4, ms.Tensor(1.0), ms.Tensor(0.0)), (IDX(2, 3, n=4),),
         lambda i: R.one_hot(i, 4, 1.0, 0.0).astype(np.float32)),
    Case("OneHot", lambda i: ops.one_hot(i, 3, axis=0), (IDX(4, n=3),), lambda i: R.one_hot(i, 3, 1, 0, 0),
         label="int-axis0"),
    Case("Range", lambda: ops.arange(1, 8, 2), (), lambda: np.arange(1, 8, 2)),
    Case("Range", lambda: ops.arange(0.0, 1.0, 0.25), (), lambda: np.arange(0, 1, 0.25, dtype=np.float32),
         label="float"),
    Case("LinSpace", lambda: ops.linspace(0, 1, 5), (), lambda: np.linspace(0, 1, 5, dtype=np.float32)),
    # softmax family
    Case("Softmax", lambda x: ops.softmax(x, 1), (F64(2, 4),), lambda x: R.softmax(x, 1)),
    Case("Softmax", lambda x: ops.softmax(x, 0), (F32(3, 2),), lambda x: R.softmax(x.astype(np.float64), 0),
         rtol=1e-6, label="f32"),
    Case("LogSoftmax", lambda x: ops.log_softmax(x), (F64(2, 4),), lambda x: R.log_softmax(x)),
    Case("SparseSoftmaxCrossEntropy", lambda x, y: NN.sparse_softmax_cross_entropy(x, y), (F64(3, 4), IDX(3, n=4)),
         lambda x, y: _xent_ref(x, y, "none")),
    Case("SparseSoftmaxCrossEntropy", lambda x, y: NN.sparse_softmax_cross_entropy(x, y, "mean"),
         (F64(2, 3, 5), IDX(2, 3, n=5)), lambda x, y: _xent_ref(x, y, "mean"), label="mean-rank3"),
    Case("SparseSoftmaxCrossEntropy", lambda x, y: NN.sparse_softmax_cross_entropy(x, y, "sum"),
         (F64(4, 3), CONST(np.array([0, 3, -1, 2], np.int64))), lambda x, y: _xent_ref(x, y, "sum"),
         label="sum-out-of-range"),
    Case("SparseSoftmaxCrossEntropyGrad", _xent_grad("none"),
         (F64(3, 4), IDX(3, n=4), F64(3)), lambda x, y, d: _xent_grad_ref(x, y, d, "none")),
    Case("SparseSoftmaxCrossEntropyGrad", _xent_grad("mean"),
         (F64(2, 5), CONST(np.array([4, 7], np.int32)), F64()), lambda x, y, d: _xent_grad_ref(x, y, d, "mean"),
         label="mean-out-of-range"),
    # convolution and pooling
    Case("Conv2D", lambda x, w: ops.conv2d(x, w, stride=2, pad_mode="same"), (F64(1, 2, 5, 5), F64(3, 2, 3, 3)),
         _conv_ref(SAME)),
    Case("Conv2D", lambda x, w: NF.conv2d_raw(x, w, **PADDED), (F64(2, 4, 5, 6), F64(4, 2, 2, 3)),
         _conv_ref(PADDED), label="groups-dilation-pad"),
    Case("Conv2D", lambda x, w, b: ops.conv2d(x, w, b), (F32(2, 3, 4, 4), F32(2, 3, 3, 3), F32(2)),
         lambda x, w, b: R.conv2d(x, w) + b.reshape(1, 2, 1, 1), rtol=1e-5, atol=1e-5, label="f32-bias"),
    Case("Conv2DBackpropInput", lambda d, w: NF.conv2d_backprop_input(d, w, (1, 2, 5, 5), **SAME),
         (F64(1, 3, 3, 3), F64(3, 2, 3, 3)), _IN_GRAD),
    Case("Conv2DBackpropFilter", lambda d, x: NF.conv2d_backprop_filter(d, x, (3, 2, 3, 3), **SAME),
         (F64(1, 3, 3, 3), F64(1, 2, 5, 5)), _FILTER_GRAD),
    Case("MaxPool", lambda x: ops.MaxPool(3, 2, "same")(x), (DISTINCT(1, 2, 5, 4),), _pool_ref(POOL, "max")),
    Case("MaxPool", lambda x: ops.max_pool2d(x, 3, 2, 1), (DISTINCT(2, 1, 5, 5),), _pool_ref(POOL_PAD, "max"),
         label="pad"),
    Case("MaxPool", lambda x: ops.max_pool2d(x, 2), (DISTINCT(1, 2, 4, 6),),
         lambda x: x.reshape(1, 2, 2, 2, 3, 2).max(axis=(3, 5)), label="tiled"),
    Case("MaxPoolGrad", lambda x, d: NF.max_pool_grad(x, d, **POOL), (DISTINCT(1, 2, 5, 4), F64(1, 2, 3, 2)),
         _maxpool_grad_ref, grad=(1,)),
    Case("MaxPoolGradGrad", lambda x, g: NF.max_pool_grad_grad(x, g, **POOL), (DISTINCT(1, 2, 5, 4),
                                                                            F64(1, 2, 5, 4)),
         check=_check_max_pool_grad_grad, grad=(1,),
         why="second-order kernel: checked by the property gather(x at argmax) == max pool, and by FD"),
    Case("MaxPoolArgmax", lambda x: ops.max_pool2d(x, 2, return_indices=True)[1], (DISTINCT(1, 1, 4, 4),),
         _argmax_ref),
    Case("AvgPool", lambda x: ops.AvgPool(3, 2, "same")(x), (F64(1, 2, 5, 4),), _pool_ref(AVG, "avg")),
    Case("AvgPool", lambda x: ops.avg_pool2d(x, 3, 2, 1), (F64(1, 2, 5, 4),), _pool_ref(AVG_PAD, "avg"),
         label="pad-count"),
    Case("AvgPoolGrad", lambda d: NF.avg_pool_grad(d, (1, 2, 5, 4), **AVG_PAD), (F64(1, 2, 3, 2),), _avg_grad_ref),
    # random: no reference values, so statistical and seeding properties
    Case("RandomSeed", lambda: RANDOM_SEED(), (), check=_check_seed_draw,
         why="a draw from the global stream (the explicit seed input of every other random op): 0-d int64, "
             "set_seed reproduces it, the next draw differs"),
    Case("UniformReal", lambda: ops.rand(200, 3), (), check=_check_uniform,
         why="random: range, dtype and mean of 600 draws; seeding checked in test_random_ops_follow_set_seed"),
    Case("StandardNormal", lambda: ops.randn(400, 5), (), check=_check_normal,
         why="random: dtype, mean and std of 2000 draws"),
    Case("UniformInt", lambda: ops.randint(2, 7, (300,)), (), check=_check_randint,
         why="random: Int64 dtype, every value in [low, high) drawn"),
    Case("Dropout", lambda x: ops.Dropout(keep_prob=0.75)(x), (F64(40, 10),), check=_check_dropout, grad=(),
         why="random mask: output == x * mask / keep_prob with a 0/1 mask kept ~75%; gradient in test_dropout_grad"),
    # state: in-place writes into a Parameter, read back afterwards (in-place identity: test_tensor_api)
    Case("Assign", lambda p, v: (ops.assign(p, v), p + 0), (PARAM(F64(2, 3)), F64(2, 3)), lambda p, v: (v, v),
         grad=()),
    Case("AssignAdd", lambda p, v: (ops.assign_add(p, v), p + 0), (PARAM(F64(2, 3)), F64(2, 3)),
         lambda p, v: (p + v, p + v), grad=()),
    Case("AssignSub", lambda p, v: (ops.assign_sub(p, v), p + 0), (PARAM(F64(2, 3)), F64(2, 3)),
         lambda p, v: (p - v, p - v), grad=()),
]
