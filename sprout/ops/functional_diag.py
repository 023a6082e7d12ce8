"""The matrix_diag family (MindSpore's MatrixDiagV3 / MatrixDiagPartV3 / MatrixSetDiagV3): diagonal bands."""
from __future__ import annotations

import builtins

import numpy as np

from ..core.tensor import Tensor
from . import functional as F
from .functional import _as_tensor
from .functional_shape import _static

__all__ = ["matrix_diag", "matrix_diag_part", "matrix_set_diag"]

_range = builtins.range

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _diag_range(k, align, op):
    """(k0, k1, banded) from an int or a pair of ints (or a Tensor of them); ``banded``: the diagonals get an axis."""
    if not isinstance(align, str) or align not in _ALIGNS:
        raise ValueError(f"{op}: align must be one of {list(_ALIGNS)}, but got {align!r}")
    k = _static(k, op, "k")
    ks = [int(v) for v in (k if isinstance(k, (tuple, list)) else [k])]
    if not 1 <= len(ks) <= 2:
        raise ValueError(f"{op}: k must be an int or a pair of ints, but got {k!r}")
    k0, k1 = ks[0], ks[-1]
    if k0 > k1:
        raise ValueError(f"{op}: k[0] must not be greater than k[1], but got k = ({k0}, {k1})")
    return k0, k1, k0 != k1


def _band_layout(rows, cols, k0, k1, width, align):
    """Where each diagonal k1, k1-1 .. k0 of a (rows, cols) matrix sits in a (k1-k0+1, width) band: per matrix
    element the band slot holding it (-1 outside the band). A super-diagonal (d >= 0) is right-aligned in its row
    of the band for align RIGHT_*, a sub-diagonal for *_RIGHT; the other slots hold padding."""
    slot = np.full((rows, cols), -1, np.int64)
    for r, d in enumerate(_range(k1, k0 - 1, -1)):
        length = min(rows + min(0, d), cols - max(0, d))
        right = align.startswith("RIGHT") if d >= 0 else align.endswith("RIGHT")
        shift = width - length if right else 0
        t = np.arange(max(length, 0))
        slot[t + max(0, -d), t + max(0, d)] = r * width + shift + t
    return slot


def _max_diag_len(rows, cols, k0, k1):
    return min(rows + min(0, k1), cols - max(0, k0))


def _fill_slots(values, slot, other):
    """``values`` (..., n_slots) placed at ``slot`` (rows, cols) (-1: ``other``, broadcastable to the result)."""
    picked = F.gather(values, Tensor(np.maximum(slot, 0).reshape(-1).astype(np.int32)), values.ndim - 1)
    picked = F.reshape(picked, tuple(values.shape[:-1]) + slot.shape)
    return F.where(Tensor(slot >= 0), picked, other)


def _padding(padding_value, dtype, op):
    pad = padding_value if isinstance(padding_value, Tensor) else Tensor(np.asarray(padding_value))
    if pad.ndim != 0:
        raise ValueError(f"{op}: padding_value must be a scalar, but got shape {list(pad.shape)}")
    # MindSpore 2.10's bprops give padding_value a zero gradient (not the cotangent's sum over the padded slots)
    return F.stop_gradient(F.cast(pad, dtype))


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices with the diagonals k[0]..k[1] taken from ``x`` (..., L) for one diagonal, (..., k1-k0+1, L) for a
    band listed from k[1] down, placed by ``align``; every other element is ``padding_value``."""
    t = _as_tensor(x, "MatrixDiag")
    k0, k1, banded = _diag_range(k, align, "MatrixDiag")
    if t.ndim < 1 + banded:
        raise ValueError(f"MatrixDiag: x must have rank >= {1 + banded} for k = ({k0}, {k1}), but got {t.ndim}")
    if banded and t.shape[-2] != k1 - k0 + 1:
        raise ValueError(f"MatrixDiag: x.shape[-2] must be k[1] - k[0] + 1 = {k1 - k0 + 1}, but got {t.shape[-2]}")
    width = t.shape[-1]
    min_rows, min_cols = width - min(k1, 0), width + max(k0, 0)
    rows, cols = (int(_static(v, "MatrixDiag", name)) for v, name in ((num_rows, "num_rows"), (num_cols, "num_cols")))
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    rows, cols = min_rows if rows == -1 else rows, min_cols if cols == -1 else cols
    if rows < min_rows or cols < min_cols or _max_diag_len(rows, cols, k0, k1) != width:
        raise ValueError(f"MatrixDiag: num_rows {rows} / num_cols {cols} do not fit diagonals of length {width} "
                         f"at k = ({k0}, {k1}) (need at least {min_rows} x {min_cols}, one of them exactly)")
    slot = _band_layout(rows, cols, k0, k1, width, align)
    flat = F.reshape(t, tuple(t.shape[:-1 - banded]) + ((k1 - k0 + 1) * width,))
    return _fill_slots(flat, slot, _padding(padding_value, t.dtype, "MatrixDiag"))


def _check_matrix_k(x, k0, k1, op):
    if x.ndim < 2:
        raise ValueError(f"{op}: x must have rank >= 2, but got {x.ndim}")
    rows, cols = x.shape[-2:]
    for v in (k0, k1):
        if not (rows == cols == 0 or -rows < v < cols):
            raise ValueError(f"{op}: k must lie in (-x.shape[-2], x.shape[-1]) = ({-rows}, {cols}), but got {v}")
    return rows, cols


def matrix_diag_part(x, k, padding_value, align="RIGHT_LEFT"):
    """Diagonal ``k`` of the last two axes (..., L), or for a pair k the band of diagonals k[1] down to k[0]
    (..., k1-k0+1, L) with the shorter ones placed by ``align`` and padded with ``padding_value``."""
    t = _as_tensor(x, "MatrixDiagPart")
    k0, k1, banded = _diag_range(k, align, "MatrixDiagPart")
    rows, cols = _check_matrix_k(t, k0, k1, "MatrixDiagPart")
    width = _max_diag_len(rows, cols, k0, k1)
    slot = _band_layout(rows, cols, k0, k1, width, align).reshape(-1)
    source = np.full((k1 - k0 + 1) * width, -1, np.int64)  # the matrix element in each band slot
    source[slot[slot >= 0]] = np.nonzero(slot >= 0)[0]
    flat = F.reshape(t, tuple(t.shape[:-2]) + (rows * cols,))
    return _fill_slots(flat, source.reshape((k1 - k0 + 1, width) if banded else (width,)),
                       _padding(padding_value, t.dtype, "MatrixDiagPart"))


def matrix_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):  # noqa: A002
    """``x`` with the diagonals k[0]..k[1] of its last two axes replaced by ``diagonal`` (laid out as
    ``matrix_diag_part`` returns them)."""
    t, d = _as_tensor(x, "MatrixSetDiag"), _as_tensor(diagonal, "MatrixSetDiag")
    k0, k1, banded = _diag_range(k, align, "MatrixSetDiag")
    rows, cols = _check_matrix_k(t, k0, k1, "MatrixSetDiag")
    width = _max_diag_len(rows, cols, k0, k1)
    want = tuple(t.shape[:-2]) + ((k1 - k0 + 1, width) if banded else (width,))
    if tuple(d.shape) != want:
        raise ValueError(f"MatrixSetDiag: diagonal must have shape {list(want)} for x of shape {list(t.shape)} and "
                         f"k = ({k0}, {k1}), but got {list(d.shape)}")
    flat = F.reshape(d, tuple(t.shape[:-2]) + ((k1 - k0 + 1) * width,))
    return _fill_slots(flat, _band_layout(rows, cols, k0, k1, width, align), t)
