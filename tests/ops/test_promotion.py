"""MindSpore 2.10's type promotion, as measured with the real MindSpore (CPU) and written down here."""
import numpy as np
import pytest

import sprout as ms
from sprout import ops

ORDER = ["bool_", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]

# result dtype of Tensor(row) + Tensor(column), captured from MindSpore 2.10
TENSOR_TENSOR = {
    "bool_":   ["bool_", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"],
    "uint8":   ["uint8", "uint8", "int16", "int16", "int32", "int64", "float16", "float32", "float64"],
    "int8":    ["int8", "int16", "int8", "int16", "int32", "int64", "float16", "float32", "float64"],
    "int16":   ["int16", "int16", "int16", "int16", "int32", "int64", "float16", "float32", "float64"],
    "int32":   ["int32", "int32", "int32", "int32", "int32", "int64", "float16", "float32", "float64"],
    "int64":   ["int64", "int64", "int64", "int64", "int64", "int64", "float16", "float32", "float64"],
    "float16": ["float16"] * 7 + ["float32", "float64"],
    "float32": ["float32"] * 8 + ["float64"],
    "float64": ["float64"] * 9,
}

# Tensor(dtype) op Python scalar (either side): (with True, with 1, with 1.0)
TENSOR_SCALAR = {
    "bool_": ("bool_", "int64", "float32"),
    **{name: (name, name, "float32") for name in ("uint8", "int8", "int16", "int32", "int64")},
    **{name: (name, name, name) for name in ("float16", "float32", "float64")},
}


def tensor(dtype_name, values=(1, 2)):
    return ms.Tensor(np.array(values), dtype=getattr(ms, dtype_name))


@pytest.mark.parametrize("a", ORDER)
def test_tensor_tensor_add(a):
    got = [str((tensor(a) + tensor(b)).dtype) for b in ORDER]
    assert got == [str(getattr(ms, n)) for n in TENSOR_TENSOR[a]]


@pytest.mark.parametrize("op", [ops.sub, ops.mul, ops.maximum, ops.minimum])
def test_other_binary_ops_promote_like_add(op):
    for a in ORDER[1:]:
        for b in ORDER[1:]:
            assert op(tensor(a), tensor(b)).dtype is getattr(ms, TENSOR_TENSOR[a][ORDER.index(b)])


@pytest.mark.parametrize("a", ORDER)
def test_tensor_scalar(a):
    for scalar, expected in zip((True, 1, 1.0), TENSOR_SCALAR[a]):
        want = getattr(ms, expected)
        assert (tensor(a) + scalar).dtype is want, (a, scalar)
        assert (scalar + tensor(a)).dtype is want, (scalar, a)


@pytest.mark.parametrize("a", ORDER)
def test_true_division(a):
    # any int or bool division (by a tensor or a scalar) gives float32; floats keep their width
    want = getattr(ms, a) if a.startswith("float") else ms.float32
    assert (tensor(a) / 2).dtype is want
    assert (tensor(a) / tensor(a)).dtype is want


def test_mixed_division_takes_the_float_side():
    assert (tensor("int32") / tensor("float16")).dtype is ms.float16


def test_int_scalar_keeps_int_and_bool_widens():
    assert (tensor("bool_") * 2).dtype is ms.int64
    assert (tensor("int8") * 2).dtype is ms.int8
    assert (tensor("int32") // 2).dtype is ms.int32
    assert (tensor("int32") % 2.5).dtype is ms.float32
    assert ops.mul(tensor("int32"), 2.5).dtype is ms.float32
    assert ops.add(2, tensor("float16")).dtype is ms.float16
    assert (2.0 ** tensor("int32")).dtype is ms.float32


def test_numpy_scalars_act_as_python_numbers():
    assert (tensor("int32") + np.float64(1.5)).dtype is ms.float32
    assert (tensor("int32") + np.int64(1)).dtype is ms.int32
    assert (tensor("float16") + np.float64(1.5)).dtype is ms.float16


def test_comparison_and_select():
    assert (tensor("int32") < tensor("float16")).dtype is ms.bool_
    assert ops.where(tensor("bool_", (True, False)), tensor("int32"), tensor("float32")).dtype is ms.float32
    assert ops.where(tensor("bool_", (True, False)), tensor("int32"), 2.5).dtype is ms.float32


def test_concat_promotes_its_inputs():
    assert ops.concat([tensor("int64"), tensor("float32")]).dtype is ms.float32
    assert ops.concat([tensor("float32"), tensor("float64")]).dtype is ms.float64


def test_scalar_tensor_construction():
    assert ms.Tensor(2).dtype is ms.int64
    assert ms.Tensor(2.5).dtype is ms.float32
    assert ms.Tensor(True).dtype is ms.bool_
    assert ms.Tensor([1, 2]).dtype is ms.int64
    assert ms.Tensor([1.0, 2]).dtype is ms.float32
    assert ms.Tensor(np.array([1.0, 2])).dtype is ms.float64
    assert ms.Tensor(np.float64(2.5)).dtype is ms.float64


def test_reduction_result_dtypes():
    xi = tensor("int32", [[1, 5, 3], [4, 2, 6]])
    assert ops.sum(xi).dtype is ms.int64 and xi.sum().dtype is ms.int64
    assert ops.sum(tensor("bool_", [True, True])).dtype is ms.int64
    assert ops.ReduceSum()(xi).dtype is ms.int32  # the primitive keeps the input dtype
    assert ops.prod(xi).dtype is ms.int64
    assert ops.mean(xi).dtype is ms.int32 and ops.mean(xi).item() == 3  # truncated 3.5
    assert ops.sum(tensor("float16")).dtype is ms.float16
    assert ops.argmax(xi).dtype is ms.int64 and ops.argmin(xi).dtype is ms.int32
    assert ops.Argmax()(xi).dtype is ms.int32
    assert ops.max(xi, 1)[1].dtype is ms.int64
    assert ops.sort(xi)[1].dtype is ms.int32 and ops.topk(xi, 2)[1].dtype is ms.int32
    assert ops.one_hot(ms.Tensor(np.array([0, 2])), 3).dtype is ms.int64
    assert ops.arange(5).dtype is ms.int64 and ops.arange(0, 1, 0.5).dtype is ms.float32
    assert ops.sqrt(xi).dtype is ms.float32
