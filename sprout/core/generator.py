"""``ms.Generator`` and the default generator: a (seed, offset) random state random ops draw their per-call seeds
from, saved and restored as MindSpore's 16-byte state tensor; ``manual_seed`` / ``seed`` / ``initial_seed`` /
``get_rng_state`` / ``set_rng_state`` act on the default generator."""
from __future__ import annotations

import itertools

import numpy as np

from .. import _seed
from .. import dtype as mstype
from ..core.tensor import Tensor

_uids = itertools.count(1)


class Generator:
    """A pseudorandom number generator: pass it as ``generator=`` to mint's and Tensor's random functions."""

    __slots__ = ("_uid", "_own", "__weakref__")

    def __init__(self):
        self._uid = next(_uids)
        self._own = _seed.GenState(0, 0)
        _seed._generators[self._uid] = self._own

    @property
    def _state(self) -> _seed.GenState:
        return self._own

    @property
    def _key(self):
        """The RandomSeed key of draws from this generator (a constant of the graphs that use it)."""
        return ("generator", self._uid)

    def manual_seed(self, seed) -> Generator:
        if isinstance(seed, bool):
            seed = int(seed)
        if not isinstance(seed, (int, np.integer)):
            raise TypeError("Seed must be an integer.")
        if not -2 ** 63 <= int(seed) < 2 ** 63:
            raise RuntimeError(f"Generator.manual_seed: the seed {seed} does not fit in int64")
        st = self._state
        st.seed, st.offset = int(seed), 0
        return self

    def seed(self) -> int:
        """Seed the generator with a non-deterministic number and return it."""
        s = _seed.fresh_seed()
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._state.seed

    def get_state(self) -> Tensor:
        """The state as MindSpore holds it: 16 UInt8 bytes, the int64 seed then the int64 offset (little-endian)."""
        st = self._state
        return Tensor(np.array([st.seed, st.offset], "<i8").view(np.uint8).copy(), mstype.uint8)

    def set_state(self, state) -> None:
        if not isinstance(state, Tensor):
            raise RuntimeError("Invalid tensor input: State")
        if state.dtype is not mstype.uint8:
            raise RuntimeError(f"State data type must be UInt8, but got {state.dtype}")
        if state.size != 16:
            raise RuntimeError(f"State data size must be 16, but got {state.size}")
        seed, offset = np.ascontiguousarray(state.asnumpy().reshape(-1)).view("<i8")
        st = self._state
        st.seed, st.offset = int(seed), int(offset)

    def _step(self, step):
        """The current (seed, offset) as Int64 tensors; the offset then advances by ``step``."""
        st = self._state
        out = Tensor(np.int64(st.seed)), Tensor(np.int64(st.offset))
        st.offset += int(step.item() if isinstance(step, Tensor) else step)
        return out


class _DefaultGenerator(Generator):
    """The default generator: its state is the process-wide one (``_seed._default``) that ``set_seed`` also
    resets and that random ops without an op seed or a generator draw from."""

    __slots__ = ()

    def __init__(self):
        self._uid = 0
        self._own = None

    @property
    def _state(self) -> _seed.GenState:
        return _seed._default

    @property
    def _key(self):
        return None


default_generator = _DefaultGenerator()


def generator_key(generator, where: str):
    """The RandomSeed key for a ``generator=`` argument (None: the default generator)."""
    if generator is None:
        return None
    if not isinstance(generator, Generator):
        raise TypeError(f"{where}: 'generator' must be a mindspore.Generator, got {type(generator).__name__}")
    return generator._key


def seed() -> int:
    """Seed the default generator with a non-deterministic number and return it."""
    return default_generator.seed()


def manual_seed(seed) -> Generator:  # noqa: F811
    """Set the default generator's seed (its offset restarts at 0); returns the default generator."""
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()


def set_rng_state(state) -> None:
    default_generator.set_state(state)


__all__ = ["Generator", "default_generator", "seed", "manual_seed", "initial_seed", "get_rng_state",
           "set_rng_state"]
