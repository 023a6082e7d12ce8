"""Overflow-status primitive classes used by loss scaling (``ops.FloatStatus``)."""
from __future__ import annotations

from .. import dtype as mstype
from . import functional as F
from .primitive_classes import Primitive


def float_status(x):
    """``[1.]`` when ``x`` holds an inf or a NaN, else ``[0.]`` (float32, shape (1,))."""
    bad = F.logical_not(F.all(F.isfinite(x)))
    return F.reshape(F.cast(bad, mstype.float32), (1,))


class FloatStatus(Primitive):
    """``ops.FloatStatus()(x)``: whether ``x`` overflowed, as MindSpore's GPU kernel reports it: a float32
    tensor of shape (1,) holding 1. if any element is inf or NaN, else 0."""

    def __call__(self, x):
        if not x.dtype.is_float:
            raise TypeError(f"For 'FloatStatus', the input must be a float tensor, but got {x.dtype}.")
        return float_status(x)
