"""transforms and vision: values and dtypes as MindSpore produces them."""
import numpy as np
import pytest

import sprout.dataset as ds
import sprout.dataset.transforms as T
import sprout.dataset.vision as V
from sprout.dataset.transforms import c_transforms
from sprout.dataset.vision import c_transforms as vc_transforms
from sprout.dataset.vision import py_transforms as vpy_transforms

from .helpers import rows

IMG = np.arange(2 * 4 * 4 * 3, dtype=np.uint8).reshape(2, 4, 4, 3)


def images(data):
    return ds.NumpySlicesDataset({"x": data}, shuffle=False)


def test_hwc2chw():
    d = images(IMG).map(V.HWC2CHW())
    assert d.output_shapes() == [[3, 4, 4]] and d.output_types() == [np.uint8]
    first = next(d.create_tuple_iterator(output_numpy=True))[0]
    np.testing.assert_array_equal(first, IMG[0].transpose(2, 0, 1))
    assert V.HWC2CHW()(np.ones((2, 3), np.uint8)).shape == (2, 3)
    with pytest.raises(ValueError, match="HWC2CHW: expects an image of rank 2 or 3"):
        V.HWC2CHW()(np.ones((1, 2, 3, 4)))


def test_rescale():
    assert images(IMG).map(V.Rescale(1 / 255.0, -0.5)).output_types() == [np.float32]
    out = V.Rescale(1 / 255.0, -0.5)(IMG[0])
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, IMG[0] / 255.0 - 0.5, rtol=1e-6, atol=1e-7)
    assert out[0, 0].tolist() == [-0.5, np.float32(-0.4960784316062927), np.float32(-0.49215686321258545)]
    with pytest.raises(TypeError, match="Rescale: rescale must be a number"):
        V.Rescale("2", 0)


def test_normalize_hwc_chw_and_gray():
    out = V.Normalize([10, 20, 30], [2, 4, 8])(IMG[0, :1, :2])
    assert out.dtype == np.float32
    assert out.tolist() == [[[-5.0, -4.75, -3.5], [-3.5, -4.0, -3.125]]]
    chw = V.Normalize([10, 20, 30], [2, 4, 8], is_hwc=False)(IMG[0, :3, :1, :2])
    assert chw.tolist() == [[[-5.0, -4.5]], [[-2.0, -1.75]], [[-0.75, -0.625]]]
    assert V.Normalize([1.0], [2.0])(np.ones((2, 2), np.uint8)).tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_normalize_errors():
    with pytest.raises(ValueError, match="Normalize: std\\[0\\] must be in \\(0, 255\\]"):
        V.Normalize([1.0], [0.0])
    with pytest.raises(ValueError, match="Normalize: mean and std must have the same length"):
        V.Normalize([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="Normalize: mean\\[0\\] must be in \\[0, 255\\]"):
        V.Normalize([300.0], [1.0])
    with pytest.raises(ValueError, match="Normalize: 3 mean/std values for an image with 2 channels"):
        V.Normalize([1, 2, 3], [2, 2, 2])(np.ones((2, 2, 2), np.uint8))


def test_to_tensor_matches_mindspore_rounding():
    out = V.ToTensor()(IMG[0, :1, :2])
    assert out.shape == (3, 1, 2) and out.dtype == np.float32
    # MindSpore multiplies by float32(1/255); 3/255 then rounds up to 0.011764707
    assert out[0, 0].tolist() == [0.0, np.float32(0.011764707043766975)]
    assert V.ToTensor()(np.full((2, 2), 255, np.uint8)).shape == (1, 2, 2)
    assert V.ToTensor(np.float64)(np.full((2, 2, 3), 255, np.uint8)).dtype == np.float64


def test_one_hot():
    d = ds.NumpySlicesDataset({"x": np.array([1, 3, 0])}, shuffle=False).map(T.OneHot(4))
    assert rows(d) == [[[0, 1, 0, 0]], [[0, 0, 0, 1]], [[1, 0, 0, 0]]]
    assert T.OneHot(4)(np.array(1, np.uint32)).dtype == np.uint32
    batched = ds.NumpySlicesDataset({"x": np.array([1, 3, 0])}, shuffle=False).batch(2).map(T.OneHot(4))
    assert rows(batched)[0] == [[[0, 1, 0, 0], [0, 0, 0, 1]]]
    smooth = T.OneHot(4, smoothing_rate=0.2)(np.array(1))
    np.testing.assert_allclose(smooth, [0.05, 0.85, 0.05, 0.05])
    with pytest.raises(ValueError, match=r"OneHot: labels must be in \[0, 4\)"):
        T.OneHot(4)(np.array(5))
    with pytest.raises(TypeError, match="OneHot: labels must be integers"):
        T.OneHot(4)(np.array(1.0))
    with pytest.raises(ValueError, match="OneHot: num_classes must be in"):
        T.OneHot(0)


def test_type_cast_accepts_sprout_and_numpy_dtypes():
    d = ds.NumpySlicesDataset({"x": np.array([1.7, -3.2])}, shuffle=False).map(T.TypeCast(np.int32))
    assert d.output_types() == [np.int32] and rows(d) == [[1], [-3]]
    assert T.TypeCast("float16")(np.array([1.5])).dtype == np.float16
    mstype = pytest.importorskip("sprout.dtype")
    assert T.TypeCast(mstype.int32)(np.array([1.5])).dtype == np.int32
    with pytest.raises(TypeError, match="TypeCast: 'nonsense' is not a data type"):
        T.TypeCast("nonsense")


def test_compose_duplicate_fill():
    composed = T.Compose([V.Rescale(2.0, 0.5), T.TypeCast(np.float16)])
    d = ds.NumpySlicesDataset({"x": np.array([1, 2], np.uint8)}, shuffle=False).map(composed)
    assert rows(d) == [[2.5], [4.5]] and d.output_types() == [np.float16]
    d = ds.NumpySlicesDataset({"x": np.array([1, 2])}, shuffle=False).map(T.Duplicate(), ["x"], ["x", "y"])
    assert rows(d) == [[1, 1], [2, 2]]
    d = ds.NumpySlicesDataset({"x": np.array([1.5, 2])}, shuffle=False).map(T.Fill(7))
    assert rows(d) == [[7.0], [7.0]] and d.output_types() == [np.float64]
    with pytest.raises(ValueError, match="Compose: transforms must be a non-empty list"):
        T.Compose([])


def test_old_module_paths():
    assert c_transforms.OneHot is T.OneHot and c_transforms.TypeCast is T.TypeCast
    assert vc_transforms.Normalize is V.Normalize and vc_transforms.HWC2CHW is V.HWC2CHW
    assert vpy_transforms.ToTensor is V.ToTensor
