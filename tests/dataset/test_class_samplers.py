"""PKSampler and WeightedRandomSampler (behaviour as MindSpore 2.10 shows it), indexable user samplers, and
closing a parallel map early."""
import numpy as np
import pytest

import sprout.dataset as ds
from sprout.dataset.parallel import ordered_map

from .test_readers import write_idx

LABELS = np.array([3, 1, 1, 0, 3, 3, 2, 1, 0, 3, 2, 0])


@pytest.fixture
def labelled_mnist(tmp_path):
    # pixel value = row index, so every output row says which source row it is
    write_idx(tmp_path / "train-images-idx3-ubyte", 2051, np.arange(12)[:, None, None] * np.ones((12, 28, 28)))
    write_idx(tmp_path / "train-labels-idx1-ubyte", 2049, LABELS)
    return str(tmp_path)


def picked(d):
    return [(int(r["image"][0, 0, 0]), int(r["label"])) for r in d.create_dict_iterator(output_numpy=True)]


def test_pk_sampler_takes_k_rows_of_each_class_in_label_order(labelled_mnist):
    d = ds.MnistDataset(labelled_mnist, sampler=ds.PKSampler(2))
    rows = picked(d)
    assert d.get_dataset_size() == 8 and [lab for _, lab in rows] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert all(LABELS[i] == lab for i, lab in rows)
    assert len({i for i, lab in rows if lab == 2}) == 2  # class 2 has exactly two rows: both, no repeat
    # more than a class holds: drawn with replacement; num_samples caps the total
    big = picked(ds.MnistDataset(labelled_mnist, sampler=ds.PKSampler(5, num_samples=7)))
    assert [lab for _, lab in big] == [0] * 5 + [1, 1]
    # shuffle mixes the order of the classes, each class's rows stay together
    ds.config.set_seed(5)
    labs = [lab for _, lab in picked(ds.MnistDataset(labelled_mnist, sampler=ds.PKSampler(1, shuffle=True)))]
    assert sorted(labs) == [0, 1, 2, 3]


def test_pk_sampler_errors(labelled_mnist):
    with pytest.raises(ValueError, match="NumpySlicesDataset does not support PKSampler"):
        ds.NumpySlicesDataset({"label": LABELS}, sampler=ds.PKSampler(2))
    with pytest.raises(NotImplementedError, match="num_class"):
        ds.PKSampler(2, num_class=3)
    with pytest.raises(TypeError, match="class_column"):
        ds.PKSampler(2, class_column=1)
    with pytest.raises(TypeError, match="shuffle"):
        ds.PKSampler(2, shuffle=1)
    with pytest.raises(ValueError, match="class column 'image2'"):
        ds.MnistDataset(labelled_mnist, sampler=ds.PKSampler(2, class_column="image2")).get_dataset_size()


def test_weighted_random_sampler(labelled_mnist):
    ds.config.set_seed(0)
    d = ds.MnistDataset(labelled_mnist, sampler=ds.WeightedRandomSampler([0.8, 0.5, 0, 0], num_samples=50))
    assert d.get_dataset_size() == 12  # num_samples is capped at the row count
    rows = [i for _ in range(10) for i, _ in picked(d)]
    assert set(rows) == {0, 1} and rows.count(0) > rows.count(1)  # zero weight: never drawn
    # num_samples None: as many draws as rows; without replacement the zero-weight rows come last
    assert ds.MnistDataset(labelled_mnist, sampler=ds.WeightedRandomSampler([1, 2])).get_dataset_size() == 12
    once = [i for i, _ in picked(ds.MnistDataset(labelled_mnist, sampler=ds.WeightedRandomSampler(
        [1, 1, 0, 0, 0, 5], num_samples=5, replacement=False)))]
    assert len(set(once)) == 5 and set(once[:3]) == {0, 1, 5} and set(once[3:]) <= {2, 3, 4}


def test_weighted_random_sampler_errors(labelled_mnist):
    for weights, match in (([], "must not be empty"), ([-1, 1], "must not be negative"), ([0, 0], "all zero")):
        with pytest.raises(RuntimeError, match=match):
            ds.WeightedRandomSampler(weights)
    for weights in ("ab", [(1, 2)], [True]):
        with pytest.raises(TypeError, match="WeightedRandomSampler"):
            ds.WeightedRandomSampler(weights)
    with pytest.raises(TypeError, match="replacement"):
        ds.WeightedRandomSampler([1, 2], replacement=1)
    too_many = ds.MnistDataset(labelled_mnist, sampler=ds.WeightedRandomSampler([1.0] * 20, num_samples=3))
    with pytest.raises(RuntimeError, match="20 weights for a source of only 12 rows"):
        picked(too_many)
    with pytest.raises(RuntimeError, match="cannot draw 5 rows from 3 weights"):
        picked(ds.MnistDataset(labelled_mnist, sampler=ds.WeightedRandomSampler([1, 1, 0], 5, replacement=False)))


def test_indexable_user_sampler():
    class Indices:  # __getitem__ and __len__ only, as MindSpore's tutorial writes one
        ids = [3, 1, 3, 0]

        def __getitem__(self, i):
            return self.ids[i]

        def __len__(self):
            return len(self.ids)

    d = ds.NumpySlicesDataset(["a", "b", "c", "d"], column_names=["x"], sampler=Indices())
    assert [str(r[0]) for r in d.create_tuple_iterator(output_numpy=True)] == ["d", "b", "d", "a"]


def test_closing_a_threaded_map_early_is_clean():
    gen = ordered_map(lambda x: x * 2, iter(range(100)), 2, False, "op")
    assert next(gen) == 0
    gen.close()  # used to raise AttributeError (concurrent.futures.process is not loaded for thread pools)
