"""Straightforward NumPy references for the op table: loops and textbook formulas, deliberately
unlike the im2col / strided-view implementations they check."""
import math

import numpy as np


def pads(size, k, s, d, mode, lo=0, hi=0):
    """(out, pad_lo, pad_hi) of one axis, written from the definitions of the three pad modes."""
    eff = d * (k - 1) + 1
    if mode == "same":
        out = math.ceil(size / s)
        total = max((out - 1) * s + eff - size, 0)
        return out, total // 2, total - total // 2
    if mode == "valid":
        return (size - eff) // s + 1, 0, 0
    return (size + lo + hi - eff) // s + 1, lo, hi


def conv2d(x, w, stride=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    ho, pt, pb = pads(h, kh, stride[0], dilation[0], pad_mode, pad[0], pad[1])
    wo, pl, pr = pads(wd, kw, stride[1], dilation[1], pad_mode, pad[2], pad[3])
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    out = np.zeros((n, o, ho, wo), x.dtype)
    og = o // groups
    for oc in range(o):
        g = oc // og
        for i in range(ho):
            for j in range(wo):
                r, col = i * stride[0], j * stride[1]
                patch = xp[:, g * cg:(g + 1) * cg, r:r + dilation[0] * (kh - 1) + 1:dilation[0],
                           col:col + dilation[1] * (kw - 1) + 1:dilation[1]]
                out[:, oc, i, j] = (patch * w[oc]).sum(axis=(1, 2, 3))
    return out


def pool2d(x, kernel, stride, mode, pad=(0, 0, 0, 0), kind="max", count_include_pad=True):
    n, c, h, w = x.shape
    ho, pt, pb = pads(h, kernel[0], stride[0], 1, mode, pad[0], pad[1])
    wo, pl, pr = pads(w, kernel[1], stride[1], 1, mode, pad[2], pad[3])
    out = np.zeros((n, c, ho, wo), x.dtype)
    for i in range(ho):
        for j in range(wo):
            r0, c0 = i * stride[0] - pt, j * stride[1] - pl
            rows = [r for r in range(r0, r0 + kernel[0]) if 0 <= r < h]
            cols = [q for q in range(c0, c0 + kernel[1]) if 0 <= q < w]
            block = x[:, :, rows][:, :, :, cols]
            if kind == "max":
                out[:, :, i, j] = block.max(axis=(2, 3))
            else:
                if count_include_pad and mode == "pad":
                    rr = [r for r in range(r0, r0 + kernel[0]) if -pt <= r < h + pb]
                    cc = [q for q in range(c0, c0 + kernel[1]) if -pl <= q < w + pr]
                    count = len(rr) * len(cc)
                else:
                    count = len(rows) * len(cols)
                out[:, :, i, j] = block.sum(axis=(2, 3)) / count
    return out


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    return np.log(softmax(x, axis))


def erf(x):
    return np.vectorize(math.erf)(x)


def gather(params, indices, axis, batch_dims=0):
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    return np.stack([gather(p, i, axis - 1, batch_dims - 1) for p, i in zip(params, indices)])


def gather_grad(dout, indices, shape, axis):
    """Adjoint of gather, by definition: each index position adds its slice back."""
    out = np.zeros(shape, dout.dtype)
    o = np.moveaxis(out, axis, 0)
    k = indices.ndim
    d = np.moveaxis(dout, list(range(axis, axis + k)), list(range(k)))
    for pos in np.ndindex(indices.shape):
        o[indices[pos]] += d[pos]
    return out


def gather_d_grad(dout, index, shape, dim):
    out = np.zeros(shape, dout.dtype)
    for pos in np.ndindex(index.shape):
        target = list(pos)
        target[dim] = index[pos]
        out[tuple(target)] += dout[pos]
    return out


def one_hot(indices, depth, on, off, axis=-1):
    out = np.full(indices.shape + (depth,), off)
    for pos in np.ndindex(indices.shape):
        if 0 <= indices[pos] < depth:
            out[pos + (indices[pos],)] = on
    return np.moveaxis(out, -1, axis)


def sum_to(x, shape):
    lead = x.ndim - len(shape)
    out = x.sum(axis=tuple(range(lead))) if lead else x
    for i, s in enumerate(shape):
        if s == 1 and out.shape[i] != 1:
            out = out.sum(axis=i, keepdims=True)
    return out
