"""ops.deformable_conv2d against MindSpore 2.10's CPU kernels (DeformableOffsets + Conv2D): offsets that move taps
outside the image, deformable groups, conv groups, strides, padding, dilation, bias, and its argument errors."""
from . import OC, U


def _case(key, n, c, h, w, cout, k, s, p, d, groups=1, dg=1, bias=False, spread=1.5):
    oh = (h + p[0] + p[1] - (k[0] - 1) * d[0] - 1) // s[0] + 1
    ow = (w + p[2] + p[3] - (k[1] - 1) * d[1] - 1) // s[1] + 1
    inputs = {"x": U(n, c, h, w), "wt": U(cout, c // groups, *k),
              "off": U(n, 3 * dg * k[0] * k[1], oh, ow, lo=-spread, hi=spread)}
    args = f"x, wt, off, {k}, (1, 1, {s[0]}, {s[1]}), {p}"
    if bias:
        inputs["b"] = U(cout)
        args += ", b"
    args += f", dilations=(1, 1, {d[0]}, {d[1]}), groups={groups}, deformable_groups={dg}"
    return OC(key, f"ops.deformable_conv2d({args})", inputs, rtol=2e-5, atol=2e-5)


CASES = [
    _case("deform_basic", 1, 2, 5, 5, 2, (3, 3), (1, 1), (0, 0, 0, 0), (1, 1)),
    _case("deform_pad_stride", 2, 2, 6, 7, 3, (3, 2), (2, 1), (1, 1, 0, 1), (1, 1), bias=True, spread=3.0),
    _case("deform_dilation", 1, 3, 7, 6, 2, (2, 2), (1, 2), (0, 1, 1, 0), (2, 1)),
    _case("deform_groups", 1, 4, 5, 5, 4, (3, 3), (1, 1), (1, 1, 1, 1), (1, 1), groups=2, dg=2),
    OC("deform_v1", "ops.deformable_conv2d(x, wt, off, (3, 3), (1, 1, 1, 1), (0, 0, 0, 0), modulated=False)",
       {"x": U(1, 2, 5, 5), "wt": U(2, 2, 3, 3), "off": U(1, 27, 3, 3)}, check="raises", match="modulated"),
    OC("deform_bad_strides", "ops.deformable_conv2d(x, wt, off, (3, 3), (1, 1), (0, 0, 0, 0))",
       {"x": U(1, 2, 5, 5), "wt": U(2, 2, 3, 3), "off": U(1, 27, 3, 3)}, check="raises", match="strides"),
    OC("deform_bad_nc", "ops.deformable_conv2d(x, wt, off, (3, 3), (2, 1, 1, 1), (0, 0, 0, 0))",
       {"x": U(1, 2, 5, 5), "wt": U(2, 2, 3, 3), "off": U(1, 27, 3, 3)}, check="raises", match="strides"),
    OC("deform_list_kernel", "ops.deformable_conv2d(x, wt, off, 3, (1, 1, 1, 1), (0, 0, 0, 0))",
       {"x": U(1, 2, 5, 5), "wt": U(2, 2, 3, 3), "off": U(1, 27, 3, 3)}, check="raises", match="kernel_size"),
]
