"""mindspore.mint.nn.functional: PyTorch-style neural-network functions (argument names, orders and defaults of
``torch.nn.functional``) over sprout's ops. ``inplace=True`` writes the result into the input (``ops.assign``)."""
from __future__ import annotations

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...core.tensor import Tensor
from ...ops.classes_extra5 import implicit_softmax_dim
from .._math import clamp, norm as norm_ext  # noqa: F401
from .._tensor import broadcast_to, flatten  # noqa: F401

_REDUCTIONS = ("none", "mean", "sum")


def _inplace(x, y, inplace):
    return ops.assign(x, y) if inplace else y


def _reduction(reduction, name):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"mint.nn.functional.{name}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    return reduction


def _reduce(loss, reduction):
    if reduction == "mean":
        return ops.mean(loss)
    if reduction == "sum":
        return ops.sum(loss)
    return loss


# ---- activations --------------------------------------------------------------------------------------------
def relu(input, inplace=False):  # noqa: A002 - PyTorch's argument names throughout
    return _inplace(input, ops.relu(input), inplace)


def relu_(input):  # noqa: A002
    return relu(input, True)


def relu6(input, inplace=False):  # noqa: A002
    return _inplace(input, ops.relu6(input), inplace)


def elu(input, alpha=1.0, inplace=False):  # noqa: A002
    return _inplace(input, ops.elu(input, alpha), inplace)


def elu_(input, alpha=1.0):  # noqa: A002
    return elu(input, alpha, True)


inplace_elu = elu_


def elu_ext(input, alpha=1.0):  # noqa: A002
    return elu(input, alpha)


def gelu(input, *, approximate="none"):  # noqa: A002
    if approximate not in ("none", "tanh"):
        raise ValueError(f"mint.nn.functional.gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return ops.gelu(input, approximate)


def glu(input, dim=-1):  # noqa: A002
    return ops.glu(input, dim)


def hardshrink(input, lambd=0.5):  # noqa: A002
    return ops.hardshrink(input, lambd)


def hardsigmoid(input):  # noqa: A002
    return ops.hardsigmoid(input)


def hardswish(input):  # noqa: A002
    return ops.hardswish(input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):  # noqa: A002
    if min_val > max_val:
        raise ValueError(f"mint.nn.functional.hardtanh: min_val {min_val} is greater than max_val {max_val}")
    return _inplace(input, ops.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input, min_val=-1, max_val=1):  # noqa: A002
    return hardtanh(input, min_val, max_val, True)


def hardtanh_op(input, min_val=-1, max_val=1):  # noqa: A002
    return hardtanh(input, min_val, max_val)


def leaky_relu(input, negative_slope=0.01):  # noqa: A002
    return ops.leaky_relu(input, negative_slope)


def logsigmoid(input):  # noqa: A002
    return ops.logsigmoid(input)


def mish(input):  # noqa: A002
    return ops.mish(input)


def prelu(input, weight):  # noqa: A002
    return ops.prelu(input, weight)


def selu(input):  # noqa: A002
    return ops.selu(input)


def sigmoid(input):  # noqa: A002
    return ops.sigmoid(input)


def sigmoid_(input):  # noqa: A002
    return ops.assign(input, ops.sigmoid(input))


def silu(input, inplace=False):  # noqa: A002
    return _inplace(input, ops.silu(input), inplace)


def silu_func(input):  # noqa: A002
    return ops.silu(input)


def inplace_silu(input):  # noqa: A002
    return silu(input, True)


def softplus(input, beta=1, threshold=20):  # noqa: A002
    return ops.softplus(input, beta, threshold)


def softshrink(input, lambd=0.5):  # noqa: A002
    if lambd < 0:
        raise ValueError(f"mint.nn.functional.softshrink: lambd must be >= 0, got {lambd}")
    return ops.softshrink(input, lambd)


def tanh(input):  # noqa: A002
    return ops.tanh(input)


def threshold(input, threshold, value, inplace=False):  # noqa: A002
    return _inplace(input, ops.threshold(input, threshold, value), inplace)


def threshold_(input, threshold, value):  # noqa: A002
    return ops.assign(input, ops.threshold(input, threshold, value))


def threshold_op(input, threshold, value):  # noqa: A002
    return ops.threshold(input, threshold, value)


_implicit_dim = implicit_softmax_dim  # PyTorch's legacy axis: shared with ops.LogSoftmaxExt


def softmax(input, dim=None, dtype=None):  # noqa: A002
    """``dim=None`` picks PyTorch's legacy axis (0 for 0-, 1- and 3-D inputs, else 1)."""
    x = input if dtype is None else ops.cast(input, mstype.to_dtype(dtype))
    return ops.softmax(x, _implicit_dim(x) if dim is None else dim)


def log_softmax(input, dim=None, *, dtype=None):  # noqa: A002
    x = input if dtype is None else ops.cast(input, mstype.to_dtype(dtype))
    return ops.log_softmax(x, _implicit_dim(x) if dim is None else dim)


# ---- linear, convolution, pooling ---------------------------------------------------------------------------
def linear(input, weight, bias=None):  # noqa: A002
    return ops.dense(input, weight, bias)


def _conv_padding(padding):
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"mint.nn.functional.conv: padding must be 'same', 'valid', an int or a tuple, "
                             f"got {padding!r}")
        return padding, 0
    return "pad", padding


