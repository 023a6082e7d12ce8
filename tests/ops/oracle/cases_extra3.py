"""DeformableOffsets, FractionalMaxPoolWithFixedKsize, FractionalMaxPool3DWithFixedKsize and ExtractVolumePatches
against MindSpore 2.10's CPU kernels (sprout: ops/classes_extra3.py over the deformable_conv2d, nn fractional pooling
and patch composites)."""
from . import OC, U


def _distinct(*shape):
    import numpy as np

    n = int(np.prod(shape))
    return lambda rng: (rng.permutation(n) * 0.25 - n * 0.1).reshape(shape).astype("float32")


CASES = [
    OC("deformable_offsets", "ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2))(x, off)",
       {"x": U(1, 2, 7, 7), "off": U(1, 12, 6, 6, lo=-1.5, hi=1.5)}, rtol=2e-5, atol=2e-5),
    OC("deformable_offsets_groups", "ops.DeformableOffsets((1, 1, 2, 1), (1, 0, 1, 1), (3, 2), (1, 1, 1, 2), "
       "'NCHW', 2)(x, off)", {"x": U(2, 4, 7, 6), "off": U(2, 36, 3, 6, lo=-2, hi=2)}, rtol=2e-5, atol=2e-5),
    OC("deformable_offsets_bad_strides", "ops.DeformableOffsets((2, 1, 1, 1), (0, 0, 0, 0), (2, 2))", check="raises",
       jit=False),
    OC("deformable_offsets_v1", "ops.DeformableOffsets((1, 1, 1, 1), (0, 0, 0, 0), (2, 2), modulated=False)",
       check="raises", jit=False),
    OC("frac_fixed_2d", "ops.FractionalMaxPoolWithFixedKsize((2, 2), (3, 3))(x, s)",
       {"x": _distinct(2, 2, 7, 8), "s": U(2, 2, 2, lo=0, hi=1)}),
    OC("frac_fixed_2d_int", "ops.FractionalMaxPoolWithFixedKsize(3, 4)(x, s)",
       {"x": lambda rng: _distinct(1, 3, 9, 9)(rng).astype("int32"), "s": U(1, 3, 2, lo=0, hi=1)}),
    OC("frac_fixed_3d", "ops.FractionalMaxPool3DWithFixedKsize((2, 1, 2), (3, 4, 2))(x, s)",
       {"x": _distinct(1, 2, 6, 5, 6), "s": U(1, 2, 3, lo=0, hi=1)}),
    OC("frac_fixed_too_big", "ops.FractionalMaxPoolWithFixedKsize(3, 6)(x, s)",
       {"x": U(1, 1, 7, 7), "s": U(1, 1, 2, lo=0, hi=1)}, check="raises", match="FractionalMaxPoolWithFixedKsize"),
    OC("frac_fixed_bad_samples", "ops.FractionalMaxPoolWithFixedKsize(2, 3)(x, s)",
       {"x": U(1, 2, 7, 7), "s": U(1, 2, 3, lo=0, hi=1)}, check="raises", match="random_samples"),
    OC("volume_patches", "ops.ExtractVolumePatches((1, 1, 2, 2, 2), (1, 1, 1, 1, 1), 'VALID')(x)",
       {"x": U(1, 2, 4, 4, 3)}),
    OC("volume_patches_same", "ops.ExtractVolumePatches((1, 1, 3, 2, 2), (1, 1, 2, 1, 2), 'SAME')(x)",
       {"x": U(2, 2, 5, 4, 5)}),
    OC("volume_patches_bad_padding", "ops.ExtractVolumePatches(2, 1, 'FULL')", check="raises", jit=False),
]
