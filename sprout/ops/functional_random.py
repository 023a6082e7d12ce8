"""Functional random API over ``random_ext.py``. A ``seed`` argument selects an op-level stream (reproducible from
the seeds, advanced by every call), as MindSpore's seed rules promise; without one, draws come from the global
stream that ``ms.set_seed`` resets."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.tensor import Tensor
from . import functional as F
from . import random_ext as RX
from .functional import _as_tensor
from .host_ops import is_symbolic
from .nn_functional import _draw_seed, seed_key

__all__ = ["gamma", "random_gamma", "poisson", "random_poisson", "laplace", "standard_laplace", "multinomial",
           "multinomial_with_replacement", "random_categorical", "randperm", "shuffle", "randint_like", "bernoulli",
           "choice_with_mask", "uniform_candidate_sampler", "log_uniform_candidate_sampler", "sample"]


def _shape(shape, op: str) -> tuple:
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 0 for d in shape):
        raise ValueError(f"{op}: shape must hold non-negative ints, got {shape!r}")
    return tuple(int(d) for d in shape)


def _param(v, op: str, dtype=None) -> Tensor:
    t = v if isinstance(v, Tensor) else Tensor(np.asarray(v, (dtype or mstype.float32).np))
    if not t.dtype.is_float:
        raise TypeError(f"{op}: distribution parameters must be float tensors, got {t.dtype}")
    return t


def sample(dist, shape, params=(), dtype=mstype.float32, key=None):
    """Draw from ``dist`` (see random_ext.DISTRIBUTIONS) with parameter tensors broadcast to ``shape``."""
    return bind(RX.RANDOM_SAMPLE, (_draw_seed(key),) + tuple(params),
                {"dist": dist, "shape": tuple(shape), "dtype": mstype.to_dtype(dtype)})


def _positive(t, what, op):
    if not is_symbolic(t) and np.any(t.asnumpy() <= 0):
        raise ValueError(f"{op}: {what} must be positive")


def gamma(shape, alpha, beta, seed=None):
    """Gamma(alpha, rate beta) samples; the result has shape broadcast(shape, alpha, beta)."""
    a, b = _param(alpha, "gamma"), _param(beta, "gamma")
    _positive(a, "alpha", "gamma")
    _positive(b, "beta", "gamma")
    full = np.broadcast_shapes(_shape(shape, "gamma"), tuple(a.shape), tuple(b.shape))
    return sample("gamma", full, (a, b), a.dtype, seed_key("gamma", seed))


def random_gamma(shape, alpha, seed=None):
    """Gamma(alpha, 1) samples of shape ``shape`` + alpha.shape."""
    a = _param(alpha, "random_gamma")
    full = _shape(shape, "random_gamma") + tuple(a.shape)
    return sample("gamma", full, (F.reshape(a, (1,) * (len(full) - a.ndim) + tuple(a.shape)),
                                  Tensor(np.ones((), a.dtype.np))), a.dtype, seed_key("random_gamma", seed))


def poisson(shape, mean, seed=None):
    m = _param(mean, "poisson")
    full = np.broadcast_shapes(_shape(shape, "poisson"), tuple(m.shape))
    return sample("poisson", full, (m,), mstype.float32, seed_key("poisson", seed))


def random_poisson(shape, rate, seed=None, dtype=mstype.float32):
    r = _param(rate, "random_poisson")
    full = _shape(shape, "random_poisson") + tuple(r.shape)
    return sample("poisson", full, (F.reshape(r, (1,) * (len(full) - r.ndim) + tuple(r.shape)),), dtype,
                  seed_key("random_poisson", seed))


def laplace(shape, mean, lambda_param, seed=None):
    m, s = _param(mean, "laplace"), _param(lambda_param, "laplace")
    full = np.broadcast_shapes(_shape(shape, "laplace"), tuple(m.shape), tuple(s.shape))
    return sample("laplace", full, (m, s), mstype.float32, seed_key("laplace", seed))


def standard_laplace(shape, seed=None):
    return sample("standard_laplace", _shape(shape, "standard_laplace"), (), mstype.float32,
                  seed_key("standard_laplace", seed))


def multinomial(input, num_samples, replacement=True, seed=None, *, key=None):  # noqa: A002
    """Category indices (Int32) drawn from each row's non-negative weights."""
    x = _as_tensor(input, "multinomial")
    return bind(RX.MULTINOMIAL, (_draw_seed(key or seed_key("multinomial", seed)), x),
                {"num_samples": int(num_samples), "replacement": bool(replacement), "dtype": mstype.int32})


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """Int64 draws; ``seed``/``offset`` (tensors or ints) name the stream (0, 0: the global one)."""
    s = int(seed.item() if isinstance(seed, Tensor) else seed)
    o = int(offset.item() if isinstance(offset, Tensor) else offset)
    key = seed_key("multinomial_with_replacement", s, o, 0) if (s or o) else None
    return bind(RX.MULTINOMIAL, (_draw_seed(key), _as_tensor(x, "MultinomialWithReplacement")),
                {"num_samples": int(numsamples), "replacement": bool(replacement), "dtype": mstype.int64})


