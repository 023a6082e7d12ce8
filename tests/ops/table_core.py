"""Op-table cases for the core primitives: elementwise, reductions, shape, matmul and indexing."""
import numpy as np

import sprout as ms
from sprout import ops
from sprout.ops import functional as F
from sprout.ops.indexing import GETITEM_GRAD_LIKE, split_index
from sprout.ops.reduce import AXES_SIZE
from sprout.ops.shape import BROADCAST_LIKE
from optable import BOOL, CONST, DISTINCT, F32, F64, INT, POS, Case
from reference import erf, sum_to

X23 = F64(2, 3)
X3 = F64(3)
_W23 = np.random.default_rng(7).uniform(0.5, 1.5, (2, 3))  # the objective's weights (optable.scalar_objective)


def _unary(op, fn, ref, spec=X23, **kw):
    return Case(op, fn, (spec,), ref, **kw)


def _binary(op, fn, ref, a=X23, b=X3, **kw):
    return Case(op, fn, (a, b), ref, **kw)


def _cmp(op, fn, ref):
    return [Case(op, fn, (X23, F64(3)), ref, grad=()),
            Case(op, fn, (INT(2, 3), INT(2, 3)), ref, grad=(), label="int")]


CASES = [
    # arithmetic (broadcasting shapes; the FD check covers the un-broadcast gradients)
    _binary("Add", ops.add, np.add),
    Case("Add", lambda x: x + 2.5, (X23,), lambda x: x + 2.5, label="scalar"),
    Case("Add", ops.add, (INT(2, 3), INT(3)), np.add, label="int"),
    _binary("Sub", ops.sub, np.subtract),
    Case("Sub", lambda x: 1 - x, (X23,), lambda x: 1 - x, label="rsub"),
    _binary("Mul", ops.mul, np.multiply),
    _binary("RealDiv", ops.div, np.divide, b=POS(3)),
    Case("RealDiv", ops.div, (INT(2, 3), INT(3, lo=1)), lambda a, b: (a / b).astype(np.float32), label="int"),
    _binary("FloorDiv", ops.floor_div, np.floor_divide, b=POS(3), grad=()),
    Case("FloorDiv", lambda a, b: a // b, (INT(2, 3), INT(3, lo=1)), np.floor_divide, label="int"),
    _binary("FloorMod", ops.floor_mod, np.mod, a=F64(2, 3, lo=0.1, hi=0.9), b=F64(3, lo=1.0, hi=1.5)),
    _binary("Pow", ops.pow, np.power, a=POS(2, 3)),
    Case("Pow", lambda x: x ** 2, (X23,), lambda x: x ** 2, label="scalar"),
    _binary("Maximum", ops.maximum, np.maximum),
    _binary("Minimum", ops.minimum, np.minimum),
    _unary("Neg", ops.neg, np.negative),
    _unary("Square", ops.square, np.square),
    _unary("Sqrt", ops.sqrt, np.sqrt, POS(2, 3)),
    _unary("Rsqrt", ops.rsqrt, lambda x: 1 / np.sqrt(x), POS(2, 3)),
    _unary("Exp", ops.exp, np.exp),
    _unary("Log", ops.log, np.log, POS(2, 3)),
    _unary("Log1p", ops.log1p, np.log1p, POS(2, 3)),
    _unary("Expm1", ops.expm1, np.expm1),
    _unary("Reciprocal", ops.reciprocal, np.reciprocal, POS(2, 3)),
    _unary("Sin", ops.sin, np.sin),
    _unary("Cos", ops.cos, np.cos),
    _unary("Tanh", ops.tanh, np.tanh),
    _unary("Sigmoid", ops.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    _unary("Sigmoid", ops.sigmoid, lambda x: (1 / (1 + np.exp(-x.astype(np.float64)))).astype(np.float32),
           F32(2, 3), rtol=1e-6, label="f32"),
    _unary("ReLU", ops.relu, lambda x: np.maximum(x, 0)),
    _unary("Abs", ops.abs, np.abs),
    _unary("Abs", ops.abs, np.abs, INT(2, 3), label="int"),
    _unary("Sign", ops.sign, np.sign),
    _unary("Floor", ops.floor, np.floor),
    _unary("Ceil", ops.ceil, np.ceil),
    _unary("Round", ops.round, np.round),
    _unary("Erf", ops.erf, erf, rtol=1e-12),
    _unary("Erf", ops.erf, erf, F64(5, lo=2.5, hi=6.0), rtol=1e-12, label="tail"),
    # comparisons and logic (no gradient)
    *_cmp("Equal", ops.equal, np.equal),
    *_cmp("NotEqual", ops.not_equal, np.not_equal),
    *_cmp("Greater", ops.greater, np.greater),
    *_cmp("GreaterEqual", ops.greater_equal, np.greater_equal),
    *_cmp("Less", ops.less, np.less),
    *_cmp("LessEqual", ops.less_equal, np.less_equal),
    Case("LogicalAnd", ops.logical_and, (BOOL(2, 3), BOOL(3)), np.logical_and),
    Case("LogicalOr", ops.logical_or, (BOOL(2, 3), BOOL(3)), np.logical_or),
    Case("LogicalXor", ops.logical_xor, (BOOL(2, 3), BOOL(3)), np.logical_xor),
    Case("LogicalNot", ops.logical_not, (BOOL(2, 3),), np.logical_not),
    Case("IsNan", ops.isnan, (CONST([1.0, np.nan, np.inf]),), np.isnan),
    Case("IsInf", ops.isinf, (CONST([1.0, np.nan, -np.inf]),), np.isinf),
    Case("IsFinite", ops.isfinite, (CONST([1.0, np.nan, np.inf]),), np.isfinite),
    Case("BitwiseAnd", lambda a, b: a & b, (INT(2, 3), INT(2, 3)), np.bitwise_and),
    Case("BitwiseOr", lambda a, b: a | b, (INT(2, 3), INT(2, 3)), np.bitwise_or),
    Case("BitwiseXor", lambda a, b: a ^ b, (INT(2, 3), INT(2, 3)), np.bitwise_xor),
    # select / cast / identities
    Case("Select", ops.where, (BOOL(2, 3), X23, F64(3)), np.where),
    Case("Cast", lambda x: ops.cast(x, ms.float32), (X23,), lambda x: x.astype(np.float32), grad=(0,),
         fd_eps=1e-2, fd_tol=1e-4),
    Case("Cast", lambda x: ops.cast(x, ms.int32), (X23,), lambda x: x.astype(np.int32), label="to-int"),
    Case("ZerosLike", ops.zeros_like, (X23,), np.zeros_like),
    Case("OnesLike", ops.ones_like, (X23,), np.ones_like),
    Case("StopGradient", lambda x: ops.stop_gradient(x) * x, (X23,), lambda x: x * x,
         grad_ref=lambda x: [x * _W23], why="FD would see 2x: the gradient must flow only through the second x"),
    Case("Identity", lambda x: F.identity(x) * 2, (X23,), lambda x: x * 2),
    # reductions
    Case("ReduceSum", lambda x: ops.sum(x, 1), (X23,), lambda x: x.sum(1)),
    Case("ReduceSum", lambda x: ops.sum(x, (0, 1), keepdim=True), (X23,), lambda x: x.sum((0, 1), keepdims=True),
         label="keep"),
    Case("ReduceSum", lambda x: ops.sum(x), (INT(2, 3),), lambda x: x.sum().astype(np.int64), label="int64"),
    Case("ReduceMean", lambda x: ops.mean(x, 0), (X23,), lambda x: x.mean(0)),
    Case("ReduceMean", lambda x: ops.mean(x), (CONST(np.array([[1, 2], [4, 4]], np.int32)),),
         lambda x: np.array(2, np.int32), label="int-truncates"),
    Case("ReduceMax", lambda x: ops.amax(x, 1, True), (DISTINCT(2, 3),), lambda x: x.max(1, keepdims=True)),
    Case("ReduceMax", lambda x: ops.amax(x), (CONST([[1.0, 3.0], [3.0, 2.0]]),), lambda x: x.max(), label="tie"),
    Case("ReduceMin", lambda x: ops.amin(x, 0), (DISTINCT(2, 3),), lambda x: x.min(0)),
    Case("ReduceProd", lambda x: ops.prod(x, 1), (X23,), lambda x: x.prod(1)),
    Case("Argmax", lambda x: ops.argmax(x, 1), (DISTINCT(2, 3),), lambda x: x.argmax(1)),
    Case("Argmax", lambda x: ops.argmax(x), (DISTINCT(2, 3),), lambda x: np.int64(x.argmax()), label="flat"),
    Case("Argmin", lambda x: ops.argmin(x, 0), (DISTINCT(2, 3),), lambda x: x.argmin(0).astype(np.int32)),
    Case("SumTo", lambda x: F.sum_to(x, (1, 3)), (F64(4, 2, 3),), lambda x: sum_to(x, (1, 3))),
    Case("AxesSize", lambda x: AXES_SIZE(x, axis=(0, 2), dtype=ms.float32), (F64(2, 3, 4),),
         lambda x: np.float32(8), grad=()),
    # shape
    Case("Reshape", lambda x: ops.reshape(x, (3, -1)), (X23,), lambda x: x.reshape(3, -1)),
    Case("Transpose", lambda x: ops.transpose(x, (2, 0, 1)), (F64(2, 3, 4),), lambda x: x.transpose(2, 0, 1)),
    Case("BroadcastTo", lambda x: ops.broadcast_to(x, (2, 4, 3)), (F64(4, 1),),
         lambda x: np.broadcast_to(x, (2, 4, 3))),
    Case("BroadcastLike", lambda x, like: BROADCAST_LIKE(x, like), (F64(4, 1), F64(2, 4, 3)),
         lambda x, like: np.broadcast_to(x, like.shape), grad=(0,)),
    Case("ExpandDims", lambda x: ops.expand_dims(x, 1), (X23,), lambda x: x[:, None]),
    Case("Squeeze", ops.squeeze, (F64(1, 3, 1),), np.squeeze),
    Case("Concat", lambda a, b: ops.concat((a, b), 1), (X23, F64(2, 2)), lambda a, b: np.concatenate((a, b), 1)),
    Case("Stack", lambda a, b: ops.stack([a, b], -1), (X23, X23), lambda a, b: np.stack([a, b], -1)),
    Case("SplitV", lambda x: ops.split(x, [1, 2], 1), (X23,), lambda x: tuple(np.split(x, [1], 1))),
    Case("SplitV", lambda x: ops.chunk(x, 2, 1), (F64(2, 5),), lambda x: tuple(np.split(x, [3], 1)),
         label="chunk"),
    Case("Fill", lambda: ops.full((2, 3), 1.5), (), lambda: np.full((2, 3), 1.5, np.float32)),
    Case("Fill", lambda: ops.zeros((2,), ms.int32), (), lambda: np.zeros(2, np.int32), label="zeros"),
    # linear algebra
    Case("MatMul", ops.matmul, (F64(2, 3), F64(3, 4)), np.matmul),
    Case("MatMul", ops.matmul, (F64(2, 2, 3), F64(3, 4)), np.matmul, label="batch-broadcast"),
    Case("MatMul", lambda a, b: ops.matmul(a, b, transpose_a=True, transpose_b=True), (F64(3, 2), F64(4, 3)),
         lambda a, b: a.T @ b.T, label="tt"),
    Case("MatMul", ops.matmul, (F64(3), F64(3, 2)), np.matmul, label="vec"),
    Case("MatMul", ops.bmm, (F64(2, 2, 3), F64(2, 3, 1)), np.matmul, label="bmm"),
    # indexing
    Case("GetItem", lambda x: x[1:, ::2], (F64(3, 4),), lambda x: x[1:, ::2]),
    Case("GetItem", lambda x: x[[0, 2, 0]], (F64(3, 4),), lambda x: x[[0, 2, 0]], label="fancy-repeat"),
    Case("GetItem", lambda x, m: x[m], (F64(2, 3), BOOL(2, 3)), lambda x, m: x[m], grad=(0,), label="mask"),
    Case("GetItem", lambda x: x[None, ..., 1], (F64(2, 3),), lambda x: x[None, ..., 1], label="none-ellipsis"),
    Case("GetItemGrad", lambda d: F.getitem_grad(d, [ms.Tensor(np.array([0, 2, 0]))],
                                                  split_index(ms.Tensor(np.array([0])))[0], (3, 2)),
         (F64(3, 2),), lambda d: np.array([d[0] + d[2], np.zeros(2), d[1]])),
    Case("GetItemGradLike", lambda d, like: GETITEM_GRAD_LIKE(d, like, ms.Tensor(np.array([0, 2, 0])),
                                                             spec=split_index(ms.Tensor(np.array([0])))[0]),
         (F64(3, 2), F64(3, 2)), lambda d, like: np.array([d[0] + d[2], np.zeros(2), d[1]]), grad=(0,)),
    Case("SetItem", lambda x, v: _setitem(x, (slice(None), 1), v), (F64(2, 3), F64(2)),
         lambda x, v: _np_setitem(x, (slice(None), 1), v)),
    Case("SetItem", lambda x: _setitem(x, ms.Tensor(np.array([2, 0])), 7.0), (F64(3, 2),),
         lambda x: _np_setitem(x, np.array([2, 0]), 7.0), label="fancy"),
]


def _setitem(x, index, value):
    return F.tensor_setitem(x, index, value)


def _np_setitem(x, index, value):
    out = x.copy()
    out[index] = value
    return out

