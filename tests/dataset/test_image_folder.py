"""ImageFolderDataset on a tiny generated folder (behaviour checked against MindSpore 2.10 by hand: same rows,
labels, class indexing, sharding and errors; see docs/dataset.md)."""
import numpy as np
import pytest
from PIL import Image

import sprout.dataset as ds
import sprout.dataset.vision as V

from .helpers import deadline


@pytest.fixture
def folder(tmp_path):
    def save(rel, value, fmt="PNG"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.fromarray(np.full((4, 5, 3), value, np.uint8)).save(path, fmt)
    save("dog/b.png", 1)
    save("dog/a.png", 2)
    save("dog/c.JPG", 3, "JPEG")
    save("cat/z.png", 4)
    save("cat/.hidden.png", 2)
    save("bird/x.jpeg", 6, "JPEG")
    save("top.png", 9)               # files next to the class folders are not read
    (tmp_path / "empty").mkdir()     # an empty folder is still a class
    return tmp_path


def pixels_and_labels(d):
    return [(int(r["label"]), int(r["image"][0, 0, 0])) for r in d.create_dict_iterator(output_numpy=True)]


def test_rows_labels_and_classes(folder):
    d = ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".png", ".jpeg"], decode=True)
    assert d.get_dataset_size() == 5 and d.num_classes() == 4
    assert d.get_class_indexing() == {"bird": 0, "cat": 1, "dog": 2, "empty": 3}
    assert pixels_and_labels(d) == [(0, 6), (1, 2), (1, 4), (2, 2), (2, 1)]  # sorted folders, sorted files
    assert d.output_types() == [np.uint8, np.int32] and d.output_shapes() == [[4, 5, 3], []]
    raw = next(ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".jpeg"]).create_tuple_iterator(
        output_numpy=True))[0]
    assert raw.dtype == np.uint8 and raw.ndim == 1 and V.Decode()(raw).shape == (4, 5, 3)
    assert d.map(V.Resize(2)).batch(2).num_classes() == 4  # pipelines report their source's classes


def test_class_indexing_extensions_and_shards(folder):
    d = ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".png"], decode=True,
                              class_indexing={"dog": 0, "cat": 5})
    assert pixels_and_labels(d) == [(5, 2), (5, 4), (0, 2), (0, 1)]
    assert ds.ImageFolderDataset(str(folder), extensions=[".JPG"]).get_dataset_size() == 1  # case-sensitive
    shard = ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".png", ".jpeg"], decode=True,
                                  num_shards=2, shard_id=1)
    assert pixels_and_labels(shard) == [(1, 2), (2, 2), (0, 6)]
    assert ds.ImageFolderDataset(str(folder), num_samples=3).get_dataset_size() == 3
    with pytest.raises(ValueError, match="class_indexing names folder 'fish'"):
        ds.ImageFolderDataset(str(folder), class_indexing={"fish": 0})


def test_bad_files_are_named(folder):
    (folder / "cat" / "notes.txt").write_text("not an image")
    d = ds.ImageFolderDataset(str(folder), shuffle=False, decode=True)
    with deadline(30), pytest.raises(RuntimeError, match=r"cannot decode image file '.*cat/notes.txt'"):
        list(d.create_tuple_iterator())
    (folder / "cat" / "sub").mkdir()
    with pytest.raises(RuntimeError, match="'.*cat/sub' is a folder inside class folder 'cat'"):
        ds.ImageFolderDataset(str(folder))
    lazy = ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".txt"]).map(V.Decode())
    with deadline(30), pytest.raises(RuntimeError, match="notes.txt") as info:
        list(lazy.create_tuple_iterator())
    assert any("failed on row 0" in note for note in info.value.__notes__)


def test_error_samples_modes(folder):
    (folder / "cat" / "notes.txt").write_text("not an image")
    def labels():
        d = ds.ImageFolderDataset(str(folder), shuffle=False).map(V.Decode())
        return [int(r["label"]) for r in d.create_dict_iterator(output_numpy=True)]
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.SKIP)
    assert labels() == [0, 1, 1, 2, 2, 2]
    ds.config.set_error_samples_mode(ds.config.ErrorSamplesMode.REPLACE)
    assert labels() == [0, 1, 1, 1, 2, 2, 2]  # the bad row repeats the previous good one
