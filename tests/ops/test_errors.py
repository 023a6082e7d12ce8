"""Bad inputs give one clear exception that names the op and the offending shapes/dtypes, raised from
sprout (never a NumPy traceback: no chained NumPy exception, no NumPy frame at the top)."""
import traceback

import numpy as np
import pytest

import sprout as ms
from sprout import ops
from sprout.core.op import OpError


def t(*shape, dtype=np.float32):
    return ms.Tensor(np.ones(shape, dtype))


def raised(fn, exc_type):
    with pytest.raises(exc_type) as info:
        fn()
    err = info.value
    assert err.__cause__ is None, f"chained cause leaks: {err.__cause__!r}"
    assert err.__suppress_context__ or err.__context__ is None, f"NumPy context leaks: {err.__context__!r}"
    last = traceback.extract_tb(err.__traceback__)[-1]
    assert "numpy" not in last.filename, f"raised from inside NumPy: {last.filename}"
    return str(err)


@pytest.mark.parametrize("fn", [lambda: ops.matmul(t(2, 3), t(4, 5)), lambda: t(2, 3) @ t(4, 5),
                                lambda: ops.MatMul()(t(2, 3), t(4, 5))])
def test_matmul_inner_dimensions(fn):
    msg = raised(fn, OpError)
    assert msg.startswith("MatMul:") and "[2, 3]" in msg and "[4, 5]" in msg


def test_matmul_transposed_mismatch_says_so():
    msg = raised(lambda: ops.matmul(t(2, 3), t(2, 3), transpose_b=False), OpError)
    assert "MatMul" in msg and "[2, 3]" in msg


@pytest.mark.parametrize("fn, target", [(lambda: ops.reshape(t(2, 3), (4, 2)), "[4, 2]"),
                                        (lambda: t(2, 3).reshape(5, -1), "[5, -1]"),
                                        (lambda: ops.reshape(t(2, 3), (-1, -1)), "-1")])
def test_reshape_to_incompatible_size(fn, target):
    msg = raised(fn, OpError)
    assert msg.startswith("Reshape:") and "[2, 3]" in msg and target in msg


@pytest.mark.parametrize("fn", [lambda: ms.Tensor([1.0], dtype="floaty"), lambda: ops.cast(t(2), "float33"),
                                lambda: t(2).astype(np.datetime64), lambda: ops.zeros((2,), "int3")])
def test_unknown_dtype(fn):
    msg = raised(fn, TypeError)
    assert "dtype" in msg and ("ms.float32" in msg or "float32" in msg)


@pytest.mark.parametrize("fn, needle", [(lambda: t(2, 3)[5], "index 5"), (lambda: t(2, 3)[0, 7], "index 7"),
                                        (lambda: t(2, 3)[ms.Tensor(np.array([0, 9]))], "9"),
                                        (lambda: ops.gather(t(2, 3), ms.Tensor(np.array([0, 9])), 1), "9")])
def test_index_out_of_range(fn, needle):
    msg = raised(fn, IndexError)
    assert needle in msg and ("GetItem" in msg or "Gather" in msg) and "[2, 3]" in msg or "2,3" in msg


@pytest.mark.parametrize("fn, op", [(lambda: ops.add(t(2), "a"), "Add"), (lambda: t(2) + None, "Add"),
                                    (lambda: ops.exp("abc"), "Exp"), (lambda: ops.reshape([1, 2], "x"), "Reshape"),
                                    (lambda: ops.one_hot(t(3), 4), "OneHot"),
                                    (lambda: ops.tile(t(2), 2), "tile"),
                                    (lambda: ops.softmax(t(2, dtype=np.int32)), "Softmax")])
def test_wrong_argument_type(fn, op):
    msg = raised(fn, TypeError)
    assert op in msg


@pytest.mark.parametrize("fn", [lambda: ops.conv2d(t(1, 3, 5, 5), t(2, 4, 3, 3)),
                                lambda: ops.Conv2D(2, 3)(t(1, 3, 5, 5), t(2, 4, 3, 3))])
def test_conv_with_wrong_channels(fn):
    msg = raised(fn, OpError)
    assert msg.startswith("Conv2D:") and "[1, 3, 5, 5]" in msg and "[2, 4, 3, 3]" in msg and "channels" in msg


def test_conv_kernel_larger_than_input():
    msg = raised(lambda: ops.conv2d(t(1, 1, 2, 2), t(1, 1, 3, 3)), OpError)
    assert "Conv2D" in msg and "[1, 1, 2, 2]" in msg


def test_conv_padding_needs_pad_mode():
    msg = raised(lambda: ops.conv2d(t(1, 1, 4, 4), t(1, 1, 3, 3), padding=1), ValueError)
    assert "pad_mode" in msg


def test_pool_kernel_larger_than_input():
    msg = raised(lambda: ops.max_pool2d(t(1, 1, 2, 2), 3), OpError)
    assert msg.startswith("MaxPool:") and "[1, 1, 2, 2]" in msg


@pytest.mark.parametrize("fn, op", [(lambda: ops.concat([t(2, 3), t(2, 2)], 0), "Concat"),
                                    (lambda: ops.cat((t(2, 3), t(3, 3)), 1), "Concat"),
                                    (lambda: ops.stack([t(2, 3), t(3, 2)]), "Stack")])
def test_concat_mismatched_shapes(fn, op):
    msg = raised(fn, OpError)
    assert msg.startswith(op + ":") and "[2, 3]" in msg


@pytest.mark.parametrize("fn, op, needle", [
    (lambda: t(2, 3) + t(4), "Add", "[4]"),
    (lambda: ops.where(t(2, 3) > 0, t(2, 3), t(5)), "Select", "[5]"),
    (lambda: ops.sum(t(2, 3), 3), "ReduceSum", "axis 3"),
    (lambda: ops.softmax(t(2, 3), 5), "Softmax", "axis 5"),
    (lambda: ops.transpose(t(2, 3), (0, 0)), "Transpose", "[0, 0]"),
    (lambda: ops.broadcast_to(t(2, 3), (4, 3)), "BroadcastTo", "[4, 3]"),
    (lambda: ops.assign(ms.Parameter(t(3), name="p"), t(2)), "Assign", "[2]"),
    (lambda: ops.topk(t(2, 3), 5), "TopK", "k=5"),
])
def test_other_shape_errors_name_the_op(fn, op, needle):
    msg = raised(fn, OpError)
    assert msg.startswith(op + ":") and needle in msg


def test_split_sections_must_cover_the_axis():
    msg = raised(lambda: ops.split(t(2, 3), [1, 1], 1), ValueError)
    assert "[1, 1]" in msg and "3" in msg


@pytest.mark.parametrize("value", [np.ones(3, np.float32), np.float32(2.0), 2.0, np.ones((1, 3), np.float32)])
def test_assign_does_not_broadcast(value):
    # MindSpore 2.10 raises ValueError for any value whose shape is not the variable's (eager skips the op's
    # shape rule, so NumPy used to broadcast these silently, where a jitted graph refused them)
    p = ms.Parameter(t(2, 3), name="p")
    for fn, op in ((ops.assign, "Assign"), (ops.assign_add, "AssignAdd"), (ops.assign_sub, "AssignSub")):
        msg = raised(lambda fn=fn: fn(p, ms.Tensor(value) if isinstance(value, np.ndarray) else value), OpError)
        assert msg.startswith(op + ":") and "[2, 3]" in msg
    np.testing.assert_array_equal(p.asnumpy(), t(2, 3).asnumpy())
