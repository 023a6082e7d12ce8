"""Summary operators (``ops.ScalarSummary`` ...): a value is kept, when the op runs, for the next SummaryRecord."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.op import Op, OpError, register
from ..core.tensor import Tensor
from ..core.types import TensorType
from .primitive_classes import Primitive

# (plugin, tag) -> the latest value; SummaryRecord.record takes them (MindSpore keeps the newest one per name too)
_CACHE: dict = {}
_KINDS = {"Scalar": "scalar", "Image": "image", "Tensor": "tensor", "Histogram": "histogram"}


def _check(kind: str, shape) -> None:
    name = f"{kind}Summary"
    if kind == "Scalar" and len(shape) > 1:
        raise OpError(f"For '{name}', the dim of 'value' must be 0 or 1, but got {len(shape)}.")
    if kind == "Image" and len(shape) != 4:
        raise OpError(f"For '{name}', the dim of 'value' must be 4 (NCHW), but got {len(shape)}.")
    if kind in ("Tensor", "Histogram") and len(shape) == 0:
        raise OpError(f"For '{name}', the value should not be empty (a 0-d tensor).")


def _summary_infer(template, value):
    _check(template[0], value.shape)
    return TensorType((), mstype.int32)


def _summary_impl(template, value):
    kind, tag = template
    _check(kind, np.shape(value))  # the eager fast path calls only the impl
    _CACHE[(_KINDS[kind], tag)] = np.array(value, copy=True)
    return np.zeros((), np.int32)


SUMMARY = register(Op("Summary", _summary_impl, _summary_infer, kind="effect", side_effect=True,
                      doc="keep a value for the summary file when the graph runs"))


def take_cached() -> dict:
    """The values summary ops kept since the last call, {(plugin, tag): array}; the cache is emptied."""
    out = dict(_CACHE)
    _CACHE.clear()
    return out


class _Summary(Primitive):
    kind = ""

    def __call__(self, name, value):
        cls = f"{self.kind}Summary"
        if not isinstance(name, str):
            raise TypeError(f"For '{cls}', the 'name' must be str, but got {type(name).__name__}.")
        if not name:
            raise ValueError(f"For '{cls}', the name must be valid string, but got '{name}'.")
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{cls}', the 'value' must be Tensor, but got {type(value).__name__}.")
        # the (kind, tag) template goes first: a side-effect op's first input must not be a tensor
        bind(SUMMARY, ((self.kind, name), value), {})


class ScalarSummary(_Summary):
    """``ops.ScalarSummary()(name, value)``: records a 0-d or 1-element tensor as a scalar summary."""

    kind = "Scalar"


class ImageSummary(_Summary):
    """``ops.ImageSummary()(name, value)``: records an NCHW image batch."""

    kind = "Image"


class TensorSummary(_Summary):
    """``ops.TensorSummary()(name, value)``: records a tensor."""

    kind = "Tensor"


class HistogramSummary(_Summary):
    """``ops.HistogramSummary()(name, value)``: records a tensor's histogram."""

    kind = "Histogram"
