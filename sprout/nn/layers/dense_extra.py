"""BiDense (bilinear layer), TimeDistributed, EmbeddingLookup and MultiFieldEmbeddingLookup."""
from __future__ import annotations

import math

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...common.initializer import Uniform, initializer
from ...core.tensor import Parameter, Tensor
from .. import _check as V
from ..cell import Cell
from .basic_ext import ClipByNorm


def _tensor_arg(cell: Cell, x, name: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{cell.cls_name}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


class BiDense(Cell):
    """out[..., o] = sum_ij x1[..., i] W[o, i, j] x2[..., j] + b[o]; W (out, in1, in2) and b start
    Uniform(1 / sqrt(in1_channels)) unless initialisers are given."""

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 dtype=mstype.float32):
        super().__init__()
        for name, v in (("in1_channels", in1_channels), ("in2_channels", in2_channels),
                        ("out_channels", out_channels)):
            V.positive_int(v, name, self.cls_name)
        self.has_bias = V.bool_value(has_bias, "has_bias", self.cls_name)
        self.in1_channels, self.in2_channels, self.out_channels = in1_channels, in2_channels, out_channels
        bound = 1 / math.sqrt(in1_channels)
        shape = (out_channels, in1_channels, in2_channels)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != shape:
            raise ValueError(f"For '{self.cls_name}', 'weight_init' must have shape {shape} (out_channels, "
                             f"in1_channels, in2_channels), but got {tuple(weight_init.shape)}.")
        self.weight = Parameter(initializer(Uniform(bound) if weight_init is None else weight_init, shape,
                                            dtype=dtype), name="weight")
        if has_bias:
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise ValueError(f"For '{self.cls_name}', 'bias_init' must have shape ({out_channels},), "
                                 f"but got {tuple(bias_init.shape)}.")
            self.bias = Parameter(initializer(Uniform(bound) if bias_init is None else bias_init, [out_channels],
                                              dtype=dtype), name="bias")

    def construct(self, input1, input2):
        _tensor_arg(self, input1, "input1")
        _tensor_arg(self, input2, "input2")
        s1, s2 = tuple(input1.shape), tuple(input2.shape)
        if not s1 or s1[-1] != self.in1_channels:
            raise ValueError(f"For '{self.cls_name}', the last dimension of 'input1' must be in1_channels "
                             f"({self.in1_channels}), but got shape {s1}.")
        if not s2 or s2[-1] != self.in2_channels:
            raise ValueError(f"For '{self.cls_name}', the last dimension of 'input2' must be in2_channels "
                             f"({self.in2_channels}), but got shape {s2}.")
        if s1[:-1] != s2[:-1]:
            raise ValueError(f"For '{self.cls_name}', 'input1' and 'input2' must have the same leading dimensions, "
                             f"but got shapes {s1} and {s2}.")
        x1 = ops.reshape(input1, (-1, self.in1_channels))
        x2 = ops.reshape(input2, (-1, self.in2_channels))
        # (in1, out * in2): x1 @ W mixes the first input, the product with x2 summed over in2 the second
        w = ops.reshape(ops.transpose(self.weight, (1, 0, 2)), (self.in1_channels, -1))
        mixed = ops.reshape(ops.matmul(x1, w), (-1, self.out_channels, self.in2_channels))
        out = ops.sum(ops.mul(mixed, ops.expand_dims(x2, 1)), -1)
        if self.has_bias:
            out = ops.add(out, self.bias)
        return ops.reshape(out, s1[:-1] + (self.out_channels,))

    def extend_repr(self) -> str:
        s = f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, output_channels={self.out_channels}"
        return s + (f", has_bias={self.has_bias}" if self.has_bias else "")


def _move(perm: tuple, src: int, dst: int) -> tuple:
    """``perm`` with the entry at ``src`` moved to position ``dst``."""
    rest = perm[:src] + perm[src + 1:]
    return rest[:dst] + (perm[src],) + rest[dst:]


