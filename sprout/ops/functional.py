"""The functional API (``ops.add``, ``ops.matmul`` ...): argument handling and type promotion
over the primitives. Every function here ends in one ``bind`` per primitive it uses."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core import dispatch as _dispatch
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import elementwise as E, linalg as L, reduce as R, shape as S
from ._binary_call import binary_function, unary_function
from ._infer import check_alloc, check_axis, check_dims, fmt_shape, norm_axes
from .indexing import GETITEM, GETITEM_GRAD, GETITEM_GRAD_LIKE, SETITEM, split_index

_SCALARS = (int, float, bool)


def _as_tensor(x, op: str):
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (np.ndarray, np.generic, list, tuple)):
        return Tensor(x)
    raise TypeError(f"{op}: expected a Tensor, got {type(x).__name__}")


def _plain(v):
    """An int/float subclass (an ``ms.mutable`` scalar) as a plain Python number: NumPy would take a subclass
    as a strong int64/float64 and widen a float32 tensor to float64."""
    c = v.__class__
    if c is not int and c is not float and isinstance(v, (int, float)) and c is not bool:
        return float(v) if isinstance(v, float) else int(v)
    return v


def _bin(x, y, op: str):
    """Promote a binary op's operands as MindSpore does: tensor op scalar keeps the tensor's dtype
    (a float scalar lifts an int tensor to float32); tensor op tensor follows ``dtype.promote``."""
    if isinstance(x, np.generic):  # NumPy scalars act as Python numbers (MindSpore's rule)
        x = x.item()
    if isinstance(y, np.generic):
        y = y.item()
    x, y = _plain(x), _plain(y)
    tx, ty = isinstance(x, Tensor), isinstance(y, Tensor)
    if tx and ty:
        dx, dy = x.dtype, y.dtype
        if dx is not dy:
            dt = mstype.promote(dx, dy)
            if dx is not dt:
                x = bind(E.CAST, (x,), {"dtype": dt})
            if dy is not dt:
                y = bind(E.CAST, (y,), {"dtype": dt})
        return x, y
    if tx and isinstance(y, _SCALARS):
        dt = mstype.promote_scalar(x.dtype, y)
        if dt is not x.dtype:
            x = bind(E.CAST, (x,), {"dtype": dt})
        return x, y
    if ty and isinstance(x, _SCALARS):
        dt = mstype.promote_scalar(y.dtype, x)
        if dt is not y.dtype:
            y = bind(E.CAST, (y,), {"dtype": dt})
        return x, y
    if isinstance(x, _SCALARS) and isinstance(y, _SCALARS):
        return Tensor(x), y
    if not tx and not isinstance(x, _SCALARS):
        x = _as_tensor(x, op)
    if not ty and not isinstance(y, _SCALARS):
        y = _as_tensor(y, op)
    return _bin(x, y, op)


_NO_ATTRS: dict = {}  # shared and never mutated: saves building a dict per call


def _binary(prim):
    return binary_function(prim, _bin, _NO_ATTRS)


add = _binary(E.ADD)
sub = _binary(E.SUB)
mul = _binary(E.MUL)
pow = _binary(E.POW)  # noqa: A001
maximum = _binary(E.MAXIMUM)
minimum = _binary(E.MINIMUM)
floor_div = _binary(E.FLOOR_DIV)
floor_mod = _binary(E.FLOOR_MOD)
equal = _binary(E.EQUAL)
ne = not_equal = _binary(E.NOT_EQUAL)
greater = gt = _binary(E.GREATER)
greater_equal = ge = _binary(E.GREATER_EQUAL)
less = lt = _binary(E.LESS)
less_equal = le = _binary(E.LESS_EQUAL)
bitwise_and = _binary(E.BITWISE_AND)
bitwise_or = _binary(E.BITWISE_OR)
bitwise_xor = _binary(E.BITWISE_XOR)
floordiv = floor_div
remainder = floor_mod


def _to_float(x):
    if isinstance(x, Tensor) and x.dtype.category < 3:  # bool/int: float32; float and complex stay
        return bind(E.CAST, (x,), {"dtype": mstype.float32})
    return x


def _div_operands(input, other, name: str) -> tuple:  # noqa: A002
    """RealDiv's operands promoted as MindSpore does: ``_bin``, then bool/int tensors as float32."""
    a, b = _bin(input, other, name)
    if isinstance(a, Tensor) and a.dtype.category < 3:
        a = _to_float(a)
        if isinstance(b, Tensor):
            b = _to_float(b)
    elif isinstance(b, Tensor) and b.dtype.category < 3:
        b = _to_float(b)
    return a, b