def _conv(fn, nd, input, weight, bias, stride, padding, dilation, groups):  # noqa: A002
    mode, pad = _conv_padding(padding)
    if mode == "pad" and not isinstance(pad, int):
        pad = tuple(int(p) for p in pad)
        pad = pad[0] if nd == 1 and len(pad) == 1 else pad
    return fn(input, weight, bias, stride, mode, pad, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    return _conv(ops.conv1d, 1, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    return _conv(ops.conv2d, 2, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    return _conv(ops.conv3d, 3, input, weight, bias, stride, padding, dilation, groups)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,  # noqa: A002
                     dilation=1):
    return ops.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)


def adaptive_avg_pool1d(input, output_size):  # noqa: A002
    return ops.adaptive_avg_pool1d(input, output_size)


def adaptive_avg_pool2d(input, output_size):  # noqa: A002
    return ops.adaptive_avg_pool2d(input, output_size)


def adaptive_avg_pool3d(input, output_size):  # noqa: A002
    return ops.adaptive_avg_pool3d(input, output_size)


adaptive_avg_pool3d_ext = adaptive_avg_pool3d


def adaptive_max_pool1d(input, output_size, return_indices=False):  # noqa: A002
    out = ops.adaptive_max_pool1d(input, output_size, return_indices) if return_indices else \
        ops.adaptive_max_pool1d(input, output_size)
    return out


def adaptive_max_pool2d(input, output_size, return_indices=False):  # noqa: A002
    return ops.adaptive_max_pool2d(input, output_size, return_indices)


def _stride(stride, kernel_size):
    return kernel_size if stride is None else stride


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):  # noqa: A002
    return ops.avg_pool1d(input, kernel_size, _stride(stride, kernel_size), padding, ceil_mode, count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,  # noqa: A002
               divisor_override=None):
    return ops.avg_pool2d(input, kernel_size, _stride(stride, kernel_size), padding, ceil_mode, count_include_pad,
                          divisor_override or 0)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,  # noqa: A002
               divisor_override=None):
    return ops.avg_pool3d(input, kernel_size, _stride(stride, kernel_size), padding, ceil_mode, count_include_pad,
                          divisor_override or 0)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,  # noqa: A002
               return_indices=False):
    return ops.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices, ceil_mode)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):  # noqa: A002
    return ops.max_unpool2d(input, indices, kernel_size, stride, padding, output_size)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    return ops.fold(input, output_size, kernel_size, dilation, padding, stride)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):  # noqa: A002
    return ops.unfold(input, kernel_size, dilation, padding, stride)


def pixel_shuffle(input, upscale_factor):  # noqa: A002
    return ops.pixel_shuffle(input, upscale_factor)


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    return ops.pad(input, pad, mode, value)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,  # noqa: A002
                recompute_scale_factor=None):
    """PyTorch's interpolate. A ``scale_factor`` that makes whole output sizes is the same as those sizes (the
    source coordinates agree), so it is passed as ``size``; any other goes to ``ops.interpolate`` as given."""
    if size is None and scale_factor is not None and not recompute_scale_factor and hasattr(input, "shape"):
        spatial = input.shape[2:]
        scales = scale_factor if isinstance(scale_factor, (tuple, list)) else (scale_factor,) * len(spatial)
        if len(scales) == len(spatial) and all(isinstance(f, (int, float)) for f in scales):
            sizes = [n * f for n, f in zip(spatial, scales)]
            if all(float(s).is_integer() for s in sizes):
                size, scale_factor = tuple(int(s) for s in sizes), None
    return ops.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):  # noqa: A002
    return ops.upsample(input, size, scale_factor, mode, align_corners)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):  # noqa: A002
    return ops.grid_sample(input, grid, mode, padding_mode, align_corners)


