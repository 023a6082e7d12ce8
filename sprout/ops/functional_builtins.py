"""MindSpore's Python-value helpers of ``ops.functional`` (scalar_*, bool_*, string_*, tuple_*/list_*/dict_*, make_*,
is_/is_not, typeof/hastype, shape_mul, reduced_shape, tail, zip_operation): plain Python semantics with MindSpore's
errors, usable eagerly and inside ``jit`` (where they run on the traced program's Python values)."""
from __future__ import annotations

import math
import numbers

from .. import dtype as mstype
from ..dtype_kinds import TensorType, TypeKind, get_py_obj_dtype

__all__ = ["scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv", "scalar_mod", "scalar_pow",
           "scalar_log", "scalar_uadd", "scalar_usub", "scalar_eq", "scalar_ne", "scalar_lt", "scalar_le",
           "scalar_gt", "scalar_ge", "scalar_max", "scalar_min", "bool_and", "bool_or", "bool_not", "bool_eq",
           "string_concat", "string_eq", "tuple_getitem", "list_getitem", "tuple_setitem", "list_setitem",
           "tuple_len", "list_len", "tuple_reversed", "tuple_div", "tuple_equal", "list_equal", "make_tuple",
           "make_list", "make_dict", "make_slice", "dict_getitem", "dict_setitem", "in_dict", "not_in_dict", "is_",
           "is_not", "typeof", "hastype", "shape_mul", "reduced_shape", "tail", "zip_operation"]

def scalar_add(x, y):
    return x + y


def scalar_sub(x, y):
    return x - y


def scalar_mul(x, y):
    return x * y


def scalar_pow(x, y):
    return x ** y


def scalar_eq(x, y):
    return x == y


def scalar_ne(x, y):
    return x != y


def scalar_lt(x, y):
    return x < y


def scalar_le(x, y):
    return x <= y


def scalar_gt(x, y):
    return x > y


def scalar_ge(x, y):
    return x >= y


def scalar_uadd(x):
    return +x


def scalar_usub(x):
    return -x


def tuple_equal(x, y):
    return x == y


def list_equal(x, y):
    return x == y


def is_(x, y):
    return x is y


def is_not(x, y):
    return x is not y


def _nonzero(y, what: str) -> None:
    if isinstance(y, numbers.Number) and y == 0:
        raise ValueError(f"For '{what}', the divisor could not be zero. But the divisor is zero now.")


def scalar_div(x, y):
    """x / y (a true division; a zero divisor raises ValueError)."""
    _nonzero(y, "scalar_div")
    return x / y


def scalar_floordiv(x, y):
    _nonzero(y, "scalar_floordiv")
    return x // y


def scalar_mod(x, y):
    _nonzero(y, "scalar_mod")
    return x % y


def scalar_log(x):
    """The natural logarithm of a Python number (ValueError outside its domain)."""
    if x <= 0:
        raise ValueError(f"For 'scalar_log', the input must be positive (math domain error), but got {x}.")
    return math.log(x)


def scalar_max(x, y):
    return x if x >= y else y


def scalar_min(x, y):
    return x if x <= y else y


def _bools(what: str, *values) -> None:
    for v in values:
        if not isinstance(v, bool):
            raise TypeError(f"For '{what}', the inputs must be bool, but got {type(v).__name__}.")


def bool_and(x, y):
    _bools("bool_and", x, y)
    return x and y


def bool_or(x, y):
    _bools("bool_or", x, y)
    return x or y


def bool_not(x):
    _bools("bool_not", x)
    return not x


def bool_eq(x, y):
    _bools("bool_eq", x, y)
    return x == y


def _strings(what: str, *values) -> None:
    for v in values:
        if not isinstance(v, str):
            raise TypeError(f"For '{what}', the inputs must be str, but got {type(v).__name__}.")


def string_concat(x, y):
    _strings("string_concat", x, y)
    return x + y


def string_eq(x, y):
    _strings("string_eq", x, y)
    return x == y


def _index(what: str, seq, i, kinds) -> int:
    if not isinstance(seq, kinds):
        raise TypeError(f"For '{what}', the input must be a {kinds[0].__name__}, but got {type(seq).__name__}.")
    if isinstance(i, bool) or not isinstance(i, int):
        raise TypeError(f"For '{what}', the index must be an int, but got {type(i).__name__}.")
    if not -len(seq) <= i < len(seq):
        raise IndexError(f"For '{what}', the index should be in range[{-len(seq)}, {len(seq)}), but got {i}.")
    return i


