"""MnistDataset and Cifar10Dataset on small files written by the tests (layouts as MindSpore reads them)."""
import struct

import numpy as np
import pytest

import sprout.dataset as ds


def write_idx(path, magic, array):
    with open(path, "wb") as f:
        f.write(struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in array.shape))
        f.write(array.astype(np.uint8).tobytes())


@pytest.fixture
def mnist_dir(tmp_path):
    train = np.arange(5)[:, None, None] * np.ones((5, 28, 28))
    test = (np.arange(3)[:, None, None] + 100) * np.ones((3, 28, 28))
    write_idx(tmp_path / "train-images-idx3-ubyte", 2051, train)
    write_idx(tmp_path / "train-labels-idx1-ubyte", 2049, np.arange(5))
    write_idx(tmp_path / "t10k-images-idx3-ubyte", 2051, test)
    write_idx(tmp_path / "t10k-labels-idx1-ubyte", 2049, np.array([7, 8, 9]))
    return tmp_path


def pixel_and_label(d):
    return [(int(r["image"][0, 0, 0]), int(r["label"])) for r in d.create_dict_iterator(output_numpy=True)]


class TestMnist:
    def test_columns_and_types(self, mnist_dir):
        d = ds.MnistDataset(str(mnist_dir), usage="train", shuffle=False)
        assert d.get_col_names() == ["image", "label"]
        assert d.output_types() == [np.uint8, np.uint32] and d.output_shapes() == [[28, 28, 1], []]
        assert pixel_and_label(d) == [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]

    @pytest.mark.parametrize("usage", [None, "all"])
    def test_all_reads_test_files_first(self, mnist_dir, usage):
        d = ds.MnistDataset(mnist_dir, usage=usage, shuffle=False)
        assert d.get_dataset_size() == 8
        assert pixel_and_label(d)[:4] == [(100, 7), (101, 8), (102, 9), (0, 0)]

    def test_test_split_shards_and_default_shuffle(self, mnist_dir):
        assert pixel_and_label(ds.MnistDataset(mnist_dir, usage="test", shuffle=False)) == [(100, 7), (101, 8),
                                                                                          (102, 9)]
        shards = [[lab for _, lab in pixel_and_label(
            ds.MnistDataset(mnist_dir, usage="train", num_shards=3, shard_id=s, shuffle=False))] for s in range(3)]
        assert shards == [[0, 3], [1, 4], [2, 0]]
        assert sorted(lab for _, lab in pixel_and_label(ds.MnistDataset(mnist_dir))) == [0, 1, 2, 3, 4, 7, 8, 9]
        assert ds.MnistDataset(mnist_dir, num_samples=3).get_dataset_size() == 3

    def test_errors(self, mnist_dir, tmp_path):
        with pytest.raises(ValueError, match="MnistDataset: dataset_dir .* is not a directory"):
            ds.MnistDataset(str(tmp_path / "missing"))
        with pytest.raises(ValueError, match="MnistDataset: usage must be one of"):
            ds.MnistDataset(mnist_dir, usage="val")
        (mnist_dir / "t10k-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2051, 3) + b"\0\0\0")
        with pytest.raises(ValueError, match="has magic number 2051, expected 2049"):
            ds.MnistDataset(mnist_dir, usage="test")


@pytest.fixture
def cifar_dir(tmp_path):
    """Two records per training batch, three in the test batch; channel 0 holds batch*10 + record."""
    for b in [*range(1, 6), "test"]:
        n = 3 if b == "test" else 2
        rec = np.zeros((n, 3073), np.uint8)
        rec[:, 0] = 9 if b == "test" else np.arange(n) + b
        img = np.zeros((n, 3, 32, 32), np.uint8)
        img[:, 0] = (200 if b == "test" else b * 10) + np.arange(n)[:, None, None]
        img[:, 1] = 1
        img[:, 2, 0, 1] = 5
        rec[:, 1:] = img.reshape(n, -1)
        name = "test_batch.bin" if b == "test" else f"data_batch_{b}.bin"
        rec.tofile(tmp_path / name)
    return tmp_path


def cifar_rows(d):
    return [(r["image"][0, :2].tolist(), int(r["label"])) for r in d.create_dict_iterator(output_numpy=True)]


class TestCifar10:
    def test_columns_types_and_hwc_layout(self, cifar_dir):
        d = ds.Cifar10Dataset(str(cifar_dir), usage="train", shuffle=False)
        assert d.get_col_names() == ["image", "label"] and d.get_dataset_size() == 10
        assert d.output_types() == [np.uint8, np.uint32] and d.output_shapes() == [[32, 32, 3], []]
        assert cifar_rows(d)[:3] == [([[10, 1, 0], [10, 1, 5]], 1), ([[11, 1, 0], [11, 1, 5]], 2),
                                     ([[20, 1, 0], [20, 1, 5]], 2)]

    def test_usages(self, cifar_dir):
        assert ds.Cifar10Dataset(cifar_dir, usage="test").get_dataset_size() == 3
        everything = cifar_rows(ds.Cifar10Dataset(cifar_dir, shuffle=False))
        assert len(everything) == 13
        assert [row[0][0][0] for row in everything[8:]] == [50, 51, 200, 201, 202]  # train batches, then test

    def test_shards(self, cifar_dir):
        d = ds.Cifar10Dataset(cifar_dir, usage="train", shuffle=False, num_shards=4, shard_id=3)
        assert [row[0][0][0] for row in cifar_rows(d)] == [21, 41, 11]

    def test_errors(self, cifar_dir, tmp_path):
        (cifar_dir / "test_batch.bin").write_bytes(b"\0" * 100)
        with pytest.raises(ValueError, match="not a whole number of 3073-byte records"):
            ds.Cifar10Dataset(cifar_dir, usage="test")
        empty = tmp_path / "empty"
        empty.mkdir()
        with pytest.raises(ValueError, match="no CIFAR-10 binary files"):
            ds.Cifar10Dataset(empty)


class TestMnistUsage:
    """MindSpore reads whichever split files the folder holds for usage None/"all"."""

    def test_train_only_folder(self, tmp_path):
        write_idx(tmp_path / "train-images-idx3-ubyte", 2051, np.zeros((4, 28, 28)))
        write_idx(tmp_path / "train-labels-idx1-ubyte", 2049, np.arange(4))
        for usage in (None, "all", "train"):
            assert ds.MnistDataset(tmp_path, usage=usage).get_dataset_size() == 4
        with pytest.raises(RuntimeError, match="'t10k-images-idx3-ubyte' not found .*usage='test'"):
            ds.MnistDataset(tmp_path, usage="test")

    def test_empty_folder(self, tmp_path):
        with pytest.raises(RuntimeError, match="no MNIST files"):
            ds.MnistDataset(tmp_path)


def test_cifar100(tmp_path):
    for name, n in (("train.bin", 3), ("test.bin", 2)):
        rec = np.zeros((n, 3074), np.uint8)
        rec[:, 0] = np.arange(n)          # coarse
        rec[:, 1] = np.arange(n) + 50     # fine
        rec[:, 2:2 + 1024] = 7            # red plane
        rec.tofile(tmp_path / name)
    d = ds.Cifar100Dataset(str(tmp_path), shuffle=False)
    assert d.get_col_names() == ["image", "coarse_label", "fine_label"] and d.get_dataset_size() == 5
    r = next(d.create_dict_iterator(output_numpy=True))
    assert r["image"].shape == (32, 32, 3) and r["image"][0, 0].tolist() == [7, 0, 0]
    assert [int(x["fine_label"]) for x in d.create_dict_iterator(output_numpy=True)] == [50, 51, 52, 50, 51]
    assert ds.Cifar100Dataset(str(tmp_path), usage="test").get_dataset_size() == 2
    (tmp_path / "test.bin").write_bytes(b"\0" * 100)
    with pytest.raises(ValueError, match="'test.bin' is 100 bytes, not a whole number of 3074-byte records"):
        ds.Cifar100Dataset(str(tmp_path), usage="test")


@pytest.mark.parametrize("reader", [ds.MnistDataset, ds.Cifar10Dataset, ds.Cifar100Dataset])
def test_readers_refuse_a_cache(tmp_path, reader):
    with pytest.raises(NotImplementedError, match=f"{reader.__name__}: cache"):
        reader(str(tmp_path), cache=object())
