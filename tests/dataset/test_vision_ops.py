"""Vision transforms beyond the fixed-value oracle: random ops, PIL inputs, multi-image ops and errors."""
import io

import numpy as np
import pytest
from PIL import Image

import sprout.dataset as ds
import sprout.dataset.vision as V
from sprout.dataset.vision import Inter

RGB = (np.arange(24 * 32 * 3) * 7 % 256).astype(np.uint8).reshape(24, 32, 3)


def jpeg_bytes(img=RGB, fmt="JPEG"):
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, fmt)
    return np.frombuffer(buf.getvalue(), np.uint8)


def test_decode_inputs_and_errors(tmp_path):
    data = jpeg_bytes(fmt="PNG")
    np.testing.assert_array_equal(V.Decode()(data), RGB)
    np.testing.assert_array_equal(V.Decode()(data.tobytes()), RGB)
    np.testing.assert_array_equal(V.Decode()(np.array([data.tobytes()])), RGB)  # MindDataset's bytes column
    pil = V.Decode(to_pil=True)(data)
    assert isinstance(pil, Image.Image) and pil.mode == "RGB"
    with pytest.raises(RuntimeError, match=r"Decode: cannot decode image data \(5 bytes"):
        V.Decode()(np.frombuffer(b"hello", np.uint8))
    with pytest.raises(ValueError, match="looks already decoded"):
        V.Decode()(RGB)
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(jpeg_bytes().tobytes()[:200])
    with pytest.raises(RuntimeError, match="Decode: cannot decode image file .*broken.jpg"):
        V.Decode()(V.read_file(str(bad)))


def test_read_image_modes(tmp_path):
    path = tmp_path / "a.png"
    Image.fromarray(RGB).save(path)
    assert V.read_file(str(path)).dtype == np.uint8
    assert V.read_image(str(path)).shape == (24, 32, 3)
    assert V.read_image(str(path), V.ImageReadMode.GRAYSCALE).shape == (24, 32, 1)
    Image.fromarray(RGB[:, :, 0]).save(tmp_path / "g.png")
    assert V.read_image(str(tmp_path / "g.png")).shape == (24, 32, 1)
    assert V.read_image(str(tmp_path / "g.png"), V.ImageReadMode.COLOR).shape == (24, 32, 3)
    assert V.get_image_size(RGB) == [24, 32] and V.get_image_num_channels(RGB) == 3


def test_pil_images_go_through_the_pil_path():
    pil = V.ToPIL()(RGB)
    assert isinstance(pil, Image.Image) and pil.size == (32, 24)
    out = V.Resize((12, 16))(pil)
    assert isinstance(out, Image.Image) and out.size == (16, 12)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(pil.resize((16, 12), Image.Resampling.BILINEAR)))
    assert isinstance(V.Resize(8, Inter.ANTIALIAS)(pil), Image.Image)
    flipped = V.RandomHorizontalFlip(1.0)(pil)
    np.testing.assert_array_equal(np.asarray(flipped), RGB[:, ::-1])
    chw = V.ToTensor()(pil)
    assert chw.shape == (3, 24, 32) and chw.dtype == np.float32 and chw.max() <= 1.0
    np.testing.assert_array_equal(V.ToNumpy()(pil), RGB)
    pipeline = V.RandomResizedCrop(10, scale=(0.5, 1.0))
    assert V.ToNumpy()(pipeline(pil)).shape == (10, 10, 3)


def test_random_resized_crop_and_decode_resize():
    ds.config.set_seed(3)
    for _ in range(20):
        out = V.RandomResizedCrop((8, 9), scale=(0.1, 0.5), ratio=(0.5, 2.0))(RGB)
        assert out.shape == (8, 9, 3) and out.dtype == np.uint8
    a, b = V.RandomResizedCrop(6)(RGB, RGB[:, :, 0])  # several columns share one box
    np.testing.assert_array_equal(a[:, :, 0], b)
    out = V.RandomCropDecodeResize((16, 16), interpolation=Inter.BICUBIC)(jpeg_bytes())
    assert out.shape == (16, 16, 3)
    # no box fits (all draws too large): MindSpore falls back to the centre with the aspect ratio clamped
    fallback = V.RandomResizedCrop((4, 4), scale=(5.0, 6.0), ratio=(1.0, 1.0))
    np.testing.assert_array_equal(fallback(RGB), V.Resize((4, 4))(RGB[:, 4:28]))
    with pytest.raises(ValueError, match="same height and width"):
        V.RandomResizedCrop(4)(RGB, RGB[:10])


def test_random_ops_draw_from_the_seed():
    def run():
        ds.config.set_seed(7)
        ops = [V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1), V.RandomRotation(30), V.RandomAffine(10, (0.1, 0.1)),
               V.RandomCrop(20, padding=2), V.CutOut(4, 2), V.RandomSharpness(), V.RandomPosterize((2, 6)),
               V.RandomSolarize((50, 200)), V.RandomLighting(0.1), V.RandomResize(16)]
        return [op(RGB) for op in ops]
    first, second = run(), run()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    assert first[0].shape == RGB.shape and first[9].shape == (16, 21, 3)
    assert not np.array_equal(first[0], RGB)


