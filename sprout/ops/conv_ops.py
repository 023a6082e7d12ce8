"""2-D convolution (NCHW) by im2col + one batched BLAS matmul, and its two backprop primitives."""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..core.op import Op, OpError, register
from ..core.types import TensorType
from ._gemm import gemm
from ._parallel import halves, worth
from ._scratch import copy_into, scratch
from ._infer import fmt_shape, shapes_compatible

# Attributes every conv primitive carries (normalised by the functional layer):
#   stride=(sh, sw), dilation=(dh, dw), pad_mode in {"valid", "same", "pad"},
#   pad=(top, bottom, left, right) (used when pad_mode == "pad"), groups=int.
PAD_MODES = ("valid", "same", "pad")


def out_size(size, k: int, s: int, d: int, pad_mode: str, lo: int, hi: int, ceil_mode: bool = False):
    """(output length, pad before, pad after, ceil-mode overhang) of one spatial axis; None when unknown."""
    eff = d * (k - 1) + 1
    if size is None:
        return None, lo, hi, 0
    if pad_mode == "same":
        out = -(-size // s)
        total = max((out - 1) * s + eff - size, 0)
        return out, total // 2, total - total // 2, 0
    if pad_mode == "valid":
        lo = hi = 0
    span = size + lo + hi - eff
    if span < 0:
        return 0, lo, hi, 0
    if ceil_mode:
        out = -(-span // s) + 1
        if (out - 1) * s >= size + lo:  # the last window must start inside the input or its left padding
            out -= 1
    else:
        out = span // s + 1
    return out, lo, hi, max((out - 1) * s + eff - (size + lo + hi), 0)


def geometry(h, w, kh, kw, stride, dilation, pad_mode, pad, ceil_mode=False):
    """Output size and padding of both axes: ((Ho, top, bottom, extra_h), (Wo, left, right, extra_w))."""
    return (out_size(h, kh, stride[0], dilation[0], pad_mode, pad[0], pad[1], ceil_mode),
            out_size(w, kw, stride[1], dilation[1], pad_mode, pad[2], pad[3], ceil_mode))


def pad_input(x: np.ndarray, gh, gw, value=0) -> np.ndarray:
    top, bottom = gh[1], gh[2] + gh[3]
    left, right = gw[1], gw[2] + gw[3]
    if not (top or bottom or left or right):
        return x
    return np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=value)


def windows(xp: np.ndarray, kh: int, kw: int, stride, dilation, ho: int, wo: int) -> np.ndarray:
    """Read-only view (N, C, kh, kw, Ho, Wo) of every receptive field of the padded input."""
    n, c = xp.shape[:2]
    s0, s1, s2, s3 = xp.strides
    return as_strided(xp, (n, c, kh, kw, ho, wo),
                      (s0, s1, s2 * dilation[0], s3 * dilation[1], s2 * stride[0], s3 * stride[1]), writeable=False)


def scatter_windows(cols: np.ndarray, padded_shape, stride, dilation, ho: int, wo: int) -> np.ndarray:
    """col2im: add every (N, C, kh, kw, Ho, Wo) window value back to its place in the padded input."""
    out = np.zeros(padded_shape, cols.dtype)
    kh, kw = cols.shape[2:4]
    sh, sw = stride
    for i in range(kh):
        r0 = i * dilation[0]
        for j in range(kw):
            c0 = j * dilation[1]
            out[:, :, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw] += cols[:, :, i, j]
    return out


def crop(xp: np.ndarray, gh, gw, h: int, w: int) -> np.ndarray:
    return xp[:, :, gh[1]:gh[1] + h, gw[1]:gw[1] + w]


# ---- shape rule ---------------------------------------------------------------------------------
def _check_attrs(op, stride, dilation, pad_mode, pad, groups):
    if pad_mode not in PAD_MODES:
        raise OpError(f"{op}: pad_mode must be one of {PAD_MODES}, got {pad_mode!r}")
    if any(not isinstance(v, int) or v < 1 for v in (*stride, *dilation)):
        raise OpError(f"{op}: stride {stride} and dilation {dilation} must be positive ints")
    if any(p < 0 for p in pad):
        raise OpError(f"{op}: padding {pad} must be non-negative")
    if not isinstance(groups, int) or groups < 1:
        raise OpError(f"{op}: groups must be a positive int, got {groups!r}")


def conv_out_type(op, x, w, stride, dilation, pad_mode, pad, groups) -> TensorType:
    _check_attrs(op, stride, dilation, pad_mode, pad, groups)
    if x.ndim != 4 or w.ndim != 4:
        raise OpError(f"{op}: expects a 4-D NCHW input and a 4-D weight, got {fmt_shape(x.shape)} and "
                      f"{fmt_shape(w.shape)}")
    if x.dtype is not w.dtype:
        raise OpError(f"{op}: input dtype {x.dtype} and weight dtype {w.dtype} differ")
    if not x.dtype.is_float:
        raise OpError(f"{op}: expects float tensors, got {x.dtype}")
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    if c is not None and cg is not None and c != cg * groups:
        raise OpError(f"{op}: input {fmt_shape(x.shape)} has {c} channels but weight {fmt_shape(w.shape)} expects "
                      f"{cg} x groups({groups}) = {cg * groups}")
    if o is not None and o % groups:
        raise OpError(f"{op}: out channels {o} of weight {fmt_shape(w.shape)} are not divisible by groups {groups}")
    gh, gw = geometry(h, wd, kh, kw, stride, dilation, pad_mode, pad)
    if (gh[0] is not None and gh[0] <= 0) or (gw[0] is not None and gw[0] <= 0):
        raise OpError(f"{op}: kernel {kh}x{kw} (dilation {dilation}) is larger than the padded input "
                      f"{fmt_shape(x.shape)}")
    return TensorType((n, o, gh[0], gw[0]), x.dtype)


def _conv_infer(x, w, stride=(1, 1), dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), groups=1):
    return conv_out_type("Conv2D", x, w, stride, dilation, pad_mode, pad, groups)


