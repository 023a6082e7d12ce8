"""Iterators: Tensor / NumPy output, dict rows, column selection and epochs."""
import numpy as np
import pytest

import sprout.dataset as ds


def abc():
    return ds.NumpySlicesDataset({"a": [1, 2, 3], "b": [4.5, 5.5, 6.5]}, shuffle=False)


def test_numpy_tuple_rows():
    got = list(abc().create_tuple_iterator(output_numpy=True))
    assert all(isinstance(r, list) and all(isinstance(c, np.ndarray) for c in r) for r in got)
    assert [[int(a), float(b)] for a, b in got] == [[1, 4.5], [2, 5.5], [3, 6.5]]


def test_dict_rows():
    got = list(abc().create_dict_iterator(output_numpy=True))
    assert [{k: v.item() for k, v in r.items()} for r in got] == [{"a": 1, "b": 4.5}, {"a": 2, "b": 5.5},
                                                                   {"a": 3, "b": 6.5}]


def test_columns_pick_and_reorder():
    got = list(abc().create_tuple_iterator(columns=["b", "a"], output_numpy=True))
    assert [[float(b), int(a)] for b, a in got] == [[4.5, 1], [5.5, 2], [6.5, 3]]
    with pytest.raises(ValueError, match="create_tuple_iterator: column 'z' does not exist"):
        abc().create_tuple_iterator(columns=["z"])


def test_tensor_output():
    tensor_mod = pytest.importorskip("sprout.core.tensor")
    row = next(iter(abc()))
    assert all(isinstance(c, tensor_mod.Tensor) for c in row)
    assert row[0].asnumpy().dtype == np.int64 and float(row[1].asnumpy()) == 4.5
    batch = next(abc().batch(2).create_dict_iterator())
    assert isinstance(batch["a"], tensor_mod.Tensor) and batch["a"].asnumpy().tolist() == [1, 2]


def test_each_for_loop_is_one_epoch():
    it = abc().batch(2).create_tuple_iterator(num_epochs=2, output_numpy=True)
    first = [r[0].tolist() for r in it]
    second = [r[0].tolist() for r in it]
    assert first == second == [[1, 2], [3]]
    with pytest.raises(RuntimeError, match="all num_epochs=2 epochs have been consumed"):
        next(it)


def test_unlimited_epochs_and_len():
    it = abc().create_tuple_iterator(output_numpy=True)
    assert [len(list(it)) for _ in range(3)] == [3, 3, 3]
    assert len(it) == 3 and len(abc().batch(2)) == 2


def test_iterator_argument_errors():
    with pytest.raises(ValueError, match="num_epochs must be in"):
        abc().create_tuple_iterator(num_epochs=0)
    with pytest.raises(TypeError, match="output_numpy must be a bool"):
        abc().create_dict_iterator(output_numpy="yes")


def test_map_accepts_tensor_results():
    tensor_mod = pytest.importorskip("sprout.core.tensor")
    d = abc().map(lambda a: tensor_mod.Tensor(a * 2))
    assert [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)] == [2, 4, 6]


def test_output_shapes_of_empty_dataset_raises():
    with pytest.raises(RuntimeError, match="output_shapes: the dataset yields no rows"):
        abc().skip(3).output_shapes()


def test_output_shapes_estimate_marks_varying_dimensions():
    def rows():
        for i in range(1, 4):
            yield np.ones((i, 3), np.float32), np.array(i)

    d = ds.GeneratorDataset(rows, ["a", "b"])
    assert d.output_shapes() == [[1, 3], []]
    assert d.output_shapes(estimate=True) == [[None, 3], []]  # MindSpore 2.10: [[None, 3], []]

    def ragged():
        yield (np.ones(2),)
        yield (np.ones((2, 2)),)

    with pytest.raises(RuntimeError, match="inconsistent shapes"):  # MindSpore 2.10: RuntimeError too
        ds.GeneratorDataset(ragged, ["a"]).output_shapes(estimate=True)
    with pytest.raises(TypeError):
        d.output_shapes(estimate="yes")
