"""PascalCase primitive classes for image, pooling, convolution and activation functions."""
from __future__ import annotations

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Tensor
from . import functional as F
from . import functional_image as FI
from .classes_linalg import _Flag
from .primitive_classes import _simple


def _sizes(size) -> tuple:
    if isinstance(size, Tensor):
        size = size.asnumpy().tolist()
    return tuple(int(s) for s in (size if isinstance(size, (tuple, list)) else (size,)))


def _area_matrix(in_size, out_size, align_corners):
    """TensorFlow's ResizeArea: output pixel j averages input [j s, (j + 1) s) weighted by overlap."""
    s = (in_size - 1) / (out_size - 1) if align_corners and out_size > 1 else in_size / out_size
    m = np.zeros((out_size, in_size))
    for j in range(out_size):
        lo, hi = j * s, (j + 1) * s
        for i in range(int(np.floor(lo)), min(int(np.ceil(hi)), in_size)):
            m[j, i] = min(hi, i + 1) - max(lo, i)
        m[j] /= m[j].sum()
    return m


_STATELESS = {"Softsign": F.softsign, "SeLU": F.selu, "PReLU": F.prelu, "Dense": F.dense}
for _name, _fn in _STATELESS.items():
    globals()[_name] = _simple(_name, _fn)


class ResizeNearestNeighbor(_Flag):
    defaults = {"size": (), "align_corners": False, "half_pixel_centers": False}

    def __call__(self, input_x):
        return FI.resize_nearest_neighbor(input_x, _sizes(self.size), self.align_corners, self.half_pixel_centers)


class ResizeNearestNeighborV2(_Flag):
    defaults = {"align_corners": False, "half_pixel_centers": False}

    def __call__(self, image, size):
        return FI.resize_nearest_neighbor(image, _sizes(size), self.align_corners, self.half_pixel_centers)


class ResizeBilinearV2(ResizeNearestNeighborV2):
    def __call__(self, image, size):
        return FI.resize_linear(image, _sizes(size), self.align_corners, self.half_pixel_centers)


class ResizeBicubic(ResizeNearestNeighborV2):
    def __call__(self, image, size):
        return FI.resize_linear(image, _sizes(size), self.align_corners, self.half_pixel_centers, kind="cubic")


class ResizeLinear1D(_Flag):
    defaults = {"coordinate_transformation_mode": "align_corners"}

    def __call__(self, x, size):
        mode = self.coordinate_transformation_mode
        if mode not in ("align_corners", "half_pixel", "asymmetric"):
            raise ValueError(f"ResizeLinear1D: coordinate_transformation_mode must be 'align_corners', 'half_pixel' "
                             f"or 'asymmetric', got {mode!r}")
        return FI._resize(x, _sizes(size), (None,), "linear", mode)


class ResizeArea(_Flag):
    """NHWC area resizing with fractional pixel coverage (TensorFlow's ResizeArea); the result is Float32."""

    defaults = {"align_corners": False}

    def __call__(self, images, size):
        h, w = _sizes(size)
        x = F.cast(images, mstype.float32) if not images.dtype.is_float else images
        x = FI._apply_axis(x, 1, _area_matrix(x.shape[1], h, self.align_corners))
        x = FI._apply_axis(x, 2, _area_matrix(x.shape[2], w, self.align_corners))
        return F.cast(x, mstype.float32)


class _Upsample3D(_Flag):
    defaults = {"align_corners": False}
    kind = "linear"

    def __call__(self, x, output_size=None, scales=None):
        if (output_size is None) == (scales is None):
            raise ValueError(f"{type(self).__name__}: give exactly one of output_size and scales")
        spatial = tuple(x.shape[2:])
        if output_size is not None:
            sizes, sc = _sizes(output_size), (None,) * 3
        else:
            sc = tuple(float(s) for s in scales)
            sizes = tuple(int(np.floor(d * s)) for d, s in zip(spatial, sc))
        if type(self).kind == "nearest":
            return FI._resize(x, sizes, sc, "nearest", "asymmetric")
        return FI._resize(x, sizes, sc, "linear", "align_corners" if self.align_corners else "half_pixel")


class UpsampleNearest3D(_Upsample3D):
    defaults = {}
    kind = "nearest"


class UpsampleTrilinear3D(_Upsample3D):
    kind = "linear"


class L2Normalize(_Flag):
    defaults = {"axis": 0, "epsilon": 1e-4}

    def __call__(self, x):
        return FI.l2_normalize(x, self.axis, self.epsilon)


class AdaptiveAvgPool2D(_Flag):
    defaults = {"output_size": 1}

    def __call__(self, x):
        return F.adaptive_avg_pool2d(x, self.output_size)


class AdaptiveAvgPool3D(AdaptiveAvgPool2D):
    def __call__(self, x):
        return F.adaptive_avg_pool3d(x, self.output_size)


