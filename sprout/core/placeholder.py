"""Shape-only tensors: ``Tensor(shape=[None, 3], dtype=...)`` declares an input for ``Cell.set_inputs`` / a jit
``input_signature`` (dynamic dims print as -1, a dynamic rank ``shape=None`` as ``(-2,)``); it holds no values."""
from __future__ import annotations

from typing import NamedTuple

from .. import dtype as mstype

DYNAMIC_DIM, DYNAMIC_RANK = -1, -2


class _Declared(NamedTuple):
    shape: tuple
    dtype: mstype.Type


def _no_values(self):
    raise ValueError(f"{self!r} is a shape-only placeholder (for Cell.set_inputs or a jit input_signature): "
                     "it holds no values to compute with")


def make(tensor, shape, dtype: mstype.Type) -> None:
    """Turn a Tensor being constructed into a placeholder of ``shape`` (None: dynamic rank; None or -1 dims:
    dynamic) and ``dtype``."""
    if shape is None:
        dims = (DYNAMIC_RANK,)
    else:
        dims = tuple(DYNAMIC_DIM if d is None or d == DYNAMIC_DIM else d for d in shape)
        for d in dims:
            if isinstance(d, bool) or not isinstance(d, int) or d < DYNAMIC_DIM:
                raise ValueError(f"Tensor: shape dims must be ints >= 0, or None/-1 for a dynamic dim, got {shape!r}")
    _SLOT.__set__(tensor, _Declared(dims, dtype))
    tensor.__class__ = ShapePlaceholder


def is_dynamic(shape) -> bool:
    return shape is None or any(d is None or d == DYNAMIC_DIM for d in shape)


def declared(tensor) -> _Declared:
    return _SLOT.__get__(tensor, type(tensor))


def accepts(tensor, value) -> tuple[str, object, object] | None:
    """None when ``value`` (a Tensor) fits this declaration, else (what differs, expected, got)."""
    want = declared(tensor) if isinstance(tensor, ShapePlaceholder) else _Declared(tuple(tensor.shape), tensor.dtype)
    if value.dtype is not want.dtype:
        return "type", f"Tensor[{want.dtype}]", f"Tensor[{value.dtype}]"
    if want.shape == (DYNAMIC_RANK,):
        return None
    if len(want.shape) != len(value.shape):
        return "dims", len(want.shape), len(value.shape)
    for w, g in zip(want.shape, value.shape):
        if w != DYNAMIC_DIM and w != g:
            return "shape", w, g
    return None


from .tensor import Tensor  # noqa: E402  (the placeholder is a Tensor; tensor.py imports this module lazily)

_SLOT = Tensor.__dict__["_data"]


class ShapePlaceholder(Tensor):
    """A Tensor that only declares a shape and dtype."""

    __slots__ = ()  # the same layout as Tensor: the _data slot holds the declaration
    _data = property(_no_values)

    @property
    def shape(self) -> tuple:
        return declared(self).shape

    @property
    def dtype(self) -> mstype.Type:
        return declared(self).dtype

    @property
    def ndim(self) -> int:
        return len(declared(self).shape)

    def asnumpy(self):
        _no_values(self)

    def __repr__(self) -> str:
        return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value= <shape only>)"

    __str__ = __repr__
