"""The batch node: stacking rows, padding them (pad_info / padded_batch) and per_batch_map, optionally parallel."""
from __future__ import annotations

import numpy as np

from ._checks import check_bool, check_int, column_list, find_columns, to_array
from .parallel import ordered_map, workers_for
from .pipeline import _ColumnMap, _outputs, _Unary


def _stack(op: str, name: str, values) -> np.ndarray:
    arrays = [to_array(op, v) for v in values]
    first = arrays[0].shape
    for arr in arrays[1:]:
        if arr.shape != first:
            raise RuntimeError(f"{op}: cannot batch rows with different shapes in column {name!r}: the first row "
                               f"has shape {first} and a later row {arr.shape}; pad them with padded_batch / "
                               "pad_info or per_batch_map")
    return np.stack(arrays)


def _pad_stack(op: str, name: str, values, shape, value) -> np.ndarray:
    """Stack rows padded (or cut, as MindSpore does) at the end of every axis to ``shape`` (None entries: the
    batch's largest)."""
    arrays = [to_array(op, v) for v in values]
    ranks = {a.ndim for a in arrays}
    if len(ranks) != 1:
        raise RuntimeError(f"{op}: cannot pad column {name!r}: its rows have different ranks {sorted(ranks)}")
    largest = np.max([a.shape for a in arrays], axis=0) if arrays[0].ndim else np.zeros(0, int)
    if shape is None:
        target = tuple(int(v) for v in largest)
    else:
        if len(shape) != len(largest):
            raise RuntimeError(f"{op}: pad shape {list(shape)} of column {name!r} has {len(shape)} axes but its rows "
                               f"have {len(largest)}")
        target = tuple(int(m) if s is None else int(s) for s, m in zip(shape, largest))
    kind = arrays[0].dtype
    fill = ("" if kind.kind == "U" else b"" if kind.kind == "S" else 0) if value is None else value
    if kind.kind in "US":
        kind = np.result_type(*[a.dtype for a in arrays], np.asarray(fill).dtype)
    out = np.full((len(arrays),) + target, fill, dtype=kind)
    for i, a in enumerate(arrays):
        keep = tuple(slice(0, min(d, t)) for d, t in zip(a.shape, target))
        out[(i,) + keep] = a[keep]
    return out


def _check_pad_info(pad_info, columns):
    if pad_info is None:
        return None
    if not isinstance(pad_info, dict):
        raise TypeError(f"batch: pad_info must be a dict {{column: (shape, value)}}, got {type(pad_info).__name__}")
    find_columns("batch", columns, list(pad_info))
    out = {}
    for name, spec in pad_info.items():
        if not isinstance(spec, (list, tuple)) or len(spec) != 2:
            raise ValueError(f"batch: pad_info[{name!r}] must be a (shape, value) pair, got {spec!r}")
        shape, value = spec
        if shape is not None and (not isinstance(shape, (list, tuple)) or any(
                s is not None and (isinstance(s, bool) or not isinstance(s, int) or s < 0) for s in shape)):
            raise ValueError(f"batch: pad_info[{name!r}] shape must be a list of ints/None or None, got {shape!r}")
        out[name] = (None if shape is None else list(shape), value)
    return out


class BatchInfo:
    """Passed to ``per_batch_map`` as its last argument."""

    def __init__(self, batch_num: int, epoch_num: int):
        self._batch_num = batch_num
        self._epoch_num = epoch_num

    def get_batch_num(self) -> int:
        """Index of this batch within the current pass (from 0)."""
        return self._batch_num

    def get_epoch_num(self) -> int:
        """Index of the current epoch (from 0)."""
        return self._epoch_num


class BatchDataset(_Unary):
    def __init__(self, child, batch_size, drop_remainder, per_batch_map, input_columns, output_columns,
                 pad_info=None, parallel=(None, False)):
        super().__init__(child)
        if callable(batch_size):
            raise NotImplementedError("batch: a callable batch_size is not supported by sprout; pass an int")
        self.batch_size = check_int("batch", "batch_size", batch_size, low=1, high=2**31 - 1)
        self.drop_remainder = check_bool("batch", "drop_remainder", drop_remainder)
        self.pad_info = _check_pad_info(pad_info, self.child._columns())
        self.workers, self.processes = parallel
        ins = column_list("batch", "input_columns", input_columns)
        outs = column_list("batch", "output_columns", output_columns)
        self.per_batch_map = per_batch_map
        self._map = None
        if per_batch_map is None:
            if ins is not None or outs is not None:
                raise ValueError("batch: input_columns and output_columns need a per_batch_map")
        else:
            if not callable(per_batch_map):
                raise TypeError(f"batch: per_batch_map must be callable, got {type(per_batch_map).__name__}")
            ins = ins or self.child._columns()
            self._map = _ColumnMap("batch", self.child._columns(), ins, outs or ins)

    def _columns(self):
        return self._map.names if self._map else self.child._columns()

    def _size(self):
        n = self.child._size()
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _batch_size(self):
        return self.batch_size

    def _groups(self, run, key):
        pending, num = [], 0
        for row in self._child_rows(run, key):
            pending.append(row)
            if len(pending) == self.batch_size:
                yield pending, num, run.epoch
                pending, num = [], num + 1
        if pending and not self.drop_remainder:
            yield pending, num, run.epoch

    def _rows(self, run, key):
        workers = workers_for("batch", self.workers) if self.per_batch_map is not None else 1
        return ordered_map(self._make, self._groups(run, key), workers, self.processes, "batch")

    def _column(self, name, values):
        if self.pad_info is not None and (not self.pad_info or name in self.pad_info):
            return _pad_stack("batch", name, values, *self.pad_info.get(name, (None, None)))
        return _stack("batch", name, values)

    def _make(self, group):
        rows, num, epoch = group
        names = self.child._columns()
        cols = list(zip(*rows))
        if self._map is None:
            return tuple(self._column(names[i], col) for i, col in enumerate(cols))
        args = [list(cols[i]) for i in self._map.in_idx]
        outs = _outputs("batch: per_batch_map", self.per_batch_map(*args, BatchInfo(num, epoch)), self._map.n_out)
        outs = [_stack("batch", self._map.names[j], o) if isinstance(o, (list, tuple)) else to_array("batch", o)
                for j, o in enumerate(outs)]
        used = set(self._map.in_idx)
        stacked = [None if i in used else self._column(names[i], col) for i, col in enumerate(cols)]
        return self._map.place(stacked, outs)
