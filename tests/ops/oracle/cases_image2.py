"""MaxPool3DWithArgmax, GridSampler3D and 5-D ops.grid_sample against MindSpore 2.10's CPU kernels (sprout's
composites in ops/classes_image2.py and ops/functional_image.py). DepthwiseConv2dNative, ExtractImagePatches and
Dilation2D have no CPU kernel there (tests/ops/table_image2.py checks them against NumPy)."""
import numpy as np

from . import OC, U, C


def _distinct(*shape):
    n = int(np.prod(shape))
    return lambda rng: (rng.permutation(n) * 0.25 - n * 0.1).reshape(shape).astype("float32")


VOL = _distinct(2, 2, 5, 6, 5)
GRID = U(2, 3, 2, 4, 3, lo=-1.2, hi=1.2)

_T = np.array([0.25, -0.25, -0.75, 0.75, -1.25, 1.25])  # align_corners on 5 samples: 2.5, 1.5, 0.5, 3.5, -0.5, 4.5
TIES2 = np.stack([_T, np.zeros(6)], -1).reshape(1, 1, 6, 2)
TIES3 = np.stack([_T, _T * 0, _T], -1).reshape(1, 1, 1, 6, 3)

CASES = [
    OC("maxpool3d_argmax", "ops.MaxPool3DWithArgmax(2, 2, 0)(x)", {"x": VOL}),
    OC("maxpool3d_argmax_pads", "ops.MaxPool3DWithArgmax((3, 2, 3), (2, 1, 2), (1, 1, 1))(x)", {"x": VOL}),
    OC("maxpool3d_argmax_dilation", "ops.MaxPool3DWithArgmax(2, 1, 0, dilation=(2, 1, 2))(x)", {"x": VOL}),
    OC("maxpool3d_argmax_ceil", "ops.MaxPool3DWithArgmax(2, 2, 0, ceil_mode=True)(x)", {"x": VOL}),
    OC("maxpool3d_argmax_int32", "ops.MaxPool3DWithArgmax(2, 2, 0, argmax_type=ms.int32)(x)", {"x": VOL}),
    OC("maxpool3d_argmax_float64", "ops.MaxPool3DWithArgmax(2, 2, 1)(x)",
       {"x": lambda rng: VOL(rng).astype("float64")}),
    OC("maxpool3d_argmax_4d", "ops.MaxPool3DWithArgmax(2, 2, 0)(x)", {"x": U(2, 4, 4, 4)}, check="raises",
       match="MaxPool3DWithArgmax"),
    OC("maxpool3d_argmax_bad_type", "ops.MaxPool3DWithArgmax(2, 2, 0, argmax_type=ms.float32)", check="raises",
       jit=False),
    OC("maxpool3d_argmax_bad_format", "ops.MaxPool3DWithArgmax(2, 2, 0, data_format='NDHWC')", check="raises",
       jit=False),
    OC("maxpool3d_argmax_neg_pads", "ops.MaxPool3DWithArgmax(2, 2, -1)", check="raises", jit=False),
    OC("grid_sampler3d", "ops.GridSampler3D()(x, g)", {"x": VOL, "g": GRID}),
    OC("grid_sampler3d_align", "ops.GridSampler3D('bilinear', 'zeros', True)(x, g)", {"x": VOL, "g": GRID}),
    OC("grid_sampler3d_border", "ops.GridSampler3D('bilinear', 'border', False)(x, g)", {"x": VOL, "g": GRID}),
    OC("grid_sampler3d_reflection", "ops.GridSampler3D('bilinear', 'reflection', True)(x, g)",
       {"x": VOL, "g": GRID}),
    OC("grid_sampler3d_nearest", "ops.GridSampler3D('nearest', 'zeros', True)(x, g)",
       {"x": VOL, "g": C(np.array([-1, -0.5, 0, 0.5, 1, 0.25]).repeat(3).reshape(1, 2, 3, 1, 3)
                         .repeat(2, 0).astype("float32"))}),
    OC("grid_sampler3d_float64", "ops.GridSampler3D('bilinear', 'reflection', False)(x, g)",
       {"x": lambda rng: VOL(rng).astype("float64"), "g": U(2, 3, 2, 4, 3, lo=-1.5, hi=1.5, dtype="float64")}),
    OC("grid_sample_5d", "ops.grid_sample(x, g, 'bilinear', 'border', False)", {"x": VOL, "g": GRID}),
    OC("grid_sampler3d_4d", "ops.GridSampler3D()(x, g)", {"x": U(2, 2, 4, 4), "g": U(2, 3, 3, 2)},
       check="raises", match="GridSampler3D"),
    OC("grid_sampler3d_dtype", "ops.GridSampler3D()(x, g)", {"x": VOL, "g": U(2, 3, 2, 4, 3, dtype="float64")},
       check="raises", match="GridSampler3D"),
    # ties: MindSpore's nearest rounds halves away from zero in 2-D and 3-D (2.5 -> 3, -0.5 -> -1: outside)
    OC("grid_sample_2d_nearest_ties", "ops.grid_sample(x, g, 'nearest', 'zeros', True)",
       {"x": C(np.arange(25).reshape(1, 1, 5, 5), "float32"), "g": C(TIES2, "float32")}),
    OC("grid_sampler3d_nearest_ties", "ops.GridSampler3D('nearest', 'zeros', True)(x, g)",
       {"x": C(np.arange(125).reshape(1, 1, 5, 5, 5), "float32"), "g": C(TIES3, "float32")}),
    # argument errors of the three ops MindSpore cannot run on CPU (its checks run before kernel selection)
    OC("depthwise_bad_stride", "ops.DepthwiseConv2dNative(1, 3, stride=(1, 2))", check="raises", jit=False),
    OC("depthwise_pad_without_mode", "ops.DepthwiseConv2dNative(1, 3, pad=1)", check="raises", jit=False),
    OC("depthwise_bad_mode", "ops.DepthwiseConv2dNative(1, 3, mode=1)", check="raises", jit=False),
    OC("depthwise_weight_batch", "ops.DepthwiseConv2dNative(1, 3)(x, w)", {"x": U(1, 2, 5, 5), "w": U(2, 2, 3, 3)},
       check="raises", match="DepthwiseConv2dNative.*weight"),
    OC("depthwise_channels", "ops.DepthwiseConv2dNative(1, 3)(x, w)", {"x": U(1, 2, 5, 5), "w": U(1, 3, 3, 3)},
       check="raises", match="DepthwiseConv2dNative"),
    OC("dilation2d_bad_stride", "ops.Dilation2D(256, 1)", check="raises", jit=False),
    OC("dilation2d_bad_pad_mode", "ops.Dilation2D(1, 1, 'full')", check="raises", jit=False),
    OC("dilation2d_bad_format", "ops.Dilation2D(1, 1, 'same', 'NHWC')", check="raises", jit=False),
    OC("dilation2d_bad_dilation", "ops.Dilation2D(1, 0)", check="raises", jit=False),
]
