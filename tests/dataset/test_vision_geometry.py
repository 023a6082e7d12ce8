"""Resize, CenterCrop, RandomCrop and flips (reference values from MindSpore's own transforms)."""
import numpy as np
import pytest

import sprout.dataset as ds
import sprout.dataset.vision as V
from sprout.dataset.vision import Inter

from .helpers import rows

GRAY = (np.arange(16) * 37 % 256).reshape(4, 4).astype(np.uint8)
IMG = np.arange(5 * 6 * 3, dtype=np.uint8).reshape(5, 6, 3)


def test_resize_linear_uint8_within_one_of_mindspore():
    assert V.Resize((2, 2))(GRAY).tolist() == [[93, 103], [133, 79]]
    mindspore = [[0, 26, 55, 85, 111], [74, 100, 130, 121, 57], [130, 156, 185, 151, 28],
                 [58, 84, 113, 130, 126], [114, 140, 106, 71, 97], [188, 214, 115, 17, 43]]
    got = V.Resize((6, 5))(GRAY)
    assert got.dtype == np.uint8 and np.abs(got.astype(int) - mindspore).max() <= 1


def test_resize_nearest_and_float():
    assert V.Resize((6, 5), Inter.NEAREST)(GRAY).tolist() == [
        [0, 0, 37, 74, 111], [0, 0, 37, 74, 111], [148, 148, 185, 222, 3], [40, 40, 77, 114, 151],
        [40, 40, 77, 114, 151], [188, 188, 225, 6, 43]]
    got = V.Resize((3, 6))(GRAY.astype(np.float32) / 7)
    mindspore_row0 = [3.5238094, 6.1666665, 9.690475, 13.214285, 13.690475, 13.285713]
    assert got.dtype == np.float32
    np.testing.assert_allclose(got[0], mindspore_row0, rtol=1e-6)


def test_resize_shapes():
    assert V.Resize(10)(np.zeros((7, 5, 3), np.uint8)).shape == (14, 10, 3)  # shorter side to 10
    assert V.Resize((3, 8))(np.zeros((6, 4, 1), np.uint8)).shape == (3, 8, 1)
    d = ds.NumpySlicesDataset({"image": np.zeros((2, 28, 28, 1), np.uint8)}, shuffle=False)
    assert d.map(V.Resize((32, 32), interpolation=Inter.LINEAR)).output_shapes() == [[32, 32, 1]]
    with pytest.raises(TypeError, match="Resize: size must be an int or a"):
        V.Resize([2])
    with pytest.raises(TypeError, match="Resize: Inter.ANTIALIAS needs a PIL image"):
        V.Resize(3, Inter.ANTIALIAS)(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ValueError, match="Inter.PILCUBIC supports uint8 images with 3 channels only"):
        V.Resize(3, Inter.PILCUBIC)(np.zeros((4, 4), np.uint8))


def test_center_crop_rounds_offsets_down_and_pads():
    assert V.CenterCrop(3)(IMG)[:, :, 0].tolist() == [[21, 24, 27], [39, 42, 45], [57, 60, 63]]
    assert V.CenterCrop((2, 5))(IMG)[:, :, 0].tolist() == [[18, 21, 24, 27, 30], [36, 39, 42, 45, 48]]
    padded = V.CenterCrop(8)(IMG)[:, :, 0]
    assert padded.shape == (8, 8) and padded[2].tolist() == [0, 0, 3, 6, 9, 12, 15, 0]
    assert padded[:2].sum() == 0 and padded[7].sum() == 0


def test_flips():
    assert V.RandomHorizontalFlip(1.0)(IMG)[0, :, 0].tolist() == [15, 12, 9, 6, 3, 0]
    assert V.RandomVerticalFlip(1.0)(IMG)[:, 0, 0].tolist() == [72, 54, 36, 18, 0]
    assert V.RandomHorizontalFlip(0.0)(IMG) is not None and (V.RandomHorizontalFlip(0.0)(IMG) == IMG).all()


def test_random_crop():
    crop = V.RandomCrop(4)(IMG)
    assert crop.shape == (4, 4, 3)
    top, left = divmod(int(crop[0, 0, 0]) // 3, 6)
    np.testing.assert_array_equal(crop, IMG[top:top + 4, left:left + 4])
    assert V.RandomCrop((5, 6), padding=2)(IMG).shape == (5, 6, 3)
    assert V.RandomCrop((7, 7), pad_if_needed=True)(IMG).shape == (7, 7, 3)
    filled = V.RandomCrop((9, 10), padding=2, fill_value=(9, 9, 9))(IMG)
    assert (filled[0] == 9).all() and (filled[2:7, 2:8] == IMG).all()
    with pytest.raises(ValueError, match="RandomCrop: crop size .* is larger than the"):
        V.RandomCrop((7, 7))(IMG)


def test_random_ops_follow_the_dataset_seed():
    def flips():
        ds.config.set_seed(21)
        d = ds.NumpySlicesDataset({"x": np.tile(IMG[None], (8, 1, 1, 1))}, shuffle=False)
        return [r[0][0][0][0] for r in rows(d.map(V.RandomHorizontalFlip(0.5)))]

    first = flips()
    assert set(first) == {0, 15}
    assert flips() == first
