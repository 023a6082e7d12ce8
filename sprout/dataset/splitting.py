"""Dataset.split: non-overlapping parts by sizes or fractions, optionally after one seeded shuffle."""
from __future__ import annotations

import copy
import numbers

import numpy as np

from . import config
from .samplers import DistributedSampler, Sampler


def split_sizes(sizes, total: int) -> list:
    """MindSpore's absolute sizes: ints must add up to the dataset size; fractions (summing to 1) are rounded,
    the first part absorbing a shortfall and the first part large enough giving up an excess."""
    if total <= 0:
        raise RuntimeError("split: the dataset is empty (or its size is unknown); nothing to split")
    if not isinstance(sizes, list) or not sizes:
        raise RuntimeError(f"split: sizes must be a non-empty list, got {sizes!r}")
    if all(isinstance(s, numbers.Integral) and not isinstance(s, bool) for s in sizes):
        if any(s <= 0 for s in sizes):
            raise ValueError(f"split: sizes must be positive, got {sizes}")
        if sum(sizes) != total:
            raise RuntimeError(f"split: sum of split sizes {sum(sizes)} is not equal to dataset size {total}")
        return [int(s) for s in sizes]
    if not all(isinstance(s, float) and 0 < s < 1 for s in sizes):
        raise ValueError(f"split: sizes must be all ints or all floats in (0, 1), got {sizes}")
    if abs(sum(sizes) - 1.0) > 1e-9:
        raise ValueError(f"split: sizes is a list of float, but the percentages sum to {sum(sizes)}, not 1")
    out = []
    for s in sizes:
        n = int(round(s * total))
        if n == 0:
            raise RuntimeError(f"split: split percentage {s} is too small for {total} rows")
        out.append(n)
    diff = total - sum(out)
    if diff > 0:
        out[0] += diff
    else:
        for i, n in enumerate(out):
            if n + diff > 0:
                out[i] += diff
                break
    return out


class _PartSampler(Sampler):
    """Rows ``order[start:start + size]``: one part of a split, the same rows in the same order every epoch."""

    def __init__(self, order: np.ndarray, start: int, size: int):
        super().__init__()
        self.rows = np.asarray(order[start:start + size], np.int64)

    def indices(self, n, rng):
        return self.rows

    def count(self, n):
        return len(self.rows)


def split(dataset, sizes, randomize=True):
    """Random-access sources get one sampler per part; other pipelines stream and keep the rows whose
    positions fall in the part (in stream order)."""
    from .sources import MappableDataset
    total = dataset.get_dataset_size()
    parts = split_sizes(sizes, total)
    order = np.random.default_rng(config.get_seed()).permutation(total) if randomize else np.arange(total)
    starts = np.concatenate([[0], np.cumsum(parts)[:-1]])
    if isinstance(dataset, MappableDataset) and getattr(dataset, "_random_access", True):
        if isinstance(dataset.sampler, DistributedSampler):
            raise RuntimeError("split: the dataset should not be sharded before split; shard the parts instead")
        out = []
        for start, size in zip(starts, parts):
            part = copy.copy(dataset)
            part.children, part._iterations = [], 0
            part.sampler = _PartSampler(order, int(start), size)
            out.append(part)
        return tuple(out)
    from .pipeline import PositionsDataset
    return tuple(PositionsDataset(dataset, frozenset(int(i) for i in order[s:s + n])) for s, n in zip(starts, parts))
