"""Small helpers for the dataset tests."""
import contextlib
import signal

import numpy as np


def rows(dataset, **kwargs):
    """One epoch of ``dataset`` as nested Python lists (NumPy output)."""
    return [[np.asarray(col).tolist() for col in row]
            for row in dataset.create_tuple_iterator(output_numpy=True, **kwargs)]


def firsts(dataset, **kwargs):
    """The first column of every row as Python values."""
    return [r[0] for r in rows(dataset, **kwargs)]


@contextlib.contextmanager
def deadline(seconds: float):
    """Fail with TimeoutError if the block runs longer than ``seconds`` (for code that must not hang)."""
    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s (a hang?)")
    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
