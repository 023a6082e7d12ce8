"""PascalCase classes DeformableOffsets, FractionalMaxPoolWithFixedKsize, FractionalMaxPool3DWithFixedKsize and
ExtractVolumePatches over the composites of ops.deformable_conv2d, the nn fractional pooling cells and
ExtractImagePatches' window taps."""
from __future__ import annotations

from .. import dtype as mstype
from . import functional as F
from .classes_image2 import _ints, _pad_mode, _tensor, _window_out
from .classes_linalg import _Flag
from .functional_deform import _positive, _tuple, deformable_offsets
from .pool_fractional import _fractional

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


class DeformableOffsets(_Flag):
    """``DeformableOffsets(strides, pads, ksize, dilations=(1, 1, 1, 1), data_format='NCHW', deformable_groups=1,
    modulated=True)(x, offsets)``: the deformed-sample map ops.deformable_conv2d convolves, (N, C, oh * kh, ow * kw);
    NCHW only."""

    defaults = {"strides": None, "pads": None, "ksize": None, "dilations": (1, 1, 1, 1), "data_format": "NCHW",
                "deformable_groups": 1, "modulated": True}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "DeformableOffsets"
        if self.data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{op}', the 'data_format' must be 'NCHW' or 'NHWC', but got {self.data_format!r}.")
        if self.data_format == "NHWC":  # MindSpore's CPU kernel reads NHWC offsets' channels from axis 1
            raise ValueError(f"For '{op}', data_format 'NHWC' is not supported by sprout (only 'NCHW').")
        for name in ("strides", "dilations"):
            v = _tuple(getattr(self, name), 4, name)
            if v[0] != 1 or v[1] != 1:
                raise ValueError(f"For '{op}', The N and C dimensions of '{name}' must be set to 1, but got {v}.")
            setattr(self, name, v[2:])
        self.pads = _tuple(self.pads, 4, "pads")
        self.ksize = _tuple(self.ksize, 2, "kernel_size")
        _positive(self.deformable_groups, "deformable_groups")
        if self.modulated is not True:
            raise ValueError(f"For '{op}', The modulated must be set to True, but got {self.modulated!r}.")

    def __call__(self, x, offsets):
        op = "DeformableOffsets"
        _tensor(x, "x", op, 4, _FLOATS)
        _tensor(offsets, "offsets", op, 4, _FLOATS)
        if offsets.dtype != x.dtype:
            raise TypeError(f"For '{op}', 'offsets' must have x's dtype {x.dtype}, but got {offsets.dtype}.")
        if x.shape[1] % self.deformable_groups:
            raise ValueError(f"For '{op}', the channels {x.shape[1]} must be divisible by deformable_groups "
                             f"{self.deformable_groups}.")
        return deformable_offsets(x, offsets, self.ksize, self.strides, self.pads, self.dilations,
                                  self.deformable_groups, op)


