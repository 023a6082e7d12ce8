"""mindspore.mint: MindSpore's PyTorch-style namespace (``mint.add(input, other, *, alpha=1)``,
``mint.sum(input, dim, keepdim)``, ``mint.nn.Linear``, ``mint.nn.functional.relu``, ``mint.optim.AdamW`` ...)
mapped onto sprout's ops, with mint's own argument names and defaults (docs/mint.md)."""
from ..core.tensor import Tensor  # noqa: F401
from ._creation import (  # noqa: F401
    arange, bernoulli, empty, empty_like, eye, full, full_like, linspace, multinomial, normal, ones, ones_like, rand,
    rand_like, randint, randint_like, randn, randn_like, randperm, zeros, zeros_like)
from ._extra import (  # noqa: F401
    batch_norm_elemt, batch_norm_gather_stats_with_counts, batch_norm_stats, triangular_solve)
from ._math import (  # noqa: F401
    abs, acos, acosh, add, addbmm, addcdiv, addcmul, addmm, addmv, addr_, all, allclose, amax, amin, any, arccos,
    arccosh, arcsin, arcsinh, arctan, arctan2, arctanh, argmax, argmin, asin, asinh, atan, atan2, atanh, baddbmm,
    bitwise_and, bitwise_not, bitwise_or, bitwise_xor, bmm, cdist, cdist_, ceil, clamp, clip, cos, cosh, count_nonzero,
    cross, cummax, cummin, cumprod, cumsum, diff, div, divide, dot, eq, equal, erf, erfc, erfinv, exp, exp2, expm1,
    fix, float_power, floor, floor_divide, fmod, frac, gcd, ge, greater, greater_equal, gt, inverse, isclose,
    isfinite, isinf, isnan, isneginf, item, le, lerp, less, less_equal, log, log10, log1p, log2, logaddexp,
    logaddexp2, logical_and, logical_not, logical_or, logical_xor, logsumexp, lt, matmul, max, maximum, mean, median,
    min, minimum, mm, mul, mv, nan_to_num, nansum, ne, neg, negative, norm, not_equal, outer, pow, prod, reciprocal,
    remainder, round, rsqrt, sigmoid, sign, sin, sinc, sinh, softmax, softmax_ext, sqrt, square, std, std_mean, sub,
    sum, tan, tanh, trace, trunc, var, var_mean, vdot, xlogy)
from ._tensor import (  # noqa: F401
    argsort, bincount, broadcast_to, cat, chunk, concat, diag, dstack, flatten, flatten_ext, flip, gather, histc,
    hstack, index_add, index_select, kthvalue, masked_select, meshgrid, narrow, nonzero, permute, repeat_interleave,
    reshape, roll, scatter, scatter_add, searchsorted, select, sort, split, squeeze, squeeze_impl, stack, swapaxes, t,
    take, tile, topk, transpose, tril, triu, unbind, unique, unique_consecutive, unsqueeze, where)
from . import distributed, linalg, nn, optim, special  # noqa: F401
from .nn.functional import gelu as npu_gelu  # noqa: F401
from ..ops.functional import einsum, ravel  # noqa: F401

equal_ext_op = equal


def clone(input):  # noqa: A002 - mint's argument name
    """A copy of ``input`` (a new Tensor; gradients flow through)."""
    from .. import ops

    return ops.identity(input)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):  # noqa: A002
    return nn.functional.conv2d(input, weight, bias, stride, padding, dilation, groups)


def conv_tbc(input, weight, bias, pad=0):  # noqa: A002
    """1-D convolution of a (time, batch, channel) input with a (kernel, in, out) weight."""
    from .. import ops

    x = ops.transpose(input, (1, 2, 0))
    w = ops.transpose(weight, (2, 1, 0))
    out = nn.functional.conv1d(x, w, bias, 1, pad)
    return ops.transpose(out, (2, 0, 1))


def real(input):  # noqa: A002
    """The real part (a real Tensor is returned as it is)."""
    from .. import ops

    return ops.real(input)


def imag(input):  # noqa: A002
    """The imaginary part (zeros for a real Tensor, as MindSpore 2.10)."""
    from .. import ops

    return ops.imag(input)


def polar(abs, angle):  # noqa: A002,F811  (MindSpore's argument names)
    """``abs * (cos(angle) + i sin(angle))``: a complex64 (complex128) tensor from two float32 (float64) ones."""
    from .. import ops

    return ops.polar(abs, angle)
