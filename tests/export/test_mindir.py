"""MindIR: files MindSpore 2.10 wrote run in sprout; files sprout writes run in sprout (and, checked by
tools/mindir_oracle.py, in MindSpore: the layout they had then is pinned in sprout_mindir_layout.json)."""
import json

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops
from sprout.deploy import MindIRError
from sprout.deploy.mindir_schema import SCHEMA

from ._nets import NAMES, as_tuple, build, fixture, load_io


def _close(got, want, rtol=1e-5):
    got = as_tuple(got)
    assert len(got) == len(want)
    for g, y in zip(got, want):
        assert g.shape == y.shape
        np.testing.assert_allclose(g.asnumpy(), y, rtol=rtol, atol=1e-5)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_mindspore_files_run_in_sprout(name, mode):
    ms.set_context(mode=mode)
    xs, want = load_io(fixture(f"{name}_io.npz"))
    graph = ms.load(fixture(f"{name}.mindir"))
    assert graph.producer == "MindSpore"
    cell = nn.GraphCell(graph)
    # MindSpore's LogSoftmax CPU kernel is less exact than sprout's (its exp-sum is off by 3e-6)
    _close(cell(*[Tensor(x) for x in xs]), want, rtol=1e-4 if name == "mixed" else 1e-5)


def test_graph_cell_inside_jit_and_params():
    xs, want = load_io(fixture("resnet_io.npz"))
    cell = nn.GraphCell(ms.load(fixture("resnet.mindir")))
    assert "block1.c1.weight" in cell.parameters_dict()

    @ms.jit
    def run(x):
        return ops.softmax(cell(x), -1)

    np.testing.assert_allclose(run(Tensor(xs[0])).asnumpy(), ops.softmax(Tensor(want[0]), -1).asnumpy(),
                               rtol=1e-5, atol=1e-6)
    w = cell.parameters_dict()["fc.bias"]
    replaced = nn.GraphCell(ms.load(fixture("resnet.mindir")), params_init={"fc.bias": Tensor(np.zeros(5, np.float32))})
    np.testing.assert_allclose(replaced(Tensor(xs[0])).asnumpy(), want[0] - w.asnumpy(), rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="shape"):
        cell(Tensor(np.ones((1, 3, 16, 16), np.float32)))
    with pytest.raises(ValueError, match="params_init"):
        nn.GraphCell(ms.load(fixture("resnet.mindir")), params_init={"nope": Tensor(np.zeros(5, np.float32))})


@pytest.mark.parametrize("name", NAMES)
def test_sprout_export_round_trip(name, tmp_path):
    net, xs = build(ms, name)
    want = [y.asnumpy() for y in as_tuple(net(*xs))]
    path = ms.export(net, *xs, file_name=str(tmp_path / name), file_format="MINDIR")
    assert path.endswith(".mindir")
    graph = ms.load(path)
    assert graph.producer == "sprout"
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        _close(nn.GraphCell(graph)(*xs), want, rtol=1e-6)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    # the layout MindSpore 2.10 was checked to load (tools/mindir_oracle.py write + check)
    layout = json.load(open(fixture("sprout_mindir_layout.json")))[name]
    model = SCHEMA.decode("Model", open(path, "rb").read())
    prims = {p["name"]: p for p in model["primitives"]}
    seq = []
    for node in model["graph"]["node"]:
        if node["op_type"] != "Constant":
            p = prims[node["op_type"][5:]]
            seq.append([p["op_type"], len(node["input"]), p["prim_type"], sorted(a["name"] for a in
                                                                              p.get("attribute", []))])
    assert seq == layout


def test_export_of_a_function_and_the_serialization_spelling(tmp_path):
    w = ms.Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="w")

    def f(x):
        return ops.matmul(x, w) * 2.0

    x = Tensor(np.ones((4, 2), np.float32))
    path = ms.train.serialization.export(f, x, file_name=str(tmp_path / "f"), file_format="MINDIR")
    cell = nn.GraphCell(ms.train.serialization.load(path))
    np.testing.assert_allclose(cell(x).asnumpy(), f(x).asnumpy())
    assert list(cell.parameters_dict()) == ["w"]


def test_training_mode_networks_export_in_inference_mode(tmp_path):
    net, xs = build(ms, "resnet")
    net.set_train(True)
    path = ms.export(net, *xs, file_name=str(tmp_path / "r"), file_format="MINDIR")
    assert net.training  # restored
    net.set_train(False)
    np.testing.assert_allclose(nn.GraphCell(ms.load(path))(*xs).asnumpy(), net(*xs).asnumpy(), rtol=1e-6)


def test_errors(tmp_path):
    net, xs = build(ms, "mlp")
    with pytest.raises(ValueError, match="file_format"):
        ms.export(net, *xs, file_name=str(tmp_path / "m"), file_format="PB")
    with pytest.raises(NotImplementedError, match="AIR"):
        ms.export(net, *xs, file_name=str(tmp_path / "m"), file_format="AIR")
    with pytest.raises(NotImplementedError, match="enc_key"):
        ms.export(net, *xs, file_name=str(tmp_path / "m"), file_format="MINDIR", enc_key=b"0" * 16)
    with pytest.raises(ValueError, match="end with '.mindir'"):
        ms.load(str(tmp_path / "m.onnx"))
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "missing.mindir"))
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"\x0a\xff\xff\xff\xff\xff")
    with pytest.raises(MindIRError):
        ms.load(str(bad))

    class Cum(nn.Cell):
        def construct(self, x):
            return ops.cumsum(x, 0)

    with pytest.raises(NotImplementedError, match="CumSum"):
        ms.export(Cum(), xs[0], file_name=str(tmp_path / "c"), file_format="MINDIR")
    assert not (tmp_path / "c.mindir").exists()