_true_div = binary_function(E.DIV, _div_operands, _NO_ATTRS, inexact_only=True)  # Tensor.__truediv__


def div(input, other, *, rounding_mode=None):  # noqa: A002
    """True division; int inputs give float32, as MindSpore does."""
    if rounding_mode is None:
        return _true_div(input, other)
    if rounding_mode == "floor":
        return floor_div(input, other)
    if rounding_mode == "trunc":
        a, b = _bin(input, other, "Div")
        def is_int(v):
            return v.dtype.is_int if isinstance(v, Tensor) else isinstance(v, int)

        if is_int(a) and is_int(b):
            from .functional_math import truncate_div

            return truncate_div(a, b)
        return trunc(div(input, other))
    raise ValueError(f"div: rounding_mode must be None, 'floor' or 'trunc', got {rounding_mode!r}")


divide = true_divide = div


def _logical(prim):
    def fn(input, other):  # noqa: A002
        a = cast(input, mstype.bool_) if isinstance(input, Tensor) and input.dtype is not mstype.bool_ else input
        b = cast(other, mstype.bool_) if isinstance(other, Tensor) and other.dtype is not mstype.bool_ else other
        return bind(prim, (_as_tensor(a, prim.name) if not isinstance(a, _SCALARS) else a, b), {})

    return fn


logical_and = _logical(E.LOGICAL_AND)
logical_or = _logical(E.LOGICAL_OR)
logical_xor = _logical(E.LOGICAL_XOR)


def logical_not(input):  # noqa: A002
    x = _as_tensor(input, "LogicalNot")
    if x.dtype is not mstype.bool_:
        x = cast(x, mstype.bool_)
    return bind(E.LOGICAL_NOT, (x,), {})


def _unary(prim, float_result: bool = False):
    def prepare(input):  # noqa: A002
        x = _as_tensor(input, prim.name)
        return _to_float(x) if float_result else x

    fn = unary_function(prim, prepare, "fc" if float_result else None)
    fn.__name__ = prim.name.lower()
    return fn


neg = negative = _unary(E.NEG)
square = _unary(E.SQUARE)
sqrt = _unary(E.SQRT, True)
rsqrt = _unary(E.RSQRT, True)
exp = _unary(E.EXP, True)
log = _unary(E.LOG, True)
log1p = _unary(E.LOG1P, True)
expm1 = _unary(E.EXPM1, True)
reciprocal = _unary(E.RECIPROCAL, True)
sin = _unary(E.SIN, True)
cos = _unary(E.COS, True)
tanh = _unary(E.TANH, True)
sigmoid = _unary(E.SIGMOID, True)
relu = _unary(E.RELU)
abs = absolute = _unary(E.ABS)  # noqa: A001
sign = _unary(E.SIGN)
floor = _unary(E.FLOOR)
ceil = _unary(E.CEIL)
round = _unary(E.ROUND)  # noqa: A001
isnan = _unary(E.ISNAN)
isinf = _unary(E.ISINF)
isfinite = _unary(E.ISFINITE)


def trunc(input):  # noqa: A002
    x = _as_tensor(input, "Trunc")
    return where(greater_equal(x, 0), floor(x), ceil(x))


def cast(input, dtype):  # noqa: A002
    if dtype is None:
        raise TypeError("Cast: dtype must be a sprout dtype such as ms.float32, got None")
    dt = mstype.to_dtype(dtype)
    x = _as_tensor(input, "Cast") if not isinstance(input, _SCALARS) else Tensor(input)
    if x.dtype is dt:
        return x
    return bind(E.CAST, (x,), {"dtype": dt})


