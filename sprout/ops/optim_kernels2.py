"""More fused in-place optimizer updates (one side-effect primitive per parameter, like optim_kernels.py): RMSProp
(plain and centered), Adagrad, Adadelta, AdaMax, FTRL, ProximalAdagrad, Lamb, ASGD, Rprop and AdaFactor.
Formulas follow MindSpore's kernels (ApplyRMSProp, ApplyAdagrad, ... and the composite ASGD/Rprop/AdaFactor)."""
from __future__ import annotations

import numpy as np

from ..core.op import Op, register
from .optim_check import strict


def _effect(name: str, impl, mutates: tuple, same: tuple = (), scalars: tuple | None = None):
    """An in-place update primitive; input 0 is the variable, inputs at ``same`` must have its shape; the other
    positional inputs not written in place are hyper-parameters (numbers or one-element tensors) unless
    ``scalars`` lists them (``optim_check.strict``: checked before the kernel writes anything)."""
    kernel, infer = strict(name, impl, same, mutates, scalars)
    return register(Op(name, kernel, infer, None, kind="effect", side_effect=True, doc=impl.__doc__ or "",
                       extra={"mutates": mutates}))


def _f(v, like):
    return np.asarray(v, like.dtype).reshape(()) if np.ndim(v) <= 1 and np.size(v) == 1 else np.asarray(v, like.dtype)


def _rmsprop(var, ms, mom, lr, grad, decay, momentum, epsilon):
    """ms = decay ms + (1 - decay) g^2; mom = momentum mom + lr g / sqrt(ms + eps); var -= mom"""
    lr, decay, momentum, epsilon = (_f(v, var) for v in (lr, decay, momentum, epsilon))
    ms *= decay
    ms += (1 - decay) * grad * grad
    mom *= momentum
    mom += lr * grad / np.sqrt(ms + epsilon)
    var -= mom
    return var


def _centered_rmsprop(var, mg, ms, mom, grad, lr, decay, momentum, epsilon):
    """as RMSProp with the variance ms - mg^2 (mg the running mean gradient) in the denominator"""
    lr, decay, momentum, epsilon = (_f(v, var) for v in (lr, decay, momentum, epsilon))
    mg *= decay
    mg += (1 - decay) * grad
    ms *= decay
    ms += (1 - decay) * grad * grad
    mom *= momentum
    mom += lr * grad / np.sqrt(ms - mg * mg + epsilon)
    var -= mom
    return var


def _adagrad(var, accum, lr, grad, update_slots=True):
    """accum += g^2 (if update_slots); var -= lr g / sqrt(accum)"""
    if update_slots:
        accum += grad * grad
    var -= _f(lr, var) * grad / np.sqrt(accum)
    return var


def _adadelta(var, accum, accum_update, lr, rho, epsilon, grad):
    """accum = rho accum + (1 - rho) g^2; u = sqrt(accum_update + eps) / sqrt(accum + eps) g;
    accum_update = rho accum_update + (1 - rho) u^2; var -= lr u"""
    lr, rho, epsilon = (_f(v, var) for v in (lr, rho, epsilon))
    accum *= rho
    accum += (1 - rho) * grad * grad
    update = np.sqrt(accum_update + epsilon) / np.sqrt(accum + epsilon) * grad
    accum_update *= rho
    accum_update += (1 - rho) * update * update
    var -= lr * update
    return var


