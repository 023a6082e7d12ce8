"""Optional numba loop (the ``fast`` extra) for the col2im of a stride-1 convolution's input gradient: every window
value of the (C, kh, kw, N, Ho, Wo) gradient columns added to its input position in one pass. Without numba, or
before it is worth importing, ``conv_ops`` runs its NumPy forms instead.

Measured on LeNet's conv2 input gradient (dout (32, 16, 10, 10), 5x5 filter, float32, one core, load 17, process
time): the "planar" NumPy form (a GEMM over zero-padded planes, then 25 contiguous adds) 726-840 us; the exact GEMM
(225 us) then this loop 380-395 us. A variant with the stride and dilation as run-time values (no vectorised inner
loop) measured 850-1100 us, so strided convolutions keep the NumPy form. Same import policy as ``optim_loops``:
numba is imported for this only after ``IMPORT_AFTER`` large calls, or at once when another kernel already has."""
from __future__ import annotations

import sys

import numpy as np

from .optim_loops import worth_loading

MIN_SIZE = 1 << 15  # gradient columns below this many elements: NumPy's slice adds are cheap enough

_col2im = None      # the compiled loop; False once we know numba is missing
_seen = 0           # large calls seen while the loop was not loaded


def _compile() -> None:
    global _col2im
    try:
        import numba
    except ImportError:
        _col2im = False
        return

    @numba.njit(cache=True, error_model="numpy")
    def col2im(dcols, out):  # pragma: no cover - compiled
        c_, kh, kw, n_, ho, wo = dcols.shape
        out[:] = 0
        for n in range(n_):
            for c in range(c_):
                for i in range(kh):
                    for j in range(kw):
                        for y in range(ho):
                            for x in range(wo):
                                out[n, c, y + i, x + j] += dcols[c, i, j, n, y, x]

    _col2im = col2im


def usable(size: int, dtype, stride, dilation) -> bool:
    """Whether ``col2im`` runs the numba loop for gradient columns of ``size`` elements of ``dtype`` (loading it
    when it has become worth it)."""
    global _seen
    if size < MIN_SIZE or np.dtype(dtype).kind != "f" or tuple(stride) != (1, 1) or tuple(dilation) != (1, 1):
        return False
    if _col2im is None:
        _seen += 1
        if not worth_loading(_seen, "numba" in sys.modules):
            return False
        _compile()
    return bool(_col2im)


def col2im(dcols: np.ndarray, out: np.ndarray) -> None:
    """``out`` (N, C, Hp, Wp) = the sum of every (C, kh, kw, N, Ho, Wo) column value at its (padded) input position,
    for stride and dilation 1 (after ``usable`` said yes)."""
    _col2im(np.ascontiguousarray(dcols), out)
