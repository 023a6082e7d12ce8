"""Non-constant padding modes (reflect, symmetric, edge/replicate, circular) as one gather per padded axis with a
constant index vector; the gradient is Gather's (a scatter-add back onto the source positions)."""
from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from . import functional as F

MODES = ("reflect", "symmetric", "edge", "circular")


def pad_indices(size: int, lo: int, hi: int, mode: str, op: str = "Pad") -> np.ndarray:
    """Source positions of a padded axis of length size + lo + hi under ``mode``."""
    if mode == "reflect" and (lo >= size or hi >= size):
        raise ValueError(f"For '{op}', reflect padding ({lo}, {hi}) must be smaller than the dimension {size}.")
    if mode == "symmetric" and (lo > size or hi > size):
        raise ValueError(f"For '{op}', symmetric padding ({lo}, {hi}) must not exceed the dimension {size}.")
    if mode == "circular" and (lo > size or hi > size):
        raise ValueError(f"For '{op}', circular padding ({lo}, {hi}) must not exceed the dimension {size}.")
    i = np.arange(-lo, size + hi)
    if mode == "edge":
        return np.clip(i, 0, size - 1)
    if mode == "circular":
        return i % size
    if mode == "reflect":
        if size == 1:
            return np.zeros_like(i)
        j = i % (2 * size - 2)
        return np.where(j < size, j, 2 * size - 2 - j)
    j = i % (2 * size)
    return np.where(j < size, j, 2 * size - 1 - j)


def pad_mode_raw(x, pairs, mode: str, op: str = "Pad"):
    """Pad every axis of ``x`` by its (before, after) pair in ``pairs`` (one per axis) with ``mode``."""
    if mode not in MODES:
        raise ValueError(f"For '{op}', the padding mode must be one of {list(MODES)}, but got {mode!r}.")
    out = x
    for axis, (lo, hi) in enumerate(pairs):
        if lo < 0 or hi < 0:
            raise ValueError(f"For '{op}', {mode} padding must be non-negative, but got {tuple(pairs)}.")
        if lo or hi:
            idx = pad_indices(out.shape[axis], lo, hi, mode, op).astype(np.int32)
            out = F.gather(out, Tensor(idx), axis)
    return out


def pad_last(x, padding, mode: str, op: str = "Pad", value=0):
    """``ops.pad``-style padding (left, right, top, bottom, ...) of the last len(padding) // 2 axes."""
    padding = tuple(padding)
    n = len(padding) // 2
    if len(padding) % 2 or n > x.ndim:
        raise ValueError(f"For '{op}', the padding {padding} must hold (before, after) pairs for at most {x.ndim} "
                         "axes.")
    pairs = [(0, 0)] * x.ndim
    for i in range(n):
        pairs[x.ndim - 1 - i] = (int(padding[2 * i]), int(padding[2 * i + 1]))
    if mode == "constant":
        return F.pad_raw(x, tuple(pairs), value)
    return pad_mode_raw(x, pairs, mode, op)
