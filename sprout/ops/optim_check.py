"""Input rules of the in-place optimizer updates (Apply*): checked before the kernel writes anything, eagerly (the
kernel's first step) and by the infer rule while a graph is built, so bad input never half-updates a Parameter."""
from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy as np

from ..core.op import OpError


class OptimInputError(OpError):
    """A shape error of an optimizer update's input (ValueError, as MindSpore)."""


def _np_dtype(x):
    return getattr(x.dtype, "np", x.dtype)


def _is_tensor(x) -> bool:
    return hasattr(x, "shape") and hasattr(x, "dtype")


def _fmt(shape) -> str:
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"


def _same_shape(a, b) -> bool:
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def check_inputs(name: str, names: tuple, args: tuple, same: tuple, mutates: tuple, scalars: tuple,
                 like_var: tuple = (), state_dtype: bool = True) -> None:
    """``args[0]`` is the variable; ``same``: inputs of its shape (state written in place must also have its dtype
    when ``state_dtype``; a gradient may be narrower, never wider); ``scalars``: hyper-parameters, a number or a
    one-element tensor (``like_var``: or the variable's shape). Fast paths first: this runs on every eager update."""
    var = args[0]
    if not _is_tensor(var):
        raise TypeError(f"{name}: the variable '{names[0]}' must be a Parameter, got {type(var).__name__}")
    vshape, vdt = var.shape, var.dtype
    n = len(args)
    for i in same:
        if i >= n:
            continue
        x = args[i]
        if x.__class__ is np.ndarray and x.shape == vshape and x.dtype is vdt:
            continue  # the common case: same shape and dtype
        _check_like_var(name, names, i, x, var, mutates, state_dtype)
    for i in scalars:
        if i >= n:
            continue
        x = args[i]
        cls = x.__class__
        if cls is float or cls is int or (cls is np.ndarray and x.size == 1 and x.dtype.kind in "fiu"):
            continue
        _check_scalar(name, names, i, x, var, like_var)


def _check_like_var(name, names, i, x, var, mutates, state_dtype) -> None:
    vshape, vdt = tuple(var.shape), _np_dtype(var)
    if not _is_tensor(x):
        raise TypeError(f"{name}: '{names[i]}' must be a tensor of the variable's shape {_fmt(vshape)}, "
                        f"got {type(x).__name__}")
    if not _same_shape(tuple(x.shape), vshape):
        raise OptimInputError(f"{name}: '{names[i]}' of shape {_fmt(x.shape)} does not match the variable's "
                              f"shape {_fmt(vshape)}")
    xdt = _np_dtype(x)
    if i in mutates:
        if state_dtype and xdt != vdt:
            raise TypeError(f"{name}: '{names[i]}' is updated in place and must have the variable's dtype "
                            f"{vdt}, got {xdt}")
    elif np.promote_types(xdt, vdt) != vdt:
        raise TypeError(f"{name}: '{names[i]}' of dtype {xdt} cannot be cast to the variable's dtype {vdt} "
                        "(the variable is updated in place)")


def _check_scalar(name, names, i, x, var, like_var) -> None:
    if _is_tensor(x):
        shape = tuple(x.shape)
        if any(d is not None and d != 1 for d in shape) and not (i in like_var and
                                                                 _same_shape(shape, tuple(var.shape))):
            want = "a number or a one-element tensor" + (" (or a tensor of the variable's shape)"
                                                         if i in like_var else "")
            raise OptimInputError(f"{name}: '{names[i]}' must be {want}, got shape {_fmt(shape)}")
        if _np_dtype(x).kind not in "fiub":
            raise TypeError(f"{name}: '{names[i]}' must be a real number, got dtype {_np_dtype(x)}")
    elif not isinstance(x, (numbers.Real, np.generic)) or isinstance(x, np.generic) and x.dtype.kind not in "fiub":
        raise TypeError(f"{name}: '{names[i]}' must be a number or a tensor, got {type(x).__name__} {x!r}")


def strict(name: str, impl: Callable, same: tuple, mutates: tuple, scalars: tuple | None = None,
           like_var: tuple = (), state_dtype: bool = True) -> tuple[Callable, Callable]:
    """(kernel, infer) for an update whose positional inputs follow ``impl``'s signature; ``scalars`` defaults to
    every positional input that is neither the variable nor in ``same``."""
    code = impl.__code__
    names = code.co_varnames[:code.co_argcount]
    if scalars is None:
        scalars = tuple(i for i in range(1, len(names)) if i not in same and i not in mutates)

    def kernel(*args, **attrs):
        check_inputs(name, names, args, same, mutates, scalars, like_var, state_dtype)
        return impl(*args, **attrs)

    kernel.__name__ = getattr(impl, "__name__", name)
    kernel.__doc__ = impl.__doc__
    kernel.__module__ = impl.__module__  # the kernel's family (parallel/spmd.py recognises optimizer kernels by it)

    def infer(*args, **attrs):
        check_inputs(name, names, args, same, mutates, scalars, like_var, state_dtype)
        var = args[0]
        from ..core.types import TensorType

        return TensorType(tuple(var.shape), var.dtype)

    return kernel, infer
