"""MindSpore's optimizer update primitives as ops classes (``ops.ApplyMomentum()(var, accum, lr, grad, momentum)``).

Each runs one in-place update of its Parameters through the fused kernels of optim_kernels*.py
(the ones nn's optimizers use) and returns what MindSpore returns: the updated variable, or a tuple of it and the
updated state, as new Tensors.
"""
from __future__ import annotations

from ..core.dispatch import bind
from ..core.op import REGISTRY
from . import functional as F
from . import optim_kernels, optim_kernels2, optim_kernels3, optim_sparse  # noqa: F401  (registers the update primitives)
from .classes_linalg import _Flag
from ..core.tensor import Tensor


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



def _float_state(owner: str, names: tuple, values: tuple) -> None:
    """The variable and its state must be float tensors, the gradient a tensor (MindSpore's TypeErrors)."""
    for name, value in zip(names, values):
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
        if name != "global_step" and not value.dtype.is_float:
            raise TypeError(f"For '{owner}', the '{name}' must be a float tensor, but got {value.dtype}.")


def _tensor_scalars(owner: str, names: tuple, values: tuple) -> None:
    """Hyper-parameters that MindSpore 2.10 accepts only as Tensors (a Python float raises TypeError there)."""
    for name, value in zip(names, values):
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{owner}', the '{name}' must be a Tensor, but got {type(value).__name__}.")


class ApplyAdagradV2(_Update):
    """``ApplyAdagradV2(epsilon, update_slots=True)(var, accum, lr, grad)``: accum += grad^2;
    var -= lr grad / (sqrt(accum) + epsilon). Returns (var, accum)."""

    defaults = {"epsilon": None, "update_slots": True}
    op, returns, bool_flags, kernel_attrs = "ApplyAdagradV2", 2, ("update_slots",), ("epsilon", "update_slots")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not isinstance(self.epsilon, float):
            raise TypeError(f"For 'ApplyAdagradV2', the type of 'epsilon' should be 'float', "
                            f"but got type '{type(self.epsilon).__name__}'.")

    def _inputs(self, var, accum, lr, grad):
        _float_state("ApplyAdagradV2", ("var", "accum", "grad"), (var, accum, grad))
        return var, accum, lr, grad


class ApplyAddSign(_Update):
    """``(var, m, lr, alpha, sign_decay, beta, grad)``: m = beta m + (1 - beta) grad;
    var -= lr (alpha + sign_decay sign(grad) sign(m)) grad. Returns (var, m)."""

    op, returns, bool_flags = "ApplyAddSign", 2, ()

    def _inputs(self, var, m, lr, alpha, sign_decay, beta, grad):
        _float_state("ApplyAddSign", ("var", "m", "grad"), (var, m, grad))
        return var, m, lr, alpha, sign_decay, beta, grad


class ApplyPowerSign(_Update):
    """``(var, m, lr, logbase, sign_decay, beta, grad)``: m = beta m + (1 - beta) grad;
    var -= lr exp(logbase sign_decay sign(grad) sign(m)) grad. Returns (var, m)."""

    op, returns, bool_flags = "ApplyPowerSign", 2, ()

    def _inputs(self, var, m, lr, logbase, sign_decay, beta, grad):
        _float_state("ApplyPowerSign", ("var", "m", "grad"), (var, m, grad))
        return var, m, lr, logbase, sign_decay, beta, grad


class ApplyProximalGradientDescent(_Update):
    """``(var, alpha, l1, l2, delta)``: v = var - alpha delta; var = sign(v) max(|v| - alpha l1, 0) / (1 + alpha l2).
    Returns the variable."""

    op, bool_flags = "ApplyProximalGradientDescent", ()

    def _inputs(self, var, alpha, l1, l2, delta):
        _float_state("ApplyProximalGradientDescent", ("var", "delta"), (var, delta))
        return var, alpha, l1, l2, delta


class ApplyKerasMomentum(_Update):
    """``(var, accum, lr, grad, momentum)`` with Tensor ``lr`` and ``momentum``: accum = momentum accum - lr grad;
    var += accum (Nesterov: var += momentum accum - lr grad). Returns (var, accum)."""

    defaults = {"use_locking": False, "use_nesterov": False}
    op, returns, bool_flags, kernel_attrs = "ApplyKerasMomentum", 2, ("use_locking", "use_nesterov"), ("use_nesterov",)

    def _inputs(self, var, accum, lr, grad, momentum):
        _float_state("ApplyKerasMomentum", ("var", "accum", "grad"), (var, accum, grad))
        _tensor_scalars("ApplyKerasMomentum", ("lr", "momentum"), (lr, momentum))
        return var, accum, lr, grad, momentum


class ApplyAdamWithAmsgrad(_Update):
    """``ApplyAdamWithAmsgrad(beta1, beta2, epsilon)(var, m, v, vhat, beta1_power, beta2_power, lr, grad)`` with
    Tensor powers and lr: Adam whose denominator is the running maximum ``vhat`` of v. Returns (var, m, v, vhat)."""

    defaults = {"beta1": 0.9, "beta2": 0.999, "epsilon": 1e-8, "use_locking": False}
    op, returns, kernel_attrs = "ApplyAdamWithAmsgrad", 4, ("beta1", "beta2", "epsilon")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("beta1", "beta2", "epsilon"):
            if not isinstance(getattr(self, name), float):
                raise TypeError(f"For 'ApplyAdamWithAmsgrad', the type of '{name}' should be 'float', "
                                f"but got type '{type(getattr(self, name)).__name__}'.")

    def _inputs(self, var, m, v, vhat, beta1_power, beta2_power, lr, grad):
        _float_state("ApplyAdamWithAmsgrad", ("var", "m", "v", "vhat", "grad"), (var, m, v, vhat, grad))
        _tensor_scalars("ApplyAdamWithAmsgrad", ("beta1_power", "beta2_power", "lr"), (beta1_power, beta2_power, lr))
        return var, m, v, vhat, beta1_power, beta2_power, lr, grad


