"""Converters to MindRecord (Cifar10ToMR, Cifar100ToMR, MnistToMR, ImageNetToMR, CsvToMR) on tiny local data."""
import gzip
import pickle
import struct

import numpy as np
import pytest
from PIL import Image

import sprout.dataset as ds
import sprout.dataset.vision as V
from sprout.mindrecord import Cifar10ToMR, Cifar100ToMR, CsvToMR, FileReader, ImageNetToMR, MnistToMR


def rows(path):
    return list(FileReader(str(path)).get_next())


def test_cifar10_and_cifar100(tmp_path):
    src = tmp_path / "cifar"
    src.mkdir()
    for i, name in enumerate(["data_batch_1", "data_batch_2", "test_batch"]):
        data = np.full((2, 3072), 10 * i, np.uint8)
        (src / name).write_bytes(pickle.dumps({b"data": data, b"labels": [i, i + 1]}))
    assert Cifar10ToMR(str(src), str(tmp_path / "c10.mindrecord")).transform(["label"]) == 0
    train, test = rows(tmp_path / "c10.mindrecord"), rows(tmp_path / "c10.mindrecord_test")
    assert [r["id"] for r in train] == [0, 1, 2, 3] and [r["label"] for r in train] == [0, 1, 1, 2]
    assert len(test) == 2
    img = V.Decode()(train[2]["data"])
    assert img.shape == (32, 32, 3) and abs(int(img.mean()) - 10) <= 1  # JPEG of a flat image
    src100 = tmp_path / "cifar100"
    src100.mkdir()
    for name in ("train", "test"):
        (src100 / name).write_bytes(pickle.dumps({b"data": np.zeros((3, 3072), np.uint8), b"fine_labels": [5, 6, 7],
                                                  b"coarse_labels": [1, 1, 2]}))
    Cifar100ToMR(str(src100), str(tmp_path / "c100.mindrecord")).transform()
    got = rows(tmp_path / "c100.mindrecord")
    assert [(r["fine_label"], r["coarse_label"]) for r in got] == [(5, 1), (6, 1), (7, 2)]
    with pytest.raises(ValueError, match="no test_batch"):
        (src / "test_batch").unlink()
        Cifar10ToMR(str(src), str(tmp_path / "x.mindrecord"))


def test_mnist_imagenet_and_csv(tmp_path):
    src = tmp_path / "mnist"
    src.mkdir()
    for prefix, n in (("train", 3), ("t10k", 2)):
        with gzip.open(src / f"{prefix}-images-idx3-ubyte.gz", "wb") as f:
            f.write(struct.pack(">IIII", 2051, n, 28, 28) + bytes(np.full(n * 784, 200, np.uint8)))
        with gzip.open(src / f"{prefix}-labels-idx1-ubyte.gz", "wb") as f:
            f.write(struct.pack(">II", 2049, n) + bytes(range(n)))
    MnistToMR(str(src), str(tmp_path / "mnist"), 2).transform()
    data = ds.MindDataset(str(tmp_path / "mnist_train.mindrecord0"), shuffle=False)
    assert data.get_dataset_size() == 3 and sorted(int(r["label"]) for r in data.create_dict_iterator()) == [0, 1, 2]

    folder = tmp_path / "imagenet"
    for d in ("n01", "n02"):
        (folder / d).mkdir(parents=True)
        Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(folder / d / "a.JPEG")
        (folder / d / "skip.txt").write_text("x")
    (tmp_path / "map.txt").write_text("n01 0\nn02 1\nn03 2\n")
    ImageNetToMR(str(tmp_path / "map.txt"), str(folder), str(tmp_path / "inet.mindrecord")).transform()
    got = rows(tmp_path / "inet.mindrecord")
    assert [r["label"] for r in got] == [0, 1] and got[0]["file_name"].endswith("a.JPEG")

    (tmp_path / "t.csv").write_text("name,count,score,ok\nx,1,0.5,True\ny,2,1.5,False\n")
    CsvToMR(str(tmp_path / "t.csv"), str(tmp_path / "csv.mindrecord")).transform()
    reader = FileReader(str(tmp_path / "csv.mindrecord"))
    assert reader.schema() == {"count": {"type": "int64"}, "name": {"type": "string"},
                               "ok": {"type": "int32"}, "score": {"type": "float64"}}
    assert list(reader.get_next()) == [{"count": 1, "name": "x", "ok": 1, "score": 0.5},
                                       {"count": 2, "name": "y", "ok": 0, "score": 1.5}]
