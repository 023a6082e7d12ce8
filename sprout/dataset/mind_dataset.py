"""MindDataset: rows of MindRecord files (written by MindSpore or by sprout.mindrecord.FileWriter)."""
from __future__ import annotations

from enum import Enum

import numpy as np

from ._checks import check_int, column_list
from .samplers import Sampler
from .sources import MappableDataset


class Shuffle(Enum):
    """How MindDataset (and other file sources) shuffle: GLOBAL every row, FILES the file order only, INFILE
    the rows within each file (files in order)."""
    GLOBAL = "global"
    FILES = "files"
    INFILE = "infile"


class _FileOrderSampler(Sampler):
    """The row order of one epoch for the Shuffle modes, then MindSpore's shard rule on top."""

    def __init__(self, sizes, mode, num_shards, shard_id, num_samples, padded):
        super().__init__(num_samples)
        self.sizes, self.mode, self.padded = list(sizes), mode, padded
        self.num_shards, self.shard_id = num_shards, shard_id

    def indices(self, n, rng):
        offsets = np.cumsum([0] + self.sizes)
        files = [np.arange(offsets[i], offsets[i + 1]) for i in range(len(self.sizes))]
        if self.mode is Shuffle.GLOBAL:
            order = rng.permutation(int(offsets[-1]))
        else:
            if self.mode is Shuffle.FILES:
                files = [files[i] for i in rng.permutation(len(files))]
            elif self.mode is Shuffle.INFILE:
                files = [rng.permutation(f) for f in files]
            order = np.concatenate(files) if files else np.zeros(0, np.int64)
        order = np.concatenate([order, np.arange(offsets[-1], offsets[-1] + self.padded)]).astype(np.int64)
        if self.num_shards is not None:
            per = -(-len(order) // self.num_shards)
            order = order[(self.shard_id + self.num_shards * np.arange(per)) % max(len(order), 1)]
        return order[: self.count(n)]

    def count(self, n):
        total = n if self.num_shards is None else -(-n // self.num_shards)
        return self._cap(total)


class MindDataset(MappableDataset):
    """The rows of MindRecord files: ``dataset_files`` one file (every shard of its dataset is read) or a
    list of files (those only). Columns: ``columns_list`` or every field in sorted order; scalars become 0-d
    arrays, strings NumPy str, ``bytes`` fields a one-element bytes array (what vision.Decode takes) and array
    fields arrays of their schema shape. ``shuffle``: True/None/Shuffle.GLOBAL, Shuffle.FILES, Shuffle.INFILE
    or False. ``padded_sample`` (a row dict) repeated ``num_padded`` times is appended before sharding."""

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None, shuffle=None, num_shards=None,
                 shard_id=None, sampler=None, padded_sample=None, num_padded=None, num_samples=None, cache=None):
        from ..mindrecord.reader import ShardSet
        op = "MindDataset"
        mode = shuffle
        if shuffle is None or shuffle is True:
            mode = Shuffle.GLOBAL
        elif shuffle is not False and not isinstance(shuffle, Shuffle):
            raise TypeError(f"{op}: shuffle must be a bool or a dataset.Shuffle, got {shuffle!r}")
        super().__init__(op, num_samples, None if isinstance(shuffle, Shuffle) else shuffle, sampler,
                         num_shards, shard_id, num_parallel_workers)
        if cache is not None:
            raise NotImplementedError(f"{op}: cache is not supported by sprout")
        self._set = ShardSet(op, dataset_files)
        for shard in self._set.files:
            shard.locations()  # read the index now: a missing or damaged .db fails here, naming the file
        schema = self._set.schema
        self._names = column_list(op, "columns_list", columns_list) or sorted(schema)
        unknown = [c for c in self._names if c not in schema]
        if unknown:
            raise ValueError(f"{op}: columns_list names {unknown}, which are not fields of {sorted(schema)}")
        self._padded = self._check_padding(op, padded_sample, num_padded, columns_list, num_shards)
        if sampler is None:
            self.sampler = _FileOrderSampler([f.num_rows for f in self._set.files], mode if mode else None,
                                             num_shards, shard_id, self.sampler.num_samples, len(self._padded))

    def _check_padding(self, op, padded_sample, num_padded, columns_list, num_shards):
        if padded_sample is None and not num_padded:
            return []
        if padded_sample is None or num_padded is None:
            raise ValueError(f"{op}: padded_sample and num_padded must be given together")
        if columns_list is None:
            raise ValueError(f"{op}: padded_sample needs columns_list as well")
        check_int(op, "num_padded", num_padded, low=0)
        if not isinstance(padded_sample, dict) or sorted(padded_sample) != sorted(self._names):
            raise ValueError(f"{op}: padded_sample must be a dict with exactly the columns {self._names}, got "
                             f"{padded_sample!r}")
        if num_shards is None or (self._set.num_rows + num_padded) % num_shards:
            raise ValueError(f"{op}: padding needs num_shards dividing rows + num_padded "
                             f"({self._set.num_rows} + {num_padded})")
        row = tuple(self._convert(n, padded_sample[n]) for n in self._names)
        return [row] * num_padded

    def _columns(self):
        return list(self._names)

    def _num_rows(self):
        return self._set.num_rows + len(self._padded)

    def _convert(self, name, value):
        spec = self._set.schema[name]
        if spec["type"] == "bytes":
            return np.array([bytes(value)])
        if spec["type"] == "string":
            return np.array(str(value))
        return np.asarray(value, dtype=spec["type"]) if "shape" in spec else np.array(value, dtype=spec["type"])

    def _row(self, i):
        if i >= self._set.num_rows:
            return self._padded[i - self._set.num_rows]
        shard, k = self._set.locate(i)
        scalars, blobs = shard.read(k, self._names)
        return tuple(self._convert(n, blobs[n] if n in blobs else scalars[n]) for n in self._names)
