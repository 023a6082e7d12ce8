"""nn.SGD: stochastic gradient descent with optional momentum, dampening and Nesterov (MindSpore semantics)."""
from __future__ import annotations

import numpy as np

from ...core.dispatch import bind
from ...core.tensor import Parameter, Tensor
from ...ops import optim_kernels as K
from .optimizer import Optimizer, clone_state


class SGD(Optimizer):
    """accum = grad on the first step, then accum = momentum * accum + (1 - dampening) * grad;
    param -= lr * (grad + momentum * accum if nesterov else accum). With momentum 0: param -= lr * grad."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = float(momentum) if isinstance(momentum, int) and not isinstance(momentum, bool) else momentum
        dampening = float(dampening) if isinstance(dampening, int) and not isinstance(dampening, bool) else dampening
        if not isinstance(momentum, float) or momentum < 0.0:
            raise ValueError(f"For 'SGD', the argument 'momentum' must be a float >= 0.0, but got {momentum!r}.")
        if not isinstance(dampening, float) or dampening < 0.0:
            raise ValueError(f"For 'SGD', the argument 'dampening' must be a float >= 0.0, but got {dampening!r}.")
        if not isinstance(nesterov, bool):
            raise TypeError(f"For 'SGD', 'nesterov' must be a bool, but got {type(nesterov).__name__}.")
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal "
                             f"to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}.")
        self.dampening, self.nesterov = dampening, nesterov
        self.momentum = Parameter(Tensor(np.float32(momentum)), name="momentum", requires_grad=False)
        self._use_momentum = momentum > 0.0
        self.accum = clone_state(self.parameters, "accum", "zeros")
        self.stat = clone_state(self.parameters, "stat", "ones")

    def construct(self, gradients):
        gradients = self.scale_grad(self.gradients_centralization(self.decay_weight(self._check_grads(gradients))))
        lrs = self._lr_list(self.get_lr())
        self._step_count()
        if not self._use_momentum:
            for p, g, lr in zip(self.parameters, gradients, lrs):
                bind(K.APPLY_GRADIENT_DESCENT, (p, lr, g), {})
            return True
        attrs = {"dampening": self.dampening, "nesterov": self.nesterov}
        for p, g, lr, acc, st in zip(self.parameters, gradients, lrs, self.accum, self.stat):
            bind(K.SGD, (p, g, lr, acc, self.momentum, st), attrs)
        return True
