"""MindSpore's exact text for ``repr(tensor)`` (and ``str``, which is NumPy's)."""
from __future__ import annotations

import re

import numpy as np

_EDGE = 3  # items shown at each end of a summarised dimension
_THRESHOLD_1D = 1000  # a 1-D tensor is summarised only past this many elements
_ELLIPSIS_ROW = re.compile(r"^(\s*)\.\.\.,$", re.MULTILINE)


def _float_formatter(digits: int):
    width = digits + 7

    def fmt(x) -> str:
        if np.isnan(x) or np.isinf(x):
            return f"{str(x):>{width}}"
        return f"{x: .{digits}e}"

    return fmt


def format_value(arr: np.ndarray) -> str:
    """The text after ``value=`` in a Tensor's repr.

    MindSpore's rules (measured on 2.10): a 1-D tensor prints in full up to 1000 elements,
    wrapping after every 12 floats/bools or 24 integers; a tensor of rank >= 2 shows only
    3 items at each end of every dimension longer than 6; floats are ``% .8e`` (``% .4e``
    for float16); scalars print with ``%g``."""
    if arr.ndim == 0:
        item = arr.item()
        if isinstance(item, float):
            return f" {item:g}"
        return f" {item}"
    if arr.size == 0:
        return " " if arr.ndim == 1 else "\n"
    options = {"separator": ", ", "edgeitems": _EDGE, "max_line_width": 10**9,
               "threshold": _THRESHOLD_1D if arr.ndim == 1 else 0}
    if arr.dtype.kind == "f":
        options["formatter"] = {"float_kind": _float_formatter(4 if arr.dtype == np.float16 else 8)}
    text = np.array2string(arr, **options).replace(", ...,", " ...")
    if arr.ndim == 1:
        if arr.size > _THRESHOLD_1D:
            return " " + text
        per_line = 24 if arr.dtype.kind in "iu" else 12
        items = text[1:-1].split(", ")
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return " [" + ", \n ".join(lines) + "]"
    while "\n\n" in text:  # MindSpore puts no blank line between blocks of a 3-D+ tensor
        text = text.replace("\n\n", "\n")
    return "\n" + _ELLIPSIS_ROW.sub(r"\1...", text)


def tensor_repr(shape: tuple, dtype_name: str, arr: np.ndarray) -> str:
    dims = ", ".join(str(d) for d in shape)
    return f"Tensor(shape=[{dims}], dtype={dtype_name}, value={format_value(arr)})"


def tensor_str(arr: np.ndarray) -> str:
    if arr.ndim:
        return str(arr)
    value = arr[()]  # a 0-d tensor prints as a NumPy scalar, with NumPy 1.x's positional range
    if arr.dtype.kind == "f" and 1e-4 <= abs(float(value)) < 1e16:
        return np.format_float_positional(value, trim="0")
    return str(value)
