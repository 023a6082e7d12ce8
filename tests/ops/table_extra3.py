"""Op-table cases for ops/classes_extra3.py (DeformableOffsets, FractionalMaxPoolWithFixedKsize / 3D,
ExtractVolumePatches) against NumPy loops, gradients against finite differences, in every mode; tests/ops/oracle/
cases_extra3.py checks them against MindSpore 2.10."""
import itertools
import math

import numpy as np

import sprout as ms
from sprout import ops
from optable import DISTINCT, F64, Case
from table_image2 import _bilinear


def _offsets_ref(x, off, k, s, p, d, dg):
    n, c, h, w = x.shape
    oh, ow = off.shape[2:]
    taps = k[0] * k[1]
    out = np.zeros((n, c, oh * k[0], ow * k[1]))
    for b, ch, t, y, z in itertools.product(range(n), range(c), range(taps), range(oh), range(ow)):
        g, (i, j) = ch // (c // dg), divmod(t, k[1])
        dx, dy, m = (off[b, part * dg * taps + g * taps + t, y, z] for part in range(3))
        out[b, ch, y * k[0] + i, z * k[1] + j] = m * _bilinear(x[b, ch], y * s[0] - p[0] + i * d[0] + dy,
                                                                z * s[1] - p[2] + j * d[1] + dx)
    return out


def _frac_fixed_ref(x, u, k, outs):
    """PyTorch's fractional max pooling: window starts floor((i + u) a) - floor(u a), a = (in - k) / (out - 1), the
    last at in - k; the first sample steps the last axis; argmax = flat index of the first maximum."""
    n, c = x.shape[:2]
    sp = x.shape[2:]
    nd = len(sp)
    y = np.zeros((n, c) + tuple(outs))
    arg = np.zeros((n, c) + tuple(outs), np.int64)
    for b, ch in itertools.product(range(n), range(c)):
        starts = []
        for a in range(nd):
            ua, size, ka, oa = u[b, ch, nd - 1 - a], sp[a], k[a], outs[a]
            alpha = (size - ka) / (oa - 1) if oa > 1 else 0
            st = [math.floor((i + ua) * alpha) - math.floor(ua * alpha) for i in range(oa - 1)] + [size - ka]
            starts.append(st)
        for idx in itertools.product(*[range(o) for o in outs]):
            sl = tuple(slice(starts[a][idx[a]], starts[a][idx[a]] + k[a]) for a in range(nd))
            win = x[(b, ch) + sl]
            pos = np.unravel_index(np.argmax(win), win.shape)
            full = tuple(starts[a][idx[a]] + pos[a] for a in range(nd))
            y[(b, ch) + idx] = win[pos]
            arg[(b, ch) + idx] = np.ravel_multi_index(full, sp)
    return y, arg


def _volume_ref(x, k, s):
    n, c, dd, h, w = x.shape
    outs = [(size - kk) // ss + 1 for size, kk, ss in zip((dd, h, w), k, s)]
    res = np.zeros((n, k[0] * k[1] * k[2] * c) + tuple(outs))
    for (i, j, m), o in itertools.product(itertools.product(*map(range, k)), itertools.product(*map(range, outs))):
        tap = (i * k[1] + j) * k[2] + m
        res[(slice(None), slice(tap * c, (tap + 1) * c)) + o] = x[:, :, o[0] * s[0] + i, o[1] * s[1] + j,
                                                                   o[2] * s[2] + m]
    return res


SAMPLES = np.array([[[0.3, 0.8], [0.65, 0.1]]])
SAMPLES3 = np.array([[[0.3, 0.8, 0.5]]])

CASES = [
    Case("GatherD", lambda x, off: ops.DeformableOffsets((1, 1, 2, 1), (1, 0, 1, 1), (2, 2), (1, 1, 1, 2), "NCHW",
                                                         2)(x, off),
         (F64(1, 4, 5, 5), F64(1, 24, 3, 5, lo=-1.3, hi=1.3)),
         lambda x, off: _offsets_ref(x, off, (2, 2), (2, 1), (1, 0, 1, 1), (1, 2), 2), label="DeformableOffsets"),
    Case("GatherD", lambda x: ops.FractionalMaxPoolWithFixedKsize((2, 3), (3, 2))(x, ms.Tensor(SAMPLES)),
         (DISTINCT(1, 2, 7, 6),), lambda x: _frac_fixed_ref(x, SAMPLES, (2, 3), (3, 2)),
         label="FractionalMaxPoolWithFixedKsize"),
    Case("GatherD", lambda x: ops.FractionalMaxPool3DWithFixedKsize(2, (3, 2, 3))(x, ms.Tensor(SAMPLES3)),
         (DISTINCT(1, 1, 5, 4, 6),), lambda x: _frac_fixed_ref(x, SAMPLES3, (2, 2, 2), (3, 2, 3)),
         label="FractionalMaxPool3DWithFixedKsize"),
    Case("GetItem", lambda x: ops.ExtractVolumePatches((2, 1, 2), (1, 2, 1), "VALID")(x), (F64(1, 2, 3, 5, 4),),
         lambda x: _volume_ref(x, (2, 1, 2), (1, 2, 1)), label="ExtractVolumePatches"),
]
