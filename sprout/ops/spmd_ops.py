"""The identity ops of the SPMD pass (``sprout/parallel/spmd.py``): ``Mirror`` and ``VirtualOutput``, which it puts at
the edges of a per-rank graph so that autodiff of that graph gives the backward communication, and ``Reshard``
(MindSpore's ``reshard(tensor, layout)``), which a sharded function uses to fix a tensor's layout."""
from __future__ import annotations

import numpy as np

from ..communication.state import HCCL_WORLD_COMM_GROUP
from ..core.op import Op, register
from ..core.types import TensorType
from . import functional as F
from .comm_ops import all_reduce
from .primitive_classes import Primitive


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


# ---- Reshard: identity; inside a sharded function the SPMD pass redistributes the value to ``layout`` ------------
def _reshard_impl(x, layout=None):
    """Identity (the value is unchanged); under the SPMD pass the tensor is redistributed to ``layout`` (a
    ``mindspore.parallel.Layout``): its local blocks change, the global value does not."""
    return x


def _reshard_infer(x, layout=None):
    x = _identity_infer("Reshard", x)
    if isinstance(layout, tuple):  # a strategy (a nested Cell.shard's in/out strategy)
        if any(not isinstance(k, int) or isinstance(k, bool) or k < 1 for k in layout):
            raise TypeError(f"For 'Reshard', a strategy must be a tuple of positive ints, but got {layout!r}.")
        entries = layout
    else:
        if not hasattr(layout, "_tensor_map"):
            raise TypeError(f"Reshard only support type mindspore.parallel.Layout, but got: {type(layout)}.")
        if layout._tensor_map is None:
            raise ValueError("For 'Reshard', the layout must be called with one alias per dimension (its tensor "
                             "map).")
        entries = layout._tensor_map
    if len(entries) != len(x.shape):
        raise ValueError(f"For 'Reshard', the layout {entries} does not match a tensor of rank {len(x.shape)}.")
    return x


def _reshard_bprop(x, out, dout, layout=None):
    return (dout,)


RESHARD = register(Op("Reshard", _reshard_impl, _reshard_infer, _reshard_bprop, kind="opaque",
                      doc=_reshard_impl.__doc__))


def reshard_op(x, layout):
    """The Reshard op on ``x`` (``layout``: a Layout, or a tuple strategy), as the SPMD pass uses it."""
    return RESHARD(x, layout=layout)


def _check_layout(what: str, layout) -> None:
    if not hasattr(layout, "_tensor_map") or not hasattr(layout, "_device_shape"):
        raise TypeError(f"{what} only support type mindspore.parallel.Layout, but got: {type(layout)}.")


def reshard(tensor, layout):
    """MindSpore's ``reshard(tensor, layout)``: inside a sharded function (semi-auto parallel) the tensor is
    redistributed to ``layout``; the value is unchanged. In a world of one it returns ``tensor`` itself."""
    from ..communication import management
    from ..core.tensor import Tensor

    if management.get_group_size() == 1:
        return tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"Reshard takes in Tensor type as the first input param, but got: {type(tensor)}.")
    _check_layout("Reshard", layout)
    return RESHARD(tensor, layout=layout)


class Reshard(Primitive):
    """MindSpore's ``ops.Reshard(in_layout, out_layout, in_strategy)`` (one Layout each, the same one, as
    ``reshard`` builds it): the tensor redistributed to ``out_layout[0]`` under the SPMD pass."""

    def __init__(self, in_layout, out_layout, in_strategy):
        super().__init__()
        for what, lays in (("in_layout", in_layout), ("out_layout", out_layout)):
            if not isinstance(lays, tuple) or len(lays) != 1:
                raise TypeError(f"For 'Reshard', '{what}' must be a tuple of one Layout, but got {lays!r}.")
            _check_layout("Reshard", lays[0])
        self.in_layout, self.out_layout, self.in_strategy = in_layout, out_layout, in_strategy

    def __call__(self, tensor):
        return RESHARD(tensor, layout=self.out_layout[0])


def mirror(x, group: str = HCCL_WORLD_COMM_GROUP):
    return MIRROR(x, group=group)


def virtual_output(x, scale: float = 1.0):
    return VIRTUAL_OUTPUT(x, scale=float(scale))
