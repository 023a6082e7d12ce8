"""Normalization layers: BatchNorm1d/2d (MindSpore momentum convention), LayerNorm, GroupNorm."""
from __future__ import annotations

import numbers

from ... import dtype as mstype
from ... import ops
from ...common.initializer import Initializer, initializer
from ...core.tensor import Parameter, Tensor
from ...ops.composite import layer_norm_stats
from ..cell import Cell


class _BatchNorm(Cell):
    """Shared BatchNorm: normalises over every axis but the channel axis (1). In training the batch statistics
    are used and ``moving = momentum * moving + (1 - momentum) * batch`` (unbiased variance for the moving one)."""

    _ranks: tuple = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        if isinstance(num_features, bool) or not isinstance(num_features, int):
            raise TypeError(f"For '{self.cls_name}', the type of 'num_features' should be 'int', but got type "
                            f"'{type(num_features).__name__}'.")
        if num_features < 1:
            raise ValueError(f"For '{self.cls_name}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{self.cls_name}', the 'momentum' must be a number in range [0, 1], "
                             f"but got {momentum}.")
        if data_format != "NCHW":
            raise ValueError(f"For '{self.cls_name}', sprout supports data_format='NCHW' only, got {data_format!r}.")
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise TypeError(f"For '{self.cls_name}', 'use_batch_statistics' must be a bool or None.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.use_batch_statistics, self.format = use_batch_statistics, data_format
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, dtype=dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)

    def _check_rank(self, x) -> None:
        if x.ndim not in self._ranks:
            raise ValueError(f"For '{self.cls_name}', the input must be a tensor of rank "
                             f"{' or '.join(map(str, self._ranks))}, but got shape {list(x.shape)}.")

    def construct(self, x):
        self._check_rank(x)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        bshape = (1, self.num_features) + (1,) * (x.ndim - 2)
        if not use_batch:
            # y = x * scale + shift with per-channel scale = gamma / sqrt(var + eps): two full-size ops
            scale = ops.mul(self.gamma, ops.rsqrt(ops.add(self.moving_variance, self.eps)))
            shift = ops.sub(self.beta, ops.mul(self.moving_mean, scale))
            return ops.add(ops.mul(x, ops.reshape(scale, bshape)), ops.reshape(shift, bshape))
        y, mean, var = layer_norm_stats(x, (0,) + tuple(range(2, x.ndim)), self.eps)
        y = ops.add(ops.mul(y, ops.reshape(self.gamma, bshape)), ops.reshape(self.beta, bshape))
        if self.training:
            self._update_moving(mean, var, x.size // self.num_features)
        return y

    def _update_moving(self, mean, var, count: int) -> None:
        m = self.momentum
        batch_mean = ops.reshape(ops.stop_gradient(mean), (self.num_features,))
        batch_var = ops.reshape(ops.stop_gradient(var), (self.num_features,))
        unbias = count / (count - 1) if count > 1 else 1.0
        ops.assign(self.moving_mean, ops.add(ops.mul(self.moving_mean, m), ops.mul(batch_mean, 1.0 - m)))
        ops.assign(self.moving_variance, ops.add(ops.mul(self.moving_variance, m),
                                             ops.mul(batch_var, (1.0 - m) * unbias)))

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
                f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    """BatchNorm over (N, C) or (N, C, L) inputs."""

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """BatchNorm over (N, C, H, W) inputs."""

    _ranks = (4,)


class BatchNorm3d(Cell):
    """BatchNorm over (N, C, D, H, W) inputs: a BatchNorm2d named ``bn2d`` over (N, C, D * H, W), as in MindSpore
    (so the parameters are ``bn2d.moving_mean``, ``bn2d.gamma`` ...)."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, dtype=mstype.float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                                moving_var_init, use_batch_statistics, "NCHW", dtype)

    def construct(self, x):
        if x.ndim != 5:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have 5 dims, but got {x.ndim}.")
        n, c, d, h, w = x.shape
        return ops.reshape(self.bn2d(ops.reshape(x, (n, c, d * h, w))), (n, c, d, h, w))


class SyncBatchNorm(_BatchNorm):
    """BatchNorm whose batch statistics are shared across the processes of ``process_groups``. sprout runs one
    process (rank 0 of a group of 1), where it is exactly BatchNorm; inputs are (N, C) or (N, C, H, W)."""

    _ranks = (2, 4)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, process_groups=None,
                 dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, "NCHW", dtype)
        self.process_groups = process_groups
        self.rank_id, self.rank_size = 0, 1
        if process_groups not in (None, 0):
            if not isinstance(process_groups, list):
                raise ValueError(f"The parameter 'process_groups' must be isinstance of {list}, but got "
                                 f"{process_groups}.")
            seen = set()
            for group in process_groups:
                if not isinstance(group, list):
                    raise ValueError(f"The parameter 'sub group' must be isinstance of {list}, but got {group}.")
                for rid in group:
                    if isinstance(rid, bool) or not isinstance(rid, int) or not 0 <= rid < self.rank_size:
                        raise ValueError(f"For '{self.cls_name}', the 'rank id in process_groups' must be in range "
                                         f"of [0, {self.rank_size}), but got {rid}.")
                    if rid in seen:
                        raise ValueError(f"For '{self.cls_name}', rank id in 'process_groups' must not be duplicated, "
                                         f"but got {process_groups}.")
                    seen.add(rid)


class _InstanceNorm(Cell):
    """Normalise each (sample, channel) over its spatial axes, then scale/shift by gamma/beta. In training the
    moving statistics follow the batch average of the instance statistics with weight ``momentum``
    (moving = (1 - momentum) * moving + momentum * stat); they are never used for the output."""

    _rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        owner = self.cls_name
        for name, v, types in (("num_features", num_features, int), ("eps", eps, float),
                               ("momentum", momentum, float), ("affine", affine, bool)):
            if (isinstance(v, bool) and types is not bool) or not isinstance(v, types):
                raise TypeError(f"For '{owner}', the type of '{name}' should be '{types.__name__}', but got type "
                                f"'{type(v).__name__}'.")
        for key, val in (("gamma_init", gamma_init), ("beta_init", beta_init)):
            if not isinstance(val, (Tensor, numbers.Number, str, Initializer)):
                raise TypeError(f"For '{owner}', the type of '{key}' must be in [Tensor, numbers.Number, str, "
                                f"Initializer], but got type {type(val).__name__}.")
            if isinstance(val, Tensor) and val.dtype is not mstype.float32:
                raise TypeError(f"For '{owner}', the type of '{key}' must be float32, but got {val.dtype}.")
        if num_features < 1:
            raise ValueError(f"For '{owner}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{owner}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.moving_mean = Parameter(initializer("zeros", num_features, dtype=dtype), name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        if x.ndim != self._rank:
            raise ValueError(f"For '{self.cls_name}', the in_shape must have {self._rank} dims, but got {x.ndim}.")
        axes = tuple(range(2, x.ndim))
        y, mean, var = layer_norm_stats(x, axes, self.eps)
        bshape = (1, self.num_features) + (1,) * (x.ndim - 2)
        y = ops.add(ops.mul(y, ops.reshape(self.gamma, bshape)), ops.reshape(self.beta, bshape))
        if self.training:
            count = 1
            for d in x.shape[2:]:
                count *= d
            unbias = count / (count - 1) if count > 1 else 1.0
            m = self.momentum
            batch_mean = ops.mean(ops.reshape(ops.stop_gradient(mean), (x.shape[0], self.num_features)), 0)
            batch_var = ops.mean(ops.reshape(ops.stop_gradient(var), (x.shape[0], self.num_features)), 0)
            ops.assign(self.moving_mean, ops.add(ops.mul(self.moving_mean, 1.0 - m), ops.mul(batch_mean, m)))
            ops.assign(self.moving_variance, ops.add(ops.mul(self.moving_variance, 1.0 - m),
                                                     ops.mul(batch_var, m * unbias)))
        return y

    def extend_repr(self) -> str:
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
                f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of (N, C, L)."""

    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of (N, C, H, W)."""

    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of (N, C, D, H, W)."""

    _rank = 5


class LayerNorm(Cell):
    """Normalise over axes begin_norm_axis.. and scale/shift by gamma/beta of shape x.shape[begin_params_axis:]."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init="ones",
                 beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)) or not normalized_shape:
            raise TypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be a non-empty tuple[int] or "
                            f"list[int], but got {normalized_shape!r}.")
        self.normalized_shape = tuple(normalized_shape)
        self.begin_norm_axis, self.begin_params_axis, self.epsilon = begin_norm_axis, begin_params_axis, epsilon
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype=dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype=dtype), name="beta")

    def construct(self, x):
        nd = x.ndim
        y, _, _ = layer_norm_stats(x, tuple(range(self.begin_norm_axis % nd, nd)), self.epsilon)
        return ops.add(ops.mul(y, self.gamma), self.beta)

    def extend_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    """Normalise (N, C, ...) inputs over groups of C // num_groups channels, then scale/shift per channel."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', but got "
                             f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        self.gamma = Parameter(initializer(gamma_init, num_channels, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_channels, dtype=dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        shape = tuple(x.shape)
        y, _, _ = layer_norm_stats(ops.reshape(x, (shape[0], self.num_groups, -1)), (2,), self.eps)
        y = ops.reshape(y, shape)
        bshape = (1, self.num_channels) + (1,) * (len(shape) - 2)
        return ops.add(ops.mul(y, ops.reshape(self.gamma, bshape)), ops.reshape(self.beta, bshape))

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}, eps={self.eps}, affine={self.affine}"
