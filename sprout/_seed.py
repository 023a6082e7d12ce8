"""The global random seed (``ms.set_seed``) shared by initializers, dropout and datasets."""
from __future__ import annotations

import numpy as np

_seed: int | None = None
_rng = np.random.default_rng()


def set_seed(seed: int) -> None:
    """Seed every random source sprout has: parameter init, random ops and dataset shuffling."""
    global _seed, _rng
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"set_seed: seed must be a non-negative int, got {seed!r}")
    _seed = seed
    _rng = np.random.default_rng(seed)
    try:
        from .dataset import config
        config.set_seed(seed)
    except ImportError:
        pass


def get_seed() -> int | None:
    return _seed


def rng() -> np.random.Generator:
    """The generator random ops and initializers draw from."""
    return _rng
