"""General transforms for ``Dataset.map``: TypeCast, OneHot, Compose, PadEnd, Slice, Mask, RandomApply, ..."""
from __future__ import annotations

import enum
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


class PadEnd(TensorOperation):
    """Pad (or cut) the end of every axis to ``pad_shape`` with ``pad_value`` (default 0, or '' for strings)."""

    def __init__(self, pad_shape, pad_value=None):
        if not isinstance(pad_shape, (list, tuple)) or not all(
                isinstance(s, numbers.Integral) and not isinstance(s, bool) and s >= 0 for s in pad_shape):
            raise TypeError(f"PadEnd: pad_shape must be a list of non-negative ints, got {pad_shape!r}")
        self.pad_shape, self.pad_value = [int(s) for s in pad_shape], pad_value

    def __call__(self, *args):
        arr = _one("PadEnd", args)
        if arr.ndim != len(self.pad_shape):
            raise ValueError(f"PadEnd: pad_shape {self.pad_shape} has {len(self.pad_shape)} axes, the input "
                             f"{arr.ndim}")
        fill = self.pad_value if self.pad_value is not None else ("" if arr.dtype.kind in "US" else 0)
        dtype = np.result_type(arr.dtype, np.asarray(fill).dtype) if arr.dtype.kind in "US" else arr.dtype
        out = np.full(self.pad_shape, fill, dtype=dtype)
        keep = tuple(slice(0, min(d, t)) for d, t in zip(arr.shape, self.pad_shape))
        out[keep] = arr[keep]
        return out


class Concatenate(TensorOperation):
    """``prepend`` + the 1-D input + ``append`` (arrays of the same kind)."""

    def __init__(self, axis=0, prepend=None, append=None):
        if axis not in (0, -1):
            raise ValueError(f"Concatenate: only axis 0 (or -1) of 1-D inputs is supported, got {axis!r}")
        self.axis = axis
        self.prepend = None if prepend is None else np.asarray(prepend)
        self.append = None if append is None else np.asarray(append)

    def __call__(self, *args):
        arr = _one("Concatenate", args)
        parts = [p for p in (self.prepend, arr, self.append) if p is not None]
        if any(p.ndim != 1 for p in parts):
            raise ValueError("Concatenate: the input, prepend and append must be 1-D")
        return np.concatenate(parts)


class Slice(TensorOperation):
    """Index the input with ``slices`` (one per axis: an int, a list of indices, a slice, None or Ellipsis)."""

    def __init__(self, *slices):
        self.slices = tuple(s if not isinstance(s, list) else np.asarray(s) for s in slices)

    def __call__(self, *args):
        arr = _one("Slice", args)
        try:
            return np.asarray(arr[self.slices]).copy()
        except IndexError as exc:
            raise ValueError(f"Slice: {exc}") from None


class Relational(enum.Enum):
    EQ = "=="
    NE = "!="
    GT = ">"
    GE = ">="
    LT = "<"
    LE = "<="


_RELATIONS = {Relational.EQ: np.equal, Relational.NE: np.not_equal, Relational.GT: np.greater,
              Relational.GE: np.greater_equal, Relational.LT: np.less, Relational.LE: np.less_equal}


class Mask(TensorOperation):
    """``input <operator> constant`` element-wise, as ``dtype`` (bool by default)."""

    def __init__(self, operator, constant, dtype=np.bool_):
        if not isinstance(operator, Relational):
            raise TypeError(f"Mask: operator must be a transforms.Relational, got {operator!r}")
        self.operator, self.constant = operator, constant
        self._np = np_dtype("Mask", dtype)

    def __call__(self, *args):
        return _RELATIONS[self.operator](_one("Mask", args), self.constant).astype(self._np)


def _ops(op, transforms):
    if not isinstance(transforms, (list, tuple)) or not transforms or not all(callable(t) for t in transforms):
        raise TypeError(f"{op}: transforms must be a non-empty list of callables")
    return list(transforms)


def _chain(transforms, args):
    for t in transforms:
        out = t(*args)
        args = out if isinstance(out, tuple) else (out,)
    return args if len(args) != 1 else args[0]


class _Random:
    _rng = _rng_key = None

    def _random(self):
        from ..vision.base import RandomMixin
        return RandomMixin._random(self)


class RandomApply(_Random, TensorOperation):
    """Run ``transforms`` in order with probability ``prob``, else pass the input through."""

    def __init__(self, transforms, prob=0.5):
        self.transforms = _ops("RandomApply", transforms)
        if isinstance(prob, bool) or not isinstance(prob, numbers.Real) or not 0 <= prob <= 1:
            raise ValueError(f"RandomApply: prob must be in [0, 1], got {prob!r}")
        self.prob = float(prob)

    def __call__(self, *args):
        if self._random().random() < self.prob:
            return _chain(self.transforms, args)
        return args if len(args) != 1 else args[0]


class RandomChoice(_Random, TensorOperation):
    """Run one of ``transforms``, chosen uniformly."""

    def __init__(self, transforms):
        self.transforms = _ops("RandomChoice", transforms)

    def __call__(self, *args):
        return _chain([self.transforms[int(self._random().integers(len(self.transforms)))]], args)


class RandomOrder(_Random, TensorOperation):
    """Run all ``transforms`` in a random order."""

    def __init__(self, transforms):
        self.transforms = _ops("RandomOrder", transforms)

    def __call__(self, *args):
        order = self._random().permutation(len(self.transforms))
        return _chain([self.transforms[i] for i in order], args)
