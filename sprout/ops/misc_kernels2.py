"""Primitives NoRepeatNGram (bans the tokens that would repeat an n-gram, as beam search needs) and RaggedRange (ranges
of data-dependent lengths, as a ragged tensor's splits and values); neither has a gradient in MindSpore."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import fmt_shape


# ---- NoRepeatNGram -------------------------------------------------------------------------------------------------
def _ngram_infer(state_seq, log_probs, ngram_size=1):
    op = "NoRepeatNGram"
    if state_seq.dtype != mstype.int32:
        raise TypeError(f"For '{op}', the 'state_seq' must be an int32 Tensor, but got {state_seq.dtype}.")
    if log_probs.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        raise TypeError(f"For '{op}', the 'log_probs' must be a float16/32/64 Tensor, but got {log_probs.dtype}.")
    if state_seq.ndim != 3 or log_probs.ndim != 3 or tuple(state_seq.shape[:2]) != tuple(log_probs.shape[:2]):
        raise OpError(f"For '{op}', 'state_seq' (batch, beam, length) and 'log_probs' (batch, beam, vocab) must be "
                      f"3-D with one batch and beam, but got {fmt_shape(state_seq.shape)} and "
                      f"{fmt_shape(log_probs.shape)}.")
    length = state_seq.shape[2]
    if length is not None and ngram_size > length:
        raise OpError(f"For '{op}', the 'ngram_size' {ngram_size} must not exceed the sequence length {length}.")
    return TensorType(tuple(log_probs.shape), log_probs.dtype)


def _ngram_impl(state_seq, log_probs, ngram_size=1):
    """A window seq[i : i + n] whose first n - 1 tokens equal the last n - 1 tokens bans seq[i + n - 1]: its
    log-probability becomes the dtype's lowest value."""
    n = ngram_size
    windows = np.lib.stride_tricks.sliding_window_view(state_seq, n, axis=2)         # (B, beam, L - n + 1, n)
    last = state_seq[:, :, state_seq.shape[2] - (n - 1):]                           # (B, beam, n - 1)
    match = np.all(windows[..., :n - 1] == last[:, :, None, :], -1)                  # (B, beam, L - n + 1)
    out = np.array(log_probs, copy=True)
    vocab = out.shape[2]
    banned = windows[..., n - 1]
    ok = match & (banned >= 0) & (banned < vocab)
    b, k, i = np.nonzero(ok)
    out[b, k, banned[b, k, i]] = np.finfo(out.dtype).min
    return out


NO_REPEAT_NGRAM = register(Op("NoRepeatNGram", _ngram_impl, _ngram_infer, None, "opaque", fresh_output=True))


# ---- RaggedRange ---------------------------------------------------------------------------------------------------
_RANGE_TYPES = (mstype.int32, mstype.int64, mstype.float32, mstype.float64)


def _ragged_infer(starts, limits, deltas, Tsplits):  # noqa: N803 - MindSpore's attribute name
    op = "RaggedRange"
    if starts.dtype not in _RANGE_TYPES or limits.dtype != starts.dtype or deltas.dtype != starts.dtype:
        raise TypeError(f"For '{op}', 'starts', 'limits' and 'deltas' must share one of int32, int64, float32, "
                        f"float64, but got {starts.dtype}, {limits.dtype}, {deltas.dtype}.")
    if Tsplits not in (mstype.int32, mstype.int64):
        raise TypeError(f"For '{op}', the 'Tsplits' must be mindspore.int32 or mindspore.int64, but got {Tsplits}.")
    shapes = [tuple(t.shape) for t in (starts, limits, deltas)]
    if starts.ndim > 1 or len(set(shapes)) != 1:
        raise OpError(f"For '{op}', starts, limits, and deltas must have the same shape of rank 0 or 1, but got "
                      f"{', '.join(fmt_shape(s) for s in shapes)}.")
    rows = shapes[0][0] if shapes[0] else 1
    return TensorType((None if rows is None else rows + 1,), Tsplits), TensorType((None,), starts.dtype)


def _ragged_impl(starts, limits, deltas, Tsplits):  # noqa: N803
    s, lim, d = (np.atleast_1d(a) for a in (starts, limits, deltas))
    if np.any(d == 0):
        raise ValueError("For 'RaggedRange', every element of 'deltas' must be nonzero.")
    span = (lim - s).astype(np.float64) / d
    counts = np.where(span > 0, np.ceil(span), 0).astype(np.int64)
    splits = np.concatenate([[0], np.cumsum(counts)]).astype(Tsplits.np)
    row = np.repeat(np.arange(len(counts)), counts)
    step = np.arange(int(splits[-1])) - np.repeat(splits[:-1].astype(np.int64), counts)
    values = (s[row] + step * d[row]).astype(starts.dtype)
    return splits, values


RAGGED_RANGE = register(Op("RaggedRange", _ragged_impl, _ragged_infer, None, "opaque", n_out=2))


# ---- ConfusionMatrix -----------------------------------------------------------------------------------------------
_INTS = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8, mstype.uint16, mstype.uint32,
         mstype.uint64)


def _confusion_infer(labels, predictions, weights=None, num_classes=0, dtype=mstype.int32):
    op = "ConfusionMatrix"
    for name, t in (("labels", labels), ("predictions", predictions)):
        if t.dtype not in _INTS:
            raise TypeError(f"For '{op}', the '{name}' must be an integer Tensor, but got {t.dtype}.")
    if labels.ndim != 1:
        raise OpError(f"For '{op}', the labels dimension should be = : 1, but got {labels.ndim}.")
    for name, t in (("predictions", predictions), ("weights", weights)):
        if t is not None and tuple(t.shape) != tuple(labels.shape):
            raise OpError(f"For '{op}', the labels shape should be = {name} shape: {fmt_shape(t.shape)}, but got "
                          f"{fmt_shape(labels.shape)}.")
    return TensorType((num_classes, num_classes), dtype)


def _confusion_impl(labels, predictions, weights=None, num_classes=0, dtype=mstype.int32):
    for name, v in (("labels", labels), ("predictions", predictions)):
        if v.size and (v.min() < 0 or v.max() >= num_classes):
            raise ValueError(f"For 'ConfusionMatrix', every '{name}' value must be in [0, {num_classes}), but got "
                             f"[{v.min()}, {v.max()}].")
    flat = labels.astype(np.int64) * num_classes + predictions.astype(np.int64)
    counts = np.bincount(flat, None if weights is None else weights.astype(np.float64), num_classes * num_classes)
    return counts.reshape(num_classes, num_classes).astype(dtype.np)


def _confusion_bprop(labels, predictions, *rest, **attrs):
    """d weights[i] = dout[labels[i], predictions[i]]; labels and predictions are integers (no gradient)."""
    from . import functional as F

    weights, _out, dout = rest if len(rest) == 3 else (None,) + tuple(rest)
    if weights is None:
        return None, None
    idx = F.stack((F.cast(labels, mstype.int64), F.cast(predictions, mstype.int64)), 1)
    return None, None, F.cast(F.gather_nd(dout, idx), weights.dtype)


CONFUSION_MATRIX = register(Op("ConfusionMatrix", _confusion_impl, _confusion_infer, _confusion_bprop, "opaque"))
