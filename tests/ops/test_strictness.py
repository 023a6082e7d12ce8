"""Misuses MindSpore 2.10 lets through with a wrong or meaningless result, which sprout refuses (correctness
first). Each row: the call, the exception sprout raises, a regex its message matches (the op and the bad
argument), and what MindSpore does instead. The misuses MindSpore rejects too are the oracle corpus
``oracle/cases_strict.py`` (checked eagerly and under jit)."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops


def _ints(*v):
    return Tensor(np.array(v, np.int32))


X = Tensor(np.ones((2, 3), np.float32))
LOGP = Tensor(np.array([[-0.5, -1.2, -2.0], [-0.1, -3.0, -1.0]], np.float32))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d = nn.Dense(3, 2)

    def construct(self, a):
        return self.d(a)


def _jit_unknown_option():
    def f(a):
        return a

    return ms.jit(f, bogus_option=1)(X)


CASES = [
    # (id, call, exception, message regex, MindSpore 2.10 on CPU)
    ("floor_div_int_zero", lambda: ops.floor_div(_ints(4, -6), _ints(0, 1)), RuntimeError,
     "FloorDiv: integer division by zero", "returns INT_MAX / INT_MIN"),
    ("operator_floordiv_int_zero", lambda: _ints(4, -6) // 0, RuntimeError, "FloorDiv.*zero", "INT_MAX / INT_MIN"),
    ("floor_mod_int_zero", lambda: ops.floor_mod(_ints(4, -6), _ints(0, 0)), RuntimeError,
     "FloorMod: integer division by zero", "returns INT_MIN"),
    ("operator_mod_int_zero", lambda: _ints(4) % _ints(0), RuntimeError, "FloorMod.*zero", "returns INT_MIN"),
    ("div_trunc_int_zero", lambda: ops.div(_ints(4), _ints(0), rounding_mode="trunc"), RuntimeError,
     "TruncateDiv.*zero", "returns INT_MIN"),
    ("div_floor_int_zero", lambda: ops.div(_ints(4), _ints(0), rounding_mode="floor"), RuntimeError,
     "FloorDiv.*zero", "returns INT_MAX"),
    ("cummax_axis", lambda: ops.cummax(X, 5), ValueError, "Cummax.*axis 5",
     "no error at the call: a later op reports the bad axis (asynchronous kernel error)"),
    ("gather_elements_axis", lambda: ops.gather_elements(X, 5, _ints(0).reshape(1, 1)), ValueError,
     "GatherD.*axis 5", "no error at the call (asynchronous kernel error)"),
    ("diagonal_axis", lambda: ops.diagonal(X, 0, 5, 0), ValueError, "diagonal.*axis 5",
     "ValueError, but from the asynchronous error of an earlier op"),
    ("tensor_int8_overflow", lambda: Tensor([300], ms.int8), ValueError, "300.*Int8", "wraps to 44"),
    ("tensor_uint8_negative", lambda: Tensor([-1], ms.uint8), ValueError, "-1.*UInt8", "wraps to 255"),
    ("normal_negative_std_tensor", lambda: ops.normal((3,), Tensor(0.0), Tensor(-1.0)), ValueError,
     "normal: stddev", "samples anyway"),
    ("sparse_ce_label", lambda: ops.SparseSoftmaxCrossEntropyWithLogits()(X, _ints(0, 7)), RuntimeError,
     "label 7.*3", "returns a loss"),
    ("sparse_ce_grad_label", lambda: ops.SparseSoftmaxCrossEntropyWithLogits(True)(X, _ints(0, 7)), RuntimeError,
     "SparseSoftmaxCrossEntropyWithLogits: target label 7", "returns a gradient"),
    ("nll_loss_negative_label", lambda: ops.nll_loss(LOGP, _ints(0, -3)), RuntimeError, "nll_loss.*label -3",
     "returns a loss"),
    ("set_train_str", lambda: Net().set_train("yes"), TypeError, "set_train.*'yes'", "stores 'yes' as training"),
    ("set_train_int", lambda: Net().set_train(1), TypeError, "set_train.*1", "stores 1 as training"),
    ("load_param_str_value", lambda: ms.load_param_into_net(Net(), {"d.weight": "abc"}), TypeError,
     "load_param_into_net.*'d.weight'.*str", "skips it: the parameter stays unloaded and unreported"),
    ("jit_unknown_option", _jit_unknown_option, TypeError, "jit: unknown option.*bogus_option", "ignores it"),
    ("tile_beyond_memory", lambda: ops.tile(X, (100000, 100000, 100000)), MemoryError, "Tile.*GiB",
     "fails when the result is read (allocation error at exit)"),
    ("zeros_beyond_memory", lambda: ops.zeros((10**7, 10**7)), MemoryError, "Fill.*GiB", "allocation error"),
    ("train_one_step_no_optimizer", lambda: nn.TrainOneStepCell(Net(), None), TypeError,
     "TrainOneStepCell: optimizer.*NoneType", "AttributeError: 'NoneType' object has no attribute 'parameters'"),
    ("train_one_step_no_network", lambda: nn.TrainOneStepCell(None, nn.SGD(Net().trainable_params())), TypeError,
     "TrainOneStepCell: network.*NoneType", "AttributeError: 'NoneType' object has no attribute 'set_grad'"),
]


@pytest.mark.parametrize("call, exc, match", [c[1:4] for c in CASES], ids=[c[0] for c in CASES])
def test_refused_where_mindspore_is_silent(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_value_checks_under_jit(mode):
    """The value-dependent checks live in the kernels, so a compiled graph refuses alike."""
    def div(a, b):
        return a // b

    def loss(x, y):
        return ops.cross_entropy(x, y)

    jit = (lambda f: ms.jit(f, capture_mode="bytecode")) if mode == "bytecode" else ms.jit
    with pytest.raises(RuntimeError, match="FloorDiv"):
        jit(div)(_ints(4, 5), _ints(1, 0))
    with pytest.raises(RuntimeError, match="label 7"):
        jit(loss)(X, _ints(0, 7))
    np.testing.assert_array_equal(jit(div)(_ints(4, 5), _ints(2, 2)).asnumpy(), [2, 2])


def test_valid_neighbours_still_work():
    """The checks refuse only the misuse: the nearby valid calls give their results."""
    assert Tensor([127, -128], ms.int8).asnumpy().tolist() == [127, -128]
    assert Tensor([1.5], ms.int32).asnumpy().tolist() == [1]  # a float value cast to int: truncated, as MindSpore
    assert Tensor(np.array([300]), ms.int8).dtype == ms.int8  # from an array: NumPy's cast (wraps), as MindSpore
    np.testing.assert_allclose((Tensor([4.0]) // 0).asnumpy(), [np.inf])  # floats follow IEEE
    assert ops.nll_loss(LOGP, _ints(0, -100)).shape == ()  # ignore_index is not a bad label
    assert ops.squeeze(X, 0).shape == (2, 3)  # a non-1 axis is left alone, as MindSpore 2.x
    p = ms.Parameter(X, name="a")
    assert len(ms.ParameterTuple([p, p])) == 2  # one Parameter twice is not a name clash (MindSpore agrees)
    Net().set_train(np.bool_(True))
