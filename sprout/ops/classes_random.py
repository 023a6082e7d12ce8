"""PascalCase random primitives. Each instance with a non-zero seed/seed2 owns a stream (see RandomPrimitive)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import functional as F
from . import functional_random as FR
from . import random_ext as RX
from .nn_functional import _draw_seed
from .primitive_classes import RandomPrimitive


def _shape(shape):
    return FR._shape(shape, "random")


class Gamma(RandomPrimitive):
    def __call__(self, shape, alpha, beta):
        a, b = FR._param(alpha, "Gamma"), FR._param(beta, "Gamma")
        full = np.broadcast_shapes(_shape(shape), tuple(a.shape), tuple(b.shape))
        return FR.sample("gamma", full, (a, b), a.dtype, self.key)


class Poisson(RandomPrimitive):
    def __call__(self, shape, mean):
        m = FR._param(mean, "Poisson")
        return FR.sample("poisson", np.broadcast_shapes(_shape(shape), tuple(m.shape)), (m,), mstype.int32,
                         self.key)


class RandomGamma(RandomPrimitive):
    def __call__(self, shape, alpha):
        a = FR._param(alpha, "RandomGamma")
        full = _shape(shape) + tuple(a.shape)
        return FR.sample("gamma", full, (F.reshape(a, (1,) * (len(full) - a.ndim) + tuple(a.shape)),
                                         Tensor(np.ones((), a.dtype.np))), a.dtype, self.key)


class RandomPoisson(RandomPrimitive):
    def __init__(self, seed=0, seed2=0, dtype=mstype.int64):
        super().__init__(seed, seed2)
        self.dtype = mstype.to_dtype(dtype)

    def __call__(self, shape, rate):
        r = FR._param(rate, "RandomPoisson")
        full = _shape(shape) + tuple(r.shape)
        return FR.sample("poisson", full, (F.reshape(r, (1,) * (len(full) - r.ndim) + tuple(r.shape)),), self.dtype,
                         self.key)


class StandardLaplace(RandomPrimitive):
    def __call__(self, shape):
        return FR.sample("standard_laplace", _shape(shape), (), mstype.float32, self.key)


class TruncatedNormal(RandomPrimitive):
    """Standard normal samples restricted to [-2, 2]."""

    def __init__(self, dtype=mstype.float32, seed=0, seed2=0):
        super().__init__(seed, seed2)
        self.dtype = mstype.to_dtype(dtype)

    def __call__(self, shape):
        one = Tensor(np.ones((), np.float64))
        return FR.sample("truncated_normal", _shape(shape), (F.mul(one, 0.0), one, F.mul(one, -2.0),
                                                             F.mul(one, 2.0)), self.dtype, self.key)


class ParameterizedTruncatedNormal(RandomPrimitive):
    """Per batch row b: N(mean[b], stdevs[b]) restricted to [min[b], max[b]]; shape (batch, ...)."""

    def __call__(self, shape, mean, stdevs, min, max):  # noqa: A002 - MindSpore's names
        full = _shape(shape)
        params = [F.reshape(FR._param(v, "ParameterizedTruncatedNormal"), (-1,) + (1,) * (len(full) - 1))
                  for v in (mean, stdevs, min, max)]
        return FR.sample("truncated_normal", full, params, params[0].dtype, self.key)


class Cauchy(RandomPrimitive):
    def __init__(self, size, median=0.0, sigma=1.0):
        super().__init__()
        self.size, self.median, self.sigma = tuple(size), float(median), float(sigma)

    def __call__(self):
        return FR.sample("cauchy", self.size, (Tensor(np.float64(self.median)), Tensor(np.float64(self.sigma))),
                         mstype.float32, self.key)


class LogNormalReverse(RandomPrimitive):
    """Log-normal samples with the input's shape and dtype."""

    def __init__(self, mean=1.0, std=2.0):
        super().__init__()
        self.mean, self.std = float(mean), float(std)

    def __call__(self, input):  # noqa: A002
        return FR.sample("lognormal", tuple(input.shape), (Tensor(np.float64(self.mean)),
                                                           Tensor(np.float64(self.std))), input.dtype, self.key)


class NonDeterministicInts(RandomPrimitive):
    def __init__(self, dtype=mstype.int64):
        super().__init__()
        self.dtype = mstype.to_dtype(dtype)

    def __call__(self, shape):
        out = FR.sample("uniform_int64", _shape(shape), (), mstype.int64, self.key)
        return out if self.dtype is mstype.int64 else F.cast(out, self.dtype)