def where(condition, x=None, y=None):
    if x is None and y is None:
        raise NotImplementedError("where(condition) with one argument (nonzero) is not supported; use ops.nonzero")
    cond = _as_tensor(condition, "Select")
    if cond.dtype is not mstype.bool_:
        cond = cast(cond, mstype.bool_)
    a, b = _bin(x, y, "Select")
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        a = Tensor(a)
    return bind(E.SELECT, (cond, a, b), {})


def stop_gradient(input):  # noqa: A002
    return bind(S.STOP_GRADIENT, (input,), {})


def identity(input):  # noqa: A002
    return bind(S.IDENTITY, (input,), {})


# ---- metadata ---------------------------------------------------------------------------------
def shape(input_x):
    return tuple(_as_tensor(input_x, "Shape").shape)


def rank(input_x):
    return _as_tensor(input_x, "Rank").ndim


def size(input_x):
    return _as_tensor(input_x, "Size").size


def dtype(x):
    return _as_tensor(x, "DType").dtype


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):  # noqa: A002
    return _as_tensor(input, "is_floating_point").dtype.is_float


# ---- shape ----------------------------------------------------------------------------------
def _shape_arg(shape, op: str, symbolic: bool = False) -> tuple:
    """A shape argument as a tuple of ints. With ``symbolic``, while a graph is built, a dimension may
    be None: a symbolic size read from a traced tensor's shape (``x.shape[0]`` under ``dynamic=1``)."""
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return (int(shape),)
    if isinstance(shape, str) or not hasattr(shape, "__iter__"):
        raise TypeError(f"{op}: shape must be a tuple of ints, got {shape!r}")
    shape = tuple(shape)
    for d in shape:  # int(2.0) would hide the mistake (this module's ``any`` is the op)
        if isinstance(d, (bool, float, np.floating)):
            raise TypeError(f"{op}: shape must be a tuple of ints, got {shape!r}")
    try:
        return tuple(int(d) for d in shape)
    except (TypeError, ValueError):
        if symbolic and _dispatch._builders:
            try:
                return tuple(None if d is None else int(d) for d in shape)
            except (TypeError, ValueError):
                pass
        raise TypeError(f"{op}: shape must be a tuple of ints, got {shape!r}") from None


def _product(dims) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def _symbolic_reshape(xshape: tuple, shape: tuple) -> tuple:
    """The Reshape attr for a target holding None (symbolic) dims. A None at position i stands for x's
    axis i (symbolic too: the dims are assumed to be the same size, as broadcasting assumes); one other
    None becomes -1; a -1 is computed when the rest of x is concrete; a lone None left becomes -1."""
    matched = {i for i, d in enumerate(shape) if d is None and i < len(xshape) and xshape[i] is None}
    loose = [i for i, d in enumerate(shape) if d is None and i not in matched]
    out = list(shape)
    if loose:
        if len(loose) > 1 or -1 in out:
            raise TypeError(f"Reshape: cannot reshape {fmt_shape(xshape)} into {fmt_shape(shape)}: more than one "
                            "size is unknown while the graph is compiled")
        out[loose[0]] = -1
    if -1 in out:
        rest = [d for i, d in enumerate(xshape) if i not in matched]
        known = _product(d for d in out if d is not None and d != -1)
        if None not in rest and known and _product(rest) % known == 0:
            out[out.index(-1)] = _product(rest) // known
    if out.count(None) == 1 and -1 not in out:
        out[out.index(None)] = -1
    return tuple(out)


def reshape(input, shape, *more):  # noqa: A002
    shape = _shape_arg((shape,) + more if more else shape, "Reshape", True)
    check_dims("Reshape", shape, unknown=True)
    x = _as_tensor(input, "Reshape")
    if x.shape == shape:
        return x
    if None in shape:
        shape = _symbolic_reshape(tuple(x.shape), shape)
    return bind(S.RESHAPE, (x,), {"shape": shape})