class AdaptiveMaxPool2D(AdaptiveAvgPool2D):
    """-> (values, Int64 argmax within each H*W plane)."""

    def __call__(self, x):
        return F.adaptive_max_pool2d(x, self.output_size, True)


class AdaptiveMaxPool3D(_Flag):
    defaults = {}

    def __call__(self, x, output_size):
        return F.adaptive_max_pool3d(x, _sizes(output_size), True)


def _pool3d_pads(pad_mode, pad):
    if isinstance(pad, int):
        return (pad,) * 6
    pad = tuple(pad)
    return tuple(v for p in pad for v in (p, p)) if len(pad) == 3 else pad


class MaxPool3D(_Flag):
    defaults = {"kernel_size": 1, "strides": 1, "pad_mode": "VALID", "pad_list": 0, "ceil_mode": None,
                "data_format": "NCDHW"}

    def __call__(self, x):
        from .pool_nd import _tuple, pool3d_raw

        if self.data_format != "NCDHW":
            raise ValueError(f"MaxPool3D: only data_format='NCDHW' is supported, got {self.data_format!r}")
        k = _tuple(self.kernel_size, 3, "kernel_size", "MaxPool3D")
        s = _tuple(self.strides, 3, "strides", "MaxPool3D")
        mode = str(self.pad_mode).lower()
        return pool3d_raw(x, "max", k, s, mode, _pool3d_pads(mode, self.pad_list), (1, 1, 1), bool(self.ceil_mode))


class AvgPool3D(_Flag):
    defaults = {"kernel_size": 1, "strides": 1, "pad_mode": "valid", "pad": 0, "ceil_mode": False,
                "count_include_pad": True, "divisor_override": 0, "data_format": "NCDHW"}

    def __call__(self, x):
        from .pool_nd import _tuple, pool3d_raw

        k = _tuple(self.kernel_size, 3, "kernel_size", "AvgPool3D")
        s = _tuple(self.strides, 3, "strides", "AvgPool3D")
        mode = str(self.pad_mode).lower()
        return pool3d_raw(x, "avg", k, s, mode, _pool3d_pads(mode, self.pad), (1, 1, 1), bool(self.ceil_mode),
                          bool(self.count_include_pad), int(self.divisor_override or 0))


class MaxPoolWithArgmax(_Flag):
    """-> (values, argmax within each H*W plane)."""

    defaults = {"kernel_size": 1, "strides": 1, "pad_mode": "valid", "data_format": "NCHW"}

    def __call__(self, x):
        from ..core.dispatch import bind
        from .nn_functional import pool_attrs
        from .pool_ops import MAXPOOL, MAXPOOL_ARGMAX

        attrs = pool_attrs("MaxPoolWithArgmax", self.kernel_size, self.strides, str(self.pad_mode).lower())
        return bind(MAXPOOL, (x,), attrs), F.cast(bind(MAXPOOL_ARGMAX, (x,), attrs), mstype.int32)


class MaxPoolWithArgmaxV2(_Flag):
    defaults = {"kernel_size": 1, "strides": None, "pads": 0, "dilation": (1, 1), "ceil_mode": False,
                "argmax_type": mstype.int64}

    def __call__(self, x):
        values, idx = F.max_pool2d(x, self.kernel_size, self.strides, self.pads, self.dilation, True, self.ceil_mode)
        return values, F.cast(idx, self.argmax_type)


class MaxUnpool2D(_Flag):
    defaults = {"ksize": 1, "strides": 0, "pads": 0, "output_shape": (), "data_format": "NCHW"}

    def __call__(self, x, argmax):
        return FI.max_unpool2d(x, argmax, self.ksize, self.strides or None, self.pads, self.output_shape or None)


class MaxUnpool3D(MaxUnpool2D):
    defaults = {"ksize": 1, "strides": 0, "pads": 0, "output_shape": (), "data_format": "NCDHW"}

    def __call__(self, x, argmax):
        return FI.max_unpool3d(x, argmax, self.ksize, self.strides or None, self.pads, self.output_shape or None)


