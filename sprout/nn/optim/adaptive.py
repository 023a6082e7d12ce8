"""Adaptive-rate optimizers: RMSProp (plain / centered), Adagrad, ProximalAdagrad, Adadelta, AdaMax, LazyAdam and
FTRL, each one fused update primitive per parameter (ops/optim_kernels2.py) with MindSpore's state names."""
from __future__ import annotations

import numpy as np

from ... import ops
from ...core.dispatch import bind
from ...core.tensor import Parameter, Tensor
from .. import _check as V
from ...ops import optim_kernels as K
from ...ops import optim_kernels2 as K2
from .adam import _check_betas
from .optimizer import Optimizer, clone_state


def _float(value, name: str, owner: str, low=None, low_open=False, high=None, high_open=False) -> float:
    return V.float_value(value, name, owner, low, high, low_open, high_open, allow_int=False)


def _power(name: str) -> Parameter:
    return Parameter(Tensor(np.ones(1, np.float32)), name=name, requires_grad=False)


class _Prepared(Optimizer):
    """Shared first half of a step: weight decay, gradient centralisation, loss scale, the step's learning rates and
    the step count."""

    def _prepare(self, gradients):
        gradients = self._check_grads(gradients)
        gradients = self.scale_grad(self.gradients_centralization(self.decay_weight(gradients)))
        lrs = self._lr_list(self.get_lr())
        self._step_count()
        return gradients, lrs


class RMSProp(_Prepared):
    """ms = decay ms + (1 - decay) g^2; moment = momentum moment + lr g / sqrt(ms + eps); param -= moment
    (``centered``: the running mean gradient mg is subtracted, sqrt(ms - mg^2 + eps)). State ``mean_square``
    (starts at 1), ``moment`` and, centered, ``mean_grad``."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = self.cls_name
        self.decay = _float(decay, "decay", owner, 0.0)
        self.momentum = _float(momentum, "momentum", owner, 0.0)
        self.epsilon = _float(epsilon, "epsilon", owner, 0.0, low_open=True)
        self.use_locking = V.type_of(use_locking, bool, "use_locking", owner)
        self.centered = V.type_of(centered, bool, "centered", owner)
        if centered:
            self.mg = clone_state(self.parameters, "mean_grad", "zeros")
        self.ms = clone_state(self.parameters, "mean_square", "ones")
        self.moment = clone_state(self.parameters, "moment", "zeros")

    def construct(self, gradients):
        gradients, lrs = self._prepare(gradients)
        hyper = (self.decay, self.momentum, self.epsilon)
        if self.centered:
            for p, mg, ms, mom, g, lr in zip(self.parameters, self.mg, self.ms, self.moment, gradients, lrs):
                bind(K2.APPLY_CENTERED_RMSPROP, (p, mg, ms, mom, g, lr) + hyper, {})
        else:
            for p, ms, mom, g, lr in zip(self.parameters, self.ms, self.moment, gradients, lrs):
                bind(K2.APPLY_RMSPROP, (p, ms, mom, lr, g) + hyper, {})
        return True


class Adagrad(_Prepared):
    """accum += g^2 (``update_slots``); param -= lr g / sqrt(accum). State ``accum`` starts at ``accum``."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = self.cls_name
        accum = _float(accum, "accum", owner, 0.0)
        self.update_slots = V.type_of(update_slots, bool, "update_slots", owner)
        self.accum = clone_state(self.parameters, "accum", accum)

    def construct(self, grads):
        grads, lrs = self._prepare(grads)
        for p, acc, g, lr in zip(self.parameters, self.accum, grads, lrs):
            bind(K2.APPLY_ADAGRAD, (p, acc, lr, g), {"update_slots": self.update_slots})
        return True