class TimeDistributed(Cell):
    """Apply ``layer`` to every slice along ``time_axis`` and stack the results on that axis. With
    ``reshape_with_axis`` the time axis is first merged into that axis so the layer runs once over all slices."""

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        from ...ops.primitive import Primitive

        if not isinstance(layer, (Cell, Primitive)):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be Cell or Primitive instance, "
                            f"but got type: {type(layer).__name__}.")
        super().__init__()
        V.type_of(time_axis, int, "time_axis", self.cls_name)
        if reshape_with_axis is not None:
            V.type_of(reshape_with_axis, int, "reshape_with_axis", self.cls_name)
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def _result(self, y):
        if not isinstance(y, Tensor):
            raise TypeError(f"For '{self.cls_name}', the inputs and outputs must be a Tensor.")
        return y

    def construct(self, inputs):
        if not isinstance(inputs, Tensor):
            raise TypeError(f"For '{self.cls_name}', the inputs and outputs must be a Tensor.")
        nd = inputs.ndim
        if nd < 3:
            raise ValueError(f"For '{self.cls_name}', the inputs shape must be at least 3D, but got {nd}.")
        time = self.time_axis % nd
        if self.reshape_with_axis is None:
            ys = [self._result(self.layer(x)) for x in ops.unstack(inputs, time)]
            if time > ys[0].ndim:
                raise ValueError(f"For '{self.cls_name}', the value of 'time_axis' must be in range of "
                                 f"[{-ys[0].ndim - 1}, {ys[0].ndim}], but got {time}.")
            return ops.stack(ys, time)
        merge = self.reshape_with_axis % nd
        if merge == time:
            raise ValueError(f"For '{self.cls_name}', 'reshape_with_axis' must differ from 'time_axis', "
                             f"but both are axis {time}.")
        # bring the time axis next to the merge axis (after it, or before it when it is the last axis), fold both
        dst = nd - 2 if merge == nd - 1 else (merge + 1 if time > merge else merge - 1)
        pos = min(dst, merge)
        perm = _move(tuple(range(nd)), time, dst)
        x = ops.transpose(inputs, perm)
        shape = tuple(x.shape)
        y = self._result(self.layer(ops.reshape(x, shape[:pos] + (-1,) + shape[pos + 2:])))
        ys = tuple(y.shape)
        if pos >= len(ys) or ys[pos] != shape[pos] * shape[pos + 1]:
            raise ValueError(f"For '{self.cls_name}', 'reshape_with_axis' is invalid in the input and output: the "
                             f"layer changed the merged axis {pos} ({shape[pos] * shape[pos + 1]} -> "
                             f"{ys[pos] if pos < len(ys) else 'missing'}); try without 'reshape_with_axis'.")
        return ops.reshape(y, ys[:pos] + shape[pos:pos + 2] + ys[pos + 1:])


_SLICE_MODES = ("batch_slice", "field_slice", "table_row_slice", "table_column_slice")


class EmbeddingLookup(Cell):
    """Rows of ``embedding_table`` (vocab_size, embedding_size) at ``indices``. With target 'CPU' an index outside
    [0, vocab_size) gives a zero row; with 'DEVICE' it is an error. ``max_norm`` clips each looked-up vector to that
    L2 norm. ``slice_mode``/``manual_shapes`` only choose how the table is sharded across devices in auto-parallel
    mode; in one process they do not change the result."""

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU", slice_mode="batch_slice",
                 manual_shapes=None, max_norm=None, sparse=True, dtype=mstype.float32):
        super().__init__()
        V.bool_value(sparse, "sparse", self.cls_name)
        self.vocab_size = V.positive_int(vocab_size, "vocab_size", self.cls_name)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For '{self.cls_name}', the 'target' must be str and must be in ['CPU', 'DEVICE'], "
                             f"but got {target!r}.")
        if not sparse and target == "CPU":
            raise ValueError(f"For '{self.cls_name}', 'sparse' must be True when 'target' is \"CPU\", "
                             f"but got 'sparse': {sparse} and 'target': {target}")
        V.one_of(slice_mode, _SLICE_MODES, "slice_mode", self.cls_name)
        if manual_shapes is not None and not isinstance(manual_shapes, tuple):
            raise TypeError(f"For '{self.cls_name}', the type of 'manual_shapes' must be tuple(int), "
                            f"but got {type(manual_shapes).__name__}.")
        self.embedding_size = V.positive_int(embedding_size, "embedding_size", self.cls_name)
        self.target, self.sparse, self.slice_mode = target, sparse, slice_mode
        self.embedding_table = Parameter(initializer(param_init, [self.vocab_size, self.embedding_size],
                                                     dtype=dtype), name="embedding_table")
        self.max_norm = None
        if max_norm is not None:
            self.max_norm = V.float_value(max_norm, "max_norm", self.cls_name, 0, low_open=True)

    def _lookup(self, indices):
        if self.target == "CPU":
            idx = ops.cast(indices, mstype.int32) if indices.dtype != mstype.int32 else indices
            valid = ops.logical_and(ops.ge(idx, 0), ops.lt(idx, self.vocab_size))
            rows = ops.gather(self.embedding_table, ops.select(valid, idx, ops.zeros_like(idx)), 0)
            out = ops.mul(rows, ops.expand_dims(ops.cast(valid, rows.dtype), -1))
        else:
            out = ops.gather(self.embedding_table, indices, 0)
        if self.max_norm is not None:
            axis = tuple(range(indices.ndim, out.ndim))
            out = ClipByNorm(axis)(out, Tensor(np.float32(self.max_norm)))
        return out

    def construct(self, indices):
        return self._lookup(indices)


