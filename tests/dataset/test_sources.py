"""NumpySlicesDataset and GeneratorDataset: columns, dtypes, shapes and row values (checked against MindSpore)."""
import numpy as np
import pytest

import sprout.dataset as ds

from .helpers import firsts, rows


def info(d):
    return d.get_dataset_size(), d.get_col_names(), [str(t) for t in d.output_types()], d.output_shapes()


class TestNumpySlices:
    def test_dict_gives_named_columns(self):
        d = ds.NumpySlicesDataset({"a": [1, 2, 3], "b": [4.5, 5.5, 6.5], "c": [[1, 2], [3, 4], [5, 6]]},
                                  shuffle=False)
        assert info(d) == (3, ["a", "b", "c"], ["int64", "float64", "int64"], [[], [], [2]])
        assert rows(d) == [[1, 4.5, [1, 2]], [2, 5.5, [3, 4]], [3, 6.5, [5, 6]]]

    def test_list_is_one_column_of_its_elements(self):
        d = ds.NumpySlicesDataset([1.0, 2.0], shuffle=False)
        assert info(d) == (2, ["column_0"], ["float64"], [[]])
        d = ds.NumpySlicesDataset([[1, 2], [3, 4]], shuffle=False)
        assert rows(d) == [[[1, 2]], [[3, 4]]]

    def test_ragged_list_keeps_one_array_per_row(self):
        assert rows(ds.NumpySlicesDataset([np.arange(3), np.arange(2)], shuffle=False)) == [[[0, 1, 2]], [[0, 1]]]

    def test_tuple_gives_one_column_per_item(self):
        d = ds.NumpySlicesDataset(([1, 2], [3.0, 4.0]), shuffle=False)
        assert info(d) == (2, ["column_0", "column_1"], ["int64", "float64"], [[], []])
        assert rows(d) == [[1, 3.0], [2, 4.0]]

    def test_array_is_sliced_along_axis_0(self):
        d = ds.NumpySlicesDataset(np.ones((4, 2, 3), np.float32), shuffle=False)
        assert info(d) == (4, ["column_0"], ["float32"], [[2, 3]])

    def test_column_names(self):
        d = ds.NumpySlicesDataset((np.arange(3), np.arange(3)), column_names=["p", "q"])
        assert d.get_col_names() == ["p", "q"]
        assert ds.NumpySlicesDataset({"a": [1, 2]}, column_names=["z"]).get_col_names() == ["z"]
        with pytest.raises(ValueError, match="column_names has 1 names but the data has 2 columns"):
            ds.NumpySlicesDataset((np.arange(3), np.arange(3)), column_names=["p"])

    def test_unequal_columns_raise(self):
        with pytest.raises(ValueError, match="same number of rows"):
            ds.NumpySlicesDataset({"a": [1, 2], "b": [1, 2, 3]})

    def test_strings_stay_numpy(self):
        d = ds.NumpySlicesDataset({"s": ["ab", "c"]}, shuffle=False)
        assert rows(d) == [["ab"], ["c"]]
        first = next(iter(d))[0]
        assert isinstance(first, np.ndarray) and first.dtype.kind == "U"

    def test_rows_are_copies(self):
        data = np.arange(3)
        row = next(ds.NumpySlicesDataset(data, shuffle=False).create_tuple_iterator(output_numpy=True))
        row[0][...] = 99
        assert data.tolist() == [0, 1, 2]

    def test_default_shuffles_all_rows(self):
        got = firsts(ds.NumpySlicesDataset(np.arange(10)))
        assert sorted(got) == list(range(10)) and got != list(range(10))


def gen():
    for i in range(5):
        yield np.array([i, i + 1]), i


class RandomAccess:
    def __getitem__(self, i):
        return np.float32(i), np.array([i] * 2, dtype=np.int32)

    def __len__(self):
        return 7


