"""mindspore.mint.nn layers with PyTorch's constructor arguments and parameter names (``weight``, ``bias``,
``running_mean``, ``running_var``, ``num_batches_tracked``), so MindSpore mint checkpoints load."""
from __future__ import annotations

import math

import numpy as np

from ... import dtype as mstype
from ... import ops
from ...common.initializer import HeUniform, Normal, Uniform, initializer
from ...core.tensor import Parameter, Tensor
from ...nn.cell import Cell
from . import functional as F


def _tuple(v, n, name, owner):
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return (int(v),) * n
    if isinstance(v, (tuple, list)) and len(v) == n and all(isinstance(i, int) for i in v):
        return tuple(v)
    raise ValueError(f"For '{owner}', '{name}' must be an int or a tuple of {n} ints, got {v!r}")


def _positive(v, name, owner):
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise ValueError(f"For '{owner}', '{name}' must be a positive int, got {v!r}")
    return v


class _ConvNd(Cell):
    """PyTorch-style convolution: weight (out, in / groups, *kernel) initialised HeUniform(sqrt(5)), bias
    uniform in +-1/sqrt(fan_in); ``padding`` an int, a tuple, "same" or "valid"; ``padding_mode`` zeros /
    reflect / replicate / circular."""

    _nd = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None, output_padding=0):
        super().__init__()
        owner, nd = self.cls_name, self._nd
        self.in_channels = _positive(in_channels, "in_channels", owner)
        self.out_channels = _positive(out_channels, "out_channels", owner)
        self.groups = _positive(groups, "groups", owner)
        if in_channels % groups or out_channels % groups:
            raise ValueError(f"For '{owner}', in_channels ({in_channels}) and out_channels ({out_channels}) must be "
                             f"divisible by groups ({groups})")
        self.kernel_size = _tuple(kernel_size, nd, "kernel_size", owner)
        self.stride = _tuple(stride, nd, "stride", owner)
        self.dilation = _tuple(dilation, nd, "dilation", owner)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"For '{owner}', padding must be 'same', 'valid', an int or a tuple, got {padding!r}")
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError(f"For '{owner}', padding='same' needs stride 1, got {stride!r}")
            self.padding = padding
        else:
            self.padding = _tuple(padding, nd, "padding", owner)
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"For '{owner}', padding_mode must be 'zeros', 'reflect', 'replicate' or 'circular', "
                             f"got {padding_mode!r}")
        self.padding_mode = padding_mode
        self.output_padding = _tuple(output_padding, nd, "output_padding", owner)
        dt = mstype.float32 if dtype is None else mstype.to_dtype(dtype)
        if self._transposed:
            shape = (in_channels, out_channels // groups) + self.kernel_size
            fan_in = out_channels // groups * int(np.prod(self.kernel_size))
        else:
            shape = (out_channels, in_channels // groups) + self.kernel_size
            fan_in = in_channels // groups * int(np.prod(self.kernel_size))
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype=dt), name="weight")
        self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)), (out_channels,), dtype=dt),
                              name="bias") if bias else None

    def _padded(self, x):
        """Input and the padding left for the convolution itself (non-zero modes pad the input first)."""
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return x, self.padding
        pads = tuple(p for axis in reversed(self.padding) for p in (axis, axis))
        return ops.pad(x, pads, self.padding_mode), (0,) * self._nd

    def extend_repr(self) -> str:
        return (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}, dilation={self.dilation}, groups={self.groups}, "
                f"bias={self.bias is not None}")


class Conv1d(_ConvNd):
    _nd = 1

    def construct(self, input):  # noqa: A002
        x, pad = self._padded(input)
        return F.conv1d(x, self.weight, self.bias, self.stride[0], pad if isinstance(pad, str) else pad[0],
                        self.dilation[0], self.groups)


class Conv2d(_ConvNd):
    _nd = 2

    def construct(self, input):  # noqa: A002
        x, pad = self._padded(input)
        return F.conv2d(x, self.weight, self.bias, self.stride, pad, self.dilation, self.groups)