_REVERSED = object()  # no perm given (Tensor.transpose()): reverse the axes


def transpose(input, input_perm=_REVERSED, *more):  # noqa: A002
    x = _as_tensor(input, "Transpose")
    if input_perm is None:
        raise TypeError("Transpose: input_perm must be a tuple of ints, got None")
    nd = x.ndim
    if input_perm is _REVERSED:
        perm = tuple(range(nd - 1, -1, -1))
    else:
        perm = _shape_arg((input_perm,) + more if more else input_perm, "Transpose")
        perm = tuple(p % nd for p in perm) if nd else perm
    return bind(S.TRANSPOSE, (x,), {"perm": perm})


permute = transpose


def _keep_symbolic(xshape: tuple, shape: tuple) -> tuple | None:
    """A broadcast target with None dims as BroadcastTo's -1 (keep x's dim), or None when some
    symbolic target dim does not line up with a symbolic dim of x (then only a ``like`` tensor knows it)."""
    lead = len(shape) - len(xshape)
    out = []
    for i, d in enumerate(shape):
        if d is None:
            if i < lead or xshape[i - lead] is not None:
                return None
            d = -1
        out.append(d)
    return tuple(out)


def broadcast_to(input, shape):  # noqa: A002
    x = _as_tensor(input, "BroadcastTo")
    shape = _shape_arg(shape, "BroadcastTo", True)
    if x.shape == shape:
        return x
    if None in shape:
        target = _keep_symbolic(tuple(x.shape), shape)
        if target is None:
            raise TypeError(f"BroadcastTo: cannot broadcast {fmt_shape(x.shape)} to {fmt_shape(shape)}: a target "
                            "size is unknown while the graph is compiled (use broadcast_like)")
        shape = target
    return bind(S.BROADCAST_TO, (x,), {"shape": shape})


def broadcast_like(x, like):
    """Broadcast ``x`` to the shape of ``like`` (whose values are not read): BroadcastTo when that shape
    is known, BroadcastLike (the shape read at run time) when it holds symbolic dims."""
    shape = tuple(like.shape)
    if x.shape == shape:
        return x
    if None not in shape:
        return bind(S.BROADCAST_TO, (x,), {"shape": shape})
    target = _keep_symbolic(tuple(x.shape), shape)
    if target is not None:
        return bind(S.BROADCAST_TO, (x,), {"shape": target})
    return bind(S.BROADCAST_LIKE, (x, like), {})


def sum_to(x, shape):
    """Sum ``x`` down to ``shape`` (a broadcast's gradient). A None (symbolic) dim keeps x's aligned axis."""
    shape = tuple(shape)
    if x.shape == shape:
        return x
    return bind(R.SUM_TO, (x,), {"shape": shape})


def axes_size(x, axis=(), dtype=None):
    """The number of elements of ``x`` over ``axis`` (every axis for () / None): a Python int when those
    dims are known, else a 0-d ``dtype`` (default float32) tensor computed at run time (AxesSize)."""
    axes = norm_axes("AxesSize", _axis_attr(axis), x.ndim)
    n = 1
    for a in axes:
        d = x.shape[a]
        if d is None:
            return bind(R.AXES_SIZE, (x,), {"axis": axes, "dtype": mstype.to_dtype(dtype or mstype.float32)})
        n *= d
    return n


def expand_dims(input_x, axis):
    return bind(S.EXPAND_DIMS, (_as_tensor(input_x, "ExpandDims"),), {"axis": int(axis)})



def squeeze(input, axis=None):  # noqa: A002
    """Drop size-1 axes (all of them when ``axis`` is None); a named axis whose size is not 1 is left
    alone, as MindSpore 2.x does."""
    x = _as_tensor(input, "Squeeze")
    if axis is None or axis == () or axis == []:
        return bind(S.SQUEEZE, (x,), {"axis": ()})
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    keep = tuple(a for a in (check_axis("Squeeze", a, x.ndim) for a in axes) if x.shape[a] == 1)
    if not keep:
        return x
    return bind(S.SQUEEZE, (x,), {"axis": keep})


