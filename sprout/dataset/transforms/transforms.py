"""General data transforms for ``Dataset.map``: TypeCast, OneHot, Compose, Duplicate, Fill."""
from __future__ import annotations

import numbers

import numpy as np

from .._checks import check_int, np_dtype, to_array


class TensorOperation:
    """Base of sprout's transforms: a callable taking and returning NumPy arrays."""

    def __call__(self, *args):
        raise NotImplementedError

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({fields})"


def _one(op: str, args) -> np.ndarray:
    if len(args) != 1:
        raise TypeError(f"{op}: takes one column, got {len(args)}")
    return to_array(op, args[0])


class TypeCast(TensorOperation):
    """Cast to ``data_type`` (a sprout/MindSpore dtype such as ``ms.int32``, or a NumPy dtype)."""

    def __init__(self, data_type):
        self.data_type = data_type
        self._np = np_dtype("TypeCast", data_type)

    def __call__(self, *args):
        return _one("TypeCast", args).astype(self._np)


class OneHot(TensorOperation):
    """One-hot encode integer labels into a trailing axis of ``num_classes``; with ``smoothing_rate`` s the
    result is ``(1 - s) * onehot + s / num_classes`` (float64), as in MindSpore."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        self.num_classes = check_int("OneHot", "num_classes", num_classes, low=1)
        if not isinstance(smoothing_rate, numbers.Real) or not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"OneHot: smoothing_rate must be a float in [0, 1], got {smoothing_rate!r}")
        self.smoothing_rate = float(smoothing_rate)

    def __call__(self, *args):
        labels = _one("OneHot", args)
        if labels.dtype.kind not in "iu":
            raise TypeError(f"OneHot: labels must be integers, got dtype {labels.dtype}")
        if labels.size and (labels.min() < 0 or labels.max() >= self.num_classes):
            raise ValueError(f"OneHot: labels must be in [0, {self.num_classes}), got values in "
                             f"[{labels.min()}, {labels.max()}]")
        hot = (labels[..., None] == np.arange(self.num_classes)).astype(labels.dtype)
        if self.smoothing_rate:
            return hot * (1.0 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
        return hot


class Compose(TensorOperation):
    """Run ``transforms`` in order; each result (a tuple spreads over arguments) feeds the next."""

    def __init__(self, transforms):
        if not isinstance(transforms, (list, tuple)) or not transforms:
            raise ValueError("Compose: transforms must be a non-empty list of callables")
        for t in transforms:
            if not callable(t):
                raise TypeError(f"Compose: every transform must be callable, got {type(t).__name__}")
        self.transforms = list(transforms)

    def __call__(self, *args):
        for t in self.transforms:
            out = t(*args)
            args = out if isinstance(out, tuple) else (out,)
        return args if len(args) != 1 else args[0]


class Duplicate(TensorOperation):
    """Return the column twice (map it with two output_columns)."""

    def __call__(self, *args):
        arr = _one("Duplicate", args)
        return arr, arr.copy()


class Fill(TensorOperation):
    """An array like the input, every element set to ``fill_value``."""

    def __init__(self, fill_value):
        if not isinstance(fill_value, (numbers.Number, str, bytes, np.generic)):
            raise TypeError(f"Fill: fill_value must be a scalar, got {type(fill_value).__name__}")
        self.fill_value = fill_value

    def __call__(self, *args):
        arr = _one("Fill", args)
        return np.full_like(arr, self.fill_value)
