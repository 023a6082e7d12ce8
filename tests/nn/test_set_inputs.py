"""Shape-only tensors (Tensor(shape=[None, 3], dtype)) and Cell.set_inputs: GRAPH_MODE calls are checked against
the declared inputs with MindSpore 2.10's exception types and messages; PyNative calls are not (as in MindSpore)."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn


class _Add(nn.Cell):
    def construct(self, x, y):
        return x + y


def _t(*shape, dtype=np.float32):
    return ms.Tensor(np.ones(shape, dtype))


def test_placeholder_declares_shape_and_dtype_only():
    t = ms.Tensor(shape=[None, 3], dtype=ms.float32)
    assert t.shape == (-1, 3) and t.dtype is ms.float32 and isinstance(t, ms.Tensor)
    assert ms.Tensor(shape=[-1, 3], dtype=ms.float32).shape == (-1, 3)
    assert ms.Tensor(shape=None, dtype=ms.int32).shape == (-2,)
    assert "shape=[-1, 3]" in repr(t)
    with pytest.raises(ValueError, match="shape-only placeholder"):
        t.asnumpy()
    with pytest.raises(ValueError, match="shape-only placeholder"):
        t + 1
    with pytest.raises(TypeError, match="give input_data, or shape and dtype"):
        ms.Tensor()


def test_graph_mode_checks_calls_against_set_inputs():
    net = _Add()
    net.set_inputs(ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(shape=[None, 3], dtype=ms.float32))
    assert net.get_inputs()[0].shape == (-1, 3)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert net(_t(2, 3), _t(2, 3)).shape == (2, 3) and net(_t(5, 3), _t(5, 3)).shape == (5, 3)
        with pytest.raises(ValueError, match="the dims of 1th input must be the same as expected, but got expected: 2, "
                                             "and input: 3!"):
            net(_t(2, 3, 1), _t(2, 3))
        with pytest.raises(ValueError, match="the shape of 2th input must be the same as expected, but got expected: "
                                             "3, and input: 4!"):
            net(_t(2, 3), _t(2, 4))
        with pytest.raises(TypeError, match="the 1th type should be Tensor\\[Float32\\], but got Tensor\\[Int32\\]!"):
            net(_t(2, 3, dtype=np.int32), _t(2, 3))
        ranked = _Add()
        ranked.set_inputs(ms.Tensor(shape=None, dtype=ms.float32), ms.Tensor(shape=[2, 3], dtype=ms.float32))
        assert ranked(_t(2, 3), _t(2, 3)).shape == (2, 3)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert net(_t(2, 4), _t(2, 4)).shape == (2, 4)  # PyNative: not checked, as in MindSpore
