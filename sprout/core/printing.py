"""MindSpore's exact text for ``repr(tensor)`` (and ``str``, which is NumPy's)."""
from __future__ import annotations

import numpy as np


def _float_formatter(digits: int):
    def fmt(x) -> str:
        if np.isnan(x) or np.isinf(x):
            return f"{str(x):>{digits + 7}}"
        return f"{x: .{digits}e}"

    return fmt


def format_value(arr: np.ndarray) -> str:
    """The text after ``value=`` in a Tensor's repr."""
    if arr.ndim == 0:
        item = arr.item()
        if isinstance(item, float):
            return f" {item:g}"
        return f" {item}"
    if arr.size == 0:
        return "\n"
    options = {"separator": ", ", "threshold": 1000, "edgeitems": 3, "max_line_width": 10**9}
    if arr.dtype.kind == "f":
        digits = 4 if arr.dtype == np.float16 else 8
        options["formatter"] = {"float_kind": _float_formatter(digits)}
    text = np.array2string(arr, **options).replace(", ...,", " ...")
    while "\n\n" in text:  # MindSpore puts no blank line between blocks of a 3-D+ tensor
        text = text.replace("\n\n", "\n")
    if arr.ndim == 1:
        return " " + text
    return "\n" + text


def tensor_repr(shape: tuple, dtype_name: str, arr: np.ndarray) -> str:
    dims = ", ".join(str(d) for d in shape)
    return f"Tensor(shape=[{dims}], dtype={dtype_name}, value={format_value(arr)})"


def tensor_str(arr: np.ndarray) -> str:
    return str(arr)
