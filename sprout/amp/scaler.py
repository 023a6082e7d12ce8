"""Functional loss scaling: all_finite, LossScaler, StaticLossScaler, DynamicLossScaler."""
from __future__ import annotations

from abc import ABC, abstractmethod

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Parameter, Tensor


def _tensors(inputs, api: str) -> list:
    if isinstance(inputs, Tensor):
        return [inputs]
    if not isinstance(inputs, (tuple, list)):
        raise TypeError(f"For '{api}', the inputs must be a Tensor or a tuple/list of Tensors, but got "
                        f"{type(inputs).__name__}.")
    out = []
    for t in inputs:
        out.extend(_tensors(t, api))
    return out


def all_finite(inputs):
    """A bool scalar Tensor: True when no tensor in ``inputs`` (a tuple/list of Tensors) holds an inf or a NaN."""
    flags = [ops.all(ops.isfinite(t)) for t in _tensors(inputs, "all_finite")]
    if not flags:
        return Tensor(True)
    out = flags[0]
    for f in flags[1:]:
        out = ops.logical_and(out, f)
    return out


def _scale_each(inputs, factor):
    if isinstance(inputs, Tensor):
        return inputs * ops.cast(factor, inputs.dtype)
    return type(inputs)(_scale_each(t, factor) for t in inputs)


class LossScaler(ABC):
    """Base class of functional loss scalers: ``scale`` the loss, ``unscale`` the gradients, ``adjust`` the scale
    from whether the gradients were finite."""

    @abstractmethod
    def scale(self, inputs):
        raise NotImplementedError

    @abstractmethod
    def unscale(self, inputs):
        raise NotImplementedError

    @abstractmethod
    def adjust(self, grads_finite):
        raise NotImplementedError


def _check_scale_value(scale_value) -> None:
    if isinstance(scale_value, bool) or not isinstance(scale_value, (float, int)):
        raise TypeError(f"The argument 'scale_value' must be float or int, but got {type(scale_value).__name__}")
    if scale_value < 1.0:
        raise ValueError(f"The argument 'scale_value' must be > 1, but got {scale_value}")


def _check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"The argument '{name}' must be a positive int, but got {value!r}")
    return value


class StaticLossScaler(LossScaler):
    """Multiplies the loss by a fixed ``scale_value`` and divides gradients by it."""

    def __init__(self, scale_value):
        _check_scale_value(scale_value)
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")

    def scale(self, inputs):
        """``inputs * scale_value`` (each tensor keeps its dtype)."""
        return _scale_each(inputs, self.scale_value)

    def unscale(self, inputs):
        """``inputs / scale_value`` (each tensor keeps its dtype)."""
        return _scale_each(inputs, ops.reciprocal(self.scale_value))

    def adjust(self, grads_finite):
        """The scale is fixed: returns False."""
        return False


class DynamicLossScaler(LossScaler):
    """A scale that is divided by ``scale_factor`` (not below 1) when the gradients are not finite and multiplied
    by it after ``scale_window`` finite steps in a row (when the product stays finite)."""

    def __init__(self, scale_value, scale_factor, scale_window):
        _check_scale_value(scale_value)
        self.scale_value = Parameter(Tensor(scale_value, dtype=mstype.float32), name="scale_value")
        self.scale_window = _check_positive_int(scale_window, "scale_window")
        self.scale_factor = _check_positive_int(scale_factor, "scale_factor")
        self.counter = Parameter(Tensor(0, dtype=mstype.int32), name="counter")

    def scale(self, inputs):
        return _scale_each(inputs, self.scale_value)

    def unscale(self, inputs):
        return _scale_each(inputs, ops.reciprocal(self.scale_value))

    def adjust(self, grads_finite):
        """Update ``scale_value`` and the finite-step counter; returns True."""
        grown = self.scale_value * self.scale_factor
        at_window = self.counter == (self.scale_window - 1)
        keep_or_grow = ops.select(at_window, ops.select(ops.isfinite(grown), grown, self.scale_value),
                                  self.scale_value)
        shrunk = ops.maximum(ops.ones((), self.scale_value.dtype), self.scale_value / self.scale_factor)
        ops.assign(self.scale_value, ops.select(grads_finite, keep_or_grow, shrunk))
        counter = ((self.counter + 1) % self.scale_window) * ops.cast(grads_finite, mstype.int32)
        ops.assign(self.counter, counter)
        return True