class ProximalAdagrad(_Prepared):
    """Adagrad followed by the proximal step of l1 (soft threshold) and l2 (shrink) regularisation."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = self.cls_name
        accum = _float(accum, "accum", owner, 0.0)
        self.l1 = _float(l1, "l1", owner, 0.0)
        self.l2 = _float(l2, "l2", owner, 0.0)
        self.use_locking = V.type_of(use_locking, bool, "use_locking", owner)
        self.accum = clone_state(self.parameters, "accum", accum)

    def construct(self, grads):
        grads, lrs = self._prepare(grads)
        for p, acc, g, lr in zip(self.parameters, self.accum, grads, lrs):
            bind(K2.APPLY_PROXIMAL_ADAGRAD, (p, acc, lr, self.l1, self.l2, g), {})
        return True


class Adadelta(_Prepared):
    """accum = rho accum + (1 - rho) g^2; u = sqrt(accum_update + eps) / sqrt(accum + eps) g;
    accum_update = rho accum_update + (1 - rho) u^2; param -= lr u."""

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = self.cls_name
        self.rho = _float(rho, "rho", owner, 0.0, high=1.0)
        self.epsilon = _float(epsilon, "epsilon", owner, 0.0)
        self.accum = clone_state(self.parameters, "accum", "zeros")
        self.accum_update = clone_state(self.parameters, "accum_update", "zeros")

    def construct(self, grads):
        if not isinstance(grads, tuple) or not grads or not isinstance(grads[0], Tensor):
            raise TypeError("For 'Adadelta', the 'grads' must be a tuple of Tensor.")
        grads, lrs = self._prepare(grads)
        for p, acc, upd, g, lr in zip(self.parameters, self.accum, self.accum_update, grads, lrs):
            bind(K2.APPLY_ADADELTA, (p, acc, upd, lr, self.rho, self.epsilon, g), {})
        return True


class AdaMax(_Prepared):
    """m = b1 m + (1 - b1) g; v = max(b2 v, |g|); param -= lr / (1 - b1^t) m / (v + eps). State ``beta1_power``,
    ``moment1``, ``moment2``."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(beta1, beta2, eps, self.cls_name)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.beta1_power = _power("beta1_power")
        self.moment1 = clone_state(self.parameters, "moment1", "zeros")
        self.moment2 = clone_state(self.parameters, "moment2", "zeros")

    def construct(self, gradients):
        gradients, lrs = self._prepare(gradients)
        b1p = ops.assign(self.beta1_power, ops.mul(self.beta1_power, self.beta1))
        for p, m, v, g, lr in zip(self.parameters, self.moment1, self.moment2, gradients, lrs):
            bind(K2.APPLY_ADAMAX, (p, m, v, b1p, lr, self.beta1, self.beta2, self.eps, g), {})
        return True


class LazyAdam(_Prepared):
    """Adam whose sparse gradients update only the touched rows; with dense gradients (what sprout's autodiff
    produces) it is exactly Adam. State ``beta1_power``, ``beta2_power`` (shape [1]), ``moment1``, ``moment2``."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(beta1, beta2, eps, self.cls_name)
        self.use_locking = V.type_of(use_locking, bool, "use_locking", self.cls_name)
        self.use_nesterov = V.type_of(use_nesterov, bool, "use_nesterov", self.cls_name)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.beta1_power = _power("beta1_power")
        self.beta2_power = _power("beta2_power")
        self.moment1 = clone_state(self.parameters, "moment1", "zeros")
        self.moment2 = clone_state(self.parameters, "moment2", "zeros")

    def construct(self, gradients):
        gradients, lrs = self._prepare(gradients)
        b1p = ops.assign(self.beta1_power, ops.mul(self.beta1_power, self.beta1))
        b2p = ops.assign(self.beta2_power, ops.mul(self.beta2_power, self.beta2))
        attrs = {"use_nesterov": True} if self.use_nesterov else {}
        for p, m, v, lr, g in zip(self.parameters, self.moment1, self.moment2, lrs, gradients):
            bind(K.ADAM, (p, m, v, b1p, b2p, lr, self.beta1, self.beta2, self.eps, g), attrs)
        return True


class FTRL(_Prepared):
    """Follow-the-regularized-leader (FTRL-proximal) with l1/l2 regularisation; weight decay applies to every
    parameter. State ``moments`` (starts at ``initial_accum``) and ``linear``; a fixed float learning rate only."""

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        owner = self.cls_name
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"For 'FTRL', dynamic learning rate and group learning rate are currently not supported "
                             f"in FTRL, they should all be false, but got dynamic learning rate {self.dynamic_lr} and "
                             f"group learning rate {self.is_group_lr}.")
        initial_accum = _float(initial_accum, "initial_accum", owner, 0.0)
        self.lr = _float(learning_rate, "learning_rate", owner, 0.0, low_open=True)
        self.lr_power = _float(lr_power, "lr_power", owner, high=0.0)
        self.l1 = _float(l1, "l1", owner, 0.0)
        self.l2 = _float(l2, "l2", owner, 0.0)
        self.use_locking = V.type_of(use_locking, bool, "use_locking", owner)
        if not self.is_group:
            self.decay_flags = tuple(True for _ in self.parameters)
        self.moments = clone_state(self.parameters, "moments", initial_accum)
        self.linear = clone_state(self.parameters, "linear", "zeros")

    def construct(self, grads):
        grads, lrs = self._prepare(grads)
        for p, acc, lin, g, lr in zip(self.parameters, self.moments, self.linear, grads, lrs):
            bind(K2.APPLY_FTRL, (p, acc, lin, g, lr, self.l1, self.l2, self.lr_power), {})
        return True
