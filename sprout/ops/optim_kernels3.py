"""The remaining in-place optimizer update primitives of MindSpore (AdagradV2, AddSign, PowerSign, proximal gradient
descent, Keras momentum, Adam with AMSGrad, Adagrad dual averaging), one side-effect primitive each like
optim_kernels2.py; formulas as MindSpore documents them."""
from __future__ import annotations

import numpy as np

from .optim_kernels2 import _effect, _f


def _adagrad_v2(var, accum, lr, grad, epsilon=1e-6, update_slots=True):
    """accum += g^2 (if update_slots); var -= lr g / (sqrt(accum) + epsilon)"""
    if update_slots:
        accum += grad * grad
    var -= _f(lr, var) * grad / (np.sqrt(accum) + _f(epsilon, var))
    return var


def _sign_step(var, m, lr, beta, grad, factor):
    """m = beta m + (1 - beta) g, then var -= lr factor(sign(g) sign(m)) g"""
    lr, beta = _f(lr, var), _f(beta, var)
    m *= beta
    m += (1 - beta) * grad
    var -= lr * factor(np.sign(grad) * np.sign(m)) * grad
    return var


def _add_sign(var, m, lr, alpha, sign_decay, beta, grad):
    """AddSign: the gradient scaled by alpha + sign_decay sign(g) sign(m)"""
    alpha, sign_decay = _f(alpha, var), _f(sign_decay, var)
    return _sign_step(var, m, lr, beta, grad, lambda agree: alpha + sign_decay * agree)


def _power_sign(var, m, lr, logbase, sign_decay, beta, grad):
    """PowerSign: the gradient scaled by exp(logbase sign_decay sign(g) sign(m))"""
    logbase, sign_decay = _f(logbase, var), _f(sign_decay, var)
    return _sign_step(var, m, lr, beta, grad, lambda agree: np.exp(logbase * sign_decay * agree))


def _proximal_gd(var, alpha, l1, l2, delta):
    """FOBOS: v = var - alpha delta; var = sign(v) max(|v| - alpha l1, 0) / (1 + alpha l2)"""
    alpha, l1, l2 = (_f(v, var) for v in (alpha, l1, l2))
    prox = var - alpha * delta
    var[...] = np.sign(prox) / (1 + alpha * l2) * np.maximum(np.abs(prox) - alpha * l1, 0)
    return var


def _keras_momentum(var, accum, lr, grad, momentum, use_nesterov=False):
    """accum = momentum accum - lr g; var += accum (Nesterov: var += momentum accum - lr g)"""
    lr, momentum = _f(lr, var), _f(momentum, var)
    accum *= momentum
    accum -= lr * grad
    if use_nesterov:
        var += accum * momentum - lr * grad
    else:
        var += accum
    return var


def _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    """Adam whose denominator uses the running maximum vhat of the second moment"""
    b1p, b2p, lr, beta1, beta2, epsilon = (_f(x, var) for x in (beta1_power, beta2_power, lr, beta1, beta2, epsilon))
    m *= beta1
    m += (1 - beta1) * grad
    v *= beta2
    v += (1 - beta2) * grad * grad
    np.maximum(vhat, v, out=vhat)
    var -= lr * np.sqrt(1 - b2p) / (1 - b1p) * m / (np.sqrt(vhat) + epsilon)
    return var


def _amsgrad_attrs(var, m, v, vhat, beta1_power, beta2_power, lr, grad, beta1=0.9, beta2=0.999, epsilon=1e-8):
    """ApplyAdamWithAmsgrad: beta1, beta2 and epsilon are attributes"""
    return _amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)


def _adagrad_da(var, grad_accum, grad_squared_accum, grad, lr, l1, l2, global_step):
    """Adagrad dual averaging: accumulate g and g^2; var = -lr shrink(grad_accum) / (l2 step lr + sqrt(sq accum)),
    shrink the l1 soft threshold at l1 step (the identity when l1 <= 0)"""
    lr, l1, l2 = (_f(x, var) for x in (lr, l1, l2))
    step = _f(global_step, var)
    grad_accum += grad
    grad_squared_accum += grad * grad
    if l1 > 0:
        tmp = np.sign(grad_accum) * np.maximum(np.abs(grad_accum) - l1 * step, 0)
    else:
        tmp = grad_accum
    var[...] = -lr * tmp / (l2 * step * lr + np.sqrt(grad_squared_accum))
    return var


APPLY_ADAGRAD_V2 = _effect("ApplyAdagradV2", _adagrad_v2, (0, 1), (1, 3))
APPLY_ADD_SIGN = _effect("ApplyAddSign", _add_sign, (0, 1), (1, 6))
APPLY_POWER_SIGN = _effect("ApplyPowerSign", _power_sign, (0, 1), (1, 6))
APPLY_PROXIMAL_GRADIENT_DESCENT = _effect("ApplyProximalGradientDescent", _proximal_gd, (0,), (4,))
APPLY_KERAS_MOMENTUM = _effect("ApplyKerasMomentum", _keras_momentum, (0, 1), (1, 3))
APPLY_ADAM_WITH_AMSGRAD = _effect("ApplyAdamWithAmsgrad", _amsgrad_attrs, (0, 1, 2, 3), (1, 2, 3, 7))
APPLY_ADAM_WITH_AMSGRAD_V2 = _effect("ApplyAdamWithAmsgradV2", _amsgrad, (0, 1, 2, 3), (1, 2, 3, 10))
APPLY_ADAGRAD_DA = _effect("ApplyAdagradDA", _adagrad_da, (0, 1, 2), (1, 2, 3))
