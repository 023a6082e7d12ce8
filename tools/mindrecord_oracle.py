"""MindRecord interoperability with real MindSpore 2.10 (run with /work/msvenv/bin/python):

    python tools/mindrecord_oracle.py make    # write tests/dataset/fixtures/mindrecord/* with MindSpore
    python tools/mindrecord_oracle.py check DIR
        # read every sprout-written dataset in DIR (named by DIR/sp_<name>.mindrecord.expected.json) with
        # MindSpore's FileReader and MindDataset, and compare with MindSpore's reading of its own ms_<name> file

The rows of each fixture come from ``rows(name)`` below; the tests rebuild the same rows to compare."""
import hashlib
import json
import os
import sys

import numpy as np

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "tests", "dataset", "fixtures", "mindrecord")

SCHEMAS = {
    "basic": {"file_name": {"type": "string"}, "label": {"type": "int32"}, "big": {"type": "int64"},
              "score": {"type": "float32"}, "ratio": {"type": "float64"}, "data": {"type": "bytes"},
              "ids": {"type": "int32", "shape": [-1]}, "mat": {"type": "float32", "shape": [2, 3]},
              "offsets": {"type": "int64", "shape": [-1]}},
    "multipage": {"id": {"type": "int64"}, "data": {"type": "bytes"}},
    "sharded": {"id": {"type": "int32"}, "name": {"type": "string"}, "vec": {"type": "float64", "shape": [3]}},
    "rawonly": {"id": {"type": "int32"}, "name": {"type": "string"}, "weight": {"type": "float64"}},
    "blobonly": {"pixels": {"type": "int32", "shape": [-1]}},
}


def rows(name):
    """The deterministic rows of fixture ``name``."""
    rng = np.random.default_rng(len(name))
    if name == "basic":
        out = []
        for i in range(6):
            out.append({"file_name": f"img_{i}.jpg", "label": [-3, 0, 7, 127, -128, 70000][i],
                        "big": [2**40, -2**35, 0, 1, -1, 2**62][i], "score": float(np.float32(i * 0.25 - 0.5)),
                        "ratio": [0.1, -1e-300, 3.5, 1e300, 2.0 / 3.0, 0.0][i],
                        "data": bytes(rng.integers(0, 256, 5 + i * 7, dtype=np.uint8)),
                        "ids": np.array([i, -i * 300, i * 70000, -(2**31)][: i % 4 + 1], np.int32),
                        "mat": (np.arange(6, dtype=np.float32).reshape(2, 3) * (i + 0.5)),
                        "offsets": np.array([2**50 * (i - 2), i, -i, 127, 128, -129][: i + 1], np.int64)})
        return out
    if name == "multipage":
        return [{"id": i, "data": bytes(rng.integers(0, 256, 7000 + 97 * i, dtype=np.uint8))} for i in range(12)]
    if name == "sharded":
        return [{"id": i, "name": "n" * (i + 1), "vec": np.array([i, i / 2, -i], np.float64)} for i in range(10)]
    if name == "rawonly":
        return [{"id": i, "name": f"row{i}", "weight": i * 1.5} for i in range(5)]
    if name == "blobonly":
        return [{"pixels": np.arange(i * 3, dtype=np.int32) - 100 * i} for i in range(4)]
    raise KeyError(name)


SHARDS = {"sharded": 3}
INDEXES = {"basic": ["file_name", "label"], "rawonly": ["id", "weight"]}


def jsonable(row):
    out = {}
    for k, v in row.items():
        if isinstance(v, (bytes, bytearray)):
            out[k] = {"bytes": bytes(v).hex()}
        elif isinstance(v, np.ndarray):
            out[k] = {"array": v.tolist(), "dtype": str(v.dtype), "shape": list(v.shape)}
        elif isinstance(v, np.generic):
            out[k] = v.item()
        else:
            out[k] = v
    return out


