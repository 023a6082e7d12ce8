"""Pipeline nodes over other datasets: shuffle, map, filter, repeat, take, skip, zip, concat, project, rename."""
from __future__ import annotations

import itertools

import numpy as np

import logging

from . import config
from ._checks import check_int, column_list, find_columns, to_array
from .dataset import Dataset
from .iterators import Run
from .parallel import ordered_map, with_row_rng, workers_for

logger = logging.getLogger("sprout.dataset")


class _Unary(Dataset):
    def __init__(self, child):
        if not isinstance(child, Dataset):
            raise TypeError(f"{type(self).__name__}: expected a Dataset, got {type(child).__name__}")
        super().__init__([child])
        self.child = child

    def _columns(self):
        return self.child._columns()

    def _size(self):
        return self.child._size()

    def _child_rows(self, run, key):
        return self.child._rows(run, key + (0,))


class _ColumnMap:
    """Where an operation's outputs go, following MindSpore: with as many outputs as inputs, output
    i takes the place of input i; otherwise the outputs come first, then the untouched columns."""

    def __init__(self, op, columns, in_cols, out_cols):
        self.in_idx = find_columns(op, columns, in_cols)
        self.in_names = list(in_cols)
        self.n_out = len(out_cols)
        self.same = len(in_cols) == len(out_cols)
        if self.same:
            names = list(columns)
            for i, name in zip(self.in_idx, out_cols):
                names[i] = name
        else:
            self.keep = [i for i in range(len(columns)) if i not in self.in_idx]
            names = list(out_cols) + [columns[i] for i in self.keep]
        if len(set(names)) != len(names):
            raise ValueError(f"{op}: the resulting column names {names} are not unique")
        self.names = names

    def inputs(self, row):
        return [row[i] for i in self.in_idx]

    def place(self, row, outs):
        if self.same:
            new = list(row)
            for i, value in zip(self.in_idx, outs):
                new[i] = value
            return tuple(new)
        return tuple(outs) + tuple(row[i] for i in self.keep)


def _outputs(op: str, result, expected: int) -> tuple:
    outs = result if isinstance(result, tuple) else (result,)
    if len(outs) != expected:
        raise ValueError(f"{op}: the operation returned {len(outs)} column(s) but {expected} output column(s) "
                         "are expected; set output_columns to match what it returns")
    return outs


class ShuffleDataset(_Unary):
    def __init__(self, child, buffer_size):
        super().__init__(child)
        self.buffer_size = check_int("shuffle", "buffer_size", buffer_size, low=2, high=2**31 - 1)

    def _rows(self, run, key):
        rng = run.rng(key)
        buf = []
        for row in self._child_rows(run, key):
            if len(buf) < self.buffer_size:
                buf.append(row)
                continue
            i = int(rng.integers(len(buf)))
            yield buf[i]
            buf[i] = row
        for i in rng.permutation(len(buf)):
            yield buf[i]


def _callables(op: str, operations) -> list:
    ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
    if not ops:
        raise ValueError(f"{op}: operations must not be empty")
    for f in ops:
        if not callable(f):
            raise TypeError(f"{op}: every operation must be callable, got {type(f).__name__} {f!r:.60}")
    return ops


class _Failure:
    """An exception raised by a map operation, carried back to the consumer (from a worker if need be)."""

    def __init__(self, exc: BaseException):
        import traceback
        self.exc = exc
        self.trace = "".join(traceback.format_exception(exc))


class MapDataset(_Unary):
    def __init__(self, child, operations, input_columns, output_columns, parallel=(None, False)):
        super().__init__(child)
        self.operations = _callables("map", operations)
        cols = self.child._columns()
        ins = column_list("map", "input_columns", input_columns) or cols[:1]
        outs = column_list("map", "output_columns", output_columns) or ins
        self._map = _ColumnMap("map", cols, ins, outs)
        self.workers, self.processes = parallel

    def _columns(self):
        return self._map.names

    def _apply(self, row):
        try:
            args = self._map.inputs(row)
            for f in self.operations:
                result = f(*args)
                args = result if isinstance(result, tuple) else (result,)
            outs = _outputs("map", args, self._map.n_out)
            return self._map.place(row, [to_array("map", o) for o in outs])
        except Exception as exc:  # noqa: BLE001 - handed to the consumer, which decides (ErrorSamplesMode)
            return _Failure(exc)

    def _rows(self, run, key):
        mode = config.get_error_samples_mode()
        workers = workers_for("map", self.workers)
        seed = [config.get_seed(), run.iteration, run.epoch, len(key), *key]
        results = ordered_map(with_row_rng(self._apply, seed), enumerate(self._child_rows(run, key)), workers,
                              self.processes, "map")
        good, owed = None, 0
        for n, out in enumerate(results):
            if not isinstance(out, _Failure):
                for _ in range(owed):
                    yield out
                good, owed = out, 0
                yield out
                continue
            where = (f"map: operations {[getattr(f, '__name__', type(f).__name__) for f in self.operations]} "
                     f"failed on row {n} of this pass (input columns {self._map.in_names}, epoch {run.epoch})")
            if mode is config.ErrorSamplesMode.RETURN:
                exc = out.exc
                exc.add_note(where)
                if exc.__traceback__ is None:  # raised in a worker process: show where
                    exc.add_note(out.trace)
                raise exc
            logger.warning("%s: %s: %s; %s", where, type(out.exc).__name__, out.exc,
                           "skipped" if mode is config.ErrorSamplesMode.SKIP else "replaced by a good row")
            if mode is config.ErrorSamplesMode.REPLACE:
                if good is None:
                    owed += 1
                else:
                    yield good
        if owed:
            raise RuntimeError(f"map: every row of this pass failed; ErrorSamplesMode.REPLACE has no good row to use "
                               f"({owed} rows)")