class LRN(_Flag):
    defaults = {"depth_radius": 5, "bias": 1.0, "alpha": 1.0, "beta": 0.5, "norm_region": "ACROSS_CHANNELS"}

    def __call__(self, x):
        return FI.lrn(x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


class Dropout2D(_Flag):
    """``Dropout2D(keep_prob)(x)`` -> (output, mask): whole channels dropped, kept ones scaled by 1/keep_prob."""

    defaults = {"keep_prob": 0.5}
    rank = 4

    def __call__(self, x):
        keep = float(self.keep_prob)
        if not 0 <= keep <= 1:
            raise ValueError(f"{type(self).__name__}: keep_prob must be in [0, 1], got {keep}")
        if x.ndim != type(self).rank:
            raise ValueError(f"{type(self).__name__}: expects a {type(self).rank}-D input, got {list(x.shape)}")
        shape = tuple(x.shape[:2]) + (1,) * (x.ndim - 2)
        mask = F.less(F.rand(*shape, dtype=x.dtype), keep) if keep < 1 else F.ones(shape, mstype.bool_)
        scaled = F.mul(x, F.mul(F.cast(mask, x.dtype), 1.0 / keep if keep else 0.0))
        return scaled, F.broadcast_to(mask, tuple(x.shape))


class Dropout3D(Dropout2D):
    rank = 5


class CeLU(_Flag):
    defaults = {"alpha": 1.0}

    def __call__(self, x):
        return F.celu(x, self.alpha)


class HShrink(_Flag):
    defaults = {"lambd": 0.5}

    def __call__(self, x):
        return F.hardshrink(x, self.lambd)


class SoftShrink(HShrink):
    def __call__(self, x):
        return F.softshrink(x, self.lambd)


class GLU(_Flag):
    defaults = {"axis": -1}

    def __call__(self, x):
        return F.glu(x, self.axis)


class Conv3D(_Flag):
    defaults = {"out_channel": 1, "kernel_size": 1, "mode": 1, "pad_mode": "valid", "pad": 0, "stride": 1,
                "dilation": 1, "group": 1, "data_format": "NCDHW"}

    def __call__(self, x, weight, bias=None):
        return F.conv3d(x, weight, bias, self.stride, self.pad_mode, self.pad, self.dilation, self.group)


class Conv3DTranspose(_Flag):
    defaults = {"in_channel": 1, "out_channel": 1, "kernel_size": 1, "mode": 1, "pad_mode": "valid", "pad": 0,
                "stride": 1, "dilation": 1, "group": 1, "output_padding": 0, "data_format": "NCDHW"}

    def __call__(self, dout, weight, bias=None):
        out = F.conv3d_transpose(dout, weight, self.pad_mode, self.pad, self.stride, self.dilation, self.group,
                                 self.output_padding)
        return out if bias is None else F.add(out, F.reshape(bias, (1, -1, 1, 1, 1)))


class Conv2DBackpropInput(_Flag):
    """``(dout, weight, input_size)``: the gradient of a Conv2D with respect to its input (a transposed conv)."""

    defaults = {"out_channel": 1, "kernel_size": 1, "pad_mode": "valid", "pad": 0, "pad_list": None, "mode": 1,
                "stride": 1, "dilation": 1, "group": 1, "data_format": "NCHW"}

    def __call__(self, dout, weight, input_size):
        from .nn_functional import conv2d_backprop_input, conv_attrs

        pad = self.pad_list if self.pad_list is not None else self.pad
        attrs = conv_attrs("Conv2DBackpropInput", self.stride, self.pad_mode, pad, self.dilation, self.group)
        return conv2d_backprop_input(dout, weight, _sizes(input_size), **attrs)


class Conv2DTranspose(Conv2DBackpropInput):
    pass


class Im2Col(_Flag):
    defaults = {"ksizes": 1, "strides": 1, "dilations": 1, "pads": 0}

    def __call__(self, x):
        n, c = x.shape[:2]
        cols = FI.unfold(x, self.ksizes, self.dilations, self.pads, self.strides)
        k = FI._pair(self.ksizes)
        return F.reshape(cols, (n, c, k[0] * k[1], -1))


class Col2Im(_Flag):
    defaults = {"kernel_size": 1, "dilation": 1, "padding": 0, "stride": 1}

    def __call__(self, x, output_size):
        n, c = x.shape[:2]
        return FI.fold(F.reshape(x, (n, -1, x.shape[-1])), output_size, self.kernel_size, self.dilation,
                       self.padding, self.stride)


class CropAndResize(_Flag):
    defaults = {"method": "bilinear", "extrapolation_value": 0.0}

    def __call__(self, image, boxes, box_index, crop_size):
        return FI.crop_and_resize(image, boxes, box_index, _sizes(crop_size), self.method, self.extrapolation_value)


class GridSampler2D(_Flag):
    defaults = {"interpolation_mode": "bilinear", "padding_mode": "zeros", "align_corners": False}

    def __call__(self, input_x, grid):
        return FI.grid_sample(input_x, grid, self.interpolation_mode, self.padding_mode, self.align_corners)


class AffineGrid(_Flag):
    defaults = {"align_corners": False}

    def __call__(self, theta, output_size):
        return FI.affine_grid(theta, _sizes(output_size), self.align_corners)


class SpaceToBatchND(_Flag):
    defaults = {"block_shape": 1, "paddings": ()}

    def __call__(self, x):
        return FI.space_to_batch_nd(x, self.block_shape, self.paddings)


class BatchToSpaceND(_Flag):
    defaults = {"block_shape": 1, "crops": ()}

    def __call__(self, x):
        return FI.batch_to_space_nd(x, self.block_shape, self.crops)


class SpaceToBatch(_Flag):
    defaults = {"block_size": 1, "paddings": ()}

    def __call__(self, x):
        return FI.space_to_batch_nd(x, (self.block_size, self.block_size), self.paddings)


class BatchToSpace(_Flag):
    defaults = {"block_size": 1, "crops": ()}

    def __call__(self, x):
        return FI.batch_to_space_nd(x, (self.block_size, self.block_size), self.crops)


class MirrorPad(_Flag):
    defaults = {"mode": "REFLECT"}

    def __call__(self, x, paddings):
        return F.mirror_pad(x, paddings, self.mode)


class PadV3(_Flag):
    """``PadV3(mode, paddings_contiguous)(x, paddings, value)``: ops.pad's layout (last axis first)."""

    defaults = {"mode": "constant", "paddings_contiguous": True}

    def __call__(self, x, paddings, value=None):
        pads = _sizes(paddings)
        if not self.paddings_contiguous:  # (b0, b1, ..., a0, a1, ...) -> (b0, a0, b1, a1, ...)
            half = len(pads) // 2
            pads = tuple(v for pair in zip(pads[:half], pads[half:]) for v in pair)
        mode = {"edge": "replicate"}.get(self.mode, self.mode)
        v = value.item() if isinstance(value, Tensor) else value
        return F.pad(x, pads, mode, v if mode == "constant" else None)


class Padding(_Flag):
    defaults = {"pad_dim_size": 8}

    def __call__(self, x):
        return F.padding(x, self.pad_dim_size)


__all__ = list(_STATELESS) + [
    "ResizeNearestNeighbor", "ResizeNearestNeighborV2", "ResizeBilinearV2", "ResizeBicubic", "ResizeLinear1D",
    "ResizeArea", "UpsampleNearest3D", "UpsampleTrilinear3D", "L2Normalize", "AdaptiveAvgPool2D",
    "AdaptiveAvgPool3D", "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "MaxPool3D", "AvgPool3D", "MaxPoolWithArgmax",
    "MaxPoolWithArgmaxV2", "MaxUnpool2D", "MaxUnpool3D", "LRN", "Dropout2D", "Dropout3D", "CeLU", "HShrink",
    "SoftShrink", "GLU", "Conv3D", "Conv3DTranspose", "Conv2DBackpropInput", "Conv2DTranspose", "Im2Col", "Col2Im",
    "CropAndResize", "GridSampler2D", "AffineGrid", "SpaceToBatchND", "BatchToSpaceND", "SpaceToBatch",
    "BatchToSpace", "MirrorPad", "PadV3", "Padding"]


class IOU(_Flag):
    defaults = {"mode": "iou"}

    def __call__(self, anchor_boxes, gt_boxes):
        return F.iou(anchor_boxes, gt_boxes, self.mode)


class NMSWithMask(_Flag):
    defaults = {"iou_threshold": 0.5}

    def __call__(self, bboxes):
        return F.nms_with_mask(bboxes, self.iou_threshold)


class BoundingBoxEncode(_Flag):
    defaults = {"means": (0.0, 0.0, 0.0, 0.0), "stds": (1.0, 1.0, 1.0, 1.0)}

    def __call__(self, anchor_box, groundtruth_box):
        return F.bounding_box_encode(anchor_box, groundtruth_box, self.means, self.stds)


class BoundingBoxDecode(_Flag):
    defaults = {"max_shape": (), "means": (0.0, 0.0, 0.0, 0.0), "stds": (1.0, 1.0, 1.0, 1.0), "wh_ratio_clip": 0.016}

    def __call__(self, anchor_box, deltas):
        return F.bounding_box_decode(anchor_box, deltas, self.max_shape, self.means, self.stds, self.wh_ratio_clip)


class CheckValid(_Flag):
    defaults = {}

    def __call__(self, bboxes, img_metas):
        return F.check_valid(bboxes, img_metas)


class ROIAlign(_Flag):
    defaults = {"pooled_height": 1, "pooled_width": 1, "spatial_scale": 1.0, "sample_num": 2, "roi_end_mode": 1}

    def __call__(self, features, rois):
        return F.roi_align(features, rois, self.pooled_height, self.pooled_width, self.spatial_scale,
                           self.sample_num, self.roi_end_mode)


class CTCGreedyDecoder(_Flag):
    defaults = {"merge_repeated": True}

    def __call__(self, inputs, sequence_length):
        return F.ctc_greedy_decoder(inputs, sequence_length, self.merge_repeated)


__all__ += ["IOU", "NMSWithMask", "BoundingBoxEncode", "BoundingBoxDecode", "CheckValid", "ROIAlign",
            "CTCGreedyDecoder"]
