"""MindSpore's optimizer update primitives as ops classes (``ops.ApplyMomentum()(var, accum, lr, grad, momentum)``).

Each runs one in-place update of its Parameters through the fused kernels of optim_kernels.py / optim_kernels2.py
(the ones nn's optimizers use) and returns what MindSpore returns: the updated variable, or a tuple of it and the
updated state, as new Tensors.
"""
from __future__ import annotations

from ..core.dispatch import bind
from ..core.op import REGISTRY
from . import functional as F
from . import optim_kernels, optim_kernels2  # noqa: F401  (registers the update primitives)
from .classes_linalg import _Flag


def _check_bool(owner: str, name: str, value) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"For '{owner}', the '{name}' must be a bool, but got {type(value).__name__}.")


class _Update(_Flag):
    """An update primitive: ``op`` is the kernel's registry name, ``n_state`` how many leading inputs (the variable
    and its state) are updated in place, ``returns`` how many of those the call returns (1: the variable alone)."""

    op: str = ""
    n_state = 1
    returns = 1
    bool_flags: tuple = ("use_locking",)
    kernel_attrs: tuple = ()  # flags handed to the kernel as attributes

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for flag in self.bool_flags:
            _check_bool(type(self).__name__, flag, getattr(self, flag))

    def __call__(self, *inputs):
        attrs = {name: getattr(self, name) for name in self.kernel_attrs}
        out = bind(REGISTRY[self.op], tuple(self._inputs(*inputs)), attrs)
        if self.returns == 1:
            return out
        # the state read after the update (ordered after it in a graph by depend), copied as MindSpore returns copies
        return (out,) + tuple(F.identity(F.depend(s, out)) for s in inputs[1:self.returns])

    def _inputs(self, *inputs):
        return inputs


class ApplyMomentum(_Update):
    """``(variable, accumulation, learning_rate, gradient, momentum)``: accum = accum * momentum + grad * scale;
    var -= lr * accum (Nesterov: var -= lr * (grad * scale + momentum * accum)). Returns the variable."""

    defaults = {"use_nesterov": False, "use_locking": False, "gradient_scale": 1.0}
    op, bool_flags, kernel_attrs = "ApplyMomentum", ("use_nesterov", "use_locking"), ("use_nesterov",)

    def _inputs(self, var, accum, lr, grad, momentum):
        if not isinstance(self.gradient_scale, (int, float)) or isinstance(self.gradient_scale, bool):
            raise TypeError(f"For 'ApplyMomentum', the 'gradient_scale' must be a float, "
                            f"but got {type(self.gradient_scale).__name__}.")
        if self.gradient_scale != 1.0:
            grad = F.mul(grad, float(self.gradient_scale))
        return var, accum, lr, grad, momentum


class ApplyGradientDescent(_Update):
    """``(var, alpha, delta)``: var -= alpha * delta. Returns the variable."""

    op, bool_flags = "ApplyGradientDescent", ()


class SGD(_Update):
    """``(parameters, gradient, learning_rate, accum, momentum, stat)`` with ``dampening``, ``weight_decay`` and
    ``nesterov``; ``stat`` > 0 marks the first step (accum starts at the gradient). Returns the parameters."""

    defaults = {"dampening": 0.0, "weight_decay": 0.0, "nesterov": False}
    op, bool_flags, kernel_attrs = "SGD", ("nesterov",), ("dampening", "weight_decay", "nesterov")

    def _inputs(self, parameters, gradient, learning_rate, accum, momentum, stat):
        if self.nesterov and self.dampening != 0:
            raise ValueError(f"For 'SGD', the 'dampening' must be 0 when 'nesterov' is True, "
                             f"but got {self.dampening}.")
        return parameters, gradient, learning_rate, accum, momentum, stat


class Adam(_Update):
    """``(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient)``. Returns (var, m, v)."""

    defaults = {"use_locking": False, "use_nesterov": False}
    op, returns, bool_flags, kernel_attrs = "Adam", 3, ("use_locking", "use_nesterov"), ("use_nesterov",)


class AdamWeightDecay(_Update):
    """``(var, m, v, lr, beta1, beta2, epsilon, decay, gradient)``. Returns (var, m, v)."""

    defaults = {"use_locking": False}
    op, returns = "AdamWeightDecay", 3


class ApplyRMSProp(_Update):
    """``(var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon)``. Returns the variable."""

    defaults = {"use_locking": False}
    op = "ApplyRMSProp"


class ApplyCenteredRMSProp(_Update):
    """``(var, mean_gradient, mean_square, moment, grad, learning_rate, decay, momentum, epsilon)``. Returns the
    variable."""

    defaults = {"use_locking": False}
    op = "ApplyCenteredRMSProp"


class ApplyAdagrad(_Update):
    """``(var, accum, lr, grad)``; ``update_slots=False`` leaves accum as it is. Returns (var, accum)."""

    defaults = {"update_slots": True}
    op, returns, bool_flags, kernel_attrs = "ApplyAdagrad", 2, ("update_slots",), ("update_slots",)


class ApplyAdadelta(_Update):
    """``(var, accum, accum_update, lr, rho, epsilon, grad)``. Returns (var, accum, accum_update)."""

    op, returns, bool_flags = "ApplyAdadelta", 3, ()


class ApplyAdaMax(_Update):
    """``(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad)``. Returns (var, m, v)."""

    op, returns, bool_flags = "ApplyAdaMax", 3, ()


class ApplyFtrl(_Update):
    """``(var, accum, linear, grad, lr, l1, l2, lr_power)``. Returns the variable."""

    defaults = {"use_locking": False}
    op = "ApplyFtrl"


class ApplyProximalAdagrad(_Update):
    """``(var, accum, lr, l1, l2, grad)``. Returns (var, accum)."""

    defaults = {"use_locking": False}
    op, returns = "ApplyProximalAdagrad", 2


__all__ = ["ApplyMomentum", "ApplyGradientDescent", "SGD", "Adam", "AdamWeightDecay", "ApplyRMSProp",
           "ApplyCenteredRMSProp", "ApplyAdagrad", "ApplyAdadelta", "ApplyAdaMax", "ApplyFtrl", "ApplyProximalAdagrad"]
