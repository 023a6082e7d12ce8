"""mindspore.mint.nn parameter-free layers: activations, dropout, pooling, padding, reshaping and resampling
(PyTorch's constructor arguments), each a thin Cell over mint.nn.functional."""
from __future__ import annotations

from ... import ops
from ...nn.cell import Cell
from . import functional as F


def _layer(name, fn, params=(), doc=""):
    """A Cell class whose construct calls ``fn(input, *stored params)``; ``params`` are (name, default) pairs."""

    def __init__(self, *args, **kwargs):
        Cell.__init__(self)
        names = [p for p, _ in params]
        if len(args) > len(names):
            raise TypeError(f"{name}() takes at most {len(names)} arguments, got {len(args)}")
        values = dict(params)
        values.update(zip(names, args))
        for k, v in kwargs.items():
            if k not in values:
                raise TypeError(f"{name}() got an unexpected keyword argument {k!r}")
            values[k] = v
        missing = [k for k, v in values.items() if v is _REQUIRED]
        if missing:
            raise TypeError(f"{name}() missing required arguments {missing}")
        for k, v in values.items():
            setattr(self, k, v)
        self._names = names
        if hasattr(self, "_check"):
            self._check()

    def construct(self, input):  # noqa: A002
        return fn(input, *(getattr(self, k) for k in self._names))

    def extend_repr(self):
        return ", ".join(f"{k}={getattr(self, k)!r}" for k in self._names)

    return type(name, (Cell,), {"__init__": __init__, "construct": construct, "extend_repr": extend_repr,
                                "__doc__": doc or f"``{name}``: mint.nn.functional's {fn.__name__} as a layer."})


_REQUIRED = object()

ReLU6 = _layer("ReLU6", F.relu6, (("inplace", False),))
ELU = _layer("ELU", F.elu, (("alpha", 1.0), ("inplace", False)))
GELU = _layer("GELU", lambda x, a: F.gelu(x, approximate=a), (("approximate", "none"),))
GLU = _layer("GLU", F.glu, (("dim", -1),))
Hardshrink = _layer("Hardshrink", F.hardshrink, (("lambd", 0.5),))
Hardsigmoid = _layer("Hardsigmoid", F.hardsigmoid)
Hardswish = _layer("Hardswish", F.hardswish)
Hardtanh = _layer("Hardtanh", F.hardtanh, (("min_val", -1.0), ("max_val", 1.0), ("inplace", False)))
LogSigmoid = _layer("LogSigmoid", F.logsigmoid)
LogSoftmax = _layer("LogSoftmax", lambda x, d: F.log_softmax(x, d), (("dim", None),))
Mish = _layer("Mish", F.mish)
SELU = _layer("SELU", F.selu)
SiLU = _layer("SiLU", F.silu, (("inplace", False),))
Sigmoid = _layer("Sigmoid", F.sigmoid)
Softmax = _layer("Softmax", F.softmax, (("dim", None),))
Softshrink = _layer("Softshrink", F.softshrink, (("lambd", 0.5),))
Tanh = _layer("Tanh", F.tanh)
Threshold = _layer("Threshold", F.threshold, (("threshold", _REQUIRED), ("value", _REQUIRED), ("inplace", False)))
Flatten = _layer("Flatten", F.flatten, (("start_dim", 1), ("end_dim", -1)))
Fold = _layer("Fold", F.fold, (("output_size", _REQUIRED), ("kernel_size", _REQUIRED), ("dilation", 1),
                                ("padding", 0), ("stride", 1)))
Unfold = _layer("Unfold", F.unfold, (("kernel_size", _REQUIRED), ("dilation", 1), ("padding", 0), ("stride", 1)))
PixelShuffle = _layer("PixelShuffle", F.pixel_shuffle, (("upscale_factor", _REQUIRED),))
Upsample = _layer("Upsample", F.interpolate, (("size", None), ("scale_factor", None), ("mode", "nearest"),
                                              ("align_corners", None), ("recompute_scale_factor", None)))
UpsamplingNearest2d = _layer("UpsamplingNearest2d", lambda x, s, f: F.interpolate(x, s, f, "nearest"),
                             (("size", None), ("scale_factor", None)))
UpsamplingBilinear2d = _layer("UpsamplingBilinear2d", lambda x, s, f: F.interpolate(x, s, f, "bilinear", True),
                              (("size", None), ("scale_factor", None)))