class FractionalMaxPoolWithFixedKsize(_Flag):
    """``FractionalMaxPoolWithFixedKsize(ksize, output_shape, data_format='NCHW')(input_x, random_samples)`` ->
    (y, argmax): the nn fractional max pooling (ops.fractional_max_pool2d) with the given samples (N, C, 2)."""

    defaults = {"ksize": None, "output_shape": None, "data_format": "NCHW"}
    _dims, _format = 2, "NCHW"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = type(self).__name__
        if isinstance(self.ksize, bool) or not isinstance(self.ksize, (int, tuple)):
            raise TypeError(f"For '{op}', the 'ksize' must be an int or a tuple, but got {self.ksize!r}.")
        if isinstance(self.output_shape, bool) or not isinstance(self.output_shape, (int, tuple)):
            raise TypeError(f"For '{op}', the 'output_shape' must be an int or a tuple, but got "
                            f"{self.output_shape!r}.")
        self.ksize = _ints(self.ksize, self._dims, "ksize", op)
        self.output_shape = _ints(self.output_shape, self._dims, "output_shape", op)
        if self.data_format != self._format:
            raise ValueError(f"For '{op}', the 'data_format' must be '{self._format}', but got {self.data_format!r}.")

    def __call__(self, input_x, random_samples):
        op = type(self).__name__
        x = _tensor(input_x, "input_x", op, self._dims + 2,
                    _FLOATS + (mstype.int32, mstype.int64))
        s = _tensor(random_samples, "random_samples", op, 3, _FLOATS)
        if tuple(s.shape) != (x.shape[0], x.shape[1], self._dims):
            raise ValueError(f"For '{op}', the 'random_samples' must have shape "
                             f"{[x.shape[0], x.shape[1], self._dims]}, but got {list(s.shape)}.")
        for size, k, o in zip(x.shape[2:], self.ksize, self.output_shape):
            if k + o - 1 > size:
                raise ValueError(f"For '{op}', ksize {self.ksize} + output_shape {self.output_shape} - 1 must not "
                                 f"exceed the input size {tuple(x.shape[2:])}.")
        work = x if x.dtype.is_float else F.cast(x, mstype.float64)
        y, arg = _fractional(work, self.ksize, self.output_shape, None, True, F.cast(s, work.dtype), self._dims, op)
        return (y if y.dtype == x.dtype else F.cast(y, x.dtype)), arg


class FractionalMaxPool3DWithFixedKsize(FractionalMaxPoolWithFixedKsize):
    """``FractionalMaxPool3DWithFixedKsize(ksize, output_shape, data_format='NCDHW')(x, random_samples)``: the 3-D
    form (random_samples (N, C, 3))."""

    defaults = {"ksize": None, "output_shape": None, "data_format": "NCDHW"}
    _dims, _format = 3, "NCDHW"


class ExtractVolumePatches(_Flag):
    """``ExtractVolumePatches(kernel_size, strides, padding)(input_x)``: every (kd, kh, kw) patch of (N, C, D, H, W)
    as (N, kd * kh * kw * C, od, oh, ow), depth index ((i * kh + j) * kw + l) * C + c (TensorFlow's order, as
    MindSpore's CPU kernel); 'SAME' pads zeros TensorFlow-style."""

    defaults = {"kernel_size": None, "strides": None, "padding": None}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        op = "ExtractVolumePatches"
        for name in ("kernel_size", "strides"):
            v = getattr(self, name)
            if isinstance(v, (tuple, list)) and len(v) == 5:
                if tuple(v[:2]) != (1, 1):
                    raise ValueError(f"For '{op}', a 5-element '{name}' must start with (1, 1), but got {tuple(v)}.")
                v = tuple(v[2:])
            setattr(self, name, _ints(v, 3, name, op))
        self.padding = _pad_mode(self.padding, op)

    def __call__(self, input_x):
        op = "ExtractVolumePatches"
        x = _tensor(input_x, "input_x", op, 5)
        sizes, pads, outs = x.shape[2:], [], []
        for size, k, s in zip(sizes, self.kernel_size, self.strides):
            o, lo, hi = _window_out(size, k, s, 1, self.padding)
            if o <= 0:
                raise ValueError(f"For '{op}', the kernel {self.kernel_size} does not fit the input {list(x.shape)}.")
            outs.append(o)
            pads.append((lo, hi))
        if any(lo or hi for lo, hi in pads):
            x = F.pad(x, (pads[2][0], pads[2][1], pads[1][0], pads[1][1], pads[0][0], pads[0][1]))
        (kd, kh, kw), (sd, sh, sw), (od, oh, ow) = self.kernel_size, self.strides, outs
        taps = [x[:, :, i:i + (od - 1) * sd + 1:sd, j:j + (oh - 1) * sh + 1:sh, m:m + (ow - 1) * sw + 1:sw]
                for i in range(kd) for j in range(kh) for m in range(kw)]
        n, c = x.shape[:2]
        return F.reshape(F.stack(taps, 1), (n, c * len(taps), od, oh, ow))


__all__ = ["DeformableOffsets", "FractionalMaxPoolWithFixedKsize", "FractionalMaxPool3DWithFixedKsize",
           "ExtractVolumePatches"]