def concat(tensors, axis=0):
    if isinstance(tensors, Tensor):
        raise TypeError("concat: expects a tuple or list of tensors, got a single Tensor")
    xs = tuple(_as_tensor(t, "Concat") for t in tensors)
    if not xs:
        raise ValueError("Concat: tensors must hold at least one tensor, got an empty sequence")
    dt = xs[0].dtype
    for t in xs[1:]:
        dt = mstype.promote(dt, t.dtype)
    xs = tuple(t if t.dtype is dt else cast(t, dt) for t in xs)
    return bind(S.CONCAT, xs, {"axis": axis})


cat = concat


def stack(tensors, axis=0):
    xs = tuple(_as_tensor(t, "Stack") for t in tensors)
    return bind(S.STACK, xs, {"axis": axis})


def split_sizes(x, sizes, axis=0):
    return bind(S.SPLIT, (x,), {"sizes": tuple(int(s) for s in sizes), "axis": axis})


def zeros_like(input, *, dtype=None):  # noqa: A002
    out = bind(S.ZEROS_LIKE, (input,), {})
    return out if dtype is None else cast(out, dtype)


def ones_like(input, *, dtype=None):  # noqa: A002
    out = bind(S.ONES_LIKE, (input,), {})
    return out if dtype is None else cast(out, dtype)


def fill(type, shape, value):  # noqa: A002 - MindSpore's signature
    shape = _shape_arg(shape, "Fill")
    dt = mstype.to_dtype(type)
    check_dims("Fill", shape)
    check_alloc("Fill", shape, dt)
    if isinstance(value, Tensor) and _dispatch._builders:  # a value computed in the graph (float(t)): zeros + it
        return bind(S.FILL, (), {"shape": shape, "value": 0, "dtype": dt}) + cast(reshape(value, ()), dt)
    return bind(S.FILL, (), {"shape": shape, "value": value, "dtype": dt})


def full(size, fill_value, *, dtype=None):
    if dtype is None:
        dtype = mstype.scalar_dtype(fill_value.item() if isinstance(fill_value, Tensor) else fill_value)
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    return fill(dtype, size, fill_value)


def zeros(size, dtype=None):
    return fill(dtype or mstype.float32, size, 0)


def ones(shape, dtype=None):
    return fill(dtype or mstype.float32, shape, 1)


# ---- reductions -----------------------------------------------------------------------------
def _axis_attr(axis, op: str = "Reduce") -> tuple:
    axes = () if axis is None else tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, (int, np.integer)):
            raise TypeError(f"{op}: axis must be an int or a tuple of ints, got {axis!r}")
    return tuple(int(a) for a in axes)


def reduce_sum(x, axis=(), keep_dims=False):
    return bind(R.REDUCE_SUM, (x,), {"axis": _axis_attr(axis), "keep_dims": keep_dims})


_WIDE_INT = (mstype.bool_, mstype.int8, mstype.int16, mstype.int32, mstype.uint8, mstype.uint16, mstype.uint32)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001,A002
    """Sum over ``dim`` (all axes if None); bool and int tensors sum to Int64, as MindSpore's ``ops.sum``."""
    x = _as_tensor(input, "ReduceSum")
    if dtype is not None:
        x = cast(x, dtype)
    elif x.dtype in _WIDE_INT:
        x = cast(x, mstype.int64)
    return bind(R.REDUCE_SUM, (x,), {"axis": _axis_attr(dim, "ReduceSum"), "keep_dims": bool(keepdim)})


def mean(input, axis=None, keep_dims=False):  # noqa: A002
    """Mean over ``axis``; an int tensor's mean is an int (truncated), as in MindSpore. (A Bool tensor,
    which MindSpore refuses, averages as float32.)"""
    x = _as_tensor(input, "ReduceMean")
    if x.dtype is mstype.bool_:
        x = cast(x, mstype.float32)
    return bind(R.REDUCE_MEAN, (x,), {"axis": _axis_attr(axis), "keep_dims": bool(keep_dims)})


