"""MindSpore's exact text for ``repr(tensor)`` (and ``str``, which is NumPy's)."""
from __future__ import annotations

import re

import numpy as np

from .. import dtype as mstype
from . import float8 as _float8

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
    if mstype.is_bfloat16_np(arr.dtype):
        return _format_bf16(arr.astype(np.float32))
    if mstype._FROM_NP.get(arr.dtype) in mstype.storage_only_types:
        return _format_float8(_float8.to_float32(arr))
    if arr.dtype.kind == "c":
        return _format_complex(arr)
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


def _shown(arr: np.ndarray, summarise: bool) -> np.ndarray:
    """The elements a summarised print shows: ``_EDGE`` at each end of every dimension longer than twice that."""
    if not summarise:
        return arr
    for axis, n in enumerate(arr.shape):
        if n > 2 * _EDGE:
            arr = np.concatenate([arr.take(range(_EDGE), axis), arr.take(range(n - _EDGE, n), axis)], axis)
    return arr


def _format_bf16(arr: np.ndarray) -> str:
    """bfloat16 (given widened to float32): MindSpore prints each value ``%g``, right-aligned to the widest
    shown one, 24 to a line in 1-D, summarised as other dtypes are."""
    if arr.ndim == 0:
        return f" {float(arr):g}"
    shown = _shown(arr, arr.size > _THRESHOLD_1D if arr.ndim == 1 else True)
    width = max((len(f"{float(v):g}") for v in shown.flat), default=0)
    return _itemwise(arr, {"float_kind": lambda v: f"{float(v):g}".rjust(width)})


def _format_float8(arr: np.ndarray) -> str:
    """8-bit floats (given as float32): as bfloat16, each value ``%g`` right-aligned, with ``-nan`` for a NaN whose
    sign bit is set (MindSpore 2.10 prints it so for float8_e4m3fn)."""
    if arr.ndim == 0:
        return " " + _g(arr[()])
    shown = _shown(arr, arr.size > _THRESHOLD_1D if arr.ndim == 1 else True)
    width = max((len(_g(v)) for v in shown.flat), default=0)
    return _itemwise(arr, {"float_kind": lambda v: _g(v).rjust(width)})


def _itemwise(arr: np.ndarray, formatter: dict) -> str:
    """The layout MindSpore gives dtypes it prints item by item (bfloat16, complex): ", "-separated, 24 items to
    a line in 1-D (summarised past 1000), rank >= 2 summarised to 3 items at each end of every long dimension."""
    if arr.size == 0:
        return " " if arr.ndim == 1 else "\n"
    options = {"separator": ", ", "edgeitems": _EDGE, "max_line_width": 10**9,
               "threshold": _THRESHOLD_1D if arr.ndim == 1 else 0, "formatter": formatter}
    text = np.array2string(arr, **options).replace(", ...,", " ...")
    if arr.ndim == 1:
        if arr.size > _THRESHOLD_1D:
            return " " + text
        items = text[1:-1].split(", ")
        lines = [", ".join(items[i:i + 24]) for i in range(0, len(items), 24)]
        return " [" + ", \n ".join(lines) + "]"
    while "\n\n" in text:
        text = text.replace("\n\n", "\n")
    return "\n" + _ELLIPSIS_ROW.sub(r"\1...", text)


def _g(x) -> str:
    """``%g`` with the sign of a NaN kept (MindSpore prints ``-nan``)."""
    return "-nan" if np.isnan(x) and np.signbit(x) else f"{float(x):g}"


def _complex_item(z) -> str:
    im = _g(z.imag)
    return f"{_g(z.real)}{im if im[0] == '-' else '+' + im}j"


def _format_complex(arr: np.ndarray) -> str:
    """MindSpore prints each complex value as ``re%g`` then ``im%+g`` and ``j``, unpadded."""
    if arr.ndim == 0:
        return " " + _complex_item(arr[()])
    return _itemwise(arr, {"complex_kind": _complex_item})


def tensor_repr(shape: tuple, dtype_name: str, arr: np.ndarray) -> str:
    dims = ", ".join(str(d) for d in shape)
    return f"Tensor(shape=[{dims}], dtype={dtype_name}, value={format_value(arr)})"


def tensor_str(arr: np.ndarray) -> str:
    if mstype._FROM_NP.get(arr.dtype) in mstype.storage_only_types:  # MindSpore 2.10 prints "()" per item: values
        arr = _float8.to_float32(arr)
    if mstype.is_bfloat16_np(arr.dtype):  # MindSpore: each value ``%f``, NumPy's layout otherwise
        wide = arr.astype(np.float32)
        if not arr.ndim:
            return f"{float(wide):f}"
        return np.array2string(wide, separator=" ", formatter={"float_kind": lambda v: f"{float(v):f}"},
                               threshold=_THRESHOLD_1D, edgeitems=_EDGE, max_line_width=75)
    if arr.ndim:
        return str(arr)
    value = arr[()]  # a 0-d tensor prints as a NumPy scalar, with NumPy 1.x's positional range
    if arr.dtype.kind == "f" and 1e-4 <= abs(float(value)) < 1e16:
        return np.format_float_positional(value, trim="0")
    return str(value)
