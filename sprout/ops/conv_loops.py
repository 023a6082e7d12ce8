"""Optional numba loops (the ``fast`` extra) for convolution and pooling kernels, loaded lazily (``_lazy_numba``):
the col2im of a stride-1 convolution's input gradient, and 2x2 tiled max pooling forward and backward. Without
numba, or before it is worth importing, ``conv_ops`` / ``pool_ops`` run their NumPy forms (same results).

col2im, measured on LeNet's conv2 input gradient (dout (32, 16, 10, 10), 5x5 filter, float32, one core, load 17,
process time): the "planar" NumPy form (a GEMM over zero-padded planes, then 25 contiguous adds) 726-840 us; the
exact GEMM (225 us) then this loop 380-395 us. A variant with the stride and dilation as run-time values (no
vectorised inner loop) measured 850-1100 us, so strided convolutions keep the NumPy form.

2x2 max pooling (W5's shapes, float32, process time, load 11): forward (32, 6, 28, 28) 130 -> 42 us, (32, 16, 10, 10)
87 -> 20 us; backward 488 -> 225 us and 274 -> 104 us. A loop with the window size as a run-time value lost to
NumPy (610 us forward), so other window sizes keep the NumPy taps."""
from __future__ import annotations

import numpy as np

from ._lazy_numba import LazyLoops
from ._parallel import halves, worth

MIN_SIZE = 1 << 15  # arrays below this many elements: NumPy's slice ops are cheap enough
SPLIT_SIZE = 1 << 17  # pooling inputs from this many elements split their batch over two streams (when set)


def _build(numba) -> dict:
    from . import _conv_numba  # compiles (or loads from numba's cache) at import; imports numba

    return {"col2im": _conv_numba.col2im, "max_pool2": _conv_numba.max_pool2,
            "max_pool2_grad": _conv_numba.max_pool2_grad}


LOOPS = LazyLoops(_build)


def usable(size: int, dtype, stride, dilation) -> bool:
    """Whether ``col2im`` runs the numba loop for gradient columns of ``size`` elements of ``dtype`` (loading it
    when it has become worth it)."""
    if size < MIN_SIZE or np.dtype(dtype).kind != "f" or tuple(stride) != (1, 1) or tuple(dilation) != (1, 1):
        return False
    return LOOPS.ready()


def col2im(dcols: np.ndarray, out: np.ndarray) -> None:
    """``out`` (N, C, Hp, Wp) = the sum of every (C, kh, kw, N, Ho, Wo) column value at its (padded) input position,
    for stride and dilation 1 (after ``usable`` said yes)."""
    LOOPS["col2im"](np.ascontiguousarray(dcols), out)


def pool_usable(x: np.ndarray, kernel) -> bool:
    """Whether the 2x2 max-pool loops run for ``x`` (a tiled 2x2 pooling: the caller checked the geometry)."""
    if tuple(kernel) != (2, 2) or x.size < MIN_SIZE or x.dtype not in (np.float32, np.float64):
        return False
    return LOOPS.ready()


def max_pool2(x: np.ndarray, out: np.ndarray) -> None:
    """``out`` (N, C, Ho, Wo) = the maximum of each 2x2 tile of ``x`` (after ``pool_usable`` said yes)."""
    _by_halves(LOOPS["max_pool2"], x, out)


def max_pool2_grad(x: np.ndarray, dout: np.ndarray, grad: np.ndarray) -> None:
    """``grad`` (the tiles of ``x``) = ``dout`` at each tile's first maximum, 0 elsewhere in the tile."""
    _by_halves(LOOPS["max_pool2_grad"], x, np.ascontiguousarray(dout, x.dtype), grad)


def _by_halves(loop, x: np.ndarray, *arrays: np.ndarray) -> None:
    """``loop(x, *arrays)``, as two halves of the batch on the two streams when they are set and ``x`` is large."""
    n = x.shape[0]
    if n >= 2 and worth(x.size, SPLIT_SIZE):
        halves(lambda lo, hi: loop(x[lo:hi], *(a[lo:hi] for a in arrays)), n, True)
    else:
        loop(x, *arrays)
