"""The Dataset base class: pipeline-building methods, size and column queries, iterators."""
from __future__ import annotations

from ._checks import check_bool, check_int, check_workers, column_list, find_columns


def parallel_args(op: str, num_parallel_workers, python_multiprocessing) -> tuple:
    """(workers, processes) of a node; None workers means the ``ds.config`` default (see parallel.workers_for)."""
    if num_parallel_workers is not None:
        check_workers(op, num_parallel_workers)
    return num_parallel_workers, check_bool(op, "python_multiprocessing", python_multiprocessing)


class Dataset:
    """A node of a data pipeline. Sources have no children; every method below returns a new node
    that wraps this one, so pipelines are built by chaining (``ds.map(...).batch(32).repeat(2)``)."""

    def __init__(self, children=()):
        self.children = list(children)
        self._iterations = 0  # iterators created from this node; part of the shuffle seed

    # -- what each node defines ---------------------------------------------------------------
    def _columns(self) -> list:
        """Column names of the rows this node yields."""
        raise NotImplementedError

    def _size(self) -> int:
        """Rows in one epoch."""
        raise NotImplementedError

    def _rows(self, run, key):
        """Yield one epoch of rows (tuples of NumPy arrays). ``key`` names this node within the
        pipeline (child i of a node with key k has key k + (i,)); it selects the node's random stream."""
        raise NotImplementedError

    def _batch_size(self) -> int:
        return self.children[0]._batch_size() if self.children else 1

    def _repeat_count(self) -> int:
        return self.children[0]._repeat_count() if self.children else 1

    # -- queries ------------------------------------------------------------------------------
    def get_col_names(self) -> list:
        return list(self._columns())

    def get_dataset_size(self) -> int:
        """Rows (batches, after ``batch``) per epoch."""
        return int(self._size())

    def __len__(self) -> int:
        return self.get_dataset_size()

    def get_batch_size(self) -> int:
        return self._batch_size()

    def get_repeat_count(self) -> int:
        return self._repeat_count()

    def _num_classes(self):
        return self.children[0]._num_classes() if self.children else None

    def num_classes(self):
        """Number of classes of the source (ImageFolderDataset); None for sources without classes."""
        return self._num_classes()

    def get_class_indexing(self) -> dict:
        """The class-name-to-label mapping of the source (ImageFolderDataset)."""
        if self.children:
            return self.children[0].get_class_indexing()
        raise TypeError(f"get_class_indexing: {type(self).__name__} has no class indexing")

    def _first_row(self, op: str):
        from .iterators import Run
        for row in self._rows(Run(iteration=0), ()):
            return row
        raise RuntimeError(f"{op}: the dataset yields no rows")

    def output_shapes(self, estimate=False) -> list:
        """Shapes of the first row's columns, as lists; ``estimate=True`` reads every row and gives None for a
        dimension that varies (a column whose rank varies is a RuntimeError, as in MindSpore)."""
        check_bool("output_shapes", "estimate", estimate)
        if not estimate:
            return [list(col.shape) for col in self._first_row("output_shapes")]
        from .iterators import Run
        shapes = None
        for row in self._rows(Run(iteration=0), ()):
            if shapes is None:
                shapes = [list(col.shape) for col in row]
                continue
            for k, col in enumerate(row):
                if len(col.shape) != len(shapes[k]):
                    raise RuntimeError(f"output_shapes: inconsistent shapes, expect the same rank for each data row "
                                       f"of column {k}, got {list(col.shape)} after {shapes[k]}")
                shapes[k] = [d if d == e else None for d, e in zip(shapes[k], col.shape)]
        if shapes is None:
            raise RuntimeError("output_shapes: the dataset yields no rows")
        return shapes

    def output_types(self) -> list:
        """NumPy dtypes of the first row's columns."""
        return [col.dtype for col in self._first_row("output_types")]

    # -- building the pipeline ----------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, per_batch_map=None,
              input_columns=None, output_columns=None, column_order=None, pad_info=None,
              python_multiprocessing=False, max_rowsize=None):
        """Stack ``batch_size`` consecutive rows into one; ``per_batch_map(*cols, batch_info)`` may
        rewrite each batch's columns (each passed as a list of per-row arrays) first (on
        ``num_parallel_workers`` threads, or processes with ``python_multiprocessing``). ``pad_info``
        ({column: (shape, value)}) pads the rows of those columns to a common shape first."""
        from .batching import BatchDataset
        from .pipeline import ProjectDataset
        out = BatchDataset(self, batch_size, drop_remainder, per_batch_map, input_columns, output_columns, pad_info,
                           parallel_args("batch", num_parallel_workers, python_multiprocessing))
        return out if column_order is None else ProjectDataset(out, column_order)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None):
        """``batch`` that pads each column to the batch's largest shape (``pad_info`` {column: (shape, value)};
        None pads every column with zeros)."""
        from .batching import BatchDataset
        return BatchDataset(self, batch_size, drop_remainder, None, None, None, pad_info if pad_info else {},
                            parallel_args("padded_batch", num_parallel_workers, False))

    def shuffle(self, buffer_size):
        """Shuffle rows through a buffer of ``buffer_size`` rows (a full shuffle if it covers the dataset)."""
        from .pipeline import ShuffleDataset
        return ShuffleDataset(self, buffer_size)

    def map(self, operations=None, input_columns=None, output_columns=None, column_order=None,
            num_parallel_workers=None, python_multiprocessing=False, cache=None, callbacks=None,
            max_rowsize=None, offload=None):
        """Apply ``operations`` (a callable or a list run in order) to ``input_columns`` (default: the
        first column) of every row; the results become ``output_columns`` (default: the inputs).
        ``num_parallel_workers`` > 1 runs the operations on that many threads, or forked processes with
        ``python_multiprocessing=True``; rows keep their order."""
        from .pipeline import MapDataset, ProjectDataset
        if cache is not None or callbacks is not None:
            raise NotImplementedError("map: cache and callbacks are not supported by sprout")
        if offload:
            raise NotImplementedError("map: offload (running the operations on the device) is not supported by sprout")
        out = MapDataset(self, operations, input_columns, output_columns,
                         parallel_args("map", num_parallel_workers, python_multiprocessing))
        return out if column_order is None else ProjectDataset(out, column_order)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Keep the rows for which ``predicate(*input_columns)`` is true (default: all columns)."""
        from .pipeline import FilterDataset
        return FilterDataset(self, predicate, input_columns, parallel_args("filter", num_parallel_workers, False))

    def repeat(self, count=None):
        """Run the pipeline ``count`` times per epoch; ``None`` or -1 repeats forever."""
        from .pipeline import RepeatDataset
        return RepeatDataset(self, count)

    def take(self, count=-1):
        """The first ``count`` rows (-1: all)."""
        from .pipeline import TakeDataset
        return TakeDataset(self, count)

    def skip(self, count):
        """All rows but the first ``count``."""
        from .pipeline import SkipDataset
        return SkipDataset(self, count)

    def zip(self, datasets):
        """Join this dataset's columns with those of ``datasets`` (one or a tuple) row by row."""
        from .pipeline import ZipDataset
        others = [datasets] if isinstance(datasets, Dataset) else datasets
        if not isinstance(others, (list, tuple)):
            raise TypeError(f"zip: datasets must be a Dataset or a tuple of Datasets, got {type(datasets).__name__}")
        return ZipDataset([self, *others])

    def concat(self, datasets):
        """This dataset's rows followed by those of ``datasets`` (one or a list)."""
        from .pipeline import ConcatDataset
        others = [datasets] if isinstance(datasets, Dataset) else datasets
        if not isinstance(others, (list, tuple)):
            raise TypeError(f"concat: datasets must be a Dataset or a list of Datasets, got {type(datasets).__name__}")
        return ConcatDataset([self, *others])

    def __add__(self, other):
        return self.concat(other)

    def project(self, columns):
        """Keep only ``columns``, in the given order."""
        from .pipeline import ProjectDataset
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        """Rename ``input_columns`` to ``output_columns``."""
        from .pipeline import RenameDataset
        return RenameDataset(self, input_columns, output_columns)

    def split(self, sizes, randomize=True):
        """Split into non-overlapping datasets of ``sizes`` rows (ints adding up to the dataset size, or
        fractions adding up to 1), after one shuffle drawn from the dataset seed if ``randomize``. Each part
        keeps its rows across epochs."""
        from .splitting import split
        return split(self, sizes, randomize)

    def reset(self):
        """Start over: the next iterator draws the same shuffles as the first one did."""
        stack = [self]
        while stack:
            node = stack.pop()
            node._iterations = 0
            stack.extend(node.children)

    def build_vocab(self, columns, freq_range, top_k, special_tokens, special_first):
        """A text.Vocab of the words in ``columns`` (see text.Vocab.from_dataset)."""
        from .text import Vocab
        return Vocab.from_dataset(self, columns, freq_range, top_k, special_tokens, special_first)

    def apply(self, apply_func):
        """``apply_func(self)``, which must return a Dataset."""
        out = apply_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"apply: apply_func must return a Dataset, got {type(out).__name__}")
        return out

    # -- iterating ----------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        """An iterator of lists of column values (``sprout.Tensor``, or NumPy with ``output_numpy``).
        Each pass of a ``for`` loop over it is one epoch; ``num_epochs`` (-1: unlimited) caps the passes."""
        from .iterators import TupleIterator
        return TupleIterator(self, *self._iter_args("create_tuple_iterator", columns, num_epochs, output_numpy))

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        """Like ``create_tuple_iterator`` but each row is a dict from column name to value."""
        from .iterators import DictIterator
        return DictIterator(self, *self._iter_args("create_dict_iterator", None, num_epochs, output_numpy))

    def __iter__(self):
        return self.create_tuple_iterator()

    def _iter_args(self, op, columns, num_epochs, output_numpy):
        check_int(op, "num_epochs", num_epochs, low=1, allow=(-1,))
        check_bool(op, "output_numpy", output_numpy)
        names = self.get_col_names()
        wanted = column_list(op, "columns", columns)
        picks = None if wanted is None else find_columns(op, names, wanted)
        return picks, num_epochs, output_numpy

