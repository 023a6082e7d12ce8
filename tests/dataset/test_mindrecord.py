"""MindRecord: sprout reads MindSpore's files (fixtures/mindrecord, made by tools/mindrecord_oracle.py) and writes
the same bytes MindSpore writes; round trips, sharding, appending and damaged files."""
import importlib.util
import json
import os
import shutil
import sqlite3
from pathlib import Path

import numpy as np
import pytest

import sprout.dataset as ds
from sprout.mindrecord import FileReader, FileWriter

from .helpers import deadline

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures" / "mindrecord"
_spec = importlib.util.spec_from_file_location("mindrecord_oracle", ROOT / "tools" / "mindrecord_oracle.py")
ORACLE = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ORACLE)
MS_READS = json.loads((FIXTURES / "mindspore_reads.json").read_text())
NAMES = list(ORACLE.SCHEMAS)


def first_file(name, folder=FIXTURES, prefix="ms"):
    return str(folder / (f"{prefix}_{name}.mindrecord" + ("0" if name in ORACLE.SHARDS else "")))


def expected_rows(name):
    rows = ORACLE.rows(name)
    return rows[1:] if name == "blobonly" else rows  # MindSpore's writer drops a row whose only blob is empty


@pytest.mark.parametrize("name", NAMES)
def test_mind_dataset_reads_mindspore_files_as_mindspore_does(name):
    data = ds.MindDataset(first_file(name), shuffle=False)
    assert data.get_col_names() == MS_READS[name]["columns"]
    got = [ORACLE.canonical(r) for r in data.create_dict_iterator(output_numpy=True)]
    assert got == MS_READS[name]["rows"]
    half = ds.MindDataset(first_file(name), shuffle=False, num_shards=2, shard_id=1)
    assert [ORACLE.canonical(r) for r in half.create_dict_iterator(output_numpy=True)] == MS_READS[name]["shard1of2"]


@pytest.mark.parametrize("name", NAMES)
def test_file_reader_gives_the_written_rows(name):
    reader = FileReader(first_file(name))
    got = list(reader.get_next())
    assert reader.len() == len(got) == len(expected_rows(name))
    key = "id" if name in ("sharded", "multipage", "rawonly") else None
    if key:
        got.sort(key=lambda r: r[key])
    for row, want in zip(got, expected_rows(name)):
        assert sorted(row) == sorted(want)
        for k, v in want.items():
            if isinstance(v, np.ndarray):
                assert row[k].dtype == v.dtype and np.array_equal(row[k], v.reshape(row[k].shape))
            elif isinstance(v, float):
                assert row[k] == v or np.float32(row[k]) == np.float32(v)
            else:
                assert row[k] == v
    reader.close()


