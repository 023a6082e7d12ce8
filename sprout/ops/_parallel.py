"""Two halves of a kernel's batch on the executor's two streams: ``backend.pool`` installs the runner (ops sits
below the backend), active while ``inter_op_parallel_num`` >= 2 schedules two streams (docs/performance.md)."""
from __future__ import annotations

from collections.abc import Callable

# installed by backend.pool: ``_active()`` says whether this thread may split now (two streams set, not on the
# worker itself); ``_both(lo, hi)`` runs ``hi()`` on the worker beside ``lo()`` on this thread
_active: Callable[[], bool] = lambda: False  # noqa: E731
_both: Callable | None = None


def install(active: Callable[[], bool], both: Callable) -> None:
    global _active, _both
    _active, _both = active, both


def worth(work: int, at_least: int) -> bool:
    """Whether a kernel with ``work`` (its own measure) of at least ``at_least`` splits its batch now."""
    return work >= at_least and _active()


def halves(part: Callable[[int, int], object], n: int, parallel: bool) -> tuple:
    """``(part(0, n // 2), part(n // 2, n))``: on the two streams when ``parallel``, else one after the other.
    ``part`` computes one range of the batch and must write only its own slice of any shared output."""
    h = n // 2
    if parallel and _both is not None:
        return _both(lambda: part(0, h), lambda: part(h, n))
    return part(0, h), part(h, n)
