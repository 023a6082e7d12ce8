"""mindspore.runtime: run-time settings (launch blocking, dispatch threads, memory pool), checked as MindSpore does."""
from __future__ import annotations

import re

from . import context
from .runtime_memory import *  # noqa: F401,F403
from .runtime_memory import __all__ as _memory_names
from .runtime_stream import *  # noqa: F401,F403
from .runtime_stream import __all__ as _stream_names

__all__ = ["launch_blocking", "synchronize", "dispatch_threads_num", "set_memory", "empty_cache", *_memory_names,
           *_stream_names]

_configured: dict = {}  # what was set once (MindSpore refuses setting these twice)
_SIZE = re.compile(r"[1-9][0-9]*(\.)?[0-9]*GB|0\.[0-9]*GB")
_RESERVE = re.compile(r"[0-9]+(\.)?[0-9]*GB")


def launch_blocking() -> None:
    """Run every operator synchronously: sprout's operators always finish before they return, so this only sets
    ``pynative_synchronize`` (reported by ``get_context``)."""
    context.set_context(pynative_synchronize=True)


def synchronize() -> None:
    """Wait for every queued operator: sprout runs none asynchronously, so there is nothing to wait for."""


def _once(name: str) -> None:
    if name in _configured:
        raise RuntimeError(f"The '{name}' can not be set repeatedly.")


def _positive_int(name: str, value) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    return value


def dispatch_threads_num(threads_num: int) -> None:
    """The number of run-time dispatch threads (once per process). sprout dispatches on the calling thread; the
    value is kept and reported by ``get_dispatch_threads_num``."""
    _positive_int("dispatch_threads_num: threads_num", threads_num)
    _once("dispatch_threads_num")
    _configured["dispatch_threads_num"] = threads_num


def get_dispatch_threads_num() -> int:
    return _configured.get("dispatch_threads_num", 5)


def set_memory(init_size: str = "2GB", increase_size: str = "2GB", max_size: str = "1024GB",
               optimize_level: str = "O0", huge_page_reserve_size: str = "0GB") -> None:
    """The device memory pool's sizes (once per process). sprout's arrays are NumPy's, so the pool sizes only
    are checked and kept; ``optimize_level`` is the context's ``memory_optimize_level``."""
    for name, value in (("init_size", init_size), ("increase_size", increase_size), ("max_size", max_size)):
        if not isinstance(value, str) or not _SIZE.fullmatch(value):
            raise ValueError(f"set_memory: '{name}' must be a size such as \"2GB\" or \"0.5GB\", got {value!r}")
    if not isinstance(huge_page_reserve_size, str) or not _RESERVE.fullmatch(huge_page_reserve_size):
        raise ValueError(f"set_memory: 'huge_page_reserve_size' must be a size such as \"0GB\", "
                         f"got {huge_page_reserve_size!r}")
    if optimize_level not in ("O0", "O1"):
        raise ValueError(f"set_memory: 'optimize_level' must be one of ['O0', 'O1'], got {optimize_level!r}")
    _once("set_memory")
    _configured["set_memory"] = dict(init_size=init_size, increase_size=increase_size, max_size=max_size,
                                     optimize_level=optimize_level, huge_page_reserve_size=huge_page_reserve_size)
    context.set_context(memory_optimize_level=optimize_level)


def empty_cache() -> None:
    """Release cached memory: sprout keeps no pool of its own (NumPy frees arrays itself); the C heap's free
    blocks go back to the operating system (glibc ``malloc_trim``), lowering ``memory_reserved``."""
    from .runtime_memory import trim_heap

    trim_heap()


def _reset() -> None:
    """Forget the once-only settings (tests)."""
    _configured.clear()
