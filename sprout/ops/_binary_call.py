"""Python functions of unary and binary elementwise primitives (ops.exp, ops.add, Tensor.__mul__ ...): bind's
eager path inlined."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core import dispatch
from ..core import bf16 as _bf16
from ..core.dispatch import bind
from ..core.op import Op, OpError
from ..core.tensor import Parameter, Tensor

_ndarray, _asarray, _new = np.ndarray, np.asarray, object.__new__


def binary_function(prim: Op, promote: Callable, no_attrs: dict, inexact_only: bool = False) -> Callable:
    """``fn(input, other)`` applying ``prim``; ``promote(x, y, name)`` casts operands as MindSpore does. Two
    tensors of one dtype, or a float tensor and a Python number, need no promotion; then, with no tape, graph,
    observer or policy active, the kernel runs here (what ``dispatch.bind`` would do, one call frame less: this
    is the per-op cost of eager code). ``inexact_only``: two tensors of one bool/int dtype are promoted too
    (RealDiv's float32 result). ``fn.reflected`` is the Tensor's ``__rOP__``."""
    name = prim.name
    explain = dispatch.explain_failure
    impl = prim.impl  # kept equal to prim.impl by prim.watch_impl below (the op table's spy replaces it)

    def fn(input, other):  # noqa: A002 - MindSpore's argument name
        ic = input.__class__
        if ic is Tensor or ic is Parameter:
            oc = other.__class__
            if oc is Tensor or oc is Parameter:
                a, b = input._data, other._data
                if a.dtype is not b.dtype or inexact_only and a.dtype.kind not in "fc":
                    return bind(prim, promote(input, other, name), no_attrs)
            elif (oc is float or oc is int) and input._data.dtype.kind == "f":
                a, b = input._data, other
            else:
                return bind(prim, promote(input, other, name), no_attrs)
            if dispatch._checked and (dispatch._slow or a.dtype.num == _bf16._BF16_NUM
                                      or a.dtype.num in _bf16._NO_KERNEL):  # bind lowers bf16, refuses 8-bit floats
                return bind(prim, (input, other), no_attrs)
            try:
                out = impl(a, b)
            except OpError:
                raise
            except Exception as exc:  # noqa: BLE001 - named as bind names it
                raise explain(prim, (input, other), no_attrs, exc) from None
            if out.__class__ is not _ndarray:
                out = _asarray(out)
            t = _new(Tensor)
            t._data = out
            return t
        return bind(prim, promote(input, other, name), no_attrs)

    def reflected(self, other):
        """``other OP self`` for the Tensor's ``__rOP__``: a Python number on the left."""
        oc = other.__class__
        if (oc is float or oc is int) and self.__class__ is Tensor and self._data.dtype.kind == "f":
            return bind(prim, (other, self), no_attrs)
        return fn(other, self)

    fn.reflected = reflected
    return prim.watch_impl(fn)


def unary_function(prim: Op, prepare: Callable, kinds: str | None = None) -> Callable:
    """``fn(input)`` applying ``prim``; ``prepare(input)`` makes the operand (a Tensor, cast as MindSpore does).
    A Tensor whose dtype kind is in ``kinds`` (any, when None) needs no preparing; then, with nothing recording
    and no bfloat16 or 8-bit float about (``dispatch._checked`` false), the kernel runs here, as in
    ``binary_function``."""
    explain = dispatch.explain_failure
    impl = prim.impl
    no_attrs: dict = {}

    def fn(input):  # noqa: A002 - MindSpore's argument name
        ic = input.__class__
        if (ic is Tensor or ic is Parameter) and not dispatch._checked:
            a = input._data
            if kinds is None or a.dtype.kind in kinds:
                try:
                    out = impl(a)
                except OpError:
                    raise
                except Exception as exc:  # noqa: BLE001 - named as bind names it
                    raise explain(prim, (input,), no_attrs, exc) from None
                if out.__class__ is not _ndarray:
                    out = _asarray(out)
                t = _new(Tensor)
                t._data = out
                return t
        return bind(prim, (prepare(input),), no_attrs)

    return prim.watch_impl(fn)
