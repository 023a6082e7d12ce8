"""1-D and 3-D convolutions and the transposed convolutions, as composites over the Conv2D primitives.

A 3-D convolution is a 2-D convolution over (H, W) whose input channels are the kd depth taps stacked
together (the depth axis is unrolled into the batch), so it costs one batched GEMM like Conv2D. Its
transpose is Conv2DBackpropInput over the same stacked layout, followed by placing every depth tap at
its output positions. Gradients come from the primitives' own bprops."""
from __future__ import annotations

from . import functional as F
from .conv_ops import out_size
from .nn_functional import conv2d_backprop_input, conv2d_raw


def _check_3d(x, w, op: str) -> None:
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"For '{op}', the input and the weight must be 5-D (N, C, D, H, W), but got shapes "
                         f"{list(x.shape)} and {list(w.shape)}.")


def _depth_geometry(size, k, s, d, pad_mode, lo, hi, op: str):
    out, lo, hi, _ = out_size(size, k, s, d, pad_mode, lo, hi)
    if out is not None and out <= 0:
        raise ValueError(f"For '{op}', the kernel depth {k} (dilation {d}) is larger than the padded input depth "
                         f"{size}.")
    return out, lo, hi


def conv3d_raw(x, w, stride, dilation, pad_mode, pad, groups):
    """Conv3D on (N, C, D, H, W) with weight (O, C // groups, kd, kh, kw). ``stride``/``dilation`` are
    (d, h, w) triples, ``pad`` is (head, tail, top, bottom, left, right) (used with pad_mode 'pad')."""
    _check_3d(x, w, "Conv3D")
    n, c, depth, h, wd = x.shape
    o, cg, kd, kh, kw = w.shape
    if c != cg * groups:
        raise ValueError(f"For 'Conv3D', the input has {c} channels but the weight {list(w.shape)} expects "
                         f"{cg} x group({groups}) = {cg * groups}.")
    do, lo, hi = _depth_geometry(depth, kd, stride[0], dilation[0], pad_mode, pad[0], pad[1], "Conv3D")
    if lo or hi:
        x = F.pad_raw(x, ((0, 0), (0, 0), (lo, hi), (0, 0), (0, 0)))
    xt = F.transpose(x, (0, 2, 1, 3, 4))  # (N, Dp, C, H, W)
    last = stride[0] * (do - 1) + 1
    taps = [xt[:, i * dilation[0]:i * dilation[0] + last:stride[0]] for i in range(kd)]
    if kd == 1:
        cols = F.reshape(taps[0], (n * do, c, h, wd))
    else:
        cols = F.stack(taps, 2)  # (N, Do, kd, C, H, W)
        if groups > 1:  # Conv2D groups are channel-contiguous: order the stacked channels (group, tap, channel)
            cols = F.transpose(F.reshape(cols, (n * do, kd, groups, cg, h, wd)), (0, 2, 1, 3, 4, 5))
        cols = F.reshape(cols, (n * do, kd * c, h, wd))
    w2 = F.reshape(F.transpose(w, (0, 2, 1, 3, 4)), (o, kd * cg, kh, kw))
    attrs = {"stride": tuple(stride[1:]), "dilation": tuple(dilation[1:]), "pad_mode": pad_mode,
             "pad": tuple(pad[2:]), "groups": groups}
    y = conv2d_raw(cols, w2, **attrs)  # (N * Do, O, Ho, Wo)
    return F.transpose(F.reshape(y, (n, do) + tuple(y.shape[1:])), (0, 2, 1, 3, 4))


def conv3d_transpose_raw(x, w, out_shape, stride, dilation, pad_mode, pad, groups):
    """The adjoint of ``conv3d_raw``: ``x`` (N, C_in, D, H, W) is a conv output, ``w`` (C_in, C_out // groups,
    kd, kh, kw) the conv weight, ``out_shape`` the (D, H, W) of the result (the conv's input)."""
    _check_3d(x, w, "Conv3DTranspose")
    n, cin, dy, hy, wy = x.shape
    _, cog, kd, kh, kw = w.shape
    cout = cog * groups
    dx, hx, wx = out_shape
    dchk, lo, hi = _depth_geometry(dx, kd, stride[0], dilation[0], pad_mode, pad[0], pad[1], "Conv3DTranspose")
    if dchk != dy:
        raise ValueError(f"For 'Conv3DTranspose', an output depth of {dx} does not give the input depth {dy}.")
    rows = F.reshape(F.transpose(x, (0, 2, 1, 3, 4)), (n * dy, cin, hy, wy))
    w2 = F.reshape(F.transpose(w, (0, 2, 1, 3, 4)), (cin, kd * cog, kh, kw))
    attrs = {"stride": tuple(stride[1:]), "dilation": tuple(dilation[1:]), "pad_mode": pad_mode,
             "pad": tuple(pad[2:]), "groups": groups}
    t = conv2d_backprop_input(rows, w2, (n * dy, kd * cout, hx, wx), **attrs)  # channels (group, tap, c)
    t = F.reshape(t, (n, dy, groups, kd, cog, hx, wx))
    if groups > 1:
        t = F.transpose(t, (0, 1, 3, 2, 4, 5, 6))
    t = F.reshape(t, (n, dy, kd, cout, hx, wx))
    depth = dx + lo + hi
    span = (dy - 1) * stride[0] + 1
    acc = None
    for i in range(kd):
        tap = t[:, :, i]  # (N, Dy, C_out, H, W): contributes at depths i * dilation + j * stride
        if stride[0] > 1:  # interleave stride - 1 zero planes between the rows
            tap = F.pad_raw(F.expand_dims(tap, 2), ((0, 0), (0, 0), (0, stride[0] - 1), (0, 0), (0, 0), (0, 0)))
            tap = F.reshape(tap, (n, dy * stride[0], cout, hx, wx))[:, :span]
        start = i * dilation[0]
        tap = F.pad_raw(tap, ((0, 0), (start, depth - start - span), (0, 0), (0, 0), (0, 0)))
        acc = tap if acc is None else F.add(acc, tap)
    if lo or hi:
        acc = acc[:, lo:lo + dx]
    return F.transpose(acc, (0, 2, 1, 3, 4))


def deconv_length(pad_mode: str, size: int, k: int, s: int, d: int, pad_total: int) -> int:
    """Output length of MindSpore's Conv1d/Conv2dTranspose along one axis (before output_padding)."""
    eff = d * (k - 1) + 1
    if pad_mode == "valid":
        return size * s + max(eff - s, 0)
    if pad_mode == "same":
        return size * s
    return size * s - pad_total + eff - s


def conv3d_transpose_length(pad_mode: str, size: int, k: int, s: int, d: int, pad_total: int, out_pad: int) -> int:
    """Output length of MindSpore's Conv3DTranspose along one axis (output_padding only with pad_mode 'pad')."""
    return deconv_length(pad_mode, size, k, s, d, pad_total) + (out_pad if pad_mode == "pad" else 0)
