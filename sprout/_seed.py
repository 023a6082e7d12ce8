"""The global random seed (``ms.set_seed``) shared by initializers, dropout and datasets, and the generator states
(``ms.Generator``, ``ms.default_generator``) random ops draw their per-call seeds from."""
from __future__ import annotations

import secrets
import weakref

import numpy as np

_seed: int | None = None
_rng = np.random.default_rng()
# op-level seeded streams (``ops.UniformReal(seed=5)``, ``ops.uniform(..., seed=5)``): one generator per key,
# created from (global seed, op seeds) on first use and advanced by every draw; set_seed restarts them all
_streams: dict = {}
_MASK = (1 << 64) - 1


class GenState:
    """A counter-based generator state, MindSpore's (seed, offset): draw n of seed s is a hash of (s, n), so any
    state can be saved as two int64 numbers and replayed exactly."""

    __slots__ = ("seed", "offset", "__weakref__")

    def __init__(self, seed: int = 0, offset: int = 0):
        self.seed, self.offset = seed, offset

    def draw(self) -> int:
        """The next 63-bit seed of this stream (a splitmix64 finaliser of seed and offset)."""
        z = ((self.seed & _MASK) * 0x9E3779B97F4A7C15 + self.offset * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        self.offset += 1
        return (z ^ (z >> 31)) >> 1


def fresh_seed() -> int:
    """A non-deterministic seed (``ms.seed()``, the default generator at start-up)."""
    return secrets.randbits(32)


_default = GenState(fresh_seed())  # the default generator: random ops without an op seed or a generator draw here
_generators: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # uid -> GenState of a live ms.Generator


def set_seed(seed: int) -> None:
    """Seed every random source sprout has: parameter init, random ops and dataset shuffling."""
    global _seed, _rng
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"set_seed: the argument 'seed' must be type of int, but got {type(seed)}")
    if seed < 0:
        raise ValueError(f"set_seed: seed must be a non-negative int, got {seed!r}")
    _seed = seed
    _rng = np.random.default_rng(seed)
    _default.seed, _default.offset = seed, 0
    _streams.clear()
    try:
        from .dataset import config
        config.set_seed(seed)
    except ImportError:
        pass


def get_seed() -> int | None:
    return _seed


def rng() -> np.random.Generator:
    """The generator initializers draw from."""
    return _rng


def draw(key=None) -> int:
    """One seed for a random op call: from the default generator (key None), a ``Generator``'s state
    (key ("generator", uid)) or an op-level stream (see ``stream``)."""
    if key is None:
        return _default.draw()
    if key[0] == "generator":
        state = _generators.get(key[1])
        if state is None:
            raise RuntimeError(f"RandomSeed: the Generator this call was compiled with (uid {key[1]}) no longer "
                               f"exists")
        return state.draw()
    return int(stream(key).bit_generator.random_raw() >> 1)


def stream(key: tuple) -> np.random.Generator:
    """The op-level stream ``key`` = (owner, seed, seed2[, instance]): reproducible from the op seeds alone (and
    the global seed when one is set), as MindSpore's seed rules promise; owners with equal seeds but separate
    instances draw the same sequence independently."""
    g = _streams.get(key)
    if g is None:
        material = [0 if _seed is None else _seed + 1] + [int(k) & 0xFFFFFFFF for k in key[1:3]]
        g = _streams[key] = np.random.default_rng(material)
    return g
