"""Samplers: which row indices a random-access source yields in one epoch, and in what order."""
from __future__ import annotations

import numpy as np

from ._checks import check_bool, check_int, check_optional_int


class Sampler:
    """Base of the built-in samplers. A user subclass may instead define ``__iter__`` yielding indices
    (it may read ``self.dataset_size``)."""

    def __init__(self, num_samples=None):
        self.num_samples = check_optional_int(type(self).__name__, "num_samples", num_samples, low=0) or None
        self.dataset_size = None

    def indices(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """The row indices of one epoch over a source of ``n`` rows."""
        self.dataset_size = n
        out = np.fromiter((int(i) for i in iter(self)), dtype=np.int64)
        cap = getattr(self, "num_samples", None)  # a user subclass may skip Sampler.__init__
        return out if cap is None else out[:cap]

    def count(self, n: int) -> int:
        """How many indices ``indices(n, rng)`` returns."""
        return len(self.indices(n, np.random.default_rng(0)))

    def _cap(self, k: int) -> int:
        return k if self.num_samples is None else min(k, self.num_samples)

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__}: a user sampler must define __iter__ yielding row indices")


class SequentialSampler(Sampler):
    """Rows ``start_index, start_index + 1, ...`` in order."""

    def __init__(self, start_index=None, num_samples=None):
        super().__init__(num_samples)
        self.start_index = check_optional_int("SequentialSampler", "start_index", start_index, low=0) or 0

    def indices(self, n, rng):
        start = min(self.start_index, n)
        return np.arange(start, start + self.count(n), dtype=np.int64)

    def count(self, n):
        return self._cap(max(n - self.start_index, 0))


class RandomSampler(Sampler):
    """A random permutation of all rows (or ``num_samples`` draws with replacement)."""

    def __init__(self, replacement=False, num_samples=None):
        super().__init__(num_samples)
        self.replacement = check_bool("RandomSampler", "replacement", replacement)

    def indices(self, n, rng):
        if self.replacement:
            return rng.integers(0, n, size=self.count(n), dtype=np.int64) if n else np.zeros(0, np.int64)
        return rng.permutation(n)[: self.count(n)].astype(np.int64)

    def count(self, n):
        return self._cap(n) if n else 0


