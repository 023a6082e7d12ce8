"""More random primitives, each a pure function of an explicit seed input (``random_ops.RandomSeed``):
parametrised distributions (RandomSample), categorical draws (Multinomial), permutations (Randperm, Shuffle),
random picks of true positions (ChoiceWithMask) and candidate samplers."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import broadcast_shapes, fmt_shape
from .random_ops import _check_seed, _stream

DISTRIBUTIONS = {  # name -> number of parameter tensors
    "gamma": 2, "poisson": 1, "laplace": 2, "cauchy": 2, "lognormal": 2, "truncated_normal": 4, "exponential": 1,
    "bernoulli": 1, "standard_laplace": 0, "uniform_int64": 0,
}


def _sample_infer(seed, *params, dist, shape, dtype=mstype.float32):
    _check_seed(f"RandomSample[{dist}]", seed)
    if dist not in DISTRIBUTIONS:
        raise OpError(f"RandomSample: unknown distribution {dist!r}")
    if len(params) != DISTRIBUTIONS[dist]:
        raise OpError(f"RandomSample[{dist}]: takes {DISTRIBUTIONS[dist]} parameter tensors, got {len(params)}")
    if any(not isinstance(d, int) or d < 0 for d in shape):
        raise OpError(f"RandomSample[{dist}]: shape must be non-negative ints, got {shape!r}")
    broadcast_shapes(f"RandomSample[{dist}]", tuple(shape), *[tuple(getattr(p, "shape", ())) for p in params])
    return TensorType(tuple(shape), dtype)


def _truncated(gen, mean, std, low, high, shape):
    """Inverse-CDF sampling of N(mean, std) restricted to [low, high]."""
    from .math_ops import scipy_special

    ndtr, ndtri = scipy_special("ndtr"), scipy_special("ndtri")
    a, b = ndtr((low - mean) / std), ndtr((high - mean) / std)
    u = gen.uniform(0.0, 1.0, shape)
    return mean + std * ndtri(a + u * (b - a))


def _sample_impl(seed, *params, dist, shape, dtype=mstype.float32):
    gen = _stream(seed)
    ps = [np.broadcast_to(np.asarray(p, np.float64), shape) for p in params]
    with np.errstate(divide="ignore", invalid="ignore"):
        if dist == "gamma":
            out = gen.gamma(ps[0], 1.0 / ps[1], shape)
        elif dist == "poisson":
            out = gen.poisson(ps[0], shape)
        elif dist == "laplace":
            out = gen.laplace(ps[0], ps[1], shape)
        elif dist == "standard_laplace":
            out = gen.laplace(0.0, 1.0, shape)
        elif dist == "cauchy":
            out = ps[0] + ps[1] * gen.standard_cauchy(shape)
        elif dist == "lognormal":
            out = gen.lognormal(ps[0], ps[1], shape)
        elif dist == "exponential":
            out = gen.exponential(1.0 / ps[0], shape)
        elif dist == "bernoulli":
            out = gen.random(shape) < ps[0]
        elif dist == "uniform_int64":
            out = gen.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, shape, dtype=np.int64)
        else:
            out = _truncated(gen, *ps, shape)
    return np.asarray(out).astype(dtype.np)


RANDOM_SAMPLE = register(Op("RandomSample", _sample_impl, _sample_infer, None, "random"))


# ---- categorical draws -------------------------------------------------------------------------------------------
def _multinomial_infer(seed, probs, num_samples, replacement=True, logits=False, dtype=mstype.int64):
    _check_seed("Multinomial", seed)
    if not probs.dtype.is_float or probs.ndim not in (1, 2):
        raise TypeError(f"Multinomial: input must be a 1-D or 2-D float tensor, got {probs.dtype}"
                        f"{fmt_shape(probs.shape)}")
    if not isinstance(num_samples, int) or num_samples <= 0:
        raise OpError(f"Multinomial: num_samples must be a positive int, got {num_samples!r}")
    c = probs.shape[-1]
    if not replacement and c is not None and num_samples > c:
        raise OpError(f"Multinomial: without replacement num_samples ({num_samples}) cannot exceed the number of "
                      f"categories ({c})")
    return TensorType(tuple(probs.shape[:-1]) + (num_samples,), dtype)


def _multinomial_impl(seed, probs, num_samples, replacement=True, logits=False, dtype=mstype.int64):
    """Category indices per row: ``probs`` are non-negative weights (or ``logits``). With replacement each draw
    inverts the row's CDF; without, the Gumbel top-k picks distinct categories in weight order."""
    gen = _stream(seed)
    p2 = np.atleast_2d(probs).astype(np.float64)
    if logits:
        w = np.exp(p2 - p2.max(-1, keepdims=True))
    else:
        if np.any(p2 < 0) or not np.all(np.isfinite(p2)):
            raise ValueError("Multinomial: probabilities must be finite and non-negative")
        w = p2
    total = w.sum(-1, keepdims=True)
    if np.any(total <= 0):
        raise ValueError("Multinomial: every row needs a positive total weight")
    if replacement:
        cdf = np.cumsum(w / total, -1)
        u = gen.random((p2.shape[0], num_samples))
        out = np.stack([np.minimum(np.searchsorted(c, r, side="right"), c.size - 1) for c, r in zip(cdf, u)])
    else:
        with np.errstate(divide="ignore"):
            keys = np.log(w) + gen.gumbel(size=w.shape)
        out = np.argsort(-keys, axis=-1, kind="stable")[:, :num_samples]
    out = out.reshape(probs.shape[:-1] + (num_samples,))
    return out.astype(dtype.np)


