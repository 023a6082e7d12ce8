"""bfloat16 arithmetic: an op touching bfloat16 runs its kernel in float32 and rounds each result once.

NumPy has no bfloat16; ``ml_dtypes.bfloat16`` stores it, but its own kernels round after every step (a sum
of 100000 ones is 256) and many NumPy functions (einsum, BLAS matmul) reject it. So every op whose input,
output or dtype attribute is bfloat16 runs a *lowered* variant of its record: bfloat16 inputs are widened
to float32 (exact), a bfloat16 dtype attribute becomes float32, the op's own kernel runs, and each result
is cast to the dtype the op's ``infer`` gives (round to nearest even, once). This is how MindSpore's
Ascend/GPU kernels treat bfloat16 (float32 accumulation); its CPU kernels reject most bfloat16 ops.

Eager dispatch takes the lowered route only after the first bfloat16 value exists (``active``), so a
process that never uses bfloat16 pays nothing; graph building picks the variant from the node's types.
"""
from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .. import dtype as mstype
from . import float8 as _float8
from .op import Op
from .types import TensorType, type_of

BF16: np.dtype | None = None  # set by activate() when the first bfloat16 value exists (ml_dtypes is imported then)
_BF16_NUM = -1  # BF16.num: also matches a byte-swapped bfloat16 dtype, which is a different dtype object
_NO_KERNEL: dict = {}  # NumPy dtype num -> the 8-bit float dtype stored that way: no op takes it (core/float8.py)
_F32 = np.dtype(np.float32)
# kinds whose kernels keep their own dtype handling: control bodies run lowered nodes themselves, state
# writes and collectives work on the stored buffers
_KEEP_KINDS = ("control", "effect", "collective")
_variants: dict[int, Op] = {}


def activate() -> None:
    """Eager dispatch turns the bfloat16 route on: learn the storage dtype (imported by then)."""
    global BF16, _BF16_NUM
    BF16 = mstype.bfloat16.np
    _BF16_NUM = BF16.num
    for t in mstype.storage_only_types:
        _NO_KERNEL[t.np.num] = t


def lowerable(op: Op) -> bool:
    return not (op.kind in _KEEP_KINDS or op.side_effect or op.residual_vjp is not None
                or (op.extra and op.extra.get("mutates")))


def touches(args: tuple, attrs: dict) -> bool:
    """An argument array is bfloat16 or an 8-bit float, or an attribute is one of those dtypes (``route``)."""
    for a in args:
        a = getattr(a, "_data", a)  # a Tensor's array
        if a.__class__ is np.ndarray and (a.dtype.num == _BF16_NUM or a.dtype.num in _NO_KERNEL):
            return True
    if attrs:
        for v in attrs.values():
            if v is mstype.bfloat16 or v in mstype.storage_only_types:
                return True
    return False


def route(op: Op, args: tuple, attrs: dict) -> Op:
    """The record to run for a call ``touches`` flagged: the bfloat16 variant, the op itself (kinds that keep their
    dtypes), or a TypeError for an 8-bit float operand or dtype attribute, as MindSpore's CPU kernels refuse them."""
    for a in args:
        a = getattr(a, "_data", a)
        if a.__class__ is np.ndarray and a.dtype.num in _NO_KERNEL:
            raise _float8.refuse(original(op).name, _NO_KERNEL[a.dtype.num])
    for v in attrs.values():
        if v in mstype.storage_only_types:
            raise _float8.refuse(original(op).name, v)
    return lowered(op) if lowerable(op) else op


def types_touch(in_types, out_type, op_name: str = "") -> bool:
    """A node with these input/output TensorTypes computes on bfloat16. An 8-bit float among them is refused
    (TypeError naming the op, as eagerly): no kernel takes one."""
    outs = (out_type,) if isinstance(out_type, TensorType) or not isinstance(out_type, tuple) else out_type
    found = False
    for t in (*in_types, *outs):
        if isinstance(t, TensorType):
            if t.dtype is mstype.bfloat16:
                found = True
            elif t.dtype.bits == 8 and t.dtype in mstype.storage_only_types:
                raise _float8.refuse(op_name, t.dtype)
    return found


def _widen(a: Any) -> Any:
    if isinstance(a, np.ndarray) and a.dtype == BF16:
        return a.astype(_F32)
    return a


def _narrow(out: Any, want: Any) -> Any:
    if isinstance(want, TensorType):
        target = want.dtype.np
        if isinstance(out, np.ndarray):
            return out if out.dtype == target else out.astype(target)
        if isinstance(out, (np.generic, float, int, bool)):
            return np.asarray(out, dtype=target)
    return out


def lowered(op: Op) -> Op:
    """The op's bfloat16 variant (cached): same name, infer and bprop; a float32 kernel with one rounding.
    It never fuses and has no code-generation fast path (both assume NumPy float dtypes)."""
    found = _variants.get(id(op))
    if found is not None:
        return found
    kernel, infer = op.impl, op.infer

    def impl(*args, **attrs):
        want = infer(*[type_of(a) for a in args], **attrs)
        wide_attrs = {k: (mstype.float32 if v is mstype.bfloat16 else v) for k, v in attrs.items()}
        out = kernel(*[_widen(a) for a in args], **wide_attrs)
        if isinstance(want, tuple) and isinstance(out, (tuple, list)):
            return type(out)(_narrow(o, w) for o, w in zip(out, want))
        return _narrow(out, want)

    variant = dataclasses.replace(op, impl=impl, fuse=False, emit=None, fresh_output=False)
    variant.extra = dict(op.extra, bf16_of=op)
    _variants[id(op)] = variant
    return variant


def original(op: Op) -> Op:
    """The record a lowered variant was made from (the op itself otherwise)."""
    return op.extra.get("bf16_of", op) if op.extra else op
