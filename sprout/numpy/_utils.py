"""mindspore.numpy's argument rules: array-likes to Tensors (Python ints as int32, floats as float32), axis and
shape checks, the ``dtype=`` result cast."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor

_PY_DEFAULT = {"b": mstype.bool_, "i": mstype.int32, "u": mstype.int32, "f": mstype.float32}


def is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _nested_tensor(obj) -> bool:
    if isinstance(obj, Tensor):
        return True
    return isinstance(obj, (list, tuple)) and any(_nested_tensor(o) for o in obj)


def to_tensor(obj, op: str = "mindspore.numpy", dtype=None) -> Tensor:
    """``obj`` (Tensor, Python scalar, nested list/tuple, NumPy array) as a Tensor with mindspore.numpy's default
    dtypes: Python ints Int32, floats Float32 (NumPy arrays keep theirs)."""
    if isinstance(obj, Tensor):
        out = obj
    elif isinstance(obj, (list, tuple)) and _nested_tensor(obj):
        parts = [to_tensor(o, op) for o in obj]
        if len({p.shape for p in parts}) > 1:
            raise ValueError(f"{op}: the sequence elements have different shapes {[p.shape for p in parts]}")
        dt = parts[0].dtype
        for p in parts[1:]:
            dt = mstype.promote(dt, p.dtype)
        out = ops.stack([p if p.dtype is dt else ops.cast(p, dt) for p in parts])
    elif isinstance(obj, (bool, int, float, np.generic, np.ndarray, list, tuple)):
        if isinstance(obj, (list, tuple)):
            try:
                arr = np.asarray(obj)
            except ValueError as exc:
                raise ValueError(f"{op}: cannot build an array from a ragged sequence: {exc}") from None
        else:
            arr = np.asarray(obj)
        if arr.dtype.kind not in "biuf":
            raise TypeError(f"{op}: expected an array-like of numbers, got {type(obj).__name__} {obj!r:.60}")
        if not isinstance(obj, (np.ndarray, np.generic)):
            arr = arr.astype(_PY_DEFAULT[arr.dtype.kind].np)
        out = Tensor(arr)
    else:
        raise TypeError(f"{op}: expected a Tensor or an array-like (number, list, tuple), "
                        f"got {type(obj).__name__}")
    if dtype is not None:
        dt = mstype.to_dtype(dtype)
        if out.dtype is not dt:
            out = ops.cast(out, dt)
    return out


def tensors(args, op: str) -> list:
    return [to_tensor(a, op) for a in args]


def apply_dtype(out, dtype):
    """The ``dtype=`` argument of mindspore.numpy's element-wise functions: the result cast to it."""
    if dtype is None:
        return out
    dt = mstype.to_dtype(dtype)
    if isinstance(out, tuple):
        return tuple(apply_dtype(o, dt) for o in out)
    return out if out.dtype is dt else ops.cast(out, dt)


def as_float(x: Tensor) -> Tensor:
    return x if x.dtype.is_float else ops.cast(x, mstype.float32)


def check_int(value, name: str, op: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{op}: '{name}' must be an int, got {type(value).__name__} {value!r}")
    return int(value)


def check_axis(axis, ndim: int, op: str, name: str = "axis") -> int:
    axis = check_int(axis, name, op)
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ValueError(f"{op}: '{name}' {axis} is out of range for a {ndim}-D array "
                         f"(expected [{-max(ndim, 1)}, {max(ndim, 1)}))")
    return axis % max(ndim, 1)


def check_axes(axis, ndim: int, op: str, name: str = "axis") -> tuple:
    """None -> every axis; int or tuple/list of ints -> sorted unique non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = tuple(check_axis(a, ndim, op, name) for a in items)
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: duplicate value in '{name}' {axis!r}")
    return out


def check_shape(shape, op: str) -> tuple:
    """A shape argument (int, list/tuple of ints, or a 1-D int Tensor) as a tuple of non-negative ints."""
    if isinstance(shape, Tensor):
        shape = tuple(int(v) for v in shape.asnumpy().reshape(-1))
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"{op}: shape must be an int, a tuple/list of ints or a Tensor, got {type(shape).__name__}")
    out = []
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"{op}: each entry of shape must be an int, got {type(s).__name__} {s!r} in {shape!r}")
        if s < 0:
            raise ValueError(f"{op}: each entry of shape must be >= 0, got {s} in {tuple(shape)!r}")
        out.append(int(s))
    return tuple(out)


def ms_dtype(dtype, default=None):
    return default if dtype is None else mstype.to_dtype(dtype)


def static_shape(x: Tensor, op: str) -> tuple:
    """``x.shape`` when every dimension is known (jit traces may have symbolic ones)."""
    if any(d is None for d in x.shape):
        raise ValueError(f"{op}: needs the static shape of its input, got {x.shape}")
    return tuple(x.shape)


def const_value(x, op: str, name: str):
    """A Tensor argument's value on the host (eagerly; a traced one is refused with a clear error)."""
    if isinstance(x, Tensor):
        try:
            return x.asnumpy()
        except Exception as exc:  # noqa: BLE001 - a tracer refuses asnumpy
            raise TypeError(f"{op}: '{name}' must be a constant (its value decides the output shape); "
                            f"a traced Tensor cannot be used here") from exc
    return np.asarray(x)
