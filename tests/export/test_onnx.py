"""ONNX export of sprout's optimized graph, checked with onnxruntime."""
import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops

from ._nets import NAMES, as_tuple, build

ort = pytest.importorskip("onnxruntime")
onnx = pytest.importorskip("onnx")


def _run(path, xs):
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    return sess, sess.run(None, {i.name: x.asnumpy() for i, x in zip(sess.get_inputs(), xs)})


@pytest.mark.parametrize("name", NAMES)
def test_onnx_matches_sprout(name, tmp_path):
    net, xs = build(ms, name)
    want = [y.asnumpy() for y in as_tuple(net(*xs))]
    path = ms.export(net, *xs, file_name=str(tmp_path / name), file_format="ONNX")
    assert path.endswith(".onnx")
    sess, got = _run(path, xs)
    assert len(got) == len(want)
    for g, y in zip(got, want):
        np.testing.assert_allclose(g, y, rtol=1e-5, atol=1e-6)
    onnx.checker.check_model(onnx.load(path))


def test_onnx_export_options(tmp_path):
    net, xs = build(ms, "lenet")
    path = ms.onnx.export(net, *xs, file_name=str(tmp_path / "l.onnx"), input_names=["image"],
                          output_names=["logits"], keep_initializers_as_inputs=True)
    model = onnx.load(path)
    names = [i.name for i in model.graph.input]
    assert names[0] == "image" and "conv1.weight" in names and model.graph.output[0].name == "logits"
    assert {i.name for i in model.graph.initializer} >= {"conv1.weight", "fc3.bias"}
    sess, got = _run(path, xs)
    np.testing.assert_allclose(got[0], net(*xs).asnumpy(), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="input_names"):
        ms.onnx.export(net, *xs, file_name=str(tmp_path / "x"), input_names="image")
    with pytest.raises(NotImplementedError, match="dynamic_axes"):
        ms.onnx.export(net, *xs, file_name=str(tmp_path / "x"), dynamic_axes={"x": {0: "batch"}})


def test_op_without_mapping_is_named(tmp_path):
    class Cum(nn.Cell):
        def construct(self, x):
            return ops.cumsum(x, 0) + 1

    with pytest.raises(NotImplementedError, match="'CumSum' has no ONNX mapping"):
        ms.export(Cum(), Tensor(np.ones((2, 3), np.float32)), file_name=str(tmp_path / "c"), file_format="ONNX")


def test_amp_network_exports_its_casts(tmp_path):
    net, xs = build(ms, "mlp")
    o2 = ms.amp.auto_mixed_precision(net, "O2")
    path = ms.export(o2, *xs, file_name=str(tmp_path / "amp"), file_format="ONNX")
    sess, got = _run(path, xs)
    assert "Cast" in {n.op_type for n in onnx.load(path).graph.node}
    np.testing.assert_allclose(got[0], o2(*xs).asnumpy(), rtol=2e-3, atol=2e-3)