class Conv3d(_ConvNd):
    _nd = 3

    def construct(self, input):  # noqa: A002
        x, pad = self._padded(input)
        return F.conv3d(x, self.weight, self.bias, self.stride, pad, self.dilation, self.groups)


class ConvTranspose2d(_ConvNd):
    """Transposed 2-D convolution; weight (in, out / groups, kH, kW)."""

    _nd = 2
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f"For 'ConvTranspose2d', only padding_mode='zeros' is supported, got {padding_mode!r}")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype, output_padding)

    def construct(self, input, output_size=None):  # noqa: A002
        out_pad = self.output_padding
        if output_size is not None:
            size = tuple(output_size)[-2:]
            base = [(input.shape[2 + i] - 1) * self.stride[i] - 2 * self.padding[i] +
                    self.dilation[i] * (self.kernel_size[i] - 1) + 1 for i in range(2)]
            out_pad = tuple(s - b for s, b in zip(size, base))
            if any(p < 0 or p >= max(self.stride[i], self.dilation[i]) for i, p in enumerate(out_pad)):
                raise ValueError(f"For 'ConvTranspose2d', output_size {tuple(output_size)} cannot be reached")
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, out_pad, self.groups,
                                  self.dilation)


class _BatchNorm(Cell):
    """PyTorch-convention batch normalisation: ``running = (1 - momentum) * running + momentum * batch``
    (unbiased batch variance), ``momentum=None`` a cumulative average over ``num_batches_tracked``."""

    _ranks: tuple = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__()
        owner = self.cls_name
        self.num_features = _positive(num_features, "num_features", owner)
        if momentum is not None and not 0.0 <= momentum <= 1.0:
            raise ValueError(f"For '{owner}', momentum must be in [0, 1] or None, got {momentum!r}")
        self.eps, self.momentum, self.affine = eps, momentum, affine
        self.track_running_stats = track_running_stats
        dt = mstype.float32 if dtype is None else mstype.to_dtype(dtype)
        self.weight = Parameter(initializer("ones", (num_features,), dtype=dt), name="weight") if affine else None
        self.bias = Parameter(initializer("zeros", (num_features,), dtype=dt), name="bias") if affine else None
        if track_running_stats:
            self.running_mean = Parameter(initializer("zeros", (num_features,), dtype=dt), name="running_mean",
                                          requires_grad=False)
            self.running_var = Parameter(initializer("ones", (num_features,), dtype=dt), name="running_var",
                                         requires_grad=False)
            self.num_batches_tracked = Parameter(Tensor(0, mstype.int64), name="num_batches_tracked",
                                                 requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def construct(self, input):  # noqa: A002
        x = input
        if x.ndim not in self._ranks:
            raise ValueError(f"For '{self.cls_name}', expected a {' or '.join(map(str, self._ranks))}-D input, "
                             f"got shape {tuple(x.shape)}")
        if x.shape[1] != self.num_features:
            raise ValueError(f"For '{self.cls_name}', expected {self.num_features} channels, got {x.shape[1]}")
        axes = (0,) + tuple(range(2, x.ndim))
        view = (1, self.num_features) + (1,) * (x.ndim - 2)
        use_batch = self.training or not self.track_running_stats
        if use_batch:
            mean = ops.mean(x, axes, True)
            var = ops.mean(ops.square(x - mean), axes, True)
            if self.training and self.track_running_stats:
                self._update(mean, var, x.size // self.num_features)
        else:
            mean = ops.reshape(self.running_mean, view)
            var = ops.reshape(self.running_var, view)
        y = (x - mean) * ops.rsqrt(var + self.eps)
        if self.affine:
            y = y * ops.reshape(self.weight, view) + ops.reshape(self.bias, view)
        return y

    def _update(self, mean, var, count):
        ops.assign_add(self.num_batches_tracked, Tensor(1, mstype.int64))
        if self.momentum is None:
            m = 1.0 / ops.cast(self.num_batches_tracked, mstype.float32)
        else:
            m = self.momentum
        bm = ops.stop_gradient(ops.reshape(mean, (self.num_features,)))
        bv = ops.stop_gradient(ops.reshape(var, (self.num_features,))) * (count / max(count - 1, 1))
        ops.assign(self.running_mean, self.running_mean * (1.0 - m) + bm * m)
        ops.assign(self.running_var, self.running_var * (1.0 - m) + bv * m)

    def extend_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    _ranks = (4,)


class BatchNorm3d(_BatchNorm):
    _ranks = (5,)


class SyncBatchNorm(_BatchNorm):
    """BatchNorm whose statistics would be shared by ``process_group``; in one process it is BatchNorm."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        if process_group is not None and not isinstance(process_group, str):
            raise TypeError(f"For 'SyncBatchNorm', process_group must be a group name (str) or None, "
                            f"got {type(process_group).__name__}")
        self.process_group = process_group


class GroupNorm(Cell):
    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        _positive(num_groups, "num_groups", "GroupNorm")
        _positive(num_channels, "num_channels", "GroupNorm")
        if num_channels % num_groups:
            raise ValueError(f"For 'GroupNorm', num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        dt = mstype.float32 if dtype is None else mstype.to_dtype(dtype)
        self.weight = Parameter(initializer("ones", (num_channels,), dtype=dt), name="weight") if affine else None
        self.bias = Parameter(initializer("zeros", (num_channels,), dtype=dt), name="bias") if affine else None

    def construct(self, input):  # noqa: A002
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


class LayerNorm(Cell):
    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True, dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps = shape, eps
        dt = mstype.float32 if dtype is None else mstype.to_dtype(dtype)
        self.weight = Parameter(initializer("ones", shape, dtype=dt), name="weight") if elementwise_affine else None
        self.bias = Parameter(initializer("zeros", shape, dtype=dt), name="bias") if (
            elementwise_affine and bias) else None

    def construct(self, input):  # noqa: A002
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)


class Embedding(Cell):
    """Lookup table ``weight`` (num_embeddings, embedding_dim), N(0, 1) initialised with the ``padding_idx`` row
    zero; ``max_norm`` renormalises looked-up rows."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, dtype=None):
        super().__init__()
        _positive(num_embeddings, "num_embeddings", "Embedding")
        _positive(embedding_dim, "embedding_dim", "Embedding")
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"For 'Embedding', padding_idx must be within the number of embeddings "
                                 f"({num_embeddings}), got {padding_idx}")
            padding_idx %= num_embeddings
        if sparse:
            raise ValueError("For 'Embedding', sparse gradients are not supported (sparse=True)")
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        self.max_norm, self.norm_type, self.scale_grad_by_freq = max_norm, norm_type, scale_grad_by_freq
        dt = mstype.float32 if dtype is None else mstype.to_dtype(dtype)
        if _weight is None:
            w = initializer(Normal(1.0), (num_embeddings, embedding_dim), dtype=dt).asnumpy().copy()
            if padding_idx is not None:
                w[padding_idx] = 0
            _weight = Tensor(w)
        elif tuple(_weight.shape) != (num_embeddings, embedding_dim):
            raise ValueError(f"For 'Embedding', _weight must have shape {(num_embeddings, embedding_dim)}, "
                             f"got {tuple(_weight.shape)}")
        self.weight = Parameter(_weight, name="weight", requires_grad=not _freeze)

    def construct(self, input):  # noqa: A002
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq)


class PReLU(Cell):
    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        _positive(num_parameters, "num_parameters", "PReLU")
        dt = mstype.float32 if dtype is None else mstype.to_dtype(dtype)
        self.weight = Parameter(Tensor(np.full((num_parameters,), init, dt.np)), name="weight")

    def construct(self, input):  # noqa: A002
        return F.prelu(input, self.weight)
