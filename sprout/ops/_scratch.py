"""Per-thread work arrays that kernels reuse across calls for temporaries that never leave the kernel."""
from __future__ import annotations

import threading

import numpy as np

# Why: a fresh multi-megabyte temporary per call (an im2col copy, a col2im accumulator) is handed back to the OS
# by the allocator when freed, so the next call page-faults its memory in again. Measured on W5 (LeNet step,
# one BLAS thread, load 10): ~1400 faults per step from two such temporaries, and the step at 8.6 ms CPU against
# 5.0 ms with no faults at all. A buffer kept per (thread, name) costs those faults once.
MAX_BYTES = 64 << 20   # a larger temporary is allocated per call, not kept

_local = threading.local()


def scratch(name: str, shape: tuple, dtype) -> np.ndarray:
    """An uninitialised C-contiguous array of ``shape`` whose memory is reused by the next ``scratch(name, ...)``
    of this thread: the caller must be done with it before that (and never return it or a view of it)."""
    dtype = np.dtype(dtype)
    n = 1
    for d in shape:
        n *= int(d)
    nbytes = n * dtype.itemsize
    if nbytes > MAX_BYTES:
        return np.empty(shape, dtype)
    bufs = getattr(_local, "bufs", None)
    if bufs is None:
        bufs = _local.bufs = {}
    raw = bufs.get(name)
    if raw is None or raw.nbytes < nbytes:
        raw = bufs[name] = np.empty(max(nbytes, 1), np.uint8)
    return raw[:nbytes].view(dtype).reshape(shape)


def copy_into(name: str, view: np.ndarray) -> np.ndarray:
    """``view`` copied into the scratch array ``name`` (what ``view.reshape`` of a strided view would allocate)."""
    out = scratch(name, view.shape, view.dtype)
    np.copyto(out, view)
    return out


class Kept:
    """One array a generated graph hands from a producer node to a later consumer within a call (an im2col copy
    kept for the filter gradient), its memory reused by the next call. ``take`` lends it; ``give_back`` (with the
    array ``take`` returned) ends the loan. While lent (another thread running the same graph, or a call that
    raised before its consumer ran) ``take`` returns a fresh array instead, so no two live values share it."""

    def __init__(self):
        self._raw = None
        self._lent = None
        self._lock = threading.Lock()

    def take(self, shape: tuple, dtype) -> np.ndarray:
        dtype = np.dtype(dtype)
        n = 1
        for d in shape:
            n *= int(d)
        nbytes = n * dtype.itemsize
        with self._lock:
            if self._lent is not None or nbytes > MAX_BYTES:
                return np.empty(shape, dtype)
            if self._raw is None or self._raw.nbytes < nbytes:
                self._raw = np.empty(max(nbytes, 1), np.uint8)
            out = self._lent = self._raw[:nbytes].view(dtype).reshape(shape)
        return out

    def give_back(self, a: np.ndarray) -> None:
        with self._lock:
            if a is self._lent:
                self._lent = None