def write_like_mindspore(name, folder, rows=None, prefix="ms"):
    """The calls tools/mindrecord_oracle.py makes MindSpore do, with sprout's FileWriter."""
    path = folder / f"{prefix}_{name}.mindrecord"
    writer = FileWriter(str(path), shard_num=ORACLE.SHARDS.get(name, 1), overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(ORACLE.SCHEMAS[name], f"{name} schema")
    if name in ORACLE.INDEXES:
        writer.add_index(ORACLE.INDEXES[name])
    data = ORACLE.rows(name) if rows is None else rows
    writer.write_raw_data(data[:len(data) // 2])
    writer.write_raw_data(data[len(data) // 2:])
    writer.commit()
    return path


def table(path):
    db = sqlite3.connect(path)
    try:
        return (db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall(),
                db.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall(),
                db.execute("SELECT * FROM SHARD_NAME").fetchall())
    finally:
        db.close()


@pytest.mark.parametrize("name", ["basic", "rawonly", "multipage", "blobonly"])
def test_writer_produces_mindsporees_bytes(name, tmp_path):
    rows = ORACLE.rows(name)
    if name == "blobonly":  # MindSpore dropped the empty row from its first call; make the same calls
        rows = rows[1:2] + rows[1:2] + rows[2:]
        path = tmp_path / "ms_blobonly.mindrecord"
        writer = FileWriter(str(path), overwrite=True)
        writer.set_header_size(1 << 14)
        writer.set_page_size(1 << 15)
        writer.add_schema(ORACLE.SCHEMAS[name], "blobonly schema")
        writer.write_raw_data(rows[:1])
        writer.write_raw_data(rows[2:])
        writer.commit()
    else:
        path = write_like_mindspore(name, tmp_path)
    assert path.read_bytes() == (FIXTURES / path.name).read_bytes()
    assert table(str(path) + ".db") == table(str(FIXTURES / path.name) + ".db")


def test_empty_array_rows_are_kept(tmp_path):
    path = write_like_mindspore("blobonly", tmp_path, prefix="sp")
    got = [r["pixels"] for r in FileReader(str(path)).get_next()]
    assert [g.tolist() for g in got] == [r["pixels"].tolist() for r in ORACLE.rows("blobonly")]


def test_sharded_round_trip_and_file_lists(tmp_path):
    write_like_mindspore("sharded", tmp_path, prefix="sp")
    first = first_file("sharded", tmp_path, "sp")
    data = ds.MindDataset(first, shuffle=False)
    assert sorted(int(r["id"]) for r in data.create_dict_iterator(output_numpy=True)) == list(range(10))
    sizes = [FileReader([str(tmp_path / f"sp_sharded.mindrecord{i}")]).len() for i in range(3)]
    assert sorted(sizes) == [3, 3, 4]  # 5 + 5 rows spread evenly, the extra rows on different shards
    only = ds.MindDataset([str(tmp_path / "sp_sharded.mindrecord2")], shuffle=False)
    assert only.get_dataset_size() == sizes[2]
    vec = next(data.create_dict_iterator(output_numpy=True))["vec"]
    assert vec.dtype == np.float64 and vec.shape == (3,)


def test_shuffle_modes_sampling_and_padding(tmp_path):
    first = first_file("sharded")
    ids = [int(r["id"]) for r in ds.MindDataset(first, shuffle=False).create_dict_iterator(output_numpy=True)]
    ds.config.set_seed(3)
    for mode in (True, ds.Shuffle.GLOBAL, ds.Shuffle.FILES, ds.Shuffle.INFILE):
        got = [int(r["id"]) for r in ds.MindDataset(first, shuffle=mode).create_dict_iterator(output_numpy=True)]
        assert sorted(got) == sorted(ids)
    files = [FileReader([first[:-1] + str(i)]).len() for i in range(3)]  # shard suffix only (a "0" may be in the path)
    infile = [int(r["id"]) for r in ds.MindDataset(first, shuffle=ds.Shuffle.INFILE).create_dict_iterator(
        output_numpy=True)]
    assert sorted(infile[:files[0]]) == sorted(ids[:files[0]])  # files stay in order, rows move inside them
    assert ds.MindDataset(first, num_samples=4).get_dataset_size() == 4
    padded = ds.MindDataset(first, columns_list=["id", "name"], shuffle=False, num_shards=4, shard_id=3,
                            padded_sample={"id": -1, "name": "pad"}, num_padded=2)
    got = [(int(r["id"]), str(r["name"])) for r in padded.create_dict_iterator(output_numpy=True)]
    assert got[-1] == (-1, "pad") and len(got) == 3
    with pytest.raises(ValueError, match="padded_sample needs columns_list"):
        ds.MindDataset(first, num_shards=4, shard_id=0, padded_sample={"id": -1}, num_padded=2)
    cols = ds.MindDataset(first, columns_list=["vec", "id"], shuffle=False)
    assert cols.get_col_names() == ["vec", "id"]


def test_append(tmp_path):
    path = write_like_mindspore("rawonly", tmp_path, prefix="sp")
    writer = FileWriter.open_for_append(str(path))
    writer.write_raw_data([{"id": 100 + i, "name": f"more{i}", "weight": 0.5} for i in range(3)])
    writer.commit()
    rows = list(FileReader(str(path)).get_next())
    assert [r["id"] for r in rows] == [0, 1, 2, 3, 4, 100, 101, 102]
    assert table(str(path) + ".db")[1][-1][0] == 7


def test_writer_rejects_bad_rows_and_arguments(tmp_path):
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    with pytest.raises(ValueError, match="a multiple of 4"):
        writer.set_page_size(40000 + 1)
    with pytest.raises(RuntimeError, match="add a schema first"):
        writer.write_raw_data([{"x": 1}])
    with pytest.raises(ValueError, match="field name 'bad-name' must consist of"):
        writer.add_schema({"bad-name": {"type": "int32"}})
    with pytest.raises(ValueError, match="type must be one of"):
        writer.add_schema({"x": {"type": "int8"}})
    writer.add_schema({"x": {"type": "int32"}, "img": {"type": "bytes"}, "v": {"type": "float32", "shape": [2]}})
    with pytest.raises(ValueError, match="'img' is not a primitive field"):
        writer.add_index(["img"])
    good = {"x": 1, "img": b"ab", "v": np.zeros(2, np.float32)}
    with pytest.raises(ValueError, match="row 1 has no field 'img'"):
        writer.write_raw_data([good, {"x": 2, "v": np.zeros(2, np.float32)}])
    with pytest.raises(ValueError, match="row 0 field 'x' = 4294967296 is out of the int32 range"):
        writer.write_raw_data([dict(good, x=2**32)])
    with pytest.raises(TypeError, match="row 0 field 'v' must be a NumPy float32 array, got float64"):
        writer.write_raw_data([dict(good, v=np.zeros(2))])
    with pytest.raises(ValueError, match="row 0 field 'v' has shape \\(3,\\), which does not fit"):
        writer.write_raw_data([dict(good, v=np.zeros(3, np.float32))])
    writer.write_raw_data([good])
    writer.commit()
    with pytest.raises(RuntimeError, match="already exists; pass overwrite=True"):
        again = FileWriter(str(tmp_path / "a.mindrecord"))
        again.add_schema({"x": {"type": "int32"}})
        again.write_raw_data([{"x": 1}])
    big = FileWriter(str(tmp_path / "big.mindrecord"))
    big.set_page_size(1 << 15)
    big.add_schema({"img": {"type": "bytes"}})
    with pytest.raises(ValueError, match="row 0 needs 40008 bytes, more than a page"):
        big.write_raw_data([{"img": b"x" * 40000}])


def test_failed_commit_leaves_old_files(tmp_path):
    path = write_like_mindspore("rawonly", tmp_path, prefix="sp")
    before = path.read_bytes()
    writer = FileWriter(str(path), overwrite=True)
    writer.set_header_size(1 << 14)
    writer.add_schema({f"f{i}_{'x' * 200}": {"type": "int32"} for i in range(100)})  # header > 16 KB
    writer.write_raw_data([{f"f{i}_{'x' * 200}": i for i in range(100)}])
    with pytest.raises(RuntimeError, match="call set_header_size with a larger size"):
        writer.commit()
    assert path.read_bytes() == before and not list(tmp_path.glob("*.sprout-tmp*"))


def test_damaged_files_name_the_file_and_rows(tmp_path):
    for name in ("ms_multipage.mindrecord", "ms_multipage.mindrecord.db"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    path = tmp_path / "ms_multipage.mindrecord"
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - 5000])
    truncated = r"ms_multipage.mindrecord' is truncated .* page 3 .*rows 8..11"
    with deadline(30), pytest.raises(RuntimeError, match=truncated):
        ds.MindDataset(str(path))
    path.write_bytes(data[:100])
    with pytest.raises(RuntimeError, match="is not a MindRecord file"):
        FileReader(str(path))
    path.write_bytes(data)
    os.rename(path, tmp_path / "renamed.mindrecord")
    os.rename(str(path) + ".db", tmp_path / "renamed.mindrecord.db")
    renamed = str(tmp_path / "renamed.mindrecord")
    with pytest.raises(ValueError, match="shard .*ms_multipage.mindrecord' of .*renamed.mindrecord' is missing"):
        FileReader(renamed)
    with pytest.raises(RuntimeError, match="belongs to 'ms_multipage.mindrecord'.*cannot be renamed"):
        list(FileReader([renamed], columns=["id"]).get_next())
    os.remove(renamed + ".db")
    with pytest.raises(RuntimeError, match="index file .* is missing"):
        next(iter(ds.MindDataset([renamed])))
    with pytest.raises(ValueError, match="shard .*ms_sharded.mindrecord1' of .* is missing"):
        shutil.copy(FIXTURES / "ms_sharded.mindrecord0", tmp_path / "ms_sharded.mindrecord0")
        ds.MindDataset(str(tmp_path / "ms_sharded.mindrecord0"))


def test_images_in_mindrecord_feed_decode(tmp_path):
    from PIL import Image
    import io
    import sprout.dataset.vision as V
    rows = []
    for i in range(4):
        buf = io.BytesIO()
        Image.fromarray(np.full((8, 10, 3), i * 40, np.uint8)).save(buf, "PNG")
        rows.append({"image": buf.getvalue(), "label": i})
    writer = FileWriter(str(tmp_path / "img.mindrecord"))
    writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}})
    writer.write_raw_data(rows)
    writer.commit()
    data = ds.MindDataset(str(tmp_path / "img.mindrecord"), shuffle=False).map(V.Decode(), "image").batch(2)
    batches = list(data.create_dict_iterator(output_numpy=True))
    assert batches[1]["image"].shape == (2, 8, 10, 3) and batches[1]["image"][1, 0, 0, 0] == 120
    assert batches[0]["label"].tolist() == [0, 1]