class Bernoulli(RandomPrimitive):
    def __init__(self, seed=-1, offset=0):
        super().__init__(max(seed, 0), offset)

    def __call__(self, x, p):
        pt = p if isinstance(p, Tensor) else Tensor(np.asarray(p, np.float32))
        return FR.sample("bernoulli", tuple(x.shape), (pt,), x.dtype, self.key)


class Multinomial(RandomPrimitive):
    def __init__(self, seed=0, seed2=0, dtype=mstype.int32):
        super().__init__(seed, seed2)
        self.dtype = mstype.to_dtype(dtype)

    def __call__(self, x, num_samples):
        n = int(num_samples.item()) if isinstance(num_samples, Tensor) else int(num_samples)
        return bind(RX.MULTINOMIAL, (_draw_seed(self.key), x), {"num_samples": n, "dtype": self.dtype})


class RandomCategorical(RandomPrimitive):
    """``RandomCategorical(dtype)(logits, num_sample, seed)``."""

    def __init__(self, dtype=mstype.int64):
        super().__init__()
        self.dtype = mstype.to_dtype(dtype)

    def __call__(self, logits, num_sample, seed=0):
        return F.random_categorical(logits, num_sample, seed, self.dtype)


class Randperm(RandomPrimitive):
    """``Randperm(max_length=1, pad=-1, dtype)(n)``: a permutation of n, padded with ``pad`` to max_length."""

    def __init__(self, max_length=1, pad=-1, dtype=mstype.int32):
        super().__init__()
        self.max_length, self.pad, self.dtype = int(max_length), int(pad), mstype.to_dtype(dtype)

    def __call__(self, n):
        k = int(np.asarray(n.asnumpy() if isinstance(n, Tensor) else n).reshape(-1)[0])
        return bind(RX.RANDPERM, (_draw_seed(self.key),), {"n": k, "length": self.max_length, "pad": self.pad,
                                                           "dtype": self.dtype})


class RandpermV2(RandomPrimitive):
    def __init__(self, seed=0, offset=0, dtype=mstype.int64):
        super().__init__(seed, offset)
        self.dtype = mstype.to_dtype(dtype)

    def __call__(self, n):
        k = int(n.item()) if isinstance(n, Tensor) else int(n)
        return bind(RX.RANDPERM, (_draw_seed(self.key),), {"n": k, "dtype": self.dtype})


class RandomShuffle(RandomPrimitive):
    def __call__(self, x):
        return bind(RX.SHUFFLE, (_draw_seed(self.key), x), {})


class RandomChoiceWithMask(RandomPrimitive):
    def __init__(self, count=256, seed=0, seed2=0):
        super().__init__(seed, seed2)
        self.count = int(count)

    def __call__(self, x):
        return bind(RX.CHOICE_WITH_MASK, (_draw_seed(self.key), x), {"count": self.count})


class UniformCandidateSampler(RandomPrimitive):
    def __init__(self, num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False):
        super().__init__(seed, 0)
        self.args = (num_true, num_sampled, unique, range_max, remove_accidental_hits)

    def __call__(self, true_classes):
        num_true, num_sampled, unique, range_max, remove = self.args
        return bind(RX.CANDIDATE_SAMPLER, (_draw_seed(self.key), true_classes),
                    {"num_true": num_true, "num_sampled": num_sampled, "unique": unique, "range_max": range_max,
                     "dist": "uniform", "remove_accidental_hits": remove})


class LogUniformCandidateSampler(RandomPrimitive):
    def __init__(self, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
        super().__init__(seed, 0)
        self.args = (num_true, num_sampled, unique, range_max)

    def __call__(self, true_classes):
        num_true, num_sampled, unique, range_max = self.args
        return bind(RX.CANDIDATE_SAMPLER, (_draw_seed(self.key), true_classes),
                    {"num_true": num_true, "num_sampled": num_sampled, "unique": unique, "range_max": range_max,
                     "dist": "log_uniform"})


__all__ = ["Gamma", "Poisson", "RandomGamma", "RandomPoisson", "StandardLaplace", "TruncatedNormal",
           "ParameterizedTruncatedNormal", "Cauchy", "LogNormalReverse", "NonDeterministicInts", "Bernoulli",
           "Multinomial", "RandomCategorical", "Randperm", "RandpermV2", "RandomShuffle", "RandomChoiceWithMask",
           "UniformCandidateSampler", "LogUniformCandidateSampler"]
