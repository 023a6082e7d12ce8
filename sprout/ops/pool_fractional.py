"""Fractional max pooling (2-D and 3-D) as a composite: window starts from the random samples, one gather, argmax."""

# Along an axis of size n pooled to m outputs with window k, output i starts at floor((i + u) * a) - floor(u * a)
# with a = (n - k) / (m - 1) and u the sample of that (batch, channel) plane in [0, 1); the last window starts at
# n - k. Every window of every output is gathered from the flattened plane (the flat index is what the op returns
# as indices), the first maximum of each window wins, and the values are taken with gather_elements at that index
# so gradients reach the winning element only.
from __future__ import annotations

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F

__all__ = ["fractional_max_pool2d", "fractional_max_pool3d"]


def _sizes(v, n: int, name: str, op: str) -> tuple:
    if isinstance(v, int) and not isinstance(v, bool):
        v = (v,) * n
    if not isinstance(v, (tuple, list)) or len(v) not in (1, n) or not all(
            isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in v):
        raise ValueError(f"For '{op}', '{name}' must be a positive int or a tuple of {n} positive ints, "
                         f"but got {v!r}.")
    return tuple(v) * n if len(v) == 1 else tuple(v)


def _out_sizes(spatial, output_size, output_ratio, n: int, op: str) -> tuple:
    if output_size is not None:
        return _sizes(output_size, n, "output_size", op)
    if output_ratio is None:
        raise ValueError(f"For '{op}', 'output_size' and 'output_ratio' can not be None at the same time.")
    if isinstance(output_ratio, (int, float)) and not isinstance(output_ratio, bool):
        if not isinstance(output_ratio, float):
            raise TypeError(f"For '{op}', 'output_ratio' must be a float or a tuple of floats, "
                            f"but got {type(output_ratio).__name__}.")
        output_ratio = (output_ratio,) * n
    if not isinstance(output_ratio, (tuple, list)) or len(output_ratio) != n:
        raise ValueError(f"For '{op}', 'output_ratio' must be a float or a tuple of {n} floats, "
                         f"but got {output_ratio!r}.")
    for r in output_ratio:
        if not isinstance(r, (int, float)) or isinstance(r, bool) or not 0.0 < r < 1.0:
            raise ValueError(f"For '{op}', every 'output_ratio' must be in (0, 1), but got {output_ratio!r}.")
    return tuple(int(s * r) for s, r in zip(spatial, output_ratio))


def _starts(u: Tensor, size: int, out: int, k: int) -> Tensor:
    """Window starts (N, C, out) along one axis from the samples ``u`` (N, C), as int64."""
    last = F.full(tuple(u.shape) + (1,), size - k, dtype=mstype.int64)
    if out == 1:
        return last
    alpha = (size - k) / (out - 1)
    i = F.cast(F.arange(out - 1), mstype.float64)
    u64 = F.expand_dims(F.cast(u, mstype.float64), -1)
    first = F.sub(F.floor(F.mul(F.add(i, u64), alpha)), F.floor(F.mul(u64, alpha)))
    return F.concat((F.cast(first, mstype.int64), last), -1)


def _fractional(x, kernel_size, output_size, output_ratio, return_indices, samples, n: int, op: str):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', 'input' must be a Tensor, but got {type(x).__name__}.")
    if not isinstance(return_indices, bool):
        raise TypeError(f"For '{op}', 'return_indices' must be a bool, but got {type(return_indices).__name__}.")
    if x.ndim not in (n + 1, n + 2):
        raise ValueError(f"For '{op}', the input must be {n + 1}-D or {n + 2}-D, but got {x.ndim}-D.")
    if not x.dtype.is_float:
        raise TypeError(f"For '{op}', the input must be a float tensor, but got {x.dtype}.")
    squeeze = x.ndim == n + 1
    t = F.expand_dims(x, 0) if squeeze else x
    nb, ch = t.shape[0], t.shape[1]
    spatial = tuple(t.shape[2:])
    ks = _sizes(kernel_size, n, "kernel_size", op)
    outs = _out_sizes(spatial, output_size, output_ratio, n, op)
    for s, k, o in zip(spatial, ks, outs):
        if o <= 0 or o + k - 1 > s:
            raise ValueError(f"For '{op}', output_size {outs} plus kernel_size {ks} minus 1 must not exceed the "
                             f"input size {spatial} (and each output size must be positive).")
    if samples is None:
        samples = F.rand(nb, ch, n, dtype=t.dtype)
    if not isinstance(samples, Tensor) or tuple(samples.shape) != (nb, ch, n):
        raise ValueError(f"For '{op}', '_random_samples' must be a Tensor of shape {(nb, ch, n)}, "
                         f"but got {getattr(samples, 'shape', samples)!r}.")
    # the first sample steps the last axis (width), the second the one before ... (PyTorch's convention)
    axes_u = [samples[:, :, n - 1 - a] for a in range(n)]
    flat = None
    strides = [1] * n
    for a in range(n - 2, -1, -1):
        strides[a] = strides[a + 1] * spatial[a + 1]
    for a in range(n):
        pos = F.add(F.expand_dims(_starts(axes_u[a], spatial[a], outs[a], ks[a]), -1),
                    F.arange(ks[a], dtype=mstype.int64))  # (N, C, out_a, k_a)
        # laid out as (N, C, out_0 .. out_{n-1}, k_0 .. k_{n-1}), broadcast over the other axes
        term = F.reshape(F.mul(pos, strides[a]), (nb, ch) + tuple(outs[a] if j == a else 1 for j in range(n))
                         + tuple(ks[a] if j == a else 1 for j in range(n)))
        flat = term if flat is None else F.add(flat, term)
    window = 1
    for k in ks:
        window *= k
    idx = F.reshape(F.broadcast_to(flat, (nb, ch) + outs + ks), (nb, ch, -1))
    plane = F.reshape(t, (nb, ch, -1))
    vals = F.reshape(F.gather_elements(plane, 2, idx), (nb, ch) + outs + (window,))
    best = F.argmax(F.stop_gradient(vals), -1, True)
    indices = F.reshape(F.gather_elements(F.reshape(idx, (nb, ch) + outs + (window,)), -1, best),
                        (nb, ch) + outs)
    out = F.reshape(F.gather_elements(plane, 2, F.reshape(indices, (nb, ch, -1))), (nb, ch) + outs)
    if squeeze:
        out, indices = F.squeeze(out, 0), F.squeeze(indices, 0)
    return (out, indices) if return_indices else out


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None,  # noqa: A002
                          return_indices=False, _random_samples=None):
    """Fractional 2-D max pooling of (N, C, H, W) or (C, H, W); ``_random_samples`` (N, C, 2) in [0, 1)."""
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 2,
                       "fractional_max_pool2d")


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None,  # noqa: A002
                          return_indices=False, _random_samples=None):
    """Fractional 3-D max pooling of (N, C, D, H, W) or (C, D, H, W); ``_random_samples`` (N, C, 3) in [0, 1)."""
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices, _random_samples, 3,
                       "fractional_max_pool3d")
