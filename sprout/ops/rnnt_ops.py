"""RNNTLoss: the RNN-transducer loss and its gradient (what MindSpore's RNNTLoss returns; it registers no bprop).
Forward (alpha) and backward (beta) log-variables are filled one anti-diagonal t + u = n at a time, vectorised along
the diagonal; the gradient is taken with respect to the pre-softmax activations."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape

_OP = "RNNTLoss"


def _rnnt_infer(acts, labels, input_lengths, label_lengths, blank_label=0):
    if acts.dtype not in (mstype.float16, mstype.float32):
        raise TypeError(f"For '{_OP}', the 'acts' must be a float16 or float32 Tensor, but got {acts.dtype}.")
    for name, t in (("labels", labels), ("input_lengths", input_lengths), ("label_lengths", label_lengths)):
        if t.dtype != mstype.int32:
            raise TypeError(f"For '{_OP}', the '{name}' must be an int32 Tensor, but got {t.dtype}.")
    if acts.ndim != 4 or labels.ndim != 2 or input_lengths.ndim != 1 or label_lengths.ndim != 1:
        raise OpError(f"For '{_OP}', 'acts' must be 4-D, 'labels' 2-D and the lengths 1-D, but got "
                      f"{fmt_shape(acts.shape)}, {fmt_shape(labels.shape)}, {fmt_shape(input_lengths.shape)}, "
                      f"{fmt_shape(label_lengths.shape)}.")
    b, _, u, _ = acts.shape
    if labels.shape[0] != b or (u is not None and labels.shape[1] is not None and labels.shape[1] != u - 1):
        raise OpError(f"For '{_OP}', 'labels' must be (B, U - 1) = ({b}, {None if u is None else u - 1}), but got "
                      f"{fmt_shape(labels.shape)}.")
    if input_lengths.shape[0] != b or label_lengths.shape[0] != b:
        raise OpError(f"For '{_OP}', the length vectors must have the batch size {b}.")
    return TensorType((b,), acts.dtype), TensorType(tuple(acts.shape), acts.dtype)


def _log_softmax(z):
    m = z.max(-1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(-1, keepdims=True))


def _diagonal(n: int, rows: int, cols: int):
    t = np.arange(max(0, n - cols + 1), min(rows - 1, n) + 1)
    return t, n - t


def _one(acts, labels, blank):
    """(cost, d cost / d acts) of one sequence: acts (T, U, V), labels (U - 1,)."""
    steps, length, _ = acts.shape
    lp = _log_softmax(acts)
    blank_lp = lp[:, :, blank]
    emit_lp = np.take_along_axis(lp[:, :-1, :], labels[None, :, None], 2)[..., 0]      # (T, U - 1)
    alpha = np.full((steps, length), -np.inf)
    beta = np.full((steps, length), -np.inf)
    alpha[0, 0] = 0.0
    for n in range(1, steps + length - 1):
        t, u = _diagonal(n, steps, length)
        from_t = np.where(t > 0, alpha[t - 1, u] + blank_lp[t - 1, u], -np.inf)
        from_u = (np.where(u > 0, alpha[t, u - 1] + emit_lp[t, np.maximum(u - 1, 0)], -np.inf) if length > 1
                  else np.full(len(t), -np.inf))
        alpha[t, u] = np.logaddexp(from_t, from_u)
    beta[-1, -1] = blank_lp[-1, -1]
    for n in range(steps + length - 3, -1, -1):
        t, u = _diagonal(n, steps, length)
        via_t = np.where(t < steps - 1, beta[np.minimum(t + 1, steps - 1), u] + blank_lp[t, u], -np.inf)
        via_u = np.where(u < length - 1, beta[t, np.minimum(u + 1, length - 1)] + emit_lp[t, np.minimum(u, length - 2)]
                         if length > 1 else -np.inf, -np.inf)
        beta[t, u] = np.logaddexp(via_t, via_u)
    loglike = beta[0, 0]
    # d(-loglike) / d lp: minus the posterior of each transition taken
    g = np.zeros_like(lp)
    nxt = np.concatenate([beta[1:], np.full((1, length), -np.inf)], 0)
    g[:, :, blank] = -np.exp(alpha + blank_lp + nxt - loglike)
    g[-1, -1, blank] = -np.exp(alpha[-1, -1] + blank_lp[-1, -1] - loglike)
    if length > 1:
        emit = -np.exp(alpha[:, :-1] + emit_lp + beta[:, 1:] - loglike)
        np.add.at(g, (np.arange(steps)[:, None], np.arange(length - 1)[None, :], labels[None, :]), emit)
    # through the log-softmax: d/d acts = g - softmax * sum_v g
    grad = g - np.exp(lp) * g.sum(-1, keepdims=True)
    return -loglike, grad


def _rnnt_impl(acts, labels, input_lengths, label_lengths, blank_label=0):
    b, steps, length, vocab = acts.shape
    if not 0 <= blank_label < vocab:
        raise ValueError(f"For '{_OP}', the 'blank_label' {blank_label} must be in [0, {vocab}).")
    costs = np.zeros(b, acts.dtype)
    grads = np.zeros(acts.shape, acts.dtype)
    for k in range(b):
        tk, uk = int(input_lengths[k]), int(label_lengths[k])
        if not 0 < tk <= steps or not 0 <= uk < length:
            raise ValueError(f"For '{_OP}', input_lengths[{k}] = {tk} must be in [1, {steps}] and label_lengths[{k}] "
                             f"= {uk} in [0, {length - 1}].")
        lab = labels[k, :uk].astype(np.int64)
        if np.any((lab < 0) | (lab >= vocab)):
            raise ValueError(f"For '{_OP}', labels[{k}] must be in [0, {vocab}), but got {lab.tolist()}.")
        cost, grad = _one(acts[k, :tk, :uk + 1].astype(np.float64), lab, blank_label)
        costs[k] = cost
        grads[k, :tk, :uk + 1] = grad
    return costs, grads


RNNT_LOSS = register(Op("RNNTLoss", _rnnt_impl, _rnnt_infer, None, "opaque", n_out=2))
