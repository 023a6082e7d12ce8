"""Top-level tensor constructors MindSpore exports (``ms.tensor``, ``ms.from_numpy``, ``ms.from_dlpack``,
``ms.frombuffer``) and ``ms.swap_tensors``."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype

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


def frombuffer(buffer, dtype, count=-1, offset=0) -> Tensor:
    """``mindspore.frombuffer``: a 1-D Tensor over ``count`` items (-1: all) of ``dtype`` from a buffer-protocol
    object, starting ``offset`` bytes in, sharing its memory. Bad sizes raise RuntimeError, as in MindSpore."""
    dt = mstype.to_dtype(dtype)
    try:
        nbytes = memoryview(buffer).nbytes
    except TypeError:
        raise TypeError(f"frombuffer: expected an object with the buffer interface, got {type(buffer).__name__}") \
            from None
    item = dt.np.itemsize
    if isinstance(count, bool) or not isinstance(count, int) or count < -1 or count == 0:
        raise RuntimeError(f"frombuffer: 'count' must be -1 or positive, got {count!r}")
    if nbytes <= 0:
        raise RuntimeError("frombuffer: the buffer is empty")
    if isinstance(offset, bool) or not isinstance(offset, int) or not 0 <= offset < nbytes:
        raise RuntimeError(f"frombuffer: 'offset' must be in [0, {nbytes - 1}], got {offset!r}")
    rest = nbytes - offset
    if count == -1:
        if rest % item:
            raise RuntimeError(f"frombuffer: {rest} bytes after the offset are not a whole number of {dt} items")
        count = rest // item
    elif count * item > rest:
        raise RuntimeError(f"frombuffer: {count} items of {dt} need {count * item} bytes, {rest} remain after "
                           "the offset")
    array = np.frombuffer(buffer, dt.np, count, offset)
    if not array.flags.writeable:  # a read-only buffer (bytes): a Tensor must own writable memory
        array = array.copy()
    return Tensor.from_numpy(array)


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """``mindspore.swap_tensors``: exchange the contents (values, dtype, shape) of two Tensors in place; both keep
    their identity. Both must be Tensors of the same class (Tensor with Tensor, Parameter with Parameter)."""
    if not (isinstance(t1, Tensor) and isinstance(t2, Tensor)):
        raise TypeError(f"swap_tensors: expected two Tensors, got {type(t1).__name__} and {type(t2).__name__}")
    if type(t1) is not type(t2):
        raise RuntimeError(f"swap_tensors: cannot swap a {type(t1).__name__} with a {type(t2).__name__}")
    from ..core.tensor import _will_write

    _will_write(t1)  # tapes holding either keep the value they read
    _will_write(t2)
    t1._data, t2._data = t2._data, t1._data