def test_color_adjust_single_values_and_identity():
    assert V.RandomColorAdjust(brightness=0.4).brightness == pytest.approx((0.6, 1.4))
    assert V.RandomColorAdjust(hue=0.2).hue == pytest.approx((-0.2, 0.2))
    np.testing.assert_array_equal(V.RandomColorAdjust()(RGB), RGB)
    with pytest.raises(ValueError, match=r"RandomColorAdjust: hue\[1\] must be in \[-0.5, 0.5\]"):
        V.RandomColorAdjust(hue=(0, 0.7))
    with pytest.raises(ValueError, match="AdjustContrast: expects an RGB image"):
        V.AdjustContrast(0.5)(RGB[:, :, 0])


def test_cutout_erase_and_random_erasing():
    ds.config.set_seed(0)
    out = V.CutOut(5, num_patches=1)(RGB)
    zeros = np.argwhere((out == 0).all(axis=2) & (RGB != 0).any(axis=2))
    assert len(zeros) == 25 and np.ptp(zeros[:, 0]) == 4 and np.ptp(zeros[:, 1]) == 4
    erased = V.Erase(2, 3, 4, 5, value=(1, 2, 3))(RGB)
    assert (erased[2:6, 3:8] == [1, 2, 3]).all() and (erased[:2] == RGB[:2]).all()
    chw = V.ToTensor()(RGB)
    assert np.array_equal(V.RandomErasing(prob=0.0)(chw), chw)
    got = V.RandomErasing(prob=1.0, value=0)(chw)
    assert got.shape == chw.shape and (got == 0).sum() > (chw == 0).sum()


def test_mixup_and_cutmix_batches():
    images = np.stack([np.full((8, 8, 3), v, np.uint8) for v in (0, 100, 200, 250)])
    labels = np.eye(4, dtype=np.float32)
    ds.config.set_seed(1)
    mixed, mixed_labels = V.MixUpBatch(1.0)(images, labels)
    assert mixed.shape == images.shape and mixed_labels.shape == (4, 4)
    np.testing.assert_allclose(mixed_labels.sum(axis=1), 1.0, rtol=1e-6)
    cut, cut_labels = V.CutMixBatch(V.ImageBatchFormat.NHWC, 1.0, 1.0)(images, labels)
    np.testing.assert_allclose(cut_labels.sum(axis=1), 1.0, rtol=1e-6)
    for i in range(4):  # each label weight equals the share of pixels taken from that image
        own = (cut[i, :, :, 0] == images[i, 0, 0, 0]).mean()
        assert cut_labels[i, i] == pytest.approx(own, abs=1e-6) or images[i, 0, 0, 0] in \
            [images[j, 0, 0, 0] for j in range(4) if j != i]
    with pytest.raises(ValueError, match="apply transforms.OneHot before batching"):
        V.MixUpBatch()(images, np.arange(4))


def test_five_and_ten_crop():
    crops = V.FiveCrop(10)(RGB)
    assert len(crops) == 5 and all(c.shape == (10, 10, 3) for c in crops)
    np.testing.assert_array_equal(crops[3], RGB[14:, 22:])
    ten = V.TenCrop((10, 12), use_vertical_flip=True)(RGB)
    assert len(ten) == 10
    np.testing.assert_array_equal(ten[5], RGB[::-1][:10, :12])


def test_errors_name_the_op():
    with pytest.raises(TypeError, match="Rotate: resample must be|Rotate: interpolation must be"):
        V.Rotate(10, resample="nearest")
    with pytest.raises(ValueError, match="Rotate: resample must be Inter.NEAREST, Inter.BILINEAR or Inter.BICUBIC"):
        V.Rotate(10, Inter.AREA)
    with pytest.raises(ValueError, match="Crop: the crop box .* exceeds"):
        V.Crop((20, 20), 10)(RGB)
    with pytest.raises(ValueError, match="Pad: padding must be"):
        V.Pad((1, 2, 3))
    with pytest.raises(ValueError, match="GaussianBlur: kernel_size values must be positive odd"):
        V.GaussianBlur(4)
    with pytest.raises(ValueError, match="Resize: expects an image of rank 2 or 3 .* decode it first"):
        V.Resize(4)(np.zeros(10, np.uint8))
    with pytest.raises(TypeError, match="Invert: expects a uint8 image"):
        V.Invert()(RGB.astype(np.float32))


def test_mindspore_1x_module_paths():
    from sprout.dataset.vision import c_transforms, py_transforms
    assert c_transforms.RandomCropDecodeResize is V.RandomCropDecodeResize
    assert py_transforms.ToTensor is V.ToTensor and py_transforms.Decode is V.Decode