def prod(input, axis=None, keep_dims=False, dtype=None):  # noqa: A002
    x = _as_tensor(input, "ReduceProd")
    if dtype is not None:
        x = cast(x, dtype)
    elif x.dtype in _WIDE_INT:
        x = cast(x, mstype.int64)
    return bind(R.REDUCE_PROD, (x,), {"axis": _axis_attr(axis), "keep_dims": bool(keep_dims)})


def _check_where(initial, where, op):
    if initial is not None or where is not None:
        raise NotImplementedError(f"{op}: initial= and where= are not supported by sprout")


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A002
    _check_where(initial, where, "amax")
    return bind(R.REDUCE_MAX, (_as_tensor(input, "ReduceMax"),), {"axis": _axis_attr(axis, "ReduceMax"),
                                                                  "keep_dims": bool(keepdims)})


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A002
    _check_where(initial, where, "amin")
    return bind(R.REDUCE_MIN, (_as_tensor(input, "ReduceMin"),), {"axis": _axis_attr(axis, "ReduceMin"),
                                                                  "keep_dims": bool(keepdims)})


def _arg(prim, input, axis, keepdims, output_type):  # noqa: A002
    x = _as_tensor(input, prim.name)
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
        keepdims = False
    axis = check_axis(prim.name, axis, x.ndim)
    return bind(prim, (x,), {"axis": axis, "keep_dims": bool(keepdims), "output_type": output_type})


def argmax(input, dim=None, keepdim=False):  # noqa: A002
    """Index of the maximum (Int64), over the flattened tensor when ``dim`` is None."""
    return _arg(R.ARGMAX, input, dim, keepdim, mstype.int64)


def argmin(input, axis=None, keepdims=False):  # noqa: A002
    """Index of the minimum; Int32, as MindSpore 2.x's ``ops.argmin`` returns."""
    return _arg(R.ARGMIN, input, axis, keepdims, mstype.int32)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001,A002
    """MindSpore 2.x ``ops.max``: (values, Int64 indices). Without an axis MindSpore returns the global
    maximum and the index 0 (not the argmax); sprout does the same."""
    _check_where(initial, where, "max")
    x = _as_tensor(input, "ReduceMax")
    if axis is None:
        return amax(x), Tensor(np.zeros((), np.int64))
    return amax(x, axis, keepdims), _arg(R.ARGMAX, x, axis, keepdims, mstype.int64)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):  # noqa: A001,A002
    """MindSpore 2.x ``ops.min``: (values, Int64 indices); index 0 without an axis (see ``max``)."""
    _check_where(initial, where, "min")
    x = _as_tensor(input, "ReduceMin")
    if axis is None:
        return amin(x), Tensor(np.zeros((), np.int64))
    return amin(x, axis, keepdims), _arg(R.ARGMIN, x, axis, keepdims, mstype.int64)


def any(input, axis=None, keep_dims=False):  # noqa: A001,A002
    x = _as_tensor(input, "ReduceAny")
    return amax(x if x.dtype is mstype.bool_ else cast(x, mstype.bool_), axis, keep_dims)


def all(input, axis=None, keep_dims=False):  # noqa: A001,A002
    x = _as_tensor(input, "ReduceAll")
    return amin(x if x.dtype is mstype.bool_ else cast(x, mstype.bool_), axis, keep_dims)


# ---- linear algebra ---------------------------------------------------------------------------
def matmul(input, other, *, transpose_a=False, transpose_b=False):  # noqa: A002
    if (input.__class__ is Tensor and other.__class__ is Tensor and not transpose_a and not transpose_b
            and input._data.dtype is other._data.dtype):
        return bind(L.MATMUL, (input, other), _NO_ATTRS)
    a, b = _bin(_as_tensor(input, "MatMul"), _as_tensor(other, "MatMul"), "MatMul")
    attrs = {}
    if transpose_a:
        attrs["transpose_a"] = True
    if transpose_b:
        attrs["transpose_b"] = True
    return bind(L.MATMUL, (a, b), attrs)


# ---- indexing ---------------------------------------------------------------------------------
def getitem(x, spec, tensors=()):
    return bind(GETITEM, (x, *tensors), {"spec": spec})