class DistributedSampler(Sampler):
    """Shard ``shard_id`` of ``num_shards``: positions ``shard_id, shard_id + num_shards, ...`` of the
    (optionally shuffled) rows, wrapping around so every shard gets ``ceil(n / num_shards)`` rows.
    Every rank draws the same permutation from the same seed, so shards never overlap in an epoch."""

    def __init__(self, num_shards, shard_id, shuffle=True, num_samples=None, offset=-1):
        super().__init__(num_samples)
        self.num_shards = check_int("DistributedSampler", "num_shards", num_shards, low=1)
        self.shard_id = check_int("DistributedSampler", "shard_id", shard_id, low=0)
        if self.shard_id >= self.num_shards:
            raise ValueError(f"DistributedSampler: shard_id must be less than num_shards ({self.num_shards}), "
                             f"got {self.shard_id}")
        self.shuffle = check_bool("DistributedSampler", "shuffle", shuffle)
        if offset != -1:
            raise NotImplementedError("DistributedSampler: offset is not supported by sprout (leave it at -1)")

    def indices(self, n, rng):
        if n == 0:
            return np.zeros(0, np.int64)
        order = rng.permutation(n) if self.shuffle else np.arange(n)
        pos = (self.shard_id + self.num_shards * np.arange(self.count(n))) % n
        return order[pos].astype(np.int64)

    def count(self, n):
        return self._cap(-(-n // self.num_shards))


class SubsetSampler(Sampler):
    """Exactly the given row indices, in the given order."""

    def __init__(self, indices, num_samples=None):
        super().__init__(num_samples)
        name = type(self).__name__
        if isinstance(indices, (str, bytes)) or not hasattr(indices, "__iter__"):
            raise TypeError(f"{name}: indices must be a sequence of ints, got {indices!r}")
        self._subset = [check_int(name, "indices[i]", i) for i in indices]

    def _checked(self, n):
        for i in self._subset:
            if not -n <= i < n:
                raise ValueError(f"{type(self).__name__}: index {i} is out of range for a source of {n} rows")
        return np.asarray(self._subset, dtype=np.int64) % max(n, 1)

    def indices(self, n, rng):
        return self._checked(n)[: self.count(n)]

    def count(self, n):
        return self._cap(len(self._subset))


class SubsetRandomSampler(SubsetSampler):
    """The given row indices in a random order."""

    def indices(self, n, rng):
        return rng.permutation(self._checked(n))[: self.count(n)]


def select_sampler(op: str, num_samples, sampler, shuffle, num_shards, shard_id, default_shuffle=True):
    """Turn a source's ``sampler/shuffle/num_shards/shard_id/num_samples`` arguments into one sampler."""
    num_samples = check_optional_int(op, "num_samples", num_samples, low=0) or None
    if shuffle is not None:
        check_bool(op, "shuffle", shuffle)
    if (num_shards is None) != (shard_id is None):
        raise ValueError(f"{op}: num_shards and shard_id must be given together")
    if num_shards is not None:
        check_int(op, "num_shards", num_shards, low=1)
        check_int(op, "shard_id", shard_id, low=0)
        if shard_id >= num_shards:
            raise ValueError(f"{op}: shard_id must be less than num_shards ({num_shards}), got {shard_id}")
    if sampler is not None:
        if isinstance(sampler, (list, tuple, np.ndarray)):
            return SubsetSampler(list(sampler), num_samples)  # MindSpore ignores shuffle/shards here
        if shuffle is not None or num_shards is not None:
            raise ValueError(f"{op}: sampler cannot be combined with shuffle, num_shards or shard_id")
        if not any(hasattr(sampler, a) for a in ("indices", "__iter__", "__getitem__")):
            raise TypeError(f"{op}: sampler must be a Sampler, an iterable of indices (or an object with __getitem__ "
                            f"and __len__ giving them) or a list, got {sampler!r}")
        return sampler if isinstance(sampler, Sampler) else _IterSampler(sampler, num_samples)
    shuffle = default_shuffle if shuffle is None else shuffle
    if num_shards is not None:
        return DistributedSampler(num_shards, shard_id, shuffle=shuffle, num_samples=num_samples)
    if shuffle:
        return RandomSampler(num_samples=num_samples)
    return SequentialSampler(num_samples=num_samples)


class _IterSampler(Sampler):
    """Adapter for a user object that is only iterable (yields indices), or indexable: ``obj[0], obj[1], ...``
    up to ``len(obj)`` (or its first IndexError)."""

    def __init__(self, source, num_samples):
        super().__init__(num_samples)
        self._source = source

    def __iter__(self):
        if hasattr(self._source, "dataset_size"):
            self._source.dataset_size = self.dataset_size
        return iter(self._source)


class WeightedRandomSampler(Sampler):
    """Draws among the first ``len(weights)`` rows with probability proportional to ``weights``; ``num_samples``
    draws (at most, and by default, the source's row count). Without replacement each row is drawn at most once,
    and once every row of non-zero weight is drawn the zero-weight rows follow in random order."""

    def __init__(self, weights, num_samples=None, replacement=True):
        super().__init__(num_samples)
        name = "WeightedRandomSampler"
        if isinstance(weights, (str, bytes)) or not hasattr(weights, "__iter__"):
            raise TypeError(f"{name}: weights must be a list of numbers, got {weights!r}")
        weights = list(weights)
        for i, w in enumerate(weights):
            if isinstance(w, bool) or not isinstance(w, (int, float, np.integer, np.floating)):
                raise TypeError(f"{name}: weights[{i}] must be a number, got {w!r} ({type(w).__name__})")
        if not weights:
            raise RuntimeError(f"{name}: weights must not be empty")
        self.weights = np.asarray(weights, dtype=np.float64)
        if (self.weights < 0).any():
            i = int(np.argmax(self.weights < 0))
            raise RuntimeError(f"{name}: weights must not be negative, got weights[{i}] = {weights[i]}")
        if not self.weights.any():
            raise RuntimeError(f"{name}: weights must not be all zero")
        self.replacement = check_bool(name, "replacement", replacement)

    def count(self, n):
        return self._cap(n)

    def indices(self, n, rng):
        m = len(self.weights)
        if m > n:
            raise RuntimeError(f"WeightedRandomSampler: {m} weights for a source of only {n} rows (there must be "
                               "no more weights than rows)")
        k = self.count(n)
        if not self.replacement and k > m:
            raise RuntimeError(f"WeightedRandomSampler: without replacement it cannot draw {k} rows from {m} weights")
        p = self.weights / self.weights.sum()
        if self.replacement:
            return rng.choice(m, size=k, p=p).astype(np.int64)
        nonzero = int(np.count_nonzero(p))
        drawn = rng.choice(m, size=min(k, nonzero), replace=False, p=p)
        rest = rng.permutation(np.flatnonzero(p == 0))[: k - len(drawn)]
        return np.concatenate([drawn, rest]).astype(np.int64)


class PKSampler(Sampler):
    """``num_val`` rows of every class (the values of ``class_column``), classes in ascending order (in a random
    order with ``shuffle``); the rows of a class are drawn at random, with replacement only when the class has
    fewer than ``num_val`` rows. Needs a source that knows its class column (the file readers and
    ImageFolderDataset); ``num_samples`` caps the total."""

    needs_source = True

    def __init__(self, num_val, num_class=None, shuffle=False, class_column="label", num_samples=None):
        super().__init__(num_samples)
        name = "PKSampler"
        self.num_val = check_int(name, "num_val", num_val)
        if num_class is not None:
            raise NotImplementedError(f"{name}: num_class is not supported (MindSpore does not support it either)")
        self.shuffle = check_bool(name, "shuffle", shuffle)
        if not isinstance(class_column, str):
            raise TypeError(f"{name}: class_column must be a str, got {class_column!r}")
        self.class_column = class_column

    def _classes(self, labels: np.ndarray) -> list[np.ndarray]:
        return [np.flatnonzero(labels == c) for c in np.unique(labels)]

    def count_for(self, labels: np.ndarray) -> int:
        """How many rows one epoch yields over a source with these class labels."""
        return self._cap(max(self.num_val, 0) * len(np.unique(labels)))

    def indices_for(self, labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The row indices of one epoch over a source with these class labels."""
        groups = self._classes(labels)
        if self.shuffle:
            groups = [groups[i] for i in rng.permutation(len(groups))]
        k = max(self.num_val, 0)
        picks = [rows[rng.choice(len(rows), size=k, replace=k > len(rows))] for rows in groups]
        out = np.concatenate(picks) if picks else np.zeros(0, np.int64)
        return out[: self.count_for(labels)].astype(np.int64)

    def indices(self, n, rng):
        raise ValueError("PKSampler: this source has no class column to sample by (use it with a file reader such "
                         "as MnistDataset, Cifar10Dataset or ImageFolderDataset)")

    count = indices
