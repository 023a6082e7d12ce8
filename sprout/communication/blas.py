"""BLAS threads of this process: ranks sharing a node get ``cores // ranks on the node`` each unless the user set a
thread count (two ranks with two OpenBLAS threads each on two cores ran 26x slower than with one)."""
from __future__ import annotations

import ctypes
import os

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
# (set, get) entry points of the OpenBLAS builds NumPy ships or links
_SYMBOLS = (("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
            ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
            ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
            ("openblas_set_num_threads", "openblas_get_num_threads"))


def _openblas():
    """(set, get) of the OpenBLAS loaded in this process, or None (another BLAS, or not Linux)."""
    import numpy  # noqa: F401 - loads NumPy's BLAS

    try:
        with open("/proc/self/maps") as f:
            paths = sorted({line.split()[-1] for line in f if "openblas" in line.lower() and "/" in line})
    except OSError:
        return None
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for set_name, get_name in _SYMBOLS:
            if hasattr(lib, set_name) and hasattr(lib, get_name):
                return getattr(lib, set_name), getattr(lib, get_name)
    return None


def blas_threads() -> int | None:
    """OpenBLAS's thread count in this process (None when OpenBLAS is not found)."""
    fns = _openblas()
    return None if fns is None else int(fns[1]())


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def cap_for_local_ranks(env, local_size: int) -> int | None:
    """Give this rank ``cores // local_size`` BLAS threads (at least one) when the environment sets none of
    ``THREAD_VARS``; returns the count set, or None when left alone."""
    if local_size <= 1 or any(env.get(v) for v in THREAD_VARS):
        return None
    fns = _openblas()
    if fns is None:
        return None
    want = max(1, cores() // local_size)
    if int(fns[1]()) > want:
        fns[0](want)
    return want
