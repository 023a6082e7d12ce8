"""CTCLossV2 (connectionist temporal classification: the negative log likelihood of each target sequence under
per-step class log-probabilities, by the forward recursion over the blank-extended target) and its gradient
primitive CTCLossV2Grad (forward-backward). The gradient is MindSpore's (and PyTorch's):
exp(log_probs) - exp(log(sum alpha beta over the label's states) + nll - log_probs), i.e. the gradient with
respect to the logits of a log_softmax that produced ``log_probs``; zero after each input length."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.dispatch import bind
from ..core.op import Op, OpError, register
from ..core.types import TensorType, type_of
from ._infer import fmt_shape

_NEG = -np.inf


class CTCLengthError(OpError, RuntimeError):
    """Input/target lengths that do not fit (a value error MindSpore's kernel reports as RuntimeError)."""


def _check(log_probs, targets, input_lengths, target_lengths, blank, op: str) -> None:
    if not log_probs.dtype.is_float:
        raise TypeError(f"For '{op}', the dtype of 'log_probs' must be float32 or float64, but got {log_probs.dtype}.")
    for name, t in (("targets", targets), ("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if t.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{op}', the dtype of '{name}' must be int32 or int64, but got {t.dtype}.")
    if log_probs.ndim != 3:
        raise OpError(f"For '{op}', the rank of 'log_probs' must be 3 (T, N, C), but got {fmt_shape(log_probs.shape)}.")
    if targets.ndim != 2:
        raise OpError(f"For '{op}', the rank of 'targets' must be 2 (N, S), but got {fmt_shape(targets.shape)}.")
    n = log_probs.shape[1]
    for name, t in (("targets", targets), ("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if t.ndim != (2 if name == "targets" else 1) or (n is not None and t.shape[0] not in (None, n)):
            raise OpError(f"For '{op}', the shape of '{name}' {fmt_shape(t.shape)} does not match the batch size {n}.")
    c = log_probs.shape[2]
    if not isinstance(blank, int) or (c is not None and not 0 <= blank < c):
        raise OpError(f"For '{op}', the value of 'blank' must be in range [0, {c}), but got {blank}.")


def _infer(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    _check(log_probs, targets, input_lengths, target_lengths, blank, "CTCLossV2")
    t, n, _ = log_probs.shape
    s = targets.shape[1]
    return (TensorType((n,), log_probs.dtype),
            TensorType((n, t, None if s is None else 2 * s + 1), log_probs.dtype))


def _extended(targets, target_lengths, blank, merge_repeated=True):
    """Blank-extended labels (N, 2S+1), the skip-allowed mask, the valid states per sequence and the states that
    may stay from one step to the next. ``merge_repeated=False`` (CTCLoss): a label state never stays (each step
    on it is one more label) and may follow an equal label directly."""
    n, s = targets.shape
    ext = np.full((n, 2 * s + 1), blank, np.int64)
    ext[:, 1::2] = targets
    skip = np.zeros(ext.shape, bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & ((ext[:, 2:] != ext[:, :-2]) | (not merge_repeated))
    states = np.arange(2 * s + 1)[None, :] < (2 * target_lengths[:, None] + 1)
    stay = np.ones(ext.shape, bool) if merge_repeated else (np.arange(2 * s + 1) % 2 == 0)[None, :].repeat(n, 0)
    return ext, skip, states, stay


def _validate(log_probs, targets, input_lengths, target_lengths, blank) -> None:
    steps = log_probs.shape[0]
    if np.any(input_lengths < 0) or np.any(input_lengths > steps):
        raise CTCLengthError(f"For 'CTCLossV2', every input_lengths value must be in [0, {steps}], but got "
                             f"{input_lengths.tolist()}.")
    if np.any(target_lengths < 0) or np.any(target_lengths > input_lengths) or \
            np.any(target_lengths > targets.shape[1]):
        raise CTCLengthError(f"For 'CTCLossV2', every target_lengths[i] must be in [0, input_lengths[i]] and at most "
                             f"{targets.shape[1]}, but got {target_lengths.tolist()} for input lengths "
                             f"{input_lengths.tolist()}.")
    tmask = np.arange(targets.shape[1])[None, :] < target_lengths[:, None]
    used = targets[tmask]
    if np.any(used < 0) or np.any(used >= log_probs.shape[2]):
        raise CTCLengthError(f"For 'CTCLossV2', target labels must be in [0, {log_probs.shape[2]}).")


def _alpha(lp, ext, skip, states, input_lengths, stay=None):
    steps, n, _ = lp.shape
    rows = np.arange(n)[:, None]
    alpha = np.full((n, steps, ext.shape[1]), _NEG)
    emit = lp[0][rows, ext]
    first = np.full(ext.shape, _NEG)
    first[:, 0] = emit[:, 0]
    first[:, 1:2] = np.where(states[:, 1:2], emit[:, 1:2], _NEG)
    alpha[:, 0] = np.where(input_lengths[:, None] > 0, first, _NEG)
    for t in range(1, steps):
        prev = alpha[:, t - 1]
        acc = prev.copy() if stay is None else np.where(stay, prev, _NEG)
        acc[:, 1:] = np.logaddexp(acc[:, 1:], prev[:, :-1])
        acc[:, 2:] = np.where(skip[:, 2:], np.logaddexp(acc[:, 2:], prev[:, :-2]), acc[:, 2:])
        cur = acc + lp[t][rows, ext]
        alpha[:, t] = np.where(states & (t < input_lengths[:, None]), cur, _NEG)
    return alpha


def _nll(alpha, input_lengths, target_lengths):
    n = alpha.shape[0]
    last = alpha[np.arange(n), np.maximum(input_lengths - 1, 0)]
    end = 2 * target_lengths
    a = last[np.arange(n), end]
    b = np.where(target_lengths > 0, last[np.arange(n), np.maximum(end - 1, 0)], _NEG)
    ll = np.logaddexp(a, b)
    return np.where(input_lengths > 0, -ll, np.where(target_lengths == 0, 0.0, np.inf))


def _impl(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    targets, il, tl = np.asarray(targets), np.asarray(input_lengths), np.asarray(target_lengths)
    _validate(log_probs, targets, il, tl, blank)
    lp = log_probs.astype(np.float64)
    ext, skip, states, _ = _extended(targets, tl, blank)
    with np.errstate(invalid="ignore"):
        alpha = _alpha(lp, ext, skip, states, il)
        nll = _nll(alpha, il, tl)
    if zero_infinity:
        nll = np.where(np.isinf(nll), 0.0, nll)
    return nll.astype(log_probs.dtype), alpha.astype(log_probs.dtype)


def _grad_impl(dout, log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False,
               merge_repeated=True):
    targets, il, tl = np.asarray(targets), np.asarray(input_lengths), np.asarray(target_lengths)
    lp = log_probs.astype(np.float64)
    steps, n, classes = lp.shape
    ext, skip, states, stay = _extended(targets, tl, blank, merge_repeated)
    rows = np.arange(n)[:, None]
    with np.errstate(invalid="ignore", over="ignore"):
        alpha = _alpha(lp, ext, skip, states, il, stay)
        nll = _nll(alpha, il, tl)
        beta = np.full_like(alpha, _NEG)
        nxt = np.full(ext.shape, _NEG)
        end = 2 * tl
        for t in range(steps - 1, -1, -1):
            acc = np.where(stay, nxt, _NEG)
            acc[:, :-1] = np.logaddexp(acc[:, :-1], nxt[:, 1:])
            # s -> s + 2 is allowed when state s + 2 may skip (its label differs from s's)
            acc[:, :-2] = np.where(skip[:, 2:], np.logaddexp(acc[:, :-2], nxt[:, 2:]), acc[:, :-2])
            emit = lp[t][rows, ext]
            cur = acc + emit
            start = np.full(ext.shape, _NEG)  # the last valid step: only the final blank or the final label
            start[np.arange(n), end] = emit[np.arange(n), end]
            has = tl > 0
            start[np.arange(n)[has], end[has] - 1] = emit[np.arange(n)[has], end[has] - 1]
            cur = np.where((t == il - 1)[:, None], start, cur)
            cur = np.where(states & (t < il[:, None]), cur, _NEG)
            beta[:, t] = cur
            nxt = cur
        ab = alpha + beta  # (N, T, 2S+1): log of alpha * beta (both include the emission at t)
        lcab = np.full((n, steps, classes), _NEG)
        for s in range(ext.shape[1]):
            idx = ext[:, s]
            cur = lcab[np.arange(n), :, idx]
            lcab[np.arange(n), :, idx] = np.logaddexp(cur, ab[:, :, s])
        lpn = np.transpose(lp, (1, 0, 2))  # (N, T, C)
        grad = np.exp(lpn) - np.exp(lcab + nll[:, None, None] - lpn)
    valid = (np.arange(steps)[None, :] < il[:, None])[:, :, None]
    if zero_infinity:  # an infinite loss was replaced by 0: so is its gradient
        valid = valid & np.isfinite(nll)[:, None, None]
    grad = np.where(valid, grad, 0.0) * np.asarray(dout, np.float64)[:, None, None]
    return np.transpose(grad, (1, 0, 2)).astype(log_probs.dtype)


def _bprop(log_probs, targets, input_lengths, target_lengths, out, dout, blank=0, zero_infinity=False):
    # the log_alpha output is not differentiated (MindSpore's CTCLossV2 bprop ignores its cotangent too)
    grad = bind(CTC_LOSS_V2_GRAD, (dout[0], log_probs, targets, input_lengths, target_lengths),
                {"blank": blank, "zero_infinity": zero_infinity})
    return grad, None, None, None


CTC_LOSS_V2 = register(Op("CTCLossV2", _impl, _infer, _bprop, "opaque", n_out=2))


def _grad_infer(dout, log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    _check(log_probs, targets, input_lengths, target_lengths, blank, "CTCLossV2Grad")
    return TensorType(log_probs.shape, log_probs.dtype)


CTC_LOSS_V2_GRAD = register(Op("CTCLossV2Grad", _grad_impl, _grad_infer, None, "opaque"))


# ---- CTCLoss: logits and sparse labels, the loss and its gradient in one kernel ---------------------------------
def _v1_infer(x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False,
              ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False):
    op = "CTCLoss"
    if x.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For '{op}', the dtype of 'x' must be float16, float32 or float64, but got {x.dtype}.")
    if labels_indices.dtype != mstype.int64:
        raise TypeError(f"For '{op}', the dtype of 'labels_indices' must be int64, but got {labels_indices.dtype}.")
    for name, t in (("labels_values", labels_values), ("sequence_length", sequence_length)):
        if t.dtype != mstype.int32:
            raise TypeError(f"For '{op}', the dtype of '{name}' must be int32, but got {t.dtype}.")
    if x.ndim != 3:
        raise OpError(f"For '{op}', 'x' must be 3-D (max_time, batch_size, num_classes), but got {fmt_shape(x.shape)}.")
    if labels_indices.ndim != 2 or labels_indices.shape[1] not in (None, 2):
        raise OpError(f"For '{op}', 'labels_indices' must be (M, 2), but got {fmt_shape(labels_indices.shape)}.")
    if labels_values.ndim != 1 or sequence_length.ndim != 1:
        raise OpError(f"For '{op}', 'labels_values' and 'sequence_length' must be 1-D, but got "
                      f"{fmt_shape(labels_values.shape)} and {fmt_shape(sequence_length.shape)}.")
    n = x.shape[1]
    if None not in (n, sequence_length.shape[0]) and sequence_length.shape[0] != n:
        raise OpError(f"For '{op}', 'sequence_length' must have batch_size = {n} values, but got "
                      f"{sequence_length.shape[0]}.")
    return TensorType((n,), x.dtype), TensorType(tuple(x.shape), x.dtype)


def _dense_labels(labels_indices, labels_values, batch: int, collapse: bool):
    """Each batch entry's labels in the order they are listed (MindSpore's kernel reads them so, whatever the time
    coordinate), repeats collapsed with ``collapse``; padded to (N, S) with their lengths."""
    seqs = [[] for _ in range(batch)]
    for (b, _t), v in zip(labels_indices.tolist(), labels_values.tolist()):
        if not 0 <= b < batch:
            raise CTCLengthError(f"For 'CTCLoss', labels_indices batch entries must be in [0, {batch}), but got {b}.")
        if not (collapse and seqs[b] and seqs[b][-1] == v):
            seqs[b].append(v)
    lengths = np.array([len(q) for q in seqs], np.int64)
    dense = np.zeros((batch, max(1, int(lengths.max(initial=0)))), np.int64)
    for b, q in enumerate(seqs):
        dense[b, :len(q)] = q
    return dense, lengths


def _v1_impl(x, labels_indices, labels_values, sequence_length, preprocess_collapse_repeated=False,
             ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False):
    """(loss, gradient w.r.t. x) with x unnormalised logits, the blank the last class; an impossible alignment
    (or, with ``ignore_longer_outputs_than_inputs``, a label longer than its sequence) costs inf with zero
    gradient."""
    _v1_infer(*map(type_of, (x, labels_indices, labels_values, sequence_length)))
    steps, batch, classes = x.shape
    sl = np.asarray(sequence_length, np.int64)
    if np.any(sl <= 0) or np.any(sl > steps):
        raise CTCLengthError(f"For 'CTCLoss', every sequence_length must be in [1, max_time = {steps}], but got "
                             f"{sl.tolist()}.")
    if np.any(labels_values < 0) or np.any(labels_values >= classes - 1):
        raise CTCLengthError(f"For 'CTCLoss', labels_values must be in [0, {classes - 1}) (the last class is the "
                             f"blank), but got {labels_values.tolist()}.")
    targets, tl = _dense_labels(labels_indices, labels_values, batch, preprocess_collapse_repeated)
    longer = tl > sl
    if np.any(longer) and not ignore_longer_outputs_than_inputs:
        b = int(np.argmax(longer))
        raise CTCLengthError(f"For 'CTCLoss', input time (sequence length) must be at least the label length, but "
                             f"got sequence length {int(sl[b])} and label length {int(tl[b])} for batch entry {b}.")
    z = x.astype(np.float64)
    lp = z - np.logaddexp.reduce(z, axis=2, keepdims=True)
    blank = classes - 1
    ext, skip, states, stay = _extended(targets, np.minimum(tl, sl), blank, ctc_merge_repeated)
    with np.errstate(invalid="ignore"):
        nll = _nll(_alpha(lp, ext, skip, states, sl, stay), sl, np.minimum(tl, sl))
    nll = np.where(longer, np.inf, nll)
    grad = _grad_impl(np.ones(batch), lp, targets, sl, np.minimum(tl, sl), blank, True, ctc_merge_repeated)
    grad = np.where(longer[None, :, None], 0.0, grad)
    return nll.astype(x.dtype), grad.astype(x.dtype)


def _v1_bprop(x, labels_indices, labels_values, sequence_length, out, dout, **attrs):
    # MindSpore's CTCLoss bprop: the stored gradient scaled by the loss cotangent (the gradient output's own
    # cotangent is not propagated)
    from . import functional as F

    return F.mul(out[1], F.reshape(dout[0], (1, -1, 1))), None, None, None


CTC_LOSS = register(Op("CTCLoss", _v1_impl, _v1_infer, _v1_bprop, "opaque", n_out=2))
