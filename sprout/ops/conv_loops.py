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
    jit = numba.njit(cache=True, error_model="numpy", nogil=True)  # nogil: two streams run halves at once

    @jit
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

    @numba.njit(cache=True, inline="always")
    def mx(m, v):  # pragma: no cover - compiled
        """np.maximum's rule: the first operand unless the second is larger or the first is NaN (a NaN in a
        window wins, ties keep the earlier tap: bitwise what the NumPy taps compute)."""
        return v if not (m >= v or m != m) else m

    @jit
    def max_pool2(x, out):  # pragma: no cover - compiled
        n_, c_, ho, wo = out.shape
        for n in range(n_):
            for c in range(c_):
                for y in range(ho):
                    r0, r1, o = x[n, c, 2 * y], x[n, c, 2 * y + 1], out[n, c, y]
                    for k in range(wo):
                        o[k] = mx(mx(mx(r0[2 * k], r0[2 * k + 1]), r1[2 * k]), r1[2 * k + 1])

    @jit
    def max_pool2_grad(x, dout, grad):  # pragma: no cover - compiled
        n_, c_, ho, wo = dout.shape
        for n in range(n_):
            for c in range(c_):
                for y in range(ho):
                    r0, r1, d = x[n, c, 2 * y], x[n, c, 2 * y + 1], dout[n, c, y]
                    g0, g1 = grad[n, c, 2 * y], grad[n, c, 2 * y + 1]
                    for k in range(wo):
                        a, b, e, f = r0[2 * k], r0[2 * k + 1], r1[2 * k], r1[2 * k + 1]
                        m = mx(mx(mx(a, b), e), f)
                        dv = d[k]
                        ha = a == m  # the first tap equal to the maximum gets dout (none when it is NaN)
                        hb = (not ha) and b == m  # written out: "not (ha or hb)" measured 3.5x slower
                        he = (not ha) and (not hb) and e == m
                        hf = (not ha) and (not hb) and (not he) and f == m
                        g0[2 * k] = dv if ha else 0
                        g0[2 * k + 1] = dv if hb else 0
                        g1[2 * k] = dv if he else 0
                        g1[2 * k + 1] = dv if hf else 0

    return {"col2im": col2im, "max_pool2": max_pool2, "max_pool2_grad": max_pool2_grad}


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