def random_categorical(logits, num_sample, seed=0, dtype=mstype.int64):
    """``num_sample`` category draws per row of unnormalised log-probabilities."""
    x = _as_tensor(logits, "RandomCategorical")
    if x.ndim != 2:
        raise ValueError(f"RandomCategorical: logits must be 2-D, got shape {list(x.shape)}")
    key = seed_key("random_categorical", seed, 0, 0) if seed else None
    return bind(RX.MULTINOMIAL, (_draw_seed(key), x), {"num_samples": int(num_sample), "replacement": True,
                                                       "logits": True, "dtype": mstype.to_dtype(dtype)})


def randperm(n, seed=0, offset=0, dtype=mstype.int64):
    """A random permutation of 0..n-1."""
    n = int(n.item()) if isinstance(n, Tensor) else n
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"randperm: n must be a non-negative int, got {n!r}")
    key = seed_key("randperm", seed, offset, 0) if (seed or offset) else None
    return bind(RX.RANDPERM, (_draw_seed(key),), {"n": n, "dtype": mstype.to_dtype(dtype)})


def shuffle(x, seed=None):
    """``x`` with its first axis randomly permuted."""
    return bind(RX.SHUFFLE, (_draw_seed(seed_key("shuffle", seed)), _as_tensor(x, "Shuffle")), {})


def randint_like(input, low, high, seed=None, *, dtype=None):  # noqa: A002
    x = _as_tensor(input, "randint_like")
    dt = mstype.to_dtype(dtype) if dtype is not None else x.dtype
    if not dt.is_int:
        raise ValueError(f"randint_like: the dtype must be an int type, got {dt}")
    return F.randint(low, high, tuple(x.shape), seed, dtype=dt)


def bernoulli(input, p=0.5, seed=None):  # noqa: A002
    """0/1 samples of ``input``'s shape and dtype with probability ``p`` (a number or a tensor broadcasting to it)."""
    x = _as_tensor(input, "bernoulli")
    pt = p if isinstance(p, Tensor) else Tensor(np.asarray(p, np.float32))
    if not is_symbolic(pt) and np.any((pt.asnumpy() < 0) | (pt.asnumpy() > 1)):
        raise ValueError("bernoulli: p must be in [0, 1]")
    return sample("bernoulli", tuple(x.shape), (pt,), x.dtype, seed_key("bernoulli", seed))


def choice_with_mask(input_x, count=256, seed=None):
    """(Int32 coordinates of up to ``count`` random True elements, Bool mask of the valid rows)."""
    return bind(RX.CHOICE_WITH_MASK, (_draw_seed(seed_key("choice_with_mask", seed)),
                                      _as_tensor(input_x, "RandomChoiceWithMask")), {"count": int(count)})


def _sampler(true_classes, num_true, num_sampled, unique, range_max, seed, remove, dist):
    key = seed_key(f"{dist}_candidate_sampler", seed, 0, 0) if seed else None
    return bind(RX.CANDIDATE_SAMPLER, (_draw_seed(key), _as_tensor(true_classes, "CandidateSampler")),
                {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
                 "range_max": int(range_max), "dist": dist, "remove_accidental_hits": bool(remove)})


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    return _sampler(true_classes, num_true, num_sampled, unique, range_max, seed, remove_accidental_hits, "uniform")


def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
    return _sampler(true_classes, num_true, num_sampled, unique, range_max, seed, False, "log_uniform")
