"""Tensor's gradient hooks (``register_hook`` / ``hooks`` / ``remove_hook`` and the handle's ``remove``) and
``requires_grad_``. A hook sees the complete gradient of its tensor when a gradient is taken (``ms.grad`` ...)
and may return a replacement; as in MindSpore, a hook registered inside a graph (a jitted function) is ignored
with a warning and ``register_hook`` returns the tensor itself there, while a hook on a tensor passed into a
jitted function applies to that tensor's gradient."""
from __future__ import annotations

import warnings
import weakref

from ..core import tensor_hooks
from ..core.tensor import Parameter, Tensor
from .host_ops import is_symbolic


class _TensorHookHandle:
    """What ``register_hook`` returns: ``handle.remove()`` takes the hook off its tensor."""

    __slots__ = ("id", "tensor_weakref")

    def __init__(self, tensor):
        self.id = None
        self.tensor_weakref = weakref.ref(tensor)

    def remove(self) -> None:
        if self.id is not None:
            tensor_hooks.remove(self.id)


def _check_hook(hook) -> None:
    if not callable(hook):
        raise TypeError(f"Expected a callable hook function, but got {type(hook).__name__}.")
    if getattr(getattr(hook, "__code__", None), "co_name", None) == "staging_specialize" or \
            type(hook).__name__ in ("JitFunction", "BytecodeFunction"):
        raise TypeError(f"Decorating hook function {getattr(hook, '__name__', hook)} with '@jit' is not supported.")


def register_hook(self, hook):
    """Call ``hook(grad)`` with this tensor's gradient when one is taken; its non-None result replaces it."""
    _check_hook(hook)
    if is_symbolic(self):
        warnings.warn("Tensor.register_hook inside a graph (a jitted function) is ignored: hooks apply to tensors "
                      "of eager code (MindSpore returns the tensor itself here too)", RuntimeWarning, stacklevel=2)
        return self
    handle = _TensorHookHandle(self)
    handle.id = tensor_hooks.register(self, hook)
    return handle


def remove_hook(handle_id) -> None:
    """Remove the hook registered under ``handle_id`` (a handle's ``id``)."""
    tensor_hooks.remove(handle_id)


def hooks(self) -> list:
    """The hook functions registered on this tensor, in the order they run."""
    return tensor_hooks.hooks_of(self)


_REQUIRES: dict[int, weakref.ref] = {}  # id -> weak reference of the plain Tensors marked requires_grad_()


def requires_grad_(self, requires_grad=True) -> None:
    """Mark whether this tensor requires a gradient (a Parameter's ``requires_grad``); returns None, as
    MindSpore 2.10's does."""
    if isinstance(self, Parameter):
        self.requires_grad = bool(requires_grad)
    elif requires_grad:
        key = id(self)
        _REQUIRES[key] = weakref.ref(self, lambda _r, key=key: _REQUIRES.pop(key, None))
    else:
        _REQUIRES.pop(id(self), None)


def _requires_grad(self) -> bool:
    if isinstance(self, Parameter):
        return self.requires_grad
    ref = _REQUIRES.get(id(self))
    return ref is not None and ref() is self


Tensor.register_hook = register_hook
Tensor.remove_hook = staticmethod(remove_hook)
Tensor.hooks = hooks
Tensor.requires_grad_ = requires_grad_
Tensor._requires_grad = property(_requires_grad)
