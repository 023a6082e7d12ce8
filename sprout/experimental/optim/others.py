"""SGD-family and adaptive experimental optimizers (SGD, ASGD, Rprop, Adadelta, Adagrad, RMSprop) with MindSpore
2.10's update rules and state names."""
from __future__ import annotations

from ... import dtype as mstype
from ... import ops
from .adam import _Stateful
from .optimizer import check_greater_than, check_not_less_than, check_range


def _type(value, types, name, owner):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"For '{owner}', the '{name}' must be {' or '.join(t.__name__ for t in types)}, "
                        f"but got {type(value).__name__}.")


class SGD(_Stateful):
    """SGD as MindSpore's SGD kernel: ``g += weight_decay * p``; the first step sets ``accum = g``, later ones
    ``accum = momentum * accum + (1 - dampening) * g``; ``p -= lr * (g + momentum * accum)`` with Nesterov, else
    ``p -= lr * accum``."""

    _STATE = (("accum", "zeros"), ("stat", "ones"))

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *, maximize=False):
        from ...core.tensor import Tensor

        _type(lr, (float, int, Tensor), "lr", "SGD")
        if not isinstance(lr, Tensor) and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        _type(momentum, (int, float), "momentum", "SGD")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        _type(nesterov, (bool,), "nesterov", "SGD")
        _type(maximize, (bool,), "maximize", "SGD")
        super().__init__(params, dict(lr=lr, momentum=float(momentum), dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, grad_centralization=False))
        for group in self.param_groups:
            _type(group["dampening"], (int, float), "dampening", "SGD")
            group["dampening"] = float(group["dampening"])
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise ValueError("For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must equal "
                             f"to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}")

    def construct(self, gradients):
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            lr, mom, damp = self.lrs[gid], group["momentum"], group["dampening"]
            for p, g, acc, stat in zip(params, grads, self._slice("accum", gid), self._slice("stat", gid)):
                first = ops.greater(stat, 0.0)
                acc_new = ops.where(first, g, acc * mom + g * (1.0 - damp))
                ops.assign(acc, acc_new)
                ops.assign(stat, ops.zeros_like(stat))
                step = g + acc_new * mom if group["nesterov"] else acc_new
                ops.assign(p, p - step * lr)
        return True


class ASGD(_Stateful):
    """Averaged SGD: ``p = p * (1 - lambd * eta) - eta * g``, the average ``ax`` follows p with weight ``mu``;
    ``eta = lr / (1 + lambd * lr * t)^alpha`` and ``mu = 1 / max(1, t - t0)`` after each step."""

    _STATE = (("ax", "zeros"),)
    _SCALARS = (("mu", 1.0), ("eta", 0.0))
    _STEP = "step_t"

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0, maximize=False):
        check_greater_than(lr, "lr", "ASGD")
        check_not_less_than(weight_decay, "weight_decay", "ASGD")
        if not isinstance(lambd, float):
            raise TypeError(f"For 'ASGD', the type of lambd must be float, but got {type(lambd)}.")
        if not isinstance(t0, float):
            raise TypeError(f"For 'ASGD', the type of t0 must be float, but got {type(t0)}.")
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                                      maximize=maximize))

    def construct(self, gradients):
        t = self._tick()
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            lr, lambd = self.lrs[gid], group["lambd"]
            for p, g, ax, mu, eta in zip(params, grads, self._slice("ax", gid), self._slice("mu", gid),
                                         self._slice("eta", gid)):
                eta_now = ops.where(ops.equal(t, 1.0), lr, eta)
                p_new = p * (1.0 - lambd * eta_now) - eta_now * g
                ops.assign(p, p_new)
                ops.assign(ax, ops.where(ops.equal(mu, 1.0), p_new, ax + (p_new - ax) * mu))
                ops.assign(eta, lr / ops.pow(1.0 + lambd * lr * t, group["alpha"]))
                ops.assign(mu, 1.0 / ops.maximum(t - group["t0"], 1.0))
        return True


class Rprop(_Stateful):
    """Resilient propagation: per-element step sizes grow by etas[1] while the gradient keeps its sign and
    shrink by etas[0] when it flips (that step skips the update), clipped to ``step_sizes``."""

    _STATE = (("prev", "zeros"), ("step_size", "zeros"))
    _STEP = "step_t"

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, maximize=False):
        check_greater_than(lr, "lr", "Rprop")
        check_greater_than(etas[1], "etas[1]", "Rprop", 1.0)
        check_range(etas[0], "etas[0]", "Rprop", 0.0, 1.0, left_open=True)
        super().__init__(params, dict(lr=lr, etas=etas, step_sizes=step_sizes, maximize=maximize))

    def construct(self, gradients):
        t = self._tick()
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            eta_minus, eta_plus = group["etas"]
            lo, hi = group["step_sizes"]
            lr = self.lrs[gid]
            for p, g, prev, size in zip(params, grads, self._slice("prev", gid), self._slice("step_size", gid)):
                size_now = ops.where(ops.equal(t, 1.0), ops.ones_like(size) * lr, size)
                s = ops.sign(g * prev)
                factor = ops.where(ops.greater(s, 0), ops.full_like(s, eta_plus),
                                   ops.where(ops.less(s, 0), ops.full_like(s, eta_minus), ops.ones_like(s)))
                size_new = ops.clamp(size_now * factor, lo, hi)
                ops.assign(size, size_new)
                g_used = ops.where(ops.less(s, 0), ops.zeros_like(g), g)
                ops.assign(prev, g_used)
                ops.assign(p, p - ops.sign(g_used) * size_new)
        return True


