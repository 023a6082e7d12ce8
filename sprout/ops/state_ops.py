"""State primitives: Assign / AssignAdd / AssignSub write into a Parameter's array in place (eagerly).
In graphs they are functional (``extra["mutates"]``, see ``ir.effects``): the node's output is the new
value, the write-back happens in the graph's ``updates`` epilogue, in place when the old value is dead."""
from __future__ import annotations

import numpy as np

from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape


def _assign_infer_for(name):
    def infer(variable, value):
        if hasattr(value, "shape"):
            if value.dtype is not variable.dtype:
                raise OpError(f"{name}: value dtype {value.dtype} differs from the variable's {variable.dtype}")
            if tuple(value.shape) != tuple(variable.shape):
                raise OpError(f"{name}: value shape {fmt_shape(value.shape)} differs from the variable's "
                              f"{fmt_shape(variable.shape)}")
        return TensorType(tuple(variable.shape), variable.dtype)

    return infer


def _assign_impl(variable, value):
    np.copyto(variable, value, casting="same_kind")
    return variable


def _assign_add_impl(variable, value):
    np.add(variable, value, out=variable, casting="same_kind")
    return variable


def _assign_sub_impl(variable, value):
    np.subtract(variable, value, out=variable, casting="same_kind")
    return variable


def _assign_bprop(variable, value, out, dout):
    return dout, None


ASSIGN = register(Op("Assign", _assign_impl, _assign_infer_for("Assign"), _assign_bprop, "effect",
                     side_effect=True, extra={"mutates": (0,)}))
ASSIGN_ADD = register(Op("AssignAdd", _assign_add_impl, _assign_infer_for("AssignAdd"), _assign_bprop, "effect",
                         side_effect=True, extra={"mutates": (0,)}))
ASSIGN_SUB = register(Op("AssignSub", _assign_sub_impl, _assign_infer_for("AssignSub"), _assign_bprop, "effect",
                         side_effect=True, extra={"mutates": (0,)}))
