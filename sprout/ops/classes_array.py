"""PascalCase primitive classes for shape, creation and statistics functions (``functional_shape.py``,
``functional_stats.py``)."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from .classes_linalg import _Flag
from .primitive_classes import _simple
from .functional_shape import slice as _slice_fn


def _diag_part(x):
    """The inverse of Diag: a (D + D) tensor's diagonal as shape D."""
    half = x.ndim // 2
    if x.ndim % 2 or tuple(x.shape[:half]) != tuple(x.shape[half:]):
        raise ValueError(f"DiagPart: the input shape must be D + D, got {list(x.shape)}")
    n = int(np.prod(x.shape[:half]))
    flat = F.reshape(x, (n * n,))
    return F.reshape(F.gather(flat, Tensor((np.arange(n) * (n + 1)).astype(np.int32)), 0), tuple(x.shape[:half]))


def _square_sum_all(x, y):
    return F.sum(F.square(x)), F.sum(F.square(y))


def _equal_count(x, y):
    return F.reshape(F.cast(F.sum(F.equal(x, y)), x.dtype), (1,))


def _invert_permutation(x):
    t = x if isinstance(x, (tuple, list)) else x.asnumpy().tolist()
    if sorted(t) != list(range(len(t))):
        raise ValueError(f"InvertPermutation: the input must be a permutation of 0..n-1, got {t}")
    inv = np.argsort(np.asarray(t))
    return tuple(int(i) for i in inv) if isinstance(x, (tuple, list)) else Tensor(inv.astype(x.dtype.np))


def _unravel_index(indices, dims):
    idx, shape = indices.asnumpy(), tuple(dims.asnumpy().tolist())
    if idx.size and (idx.min() < 0 or idx.max() >= int(np.prod(shape))):
        raise ValueError(f"UnravelIndex: indices must be in [0, {int(np.prod(shape))})")
    return Tensor(np.stack(np.unravel_index(idx, shape)).astype(indices.dtype.np))


_STATELESS = {
    "Slice": _slice_fn, "Diag": F.diag, "DiagPart": _diag_part, "Unique": F.unique, "UniqueWithPad": F.unique_with_pad,
    "NonZero": F.nonzero, "Expand": F.expand, "FillV2": lambda shape, value: F.full(
        tuple(shape.asnumpy().tolist()) if isinstance(shape, Tensor) else tuple(shape), value.item()
        if isinstance(value, Tensor) else value, dtype=value.dtype if isinstance(value, Tensor) else None),
    "Eps": F.eps, "ScalarCast": F.scalar_cast, "ScalarToArray": F.scalar_to_array,
    "ScalarToTensor": F.scalar_to_tensor, "TupleToArray": F.tuple_to_array, "ParallelConcat": lambda values: F.concat(
        values, 0), "IdentityN": lambda x: tuple(F.identity(t) for t in x), "TensorShape": lambda x: Tensor(
        np.asarray(x.shape, np.int64)), "SquareSumAll": _square_sum_all, "EqualCount": _equal_count,
    "InvertPermutation": _invert_permutation, "UnravelIndex": _unravel_index, "Bincount": lambda array, size, weights:
    F.bincount(array, None if weights is None else weights, int(size.item() if isinstance(size, Tensor) else size)),
}
for _name, _fn in _STATELESS.items():
    globals()[_name] = _simple(_name, _fn)


class StridedSlice(_Flag):
    defaults = {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0}

    def __call__(self, input_x, begin, end, strides):
        return F.strided_slice(input_x, begin, end, strides, self.begin_mask, self.end_mask, self.ellipsis_mask,
                               self.new_axis_mask, self.shrink_axis_mask)


class ReverseV2(_Flag):
    defaults = {"axis": ()}

    def __call__(self, x):
        return F.flip(x, self.axis)


class ReverseSequence(_Flag):
    defaults = {"seq_dim": 0, "batch_dim": 0}

    def __call__(self, x, seq_lengths):
        return F.reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


class Roll(_Flag):
    defaults = {"shifts": 0, "dims": None}

    def __call__(self, x):
        return F.roll(x, self.shifts, self.dims)


class Meshgrid(_Flag):
    defaults = {"indexing": "xy"}

    def __call__(self, inputs):
        return F.meshgrid(*inputs, indexing=self.indexing)


class DepthToSpace(_Flag):
    defaults = {"block_size": 2}

    def __call__(self, x):
        return F.depth_to_space(x, self.block_size)


class SpaceToDepth(DepthToSpace):
    def __call__(self, x):
        return F.space_to_depth(x, self.block_size)


class ChannelShuffle(_Flag):
    defaults = {"group": 1}

    def __call__(self, x):
        return F.channel_shuffle(x, self.group)


