"""TensorType: the static description (shape + dtype) of a tensor value."""
from __future__ import annotations

from typing import NamedTuple

from .. import dtype as mstype


class TensorType(NamedTuple):
    """Shape and dtype of a tensor. A dimension may be ``None`` when it is symbolic (dynamic)."""

    shape: tuple
    dtype: mstype.Type

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __str__(self) -> str:
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype.name.lower()}[{dims}]"


def type_of(value) -> TensorType | object:
    """The TensorType of a Tensor-like value; Python scalars are returned unchanged."""
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(value, "dtype"):
        dt = value.dtype
        if not isinstance(dt, mstype.Type):
            dt = mstype.from_numpy(dt)
        return TensorType(tuple(shape), dt)
    return value
