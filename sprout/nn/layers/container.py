"""Cell containers: SequentialCell, CellList and CellDict (children named "0", "1", ... or by key)."""
from __future__ import annotations

from collections import OrderedDict

from ..cell import Cell


def _check_cell(cell, owner: str) -> None:
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{owner}', each cell must be subclass of Cell, but got {type(cell).__name__}.")


def _check_index(n: int, index, owner: str, inserting: bool = False) -> int:
    if not isinstance(index, int) or isinstance(index, bool):
        raise TypeError(f"For '{owner}', the type of 'index' must be int, but got {type(index).__name__}.")
    hi = n + 1 if inserting else n
    if not -n <= index < hi:
        raise IndexError(f"For '{owner}', the value of 'index' must be a number in range [{-n}, {n}), "
                         f"but got {index}.")
    return index % n if n and index != n else index


def _name_prefix(cells: OrderedDict) -> str:
    """The prefix the container's own parameters carry (e.g. ``"seq."``), read off an existing child."""
    for key, cell in cells.items():
        if cell is None:
            continue
        for path, param in cell.parameters_and_names():
            suffix = f"{key}.{path}"
            if param.name and param.name.endswith(suffix):
                return param.name[: -len(suffix)]
            return ""
    return ""


class _ListLike(Cell):
    """Shared behaviour of SequentialCell and CellList: integer keys kept dense as "0".."n-1"."""

    def _renumber(self) -> None:
        prefix = _name_prefix(self._cells)
        old = list(self._cells.values())
        self._cells.clear()
        for i, cell in enumerate(old):
            self._cells[str(i)] = cell
            if self._auto_prefix:
                cell.update_parameters_name(f"{prefix}{i}.")

    def _put(self, key: str, cell: Cell) -> None:
        if self._auto_prefix:
            cell.update_parameters_name(f"{_name_prefix(self._cells)}{key}.")
        self._cells[key] = cell

    def __len__(self) -> int:
        return len(self._cells)

    def __bool__(self) -> bool:
        return len(self._cells) != 0

    def __iter__(self):
        return iter(self._cells.values())

    def __delitem__(self, index) -> None:
        keys = list(self._cells.keys())
        if isinstance(index, slice):
            doomed = keys[index]
        else:
            doomed = [keys[_check_index(len(self), index, self.cls_name)]]
        for key in doomed:
            del self._cells[key]
        self._renumber()

    def append(self, cell: Cell):
        _check_cell(cell, self.cls_name)
        self._put(str(len(self)), cell)
        return self

    def extend(self, cells):
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index: int, cell: Cell) -> None:
        _check_cell(cell, self.cls_name)
        idx = _check_index(len(self), index, self.cls_name, inserting=True)
        items = list(self._cells.values())
        items.insert(idx, cell)
        prefix = _name_prefix(self._cells)
        self._cells.clear()
        for i, c in enumerate(items):
            self._cells[str(i)] = c
            if self._auto_prefix:
                c.update_parameters_name(f"{prefix}{i}.")

    def set_grad(self, requires_grad: bool = True):
        self.requires_grad = requires_grad
        for cell in self._cells.values():
            cell.set_grad(requires_grad)
        return self


class SequentialCell(_ListLike):
    """Runs its cells in order: ``SequentialCell([a, b])(x) == b(a(x))``; also takes ``*cells`` or an OrderedDict."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (list, tuple)) and not isinstance(args[0], Cell):
            items = [(str(i), c) for i, c in enumerate(args[0])]
        elif len(args) == 1 and isinstance(args[0], (OrderedDict, dict)):
            items = list(args[0].items())
        else:
            items = [(str(i), c) for i, c in enumerate(args)]
        for key, cell in items:
            _check_cell(cell, "SequentialCell")
            self._cells[key] = cell
            cell.update_parameters_name(key + ".")

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(OrderedDict(list(self._cells.items())[index]))
        return list(self._cells.values())[_check_index(len(self), index, self.cls_name)]

    def __setitem__(self, index, cell) -> None:
        _check_cell(cell, self.cls_name)
        key = list(self._cells.keys())[_check_index(len(self), index, self.cls_name)]
        self._put(key, cell)

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(_ListLike):
    """A list of cells registered as children (iterate it in ``construct``); it has no construct of its own."""

    def __init__(self, *args, **kwargs):
        auto_prefix = kwargs.pop("auto_prefix", True)
        if kwargs:
            raise TypeError(f"CellList: unexpected arguments {sorted(kwargs)}")
        super().__init__(auto_prefix=auto_prefix)
        if len(args) == 1:
            self.extend(args[0])
        elif args:
            raise TypeError("CellList takes one iterable of cells")

    def __getitem__(self, index):
        if isinstance(index, slice):
            return type(self)(list(self._cells.values())[index])
        return self._cells[str(_check_index(len(self), index, self.cls_name))]

    def __setitem__(self, index, cell) -> None:
        _check_cell(cell, self.cls_name)
        self._put(str(_check_index(len(self), index, self.cls_name)), cell)

    def __iadd__(self, cells):
        return self.extend(cells)

    def construct(self, *inputs):
        raise NotImplementedError("CellList has no construct: index it or iterate over it")


class CellDict(Cell):
    """An ordered dict of named child cells (keys are strings without dots)."""

    def __init__(self, *args, **kwargs):
        auto_prefix = kwargs.pop("auto_prefix", True)
        if kwargs:  # MindSpore 2.10 reads only auto_prefix and drops the rest unread
            raise TypeError(f"CellDict got unexpected keyword arguments {sorted(kwargs)} (only auto_prefix)")
        super().__init__(auto_prefix=auto_prefix)
        if len(args) > 1:
            raise TypeError("CellDict takes at most one dict or iterable of (key, cell) pairs")
        if args:
            self.update(args[0])

    def _check(self, key, cell) -> None:
        if not isinstance(key, str):
            raise TypeError(f"For 'CellDict', the type of key must be str, but got {type(key).__name__}.")
        if not key or "." in key:
            raise KeyError(f"For 'CellDict', key can not be empty or contain '.', but got {key!r}.")
        _check_cell(cell, "CellDict")
        if isinstance(cell, (CellDict, CellList, SequentialCell)):
            raise TypeError(f"For 'CellDict', the type of cell can not be CellDict, CellList or SequentialCell, "
                            f"but got {type(cell).__name__}.")

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell) -> None:
        self._check(key, cell)
        if self._auto_prefix:
            cell.update_parameters_name(f"{_name_prefix(self._cells)}{key}.")
        self._cells[key] = cell

    def __delitem__(self, key) -> None:
        del self._cells[key]

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def __contains__(self, key) -> bool:
        return key in self._cells

    def clear(self) -> None:
        self._cells.clear()

    def pop(self, key):
        return self._cells.pop(key)

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def update(self, cells) -> None:
        pairs = cells.items() if isinstance(cells, (dict, CellDict)) else cells
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ValueError("CellDict.update: expected (key, cell) pairs")
            self[pair[0]] = pair[1]

    def construct(self, *inputs):
        raise NotImplementedError("CellDict has no construct: look cells up by key")
