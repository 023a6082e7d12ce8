"""nn.Adam (bias-corrected, optional Nesterov) and nn.AdamWeightDecay (decoupled weight decay, no correction)."""
from __future__ import annotations

import numpy as np

from ... import ops
from ...core.dispatch import bind
from ...core.tensor import Parameter, Tensor
from ...ops import optim_kernels as K
from .optimizer import Optimizer, clone_state


def _check_betas(beta1, beta2, eps, owner: str) -> None:
    for name, v, lo, hi in (("beta1", beta1, 0.0, 1.0), ("beta2", beta2, 0.0, 1.0)):
        if not isinstance(v, float) or not lo < v < hi:
            raise ValueError(f"For '{owner}', '{name}' must be a float in (0.0, 1.0), but got {v!r}.")
    if not isinstance(eps, float) or eps <= 0:
        raise ValueError(f"For '{owner}', 'eps' must be a float > 0, but got {eps!r}.")


class Adam(Optimizer):
    """m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2; param -= lr sqrt(1-b2^t)/(1-b1^t) m / (sqrt(v) + eps).
    State: ``beta1_power``, ``beta2_power``, ``moment1.<param>``, ``moment2.<param>``."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_betas(beta1, beta2, eps, "Adam")
        if set(kwargs) - {"use_lazy", "use_offload"}:  # MindSpore 2.10's KeyError and message
            raise KeyError(f"For 'Adam', invalid keys are passed as kwargs, supported keys are 'use_lazy' and"
                           f"'use_offload', but got {kwargs.keys()}.")
        # use_offload keeps the moments in host memory and updates there: on a CPU framework that is this update
        if use_amsgrad or kwargs.get("use_lazy"):
            raise NotImplementedError("Adam: use_amsgrad and use_lazy are not supported by sprout")
        for name, v in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            if not isinstance(v, bool):
                raise TypeError(f"For 'Adam', '{name}' must be a bool, but got {type(v).__name__}.")
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.use_locking, self.use_nesterov, self.use_amsgrad = use_locking, use_nesterov, use_amsgrad
        self.beta1_power = Parameter(Tensor(np.float32(1)), name="beta1_power", requires_grad=False)
        self.beta2_power = Parameter(Tensor(np.float32(1)), name="beta2_power", requires_grad=False)
        self.moment1 = clone_state(self.parameters, "moment1", "zeros")
        self.moment2 = clone_state(self.parameters, "moment2", "zeros")

    def construct(self, gradients):
        gradients = self.scale_grad(self.gradients_centralization(self.decay_weight(self._check_grads(gradients))))
        lrs = self._lr_list(self.get_lr())
        self._step_count()
        b1p = ops.assign(self.beta1_power, ops.mul(self.beta1_power, self.beta1))
        b2p = ops.assign(self.beta2_power, ops.mul(self.beta2_power, self.beta2))
        attrs = {"use_nesterov": True} if self.use_nesterov else {}
        for p, m, v, lr, g in zip(self.parameters, self.moment1, self.moment2, lrs, gradients):
            bind(K.ADAM, (p, m, v, b1p, b2p, lr, self.beta1, self.beta2, self.eps, g), attrs)
        return True


class AdamOffload(Adam):
    """Adam whose moments live in host memory and are updated on the CPU (MindSpore's AdamNoUpdateParam kernel
    gives the step, added to the parameter): the same update as Adam; ``beta1_power``/``beta2_power`` have shape
    (1,) as MindSpore's."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay, loss_scale)
        self.beta1_power = Parameter(Tensor(np.ones(1, np.float32)), name="beta1_power", requires_grad=False)
        self.beta2_power = Parameter(Tensor(np.ones(1, np.float32)), name="beta2_power", requires_grad=False)


class AdamWeightDecay(Optimizer):
    """Adam with decoupled weight decay and no bias correction:
    param -= lr * (m / (sqrt(v) + eps) + weight_decay * param). State ``adam_m.<param>``, ``adam_v.<param>``."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_betas(beta1, beta2, eps, "AdamWeightDecay")
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.moments1 = clone_state(self.parameters, "adam_m", "zeros")
        self.moments2 = clone_state(self.parameters, "adam_v", "zeros")

    def construct(self, gradients):
        gradients = self._check_grads(gradients)
        lrs = self._lr_list(self.get_lr())
        self._step_count()
        wds = self.weight_decay if self.is_group else (self.weight_decay,) * self.param_length
        for p, m, v, lr, g, wd, flag in zip(self.parameters, self.moments1, self.moments2, lrs, gradients, wds,
                                            self.decay_flags):
            bind(K.ADAM_WEIGHT_DECAY, (p, m, v, lr, self.beta1, self.beta2, self.eps, wd if flag else 0.0, g), {})
        return True
