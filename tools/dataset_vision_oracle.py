"""Regenerate tests/dataset/fixtures/vision_mindspore.npz with real MindSpore 2.10:
    /work/msvenv/bin/python tools/dataset_vision_oracle.py

Each case is an expression over the names of ``mindspore.dataset.vision`` (evaluated the same way over
``sprout.dataset.vision`` by tests/dataset/test_vision_oracle.py) applied to one stored input image.
The file keeps the inputs, the case list (JSON) and MindSpore's outputs (or its error text)."""
import io
import json
import os
import sys

import numpy as np
from PIL import Image

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "dataset", "fixtures", "vision_mindspore.npz")


def make_inputs():
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:30, 0:40]
    rgb = np.stack([(x * 6) % 256, (y * 8) % 256, ((x + y) * 4) % 256], -1) + rng.normal(0, 20, (30, 40, 3))
    rgb = np.clip(rgb, 0, 255).astype(np.uint8)

    def encode(arr, fmt, **kw):
        buf = io.BytesIO()
        Image.fromarray(arr).save(buf, fmt, **kw)
        return np.frombuffer(buf.getvalue(), np.uint8)

    rgba = np.concatenate([rgb, (rgb[:, :, :1] // 2 + 100)], -1)
    return {
        "rgb": rgb,
        "gray": rgb[:, :, 1].copy(),
        "gray1": rgb[:, :, 1:2].copy(),
        "f32": (rgb.astype(np.float32) / 255.0),
        "rgba": rgba,
        "jpeg": encode(rgb, "JPEG", quality=90),
        "jpeg420": encode(rgb, "JPEG", quality=75, subsampling=2),
        "jpeg_gray": encode(rgb[:, :, 0], "JPEG", quality=90),
        "png": encode(rgb, "PNG"),
        "png_rgba": encode(rgba, "PNG"),
        "png_gray": encode(rgb[:, :, 2], "PNG"),
        "bmp": encode(rgb, "BMP"),
        "batch": np.stack([rgb, rgb[::-1], rgb[:, ::-1]]),
    }


# (name, expression, input)
CASES = [
    *[(f"decode_{k}", "Decode()", k) for k in ["jpeg", "jpeg420", "jpeg_gray", "png", "png_rgba", "png_gray", "bmp"]],
    *[(f"resize_{m}_{h}x{w}", f"Resize(({h}, {w}), Inter.{m})", "rgb")
      for m in ["NEAREST", "BILINEAR", "BICUBIC", "AREA"] for (h, w) in [(15, 20), (17, 23), (45, 61), (60, 80)]],
    *[(f"resize_{m}_{h}x{w}_f32", f"Resize(({h}, {w}), Inter.{m})", "f32")
      for m in ["NEAREST", "BILINEAR", "BICUBIC", "AREA"] for (h, w) in [(15, 20), (17, 23), (33, 47)]],
    *[(f"resize_PILCUBIC_{h}x{w}", f"Resize(({h}, {w}), Inter.PILCUBIC)", "rgb") for (h, w) in [(17, 23), (29, 41)]],
    ("resize_gray", "Resize((17, 23))", "gray"),
    ("resize_gray1", "Resize((17, 23))", "gray1"),
    ("resize_short_side", "Resize(21)", "rgb"),
    ("resize_short_side_tall", "Resize(13)", "gray"),
    ("center_crop", "CenterCrop((11, 17))", "rgb"),
    ("center_crop_pad", "CenterCrop(35)", "rgb"),
    ("crop", "Crop((5, 7), (10, 12))", "rgb"),
    ("crop_square", "Crop((3, 4), 9)", "gray"),
    ("pad_int", "Pad(3)", "rgb"),
    ("pad_pair", "Pad((2, 5))", "rgb"),
    ("pad_four_fill", "Pad((1, 2, 3, 4), fill_value=(255, 0, 9))", "rgb"),
    ("pad_edge", "Pad((1, 2, 3, 4), padding_mode=Border.EDGE)", "rgb"),
    ("pad_reflect", "Pad(3, padding_mode=Border.REFLECT)", "rgb"),
    ("pad_symmetric", "Pad(3, padding_mode=Border.SYMMETRIC)", "gray"),
    ("pad_to_size", "PadToSize((35, 50), offset=(2, 3), fill_value=7)", "rgb"),
    ("hflip", "HorizontalFlip()", "rgb"),
    ("vflip", "VerticalFlip()", "gray"),
    ("random_hflip_1", "RandomHorizontalFlip(1.0)", "rgb"),
    ("random_vflip_1", "RandomVerticalFlip(1.0)", "rgb"),
    ("resized_crop", "ResizedCrop(5, 7, 20, 24, (15, 18))", "rgb"),
    ("resized_crop_cubic", "ResizedCrop(2, 3, 25, 30, 40, Inter.BICUBIC)", "rgb"),
    ("random_resized_crop_full", "RandomResizedCrop((20, 25), scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3))", "rgb"),
    ("random_crop_decode_resize_full",
     "RandomCropDecodeResize((20, 25), scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3))", "jpeg"),
    ("random_crop_decode_resize_png",
     "RandomCropDecodeResize((20, 25), scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3))", "png"),
    *[(f"rotate_{n}", expr, src) for n, expr, src in [
        ("30", "Rotate(30)", "rgb"),
        ("30_linear", "Rotate(30, Inter.BILINEAR)", "rgb"),
        ("30_cubic", "Rotate(30, Inter.BICUBIC)", "rgb"),
        ("m45_expand", "Rotate(-45, expand=True)", "rgb"),
        ("20_center_fill", "Rotate(20, center=(10, 5), fill_value=(200, 100, 0))", "rgb"),
        ("90", "Rotate(90)", "rgb"),
        ("90_expand", "Rotate(90, expand=True)", "rgb"),
        ("gray_15", "Rotate(15, Inter.BILINEAR)", "gray"),
        ("f32_25", "Rotate(25, Inter.BILINEAR)", "f32"),
    ]],
    ("random_rotation_fixed", "RandomRotation((30, 30), Inter.BILINEAR)", "rgb"),
    ("affine", "Affine(degrees=15, translate=(0.1, -0.05), scale=1.2, shear=(5, 0))", "rgb"),
    ("affine_linear", "Affine(degrees=-10, translate=(0, 0), scale=0.9, shear=(0, 8), resample=Inter.BILINEAR)",
     "rgb"),
    ("brightness", "AdjustBrightness(1.5)", "rgb"),
    ("brightness_dark", "AdjustBrightness(0.35)", "rgb"),
    ("brightness_f32", "AdjustBrightness(1.5)", "f32"),
    ("contrast", "AdjustContrast(0.5)", "rgb"),
    ("contrast_high", "AdjustContrast(1.7)", "rgb"),
    ("contrast_f32", "AdjustContrast(0.5)", "f32"),
    ("saturation", "AdjustSaturation(0.3)", "rgb"),
    ("saturation_high", "AdjustSaturation(1.8)", "rgb"),
    ("saturation_f32", "AdjustSaturation(1.8)", "f32"),
    ("hue", "AdjustHue(0.2)", "rgb"),
    ("hue_neg", "AdjustHue(-0.3)", "rgb"),
    ("hue_half", "AdjustHue(0.5)", "rgb"),
    ("gamma", "AdjustGamma(0.5)", "rgb"),
    ("gamma_gain", "AdjustGamma(2.2, gain=1.1)", "rgb"),
    ("gamma_f32", "AdjustGamma(2.2, gain=1.1)", "f32"),
    ("gamma_gray", "AdjustGamma(0.7)", "gray"),
    ("color_adjust_brightness", "RandomColorAdjust(brightness=(1.3, 1.3))", "rgb"),
    ("color_adjust_contrast", "RandomColorAdjust(contrast=(0.6, 0.6))", "rgb"),
    ("color_adjust_saturation", "RandomColorAdjust(saturation=(1.5, 1.5))", "rgb"),
    ("color_adjust_hue", "RandomColorAdjust(hue=(0.1, 0.1))", "rgb"),
    ("color_adjust_none", "RandomColorAdjust()", "rgb"),
    ("grayscale", "Grayscale()", "rgb"),
    ("grayscale3", "Grayscale(3)", "rgb"),
    ("random_grayscale_1", "RandomGrayscale(1.0)", "rgb"),
    ("convert_rgb2gray", "ConvertColor(ConvertMode.COLOR_RGB2GRAY)", "rgb"),
    ("convert_bgr2gray", "ConvertColor(ConvertMode.COLOR_BGR2GRAY)", "rgb"),
    ("convert_bgr2rgb", "ConvertColor(ConvertMode.COLOR_BGR2RGB)", "rgb"),
    ("convert_rgba2gray", "ConvertColor(ConvertMode.COLOR_RGBA2GRAY)", "rgba"),
    ("convert_bgra2bgr", "ConvertColor(ConvertMode.COLOR_BGRA2BGR)", "rgba"),
    ("convert_gray2bgr", "ConvertColor(ConvertMode.COLOR_GRAY2BGR)", "gray"),
    ("convert_bgr2rgba", "ConvertColor(ConvertMode.COLOR_BGR2RGBA)", "rgb"),
    ("invert", "Invert()", "rgb"),
    ("auto_contrast", "AutoContrast()", "rgb"),
    ("auto_contrast_cutoff", "AutoContrast(cutoff=10.0, ignore=[0, 255])", "rgb"),
    ("auto_contrast_gray", "AutoContrast(cutoff=5.0)", "gray"),
    ("equalize", "Equalize()", "rgb"),
    ("equalize_gray", "Equalize()", "gray"),
    ("posterize", "Posterize(3)", "rgb"),
    ("solarize", "Solarize(128)", "rgb"),
    ("solarize_range", "Solarize((50, 180))", "rgb"),
    ("sharpness", "AdjustSharpness(2.0)", "rgb"),
    ("sharpness_blur", "AdjustSharpness(0.2)", "rgb"),
    ("gaussian_blur3", "GaussianBlur(3)", "rgb"),
    ("gaussian_blur5", "GaussianBlur((5, 3), (1.5, 0.8))", "rgb"),
    ("gaussian_blur_f32", "GaussianBlur(5, 1.2)", "f32"),
    ("normalize", "Normalize([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])", "rgb"),
    ("normalize_gray", "Normalize([121.0], [70.0])", "gray"),
    ("normalize_pad", "NormalizePad([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])", "rgb"),
    ("normalize_pad_f16", "NormalizePad([121.0, 115.0, 100.0], [70.0, 68.0, 71.0], dtype='float16')", "rgb"),
    ("rescale", "Rescale(1.0 / 255.0, -0.5)", "rgb"),
    ("hwc2chw", "HWC2CHW()", "rgb"),
    ("to_tensor", "ToTensor()", "rgb"),
    ("to_tensor_gray", "ToTensor()", "gray"),
    ("to_type", "ToType(np.int16)", "rgb"),
    ("linear_transformation", "LinearTransformation(np.eye(4, dtype=np.float32) * 2, np.ones(4, np.float32))",
     "hwc_small"),
]


def main():
    sys.path.insert(0, "")
    import mindspore.dataset.vision as vision
    from mindspore.dataset.vision import Border, ConvertMode, Inter

    inputs = make_inputs()
    inputs["hwc_small"] = np.arange(4, dtype=np.float32).reshape(4) / 3
    env = {name: getattr(vision, name) for name in dir(vision) if not name.startswith("_")}
    env.update(np=np, Inter=Inter, Border=Border, ConvertMode=ConvertMode)
    results, errors = {}, {}
    for name, expr, src in CASES:
        try:
            out = eval(expr, env)(inputs[src])  # noqa: S307 - the expressions are the fixed list above
            results["out_" + name] = np.asarray(out)
        except Exception as exc:  # noqa: BLE001 - MindSpore's error text is part of the fixture
            errors[name] = f"{type(exc).__name__}: {exc}"[:300]
    meta = json.dumps({"cases": CASES, "errors": errors})
    np.savez_compressed(OUT, meta=np.array(meta), **{"in_" + k: v for k, v in inputs.items()}, **results)
    print(f"wrote {len(results)} outputs, {len(errors)} errors to {OUT}")
    for k, v in errors.items():
        print("  ", k, v[:150])


if __name__ == "__main__":
    main()
