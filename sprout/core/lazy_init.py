"""Deferred initialisation (``nn.no_init_parameters``): a tensor or Parameter made by ``initializer(...)`` inside
the context holds its initializer, shape and dtype instead of values. Its first read of the data (an op, ``asnumpy``,
a graph capture) runs the initializer, and the object becomes a plain Tensor/Parameter again (no cost afterwards);
``set_data`` (``load_checkpoint``) replaces it without ever drawing the initial values."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import dtype as mstype
from .tensor import Parameter, Tensor

_SLOT = Tensor._data  # the slot holding a tensor's array (a pending object leaves it unset)
_pending: dict[int, tuple[Callable[[], np.ndarray], tuple, mstype.Type, Any]] = {}  # id -> (make, shape, dtype, init)
_depth = [0]


def deferring() -> bool:
    """Whether ``no_init_parameters`` is open."""
    return _depth[0] > 0


class defer:  # noqa: N801 - used as ``with defer():``
    def __enter__(self):
        _depth[0] += 1
        return self

    def __exit__(self, *exc) -> None:
        _depth[0] -= 1


def _materialise(obj) -> np.ndarray:
    make, shape, dt, _ = _pending.pop(id(obj))
    arr = np.asarray(make(), dt.np)
    if arr.shape != shape:  # pragma: no cover - initializers honour their shape
        raise RuntimeError(f"deferred initialisation produced shape {arr.shape}, expected {shape}")
    _SLOT.__set__(obj, arr)
    obj.__class__ = obj._plain
    return arr


def _entry(obj):
    return _pending[id(obj)]


def _pending_class(base: type) -> type:
    """``base`` with metadata answered from the pending entry and ``_data`` made on first read."""

    def get_data(self):
        return _materialise(self)

    def set_data_slot(self, value):
        _pending.pop(id(self), None)
        _SLOT.__set__(self, value)
        self.__class__ = base

    def init_data(self, *args, **kwargs):
        if id(self) in _pending:
            _materialise(self)
        return self

    def __del__(self):
        _pending.pop(id(self), None)

    ns = {
        "__slots__": (), "_plain": base, "_data": property(get_data, set_data_slot),
        "shape": property(lambda self: _entry(self)[1]), "dtype": property(lambda self: _entry(self)[2]),
        "ndim": property(lambda self: len(_entry(self)[1])),
        "size": property(lambda self: int(np.prod(_entry(self)[1], dtype=np.int64))),
        "init": property(lambda self: _entry(self)[3]), "has_init": property(lambda self: True),
        "init_data": init_data, "__del__": __del__,
        "__doc__": f"A {base.__name__} whose values are made on first use (nn.no_init_parameters).",
    }
    return type(f"Pending{base.__name__}", (base,), ns)


PendingTensor = _pending_class(Tensor)
PendingParameter = _pending_class(Parameter)


def _pending_set_data(self, data, slice_shape=False):
    """Replace the (still uninitialised) values: the initializer never runs."""
    arr = data.asnumpy() if isinstance(data, Tensor) else np.asarray(data)
    shape = _entry(self)[1]
    if arr.shape != shape and not slice_shape:
        raise ValueError(f"Parameter {self.name}: set_data with shape {list(arr.shape)} does not match the "
                         f"parameter's shape {list(shape)}")
    self._data = np.array(arr, copy=True)
    return self


PendingParameter.set_data = _pending_set_data


def pending_tensor(make: Callable[[], np.ndarray], shape: tuple, dt: mstype.Type, init: Any) -> Tensor:
    """A tensor whose values ``make()`` produces on first use."""
    t = object.__new__(PendingTensor)
    _pending[id(t)] = (make, tuple(shape), dt, init)
    return t


def adopt(param: Parameter, source: Tensor) -> None:
    """``Parameter(pending_tensor)``: the Parameter takes over the pending values (no copy, nothing drawn); the
    tensor itself stays pending on its own."""
    make, shape, dt, init = _entry(source)
    _pending[id(param)] = (make, shape, dt, init)
    param.__class__ = PendingParameter