MULTINOMIAL = register(Op("Multinomial", _multinomial_impl, _multinomial_infer, None, "random"))


# ---- permutations ------------------------------------------------------------------------------------------------
def _randperm_infer(seed, n, length=None, pad=-1, dtype=mstype.int64):
    _check_seed("Randperm", seed)
    if not isinstance(n, int) or n < 0:
        raise OpError(f"Randperm: n must be a non-negative int, got {n!r}")
    if length is not None and length < n:
        raise OpError(f"Randperm: max_length {length} must be at least n ({n})")
    return TensorType((n if length is None else length,), dtype)


def _randperm_impl(seed, n, length=None, pad=-1, dtype=mstype.int64):
    perm = _stream(seed).permutation(n)
    if length is not None:
        perm = np.concatenate([perm, np.full(length - n, pad)])
    return perm.astype(dtype.np)


RANDPERM = register(Op("Randperm", _randperm_impl, _randperm_infer, None, "random"))


def _shuffle_infer(seed, x):
    _check_seed("Shuffle", seed)
    if x.ndim < 1:
        raise OpError("Shuffle: the input must have rank >= 1")
    return TensorType(tuple(x.shape), x.dtype)


SHUFFLE = register(Op("Shuffle", lambda seed, x: x[_stream(seed).permutation(x.shape[0])], _shuffle_infer, None,
                      "random"))


# ---- random choice of true positions -----------------------------------------------------------------------------
def _choice_infer(seed, x, count=256):
    _check_seed("RandomChoiceWithMask", seed)
    if x.dtype is not mstype.bool_ or not 1 <= x.ndim <= 5:
        raise TypeError(f"RandomChoiceWithMask: input must be a Bool tensor of rank 1 to 5, got {x.dtype}"
                        f"{fmt_shape(x.shape)}")
    if not isinstance(count, int) or count <= 0:
        raise OpError(f"RandomChoiceWithMask: count must be a positive int, got {count!r}")
    return TensorType((count, x.ndim), mstype.int32), TensorType((count,), mstype.bool_)


def _choice_impl(seed, x, count=256):
    """Up to ``count`` coordinates of True elements in random order; the rest of the rows are 0 with mask False."""
    coords = np.argwhere(x)
    coords = coords[_stream(seed).permutation(len(coords))][:count]
    out = np.zeros((count, x.ndim), np.int32)
    out[:len(coords)] = coords
    mask = np.zeros(count, bool)
    mask[:len(coords)] = True
    return out, mask


CHOICE_WITH_MASK = register(Op("RandomChoiceWithMask", _choice_impl, _choice_infer, None, "random", n_out=2))


# ---- candidate samplers ----------------------------------------------------------------------------------------
def _sampler_infer(seed, true_classes, num_true, num_sampled, unique, range_max, dist="uniform",
                   remove_accidental_hits=False):
    _check_seed("CandidateSampler", seed)
    if not true_classes.dtype.is_int or true_classes.ndim != 2:
        raise TypeError(f"CandidateSampler: true_classes must be a 2-D integer tensor, got {true_classes.dtype}"
                        f"{fmt_shape(true_classes.shape)}")
    if true_classes.shape[1] is not None and true_classes.shape[1] != num_true:
        raise OpError(f"CandidateSampler: true_classes has {true_classes.shape[1]} columns, num_true is {num_true}")
    if unique and num_sampled > range_max:
        raise OpError(f"CandidateSampler: unique sampling of {num_sampled} from range_max {range_max} is impossible")
    return (TensorType((num_sampled,), mstype.int64), TensorType(tuple(true_classes.shape), mstype.float32),
            TensorType((num_sampled,), mstype.float32))


def _class_probs(classes, range_max, dist):
    c = np.asarray(classes, np.float64)
    if dist == "uniform":
        return np.full(c.shape, 1.0 / range_max)
    return (np.log(c + 2.0) - np.log(c + 1.0)) / np.log(range_max + 1.0)


def _sampler_impl(seed, true_classes, num_true, num_sampled, unique, range_max, dist="uniform",
                  remove_accidental_hits=False):
    """Sample candidate classes in [0, range_max) (uniform or log-uniform, Zipfian) and the expected count of
    every true and sampled class: p * num_sampled, or 1 - (1 - p)^tries for unique sampling."""
    gen = _stream(seed)
    all_p = _class_probs(np.arange(range_max), range_max, dist)
    banned = set(np.unique(true_classes).tolist()) if remove_accidental_hits else set()
    picked: list = []
    tries = 0
    while len(picked) < num_sampled:
        c = int(gen.choice(range_max, p=all_p / all_p.sum()))
        tries += 1
        if c in banned or (unique and c in picked):
            if tries > 1000 * max(num_sampled, 1) + range_max:
                raise ValueError("CandidateSampler: cannot draw enough candidates outside the true classes")
            continue
        picked.append(c)
    sampled = np.asarray(picked, np.int64)

    def expected(classes):
        p = _class_probs(classes, range_max, dist)
        if unique:
            return -np.expm1(tries * np.log1p(-np.minimum(p, 1 - 1e-12)))
        return p * num_sampled

    return sampled, expected(true_classes).astype(np.float32), expected(sampled).astype(np.float32)


CANDIDATE_SAMPLER = register(Op("CandidateSampler", _sampler_impl, _sampler_infer, None, "random", n_out=3))