AdaptiveAvgPool1d = _layer("AdaptiveAvgPool1d", F.adaptive_avg_pool1d, (("output_size", _REQUIRED),))
AdaptiveAvgPool2d = _layer("AdaptiveAvgPool2d", F.adaptive_avg_pool2d, (("output_size", _REQUIRED),))
AdaptiveAvgPool3d = _layer("AdaptiveAvgPool3d", F.adaptive_avg_pool3d, (("output_size", _REQUIRED),))
AdaptiveMaxPool1d = _layer("AdaptiveMaxPool1d", F.adaptive_max_pool1d, (("output_size", _REQUIRED),
                                                                        ("return_indices", False)))
AvgPool1d = _layer("AvgPool1d", F.avg_pool1d, (("kernel_size", _REQUIRED), ("stride", None), ("padding", 0),
                                               ("ceil_mode", False), ("count_include_pad", True)))
AvgPool2d = _layer("AvgPool2d", F.avg_pool2d, (("kernel_size", _REQUIRED), ("stride", None), ("padding", 0),
                                               ("ceil_mode", False), ("count_include_pad", True),
                                               ("divisor_override", None)))
AvgPool3d = _layer("AvgPool3d", F.avg_pool3d, (("kernel_size", _REQUIRED), ("stride", None), ("padding", 0),
                                               ("ceil_mode", False), ("count_include_pad", True),
                                               ("divisor_override", None)))
MaxPool2d = _layer("MaxPool2d", lambda x, k, s, p, d, r, c: F.max_pool2d(x, k, s, p, d, c, r),
                   (("kernel_size", 1), ("stride", None), ("padding", 0), ("dilation", 1), ("return_indices", False),
                    ("ceil_mode", False)))


class Dropout(Cell):
    """Zero elements with probability p in training (the rest scaled by 1 / (1 - p)); identity in eval."""

    _fn = staticmethod(F.dropout)

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
            raise ValueError(f"For '{self.cls_name}', p must be a probability in [0, 1], got {p!r}")
        self.p, self.inplace = p, inplace

    def construct(self, input):  # noqa: A002
        return self._fn(input, self.p, self.training, self.inplace)

    def extend_repr(self):
        return f"p={self.p}"


class Dropout2d(Dropout):
    """Zero whole channels with probability p in training."""

    _fn = staticmethod(F.dropout2d)


class MaxUnpool2d(Cell):
    """The inverse of MaxPool2d: values put back at their ``indices`` (zeros elsewhere)."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, input, indices, output_size=None):  # noqa: A002
        return F.max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding, output_size)


def _pad_layer(name, nd, mode, value_arg=False):
    def fn(x, padding, *value):
        pads = (padding,) * (2 * nd) if isinstance(padding, int) else tuple(padding)
        if len(pads) != 2 * nd:
            raise ValueError(f"For '{name}', padding must be an int or a tuple of {2 * nd} ints, got {padding!r}")
        return ops.pad(x, pads, mode, value[0] if value else None)

    params = (("padding", _REQUIRED), ("value", _REQUIRED)) if value_arg else (("padding", _REQUIRED),)
    return _layer(name, fn, params, f"``{name}``: {mode} padding of the last {nd} dimension(s).")


ConstantPad1d = _pad_layer("ConstantPad1d", 1, "constant", True)
ConstantPad2d = _pad_layer("ConstantPad2d", 2, "constant", True)
ConstantPad3d = _pad_layer("ConstantPad3d", 3, "constant", True)
ZeroPad1d = _pad_layer("ZeroPad1d", 1, "constant")
ZeroPad2d = _pad_layer("ZeroPad2d", 2, "constant")
ZeroPad3d = _pad_layer("ZeroPad3d", 3, "constant")
ReflectionPad1d = _pad_layer("ReflectionPad1d", 1, "reflect")
ReflectionPad2d = _pad_layer("ReflectionPad2d", 2, "reflect")
ReflectionPad3d = _pad_layer("ReflectionPad3d", 3, "reflect")
ReplicationPad1d = _pad_layer("ReplicationPad1d", 1, "replicate")
ReplicationPad2d = _pad_layer("ReplicationPad2d", 2, "replicate")
ReplicationPad3d = _pad_layer("ReplicationPad3d", 3, "replicate")
