"""``ms.load_mindir`` / ``ms.save_mindir``: MindIR files as ``ModelProto`` messages, read and written exactly as
MindSpore 2.10 does (fixture: tools/mindir_proto_oracle.py)."""
import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

import sprout as ms
from sprout.deploy.mindir_proto import message_class

FIXTURES = Path(__file__).parent / "fixtures"
ORACLE = json.loads((FIXTURES / "mindir_proto.json").read_text())


def _summary(m):
    g = m.graph
    return {
        "producer_name": m.producer_name, "producer_version": m.producer_version, "ir_version": m.ir_version,
        "model_version": m.model_version, "mind_ir_version": m.mind_ir_version, "little_endian": m.little_endian,
        "graph_name": g.name, "op_types": [n.op_type for n in g.node], "inputs": [i.name for i in g.input],
        "input_dims": [list(i.tensor[0].dims) for i in g.input if len(i.tensor)],
        "parameters": [[p.name, list(p.dims), p.data_type, p.ref_key] for p in g.parameter],
        "primitives": [[p.name, p.op_type, [a.name for a in p.attribute]] for p in m.primitives],
        "functions": [f.name for f in m.functions], "user_info": dict(m.user_info),
        "fields": sorted(f.name for f, _ in m.ListFields()),
    }


@pytest.mark.parametrize("name", sorted(ORACLE))
def test_load_edit_save_as_mindspore(name, tmp_path):
    src = FIXTURES / f"{name}.mindir"
    m = ms.load_mindir(str(src))
    assert isinstance(m, message_class("ModelProto"))
    want = {k: v for k, v in ORACLE[name].items() if not k.startswith("edited")}
    assert _summary(m) == want
    assert m.SerializeToString() == src.read_bytes()  # every field known: nothing lost or reordered
    m.user_info["version"] = "edited v2"
    m.producer_name = "sprout test"
    m.graph.node[0].doc_string = "first node"
    ms.save_mindir(m, str(tmp_path / "edited"))
    out = tmp_path / "edited.mindir"
    data = out.read_bytes()
    assert (len(data), hashlib.sha1(data).hexdigest()) == (ORACLE[name]["edited_size"], ORACLE[name]["edited_sha1"])
    assert stat.S_IMODE(os.stat(out).st_mode) == stat.S_IRUSR  # read-only, as MindSpore leaves it
    ms.save_mindir(m, str(out))  # overwriting the read-only file works
    again = ms.load_mindir(str(out))
    assert dict(again.user_info) == {"version": "edited v2"} and again.graph.node[0].doc_string == "first node"


def test_an_edited_file_still_runs(tmp_path):
    m = ms.load_mindir(str(FIXTURES / "mlp.mindir"))
    m.user_info["note"] = "x"
    ms.save_mindir(m, str(tmp_path / "mlp2.mindir"))
    import numpy as np

    io = np.load(FIXTURES / "mlp_io.npz")
    xs = [ms.Tensor(io[k]) for k in sorted(io.files) if k.startswith("x")]
    ys = [io[k] for k in sorted(io.files) if k.startswith("y")]
    got = ms.nn.GraphCell(ms.load(str(tmp_path / "mlp2.mindir")))(*xs)
    got = got if isinstance(got, (tuple, list)) else (got,)
    for g, y in zip(got, ys):
        np.testing.assert_allclose(g.asnumpy(), y, rtol=1e-5, atol=1e-6)


def test_errors_as_mindspore(tmp_path):
    with pytest.raises(TypeError, match="must be string"):
        ms.load_mindir(123)
    with pytest.raises(ValueError, match="No such file"):
        ms.load_mindir(str(tmp_path / "missing.mindir"))
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"\xff\xff\xff")
    with pytest.raises(ValueError, match="bad.mindir"):
        ms.load_mindir(str(bad))
    with pytest.raises(TypeError, match="must be ModelProto"):
        ms.save_mindir({"graph": 1}, str(tmp_path / "x"))
    with pytest.raises(TypeError, match="must be string"):
        ms.save_mindir(ms.load_mindir(str(FIXTURES / "mlp.mindir")), 1)
    assert not list(tmp_path.glob("x*"))
