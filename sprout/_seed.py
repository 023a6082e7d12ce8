"""The global random seed (``ms.set_seed``) shared by initializers, dropout and datasets."""
from __future__ import annotations

import numpy as np

_seed: int | None = None
_rng = np.random.default_rng()
# op-level seeded streams (``ops.UniformReal(seed=5)``, ``ops.uniform(..., seed=5)``): one generator per key,
# created from (global seed, op seeds) on first use and advanced by every draw; set_seed restarts them all
_streams: dict = {}


def set_seed(seed: int) -> None:
    """Seed every random source sprout has: parameter init, random ops and dataset shuffling."""
    global _seed, _rng
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"set_seed: seed must be a non-negative int, got {seed!r}")
    _seed = seed
    _rng = np.random.default_rng(seed)
    _streams.clear()
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


def stream(key: tuple) -> np.random.Generator:
    """The op-level stream ``key`` = (owner, seed, seed2[, instance]): reproducible from the op seeds alone (and
    the global seed when one is set), as MindSpore's seed rules promise; owners with equal seeds but separate
    instances draw the same sequence independently."""
    g = _streams.get(key)
    if g is None:
        material = [0 if _seed is None else _seed + 1] + [int(k) & 0xFFFFFFFF for k in key[1:3]]
        g = _streams[key] = np.random.default_rng(material)
    return g
