"""Fused in-place optimizer update primitives (ApplyMomentum, SGD, Adam, AdamWeightDecay, ...).

Each is one side-effect op per parameter: the NumPy impl updates the parameter (and its optimizer state) in
place and returns the parameter's array. ``extra["mutates"]`` lists the input positions written in place, so
graph passes know which inputs are state. They have no bprop: an update is never differentiated."""
from __future__ import annotations

import numpy as np

from ..core.op import Op, register
from . import optim_loops as _loops
from .optim_check import strict


def _effect(name: str, impl, mutates: tuple, same: tuple, **rules) -> Op:
    """An update primitive; ``same``: the inputs of the variable's shape (``optim_check.strict``: checked before
    the kernel writes anything, and by the infer rule)."""
    kernel, infer = strict(name, impl, same, mutates, **rules)
    return register(Op(name, kernel, infer, None, kind="effect", side_effect=True,
                       doc=impl.__doc__ or "", extra={"mutates": mutates}))


def _apply_gradient_descent(var, alpha, delta):
    """var -= alpha * delta"""
    if _loops.usable(var, delta):
        _loops.gradient_descent(var, alpha, delta)
    else:
        var -= alpha * delta
    return var


def _apply_momentum(var, accum, lr, grad, momentum, use_nesterov=False):
    """accum = accum * momentum + grad; var -= lr * accum (nesterov: var -= lr * (grad + momentum * accum))"""
    if _loops.usable(var, accum, grad):
        _loops.momentum(var, accum, lr, grad, momentum, use_nesterov)
        return var
    accum *= momentum
    accum += grad
    if use_nesterov:
        var -= lr * (grad + momentum * accum)
    else:
        var -= lr * accum
    return var


def _sgd(var, grad, lr, accum, momentum, stat, dampening=0.0, weight_decay=0.0, nesterov=False):
    """SGD with momentum and dampening; ``stat`` > 0 marks the first step (accum starts at the gradient)."""
    if weight_decay > 0:
        grad = grad + weight_decay * var
    if momentum > 0:
        if stat.flat[0] > 0:
            accum[...] = grad
            stat[...] = 0
        else:
            accum *= momentum
            accum += (1.0 - dampening) * grad
        grad = grad + momentum * accum if nesterov else accum
    var -= lr * grad
    return var


def _adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking=False,
          use_nesterov=False):
    """Adam with bias correction folded into the step size lr * sqrt(1 - beta2^t) / (1 - beta1^t).
    One scratch array serves every intermediate (no per-step temporaries of the parameter's size)."""
    t = np.multiply(grad, 1.0 - beta1, dtype=var.dtype)
    m *= beta1
    m += t                                    # m = b1 m + (1 - b1) g
    np.multiply(grad, grad, out=t)
    t *= 1.0 - beta2
    v *= beta2
    v += t                                    # v = b2 v + (1 - b2) g^2
    lr_t = lr * np.sqrt(1.0 - beta2_power) / (1.0 - beta1_power)
    np.sqrt(v, out=t)
    t += epsilon
    if use_nesterov:
        num = m * beta1
        num += (1.0 - beta1) * grad
        np.divide(num, t, out=t)
    else:
        np.divide(m, t, out=t)
    t *= lr_t
    var -= t
    return var


def _adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, grad):
    """AdamW without bias correction: var -= lr * (m / (sqrt(v) + eps) + decay * var)"""
    t = np.multiply(grad, 1.0 - beta1, dtype=var.dtype)
    m *= beta1
    m += t
    np.multiply(grad, grad, out=t)
    t *= 1.0 - beta2
    v *= beta2
    v += t
    np.sqrt(v, out=t)
    t += epsilon
    np.divide(m, t, out=t)
    if decay:
        t += decay * var
    t *= lr
    var -= t
    return var


APPLY_GRADIENT_DESCENT = _effect("ApplyGradientDescent", _apply_gradient_descent, (0,), (2,))
# var -= alpha * delta: the code generator may compute a MatMul delta inside the update (one GEMM, no temporary)
APPLY_GRADIENT_DESCENT.extra["gemm_delta"] = 2
APPLY_MOMENTUM = _effect("ApplyMomentum", _apply_momentum, (0, 1), (1, 3), like_var=(2,))  # MindSpore: lr may be
SGD = _effect("SGD", _sgd, (0, 3, 5), (1, 3))                                                # var-shaped
# MindSpore's Adam kernels accept moments of another float dtype than the variable's
ADAM = _effect("Adam", _adam, (0, 1, 2), (1, 2, 9), state_dtype=False)
ADAM_WEIGHT_DECAY = _effect("AdamWeightDecay", _adam_weight_decay, (0, 1, 2), (1, 2, 8), state_dtype=False)