# ---- normalisation, dropout, embedding ----------------------------------------------------------------------
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,  # noqa: A002
               eps=1e-05):
    c = input.shape[1]
    w = weight if weight is not None else ops.ones((c,), input.dtype)
    b = bias if bias is not None else ops.zeros((c,), input.dtype)
    return ops.batch_norm(input, running_mean, running_var, w, b, training, momentum, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):  # noqa: A002
    return ops.group_norm(input, num_groups, weight, bias, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):  # noqa: A002
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    return ops.layer_norm(input, shape, weight, bias, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12):  # noqa: A002
    """``input / max(||input||_p over dim, eps)``."""
    if p == 2.0 or p == 2:
        n = ops.sqrt(ops.sum(input * input, dim, True))
    else:
        n = ops.pow(ops.sum(ops.pow(ops.abs(input), float(p)), dim, True), 1.0 / float(p))
    return input / ops.clamp(n, min=eps)


def dropout(input, p=0.5, training=True, inplace=False):  # noqa: A002
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"mint.nn.functional.dropout: p must be in [0, 1], got {p}")
    return _inplace(input, ops.dropout(input, p, training), inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):  # noqa: A002
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"mint.nn.functional.dropout2d: p must be in [0, 1], got {p}")
    return _inplace(input, ops.dropout2d(input, p, training), inplace)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False):  # noqa: A002
    return ops.embedding(input, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq)


def one_hot(tensor, num_classes=-1):
    """Int64 one-hot vectors on a new last axis; ``num_classes=-1`` uses ``max(tensor) + 1``."""
    if not isinstance(tensor, Tensor) or not tensor.dtype.is_int:
        raise TypeError("mint.nn.functional.one_hot: 'tensor' must be an integer Tensor")
    if num_classes == -1:
        num_classes = int(tensor.asnumpy().max()) + 1 if tensor.size else 0
    if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 0:
        raise ValueError(f"mint.nn.functional.one_hot: num_classes must be -1 or >= 0, got {num_classes!r}")
    classes = Tensor(np.arange(num_classes, dtype=np.int64))
    return ops.cast(ops.equal(ops.expand_dims(ops.cast(tensor, mstype.int64), -1), classes), mstype.int64)


# ---- losses ---------------------------------------------------------------------------------------------------
def binary_cross_entropy(input, target, weight=None, reduction="mean"):  # noqa: A002
    return ops.binary_cross_entropy(input, target, weight, _reduction(reduction, "binary_cross_entropy"))


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):  # noqa: A002
    return ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight,
                                                _reduction(reduction, "binary_cross_entropy_with_logits"))


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):  # noqa: A002
    """Class indices (``input`` shape without its class dim C) or class probabilities (``input``'s shape)."""
    if hasattr(input, "shape") and hasattr(target, "shape"):
        want = tuple(input.shape) if target.dtype.is_float else tuple(input.shape[:1] + input.shape[2:]) \
            if input.ndim >= 2 else ()
        if tuple(target.shape) != want:
            raise ValueError(f"mint.nn.functional.cross_entropy: target shape {tuple(target.shape)} does not match "
                             f"input shape {tuple(input.shape)} (expected {want} for "
                             f"{'probabilities' if target.dtype.is_float else 'class indices'})")
    return ops.cross_entropy(input, target, weight, ignore_index, _reduction(reduction, "cross_entropy"),
                             label_smoothing)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):  # noqa: A002
    return ops.nll_loss(input, target, weight, ignore_index, _reduction(reduction, "nll_loss"))


def kl_div(input, target, reduction="mean", log_target=False):  # noqa: A002
    if reduction not in _REDUCTIONS + ("batchmean",):
        raise ValueError(f"mint.nn.functional.kl_div: unknown reduction {reduction!r}")
    return ops.kl_div(input, target, reduction, log_target)


def l1_loss(input, target, reduction="mean"):  # noqa: A002
    return ops.l1_loss(input, target, _reduction(reduction, "l1_loss"))


def mse_loss(input, target, reduction="mean"):  # noqa: A002
    return ops.mse_loss(input, target, _reduction(reduction, "mse_loss"))


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):  # noqa: A002
    return ops.smooth_l1_loss(input, target, beta, _reduction(reduction, "smooth_l1_loss"))


def soft_margin_loss(input, target, reduction="mean"):  # noqa: A002
    return ops.soft_margin_loss(input, target, _reduction(reduction, "soft_margin_loss"))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    """1 - cos(x1, x2) where target is 1, max(0, cos(x1, x2) - margin) where it is -1 (cosine over the last
    axis)."""
    _reduction(reduction, "cosine_embedding_loss")
    eps = 1e-12
    dot = ops.sum(input1 * input2, -1)
    n1 = ops.sum(input1 * input1, -1) + eps
    n2 = ops.sum(input2 * input2, -1) + eps
    cos = dot / ops.sqrt(n1 * n2)
    zeros = ops.zeros_like(cos)
    pos = ops.where(ops.equal(target, 1), 1.0 - cos, zeros)
    neg = ops.where(ops.equal(target, -1), ops.maximum(cos - margin, zeros), zeros)
    return _reduce(pos + neg, reduction)
