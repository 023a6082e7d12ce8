"""Tensor construction, metadata, printing and promotion (expected text captured from MindSpore 2.10)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor


def test_construction_dtypes_follow_mindspore():
    assert Tensor([1, 2]).dtype == ms.int64
    assert Tensor([1.0, 2]).dtype == ms.float32
    assert Tensor(np.array([1.0, 2])).dtype == ms.float64
    assert Tensor(2).dtype == ms.int64
    assert Tensor(1.5).dtype == ms.float32
    assert Tensor(True).dtype == ms.bool_
    assert Tensor([1, 2], dtype=ms.float16).dtype == ms.float16
    assert Tensor(np.ones((2, 3)), ms.float32).shape == (2, 3)


def test_metadata_and_host_access():
    t = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert (t.shape, t.ndim, t.size) == ((2, 3), 2, 6)
    assert t.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert Tensor(3.5).item() == 3.5
    with pytest.raises(ValueError, match="one element"):
        t.item()
    assert isinstance(t.asnumpy(), np.ndarray)


def test_repr_matches_mindspore():
    assert repr(Tensor(np.ones(3, np.float32))) == \
        "Tensor(shape=[3], dtype=Float32, value= [ 1.00000000e+00,  1.00000000e+00,  1.00000000e+00])"
    assert repr(Tensor(np.arange(6).reshape(2, 3).astype(np.int32))) == \
        "Tensor(shape=[2, 3], dtype=Int32, value=\n[[0, 1, 2],\n [3, 4, 5]])"
    assert repr(Tensor(1.5)) == "Tensor(shape=[], dtype=Float32, value= 1.5)"
    assert repr(Tensor([True, False])) == "Tensor(shape=[2], dtype=Bool, value= [ True, False])"
    assert repr(Tensor(np.array([1.5, 2], np.float16))) == \
        "Tensor(shape=[2], dtype=Float16, value= [ 1.5000e+00,  2.0000e+00])"
    assert repr(Tensor(np.float64(1 / 3))) == "Tensor(shape=[], dtype=Float64, value= 0.333333)"
    assert repr(Tensor(np.ones((2, 2, 2), np.float32))) == (
        "Tensor(shape=[2, 2, 2], dtype=Float32, value=\n"
        "[[[ 1.00000000e+00,  1.00000000e+00],\n  [ 1.00000000e+00,  1.00000000e+00]],\n"
        " [[ 1.00000000e+00,  1.00000000e+00],\n  [ 1.00000000e+00,  1.00000000e+00]]])")
    assert repr(Tensor(np.array([np.nan, np.inf, -np.inf], np.float32))) == \
        "Tensor(shape=[3], dtype=Float32, value= [            nan,             inf,            -inf])"
    long = repr(Tensor(np.arange(2000).astype(np.float32)))
    assert long.endswith("2.00000000e+00 ...  1.99700000e+03,  1.99800000e+03,  1.99900000e+03])")


def test_str_is_numpy_text():
    assert str(Tensor(np.ones((2, 2), np.float32))) == "[[1. 1.]\n [1. 1.]]"
    assert str(Tensor(1.5)) == "1.5"


@pytest.mark.parametrize("a,b,expected", [
    (ms.int32, ms.float16, ms.float16), (ms.float32, ms.float64, ms.float64), (ms.bool_, ms.int8, ms.int8),
    (ms.uint8, ms.int8, ms.int16), (ms.int32, ms.int64, ms.int64), (ms.float16, ms.float32, ms.float32),
])
def test_tensor_tensor_promotion(a, b, expected):
    x = Tensor(np.ones(2), a)
    y = Tensor(np.ones(2), b)
    assert (x + y).dtype == expected
    assert (y * x).dtype == expected


def test_tensor_scalar_keeps_tensor_dtype():
    x = Tensor(np.array([1, 2], np.int32))
    assert (x + 1).dtype == ms.int32
    assert (x + 1.5).dtype == ms.float32
    assert (Tensor(np.ones(2, np.float16)) * 2.5).dtype == ms.float16
    assert (2 - Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [1.0, 1.0]
    assert (Tensor([True]) + 1).dtype == ms.int64


def test_parameter_is_a_tensor_with_a_name():
    p = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="w")
    assert isinstance(p, Tensor) and p.name == "w" and p.requires_grad
    p.set_data(Tensor(np.ones(3, np.float32)))
    assert p.asnumpy().tolist() == [1, 1, 1]
    with pytest.raises(ValueError, match="does not match"):
        p.set_data(Tensor(np.ones(4, np.float32)))
    assert repr(p) == "Parameter (name=w, shape=(3,), dtype=Float32, requires_grad=True)"


def test_context_flags_validate():
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    assert ms.get_context("mode") == ms.PYNATIVE_MODE
    with pytest.raises(ValueError, match="unknown context option"):
        ms.set_context(no_such_flag=1)
    with pytest.raises(ValueError, match="CPU only"):
        ms.set_context(device_target="GPU")


def test_unknown_dtype_is_a_clear_error():
    with pytest.raises(TypeError, match="unknown dtype"):
        Tensor([1, 2], dtype="complex_thing")


def test_sequences_of_numpy_scalars_follow_mindspore():
    assert Tensor([np.float64(1.0)]).dtype == ms.float32
    assert Tensor([np.array([1.0, 2.0])]).dtype == ms.float32
    assert Tensor([np.int32(1)]).dtype == ms.int64
    assert Tensor([Tensor(1.0), Tensor(2.0)]).dtype == ms.float32


def test_numpy_conversion_copy_protocol():
    """np.array(t, copy=True) is an array of its own (MindSpore 2.10 copies); np.asarray shares; copy=False refuses
    a conversion that must copy (NumPy 2's rule)."""
    t = ms.Tensor(np.ones(3, np.float32))
    a = np.array(t, copy=True)
    a[0] = 5
    assert t.asnumpy().tolist() == [1.0, 1.0, 1.0]
    assert np.shares_memory(np.asarray(t), t.asnumpy())
    with pytest.raises(ValueError, match="copy=False"):
        np.array(t, dtype=np.float64, copy=False)
    assert np.array(t, dtype=np.float64).dtype == np.float64
