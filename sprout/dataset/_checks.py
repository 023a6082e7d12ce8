"""Argument checks and value conversion shared by the dataset modules."""
from __future__ import annotations

import numbers
import os

import numpy as np


def check_int(op: str, name: str, value, low=None, high=None, allow=()) -> int:
    """Raise a TypeError/ValueError naming ``op`` unless ``value`` is an int in [low, high] (or in ``allow``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{op}: {name} must be an int, got {type(value).__name__} {value!r}")
    if value in allow:
        return int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        extra = f" or one of {list(allow)}" if allow else ""
        raise ValueError(f"{op}: {name} must be in [{lo}, {hi}]{extra}, got {value}")
    return int(value)


def cpu_count() -> int:
    """Cores of this machine: MindSpore's upper bound for every ``num_parallel_workers``."""
    return os.cpu_count() or 1


def check_workers(op: str, value, name: str = "num_parallel_workers", error=ValueError) -> int:
    """An int worker count in [1, cores], as MindSpore checks it (it raises ValueError naming the bound)."""
    value = check_int(op, name, value, low=1)
    if value > cpu_count():
        raise error(f"{op}: {name} exceeds the boundary between 1 and {cpu_count()} (the CPU count), got {value}")
    return value


def check_optional_int(op: str, name: str, value, low=None, high=None):
    return None if value is None else check_int(op, name, value, low, high)


def check_bool(op: str, name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{op}: {name} must be a bool, got {type(value).__name__} {value!r}")
    return bool(value)


def column_list(op: str, name: str, value, allow_none: bool = True):
    """Normalise a column argument (a name or a list of names) to a list of str, or None."""
    if value is None:
        if allow_none:
            return None
        raise ValueError(f"{op}: {name} must be given")
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not names:
        raise TypeError(f"{op}: {name} must be a str or a non-empty list of str, got {value!r}")
    for n in names:
        if not isinstance(n, str) or not n:
            raise TypeError(f"{op}: {name} must contain non-empty str names, got {n!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"{op}: {name} has duplicate names: {list(names)}")
    return list(names)


def find_columns(op: str, available, wanted) -> list[int]:
    """Positions of ``wanted`` column names in ``available``; ValueError for an unknown name."""
    out = []
    for name in wanted:
        if name not in available:
            raise ValueError(f"{op}: column {name!r} does not exist; the dataset has columns {list(available)}")
        out.append(list(available).index(name))
    return out


def to_array(op: str, value) -> np.ndarray:
    """Turn one column value (array, scalar, list, sprout Tensor) into a NumPy array."""
    if hasattr(value, "asnumpy"):
        value = value.asnumpy()
    arr = np.asarray(value)
    if arr.dtype == object:
        raise TypeError(f"{op}: cannot turn a value of type {type(value).__name__} into a numeric or string array "
                        f"(ragged or non-numeric data?): {value!r:.80}")
    return arr


def np_dtype(op: str, dtype) -> np.dtype:
    """The NumPy dtype of a sprout/MindSpore dtype, a NumPy dtype, a Python type or a dtype name."""
    inner = getattr(dtype, "np", None)
    if isinstance(inner, np.dtype):
        return inner
    try:
        return np.dtype(dtype)
    except TypeError:
        pass
    try:
        from .. import dtype as mstype
        return np.dtype(mstype.dtype_to_nptype(mstype.to_dtype(dtype)))
    except Exception:  # noqa: BLE001 - any failure means the value is not a dtype
        raise TypeError(f"{op}: {dtype!r} is not a data type") from None
