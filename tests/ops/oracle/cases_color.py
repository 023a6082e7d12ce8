"""Colour-space primitives (ops.RGBToHSV, HSVToRGB, AdjustHue, AdjustSaturation) on NHWC images in [0, 1], with
greys, black and white pixels (undefined hue) mixed in."""
import numpy as np

from . import OC, U, C

F32 = "Tensor(np.float32({}))".format


def _image(*shape, dtype="float32"):
    """Random colours with a grey, a black and a white pixel in the first row."""
    def make(rng):
        x = rng.uniform(0.0, 1.0, shape)
        flat = x.reshape(-1, 3)
        flat[0], flat[1], flat[2] = 0.4, 0.0, 1.0
        flat[3] = (0.8, 0.8, 0.2)  # two channels share the maximum
        return x.astype(dtype)
    return make


CASES = [
    OC("rgb_to_hsv", "ops.RGBToHSV()(x)", {"x": _image(2, 3, 4, 3)}),
    OC("rgb_to_hsv_2d", "ops.RGBToHSV()(x)", {"x": _image(5, 3)}),
    OC("rgb_to_hsv_float64", "ops.RGBToHSV()(x)", {"x": _image(1, 2, 3, 3, dtype="float64")}),
    OC("rgb_to_hsv_int", "ops.RGBToHSV()(x)", {"x": C(np.ones((2, 3)), "int32")}, check="raises"),
    OC("rgb_to_hsv_channels", "ops.RGBToHSV()(x)", {"x": U(2, 4)}, check="raises"),
    OC("hsv_to_rgb", "ops.HSVToRGB()(x)", {"x": U(2, 3, 4, 3, lo=0.0, hi=1.0)}),
    OC("hsv_to_rgb_round_trip", "ops.HSVToRGB()(ops.RGBToHSV()(x))", {"x": _image(1, 4, 4, 3)}),
    OC("hsv_to_rgb_rank", "ops.HSVToRGB()(x)", {"x": U(4, 3, lo=0.0, hi=1.0)}, check="raises"),
    OC("adjust_hue", f"ops.AdjustHue()(x, {F32(0.2)})", {"x": _image(2, 3, 4, 3)}),
    OC("adjust_hue_negative", f"ops.AdjustHue()(x, {F32(-0.7)})", {"x": _image(1, 3, 4, 3)}),
    OC("adjust_hue_float_delta", "ops.AdjustHue()(x, 0.2)", {"x": _image(1, 3, 4, 3)}, check="raises"),
    OC("adjust_saturation", f"ops.AdjustSaturation()(x, {F32(0.4)})", {"x": _image(2, 3, 4, 3)}),
    OC("adjust_saturation_clipped", f"ops.AdjustSaturation()(x, {F32(3.0)})", {"x": _image(1, 3, 4, 3)}),
    OC("adjust_saturation_rank", f"ops.AdjustSaturation()(x, {F32(0.4)})", {"x": _image(4, 3)}, check="raises"),
    OC("adjust_hue_rank", f"ops.AdjustHue()(x, {F32(0.2)})", {"x": _image(4, 3)}, check="raises"),
]
