"""mindspore.mint.special: special functions with PyTorch's names."""
from __future__ import annotations

from .. import ops
from ._math import erfc, exp2, expm1, log1p, sinc  # noqa: F401
from ._math import round as round_op  # noqa: F401

__all__ = ["erfc", "exp2", "expm1", "log1p", "log_softmax", "round", "sinc"]


def round(input):  # noqa: A001,A002 - PyTorch's name
    return round_op(input)


def log_softmax(input, dim=None, *, dtype=None):  # noqa: A002
    """log(softmax(input)) along ``dim`` (the last axis when None), in ``dtype`` when given."""
    from ..core.tensor import Tensor
    from .. import dtype as mstype

    x = input if isinstance(input, Tensor) else Tensor(input)
    if dtype is not None:
        x = ops.cast(x, mstype.to_dtype(dtype))
    return ops.log_softmax(x, -1 if dim is None else dim)
