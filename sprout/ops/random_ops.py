"""Random primitives (kind "random": never constant-folded or deduplicated); all draw from
``sprout._seed.rng()``, so ``ms.set_seed`` makes them reproducible."""
from __future__ import annotations


from .. import _seed
from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType


def _shape_infer(name):
    def infer(shape, dtype=mstype.float32, **attrs):
        if any(not isinstance(d, int) or d < 0 for d in shape):
            raise OpError(f"{name}: shape must be a tuple of non-negative ints, got {shape!r}")
        return TensorType(tuple(shape), dtype)

    return infer


def _uniform_impl(shape, dtype=mstype.float32, low=0.0, high=1.0):
    return _seed.rng().uniform(low, high, shape).astype(dtype.np)


def _normal_impl(shape, dtype=mstype.float32, mean=0.0, stddev=1.0):
    return (_seed.rng().standard_normal(shape) * stddev + mean).astype(dtype.np)


def _uniform_int_impl(shape, dtype=mstype.int64, low=0, high=1):
    return _seed.rng().integers(low, high, shape).astype(dtype.np)


UNIFORM = register(Op("UniformReal", _uniform_impl, _shape_infer("UniformReal"), None, "random"))
NORMAL = register(Op("StandardNormal", _normal_impl, _shape_infer("StandardNormal"), None, "random"))
UNIFORM_INT = register(Op("UniformInt", _uniform_int_impl, _shape_infer("UniformInt"), None, "random"))


def _dropout_infer(x, keep_prob=0.5):
    if not x.dtype.is_float:
        raise OpError(f"Dropout: expects a float tensor, got {x.dtype}")
    if not 0.0 < keep_prob <= 1.0:
        raise OpError(f"Dropout: keep_prob must be in (0, 1], got {keep_prob}")
    return TensorType(tuple(x.shape), x.dtype), TensorType(tuple(x.shape), x.dtype)


def _dropout_impl(x, keep_prob=0.5):
    mask = (_seed.rng().random(x.shape) < keep_prob).astype(x.dtype)
    return x * mask * x.dtype.type(1.0 / keep_prob), mask


def _dropout_bprop(x, out, dout, keep_prob=0.5):
    return (F.mul(F.mul(dout[0], out[1]), 1.0 / keep_prob),)


DROPOUT = register(Op("Dropout", _dropout_impl, _dropout_infer, _dropout_bprop, "random", n_out=2))

from . import functional as F  # noqa: E402