_OPERATORS = ("SUM", "MAX", "MEAN")


def _check_2d(cell: Cell, x, name: str, dtypes) -> None:
    _tensor_arg(cell, x, name)
    if x.ndim != 2:
        raise ValueError(f"For '{cell.cls_name}', the dimension of '{name}' must be 2, but got {x.ndim}.")
    if x.dtype not in dtypes:
        raise TypeError(f"For '{cell.cls_name}', the dtype of '{name}' must be in {[str(d) for d in dtypes]}, "
                        f"but got {x.dtype}.")


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Look up ``input_indices`` (batch, n), weight each row by ``input_values`` and merge the rows of each field
    (``field_ids``) with ``operator`` SUM, MAX or MEAN -> (batch, field_size, embedding_size). A field with no
    non-zero value gives zeros; in MAX a row whose value is 0 does not take part."""

    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", feature_num_list=None, max_norm=None, sparse=True, operator="SUM",
                 dtype=mstype.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm,
                         sparse, dtype=dtype)
        self.field_size = V.positive_int(field_size, "field_size", self.cls_name)
        self.operator = V.one_of(operator, _OPERATORS, "operator", self.cls_name)

    def construct(self, input_indices, input_values, field_ids):
        _check_2d(self, input_indices, "input_indices", (mstype.int32, mstype.int64))
        _check_2d(self, input_values, "input_values", (mstype.float32,))
        _check_2d(self, field_ids, "field_ids", (mstype.int32,))
        batch = input_indices.shape[0]
        segments = batch * self.field_size
        offsets = ops.reshape(ops.arange(0, segments, self.field_size, dtype=mstype.int32), (batch, 1))
        fields = ops.reshape(ops.add(field_ids, offsets), (-1,))
        rows = self._lookup(input_indices)
        weights = ops.expand_dims(input_values, -1)
        emb = ops.reshape(ops.mul(weights, rows), (-1, self.embedding_size))
        magnitude = ops.reshape(ops.abs(input_values), (-1,))
        if self.operator == "MAX":
            absent = ops.broadcast_to(ops.equal(ops.reshape(weights, (-1, 1)), 0), tuple(emb.shape))
            emb = ops.select(absent, ops.full_like(emb, -3.402823466e38), emb)  # rows of weight 0 never win
            merged = ops.unsorted_segment_max(emb, fields, segments)
            present = ops.ne(ops.expand_dims(ops.unsorted_segment_sum(magnitude, fields, segments), -1), 0)
            merged = ops.select(ops.broadcast_to(present, tuple(merged.shape)), merged, ops.zeros_like(merged))
        else:
            merged = ops.unsorted_segment_sum(emb, fields, segments)
            if self.operator == "MEAN":
                count = ops.expand_dims(ops.unsorted_segment_sum(magnitude, fields, segments), -1)
                safe = ops.select(ops.equal(count, 0), ops.ones_like(count), count)
                merged = ops.select(ops.equal(count, 0), ops.zeros_like(merged), ops.div(merged, safe))
        return ops.reshape(merged, (batch, self.field_size, -1))
