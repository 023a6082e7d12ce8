"""PascalCase classes AccumulateNV2, Fills, LogSoftmaxExt and BatchToSpaceNDV2: MindSpore's deprecated or
Ascend-only spellings of addn, fill, log_softmax (with mint's implicit axis and a dtype) and batch_to_space_nd."""
from __future__ import annotations

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from . import functional_image as FI
from .classes_linalg import _Flag
from .classes_misc2 import _constant, _tensor


def implicit_softmax_dim(x) -> int:
    """The axis a softmax without ``dim`` takes (PyTorch's legacy rule, mint's): 0 for 0-, 1- and 3-D, else 1."""
    return 0 if x.ndim in (0, 1, 3) else 1


class AccumulateNV2(_Flag):
    """``AccumulateNV2()(inputs)``: the element-wise sum of a list or tuple of tensors (ops.addn)."""

    def __call__(self, inputs):
        op = "AccumulateNV2"
        if not isinstance(inputs, (list, tuple)) or not inputs:
            raise TypeError(f"For '{op}', the 'inputs' must be a non-empty list or tuple of Tensors, but got "
                            f"{inputs!r}.")
        first = _tensor(inputs[0], "inputs[0]", op)
        for i, t in enumerate(inputs):
            _tensor(t, f"inputs[{i}]", op)
            if t.dtype != first.dtype or tuple(t.shape) != tuple(first.shape):
                raise ValueError(f"For '{op}', every input must have inputs[0]'s dtype and shape {first.dtype}"
                                 f"{list(first.shape)}, but inputs[{i}] is {t.dtype}{list(t.shape)}.")
        return F.addn(list(inputs))


class Fills(_Flag):
    """``Fills()(x, value)``: a tensor of x's shape and dtype filled with ``value`` (a number or a 0-D Tensor)."""

    def __call__(self, x, value):
        op = "Fills"
        _tensor(x, "x", op)
        if isinstance(value, Tensor):
            if value.ndim != 0:
                raise ValueError(f"For '{op}', the 'value' must be a 0-D Tensor, but got shape {list(value.shape)}.")
            return F.add(F.zeros_like(x), F.cast(value, x.dtype))
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"For '{op}', the 'value' must be a number or a 0-D Tensor, but got "
                            f"{type(value).__name__}.")
        return F.fill(x.dtype, tuple(x.shape), value)


class LogSoftmaxExt(_Flag):
    """``LogSoftmaxExt()(input, dim=None, dtype=None)``: log_softmax along ``dim`` (None: mint's implicit axis) after
    casting to ``dtype`` when given."""

    def __call__(self, input, dim=None, dtype=None):  # noqa: A002 - MindSpore's argument name
        op = "LogSoftmaxExt"
        x = _tensor(input, "input", op)
        if dtype is not None:
            x = F.cast(x, mstype.to_dtype(dtype))
        if dim is None:
            dim = implicit_softmax_dim(x)
        if isinstance(dim, bool) or not isinstance(dim, int):
            raise TypeError(f"For '{op}', the 'dim' must be an int, but got {type(dim).__name__}.")
        if not -max(x.ndim, 1) <= dim < max(x.ndim, 1):
            raise ValueError(f"For '{op}', the 'dim' must be in [{-max(x.ndim, 1)}, {max(x.ndim, 1)}), but got {dim}.")
        return F.log_softmax(x, dim)


class BatchToSpaceNDV2(_Flag):
    """``BatchToSpaceNDV2()(input_x, block_shape, crops)``: BatchToSpaceND with the block shape and crops as
    (constant) Tensors or sequences."""

    def __call__(self, input_x, block_shape, crops):
        op = "BatchToSpaceNDV2"
        x = _tensor(input_x, "input_x", op)
        block = _constant(block_shape, "block_shape", op) if isinstance(block_shape, Tensor) else block_shape
        block = [int(b) for b in (block.reshape(-1) if hasattr(block, "reshape") else
                                  (block if isinstance(block, (list, tuple)) else [block]))]
        crop = _constant(crops, "crops", op).tolist() if isinstance(crops, Tensor) else crops
        if any(b < 1 for b in block):
            raise ValueError(f"For '{op}', every 'block_shape' value must be >= 1, but got {block}.")
        if len(crop) != len(block) or any(len(c) != 2 or min(c) < 0 for c in crop):
            raise ValueError(f"For '{op}', the 'crops' must hold {len(block)} non-negative (begin, end) pairs, but got "
                             f"{crop}.")
        if x.ndim < len(block) + 1:
            raise ValueError(f"For '{op}', the input must have at least {len(block) + 1} dimensions, but got "
                             f"{x.ndim}.")
        return FI.batch_to_space_nd(x, block, crop)


__all__ = ["AccumulateNV2", "Fills", "LogSoftmaxExt", "BatchToSpaceNDV2"]
