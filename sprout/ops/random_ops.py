"""Random primitives. ``RandomSeed`` is the only op that touches the global stream (``sprout._seed``,
so ``ms.set_seed`` makes runs reproducible): it draws one seed per call, at run time, in program
order, eagerly and in graphs alike (an effect: never folded, deduplicated, dropped or reordered).
Every other random op takes that seed as an explicit input and is a pure function of its inputs, so
replaying a recorded call (or a graph) with the same seed gives the same draw."""
from __future__ import annotations

import numpy as np

from .. import _seed
from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType

_SEED_T = TensorType((), mstype.int64)
# one bit generator, repositioned per call: setting a PCG64 state costs ~1 us, a new Generator ~10 us
_BITS = np.random.PCG64(0)
_GEN = np.random.Generator(_BITS)
_INC = 0xDA3E39CB94B95BDB  # a fixed odd stream increment; the seed picks the starting state


_STATE = {"bit_generator": "PCG64", "state": {"state": 0, "inc": _INC}, "has_uint32": 0, "uinteger": 0}


def _stream(seed) -> np.random.Generator:
    """The generator for one seeded call (the seed picks a position in one PCG64 stream)."""
    _STATE["state"]["state"] = int(seed)
    _BITS.state = _STATE
    return _GEN


def _seed_impl(key=None):
    """A seed from the default generator, a ``Generator`` or the op-level stream ``key`` (an op given its own
    seed)."""
    return np.asarray(_seed.draw(key), np.int64)


def _seed_infer(key=None):
    if key is not None and (not isinstance(key, tuple) or len(key) < (2 if key[:1] == ("generator",) else 3)):
        raise OpError(f"RandomSeed: key must be (owner, seed, seed2[, instance]) or ('generator', uid), got {key!r}")
    return _SEED_T


RANDOM_SEED = register(Op("RandomSeed", _seed_impl, _seed_infer, None, "random", side_effect=True,
                          doc="a fresh seed from the global stream (set_seed), drawn when the node runs"))


def _check_seed(name: str, seed) -> None:
    if not isinstance(seed, TensorType) or seed.shape != () or not seed.dtype.is_int:
        raise OpError(f"{name}: the seed must be a 0-d integer tensor (from RandomSeed), got {seed}")


def _shape_infer(name):
    def infer(seed, shape, dtype=mstype.float32, **attrs):
        _check_seed(name, seed)
        if any(not isinstance(d, int) or d < 0 for d in shape):
            raise OpError(f"{name}: shape must be a tuple of non-negative ints, got {shape!r}")
        return TensorType(tuple(shape), dtype)

    return infer


def _uniform_impl(seed, shape, dtype=mstype.float32, low=0.0, high=1.0):
    return _stream(seed).uniform(low, high, shape).astype(dtype.np)


def _normal_impl(seed, shape, dtype=mstype.float32, mean=0.0, stddev=1.0):
    return (_stream(seed).standard_normal(shape) * stddev + mean).astype(dtype.np)


def _uniform_int_impl(seed, shape, dtype=mstype.int64, low=0, high=1):
    return _stream(seed).integers(low, high, shape).astype(dtype.np)


UNIFORM = register(Op("UniformReal", _uniform_impl, _shape_infer("UniformReal"), None, "random"))
NORMAL = register(Op("StandardNormal", _normal_impl, _shape_infer("StandardNormal"), None, "random"))
UNIFORM_INT = register(Op("UniformInt", _uniform_int_impl, _shape_infer("UniformInt"), None, "random"))


def _dropout_infer(x, seed, keep_prob=0.5):
    if not x.dtype.is_float:
        raise OpError(f"Dropout: expects a float tensor, got {x.dtype}")
    _check_seed("Dropout", seed)
    if not 0.0 < keep_prob <= 1.0:
        raise OpError(f"Dropout: keep_prob must be in (0, 1], got {keep_prob}")
    return TensorType(tuple(x.shape), x.dtype), TensorType(tuple(x.shape), x.dtype)


def _dropout_impl(x, seed, keep_prob=0.5):
    mask = (_stream(seed).random(x.shape) < keep_prob).astype(x.dtype)
    return x * mask * x.dtype.type(1.0 / keep_prob), mask


def _dropout_bprop(x, seed, out, dout, keep_prob=0.5):
    return F.mul(F.mul(dout[0], out[1]), 1.0 / keep_prob), None


DROPOUT = register(Op("Dropout", _dropout_impl, _dropout_infer, _dropout_bprop, "random", n_out=2))

from . import functional as F  # noqa: E402