def tuple_getitem(t, i):
    return t[_index("tuple_getitem", t, i, (tuple,))]


def list_getitem(seq, i):
    return seq[_index("list_getitem", seq, i, (list,))]


def tuple_setitem(t, i, value):
    """A new tuple with item ``i`` replaced."""
    i = _index("tuple_setitem", t, i, (tuple,)) % len(t)
    return t[:i] + (value,) + t[i + 1:]


def list_setitem(seq, i, value):
    """A new list with item ``i`` replaced (the input list is left as it is)."""
    i = _index("list_setitem", seq, i, (list,))
    out = list(seq)
    out[i] = value
    return out


def tuple_len(seq):
    return len(seq)


def list_len(seq):
    return len(seq)


def tuple_reversed(t):
    return tuple(reversed(t))


def tuple_div(x, y):
    """Element-wise exact division of two int tuples of one length (RuntimeError when an element does not divide)."""
    if len(x) != len(y):
        raise RuntimeError(f"The size of inputs of 'tuple_div' operator must be the same, but the size of divisor "
                           f"tuple is {len(y)}, the size of dividend tuple is {len(x)}.")
    out = []
    for a, b in zip(x, y):
        if b == 0:
            raise RuntimeError("The divisor value of 'tuple_div' should not be 0!")
        if a % b:
            raise RuntimeError(f"The inputs of 'tuple_div' operator should be divisible, but they are not divisible "
                               f"now, the dividend is {a}, the divisor is {b}.")
        out.append(a // b)
    return tuple(out)


def make_tuple(*elements):
    return tuple(elements)


def make_list(*elements):
    return list(elements)


def make_dict(keys, values):
    """A dict from a tuple of keys and a tuple of values of the same length."""
    if len(keys) != len(values):
        raise ValueError(f"For 'make_dict', the keys ({len(keys)}) and values ({len(values)}) must have one length.")
    return dict(zip(keys, values))


def make_slice(start, stop, step):
    return slice(start, stop, step)


def dict_getitem(d, key):
    if key not in d:
        raise KeyError(f"For 'dict_getitem', the key {key!r} is not in the dict.")
    return d[key]


def dict_setitem(d, key, value):
    """A new dict with ``key`` set (the input dict is left as it is)."""
    out = dict(d)
    out[key] = value
    return out


def in_dict(key, d):
    return key in d


def not_in_dict(key, d):
    return key not in d


def typeof(x):
    """The MindSpore type of a value: Int64 for an int, Float32 for a float (MindSpore's scalar float type),
    Bool, ``Tensor[dtype]``, tuple_/list_/string/type_none; a dict has no sprout type object (TypeError)."""
    if isinstance(x, float):
        return mstype.float32
    try:
        return get_py_obj_dtype(x)
    except NotImplementedError:
        raise TypeError(f"For 'typeof', sprout has no MindSpore type object for {type(x).__name__} values.") from None


def hastype(x, t):
    """Whether ``typeof(x)`` is ``t``, or falls under the kind ``t`` (``tensor_type`` for every Tensor, ``number``
    for every Python number)."""
    kind = typeof(x)
    if kind == t:
        return True
    if isinstance(t, TensorType) and t.element_type() is None:
        return isinstance(kind, TensorType)
    if isinstance(t, TypeKind) and t.pytype is numbers.Number:
        return isinstance(kind, mstype.Type) and not isinstance(x, bool)
    return False


def shape_mul(shape):
    """The product of a shape tuple (1 for ())."""
    out = 1
    for d in shape:
        out *= d
    return out


def reduced_shape(shape, axis):
    """``shape`` with the reduced axes (an int, a tuple, or () for all) set to 1."""
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if not axes:
        return (1,) * len(shape)
    axes = {a % len(shape) for a in axes}
    return tuple(1 if i in axes else d for i, d in enumerate(shape))


def tail(t):
    """Every element of a tuple but the first."""
    return tuple(t[1:])


def zip_operation(*sequences):
    """The tuples of the i-th elements of every input sequence."""
    return tuple(zip(*sequences))
