"""Iterators over a pipeline: epochs, the per-iteration random streams, and output conversion."""
from __future__ import annotations

import numpy as np

from . import config
from .progress import Progress


def _cheap_size(dataset):
    """The rows of one epoch if that is known without reading the data (filters and generators need a pass)."""
    from .pipeline import FilterDataset
    from .sources import GeneratorDataset
    stack = [dataset]
    while stack:
        node = stack.pop()
        if isinstance(node, FilterDataset) and node._count is None:
            return None
        if isinstance(node, GeneratorDataset) and not node._random_access and node._count is None:
            return None
        stack.extend(node.children)
    return dataset._size()


class Run:
    """State shared by all nodes during one iterator's life: the epoch number and one random stream
    per (node, draw). Streams depend only on the seed, the iterator's ordinal and the node's place in
    the pipeline, so a seeded program shuffles identically on every run and on every rank."""

    def __init__(self, iteration: int):
        self.iteration = iteration
        self.epoch = 0
        self._draws: dict = {}

    def rng(self, key: tuple) -> np.random.Generator:
        n = self._draws.get(key, 0)
        self._draws[key] = n + 1
        return np.random.default_rng([config.get_seed(), self.iteration, n, len(key), *key])


def _to_output(arr: np.ndarray):
    from ..core.tensor import Tensor
    if arr.dtype.kind in "USO":
        return arr  # strings stay NumPy, as in MindSpore
    return Tensor(arr)


class _Iterator:
    def __init__(self, dataset, picks, num_epochs, output_numpy):
        dataset._iterations += 1
        self._dataset = dataset
        self._run = Run(dataset._iterations)
        self._picks = picks
        self._num_epochs = num_epochs
        self._convert = (lambda a: a) if output_numpy else _to_output
        self._names = dataset.get_col_names()
        if picks is not None:
            self._names = [self._names[i] for i in picks]
        self._epoch_rows = None
        self._progress = None

    def __iter__(self):
        return self

    def _next_row(self):
        if self._epoch_rows is None:
            if 0 < self._num_epochs <= self._run.epoch:
                raise RuntimeError(f"iterator: all num_epochs={self._num_epochs} epochs have been consumed; "
                                   "create the iterator with a larger num_epochs (or -1)")
            self._epoch_rows = self._dataset._rows(self._run, ())
            if self._run.epoch == 0 and self._progress is None:
                self._progress = Progress(f"dataset: first pass over {type(self._dataset).__name__}",
                                          total=_cheap_size(self._dataset), after=10.0, every=30.0)
        try:
            row = next(self._epoch_rows)
        except StopIteration:
            self._epoch_rows = None
            self._run.epoch += 1
            if self._progress:
                self._progress.done()
                self._progress = False  # only the first pass reports
            raise
        if self._progress:
            self._progress.tick()
        if self._picks is not None:
            row = [row[i] for i in self._picks]
        return [self._convert(col) for col in row]

    def get_next(self):
        return next(self)

    def __len__(self):
        return self._dataset.get_dataset_size()


class TupleIterator(_Iterator):
    """Yields each row as a list of column values."""

    def __next__(self):
        return self._next_row()


class DictIterator(_Iterator):
    """Yields each row as a dict from column name to value."""

    def __next__(self):
        return dict(zip(self._names, self._next_row()))