class TestGenerator:
    def test_generator_function(self):
        d = ds.GeneratorDataset(gen, column_names=["x", "y"])
        assert info(d) == (5, ["x", "y"], ["int64", "int64"], [[2], []])
        assert rows(d)[:2] == [[[0, 1], 0], [[1, 2], 1]]
        assert len(rows(d)) == 5  # the function is called again for every epoch

    def test_generator_num_samples_and_shuffle(self):
        assert firsts(ds.GeneratorDataset(gen, ["x", "y"], num_samples=2)) == [[0, 1], [1, 2]]
        # MindSpore ignores shuffle for a source without __getitem__
        assert [r[1] for r in rows(ds.GeneratorDataset(gen, ["x", "y"], shuffle=True))] == [0, 1, 2, 3, 4]

    def test_generator_rejects_sampler_and_shards(self):
        with pytest.raises(ValueError, match="need a source with __getitem__"):
            ds.GeneratorDataset(gen, ["x", "y"], num_shards=2, shard_id=0)
        with pytest.raises(ValueError, match="need a source with __getitem__"):
            ds.GeneratorDataset(gen, ["x", "y"], sampler=[0, 1])

    def test_column_names_required_and_counted(self):
        with pytest.raises(ValueError, match="column_names must be given"):
            ds.GeneratorDataset(gen)
        with pytest.raises(ValueError, match="gave 2 value"):
            rows(ds.GeneratorDataset(gen, ["x"]))

    def test_single_values_and_python_types(self):
        def scalars():
            yield from range(3)

        d = ds.GeneratorDataset(scalars, "x")
        assert info(d) == (3, ["x"], ["int64"], [[]]) and firsts(d) == [0, 1, 2]

        def mixed():
            for i in range(3):
                yield float(i), True, [1.0, 2.0]

        d = ds.GeneratorDataset(mixed, ["x", "b", "l"])
        assert info(d) == (3, ["x", "b", "l"], ["float64", "bool", "float64"], [[], [], [2]])

    def test_column_types_check_without_converting(self):
        d = ds.GeneratorDataset(gen, ["x", "y"], column_types=[np.int64, np.int64])
        assert len(rows(d)) == 5
        with pytest.raises(TypeError, match="column 'x' holds int64 data but column_types says float32"):
            rows(ds.GeneratorDataset(gen, ["x", "y"], column_types=[np.float32, np.int32]))

    def test_random_access(self):
        d = ds.GeneratorDataset(RandomAccess(), ["a", "b"], shuffle=False)
        assert info(d) == (7, ["a", "b"], ["float32", "int32"], [[], [2]])
        assert rows(d)[:2] == [[0.0, [0, 0]], [1.0, [1, 1]]]
        shuffled = firsts(ds.GeneratorDataset(RandomAccess(), ["a", "b"]))
        assert sorted(shuffled) == list(range(7)) and shuffled != list(range(7))

    def test_list_and_array_sources_are_random_access(self):
        assert rows(ds.GeneratorDataset([(1, 2.0), (3, 4.0)], ["a", "b"], shuffle=False)) == [[1, 2.0], [3, 4.0]]
        assert firsts(ds.GeneratorDataset(np.arange(6).reshape(3, 2), ["v"], shuffle=False)) == [[0, 1], [2, 3],
                                                                                                   [4, 5]]

    def test_iterable_source_counts_its_size(self):
        class Iterable:
            def __iter__(self):
                return iter([(np.float32(1.0),), (np.float32(2.0),)])

        d = ds.GeneratorDataset(Iterable(), ["v"])
        assert d.get_dataset_size() == 2 and firsts(d) == [1.0, 2.0]

    def test_bad_sources(self):
        with pytest.raises(TypeError, match="must also define __len__"):
            ds.GeneratorDataset(_GetOnly(), ["x"])
        with pytest.raises(TypeError, match="generator function, an iterable"):
            ds.GeneratorDataset(42, ["x"])
        with pytest.raises(NotImplementedError, match="schema"):
            ds.GeneratorDataset(gen, schema="schema.json")


class _GetOnly:
    def __getitem__(self, i):
        return i