class FilterDataset(_Unary):
    def __init__(self, child, predicate, input_columns, parallel=(None, False)):
        super().__init__(child)
        if not callable(predicate):
            raise TypeError(f"filter: predicate must be callable, got {type(predicate).__name__}")
        self.predicate = predicate
        ins = column_list("filter", "input_columns", input_columns) or self.child._columns()
        self._idx = find_columns("filter", self.child._columns(), ins)
        self.workers, self.processes = parallel
        self._count = None

    def _size(self):
        if self._count is None:
            self._count = sum(1 for _ in self._rows(Run(iteration=0), ()))
        return self._count

    def _keep(self, row):
        return row, bool(np.all(to_array("filter", self.predicate(*[row[i] for i in self._idx]))))

    def _rows(self, run, key):
        workers = workers_for("filter", self.workers)
        for row, keep in ordered_map(self._keep, self._child_rows(run, key), workers, self.processes, "filter"):
            if keep:
                yield row


class RepeatDataset(_Unary):
    def __init__(self, child, count):
        super().__init__(child)
        self.count = -1 if count is None else check_int("repeat", "count", count, low=1, high=2**31 - 1,
                                                        allow=(-1,))

    def _size(self):
        n = self.child._size()
        return n if self.count == -1 else n * self.count  # MindSpore reports one pass for repeat-forever

    def _repeat_count(self):
        return self.count

    def _rows(self, run, key):
        passes = itertools.count() if self.count == -1 else range(self.count)
        for _ in passes:
            produced = False
            for row in self._child_rows(run, key):
                produced = True
                yield row
            if not produced:
                return  # an empty pass would make repeat-forever spin


class TakeDataset(_Unary):
    def __init__(self, child, count):
        super().__init__(child)
        self.count = check_int("take", "count", count, low=1, high=2**31 - 1, allow=(-1,))

    def _size(self):
        n = self.child._size()
        return n if self.count == -1 else min(n, self.count)

    def _rows(self, run, key):
        rows = self._child_rows(run, key)
        return rows if self.count == -1 else itertools.islice(rows, self.count)


class SkipDataset(_Unary):
    def __init__(self, child, count):
        super().__init__(child)
        self.count = check_int("skip", "count", count, low=0, high=2**31 - 1)

    def _size(self):
        return max(self.child._size() - self.count, 0)

    def _rows(self, run, key):
        return itertools.islice(self._child_rows(run, key), self.count, None)


class ZipDataset(Dataset):
    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"zip: every item must be a Dataset, got {type(d).__name__}")
        if len(datasets) < 2:
            raise ValueError("zip: needs at least two datasets")
        super().__init__(datasets)
        names = [n for d in datasets for n in d._columns()]
        dups = sorted({n for n in names if names.count(n) > 1})
        if dups:
            raise ValueError(f"zip: column names must be unique across the zipped datasets; {dups} repeat "
                             "(rename them first)")
        self._names = names

    def _columns(self):
        return list(self._names)

    def _size(self):
        return min(d._size() for d in self.children)

    def _rows(self, run, key):
        streams = [d._rows(run, key + (i,)) for i, d in enumerate(self.children)]
        for parts in zip(*streams):
            yield tuple(col for part in parts for col in part)


class ConcatDataset(Dataset):
    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"concat: every item must be a Dataset, got {type(d).__name__}")
        super().__init__(datasets)
        first = datasets[0]._columns()
        for d in datasets[1:]:
            if d._columns() != first:
                raise ValueError(f"concat: all datasets must have the same columns; got {first} and {d._columns()}")

    def _columns(self):
        return self.children[0]._columns()

    def _size(self):
        return sum(d._size() for d in self.children)

    def _rows(self, run, key):
        for i, d in enumerate(self.children):
            yield from d._rows(run, key + (i,))


class ProjectDataset(_Unary):
    def __init__(self, child, columns):
        super().__init__(child)
        self._names = column_list("project", "columns", columns, allow_none=False)
        self._idx = find_columns("project", self.child._columns(), self._names)

    def _columns(self):
        return list(self._names)

    def _rows(self, run, key):
        for row in self._child_rows(run, key):
            yield tuple(row[i] for i in self._idx)


class RenameDataset(_Unary):
    def __init__(self, child, input_columns, output_columns):
        super().__init__(child)
        ins = column_list("rename", "input_columns", input_columns, allow_none=False)
        outs = column_list("rename", "output_columns", output_columns, allow_none=False)
        if len(ins) != len(outs):
            raise ValueError(f"rename: input_columns ({len(ins)}) and output_columns ({len(outs)}) differ in length")
        names = list(self.child._columns())
        for i, new in zip(find_columns("rename", names, ins), outs):
            names[i] = new
        if len(set(names)) != len(names):
            raise ValueError(f"rename: the resulting column names {names} are not unique")
        self._names = names

    def _columns(self):
        return list(self._names)

    def _rows(self, run, key):
        return self._child_rows(run, key)


class PositionsDataset(_Unary):
    """The rows at the given positions of each pass of the child (one part of a split of a stream)."""

    def __init__(self, child, positions):
        super().__init__(child)
        self.positions = positions

    def _size(self):
        return len(self.positions)

    def _rows(self, run, key):
        for i, row in enumerate(self._child_rows(run, key)):
            if i in self.positions:
                yield row