def getitem_grad(d, tensors, spec, shape):
    return bind(GETITEM_GRAD, (d, *tensors), {"spec": spec, "shape": tuple(shape)})


def getitem_grad_like(d, tensors, spec, like):
    """``getitem_grad`` into the shape of ``like``: read at run time when it holds symbolic dims."""
    if None not in like.shape:
        return getitem_grad(d, tensors, spec, like.shape)
    return bind(GETITEM_GRAD_LIKE, (d, like, *tensors), {"spec": spec})


def tensor_getitem(x, index):
    spec, tensors = split_index(index)
    return bind(GETITEM, (x, *tensors), {"spec": spec})


def _setitem_value(x, value):
    if isinstance(value, (list, tuple, np.ndarray)):
        return Tensor(np.asarray(value), dtype=x.dtype)
    if isinstance(value, Tensor) and value.dtype is not x.dtype:
        return cast(value, x.dtype)
    return value


def tensor_setitem(x, index, value):
    """Out-of-place ``x[index] = value``: returns the updated tensor."""
    spec, tensors = split_index(index)
    return bind(SETITEM, (x, _setitem_value(x, value), *tensors), {"spec": spec})


def setitem_in_place(x, index, value) -> bool:
    """Eager ``x[index] = value`` written into ``x``'s writable memory (no copy of ``x``); False when it could
    not be done so (the caller then goes through the SetItem op, which explains a bad index or value)."""
    d = x._data
    if not d.flags.writeable or isinstance(value, Tensor) and value.dtype is not x.dtype:
        return False
    spec, tensors = split_index(index)
    value = _setitem_value(x, value)
    v = value._data if isinstance(value, Tensor) else value
    if not isinstance(v, (np.ndarray, bool, int, float)):
        return False
    try:
        SETITEM.impl(d, v, *[t._data for t in tensors], spec=spec, out=d)
    except Exception:  # noqa: BLE001 - nothing was written; the op path raises MindSpore's error for it
        return False
    return True


# ---- the rest of the functional API lives in topical modules; re-exported so ``F.name`` reaches it ----
from .functional_array import *  # noqa: E402,F401,F403
from .functional_array import cumsum_raw, gather_d_grad, gather_grad, pad_raw  # noqa: E402,F401
from .nn_functional import *  # noqa: E402,F401,F403
from .composite import *  # noqa: E402,F401,F403
from .losses import *  # noqa: E402,F401,F403
from .losses_ext import *  # noqa: E402,F401,F403
from .pool_nd import *  # noqa: E402,F401,F403
from .pool_fractional import *  # noqa: E402,F401,F403
from .hof import *  # noqa: E402,F401,F403
from .functional_math import *  # noqa: E402,F401,F403
from .functional_linalg import *  # noqa: E402,F401,F403
from .functional_gather import *  # noqa: E402,F401,F403
from .functional_shape import *  # noqa: E402,F401,F403
from .functional_diag import *  # noqa: E402,F401,F403
from .functional_stats import *  # noqa: E402,F401,F403
from .functional_image import *  # noqa: E402,F401,F403
from .functional_nnx import *  # noqa: E402,F401,F403
from .functional_random import *  # noqa: E402,F401,F403
from .functional_detection import *  # noqa: E402,F401,F403
from .functional_misc import *  # noqa: E402,F401,F403
from .functional_fft import *  # noqa: E402,F401,F403
from .functional_stft import *  # noqa: E402,F401,F403
from .functional_deform import *  # noqa: E402,F401,F403
from .functional_sparse import *  # noqa: E402,F401,F403
from .functional_builtins import *  # noqa: E402,F401,F403


def _public_names() -> list:
    names = []
    for name, value in list(globals().items()):
        if name.startswith("_") or isinstance(value, type) or not callable(value):
            continue
        module = getattr(value, "__module__", "")
        if module.startswith("sprout.ops") and module not in ("sprout.ops._infer", "sprout.ops.indexing"):
            names.append(name)
    return names


__all__ = _public_names()
