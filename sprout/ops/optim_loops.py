"""Optional one-pass loops (numba, the ``fast`` extra) for the two update kernels that are pure streaming:
plain gradient descent and momentum. Without numba, or for small / non-contiguous / mixed-dtype arrays, the
NumPy kernels in ``optim_kernels.py`` run instead; both give the same float results (no fast-math). Loaded
lazily (``_lazy_numba``: a loop saves ~0.1-1 ms per update of a 0.1-0.4M-element parameter)."""
from __future__ import annotations

import numpy as np

from ._lazy_numba import LazyLoops

# below this many elements NumPy's vector ops are already cheap and avoid numba's call overhead
MIN_SIZE = 1 << 15


def _build(numba) -> dict:
    @numba.njit(cache=True)
    def gd(var, alpha, delta):  # pragma: no cover - compiled
        for i in range(var.size):
            var[i] -= alpha * delta[i]

    @numba.njit(cache=True)
    def momentum(var, accum, lr, grad, mom, nesterov):  # pragma: no cover - compiled
        for i in range(var.size):
            a = accum[i] * mom + grad[i]
            accum[i] = a
            if nesterov:
                var[i] -= lr * (grad[i] + mom * a)
            else:
                var[i] -= lr * a

    return {"gd": gd, "momentum": momentum}


LOOPS = LazyLoops(_build)


def usable(var: np.ndarray, *others: np.ndarray) -> bool:
    if var.size < MIN_SIZE or var.dtype.kind != "f" or not var.flags.c_contiguous:
        return False
    if not all(o.dtype == var.dtype and o.shape == var.shape and o.flags.c_contiguous for o in others):
        return False
    return LOOPS.ready()


def gradient_descent(var: np.ndarray, alpha, delta: np.ndarray) -> None:
    LOOPS["gd"](var.reshape(-1), var.dtype.type(alpha), delta.reshape(-1))


def momentum(var: np.ndarray, accum: np.ndarray, lr, grad: np.ndarray, mom, nesterov: bool) -> None:
    t = var.dtype.type
    LOOPS["momentum"](var.reshape(-1), accum.reshape(-1), t(lr), grad.reshape(-1), t(mom), bool(nesterov))
