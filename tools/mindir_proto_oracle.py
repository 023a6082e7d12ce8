"""Run in MindSpore's venv: what ``mindspore.load_mindir`` reads from the MindIR fixtures, and what ``save_mindir``
writes after an edit -> tests/export/fixtures/mindir_proto.json.

    /work/msvenv/bin/python tools/mindir_proto_oracle.py
"""
import hashlib
import json
import os
import tempfile
from pathlib import Path

import mindspore as ms

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "export" / "fixtures"


def summary(m) -> dict:
    g = m.graph
    return {
        "producer_name": m.producer_name, "producer_version": m.producer_version, "ir_version": m.ir_version,
        "model_version": m.model_version, "mind_ir_version": m.mind_ir_version, "little_endian": m.little_endian,
        "graph_name": g.name, "op_types": [n.op_type for n in g.node], "inputs": [i.name for i in g.input],
        "input_dims": [list(i.tensor[0].dims) for i in g.input if len(i.tensor)],
        "parameters": [(p.name, list(p.dims), p.data_type, p.ref_key) for p in g.parameter],
        "primitives": [(p.name, p.op_type, [a.name for a in p.attribute]) for p in m.primitives],
        "functions": [f.name for f in m.functions], "user_info": dict(m.user_info),
        "fields": sorted(f.name for f, _ in m.ListFields()),
    }


def main() -> None:
    out = {}
    for name in ("lenet", "mlp", "mixed", "resnet"):
        m = ms.load_mindir(str(FIXTURES / f"{name}.mindir"))
        entry = summary(m)
        m.user_info["version"] = "edited v2"
        m.producer_name = "sprout test"
        m.graph.node[0].doc_string = "first node"
        with tempfile.TemporaryDirectory() as d:
            ms.save_mindir(m, os.path.join(d, "edited"))  # ".mindir" appended
            data = (Path(d) / "edited.mindir").read_bytes()
        entry["edited_sha1"] = hashlib.sha1(data).hexdigest()
        entry["edited_size"] = len(data)
        out[name] = entry
    (FIXTURES / "mindir_proto.json").write_text(json.dumps(out, indent=1, sort_keys=True))
    print("wrote", FIXTURES / "mindir_proto.json")


if __name__ == "__main__":
    main()
