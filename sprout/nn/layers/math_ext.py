"""Math cells: ReduceLogSumExp, Range, MatMul (NumPy-style broadcasting, 1-D operands) and Moments."""
from __future__ import annotations

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Tensor
from .. import _check as V
from ..cell import Cell


class ReduceLogSumExp(Cell):
    """log(sum(exp(x), axis)), stabilised by the maximum of x."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        V.type_of(axis, (int, list, tuple), "axis", self.cls_name)
        V.type_of(keep_dims, bool, "keep_dims", self.cls_name)
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        top = ops.stop_gradient(ops.amax(x))  # MindSpore subtracts the global maximum
        total = ops.sum(ops.exp(ops.sub(x, top)), self.axis if not isinstance(self.axis, list)
                        else tuple(self.axis), self.keep_dims)
        return ops.add(ops.log(total), top)


class Range(Cell):
    """A constant 1-D tensor ``arange(start, limit, delta)`` (Float32 if any argument is a float, else Int32)."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ValueError(f"For '{self.cls_name}', the 'delta' can not be zero.")
        data = np.arange(start, limit, delta) if limit is not None else np.arange(start, step=delta)
        dtype = mstype.float32 if data.dtype == np.float64 else mstype.int32
        self.result_tensor = Tensor(data.astype(dtype.np))

    def construct(self):
        return self.result_tensor


class MatMul(Cell):
    """x1 @ x2 with batch broadcasting; a 1-D operand is a vector (two vectors give their dot product)."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        self.transpose_x1 = V.type_of(transpose_x1, bool, "transpose_x1", self.cls_name)
        self.transpose_x2 = V.type_of(transpose_x2, bool, "transpose_x2", self.cls_name)

    def construct(self, x1, x2):
        d1, d2 = x1.ndim, x2.ndim
        k1 = x1.shape[-2] if self.transpose_x1 and d1 > 1 else x1.shape[-1]
        k2 = x2.shape[-1] if self.transpose_x2 and d2 > 1 else x2.shape[-2 if d2 > 1 else -1]
        if k1 != k2:
            raise ValueError(f"For '{self.cls_name}', the inner dimensions of x1 {list(x1.shape)} and x2 "
                             f"{list(x2.shape)} (transpose_x1={self.transpose_x1}, transpose_x2={self.transpose_x2}) "
                             "must be equal.")
        if d1 == 1 and d2 == 1:
            return ops.sum(ops.mul(x1, x2), -1)
        a = ops.expand_dims(x1, 0) if d1 == 1 else x1
        b = ops.expand_dims(x2, 1) if d2 == 1 else x2
        out = ops.matmul(a, b, transpose_a=self.transpose_x1 and d1 > 1, transpose_b=self.transpose_x2 and d2 > 1)
        if d1 == 1:
            out = ops.squeeze(out, -2)
        if d2 == 1:
            out = ops.squeeze(out, -1)
        return out


class Moments(Cell):
    """(mean, variance) over ``axis`` (None: every axis); float16 inputs are computed in float32."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        axis = () if axis is None else axis
        if isinstance(axis, tuple):
            for i, item in enumerate(axis):
                V.type_of(item, int, f"axis[{i}]", self.cls_name)
        self.axis = V.type_of(axis, (int, tuple), "axis", self.cls_name)
        self.keep_dims = V.type_of(False if keep_dims is None else keep_dims, bool, "keep_dims", self.cls_name)

    def construct(self, x):
        if x.dtype not in (mstype.float16, mstype.float32):
            raise TypeError(f"For '{self.cls_name}', the dtype of 'input x' must be float16 or float32, but got "
                            f"{x.dtype}.")
        dtype = x.dtype
        if dtype is mstype.float16:
            x = ops.cast(x, mstype.float32)
        axis = tuple(range(x.ndim)) if self.axis == () else self.axis
        mean = ops.mean(x, axis, True)
        var = ops.mean(ops.square(ops.sub(x, ops.stop_gradient(mean))), axis, True)
        if not self.keep_dims:
            mean = ops.squeeze(mean, self.axis) if self.axis != () else ops.squeeze(mean)
            var = ops.squeeze(var, self.axis) if self.axis != () else ops.squeeze(var)
        if dtype is mstype.float16:
            mean, var = ops.cast(mean, dtype), ops.cast(var, dtype)
        return mean, var
