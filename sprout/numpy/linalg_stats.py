"""mindspore.numpy products (matmul, dot, tensordot, kron, cross, norm ...), differences and gradients,
convolution, covariance, polynomials, interpolation and integration, histograms and binning."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from .. import ops
from ..core.tensor import Tensor
from ._utils import apply_dtype, as_float, check_axis, check_int, const_value, to_tensor
from .array_ops import moveaxis, ravel

__all__ = ["matmul", "dot", "inner", "outer", "tensordot", "kron", "cross", "multi_dot", "matrix_power", "norm",
           "diff", "ediff1d", "gradient", "convolve", "correlate", "cov", "corrcoef", "polyadd", "polysub",
           "polymul", "polyval", "polyder", "polyint", "interp", "trapz", "unwrap"]


def _pair(a, b, op):
    a, b = to_tensor(a, op), to_tensor(b, op)
    if a.dtype is not b.dtype:
        dt = mstype.promote(a.dtype, b.dtype)
        a, b = ops.cast(a, dt), ops.cast(b, dt)
    return a, b


def matmul(x1, x2, dtype=None):
    op = "mindspore.numpy.matmul"
    a, b = _pair(x1, x2, op)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"{op}: inputs must not be scalars")
    ka, kb = a.shape[-1], b.shape[0] if b.ndim == 1 else b.shape[-2]
    if ka != kb:  # MindSpore's matmul kernel says RuntimeError
        raise RuntimeError(f"{op}: cannot multiply {tuple(a.shape)} by {tuple(b.shape)} ({ka} != {kb})")
    return apply_dtype(ops.matmul(a, b), dtype)


def dot(a, b):
    """NumPy's dot: a sum over a's last axis and b's second-to-last (its only, for 1-D b)."""
    op = "mindspore.numpy.dot"
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        raise TypeError(f"{op}: both inputs must be Tensors, got {type(a).__name__} and {type(b).__name__}")
    a, b = _pair(a, b, op)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    bax = 0 if b.ndim == 1 else b.ndim - 2
    if a.shape[-1] != b.shape[bax]:
        raise ValueError(f"{op}: shapes {tuple(a.shape)} and {tuple(b.shape)} are not aligned")
    return ops.tensordot(a, b, ((a.ndim - 1,), (bax,)))


def inner(a, b):
    op = "mindspore.numpy.inner"
    a, b = _pair(a, b, op)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"{op}: the last dimensions of {tuple(a.shape)} and {tuple(b.shape)} differ")
    return ops.tensordot(a, b, ((a.ndim - 1,), (b.ndim - 1,)))


def outer(a, b):
    a, b = _pair(a, b, "mindspore.numpy.outer")
    return ops.reshape(a, (-1, 1)) * ops.reshape(b, (1, -1))


def tensordot(a, b, axes=2):
    a, b = _pair(a, b, "mindspore.numpy.tensordot")
    return ops.tensordot(a, b, axes)