class ApplyAdamWithAmsgradV2(_Update):
    """``(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)``: ApplyAdamWithAmsgrad with
    the betas and epsilon as inputs. Returns (var, m, v, vhat)."""

    defaults = {"use_locking": False}
    op, returns = "ApplyAdamWithAmsgradV2", 4

    def _inputs(self, var, m, v, vhat, *rest):
        _float_state("ApplyAdamWithAmsgradV2", ("var", "m", "v", "vhat", "grad"), (var, m, v, vhat, rest[-1]))
        return (var, m, v, vhat) + rest


class ApplyAdagradDA(_Update):
    """``(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step)``: Adagrad dual
    averaging (var recomputed from the accumulated gradients). Returns the variable."""

    defaults = {"use_locking": False}
    op = "ApplyAdagradDA"

    def _inputs(self, var, grad_accum, grad_sq_accum, grad, lr, l1, l2, global_step):
        _float_state("ApplyAdagradDA", ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad"),
                     (var, grad_accum, grad_sq_accum, grad))
        return var, grad_accum, grad_sq_accum, grad, lr, l1, l2, global_step



def _floats(owner: str, prim, names: tuple) -> None:
    for name in names:
        value = getattr(prim, name)
        if isinstance(value, bool) or not isinstance(value, float):
            raise TypeError(f"For '{owner}', the type of '{name}' should be 'float', but got type "
                            f"'{type(value).__name__}'.")


class _SparseUpdate(_Update):
    """A row-indexed update: ``floats`` are the float attributes MindSpore checks at construction."""

    floats: tuple = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _floats(type(self).__name__, self, self.floats)

    def _inputs(self, *inputs):
        owner = type(self).__name__
        if not isinstance(inputs[-1], Tensor) or not isinstance(inputs[-2], Tensor):
            raise TypeError(f"For '{owner}', 'grad' and 'indices' must be Tensors, but got "
                            f"{type(inputs[-2]).__name__} and {type(inputs[-1]).__name__}.")
        return inputs


class SparseApplyAdagrad(_SparseUpdate):
    """``SparseApplyAdagrad(lr, update_slots=True)(var, accum, grad, indices)``: Adagrad on the rows ``indices``.
    Returns (var, accum)."""

    defaults = {"lr": None, "update_slots": True, "use_locking": False}
    op, returns, floats = "SparseApplyAdagrad", 2, ("lr",)
    bool_flags, kernel_attrs = ("update_slots", "use_locking"), ("lr", "update_slots")


class SparseApplyAdagradV2(_SparseUpdate):
    """``SparseApplyAdagradV2(lr, epsilon, use_locking=False, update_slots=True)(var, accum, grad, indices)``.
    Returns (var, accum)."""

    defaults = {"lr": None, "epsilon": None, "use_locking": False, "update_slots": True}
    op, returns, floats = "SparseApplyAdagradV2", 2, ("lr", "epsilon")
    bool_flags, kernel_attrs = ("update_slots", "use_locking"), ("lr", "epsilon", "update_slots")


class SparseApplyProximalAdagrad(_SparseUpdate):
    """``(var, accum, lr, l1, l2, grad, indices)``: ProximalAdagrad on the rows ``indices``. Returns (var, accum)."""

    defaults = {"use_locking": False}
    op, returns = "SparseApplyProximalAdagrad", 2


class SparseApplyFtrl(_SparseUpdate):
    """``SparseApplyFtrl(lr, l1, l2, lr_power)(var, accum, linear, grad, indices)``. Returns (var, accum, linear)."""

    defaults = {"lr": None, "l1": None, "l2": None, "lr_power": None, "use_locking": False}
    op, returns, floats = "SparseApplyFtrl", 3, ("lr", "l1", "l2", "lr_power")
    kernel_attrs = ("lr", "l1", "l2", "lr_power")


class SparseApplyRMSProp(_SparseUpdate):
    """``SparseApplyRMSProp(rho, momentum, epsilon)(var, ms, mom, lr, grad, indices)``. Returns (var, ms, mom)."""

    defaults = {"rho": None, "momentum": None, "epsilon": None, "use_locking": False}
    op, returns, floats = "SparseApplyRMSProp", 3, ("rho", "momentum", "epsilon")
    kernel_attrs = ("rho", "momentum", "epsilon")


class SparseApplyAdadelta(_SparseUpdate):
    """``SparseApplyAdadelta(epsilon)(var, accum, accum_update, lr, rho, grad, indices)``. Returns (var, accum,
    accum_update)."""

    defaults = {"epsilon": None, "use_locking": False}
    op, returns, floats, kernel_attrs = "SparseApplyAdadelta", 3, ("epsilon",), ("epsilon",)


__all__ = ["ApplyMomentum", "ApplyGradientDescent", "SGD", "Adam", "AdamWeightDecay", "ApplyRMSProp",
           "ApplyCenteredRMSProp", "ApplyAdagrad", "ApplyAdadelta", "ApplyAdaMax", "ApplyFtrl", "ApplyProximalAdagrad",
           "ApplyAdagradV2", "ApplyAddSign", "ApplyPowerSign", "ApplyProximalGradientDescent", "ApplyKerasMomentum",
           "ApplyAdamWithAmsgrad", "ApplyAdamWithAmsgradV2", "ApplyAdagradDA",
           "SparseApplyAdagrad", "SparseApplyAdagradV2", "SparseApplyProximalAdagrad", "SparseApplyFtrl",
           "SparseApplyRMSProp", "SparseApplyAdadelta"]
