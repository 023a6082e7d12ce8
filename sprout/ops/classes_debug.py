"""PascalCase classes for runtime checks and gradient hooks (Assert, CheckNumerics, InsertGradientOf, HookBackward)
and MindSpore's deprecated primitive names (TensorAdd, Gelu, FastGelu)."""
from __future__ import annotations

from . import debug_ops as D
from .primitive_classes import FastGeLU, GeLU, Primitive, _simple
from . import functional as F


class Assert(Primitive):
    """``Assert(summarize=3)(condition, input_data)``: RuntimeError when ``condition`` is false, showing the first
    ``summarize`` values of each tensor of ``input_data`` (a list or tuple); runs inside compiled graphs too."""

    def __init__(self, summarize=3):
        super().__init__()
        if isinstance(summarize, bool) or not isinstance(summarize, int) or summarize < 0:
            raise TypeError(f"For 'Assert', 'summarize' must be a non-negative int, but got {summarize!r}.")
        self.summarize = summarize

    def __call__(self, condition, input_data):
        return D.assert_(condition, input_data, self.summarize)


class CheckNumerics(Primitive):
    """``CheckNumerics()(x)``: ``x``, after a RuntimeError if it holds NaN or Inf."""

    def __call__(self, x):
        return D.check_numerics(x)


class InsertGradientOf(Primitive):
    """``InsertGradientOf(f)(x)``: ``x``; the gradient flowing back through it becomes ``f(gradient)`` (eagerly and
    in compiled graphs; ``f`` is written with sprout ops)."""

    def __init__(self, f):
        super().__init__()
        if not callable(f):
            raise TypeError(f"For 'InsertGradientOf', 'f' must be callable, but got {type(f).__name__}.")
        self.f = f

    def __call__(self, x):
        return D.insert_gradient_of(x, self.f)


class HookBackward(Primitive):
    """``HookBackward(hook_fn)(x)``: ``x``; ``hook_fn((grad,))`` sees the gradient flowing back and may return a
    replacement ``(new_grad,)``. PyNative only, as in MindSpore: inside a compiled graph it is skipped (warned)."""

    def __init__(self, hook_fn, cell_id=""):
        super().__init__()
        if not callable(hook_fn):
            raise TypeError(f"Expected a callable hook function, but got {type(hook_fn).__name__}.")
        if not isinstance(cell_id, str):
            raise TypeError(f"For 'HookBackward', 'cell_id' must be a str, but got {type(cell_id).__name__}.")
        self.hook_fn, self.cell_id = hook_fn, cell_id

    def __call__(self, x):
        return D.hook_backward(x, self.hook_fn)


class Gelu(GeLU):
    """Deprecated MindSpore name of GeLU."""


class FastGelu(FastGeLU):
    """Deprecated MindSpore name of FastGeLU."""


TensorAdd = _simple("TensorAdd", F.add)  # deprecated MindSpore name of Add

__all__ = ["Assert", "CheckNumerics", "InsertGradientOf", "HookBackward", "Gelu", "FastGelu", "TensorAdd"]
