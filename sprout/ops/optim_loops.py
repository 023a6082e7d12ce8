"""Optional one-pass loops (numba, the ``fast`` extra) for the two update kernels that are pure streaming:
plain gradient descent and momentum. Without numba, or for small / non-contiguous / mixed-dtype arrays, the
NumPy kernels in ``optim_kernels.py`` run instead; both give the same float results (no fast-math).

numba is not imported with sprout, nor by the first large update: importing it and loading the cached
loops costs ~0.8 s of CPU (more wall time on a busy machine), while a loop saves ~0.1-1 ms per update of a
0.1-0.4M-element parameter (bench notes, issue 13). So the NumPy kernels run until ``IMPORT_AFTER`` large
updates have been seen in this process (a run long enough to repay the import), or at once when numba
is already imported for another kernel (then only the cached loops are loaded)."""
from __future__ import annotations

import sys

import numpy as np

# below this many elements NumPy's vector ops are already cheap and avoid numba's call overhead
MIN_SIZE = 1 << 15
# large updates done with NumPy before numba is imported only for these loops
IMPORT_AFTER = 1000

_loops: dict | None = None  # name -> compiled loop; {} once we know numba is missing
_seen = 0                   # large updates seen while the loops were not loaded


def _compile() -> dict:
    global _loops
    try:
        import numba
    except ImportError:
        _loops = {}
        return _loops

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

    _loops = {"gd": gd, "momentum": momentum}
    return _loops


def worth_loading(seen: int, numba_imported: bool) -> bool:
    """Whether to load the loops now, after ``seen`` large updates without them."""
    return numba_imported or seen >= IMPORT_AFTER


def usable(var: np.ndarray, *others: np.ndarray) -> bool:
    global _seen
    if var.size < MIN_SIZE or var.dtype.kind != "f" or not var.flags.c_contiguous:
        return False
    if not all(o.dtype == var.dtype and o.shape == var.shape and o.flags.c_contiguous for o in others):
        return False
    if _loops is None:
        _seen += 1
        if not worth_loading(_seen, "numba" in sys.modules):
            return False
        _compile()
    return bool(_loops)


def gradient_descent(var: np.ndarray, alpha, delta: np.ndarray) -> None:
    _loops["gd"](var.reshape(-1), var.dtype.type(alpha), delta.reshape(-1))


def momentum(var: np.ndarray, accum: np.ndarray, lr, grad: np.ndarray, mom, nesterov: bool) -> None:
    t = var.dtype.type
    _loops["momentum"](var.reshape(-1), accum.reshape(-1), t(lr), grad.reshape(-1), t(mom), bool(nesterov))
