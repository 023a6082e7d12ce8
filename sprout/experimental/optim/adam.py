"""Adam-family experimental optimizers (Adam, AdamW, Adamax, NAdam, RAdam) with MindSpore 2.10's update rules
and state names; every update is sprout ops on Parameters (``ops.assign``), so a jitted train step compiles it."""
from __future__ import annotations

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Parameter, ParameterTuple, Tensor
from .optimizer import Optimizer, check_greater_than, check_not_less_than, check_range


class _Stateful(Optimizer):
    """An optimizer with per-parameter state: ``_STATE`` (attribute/prefix, init) tuples shaped like the
    parameters ("exp_avg.w"), ``_SCALARS`` (attribute, value) one scalar Float32 Parameter per parameter
    ("mu_w"), and, when ``_STEP`` names one, a step counter Parameter incremented by ``_tick``."""

    _STATE: tuple = ()
    _SCALARS: tuple = ()
    _STEP = ""

    def __init__(self, params, defaults):
        super().__init__(params, defaults)
        for name, init in self._state():
            setattr(self, name, self.parameters.clone(prefix=name, init=init))
        for name, value in self._SCALARS:
            setattr(self, name, ParameterTuple(self._scalars(name, value, self.parameters)))
        if self._STEP:
            setattr(self, self._STEP, Parameter(Tensor(0, mstype.int32), name=self._STEP, requires_grad=False))

    @staticmethod
    def _scalars(name, value, params):
        return [Parameter(Tensor(value, mstype.float32), name=f"{name}_{p.name}", requires_grad=False)
                for p in params]

    def _state(self):
        return self._STATE

    def _new_group_state(self, group):
        new = ParameterTuple(group["params"])
        for name, init in self._state():
            setattr(self, name, ParameterTuple(tuple(getattr(self, name)) + tuple(new.clone(prefix=name, init=init))))
        for name, value in self._SCALARS:
            setattr(self, name, ParameterTuple(tuple(getattr(self, name)) + tuple(self._scalars(name, value, new))))

    def _slice(self, name, gid):
        return getattr(self, name)[self.group_start_id[gid]:self.group_start_id[gid + 1]]

    def _tick(self):
        step = getattr(self, self._STEP)
        ops.assign_add(step, Tensor(1, mstype.int32))
        return ops.cast(step, mstype.float32)


def _check_adam_args(owner, lr, betas, eps, weight_decay):
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(_Stateful):
    """Adam as MindSpore's Adam kernel computes it: ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``,
    ``param -= lr_t * m / (sqrt(v) + eps)``; weight decay is added to the gradient (L2). ``amsgrad`` uses the
    running maximum of v (MindSpore 2.10 accepts it and ignores it)."""

    _STATE = (("exp_avg", "zeros"), ("exp_avg_sq", "zeros"), ("max_exp_avg_sq", "zeros"))
    _STEP = "state_step"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        _check_adam_args(self.__class__.__name__, lr, betas, eps, weight_decay)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize))

    def construct(self, gradients):
        t = self._tick()
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            b1, b2 = group["betas"]
            lr_t = self.lrs[gid] * ops.sqrt(1.0 - ops.pow(b2, t)) / (1.0 - ops.pow(b1, t))
            for p, g, m, v, vmax in zip(params, grads, self._slice("exp_avg", gid), self._slice("exp_avg_sq", gid),
                                        self._slice("max_exp_avg_sq", gid)):
                m_new = m + (g - m) * (1.0 - b1)
                v_new = v + (g * g - v) * (1.0 - b2)
                ops.assign(m, m_new)
                ops.assign(v, v_new)
                if group["amsgrad"]:
                    v_new = ops.maximum(vmax, v_new)
                    ops.assign(vmax, v_new)
                ops.assign(p, p - lr_t * m_new / (ops.sqrt(v_new) + group["eps"]))
        return True


class AdamW(Adam):
    """AdamW: ``param *= 1 - lr * weight_decay`` (decoupled), then the bias-corrected Adam step
    ``param -= lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)``."""

    _STATE = (("exp_avg", "zeros"), ("exp_avg_sq", "zeros"), ("max_exp_avg_sq", "zeros"))
    _STEP = "state_step"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        Adam.__init__(self, params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)

    def construct(self, gradients):
        t = self._tick()
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            b1, b2 = group["betas"]
            lr = self.lrs[gid]
            decay = 1.0 - lr * group["weight_decay"]
            step_size = lr / (1.0 - ops.pow(b1, t))
            bc2_sqrt = ops.sqrt(1.0 - ops.pow(b2, t))
            for p, g, m, v, vmax in zip(params, grads, self._slice("exp_avg", gid), self._slice("exp_avg_sq", gid),
                                        self._slice("max_exp_avg_sq", gid)):
                m_new = m * b1 + g * (1.0 - b1)
                v_new = v * b2 + g * g * (1.0 - b2)
                ops.assign(m, m_new)
                ops.assign(v, v_new)
                if group["amsgrad"]:
                    v_new = ops.maximum(vmax, v_new)
                    ops.assign(vmax, v_new)
                denom = ops.sqrt(v_new) / bc2_sqrt + group["eps"]
                ops.assign(p, p * decay - m_new / denom * step_size)
        return True


