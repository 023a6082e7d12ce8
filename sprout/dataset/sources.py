"""In-memory sources: NumpySlicesDataset and GeneratorDataset, on a shared random-access base."""
from __future__ import annotations

import itertools

import numpy as np

from ._checks import check_bool, check_workers, column_list, np_dtype, to_array
from .dataset import Dataset
from .parallel import ordered_map, workers_for
from .samplers import select_sampler


class MappableDataset(Dataset):
    """A source whose rows can be read by index; a sampler picks the indices of each epoch. Sources whose
    rows are costly to read (decoding, user code) read them on ``num_parallel_workers`` workers."""

    _parallel_rows = False   # subclasses whose _row does real work set this
    _processes = False       # ... and this to use worker processes instead of threads

    def __init__(self, op, num_samples=None, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 num_parallel_workers=None):
        super().__init__()
        if num_parallel_workers is not None:
            check_workers(op, num_parallel_workers)
        self._op = op
        self.num_parallel_workers = num_parallel_workers
        self.sampler = select_sampler(op, num_samples, sampler, shuffle, num_shards, shard_id)
        self._check_class_sampler()

    def _check_class_sampler(self):
        if getattr(self.sampler, "needs_source", False) and type(self)._class_values is MappableDataset._class_values:
            raise ValueError(f"{self._op} does not support {type(self.sampler).__name__} (it has no class column)")

    def _class_values(self, column: str) -> np.ndarray:
        """Every row's value of ``column`` (a class label), for samplers that pick rows by class."""
        raise ValueError(f"{self._op} does not support sampling by class column {column!r}")

    def _num_rows(self) -> int:
        raise NotImplementedError

    def _row(self, i: int) -> tuple:
        raise NotImplementedError

    def _size(self):
        if getattr(self.sampler, "needs_source", False):
            return self.sampler.count_for(self._class_values(self.sampler.class_column))
        return self.sampler.count(self._num_rows())

    def _rows(self, run, key):
        if getattr(self.sampler, "needs_source", False):
            picked = self.sampler.indices_for(self._class_values(self.sampler.class_column), run.rng(key))
        else:
            picked = self.sampler.indices(self._num_rows(), run.rng(key))
        indices = (int(i) for i in picked)
        workers = workers_for(self._op, self.num_parallel_workers) if self._parallel_rows else 1
        return ordered_map(self._row, indices, workers, self._processes, self._op)

    def use_sampler(self, new_sampler):
        """Replace how rows are picked (a Sampler, or a list of row indices)."""
        self.sampler = select_sampler(self._op, None, new_sampler, None, None, None)
        self._check_class_sampler()

    def __getitem__(self, index):
        """Row ``index`` of the source (before sampling) as a tuple of arrays."""
        n = self._num_rows()
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not -n <= index < n:
            raise IndexError(f"{self._op}: row index {index!r} is out of range for {n} rows")
        return self._row(int(index) % n)


def _column(op: str, name: str, data) -> list | np.ndarray:
    """One column of NumpySlicesDataset: an array sliced along axis 0, or a list of per-row arrays."""
    if hasattr(data, "asnumpy"):
        data = data.asnumpy()
    if isinstance(data, np.ndarray):
        if data.ndim == 0:
            raise ValueError(f"{op}: column {name!r} is a scalar; it needs a first axis to slice rows from")
        return data
    if not isinstance(data, (list, tuple)):
        raise TypeError(f"{op}: column {name!r} must be a list or an array, got {type(data).__name__}")
    try:
        arr = np.asarray(data)
        if arr.dtype != object:
            return arr
    except ValueError:
        pass  # ragged rows
    return [to_array(op, row) for row in data]


