"""Top-level tensor constructors MindSpore exports (``ms.tensor``, ``ms.from_numpy``, ``ms.from_dlpack``...)."""
from __future__ import annotations

from ..core.tensor import Tensor

_DEVICES = ("CPU", "meta")


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None) -> Tensor:
    """``mindspore.tensor``: build a Tensor, as ``Tensor(...)``; ``device`` may be ``"CPU"`` (the only device here;
    MindSpore 2.10's CPU build also accepts ``"meta"``, which sprout has no lazy storage for)."""
    if device is not None:
        if device not in _DEVICES:
            raise ValueError(f"Only {_DEVICES} is supported for device, but got {device}.")
        if device == "meta":
            raise ValueError("tensor: device='meta' (shape-only tensors without storage) is not supported by sprout")
    return Tensor(input_data, dtype=dtype, shape=shape, init=init, const_arg=const_arg)


def from_numpy(array) -> Tensor:
    """``mindspore.from_numpy``: a Tensor sharing the memory of a C-contiguous NumPy array."""
    return Tensor.from_numpy(array)



def from_dlpack(dlpack) -> Tensor:
    """``mindspore.from_dlpack``: a Tensor sharing the CPU memory of a DLPack capsule or ``__dlpack__`` object."""
    return Tensor.from_dlpack(dlpack)


def to_dlpack(tensor: Tensor):
    """``mindspore.to_dlpack``: a DLPack capsule over the tensor's memory."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"to_dlpack: expected a Tensor, got {type(tensor).__name__}")
    return tensor.to_dlpack()
