"""PascalCase classes CompareAndBitpack, DataFormatDimMap, DataFormatVecPermute (composites over elementwise,
reduction and gather primitives), NoRepeatNGram and RaggedRange (ops/misc_kernels2.py)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .classes_linalg import _Flag
from .classes_misc2 import _bind, _tensor
from .misc_kernels2 import CONFUSION_MATRIX, NO_REPEAT_NGRAM, RAGGED_RANGE

_FORMATS = ("NHWC", "NCHW")


def _formats(obj, op: str):
    for name in ("src_format", "dst_format"):
        v = getattr(obj, name)
        if not isinstance(v, str) or v not in _FORMATS:
            raise ValueError(f"For '{op}', the '{name}' must be str and must be in '{list(_FORMATS)}', but got "
                             f"'{v}'.")


class CompareAndBitpack(_Flag):
    """``CompareAndBitpack()(x, threshold)``: x > threshold packed 8 per uint8 along the last axis, the first element
    in the most significant bit (the least significant for bool x, as MindSpore's CPU kernel); the last axis must be
    a multiple of 8."""

    def __call__(self, x, threshold):
        op = "CompareAndBitpack"
        _tensor(x, "x", op)
        _tensor(threshold, "threshold", op)
        if x.dtype != threshold.dtype:
            raise TypeError(f"For '{op}', 'x' and 'threshold' must have one dtype, but got {x.dtype} and "
                            f"{threshold.dtype}.")
        if threshold.ndim != 0:
            raise ValueError(f"For '{op}', the threshold's rank must be 0, but got {threshold.ndim}.")
        if x.ndim == 0 or x.shape[-1] % 8:
            raise ValueError(f"For '{op}', the innermost dimension of 'x' must be a multiple of 8, but got shape "
                             f"{list(x.shape)}.")
        bits = F.cast(F.greater(x, threshold), mstype.int32)
        bits = F.reshape(bits, tuple(x.shape[:-1]) + (x.shape[-1] // 8, 8))
        # MindSpore's CPU kernel packs bool input first element LEAST significant (other dtypes: most significant)
        order = [1, 2, 4, 8, 16, 32, 64, 128] if x.dtype == mstype.bool_ else [128, 64, 32, 16, 8, 4, 2, 1]
        weights = Tensor(np.array(order, np.int32))
        return F.cast(F.sum(F.mul(bits, weights), -1), mstype.uint8)


class DataFormatDimMap(_Flag):
    """``DataFormatDimMap(src_format='NHWC', dst_format='NCHW')(input_x)``: x in [-4, 4) -> src_format.index(
    dst_format[x % 4]), what MindSpore's CPU kernel returns (NHWC -> NCHW maps 1 to 3; TensorFlow's op, which MindSpore
    cites, maps an axis of the source layout to its position in the destination layout, 1 to 2)."""

    defaults = {"src_format": "NHWC", "dst_format": "NCHW"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _formats(self, "DataFormatDimMap")

    def __call__(self, input_x):
        op = "DataFormatDimMap"
        _tensor(input_x, "input_x", op)
        if input_x.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{op}', the 'input_x' must be an int32 or int64 Tensor, but got {input_x.dtype}.")
        table = Tensor(np.array([self.src_format.index(ch) for ch in self.dst_format], input_x.dtype.np))
        return F.gather(table, F.floor_mod(input_x, 4), 0)


class DataFormatVecPermute(_Flag):
    """``DataFormatVecPermute(src_format='NHWC', dst_format='NCHW')(input_x)``: the rows of a (4,) or (4, 2) vector
    given in the source layout, reordered to the destination layout."""

    defaults = {"src_format": "NHWC", "dst_format": "NCHW"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _formats(self, "DataFormatVecPermute")

    def __call__(self, input_x):
        op = "DataFormatVecPermute"
        _tensor(input_x, "input_x", op)
        if input_x.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{op}', the input argument[x] must be an int32 or int64 Tensor, but got "
                            f"{input_x.dtype}.")
        if tuple(input_x.shape) not in ((4,), (4, 2)):
            raise ValueError(f"For '{op}', input shape must be (4, ) or (4, 2), but got {list(input_x.shape)}.")
        order = Tensor(np.array([self.src_format.index(ch) for ch in self.dst_format], np.int64))
        return F.gather(input_x, order, 0)


class NoRepeatNGram(_Flag):
    """``NoRepeatNGram(ngram_size=1)(state_seq, log_probs)``: log_probs with the lowest float at every token that
    would repeat an n-gram of the sequence so far."""

    defaults = {"ngram_size": 1}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        n = self.ngram_size
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"For 'NoRepeatNGram', the 'ngram_size' must be an int, but got {type(n).__name__}.")
        if n <= 0:
            raise ValueError(f"For 'NoRepeatNGram', the 'ngram_size' must be positive, but got {n}.")

    def __call__(self, state_seq, log_probs):
        op = "NoRepeatNGram"
        return _bind(NO_REPEAT_NGRAM, (_tensor(state_seq, "state_seq", op), _tensor(log_probs, "log_probs", op)),
                     {"ngram_size": self.ngram_size})


class RaggedRange(_Flag):
    """``RaggedRange(Tsplits)(starts, limits, deltas)`` -> (rt_nested_splits, rt_dense_values): the ranges
    [start, limit) by delta, concatenated, and the offsets where each begins."""

    defaults = {"Tsplits": None}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.Tsplits not in (mstype.int32, mstype.int64):
            raise TypeError(f"For 'RaggedRange', the 'Tsplits' must be mindspore.int32 or mindspore.int64, but got "
                            f"{self.Tsplits}.")

    def __call__(self, starts, limits, deltas):
        args = tuple(_tensor(t, n, "RaggedRange") for t, n in ((starts, "starts"), (limits, "limits"),
                                                              (deltas, "deltas")))
        return _bind(RAGGED_RANGE, args, {"Tsplits": self.Tsplits})


class ConfusionMatrix(_Flag):
    """``ConfusionMatrix(num_classes, dtype='int32')(labels, predictions, weights=None)``: the (num_classes,
    num_classes) matrix adding weights[i] (or 1) at (labels[i], predictions[i]); values outside [0, num_classes)
    raise ValueError. Differentiable in ``weights``."""

    defaults = {"num_classes": None, "dtype": "int32"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "ConfusionMatrix"
        if isinstance(self.num_classes, bool) or not isinstance(self.num_classes, int):
            raise TypeError(f"For '{op}', the type of 'num_classes' should be 'int', but got type "
                            f"'{type(self.num_classes).__name__}'.")
        if self.num_classes <= 0:
            raise ValueError(f"For '{op}', the 'num_classes' must be positive, but got {self.num_classes}.")
        if not isinstance(self.dtype, str):
            raise TypeError(f"For '{op}', the type of 'dtype' should be 'str', but got type "
                            f"'{type(self.dtype).__name__}'.")
        try:
            self._dtype = mstype.to_dtype(self.dtype)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"For '{op}', the 'dtype' {self.dtype!r} is not a MindSpore dtype name.") from exc

    def __call__(self, labels, predictions, weights=None):
        op = "ConfusionMatrix"
        args = (_tensor(labels, "labels", op), _tensor(predictions, "predictions", op))
        if weights is not None:
            args += (_tensor(weights, "weights", op),)
        return _bind(CONFUSION_MATRIX, args, {"num_classes": self.num_classes, "dtype": self._dtype})


__all__ = ["CompareAndBitpack", "DataFormatDimMap", "DataFormatVecPermute", "NoRepeatNGram", "RaggedRange",
           "ConfusionMatrix"]