class FillDiagonal(_Flag):
    """The main diagonal of the (last two axes of a 2-D, or all axes of an N-D cube) set to ``fill_value``;
    with ``wrap`` a tall matrix restarts the diagonal every n+1 rows (NumPy's fill_diagonal)."""

    defaults = {"fill_value": 0.0, "wrap": False}

    def __call__(self, x):
        shape = tuple(x.shape)
        mask = np.zeros(shape, bool)
        np.fill_diagonal(mask, True, wrap=self.wrap)
        return F.where(Tensor(mask), F.cast(F.full_like(x, self.fill_value), x.dtype), x)


class _AlignedDiag(_Flag):
    defaults = {"align": "RIGHT_LEFT"}


class MatrixDiagV3(_AlignedDiag):
    def __call__(self, x, k, num_rows, num_cols, padding_value):
        return F.matrix_diag(x, k, int(num_rows.item() if isinstance(num_rows, Tensor) else num_rows),
                             int(num_cols.item() if isinstance(num_cols, Tensor) else num_cols), padding_value,
                             self.align)


class MatrixDiagPartV3(_AlignedDiag):
    def __call__(self, x, k, padding_value):
        return F.matrix_diag_part(x, k, padding_value, self.align)


class MatrixSetDiagV3(_AlignedDiag):
    def __call__(self, x, diagonal, k):
        return F.matrix_set_diag(x, diagonal, k, self.align)


class _Indices(_Flag):
    defaults = {"row": 0, "col": 0, "offset": 0, "dtype": mstype.int32}
    fn = None

    def __call__(self):
        return type(self).fn(self.row, self.col, self.offset, dtype=self.dtype)


class TrilIndices(_Indices):
    fn = staticmethod(F.tril_indices)


class TriuIndices(_Indices):
    fn = staticmethod(F.triu_indices)


class Tril(_Flag):
    defaults = {"diagonal": 0}

    def __call__(self, x):
        return F.tril(x, self.diagonal)


class Triu(Tril):
    def __call__(self, x):
        return F.triu(x, self.diagonal)


class CumProd(_Flag):
    defaults = {"exclusive": False, "reverse": False}

    def __call__(self, x, axis):
        from ..core.dispatch import bind
        from .array_extra import CUMPROD

        return bind(CUMPROD, (x,), {"axis": int(axis) % max(x.ndim, 1), "exclusive": bool(self.exclusive),
                                    "reverse": bool(self.reverse)})


class CumulativeLogsumexp(CumProd):
    def __call__(self, x, axis):
        from ..core.dispatch import bind
        from .array_extra import LOGCUMSUMEXP

        axis = int(axis.item()) if isinstance(axis, Tensor) else int(axis)
        return bind(LOGCUMSUMEXP, (x,), {"axis": axis % max(x.ndim, 1), "exclusive": bool(self.exclusive),
                                         "reverse": bool(self.reverse)})


class Cummax(_Flag):
    defaults = {"axis": 0}

    def __call__(self, x):
        return F.cummax(x, self.axis)


class Cummin(Cummax):
    def __call__(self, x):
        return F.cummin(x, self.axis)


class UniqueConsecutive(_Flag):
    defaults = {"return_inverse": False, "return_counts": False, "dim": None}

    def __call__(self, x):
        return F.unique_consecutive(x, self.return_inverse, self.return_counts, self.dim)


class SearchSorted(_Flag):
    defaults = {"dtype": mstype.int64, "right": False}

    def __call__(self, sorted_sequence, values, sorter=None):
        return F.searchsorted(sorted_sequence, values, out_int32=mstype.to_dtype(self.dtype) is mstype.int32,
                              right=self.right, sorter=sorter)


class _Bound(_Flag):
    defaults = {"out_type": mstype.int32}
    right = False

    def __call__(self, sorted_x, values):
        out = F.searchsorted(sorted_x, values, right=type(self).right)
        return F.cast(out, self.out_type)


class LowerBound(_Bound):
    right = False


class UpperBound(_Bound):
    right = True


class Bucketize(_Flag):
    defaults = {"boundaries": ()}

    def __call__(self, x):
        return F.bucketize(x, list(self.boundaries))


class Histogram(_Flag):
    defaults = {"bins": 100, "min": 0.0, "max": 0.0}

    def __call__(self, x):
        return F.histc(x, self.bins, self.min, self.max)