# ---- kernels ------------------------------------------------------------------------------------
def _flat(view: np.ndarray, shape: tuple, out: np.ndarray | None = None) -> np.ndarray:
    """``view.reshape(shape)``: a view when the layout allows, else a copy into the "cols" scratch array (the
    caller consumes it before the next scratch use of that name and never returns it); always a copy into
    ``out`` when given."""
    if out is not None:
        np.copyto(out.reshape(view.shape), view)
        return out
    try:
        return np.reshape(view, shape, copy=False)
    except ValueError:
        return copy_into("cols", view).reshape(shape)


def _gemm_tmp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``gemm(a, b)`` of 2-D operands into the "gemm" scratch array (same rule as ``_flat``)."""
    if a.dtype != b.dtype or a.dtype == np.float16 or a.ndim != 2 or b.ndim != 2:
        return gemm(a, b)
    return np.matmul(a, b, out=scratch("gemm", (a.shape[0], b.shape[1]), a.dtype))


def _cols(x, kh, kw, stride, dilation, pad_mode, pad, groups, out=None):
    """im2col: (N, G, Cg*kh*kw, Ho*Wo) patches (one copy, into scratch or ``out``: see ``_flat``) and the
    geometry."""
    n, c, h, w = x.shape
    gh, gw = geometry(h, w, kh, kw, stride, dilation, pad_mode, pad)
    if gh[0] <= 0 or gw[0] <= 0:  # the eager path has no infer call: fail here (dispatch asks infer why)
        raise ValueError("empty convolution output")
    view = windows(pad_input(x, gh, gw), kh, kw, stride, dilation, gh[0], gw[0])
    return _flat(view, (n, groups, (c // groups) * kh * kw, gh[0] * gw[0]), out), gh, gw


def _from_nchw(d):
    """(N, O, Ho, Wo) -> (O, N*Ho*Wo) (a copy unless N == 1)."""
    n, o = d.shape[:2]
    return d.transpose(1, 0, 2, 3).reshape(o, -1)


def _cols_cm(x, kh: int, kw: int, stride, dilation, pads, ho: int, wo: int, out=None) -> np.ndarray:
    """Channel-major im2col: (C*kh*kw, N*Ho*Wo) patches of ``x`` zero-padded by ``pads`` = (top, bottom, left,
    right): one transposing copy into the padded buffer, one copy of the windows. With the rows (c, i, j) and
    the columns (n, y, x), a groups=1 convolution is ONE GEMM, and its filter gradient another."""
    n, c = x.shape[:2]
    return _flat(_windows_cm(x, kh, kw, stride, dilation, pads, ho, wo), (c * kh * kw, n * ho * wo), out)


def _windows_cm(x, kh: int, kw: int, stride, dilation, pads, ho: int, wo: int) -> np.ndarray:
    """The read-only (C, kh, kw, N, Ho, Wo) view ``_cols_cm`` copies (the padded input is this thread's scratch)."""
    n, c, h, w = x.shape
    top, bottom, left, right = pads
    if top or bottom or left or right:
        xp = scratch("pad", (c, n, h + top + bottom, w + left + right), x.dtype)
        _zero_border(xp, top, bottom, left, right)
        xp[:, :, top:top + h, left:left + w] = x.transpose(1, 0, 2, 3)
    else:  # no padding: the windows are read straight from x (a 1x1 stride-2 conv reads a quarter of it)
        xp = x.transpose(1, 0, 2, 3)
    s0, s1, s2, s3 = xp.strides
    return as_strided(xp, (c, kh, kw, n, ho, wo), (s0, s2 * dilation[0], s3 * dilation[1], s1, s2 * stride[0],
                                                   s3 * stride[1]), writeable=False)


# multiply-adds from which a conv kernel splits its batch over the two streams (when they are set: ops/_parallel)
_SPLIT_MACS = 1 << 21


def _gemm_into(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """``out[...] = gemm(a, b)`` (straight into ``out`` unless float16 goes through float32)."""
    if a.dtype == b.dtype == out.dtype and a.dtype != np.float16:
        np.matmul(a, b, out=out)
    else:
        out[...] = gemm(a, b)


def _conv_cm_split(x, w, stride, dilation, pads, ho: int, wo: int, cols) -> np.ndarray:
    """The channel-major convolution as two halves of the batch, one per stream: each half's im2col copy (into
    its column range of ``cols`` when given, else its thread's scratch), GEMM and transposed output. Bitwise the
    one-call result: each output is the same dot product over C*kh*kw."""
    n, c = x.shape[:2]
    o, _, kh, kw = w.shape
    w2, spatial = w.reshape(o, -1), ho * wo
    y = np.empty((n, o, ho, wo), x.dtype)

    def part(lo: int, hi: int) -> None:
        win = _windows_cm(x[lo:hi], kh, kw, stride, dilation, pads, ho, wo)
        if cols is None:
            ch = _flat(win, (c * kh * kw, (hi - lo) * spatial))
        else:
            np.copyto(cols.reshape(c, kh, kw, n, ho, wo)[:, :, :, lo:hi], win)
            ch = cols[:, lo * spatial:hi * spatial]
        y[lo:hi] = _gemm_tmp(w2, ch).reshape(o, hi - lo, ho, wo).transpose(1, 0, 2, 3)

    halves(part, n, True)
    return y


def _zero_border(a: np.ndarray, top: int, bottom: int, left: int, right: int) -> None:
    """Zero the outer ``top``/``bottom`` rows and ``left``/``right`` columns of the last two axes of ``a``."""
    h, w = a.shape[-2:]
    a[..., :top, :] = 0
    a[..., h - bottom:, :] = 0
    a[..., :, :left] = 0
    a[..., :, w - right:] = 0


def _pads(gh, gw) -> tuple:
    return gh[1], gh[2] + gh[3], gw[1], gw[2] + gw[3]


def _conv_cm(x, w, stride, dilation, pads, ho: int, wo: int, cols=None) -> np.ndarray:
    """groups=1 convolution (N, C, H, W) -> (N, O, Ho, Wo): (O, C*kh*kw) @ channel-major columns (``cols`` when
    given, else made here), then the (O, N, ...) result transposed back (measured on ResNet-style shapes: 5-30%
    faster than per-sample GEMMs over (N, K, L) columns, whose M = O rows keep BLAS far from peak)."""
    o, _, kh, kw = w.shape
    if cols is None:
        cols = _cols_cm(x, kh, kw, stride, dilation, pads, ho, wo)
    y = _gemm_tmp(w.reshape(o, -1), cols)
    return y.reshape(o, x.shape[0], ho, wo).transpose(1, 0, 2, 3).copy()  # a fresh array: y is scratch


# channel-major columns pay for themselves from this many rows (C*kh*kw) on (measured on M1's shapes: a 3-channel
# stem (27 rows) and 1x1 convs over 16-32 channels are faster with per-sample GEMMs)
_CM_MIN_ROWS = 64


def _conv_impl(x, w, stride=(1, 1), dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), groups=1):
    return _conv_with_cols(x, w, stride, dilation, pad_mode, pad, groups, None)[0]


def _channel_major(cg: int, kh: int, kw: int, groups: int) -> bool:
    """Whether the conv and its filter gradient use channel-major (C*kh*kw, N*Ho*Wo) columns (else per-sample
    (N, G, Cg*kh*kw, Ho*Wo) ones)."""
    return groups == 1 and cg * kh * kw >= _CM_MIN_ROWS


def _conv_with_cols(x, w, stride, dilation, pad_mode, pad, groups, keep):
    """The convolution and its im2col columns: copied into ``keep`` (a ``Kept``) when given, to be handed to
    ``filter_grad_from_cols``; else scratch (valid until the next conv kernel)."""
    o, cg, kh, kw = w.shape
    n, c, h, wd = x.shape
    if _channel_major(cg, kh, kw, groups):
        gh, gw = geometry(h, wd, kh, kw, stride, dilation, pad_mode, pad)
        if gh[0] <= 0 or gw[0] <= 0:  # the eager path has no infer call: fail here (dispatch asks infer why)
            raise ValueError("empty convolution output")
        out = None if keep is None else keep.take((c * kh * kw, n * gh[0] * gw[0]), x.dtype)
        if n >= 2 and worth(o * c * kh * kw * n * gh[0] * gw[0], _SPLIT_MACS):
            return _conv_cm_split(x, w, stride, dilation, _pads(gh, gw), gh[0], gw[0], out), out
        cols = _cols_cm(x, kh, kw, stride, dilation, _pads(gh, gw), gh[0], gw[0], out)
        return _conv_cm(x, w, stride, dilation, _pads(gh, gw), gh[0], gw[0], cols), cols
    # per-sample batched GEMMs over (N, G, K, L) columns
    out = None
    if keep is not None:
        gh, gw = geometry(h, wd, kh, kw, stride, dilation, pad_mode, pad)
        if gh[0] <= 0 or gw[0] <= 0:
            raise ValueError("empty convolution output")
        out = keep.take((n, groups, cg * kh * kw, gh[0] * gw[0]), x.dtype)
    w3 = w.reshape(groups, o // groups, -1)
    gh, gw = geometry(h, wd, kh, kw, stride, dilation, pad_mode, pad)
    if n >= 2 and gh[0] > 0 and gw[0] > 0 and worth(o * cg * kh * kw * n * gh[0] * gw[0], _SPLIT_MACS):
        # two halves of the batch, one per stream (per-sample GEMMs: bitwise the one-call result)
        y = np.empty((n, groups, o // groups, gh[0] * gw[0]), x.dtype)

        def part(lo: int, hi: int) -> None:
            _gemm_into(w3, _cols(x[lo:hi], kh, kw, stride, dilation, pad_mode, pad, groups,
                                 None if out is None else out[lo:hi])[0], y[lo:hi])

        halves(part, n, True)
        return y.reshape(n, o, gh[0], gw[0]), out
    cols, gh, gw = _cols(x, kh, kw, stride, dilation, pad_mode, pad, groups, out)
    y = gemm(w3, cols)  # (N, G, O/G, Ho*Wo): one batched BLAS call
    return y.reshape(n, o, gh[0], gw[0]), cols


def conv_keep(x, w, keep, stride=(1, 1), dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), groups=1):
    """Conv2D that also returns its im2col columns in ``keep``'s buffer, for ``filter_grad_from_cols`` of the same
    input (generated code pairs a forward with its filter gradient this way: one im2col copy instead of two)."""
    return _conv_with_cols(x, w, stride, dilation, pad_mode, pad, groups, keep)


def keep_nbytes(x_shape, w_shape, itemsize: int, stride=(1, 1), dilation=(1, 1), pad_mode="valid",
                pad=(0, 0, 0, 0), groups=1) -> int | None:
    """Bytes of the columns ``conv_keep`` keeps for these static shapes (None when the output would be empty)."""
    n, c, h, wd = x_shape
    o, cg, kh, kw = w_shape
    gh, gw = geometry(h, wd, kh, kw, stride, dilation, pad_mode, pad)
    if gh[0] <= 0 or gw[0] <= 0:
        return None
    return n * c * kh * kw * gh[0] * gw[0] * itemsize


def _input_grad(dout, w, x_shape, stride, dilation, pad_mode, pad, groups):
    n, c, h, wd = x_shape
    o, cg, kh, kw = w.shape
    gh, gw = geometry(h, wd, kh, kw, stride, dilation, pad_mode, pad)
    ho, wo = gh[0], gw[0]
    padded = (n, c, h + gh[1] + gh[2] + gh[3], wd + gw[1] + gw[2] + gw[3])
    hp, wp = padded[2], padded[3]
    top, bottom, left, right = _pads(gh, gw)
    if groups == 1 and tuple(stride) == (1, 1) and tuple(dilation) == (1, 1) and c >= o and \
            o * kh * kw >= _CM_MIN_ROWS and min(kh - 1 - top, kh - 1 - bottom, kw - 1 - left, kw - 1 - right) >= 0:
        # stride 1: dx is the "full" correlation of dout with the filter flipped in space and transposed in
        # channels, cropped to the input: a forward convolution of dout padded by k-1-pad (no col2im adds)
        wf = np.ascontiguousarray(w.transpose(1, 0, 2, 3)[:, :, ::-1, ::-1])
        return _conv_cm(dout, wf, (1, 1), (1, 1), (kh - 1 - top, kh - 1 - bottom, kw - 1 - left, kw - 1 - right),
                        h, wd)
    if groups == 1 and conv_loops.usable(n * c * kh * kw * ho * wo, dout.dtype, stride, dilation):
        # the exact GEMM, then one numba pass adding every column value at its input position
        exact = padded == (n, c, h, wd)
        acc = np.empty(padded, dout.dtype) if exact else scratch("acc", padded, dout.dtype)
        wt = w.reshape(o, -1).T

        def part(lo: int, hi: int) -> None:  # a range of the batch (each image's sums are its own)
            dcols = _gemm_tmp(wt, _from_nchw(dout[lo:hi])).reshape(c, kh, kw, hi - lo, ho, wo)
            conv_loops.col2im(dcols, acc[lo:hi])

        if n >= 2 and worth(o * c * kh * kw * n * ho * wo, _SPLIT_MACS):
            halves(part, n, True)  # one half per stream: bitwise the one-call result
        else:
            part(0, n)
        return acc if exact else np.ascontiguousarray(crop(acc, gh, gw, h, wd))
    if groups == 1 and tuple(stride) == (1, 1) and tuple(dilation) == (1, 1) and (ho, wo) == (hp - kh + 1,
                                                                                          wp - kw + 1):
        # "planar" col2im: dout is placed in zero planes of the padded size (Hp, Wp), so each of the kh*kw shifted
        # adds is ONE contiguous run of N*Hp*Wp per channel: a value at (y, x) lands at (y + i, x + j), inside its
        # own plane for y < Ho, x < Wo, and the zero rows and columns add nothing where they spill. The GEMM is
        # Hp/Ho wider than over Ho rows; LeNet's conv2 (6 -> 16 channels, 14x14): 925 -> 650 us against runs of
        # Ho*Wp per (channel, image)
        plane = hp * wp
        dw = scratch("pad", (o, n, hp, wp), dout.dtype)
        dw[:, :, ho:, :] = 0
        dw[:, :, :ho, wo:] = 0
        dw[:, :, :ho, :wo] = dout.transpose(1, 0, 2, 3)
        dcols = _gemm_tmp(w.reshape(o, -1).T, dw.reshape(o, -1)).reshape(c, kh, kw, n * plane)
        acc = scratch("acc", (c, n * plane + (kh - 1) * wp + kw - 1), dout.dtype)  # the tail takes the spill
        acc.fill(0)
        for i in range(kh):
            for j in range(kw):
                start = i * wp + j
                acc[:, start:start + n * plane] += dcols[:, i, j]
        acc = acc[:, :n * plane].reshape(c, n, hp, wp)[:, :, gh[1]:gh[1] + h, gw[1]:gw[1] + wd]
        return acc.transpose(1, 0, 2, 3).copy()  # a fresh array: acc is scratch
    if groups == 1:
        dcols = _gemm_tmp(w.reshape(o, -1).T, _from_nchw(dout)).reshape(c, kh, kw, n, ho, wo)
        acc = scratch("acc", (c, n) + padded[2:], dout.dtype)  # col2im in (C, N, H, W): kh*kw shifted adds
        acc.fill(0)
        sh, sw = stride
        for i in range(kh):
            r0 = i * dilation[0]
            for j in range(kw):
                c0 = j * dilation[1]
                acc[:, :, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw] += dcols[:, i, j]
        acc = acc[:, :, gh[1]:gh[1] + h, gw[1]:gw[1] + wd]
        return acc.transpose(1, 0, 2, 3).copy()  # a fresh array: acc is scratch
    wt = np.swapaxes(w.reshape(groups, o // groups, cg * kh * kw), 1, 2)  # (G, K, O/G)
    dcols = gemm(wt, dout.reshape(n, groups, o // groups, ho * wo))  # (N, G, K, L)
    dcols = dcols.reshape(n, c, kh, kw, ho, wo)
    return np.ascontiguousarray(crop(scatter_windows(dcols, padded, stride, dilation, ho, wo), gh, gw, h, wd))


def _filter_grad(dout, x, w_shape, stride, dilation, pad_mode, pad, groups):
    o, cg, kh, kw = w_shape
    if _channel_major(cg, kh, kw, groups):
        gh, gw = geometry(x.shape[2], x.shape[3], kh, kw, stride, dilation, pad_mode, pad)
        cols = _cols_cm(x, kh, kw, stride, dilation, _pads(gh, gw), gh[0], gw[0])
    else:
        cols, _, _ = _cols(x, kh, kw, stride, dilation, pad_mode, pad, groups)  # (N, G, K, L)
    return _filter_from(dout, cols, w_shape, groups).astype(x.dtype, copy=False)


def _filter_from(dout, cols, w_shape, groups):
    """dW from the conv's im2col columns: channel-major (K, N*L) ones (2-D) or per-sample (N, G, K, L) ones."""
    o, n = w_shape[0], dout.shape[0]
    parallel = n >= 2 and worth(o * cols.size, _SPLIT_MACS)
    if cols.ndim == 2:  # GEMMs over channel-major columns: (K, N*L) @ (N*L, O)
        spatial = cols.shape[1] // n

        def part(lo: int, hi: int) -> np.ndarray:
            d = dout[lo:hi].transpose(1, 0, 2, 3).reshape(o, -1)
            # cols @ d.T, then transposed: OpenBLAS (one thread) is 1.2-1.7x faster in this orientation than
            # d @ cols.T for these skinny products (LeNet's conv2: 409 -> 250 us; a 16-channel 3x3 conv on 32x32,
            # b16: 2.7 -> 1.6 ms)
            return gemm(cols[:, lo * spatial:hi * spatial], d.T)

        if n < 2:
            return np.ascontiguousarray(part(0, n).T).reshape(w_shape)
        # always the sum of the two halves of the batch (one per stream when they are set): the same float sums
        # whether or not the halves ran at once
        a, b = halves(part, n, parallel)
        return np.ascontiguousarray(np.add(a, b, out=a).T).reshape(w_shape)
    # sum over the batch of per-sample GEMMs d[n] @ cols[n]^T on the forward's im2col layout; measured
    # faster than one long-K GEMM over a channel-major copy (BLAS is slow on its skinny output here)
    d = dout.reshape(n, groups, o // groups, -1)  # (N, G, O/G, L)
    ct = np.swapaxes(cols, -1, -2)
    if parallel:  # the per-sample products in two halves, one per stream; the one sum over the batch after
        per_sample = np.empty((n, groups, o // groups, cols.shape[2]), np.result_type(d, ct))
        halves(lambda lo, hi: _gemm_into(d[lo:hi], ct[lo:hi], per_sample[lo:hi]), n, True)
    else:
        per_sample = gemm(d, ct)  # (N, G, O/G, K)
    return np.add.reduce(per_sample, axis=0).reshape(w_shape)


def filter_grad_from_cols(dout, cols, keep, filter_shape, stride=(1, 1), dilation=(1, 1), pad_mode="valid",
                          pad=(0, 0, 0, 0), groups=1):
    """Conv2DBackpropFilter from the columns ``conv_keep`` kept for the same input; ends ``keep``'s loan."""
    try:
        return _filter_from(dout, cols, tuple(filter_shape), groups).astype(cols.dtype, copy=False)
    finally:
        keep.give_back(cols)


def _conv_bprop(x, w, out, dout, **attrs):
    return (F.conv2d_backprop_input(dout, w, x.shape, **attrs), F.conv2d_backprop_filter(dout, x, w.shape, **attrs))


CONV2D = register(Op("Conv2D", _conv_impl, _conv_infer, _conv_bprop, "opaque", fresh_output=True))


# ---- backprop primitives (linear in each input: their bprops are convs again) -------------------
def _bpi_infer(dout, w, input_shape, **attrs):
    x = TensorType(tuple(input_shape), dout.dtype)
    expected = conv_out_type("Conv2DBackpropInput", x, w, **attrs)
    if not shapes_compatible(dout.shape, expected.shape):
        raise OpError(f"Conv2DBackpropInput: dout {fmt_shape(dout.shape)} does not match the conv output "
                      f"{fmt_shape(expected.shape)} for input {fmt_shape(input_shape)}")
    return x


def _bpi_impl(dout, w, input_shape, **attrs):
    if input_shape[0] is None:  # a symbolic batch (jit dynamic shapes): dout's batch
        input_shape = (dout.shape[0],) + tuple(input_shape[1:])
    return _input_grad(dout, w, input_shape, **attrs)


def _bpi_bprop(dout, w, out, g, input_shape, **attrs):
    # <T(dout, w), g> = <dout, conv(g, w)>
    return F.conv2d_raw(g, w, **attrs), F.conv2d_backprop_filter(dout, g, w.shape, **attrs)


CONV2D_BACKPROP_INPUT = register(Op("Conv2DBackpropInput", _bpi_impl, _bpi_infer, _bpi_bprop, "opaque",
                                    fresh_output=True))


def _bpf_infer(dout, x, filter_shape, **attrs):
    w = TensorType(tuple(filter_shape), x.dtype)
    expected = conv_out_type("Conv2DBackpropFilter", x, w, **attrs)
    if not shapes_compatible(dout.shape, expected.shape):
        raise OpError(f"Conv2DBackpropFilter: dout {fmt_shape(dout.shape)} does not match the conv output "
                      f"{fmt_shape(expected.shape)}")
    return w


def _bpf_impl(dout, x, filter_shape, **attrs):
    return _filter_grad(dout, x, filter_shape, **attrs)


def _bpf_bprop(dout, x, out, g, filter_shape, **attrs):
    # <dW(dout, x), g> = <dout, conv(x, g)>
    return F.conv2d_raw(x, g, **attrs), F.conv2d_backprop_input(dout, g, x.shape, **attrs)


CONV2D_BACKPROP_FILTER = register(Op("Conv2DBackpropFilter", _bpf_impl, _bpf_infer, _bpf_bprop, "opaque",
                                     fresh_output=True))

_DEFAULTS = dict(stride=(1, 1), dilation=(1, 1), pad_mode="valid", pad=(0, 0, 0, 0), groups=1)


def _norm(attrs: dict) -> dict:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in {**_DEFAULTS, **attrs}.items()}


def _keep_pair(p, q) -> int | None:
    """Bytes of the columns a Conv2D ``p`` would keep for the filter gradient ``q`` of the same input and
    attributes (static shapes only), or None when ``q`` cannot use them."""
    x, w = p.inputs
    xq = q.inputs[1]
    if getattr(xq, "uid", None) != getattr(x, "uid", -1) or not hasattr(w, "uid"):
        return None
    attrs = dict(q.attrs)
    fs = attrs.pop("filter_shape", None)
    xt, wt = x.type, w.type
    if (fs is None or _norm(attrs) != _norm(p.attrs) or xt.shape is None or wt.shape is None
            or None in xt.shape or None in wt.shape or tuple(fs) != tuple(wt.shape) or xt.dtype is not wt.dtype):
        return None
    return keep_nbytes(xt.shape, wt.shape, xt.dtype.np.itemsize, **_norm(p.attrs))


# generated code runs a Conv2D whose input also feeds a Conv2DBackpropFilter as ``conv_keep`` and the filter
# gradient as ``filter_grad_from_cols``: the forward's im2col copy is made once (backend/pycodegen.py, residuals)
CONV2D.extra["residual"] = {"consumer": CONV2D_BACKPROP_FILTER, "shared": 1, "pair": _keep_pair,
                            "produce": conv_keep, "consume": filter_grad_from_cols}

from . import conv_loops, nn_functional as F  # noqa: E402
