"""``mindspore.device_context.cpu.op_tuning.threads_num``: the threads CPU kernels use (BLAS, and numba's parallel
kernels once numba is loaded). Set once per process, as in MindSpore."""
from __future__ import annotations

import sys

_configured: int | None = None


def threads_num(num) -> None:
    """Use ``num`` threads for CPU kernels: OpenBLAS's thread count, and numba's when numba is imported. A second
    call raises RuntimeError, as in MindSpore."""
    global _configured
    if isinstance(num, bool) or not isinstance(num, int):
        raise TypeError(f"The parameter 'num' must be int, but got {type(num).__name__}.")
    if _configured is not None:
        raise RuntimeError("The 'threads_num' can not be set repeatedly.")
    if num <= 0:
        raise ValueError(f"For 'threads_num', 'num' must be a positive int, but got {num}.")
    from ...communication import blas

    fns = blas._openblas()
    if fns is not None:
        fns[0](num)
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.set_num_threads(min(num, numba.config.NUMBA_NUM_THREADS))
    _configured = num
