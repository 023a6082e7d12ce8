"""Optional numba loops loaded lazily: one policy for every kernel family that has a numba form (the ``fast`` extra).

numba is not imported with sprout, nor by the first large call: importing it and loading cached loops costs
~0.8 s of CPU (more wall time on a busy machine), while a loop saves ~0.1-1 ms per large call (bench notes, issue
13). So each family's NumPy forms run until ``IMPORT_AFTER`` large calls have been seen in this process (a run
long enough to repay the import), or at once when numba is already imported for another kernel (then only the
cached loops are loaded). Without numba every family keeps its NumPy forms."""
from __future__ import annotations

import sys
from collections.abc import Callable

# large calls done with NumPy before numba is imported only for one family's loops
IMPORT_AFTER = 1000


def worth_loading(seen: int, numba_imported: bool) -> bool:
    """Whether to load a family's loops now, after ``seen`` large calls without them."""
    return numba_imported or seen >= IMPORT_AFTER


class LazyLoops:
    """The compiled loops of one family: ``build(numba)`` returns them as a dict, called once on first need.
    ``kernels`` is None before loading and ``{}`` once numba is known to be missing (tests set it to ``{}`` to
    run the NumPy forms)."""

    def __init__(self, build: Callable[[object], dict]):
        self._build = build
        self.kernels: dict | None = None
        self.seen = 0  # large calls seen while the loops were not loaded

    def load(self) -> dict:
        """Import numba and compile (or load from numba's cache) the loops now; ``{}`` without numba."""
        try:
            import numba
        except ImportError:
            self.kernels = {}
            return self.kernels
        self.kernels = self._build(numba)
        return self.kernels

    def ready(self) -> bool:
        """Whether the loops run for one more large call (loading them when it has become worth it)."""
        if self.kernels is None:
            self.seen += 1
            if not worth_loading(self.seen, "numba" in sys.modules):
                return False
            self.load()
        return bool(self.kernels)

    def __getitem__(self, name: str):
        return self.kernels[name]
