"""Argument checks for nn constructors: MindSpore's exception types (TypeError for a wrong type, ValueError for a
wrong value), each message naming the cell and the argument."""
from __future__ import annotations

import math


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def int_value(v, name: str, owner: str, low=None, high=None, low_open=False) -> int:
    """An int (not bool) within [low, high] (``low_open``: strictly above low)."""
    if not _is_int(v):
        raise TypeError(f"For '{owner}', the '{name}' must be int, but got '{type(v).__name__}'.")
    if low is not None and (v <= low if low_open else v < low):
        raise ValueError(f"For '{owner}', the '{name}' must be {'>' if low_open else '>='} {low}, but got {v}.")
    if high is not None and v > high:
        raise ValueError(f"For '{owner}', the '{name}' must be <= {high}, but got {v}.")
    return v


def positive_int(v, name: str, owner: str) -> int:
    return int_value(v, name, owner, 0, low_open=True)


def non_negative_int(v, name: str, owner: str) -> int:
    return int_value(v, name, owner, 0)


def float_value(v, name: str, owner: str, low=None, high=None, low_open=False, high_open=False,
                allow_int: bool = True) -> float:
    """A number (int accepted unless ``allow_int`` is False) within the given bounds, as a float."""
    ok = _is_number(v) if allow_int else isinstance(v, float)
    if not ok:
        raise TypeError(f"For '{owner}', the '{name}' must be float, but got '{type(v).__name__}'.")
    if math.isnan(v) or math.isinf(v):
        raise ValueError(f"For '{owner}', the '{name}' must be a legal value, but got {v}.")
    if low is not None and (v <= low if low_open else v < low):
        raise ValueError(f"For '{owner}', the '{name}' must be {'>' if low_open else '>='} {low}, but got {v}.")
    if high is not None and (v >= high if high_open else v > high):
        raise ValueError(f"For '{owner}', the '{name}' must be {'<' if high_open else '<='} {high}, but got {v}.")
    return float(v)


def bool_value(v, name: str, owner: str) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"For '{owner}', the '{name}' must be a bool, but got {type(v).__name__}.")
    return v


def one_of(v, valid, name: str, owner: str):
    if not (isinstance(v, str) and v in valid):
        raise ValueError(f"For '{owner}', the '{name}' must be str and must be in {list(valid)}, but got {v!r}.")
    return v


def type_of(v, types, name: str, owner: str):
    """``v`` is an instance of ``types`` (bool only when listed)."""
    types = types if isinstance(types, tuple) else (types,)
    if (isinstance(v, bool) and bool not in types) or not isinstance(v, types):
        names = [t.__name__ for t in types]
        raise TypeError(f"For '{owner}', the type of '{name}' should be {'one of ' if len(names) > 1 else ''}"
                        f"{names if len(names) > 1 else names[0]}, but got type '{type(v).__name__}'.")
    return v


def int_tuple(v, n: int, name: str, owner: str, positive: bool = True, allow_list: bool = False) -> tuple:
    """An int (repeated n times) or a tuple of n ints, each > 0 (``positive``) or >= 0."""
    seq = (tuple, list) if allow_list else (tuple,)
    if _is_int(v):
        out = (v,) * n
    elif isinstance(v, seq):
        out = tuple(v)
        if len(out) != n:
            raise ValueError(f"For '{owner}', the '{name}' must be an int or a tuple of {n} ints, but got {v!r}.")
    else:
        raise TypeError(f"For '{owner}', the '{name}' must be an int or a tuple of {n} ints, but got "
                        f"'{type(v).__name__}'.")
    for item in out:
        if not _is_int(item) or (item <= 0 if positive else item < 0):
            kind = "a positive" if positive else "a non-negative"
            raise ValueError(f"For '{owner}', every item of '{name}' must be {kind} int, but got {v!r}.")
    return out
