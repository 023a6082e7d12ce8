"""Dataset-wide settings (``ds.config``): seed, worker count, prefetch window, error-sample mode, debug mode."""
from __future__ import annotations

from enum import IntEnum

from ._checks import check_bool, check_int, check_workers, cpu_count

_DEFAULT_SEED = 5489  # MindSpore's default dataset seed
# MindSpore's default, capped by the cores; sprout's nodes use it only once set explicitly (docs/dataset.md)
_DEFAULT_WORKERS = min(8, cpu_count())


class ErrorSamplesMode(IntEnum):
    """What a ``map`` does with a row whose operation raises: RETURN raises (the default), REPLACE repeats an
    earlier good row instead, SKIP drops the row. REPLACE and SKIP log a warning naming the row."""
    RETURN = 0
    REPLACE = 1
    SKIP = 2


_state = {"seed": None, "num_parallel_workers": _DEFAULT_WORKERS, "user_workers": None, "worker_id": 0,
          "prefetch_size": 16, "error_samples_mode": ErrorSamplesMode.RETURN, "debug_mode": False,
          "mp_timeout_interval": 300}


def set_seed(seed) -> None:
    """Set the seed every shuffle, random sampler and random transform of later iterations draws from."""
    check_int("config.set_seed", "seed", seed, low=0, high=2**32 - 1)
    _state["seed"] = int(seed)


def get_seed() -> int:
    """The seed set by ``set_seed`` (or ``sprout.set_seed``); 5489 when none was set."""
    return _DEFAULT_SEED if _state["seed"] is None else _state["seed"]


def set_num_parallel_workers(num: int) -> None:
    """Workers of every ``map`` and source that is not given ``num_parallel_workers`` itself, at most the CPU
    count (a RuntimeError beyond it, as in MindSpore)."""
    num = check_workers("config.set_num_parallel_workers", num, name="num", error=RuntimeError)
    _state["num_parallel_workers"] = _state["user_workers"] = int(num)


def get_num_parallel_workers() -> int:
    return _state["num_parallel_workers"]


def set_prefetch_size(size: int) -> None:
    """Rows a parallel node keeps in flight (at least twice its worker count)."""
    check_int("config.set_prefetch_size", "size", size, low=1, high=2**31 - 1)
    _state["prefetch_size"] = int(size)


def get_prefetch_size() -> int:
    return _state["prefetch_size"]


def set_error_samples_mode(error_samples_mode) -> None:
    """How ``map`` treats a row whose operation raises (see ErrorSamplesMode)."""
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise TypeError(f"config.set_error_samples_mode: expects a config.ErrorSamplesMode, got {error_samples_mode!r}")
    _state["error_samples_mode"] = error_samples_mode


def get_error_samples_mode() -> ErrorSamplesMode:
    return _state["error_samples_mode"]


def set_debug_mode(debug_mode_flag: bool, debug_hook_list=None) -> None:
    """Run every node in the calling thread (one worker) so the pipeline can be stepped through."""
    check_bool("config.set_debug_mode", "debug_mode_flag", debug_mode_flag)
    if debug_hook_list is not None:
        raise NotImplementedError("config.set_debug_mode: debug hooks are not supported by sprout; use a map with "
                                  "your own function to inspect rows")
    _state["debug_mode"] = bool(debug_mode_flag)


def get_debug_mode() -> bool:
    return _state["debug_mode"]


def set_multiprocessing_timeout_interval(interval: int) -> None:
    """Seconds between the warnings a parallel node logs while it waits for a worker's result."""
    check_int("config.set_multiprocessing_timeout_interval", "interval", interval, low=1)
    _state["mp_timeout_interval"] = int(interval)


def get_multiprocessing_timeout_interval() -> int:
    return _state["mp_timeout_interval"]


def set_enable_shared_mem(enable: bool) -> None:
    """sprout's worker processes always hand rows over by pickling; only False (no shared memory) is possible."""
    check_bool("config.set_enable_shared_mem", "enable", enable)
    if enable:
        raise NotImplementedError("config.set_enable_shared_mem: sprout passes rows between processes by pickling; "
                                  "shared memory is not available")


def get_enable_shared_mem() -> bool:
    return False


def worker_id() -> int:
    """Number of the parallel worker process running the caller (0 in the main process)."""
    return _state["worker_id"]
