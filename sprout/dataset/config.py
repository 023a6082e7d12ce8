"""Dataset-wide settings (``ds.config``): the shuffle seed and the (ignored) worker count."""
from __future__ import annotations

from ._checks import check_int

_DEFAULT_SEED = 5489  # MindSpore's default dataset seed
_state = {"seed": None, "num_parallel_workers": 8, "worker_id": 0}


def set_seed(seed) -> None:
    """Set the seed every shuffle and random sampler of later iterations draws from."""
    check_int("config.set_seed", "seed", seed, low=0, high=2**32 - 1)
    _state["seed"] = int(seed)


def get_seed() -> int:
    """The seed set by ``set_seed`` (or ``sprout.set_seed``); 5489 when none was set."""
    return _DEFAULT_SEED if _state["seed"] is None else _state["seed"]


def set_num_parallel_workers(num: int) -> None:
    """Accepted for compatibility; sprout runs every pipeline in the calling thread."""
    check_int("config.set_num_parallel_workers", "num", num, low=1)
    _state["num_parallel_workers"] = int(num)


def get_num_parallel_workers() -> int:
    return _state["num_parallel_workers"]


def worker_id() -> int:
    """Number of the parallel-map worker process running the caller (0 in the main process)."""
    return _state["worker_id"]
