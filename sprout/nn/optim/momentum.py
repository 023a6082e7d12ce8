"""nn.Momentum: accum = momentum * accum + grad; param -= lr * accum (or the Nesterov form)."""
from __future__ import annotations

import numpy as np

from ...core.dispatch import bind
from ...core.tensor import Parameter, Tensor
from ...ops import optim_kernels as K
from .optimizer import Optimizer, clone_state


class Momentum(Optimizer):
    """Momentum SGD with MindSpore's ApplyMomentum update; state ``moments.<param>``."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if not isinstance(momentum, float) or momentum < 0.0:
            raise ValueError(f"For 'Momentum', the argument 'momentum' must be a float >= 0.0, but got {momentum!r}.")
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"For 'Momentum', 'use_nesterov' must be a bool, got {type(use_nesterov).__name__}.")
        self.momentum = Parameter(Tensor(np.float32(momentum)), name="momentum", requires_grad=False)
        self.params = self.parameters
        self.use_nesterov = use_nesterov
        self.moments = clone_state(self.parameters, "moments", "zeros")

    def construct(self, gradients):
        gradients = self.scale_grad(self.gradients_centralization(self.decay_weight(self._check_grads(gradients))))
        lrs = self._lr_list(self.get_lr())
        self._step_count()
        attrs = {"use_nesterov": True} if self.use_nesterov else {}
        for p, m, lr, g in zip(self.parameters, self.moments, lrs, gradients):
            bind(K.APPLY_MOMENTUM, (p, m, lr, g, self.momentum), attrs)
        return True