def _adamax(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    """m = b1 m + (1 - b1) g; v = max(b2 v, |g|); var -= lr / (1 - b1^t) m / (v + eps)"""
    beta1_power, lr, beta1, beta2, epsilon = (_f(x, var) for x in (beta1_power, lr, beta1, beta2, epsilon))
    m *= beta1
    m += (1 - beta1) * grad
    np.maximum(beta2 * v, np.abs(grad), out=v)
    var -= lr / (1 - beta1_power) * m / (v + epsilon)
    return var


def _ftrl(var, accum, linear, grad, lr, l1, l2, lr_power):
    """FTRL-proximal: accum' = accum + g^2; linear += g - (accum'^-p - accum^-p) / lr var;
    var = (sign(linear) l1 - linear) / (accum'^-p / lr + 2 l2) where |linear| > l1, else 0"""
    lr, l1, l2, lr_power = (_f(v, var) for v in (lr, l1, l2, lr_power))
    new_accum = accum + grad * grad
    power = -lr_power
    sigma = (new_accum ** power - accum ** power) / lr
    linear += grad - sigma * var
    quadratic = new_accum ** power / lr + 2 * l2
    var[...] = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quadratic, 0)
    accum[...] = new_accum
    return var


def _proximal_adagrad(var, accum, lr, l1, l2, grad):
    """accum += g^2; with the per-element rate r = lr / sqrt(accum): v = var - r g;
    var = sign(v) max(|v| - r l1, 0) / (1 + r l2) (MindSpore's kernel scales l1/l2 by r; its docs use lr)"""
    lr, l1, l2 = (_f(v, var) for v in (lr, l1, l2))
    accum += grad * grad
    rate = lr / np.sqrt(accum)
    prox = var - rate * grad
    var[...] = np.sign(prox) / (1 + rate * l2) * np.maximum(np.abs(prox) - rate * l1, 0)
    return var


def _lamb(var, m, v, lr, beta1, beta2, epsilon, decay, global_step, grad):
    """Adam's bias-corrected direction r plus decay * var, scaled by the trust ratio ||var|| / ||r + decay var||"""
    lr, beta1, beta2, epsilon, decay = (_f(x, var) for x in (lr, beta1, beta2, epsilon, decay))
    t = float(np.asarray(global_step).reshape(-1)[0])
    m *= beta1
    m += (1 - beta1) * grad
    v *= beta2
    v += (1 - beta2) * grad * grad
    m_hat = m / (1 - beta1 ** t)
    v_hat = v / (1 - beta2 ** t)
    update = m_hat / (np.sqrt(v_hat) + epsilon) + decay * var
    w_norm = np.sqrt(np.sum(var * var))
    u_norm = np.sqrt(np.sum(update * update))
    ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else var.dtype.type(1)
    var -= lr * ratio * update
    return var


def _asgd(var, ax, mu, eta, lr, grad, step, lambd=1e-4, alpha=0.75, t0=1e6):
    """Averaged SGD (MindSpore's composite): on step 1 eta = lr; var = var (1 - lambd eta) - eta g;
    ax averages var with weight mu; then eta = lr / (1 + lambd lr step)^alpha, mu = 1 / max(1, step - t0)"""
    lr = float(np.asarray(lr).reshape(-1)[0])
    step = float(np.asarray(step).reshape(-1)[0])
    if step == 1:
        eta[...] = lr
    e = np.float32(eta.reshape(-1)[0])
    new = var.astype(np.float32) * (np.float32(1.0) - np.float32(lambd) * e) - e * grad.astype(np.float32)
    var[...] = new
    m = mu.reshape(-1)[0]
    if m != 1:
        ax += ((new - ax.astype(np.float32)) * m).astype(ax.dtype)
    else:
        ax[...] = var
    eta[...] = np.float32(lr) / np.power(np.float32(1.0) + np.float32(lambd * lr) * np.float32(step),
                                         np.float32(alpha))
    mu[...] = np.float32(1.0) / np.maximum(np.float32(1.0), np.float32(step) - np.float32(t0))
    return var