def make():
    from mindspore.mindrecord import FileWriter
    os.makedirs(FIXTURES, exist_ok=True)
    for name, schema in SCHEMAS.items():
        path = os.path.join(FIXTURES, f"ms_{name}.mindrecord")
        writer = FileWriter(path, shard_num=SHARDS.get(name, 1), overwrite=True)
        writer.set_header_size(1 << 14)
        writer.set_page_size(1 << 15)
        writer.add_schema(schema, f"{name} schema")
        if name in INDEXES:
            writer.add_index(INDEXES[name])
        data = rows(name)
        writer.write_raw_data(data[:len(data) // 2])  # two calls: appending to open pages must work too
        writer.write_raw_data(data[len(data) // 2:])
        writer.commit()
    import mindspore.dataset as ds
    seen = {}
    for name in SCHEMAS:
        first = os.path.join(FIXTURES, f"ms_{name}.mindrecord" + ("0" if name in SHARDS else ""))
        data = ds.MindDataset(first, shuffle=False)
        seen[name] = {"columns": data.get_col_names(),
                      "rows": [canonical(r) for r in data.create_dict_iterator(output_numpy=True)],
                      "shard1of2": [canonical(r) for r in ds.MindDataset(
                          first, shuffle=False, num_shards=2, shard_id=1).create_dict_iterator(output_numpy=True)]}
    with open(os.path.join(FIXTURES, "mindspore_reads.json"), "w") as f:
        json.dump(seen, f, indent=0)
    print("wrote", sorted(os.listdir(FIXTURES)))


def canonical(row):
    """A row as sorted JSON text, so rows compare as multisets (sharding spreads them at random)."""
    out = {}
    for k, v in row.items():
        if isinstance(v, np.ndarray) and v.dtype.kind == "S":
            v = v.reshape(-1)[0]
        if isinstance(v, (bytes, np.bytes_)):
            out[k] = f"bytes:{len(v)}:" + hashlib.sha256(bytes(v)).hexdigest()[:16]
        elif isinstance(v, np.ndarray):
            out[k] = [str(v.dtype), list(v.shape), v.tolist()]
        elif isinstance(v, np.generic):
            out[k] = v.item()
        else:
            out[k] = v
    return json.dumps(out, sort_keys=True)


def read_both(path):
    """(FileReader rows, MindDataset rows, MindDataset columns) of the dataset whose first shard is ``path``."""
    import mindspore.dataset as ds
    from mindspore.mindrecord import FileReader
    reader = FileReader(path)
    rows = sorted(canonical(r) for r in reader.get_next())
    reader.close()
    data = ds.MindDataset(path, shuffle=False)
    return rows, sorted(canonical(r) for r in data.create_dict_iterator(output_numpy=True)), data.get_col_names()


def check(directory):
    """Read each sprout-written dataset in ``directory`` with MindSpore and compare with what MindSpore reads
    from its own file with the same rows (the ms_* fixtures)."""
    for fname in sorted(os.listdir(directory)):
        if not fname.endswith(".expected.json"):
            continue
        expected = json.load(open(os.path.join(directory, fname)))
        name = fname[len("sp_"):-len(".mindrecord.expected.json")]
        ours = read_both(os.path.join(directory, expected["first_file"]))
        theirs = read_both(os.path.join(FIXTURES, expected["first_file"].replace("sp_", "ms_", 1)))
        verdict = ["same" if a == b else "DIFFERENT" for a, b in zip(ours, theirs)]
        print(f"{name}: FileReader {verdict[0]} ({len(ours[0])} vs {len(theirs[0])} rows), MindDataset {verdict[1]} "
              f"({len(ours[1])} vs {len(theirs[1])} rows), columns {verdict[2]} {ours[2]}")


if __name__ == "__main__":
    sys.path.insert(0, "")
    if sys.argv[1] == "make":
        make()
    else:
        check(sys.argv[2])