def kron(a, b):
    a, b = _pair(a, b, "mindspore.numpy.kron")
    nd = max(a.ndim, b.ndim)
    a = ops.reshape(a, (1,) * (nd - a.ndim) + tuple(a.shape))
    b = ops.reshape(b, (1,) * (nd - b.ndim) + tuple(b.shape))
    prod = ops.reshape(a, sum(((d, 1) for d in a.shape), ())) * ops.reshape(b, sum(((1, d) for d in b.shape), ()))
    return ops.reshape(prod, tuple(p * q for p, q in zip(a.shape, b.shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    op = "mindspore.numpy.cross"
    a, b = _pair(a, b, op)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, check_axis(axisa, a.ndim, op, "axisa"), -1)
    b = moveaxis(b, check_axis(axisb, b.ndim, op, "axisb"), -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError(f"{op}: vectors must have 2 or 3 components, got {a.shape[-1]} and {b.shape[-1]}")
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a0 * b1 - a1 * b0
    a2 = a[..., 2] if a.shape[-1] == 3 else ops.zeros_like(a0)
    b2 = b[..., 2] if b.shape[-1] == 3 else ops.zeros_like(b0)
    out = ops.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    return moveaxis(out, -1, check_axis(axisc, out.ndim, op, "axisc"))


def multi_dot(arrays):
    op = "mindspore.numpy.multi_dot"
    xs = [to_tensor(a, op) for a in arrays]
    if len(xs) < 2:
        raise ValueError(f"{op}: needs at least two arrays")
    first_1d, last_1d = xs[0].ndim == 1, xs[-1].ndim == 1
    if first_1d:
        xs[0] = ops.expand_dims(xs[0], 0)
    if last_1d:
        xs[-1] = ops.expand_dims(xs[-1], 1)
    out = xs[0]
    for x in xs[1:]:
        out = matmul(out, x)
    if first_1d:
        out = ops.squeeze(out, 0)
    if last_1d:
        out = ops.squeeze(out, -1)
    return out


def matrix_power(a, n):
    op = "mindspore.numpy.matrix_power"
    a = to_tensor(a, op)
    n = check_int(n, "n", op)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{op}: input must be a (stack of) square matrices, got {tuple(a.shape)}")
    if n < 0:
        raise ValueError(f"{op}: n < 0 is not supported, got {n}")
    eye = ops.broadcast_to(Tensor(np.eye(a.shape[-1], dtype=a.dtype.np)), a.shape)
    out, base = None, a
    while n:
        if n & 1:
            out = base if out is None else ops.matmul(out, base)
        n >>= 1
        if n:
            base = ops.matmul(base, base)
    return eye if out is None else out


def _vector_norm(x, ord, axis, keepdims):  # noqa: A002
    ax = (axis,)
    if ord is None or ord == 2:
        return ops.sqrt(ops.sum(x * x, ax, keepdims))
    if ord == np.inf:
        return ops.amax(ops.abs(x), ax, keepdims)
    if ord == -np.inf:
        return ops.amin(ops.abs(x), ax, keepdims)
    if ord == 0:
        return ops.sum(ops.cast(ops.not_equal(x, 0), x.dtype), ax, keepdims)
    if ord == 1:
        return ops.sum(ops.abs(x), ax, keepdims)
    return ops.pow(ops.sum(ops.pow(ops.abs(x), float(ord)), ax, keepdims), 1.0 / float(ord))


def _matrix_norm(x, ord, r, c, keepdims):  # noqa: A002
    if ord in (None, "fro"):
        out = ops.sqrt(ops.sum(x * x, (r, c), keepdims))
    elif ord in (1, -1, np.inf, -np.inf):
        inner_ax, outer_ax = (r, c) if ord in (1, -1) else (c, r)
        sums = ops.sum(ops.abs(x), inner_ax, True)
        out = (ops.amax if ord in (1, np.inf) else ops.amin)(sums, outer_ax, True)
        if not keepdims:
            out = ops.squeeze(out, (r, c))
    elif ord in ("nuc", 2, -2):
        moved = moveaxis(x, (r, c), (-2, -1))
        sv = ops.svd(moved, compute_uv=False)
        out = ops.sum(sv, -1) if ord == "nuc" else (ops.amax(sv, -1) if ord == 2 else ops.amin(sv, -1))
        if keepdims:
            out = ops.expand_dims(ops.expand_dims(out, min(r, c)), max(r, c))
    else:
        raise ValueError(f"mindspore.numpy.norm: invalid norm order {ord!r} for matrices")
    return out


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    op = "mindspore.numpy.norm"
    x = as_float(to_tensor(x, op))
    if axis is None:
        if ord is None:
            out = ops.sqrt(ops.sum(x * x))
            return ops.reshape(out, (1,) * x.ndim) if keepdims else out
        if x.ndim == 1:
            return _vector_norm(x, ord, 0, keepdims)
        if x.ndim == 2:
            return _matrix_norm(x, ord, 0, 1, keepdims)
        raise ValueError(f"{op}: give 'axis' for a norm of order {ord!r} of a {x.ndim}-D array")
    if isinstance(axis, (tuple, list)):
        if len(axis) == 1:
            return _vector_norm(x, ord, check_axis(axis[0], x.ndim, op), keepdims)
        if len(axis) != 2:
            raise ValueError(f"{op}: 'axis' must name one or two axes, got {axis!r}")
        r, c = check_axis(axis[0], x.ndim, op), check_axis(axis[1], x.ndim, op)
        if r == c:
            raise ValueError(f"{op}: duplicate axes {axis!r}")
        return _matrix_norm(x, ord, r, c, keepdims)
    return _vector_norm(x, ord, check_axis(axis, x.ndim, op), keepdims)


def diff(a, n=1, axis=-1, prepend=None, append=None):
    op = "mindspore.numpy.diff"
    a = to_tensor(a, op)
    n = check_int(n, "n", op)
    if n < 0:
        raise ValueError(f"{op}: order 'n' must be >= 0, got {n}")
    ax = check_axis(axis, a.ndim, op)
    def edge(extra):
        e = to_tensor(extra, op, a.dtype)
        if e.ndim == 0:
            shape = list(a.shape)
            shape[ax] = 1
            e = ops.broadcast_to(e, tuple(shape))
        return e

    parts = ([] if prepend is None else [edge(prepend)]) + [a] + ([] if append is None else [edge(append)])
    out = ops.concat(parts, ax) if len(parts) > 1 else a
    for _ in range(n):
        m = out.shape[ax]
        out = ops.narrow(out, ax, 1, m - 1) - ops.narrow(out, ax, 0, m - 1)
    return out


def ediff1d(ary, to_end=None, to_begin=None):
    op = "mindspore.numpy.ediff1d"
    a = ravel(to_tensor(ary, op))
    out = [a[1:] - a[:-1]]
    if to_begin is not None:
        out.insert(0, ravel(to_tensor(to_begin, op, a.dtype)))
    if to_end is not None:
        out.append(ravel(to_tensor(to_end, op, a.dtype)))
    return ops.concat(out, 0) if len(out) > 1 else out[0]


def _grad_axis(f, ax, h, edge_order):
    """Central differences along ``ax`` (uniform spacing ``h`` or 1-D coordinates ``h``)."""
    n = f.shape[ax]
    if n < edge_order + 1:
        raise ValueError("mindspore.numpy.gradient: each axis needs at least edge_order + 1 points")

    def sl(start, length):
        return ops.narrow(f, ax, start, length)

    view = [1] * f.ndim
    if isinstance(h, Tensor):
        dx = h[1:] - h[:-1]
        view[ax] = n - 2
        hl, hr = ops.reshape(dx[:-1], tuple(view)), ops.reshape(dx[1:], tuple(view))
        mid = (hl * hl * sl(2, n - 2) - hr * hr * sl(0, n - 2) + (hr * hr - hl * hl) * sl(1, n - 2)) / (
            hl * hr * (hl + hr))
        d0, dn = dx[0], dx[-1]
    else:
        mid = (sl(2, n - 2) - sl(0, n - 2)) / (2.0 * h)
        d0 = dn = h
    if edge_order == 1:
        first = (sl(1, 1) - sl(0, 1)) / d0
        last = (sl(n - 1, 1) - sl(n - 2, 1)) / dn
    else:
        first = (-1.5 * sl(0, 1) + 2.0 * sl(1, 1) - 0.5 * sl(2, 1)) / d0
        last = (0.5 * sl(n - 3, 1) - 2.0 * sl(n - 2, 1) + 1.5 * sl(n - 1, 1)) / dn
    return ops.concat([first, mid, last], ax) if n > 2 else ops.concat([first, last], ax)


def gradient(f, *varargs, axis=None, edge_order=1):
    op = "mindspore.numpy.gradient"
    f = as_float(to_tensor(f, op))
    axes = list(range(f.ndim)) if axis is None else [check_axis(a, f.ndim, op) for a in (
        axis if isinstance(axis, (tuple, list)) else (axis,))]
    if edge_order not in (1, 2):
        raise ValueError(f"{op}: 'edge_order' must be 1 or 2, got {edge_order!r}")
    if not varargs:
        spacing = [1.0] * len(axes)
    elif len(varargs) == 1:
        spacing = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacing = list(varargs)
    else:
        raise TypeError(f"{op}: give one spacing, or one per axis ({len(axes)}), got {len(varargs)}")
    hs = []
    for h in spacing:
        if isinstance(h, (Tensor, list, tuple)):
            t = as_float(to_tensor(h, op))
            hs.append(t if t.ndim == 1 else float(t.asnumpy()))
        else:
            hs.append(float(h))
    out = [_grad_axis(f, ax, h, edge_order) for ax, h in zip(axes, hs)]
    return out[0] if len(out) == 1 else out


def _sliding(a, v, mode, op, flip):
    """1-D convolution (flip=True) or correlation of a and v in NumPy's modes: one gather of a's windows and a
    product with v."""
    a, v = _pair(a, v, op)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError(f"{op}: inputs must be 1-D, got {a.ndim}-D and {v.ndim}-D")
    n, m = a.shape[0], v.shape[0]
    if n == 0 or m == 0:
        raise ValueError(f"{op}: inputs cannot be empty")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"{op}: 'mode' must be 'full', 'same' or 'valid', got {mode!r}")
    swapped = flip and m > n
    if swapped:
        a, v, n, m = v, a, m, n
    kern = ops.flip(v, (0,)) if flip else v
    padded = ops.concat([ops.zeros((m - 1,), a.dtype), a, ops.zeros((m - 1,), a.dtype)], 0)
    starts = np.arange(n + m - 1)
    windows = ops.gather(padded, Tensor((starts[:, None] + np.arange(m)[None, :]).astype(np.int32)), 0)
    full = ops.sum(windows * kern, -1)
    if mode == "full":
        return full
    if mode == "same":
        length = max(n, m) if not flip else n
        start = (n + m - 1 - length) // 2
        return full[start:start + length]
    length = max(n, m) - min(n, m) + 1
    return full[min(n, m) - 1:min(n, m) - 1 + length]


def convolve(a, v, mode="full"):
    return _sliding(a, v, mode, "mindspore.numpy.convolve", True)


def correlate(a, v, mode="valid"):
    op = "mindspore.numpy.correlate"
    a, v = _pair(a, v, op)
    if v.shape[0] > a.shape[0]:
        return ops.flip(_sliding(v, a, mode, op, False), (0,))
    return _sliding(a, v, mode, op, False)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    op = "mindspore.numpy.cov"
    x = as_float(to_tensor(m, op))
    if x.ndim > 2:
        raise ValueError(f"{op}: m has more than 2 dimensions")
    x = ops.reshape(x, (1, -1)) if x.ndim < 2 else x
    if not rowvar and x.shape[0] != 1:
        x = x.T
    if y is not None:
        yt = as_float(to_tensor(y, op))
        yt = ops.reshape(yt, (1, -1)) if yt.ndim < 2 else yt
        if not rowvar and yt.shape[0] != 1:
            yt = yt.T
        x = ops.concat([x, ops.cast(yt, x.dtype)], 0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        w = ops.cast(to_tensor(fweights, op), x.dtype)
    if aweights is not None:
        aw = ops.cast(to_tensor(aweights, op), x.dtype)
        w = aw if w is None else w * aw
    if w is None:
        avg = ops.mean(x, 1, True)
        fact = float(x.shape[1] - ddof)
        xc = x - avg
        out = ops.matmul(xc, xc.T) / fact
    else:
        wsum = ops.sum(w)
        avg = ops.sum(x * w, 1, True) / wsum
        if ddof == 0:
            fact = wsum
        elif aweights is None:
            fact = wsum - ddof
        else:
            fact = wsum - ddof * ops.sum(w * aw) / wsum
        xc = x - avg
        out = ops.matmul(xc * w, xc.T) / fact
    out = ops.squeeze(out) if out.shape == (1, 1) else out
    return apply_dtype(out, dtype)


def corrcoef(x, y=None, rowvar=True, dtype=None):
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return apply_dtype(c / c, dtype)
    d = ops.sqrt(ops.diagonal(c))
    out = ops.clip(c / ops.reshape(d, (-1, 1)) / ops.reshape(d, (1, -1)), -1.0, 1.0)
    return apply_dtype(out, dtype)


def _poly(p, op):
    p = to_tensor(p, op)
    if p.ndim != 1:
        raise ValueError(f"{op}: polynomial coefficients must be 1-D, got {p.ndim}-D")
    return p


def _aligned(a1, a2, op):
    a1, a2 = _pair(_poly(a1, op), _poly(a2, op), op)
    n = max(a1.shape[0], a2.shape[0])
    pad = [ops.concat([ops.zeros((n - p.shape[0],), p.dtype), p], 0) if p.shape[0] < n else p for p in (a1, a2)]
    return pad


def polyadd(a1, a2):
    p, q = _aligned(a1, a2, "mindspore.numpy.polyadd")
    return p + q


def polysub(a1, a2):
    p, q = _aligned(a1, a2, "mindspore.numpy.polysub")
    return p - q


def polymul(a1, a2):
    return convolve(_poly(a1, "mindspore.numpy.polymul"), _poly(a2, "mindspore.numpy.polymul"))


def polyval(p, x):
    op = "mindspore.numpy.polyval"
    p = as_float(_poly(p, op))
    x = ops.cast(to_tensor(x, op), p.dtype)
    out = ops.zeros_like(x)
    for i in range(p.shape[0]):
        out = out * x + p[i]
    return out


def polyder(p, m=1):
    op = "mindspore.numpy.polyder"
    p = _poly(p, op)
    m = check_int(m, "m", op)
    if m < 0:
        raise ValueError(f"{op}: order of derivative must be >= 0, got {m}")
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return ops.zeros((1,), p.dtype)
        p = p[:-1] * Tensor(np.arange(n, 0, -1).astype(p.dtype.np))
    return p


def polyint(p, m=1, k=None):
    op = "mindspore.numpy.polyint"
    p = as_float(_poly(p, op))
    m = check_int(m, "m", op)
    if m < 0:
        raise ValueError(f"{op}: order of integral must be >= 0, got {m}")
    ks = [0.0] * m if k is None else list(np.atleast_1d(const_value(k, op, "k")).astype(float))
    if len(ks) == 1 and m > 1:
        ks = ks * m
    if len(ks) != m:
        raise ValueError(f"{op}: k must hold one constant or m ({m}) constants, got {len(ks)}")
    for i in range(m):
        n = p.shape[0]
        p = ops.concat([p / Tensor(np.arange(n, 0, -1).astype(p.dtype.np)),
                        Tensor(np.array([ks[i]], p.dtype.np))], 0)
    return p


def interp(x, xp, fp, left=None, right=None):
    """Piecewise-linear interpolation of (xp, fp) at x (xp increasing); left/right beyond the ends."""
    op = "mindspore.numpy.interp"
    x = as_float(to_tensor(x, op))
    xp = ops.cast(to_tensor(xp, op), x.dtype)
    fp = ops.cast(to_tensor(fp, op), x.dtype)
    if xp.ndim != 1 or fp.ndim != 1 or xp.shape[0] != fp.shape[0]:
        raise ValueError(f"{op}: xp and fp must be 1-D and of the same length")
    n = xp.shape[0]
    idx = ops.clip(ops.cast(ops.searchsorted(xp, x, right=True), mstype.int32), 1, n - 1)
    x0, x1 = ops.gather(xp, idx - 1, 0), ops.gather(xp, idx, 0)
    f0, f1 = ops.gather(fp, idx - 1, 0), ops.gather(fp, idx, 0)
    out = f0 + (f1 - f0) * (x - x0) / (x1 - x0)
    lo = fp[0] if left is None else left
    hi = fp[-1] if right is None else right
    out = ops.where(ops.less(x, xp[0]), ops.broadcast_to(to_tensor(lo, op, x.dtype), x.shape), out)
    return ops.where(ops.greater(x, xp[-1]), ops.broadcast_to(to_tensor(hi, op, x.dtype), x.shape), out)


def trapz(y, x=None, dx=1.0, axis=-1):
    op = "mindspore.numpy.trapz"
    y = as_float(to_tensor(y, op))
    ax = check_axis(axis, y.ndim, op)
    n = y.shape[ax]
    mids = (ops.narrow(y, ax, 1, n - 1) + ops.narrow(y, ax, 0, n - 1)) / 2.0
    if x is None:
        return ops.sum(mids, ax) * dx
    xt = ops.cast(to_tensor(x, op), y.dtype)
    if xt.ndim == 1:
        d = xt[1:] - xt[:-1]
        view = [1] * y.ndim
        view[ax] = n - 1
        d = ops.reshape(d, tuple(view))
    else:
        d = ops.narrow(xt, ax, 1, n - 1) - ops.narrow(xt, ax, 0, n - 1)
    return ops.sum(mids * d, ax)


def unwrap(p, discont=np.pi, axis=-1):
    op = "mindspore.numpy.unwrap"
    p = as_float(to_tensor(p, op))
    ax = check_axis(axis, p.ndim, op)
    n = p.shape[ax]
    d = ops.narrow(p, ax, 1, n - 1) - ops.narrow(p, ax, 0, n - 1)
    dd = ops.floor_mod(d + np.pi, 2 * np.pi) - np.pi
    dd = ops.where(ops.logical_and(ops.equal(dd, -np.pi), ops.greater(d, 0)), ops.full_like(dd, np.pi), dd)
    corr = ops.where(ops.less(ops.abs(d), discont), ops.zeros_like(d), dd - d)
    return ops.concat([ops.narrow(p, ax, 0, 1), ops.narrow(p, ax, 1, n - 1) + ops.cumsum(corr, ax)], ax)
