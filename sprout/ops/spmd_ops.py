"""The two identity ops the SPMD pass (``sprout/parallel/spmd.py``) puts at the edges of a per-rank graph, so that
autodiff of that graph gives the backward communication: ``Mirror`` and ``VirtualOutput``."""
from __future__ import annotations

import numpy as np

from ..communication.state import HCCL_WORLD_COMM_GROUP
from ..core.op import Op, register
from ..core.types import TensorType
from . import functional as F
from .comm_ops import all_reduce


def _identity_infer(name: str, x) -> TensorType:
    if not isinstance(x, TensorType):
        raise TypeError(f"For '{name}', the input must be a Tensor, but got {type(x).__name__}.")
    return x


# ---- Mirror: identity forward, AllReduce(sum) of the gradient over the group (MindSpore's _MirrorOperator) ------
def _mirror_impl(x, group=HCCL_WORLD_COMM_GROUP):
    """Identity; the gradient is summed over ``group`` (the ranks holding a replica of ``x``)."""
    return x


def _mirror_infer(x, group=HCCL_WORLD_COMM_GROUP):
    return _identity_infer("Mirror", x)


def _mirror_bprop(x, out, dout, group=HCCL_WORLD_COMM_GROUP):
    return (all_reduce(dout, "sum", group),)


# kind "collective": passes keep it where it is (its backward communicates), like the collectives
MIRROR = register(Op("Mirror", _mirror_impl, _mirror_infer, _mirror_bprop, kind="collective",
                     doc=_mirror_impl.__doc__))


# ---- VirtualOutput: identity forward, the gradient scaled (the SPMD pass seeds one replica of an output) --------
def _virtual_output_impl(x, scale=1.0):
    """Identity; the gradient is ``dout * scale`` (``scale`` 0 or 1: one replica of a replicated output takes the
    caller's cotangent, so that the sum over replicas is the cotangent once)."""
    return x


def _virtual_output_infer(x, scale=1.0):
    if not isinstance(scale, (int, float)) or isinstance(scale, bool):
        raise TypeError(f"For 'VirtualOutput', 'scale' must be a number, but got {type(scale).__name__}.")
    return _identity_infer("VirtualOutput", x)


def _virtual_output_bprop(x, out, dout, scale=1.0):
    if scale == 1.0:
        return (dout,)
    if scale == 0.0:
        return (F.zeros_like(dout),)
    return (dout * np.asarray(scale, dout.dtype.np).item(),)


VIRTUAL_OUTPUT = register(Op("VirtualOutput", _virtual_output_impl, _virtual_output_infer, _virtual_output_bprop,
                             kind="opaque", doc=_virtual_output_impl.__doc__))


def mirror(x, group: str = HCCL_WORLD_COMM_GROUP):
    return MIRROR(x, group=group)


def virtual_output(x, scale: float = 1.0):
    return VIRTUAL_OUTPUT(x, scale=float(scale))
