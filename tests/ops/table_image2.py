"""Op-table cases for ops/classes_image2.py's composites (MaxPool3DWithArgmax, GridSampler3D, DepthwiseConv2dNative,
ExtractImagePatches, Dilation2D) against NumPy loops, gradients against finite differences, in every mode. The last
three have no MindSpore CPU kernel; tests/ops/oracle/cases_image2.py checks the first two against MindSpore."""
import itertools

import numpy as np

from sprout import ops
from optable import DISTINCT, F64, Case


def _same(size, k, s, d):
    out = -(-size // s)
    need = max(0, (out - 1) * s + d * (k - 1) + 1 - size)
    return out, need // 2


def _windows(x, kernel, stride, rates, mode, fill=0.0):
    """{(i, j): (N, C, oh, ow)} window taps by explicit index loops."""
    n, c, h, w = x.shape
    if mode == "valid":
        (oh, top), (ow, left) = ((h - rates[0] * (kernel[0] - 1) - 1) // stride[0] + 1, 0), \
                                ((w - rates[1] * (kernel[1] - 1) - 1) // stride[1] + 1, 0)
    else:
        (oh, top), (ow, left) = _same(h, kernel[0], stride[0], rates[0]), _same(w, kernel[1], stride[1], rates[1])
    taps = {}
    for i, j in itertools.product(range(kernel[0]), range(kernel[1])):
        t = np.full((n, c, oh, ow), fill, x.dtype)
        for y, z in itertools.product(range(oh), range(ow)):
            r, q = y * stride[0] + i * rates[0] - top, z * stride[1] + j * rates[1] - left
            if 0 <= r < h and 0 <= q < w:
                t[:, :, y, z] = x[:, :, r, q]
        taps[i, j] = t
    return taps


def _patches_ref(x, k, s, r, mode):
    taps = _windows(x, k, s, r, mode)
    n, c, oh, ow = taps[0, 0].shape
    out = np.zeros((n, k[0] * k[1] * c, oh, ow), x.dtype)
    for (i, j), t in taps.items():
        for ch in range(c):
            out[:, (i * k[1] + j) * c + ch] = t[:, ch]
    return out


def _dilation_ref(x, f, s, d, mode):
    taps = _windows(x, f.shape[1:], s, d, mode)
    return np.max([t + f[None, :, i, j, None, None] for (i, j), t in taps.items()], 0)


def _depthwise_ref(x, w, stride, mode, pad=(0, 0, 0, 0), dil=1):
    if mode == "pad":
        x = np.pad(x, ((0, 0), (0, 0), pad[:2], pad[2:]))
        mode = "valid"
    taps = _windows(x, w.shape[2:], (stride, stride), (dil, dil), mode)
    return sum(t * w[0, None, :, i, j, None, None] for (i, j), t in taps.items())


def _pool3d_ref(x, k, s, p):
    n, c, d, h, w = x.shape
    xp = np.pad(x, ((0, 0), (0, 0)) + tuple((q, q) for q in p), constant_values=-np.inf)
    outs = [(xp.shape[2 + a] - k[a]) // s[a] + 1 for a in range(3)]
    val = np.zeros((n, c, *outs), x.dtype)
    arg = np.zeros((n, c, *outs), np.int64)
    for a, b, e in itertools.product(*map(range, outs)):
        win = xp[:, :, a * s[0]:a * s[0] + k[0], b * s[1]:b * s[1] + k[1], e * s[2]:e * s[2] + k[2]].reshape(n, c, -1)
        best = win.argmax(-1)
        val[:, :, a, b, e] = win.max(-1)
        dz, rem = np.divmod(best, k[1] * k[2])
        dy, dx = np.divmod(rem, k[2])
        arg[:, :, a, b, e] = ((a * s[0] + dz - p[0]) * h + b * s[1] + dy - p[1]) * w + e * s[2] + dx - p[2]
    return val, arg


def _trilinear_ref(x, g, align):
    n, c, d, h, w = x.shape
    out = np.zeros((n, c) + g.shape[1:4])
    for b in range(n):
        for idx in itertools.product(*map(range, g.shape[1:4])):
            gx, gy, gz = g[(b,) + idx]
            pos = [((v + 1) / 2 * (size - 1)) if align else ((v + 1) * size - 1) / 2
                   for v, size in ((gz, d), (gy, h), (gx, w))]
            lo = [int(np.floor(p)) for p in pos]
            acc = np.zeros(c)
            for corner in itertools.product((0, 1), repeat=3):
                pt = [lo_ + cc for lo_, cc in zip(lo, corner)]
                wt = np.prod([(p - lo_) if cc else (1 - (p - lo_)) for p, lo_, cc in zip(pos, lo, corner)])
                if all(0 <= q < size for q, size in zip(pt, (d, h, w))):
                    acc += wt * x[b, :, pt[0], pt[1], pt[2]]
            out[(b, slice(None)) + idx] = acc
    return out


CASES = [
    Case("MaxPool", lambda x: ops.MaxPool3DWithArgmax((2, 2, 2), (2, 1, 2), 1)(x), (DISTINCT(1, 2, 4, 5, 4),),
         lambda x: _pool3d_ref(x, (2, 2, 2), (2, 1, 2), (1, 1, 1)), label="MaxPool3DWithArgmax"),
    Case("GatherD", lambda x, g: ops.GridSampler3D("bilinear", "zeros", False)(x, g),
         (F64(1, 2, 3, 4, 3), F64(1, 2, 2, 3, 3, lo=-1.1, hi=1.1)), lambda x, g: _trilinear_ref(x, g, False),
         label="GridSampler3D"),
    Case("GatherD", lambda x, g: ops.GridSampler3D("bilinear", "zeros", True)(x, g),
         (F64(2, 1, 3, 3, 4), F64(2, 1, 3, 2, 3, lo=-1.1, hi=1.1)), lambda x, g: _trilinear_ref(x, g, True),
         label="GridSampler3D-align"),
    Case("Conv2D", lambda x, w: ops.DepthwiseConv2dNative(1, 3)(x, w), (F64(2, 3, 5, 6), F64(1, 3, 3, 3)),
         lambda x, w: _depthwise_ref(x, w, 1, "valid"), label="DepthwiseConv2dNative"),
    Case("Conv2D", lambda x, w: ops.DepthwiseConv2dNative(1, (2, 3), pad_mode="same", stride=2)(x, w),
         (F64(1, 2, 5, 6), F64(1, 2, 2, 3)), lambda x, w: _depthwise_ref(x, w, 2, "same"),
         label="DepthwiseConv2dNative-same"),
    Case("Conv2D", lambda x, w: ops.DepthwiseConv2dNative(1, 2, pad_mode="pad", pad=(1, 0, 2, 1), dilation=2)(x, w),
         (F64(1, 2, 5, 6), F64(1, 2, 2, 2)), lambda x, w: _depthwise_ref(x, w, 1, "pad", (1, 0, 2, 1), 2),
         label="DepthwiseConv2dNative-pad"),
    Case("GetItem", lambda x: ops.ExtractImagePatches((1, 1, 2, 3), (1, 1, 2, 1), (1, 1, 1, 2), "valid")(x),
         (F64(2, 3, 6, 7),), lambda x: _patches_ref(x, (2, 3), (2, 1), (1, 2), "valid"),
         label="ExtractImagePatches"),
    Case("GetItem", lambda x: ops.ExtractImagePatches([1, 1, 3, 2], [1, 1, 2, 2], [1, 1, 1, 1], "SAME")(x),
         (F64(1, 2, 5, 6),), lambda x: _patches_ref(x, (3, 2), (2, 2), (1, 1), "same"),
         label="ExtractImagePatches-same"),
    Case("ReduceMax", lambda x, f: ops.Dilation2D((1, 1, 2, 1), 1, "valid")(x, f), (DISTINCT(1, 2, 6, 5), F64(2, 2, 3)),
         lambda x, f: _dilation_ref(x, f, (2, 1), (1, 1), "valid"), label="Dilation2D"),
    Case("ReduceMax", lambda x, f: ops.Dilation2D(1, (2, 1), "same")(x, f), (DISTINCT(2, 1, 5, 5), F64(1, 2, 2)),
         lambda x, f: _dilation_ref(x, f, (1, 1), (2, 1), "same"), label="Dilation2D-same"),
]


def _bilinear(img, y, x):
    h, w = img.shape
    y0, x0 = int(np.floor(y)), int(np.floor(x))
    total = 0.0
    for yy, xx in ((y0, x0), (y0, x0 + 1), (y0 + 1, x0), (y0 + 1, x0 + 1)):
        if 0 <= yy < h and 0 <= xx < w:
            total += (1 - abs(y - yy)) * (1 - abs(x - xx)) * img[yy, xx]
    return total


def _deform_ref(x, wt, off, k, s, p, d, groups, dg):
    n, c, h, w = x.shape
    oh, ow = off.shape[2:]
    taps = k[0] * k[1]
    cols = np.zeros((n, c, taps, oh, ow))
    for b, ch, t, y, z in itertools.product(range(n), range(c), range(taps), range(oh), range(ow)):
        g, (i, j) = ch // (c // dg), divmod(t, k[1])
        dx, dy, m = (off[b, part * dg * taps + g * taps + t, y, z] for part in range(3))
        cols[b, ch, t, y, z] = m * _bilinear(x[b, ch], y * s[0] - p[0] + i * d[0] + dy, z * s[1] - p[2] + j * d[1] + dx)
    cout = wt.shape[0]
    out = np.zeros((n, cout, oh, ow))
    cin_g, cout_g = c // groups, cout // groups
    for o in range(cout):
        g = o // cout_g
        patch = cols[:, g * cin_g:(g + 1) * cin_g].reshape(n, -1, oh, ow)
        out[:, o] = np.einsum("nkyz,k->nyz", patch, wt[o].reshape(-1))
    return out


CASES += [
    Case("GatherD", lambda x, wt, off: ops.deformable_conv2d(x, wt, off, (2, 2), (1, 1, 1, 2), (1, 0, 0, 1),
                                                            dilations=(1, 1, 1, 2), groups=2, deformable_groups=2),
         (F64(1, 4, 4, 5), F64(2, 2, 2, 2), F64(1, 24, 4, 2, lo=-1.3, hi=1.3)),
         lambda x, wt, off: _deform_ref(x, wt, off, (2, 2), (1, 2), (1, 0, 0, 1), (1, 2), 2, 2),
         label="deformable_conv2d"),
]


# ---- fractional pooling (TensorFlow-style, NHWC) -----------------------------------------------------------------
def _frac_ref(x, rows, cols, overlapping, kind):
    n, h, w, c = x.shape
    out = np.zeros((n, len(rows) - 1, len(cols) - 1, c), x.dtype)
    for i, j in itertools.product(range(len(rows) - 1), range(len(cols) - 1)):
        r1, c1 = rows[i + 1] + overlapping, cols[j + 1] + overlapping
        win = x[:, rows[i]:min(r1, h), cols[j]:min(c1, w)]
        out[:, i, j] = win.max((1, 2)) if kind == "max" else win.mean((1, 2))
    return out


def _frac_pool(kind, overlapping):
    from sprout import Tensor
    from sprout.ops.pool_fractional_tf import fractional_pool_nhwc

    rows, cols = np.array([0, 2, 3, 5, 7]), np.array([0, 1, 3, 4, 6, 8, 9])
    return Case("Gather",
                lambda x: fractional_pool_nhwc(x, Tensor(rows), Tensor(cols), overlapping, kind),
                (DISTINCT(2, 7, 9, 2),), lambda x: _frac_ref(x, rows, cols, overlapping, kind),
                label=f"fractional-{kind}{'-overlapping' if overlapping else ''}")


def _check_sequence(length, out):
    def check(seq, _inputs):
        s = seq.asnumpy()
        steps = np.diff(s)
        assert s.dtype == np.int64 and s.shape == (out + 1,) and s[0] == 0 and s[-1] == length, s
        assert set(steps.tolist()) <= {length // out, -(-length // out)}, s
    return check


def _check_fractional(kind, overlapping):
    def check(res, inputs):
        y, rows, cols = (t.asnumpy() for t in res)
        np.testing.assert_allclose(y, _frac_ref(inputs[0], rows, cols, overlapping, kind), rtol=1e-6)
        _check_sequence(inputs[0].shape[1], inputs[0].shape[1] * 2 // 3)(res[1], inputs)
    return check


def _draw_sequence(pseudo):
    """(pseudo-random sequences take few distinct values: tests/ops/test_fractional_pool.py checks them)"""
    from sprout.ops.nn_functional import _draw_seed
    from sprout.ops.pool_fractional_tf import pooling_sequence

    return lambda: pooling_sequence(_draw_seed(), 60, 25, pseudo)


CASES += [
    _frac_pool("max", False), _frac_pool("max", True), _frac_pool("avg", False), _frac_pool("avg", True),
    Case("FractionalPoolSequence", _draw_sequence(False), (), check=_check_sequence(60, 25),
         why="random pooling sequence: its defining properties (ends, steps of floor or ceil of the ratio)"),
    Case("FractionalPoolSequence", lambda x: ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0], overlapping=True)(x),
         (F64(2, 30, 30, 2),), check=_check_fractional("max", True),
         why="random windows: the pooled values are those of the sequences the op returns", grad=(),
         label="FractionalMaxPool"),
    Case("FractionalPoolSequence", lambda x: ops.FractionalAvgPool([1.0, 1.5, 1.5, 1.0])(x),
         (F64(2, 30, 30, 2),), check=_check_fractional("avg", False),
         why="random windows: the pooled values are those of the sequences the op returns", grad=(),
         label="FractionalAvgPool"),
]