class Adadelta(_Stateful):
    """Adadelta: ``accum = rho * accum + (1 - rho) * g^2``, ``d = sqrt(accum_update + eps) / sqrt(accum + eps)
    * g``, ``accum_update = rho * accum_update + (1 - rho) * d^2``, ``p -= lr * d``."""

    _STATE = (("accum", "zeros"), ("accum_update", "zeros"))

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False):
        check_greater_than(lr, "lr", "Adadelta")
        check_greater_than(eps, "eps", "Adadelta")
        check_not_less_than(weight_decay, "weight_decay", "Adadelta")
        check_range(rho, "rho", "Adadelta", 0.0, 1.0, right_open=False)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize))

    def construct(self, gradients):
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            rho, eps, lr = group["rho"], group["eps"], self.lrs[gid]
            for p, g, acc, upd in zip(params, grads, self._slice("accum", gid), self._slice("accum_update", gid)):
                acc_new = acc * rho + g * g * (1.0 - rho)
                delta = ops.sqrt(upd + eps) / ops.sqrt(acc_new + eps) * g
                ops.assign(acc, acc_new)
                ops.assign(upd, upd * rho + delta * delta * (1.0 - rho))
                ops.assign(p, p - lr * delta)
        return True


class Adagrad(_Stateful):
    """Adagrad: ``accum += g^2``, ``p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(accum) + eps)``."""

    _STEP = "step_t"

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10,
                 *, maximize=False):
        owner = "Adagrad"
        check_greater_than(lr, "lr", owner)
        check_not_less_than(lr_decay, "lr_decay", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        check_not_less_than(initial_accumulator_value, "initial_accumulator_value", owner)
        check_greater_than(eps, "eps", owner)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, maximize=maximize))

    def _state(self):
        return (("accum", float(self.defaults["initial_accumulator_value"])),)

    def construct(self, gradients):
        done = ops.cast(self.step_t, mstype.float32)
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            lr = self.lrs[gid] / (1.0 + done * group["lr_decay"])
            for p, g, acc in zip(params, grads, self._slice("accum", gid)):
                acc_new = acc + g * g
                ops.assign(acc, acc_new)
                ops.assign(p, p - lr * g / (ops.sqrt(acc_new) + group["eps"]))
        self._tick()
        return True


class RMSprop(_Stateful):
    """RMSprop: ``ms = alpha * ms + (1 - alpha) * g^2``; centered subtracts the squared running mean of g;
    with momentum ``mom = momentum * mom + g / avg`` and ``p -= lr * mom``, else ``p -= lr * g / avg``."""

    _STATE = (("mean_grad", "zeros"), ("mean_square", "zeros"), ("moment", "zeros"))

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False,
                 maximize=False):
        owner = "RMSprop"
        check_greater_than(lr, "lr", owner)
        check_not_less_than(alpha, "alpha", owner)
        check_greater_than(eps, "eps", owner)
        check_not_less_than(momentum, "momentum", owner)
        check_not_less_than(weight_decay, "weight_decay", owner)
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, maximize=maximize))

    def construct(self, gradients):
        for gid, group in enumerate(self.param_groups):
            params, grads = self._group(gradients, gid)
            grads = self._decay_weight(group["weight_decay"], params, grads)
            alpha, eps, mom, lr = group["alpha"], group["eps"], group["momentum"], self.lrs[gid]
            for p, g, mg, ms_, mo in zip(params, grads, self._slice("mean_grad", gid), self._slice("mean_square", gid),
                                         self._slice("moment", gid)):
                ms_new = ms_ * alpha + g * g * (1.0 - alpha)
                ops.assign(ms_, ms_new)
                if group["centered"]:
                    mg_new = mg * alpha + g * (1.0 - alpha)
                    ops.assign(mg, mg_new)
                    avg = ops.sqrt(ms_new - mg_new * mg_new) + eps
                else:
                    avg = ops.sqrt(ms_new) + eps
                if mom > 0:
                    mo_new = mo * mom + g / avg
                    ops.assign(mo, mo_new)
                    ops.assign(p, p - mo_new * lr)
                else:
                    ops.assign(p, p - lr * g / avg)
        return True