class HistogramFixedWidth(_Flag):
    """Counts of ``x`` in ``nbins`` equal bins over value_range [lo, hi); values outside go to the end bins."""

    defaults = {"nbins": 100, "dtype": "int32"}

    def __call__(self, x, range):  # noqa: A002 - MindSpore's name
        lo, hi = (float(v) for v in (range.asnumpy() if isinstance(range, Tensor) else range))
        pos = F.floor(F.mul(F.sub(F.cast(x, mstype.float64), lo), self.nbins / (hi - lo)))
        idx = F.cast(F.clamp(pos, 0, self.nbins - 1), mstype.int32)
        counts = F.bincount(F.reshape(idx, (-1,)), None, self.nbins)
        return F.cast(counts, mstype.int32)


class Median(_Flag):
    defaults = {"global_median": False, "axis": 0, "keep_dims": False, "ignore_nan": False}

    def __call__(self, x):
        t = F.reshape(x, (-1,)) if self.global_median else x
        axis = 0 if self.global_median else self.axis
        fn = F.nanmedian if self.ignore_nan else F.median
        values, indices = fn(t, axis, self.keep_dims and not self.global_median)
        return values, indices


class CountNonZero(_Flag):
    defaults = {"dims": None}

    def __call__(self, x):
        return F.count_nonzero(x, self.dims)


class LogSpace(_Flag):
    defaults = {"steps": 10, "base": 10, "dtype": mstype.float32}

    def __call__(self, start, end):
        return F.logspace(start, end, self.steps, self.base, dtype=self.dtype)


class _Window(_Flag):
    defaults = {"periodic": True, "dtype": mstype.float32}
    fn = None

    def __call__(self, window_length):
        return type(self).fn(window_length, self.periodic, dtype=self.dtype)


class BartlettWindow(_Window):
    fn = staticmethod(F.bartlett_window)


class BlackmanWindow(_Window):
    fn = staticmethod(F.blackman_window)


class HammingWindow(_Flag):
    defaults = {"periodic": True, "alpha": 0.54, "beta": 0.46, "dtype": mstype.float32}

    def __call__(self, window_length):
        return F.hamming_window(window_length, self.periodic, self.alpha, self.beta, dtype=self.dtype)


class InTopK(_Flag):
    defaults = {"k": 1}

    def __call__(self, x1, x2):
        return F.intopk(x1, x2, self.k)


class Pack(_Flag):
    defaults = {"axis": 0}

    def __call__(self, x):
        return F.stack(x, self.axis)


class Unpack(Pack):
    def __call__(self, x):
        return F.unstack(x, self.axis)


class DynamicShape(_Flag):
    defaults = {"dtype": 9}

    def __call__(self, x):
        return F.dyn_shape(x)


class SplitV(_Flag):
    defaults = {"size_splits": (), "split_dim": 0, "num_split": 0}

    def __call__(self, x):
        sizes = list(self.size_splits)
        if len(sizes) != self.num_split:
            raise ValueError(f"SplitV: num_split {self.num_split} differs from len(size_splits) {len(sizes)}")
        if -1 in sizes:
            sizes[sizes.index(-1)] = x.shape[self.split_dim] - (sum(sizes) + 1)
        return F.split(x, sizes, self.split_dim)


class ListDiff(_Flag):
    """The values of x not in y (1-D, order kept) and their positions in x."""

    defaults = {"out_idx": mstype.int32}

    def __call__(self, x, y):
        xv, yv = x.asnumpy(), y.asnumpy()
        keep = ~np.isin(xv, yv)
        return Tensor(xv[keep]), Tensor(np.flatnonzero(keep).astype(mstype.to_dtype(self.out_idx).np))


class ReduceStd(_Flag):
    """(std, mean) over ``axis`` (every axis for []), with Bessel's correction when ``unbiased``."""

    defaults = {"axis": (), "unbiased": True, "keep_dims": False}

    def __call__(self, x):
        axis = None if self.axis in ((), []) else self.axis
        return F.std(x, axis, 1 if self.unbiased else 0, self.keep_dims), F.mean(x, axis, self.keep_dims)


__all__ = list(_STATELESS) + [
    "StridedSlice", "ReverseV2", "ReverseSequence", "Roll", "Meshgrid", "DepthToSpace", "SpaceToDepth",
    "ChannelShuffle", "FillDiagonal", "MatrixDiagV3", "MatrixDiagPartV3", "MatrixSetDiagV3", "TrilIndices",
    "TriuIndices", "Tril", "Triu", "CumProd", "CumulativeLogsumexp", "Cummax", "Cummin", "UniqueConsecutive",
    "SearchSorted", "LowerBound", "UpperBound", "Bucketize", "Histogram", "HistogramFixedWidth", "Median",
    "CountNonZero", "LogSpace", "BartlettWindow", "BlackmanWindow", "HammingWindow", "InTopK", "Pack", "Unpack",
    "DynamicShape", "SplitV", "ListDiff", "ReduceStd"]