class Adamax(_Stateful):
    """Adamax: ``u = max(beta2 * u, |g| + eps)``, ``param -= lr / (1 - beta1^t) * m / u``."""

    _STATE = (("exp_avg", "zeros"), ("exp_inf", "zeros"))
    _STEP = "step_t"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *, maximize=False):
        owner = "Adamax"
        check_greater_than(lr, "lr", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_greater_than(eps, "eps", owner)
        check_range(betas[0], "betas[0]", owner, 0.0, 1.0)
        check_range(betas[1], "betas[1]", owner, 0.0, 1.0)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize))

    def construct(self, gradients):
        t = self._tick()
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            b1, b2 = group["betas"]
            clr = self.lrs[gid] / (1.0 - ops.pow(b1, t))
            for p, g, m, u in zip(params, grads, self._slice("exp_avg", gid), self._slice("exp_inf", gid)):
                m_new = m * b1 + g * (1.0 - b1)
                u_new = ops.maximum(u * b2, ops.abs(g) + group["eps"])
                ops.assign(m, m_new)
                ops.assign(u, u_new)
                ops.assign(p, p - clr * m_new / u_new)
        return True


class NAdam(_Stateful):
    """NAdam with momentum decay: ``mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay))``, a per-parameter
    product of the mu's, and the Nesterov-style two-term update."""

    _STATE = (("exp_avg", "zeros"), ("exp_avg_sq", "zeros"))
    _SCALARS = (("mu_product", 1.0),)
    _STEP = "step_t"

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, momentum_decay=4e-3):
        owner = "NAdam"
        check_greater_than(lr, "lr", owner)
        check_greater_than(eps, "eps", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_not_less_than(momentum_decay, "momentum_decay", owner)
        check_range(betas[0], "betas[0]", owner, 0.0, 1.0)
        check_range(betas[1], "betas[1]", owner, 0.0, 1.0)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay))

    def construct(self, gradients):
        t = self._tick()
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            b1, b2 = group["betas"]
            md, lr = group["momentum_decay"], self.lrs[gid]
            bc2 = 1.0 - ops.pow(b2, t)
            mu = b1 * (1.0 - 0.5 * ops.pow(0.96, t * md))
            mu_next = b1 * (1.0 - 0.5 * ops.pow(0.96, (t + 1.0) * md))
            for p, g, m, v, prod in zip(params, grads, self._slice("exp_avg", gid), self._slice("exp_avg_sq", gid),
                                        self._slice("mu_product", gid)):
                prod_new = prod * mu
                m_new = m * b1 + g * (1.0 - b1)
                v_new = v * b2 + g * g * (1.0 - b2)
                ops.assign(prod, prod_new)
                ops.assign(m, m_new)
                ops.assign(v, v_new)
                denom = ops.sqrt(v_new / bc2) + group["eps"]
                p1 = p - lr * (1.0 - mu) / (1.0 - prod_new) * g / denom
                ops.assign(p, p1 - lr * mu_next / (1.0 - prod_new * mu_next) * m_new / denom)
        return True


class RAdam(_Stateful):
    """Rectified Adam: the adaptive step (with the variance rectification term) once ``rho_t > 5``, plain
    bias-corrected momentum before."""

    _STATE = (("exp_avg", "zeros"), ("exp_avg_sq", "zeros"))
    _STEP = "step_t"

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        owner = "RAdam"
        check_greater_than(lr, "lr", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_greater_than(eps, "eps", owner)
        check_range(betas[0], "betas[0]", owner, 0.0, 1.0)
        check_range(betas[1], "betas[1]", owner, 0.0, 1.0)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay))

    def construct(self, gradients):
        t = self._tick()
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            b1, b2 = group["betas"]
            lr = self.lrs[gid]
            bc1 = 1.0 - ops.pow(b1, t)
            bc2 = 1.0 - ops.pow(b2, t)
            rho_inf = 2.0 / (1.0 - b2) - 1.0
            rho_t = rho_inf - 2.0 * t * ops.pow(b2, t) / bc2
            rect = ops.sqrt(ops.maximum((rho_t - 4.0) * (rho_t - 2.0) * rho_inf, 0.0) /
                            ((rho_inf - 4.0) * (rho_inf - 2.0) * rho_t))
            use_rect = ops.greater(rho_t, 5.0)
            for p, g, m, v in zip(params, grads, self._slice("exp_avg", gid), self._slice("exp_avg_sq", gid)):
                m_new = m * b1 + g * (1.0 - b1)
                v_new = v * b2 + g * g * (1.0 - b2)
                ops.assign(m, m_new)
                ops.assign(v, v_new)
                m_hat = m_new / bc1
                adaptive = ops.sqrt(bc2) / (ops.sqrt(v_new) + group["eps"])
                step = ops.where(use_rect, m_hat * lr * adaptive * rect, m_hat * lr)
                ops.assign(p, p - step)
        return True
