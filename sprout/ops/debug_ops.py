"""Check and gradient-hook primitives: Assert, CheckNumerics, InsertGradientOf, HookBackward.

Assert and CheckNumerics are side effects that stop the program at run time (eagerly and inside a compiled graph);
InsertGradientOf and HookBackward pass their input through and change or observe the gradient flowing back.
"""
from __future__ import annotations

import builtins
import warnings

import numpy as np

from ..core.dispatch import bind
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from .host_ops import is_symbolic, print_


def _like(x, **attrs) -> TensorType:
    return TensorType(tuple(x.shape), x.dtype)


# ---- Assert ---------------------------------------------------------------------------------------
def _assert_infer(condition, *data, summarize=3) -> TensorType:
    if tuple(condition.shape) not in ((), (1,)) or not (condition.dtype.name == "Bool"):
        raise OpError(f"Assert: the condition must be a bool scalar tensor, got {condition.dtype}"
                      f"{list(condition.shape)}")
    return TensorType(tuple(condition.shape), condition.dtype)


def _assert_impl(condition, *data, summarize=3):
    if not bool(np.all(condition)):
        shown = "\n".join(f"input data: {np.asarray(d).reshape(-1)[:summarize]}" for d in data)
        raise RuntimeError(f"For 'Assert' condition is false.\n{shown}\nassert failed")
    return np.array(condition, copy=True)


ASSERT = register(Op("Assert", _assert_impl, _assert_infer, None, kind="effect", side_effect=True,
                     doc="Stop with RuntimeError when the bool condition is false, showing the first `summarize` "
                         "values of each data tensor."))


def assert_(condition, data, summarize=3):
    data = tuple(data) if isinstance(data, (list, tuple)) else (data,)
    if isinstance(summarize, bool) or not isinstance(summarize, int) or summarize < 0:
        raise TypeError(f"For 'Assert', 'summarize' must be a non-negative int, but got {summarize!r}.")
    return bind(ASSERT, (condition,) + data, {"summarize": summarize})


# ---- CheckNumerics ----------------------------------------------------------------------------------
def _check_numerics_infer(x) -> TensorType:
    if not x.dtype.is_float:
        raise OpError(f"CheckNumerics: the input must be a float tensor, got {x.dtype}")
    return _like(x)


def _check_numerics_impl(x):
    if np.isnan(x).any():
        raise RuntimeError("CheckNumerics: Tensor had NaN values")
    if np.isinf(x).any():
        raise RuntimeError("CheckNumerics: Tensor had Inf values")
    return np.array(x, copy=True)


CHECK_NUMERICS = register(Op("CheckNumerics", _check_numerics_impl, _check_numerics_infer,
                             lambda x, out, d: (d,), kind="effect", side_effect=True,
                             doc="The input, after checking it holds no NaN or Inf (RuntimeError otherwise)."))


def check_numerics(x):
    return bind(CHECK_NUMERICS, (x,), {})


# ---- InsertGradientOf / HookBackward -----------------------------------------------------------------
def _insert_gradient_bprop(x, out, d, fn=None):
    # the builtin print prints the gradient's value when it exists: a Print node while a graph is built (as
    # MindSpore's graph mode turns print into its Print op); a hook returning None (print, an observer) leaves
    # the gradient as it was, as MindSpore's bprop does
    replaced = (print_ if fn is builtins.print else fn)(d)
    return (d if replaced is None else replaced,)


INSERT_GRADIENT_OF = register(Op("InsertGradientOf", lambda x, fn=None: np.array(x, copy=True), _like,
                                 _insert_gradient_bprop, kind="opaque",
                                 doc="The input unchanged; the gradient flowing back through it is fn(gradient)."))


def insert_gradient_of(x, fn):
    return bind(INSERT_GRADIENT_OF, (x,), {"fn": fn})


def _hook_bprop(x, out, d, hook=None):
    replaced = hook((d,))  # MindSpore hands the hook a tuple of the gradients and takes a tuple back
    if replaced is None:
        return (d,)
    if isinstance(replaced, (tuple, list)):
        if len(replaced) != 1:
            raise ValueError(f"HookBackward: the hook returned {len(replaced)} gradients for 1 input")
        replaced = replaced[0]
    if tuple(getattr(replaced, "shape", ())) != tuple(d.shape):
        raise ValueError(f"HookBackward: the hook returned a gradient of shape {list(replaced.shape)}, "
                         f"expected {list(d.shape)}")
    return (replaced,)


HOOK_BACKWARD = register(Op("HookBackward", lambda x, hook=None: np.array(x, copy=True), _like, _hook_bprop,
                            kind="opaque",
                            doc="The input unchanged; the hook sees (and may replace) the gradient flowing back."))


def hook_backward(x, hook, warn_in_graph=True):
    if is_symbolic(x):
        # MindSpore runs HookBackward in PyNative only and drops it from compiled graphs (the hook never runs)
        if warn_in_graph:
            warnings.warn("HookBackward inside a compiled graph is skipped (PyNative only, as in MindSpore): its hook "
                          "will not run", stacklevel=3)
        return x
    return bind(HOOK_BACKWARD, (x,), {"hook": hook})