class NumpySlicesDataset(MappableDataset):
    """Rows sliced from in-memory data: a dict gives named columns, a tuple gives one column per item
    (``column_0``, ``column_1``, ...), and a list or an array gives one column of its elements."""

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):
        op = "NumpySlicesDataset"
        super().__init__(op, num_samples, shuffle, sampler, num_shards, shard_id, num_parallel_workers)
        if isinstance(data, dict):
            names, parts = [str(k) for k in data], list(data.values())
        elif isinstance(data, tuple):
            names, parts = [f"column_{i}" for i in range(len(data))], list(data)
        else:
            names, parts = ["column_0"], [data]
        if not parts:
            raise ValueError(f"{op}: data has no columns")
        given = column_list(op, "column_names", column_names)
        if given is not None:
            if len(given) != len(parts):
                raise ValueError(f"{op}: column_names has {len(given)} names but the data has {len(parts)} columns")
            names = given
        self._cols = [_column(op, n, p) for n, p in zip(names, parts)]
        lengths = {len(c) for c in self._cols}
        if len(lengths) != 1:
            raise ValueError(f"{op}: all columns must have the same number of rows, got "
                             f"{dict(zip(names, (len(c) for c in self._cols)))}")
        self._names = names
        self._n = lengths.pop()

    def _columns(self):
        return list(self._names)

    def _num_rows(self):
        return self._n

    def _row(self, i):
        return tuple(np.array(c[i]) for c in self._cols)


def _as_row(op: str, item, names, types) -> tuple:
    values = tuple(item) if isinstance(item, (tuple, list)) else (item,)
    if len(values) != len(names):
        raise ValueError(f"{op}: the source gave {len(values)} value(s) per row but column_names has "
                         f"{len(names)}: {names}")
    row = tuple(to_array(op, v) for v in values)
    if types is not None:
        for name, arr, t in zip(names, row, types):
            if arr.dtype != t:
                raise TypeError(f"{op}: column {name!r} holds {arr.dtype} data but column_types says {t}; "
                                "column_types checks the data, it does not convert it")
    return row


class GeneratorDataset(MappableDataset):
    """Rows from Python: a random-access object (``__getitem__`` + ``__len__``; samplers, shuffling and
    sharding apply, and ``num_parallel_workers`` reads rows in parallel — worker processes unless
    ``python_multiprocessing=False``), a generator function (called once per epoch), an iterable, or another
    Dataset. Each item is a tuple or list with one value per column, or a single value for a one-column
    dataset."""

    def __init__(self, source, column_names=None, column_types=None, schema=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 python_multiprocessing=True, max_rowsize=None):
        op = "GeneratorDataset"
        if schema is not None:
            raise NotImplementedError(f"{op}: schema is not supported by sprout; pass column_names "
                                      "(and column_types)")
        if isinstance(source, Dataset) and column_names is None:
            column_names = source.get_col_names()
        self._random_access = hasattr(source, "__getitem__")
        if self._random_access and not hasattr(source, "__len__"):
            raise TypeError(f"{op}: a source with __getitem__ must also define __len__")
        if not self._random_access:
            if not callable(source) and not hasattr(source, "__iter__"):
                raise TypeError(f"{op}: source must be a generator function, an iterable or a random-access "
                                f"object, got {type(source).__name__}")
            if sampler is not None or num_shards is not None:
                raise ValueError(f"{op}: sampler and num_shards need a source with __getitem__ and __len__")
            shuffle = None  # MindSpore ignores shuffle for sequential sources
        super().__init__(op, num_samples, shuffle, sampler, num_shards, shard_id, num_parallel_workers)
        self._names = column_list(op, "column_names", column_names, allow_none=False)
        self._types = None
        if column_types is not None:
            types = column_types if isinstance(column_types, (list, tuple)) else [column_types]
            if len(types) != len(self._names):
                raise ValueError(f"{op}: column_types has {len(types)} entries for {len(self._names)} columns")
            self._types = [np_dtype(op, t) for t in types]
        self.source = source
        self._num_samples = self.sampler.num_samples
        self._count = None
        self._parallel_rows = self._random_access
        self._processes = check_bool(op, "python_multiprocessing", python_multiprocessing)

    def _columns(self):
        return list(self._names)

    def _num_rows(self):
        return len(self.source)

    def _row(self, i):
        return _as_row("GeneratorDataset", self.source[i], self._names, self._types)

    def _size(self):
        if self._random_access:
            return super()._size()
        if self._count is None:
            self._count = sum(1 for _ in self._stream())
        return self._count

    def _stream(self):
        if isinstance(self.source, Dataset):
            items = self.source.create_tuple_iterator(num_epochs=1, output_numpy=True)
        else:
            items = self.source() if callable(self.source) else iter(self.source)
        if self._num_samples is not None:
            items = itertools.islice(items, self._num_samples)
        return items

    def _rows(self, run, key):
        if self._random_access:
            yield from super()._rows(run, key)
            return
        for item in self._stream():
            yield _as_row("GeneratorDataset", item, self._names, self._types)