def _rprop(var, prev, step_size, lr, grad, step, etaminus=0.5, etaplus=1.2, step_min=1e-6, step_max=50.0):
    """Resilient propagation: per-element steps grow (etaplus) while the gradient keeps its sign and shrink
    (etaminus) when it flips; a flip skips that element's update and forgets its gradient."""
    dt = var.dtype.type
    if float(np.asarray(step).reshape(-1)[0]) == 1:
        size = np.full(var.shape, dt(float(np.asarray(lr).reshape(-1)[0])), var.dtype)
    else:
        size = step_size.astype(var.dtype)
    s = np.sign(grad * prev)
    factor = np.where(s > 0, dt(etaplus), np.where(s < 0, dt(etaminus), dt(1.0)))
    size = np.clip(size * factor, step_min, step_max).astype(var.dtype)
    g = np.where(factor == dt(etaminus), dt(0.0), grad)
    var -= np.sign(g) * size
    prev[...] = g
    step_size[...] = size
    return var


def _rms(x):
    return np.sqrt(np.mean(np.square(x)))


def _adafactor(param, exp_avg, row, col, sq, grad, lr, beta2t, eps1=1e-30, eps2=1e-3, clip_threshold=1.0, beta1=0.9,
               weight_decay=0.0, scale_parameter=True, first_moment=True, use_weight_decay=False):
    """AdaFactor: factored (row/column) second moments for matrices, full ones for vectors; the update is clipped
    to RMS <= clip_threshold, optionally smoothed by a first moment, and scaled by the parameter RMS."""
    f32 = np.float32
    lr = f32(np.asarray(lr).reshape(-1)[0])
    beta2t = f32(np.asarray(beta2t).reshape(-1)[0])
    g = grad.astype(f32)
    p = param.astype(f32)
    lr_update = lr * max(f32(eps2), _rms(p)) if scale_parameter else lr
    update = g * g + f32(eps1)
    if g.ndim >= 2:
        row[...] = row * beta2t + update.mean(-1) * (1 - beta2t)
        col[...] = col * beta2t + update.mean(-2) * (1 - beta2t)
        r_factor = 1.0 / np.sqrt(row / row.mean(-1, keepdims=True))
        update = r_factor[..., None] * (1.0 / np.sqrt(col))[..., None, :] * g
    else:
        sq[...] = sq * beta2t + update * (1 - beta2t)
        update = g / np.sqrt(sq)
    update = update / max(_rms(update) / f32(clip_threshold), f32(1.0)) * lr_update
    if first_moment:
        exp_avg[...] = exp_avg * f32(beta1) + update * (1 - f32(beta1))
        update = exp_avg
    if use_weight_decay:
        p = p + p * -f32(weight_decay) * lr_update
    param[...] = (p - update).astype(param.dtype)
    return param


APPLY_RMSPROP = _effect("ApplyRMSProp", _rmsprop, (0, 1, 2), (1, 2, 4))
APPLY_CENTERED_RMSPROP = _effect("ApplyCenteredRMSProp", _centered_rmsprop, (0, 1, 2, 3), (1, 2, 3, 4))
APPLY_ADAGRAD = _effect("ApplyAdagrad", _adagrad, (0, 1), (1, 3))
APPLY_ADADELTA = _effect("ApplyAdadelta", _adadelta, (0, 1, 2), (1, 2, 6))
APPLY_ADAMAX = _effect("ApplyAdaMax", _adamax, (0, 1, 2), (1, 2, 8))
APPLY_FTRL = _effect("ApplyFtrl", _ftrl, (0, 1, 2), (1, 2, 3))
APPLY_PROXIMAL_ADAGRAD = _effect("ApplyProximalAdagrad", _proximal_adagrad, (0, 1), (1, 5))
LAMB = _effect("Lamb", _lamb, (0, 1, 2), (1, 2, 9))
APPLY_ASGD = _effect("ApplyASGD", _asgd, (0, 1, 2, 3), (1, 5))
APPLY_RPROP = _effect("ApplyRprop", _rprop, (0, 1, 2), (1, 2, 4))
FUSED_ADAFACTOR = _effect("FusedAdaFactor", _adafactor, (0, 1, 2, 3, 4), (5,), scalars=(6, 7))
