"""Softmax and LogSoftmax primitives.

They are primitives rather than composites over exp/sum: one NumPy pass each way instead of five
dispatches, and a bprop that reuses the forward output (softmax) instead of recomputing it."""
from __future__ import annotations

import numpy as np

from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._infer import norm_axes


def _softmax_infer_for(name):
    def infer(x, axis=(-1,)):
        if not x.dtype.is_float:
            raise OpError(f"{name}: expects a float tensor, got {x.dtype}")
        norm_axes(name, axis, x.ndim)
        return TensorType(tuple(x.shape), x.dtype)

    return infer


def _softmax_impl(x, axis=(-1,)):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    e /= e.sum(axis=axis, keepdims=True)
    return e


def _softmax_bprop(x, out, dout, axis=(-1,)):
    # dx = y * (dy - sum(dy * y))
    return (F.mul(out, F.sub(dout, F.reduce_sum(F.mul(dout, out), axis, True))),)


SOFTMAX = register(Op("Softmax", _softmax_impl, _softmax_infer_for("Softmax"), _softmax_bprop, "opaque"))


def _log_softmax_impl(x, axis=(-1,)):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def _log_softmax_bprop(x, out, dout, axis=(-1,)):
    # dx = dy - exp(y) * sum(dy)
    return (F.sub(dout, F.mul(F.exp(out), F.reduce_sum(dout, axis, True))),)


LOG_SOFTMAX = register(Op("LogSoftmax", _log_softmax_impl, _softmax_infer_for("LogSoftmax"), _log_softmax_bprop,
                          "opaque"))

from . import functional as F  # noqa: E402
