"""batch, repeat, take, skip, zip, concat, map, filter, project, rename: values, sizes and column order
(every expected value below was produced by MindSpore 2.x on the same pipeline)."""
import numpy as np
import pytest

import sprout.dataset as ds

from .helpers import firsts, rows


def n10(**kwargs):
    return ds.NumpySlicesDataset(np.arange(10), shuffle=False, **kwargs)


def abc():
    return ds.NumpySlicesDataset({"a": [1, 2, 3], "b": [4, 5, 6], "c": [7, 8, 9]}, shuffle=False)


class TestBatch:
    def test_keeps_the_remainder_by_default(self):
        d = n10().batch(4)
        assert firsts(d) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
        assert (d.get_dataset_size(), d.get_batch_size(), d.output_shapes()) == (3, 4, [[4]])

    def test_drop_remainder(self):
        d = n10().batch(4, drop_remainder=True)
        assert firsts(d) == [[0, 1, 2, 3], [4, 5, 6, 7]] and d.get_dataset_size() == 2

    def test_batches_cross_repeat_boundaries(self):
        assert firsts(n10().repeat(2).batch(4)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 0, 1], [2, 3, 4, 5],
                                                    [6, 7, 8, 9]]
        assert firsts(n10().batch(4).repeat(2)) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]] * 2

    def test_sizes_through_repeat(self):
        assert n10().repeat(3).batch(4).get_dataset_size() == 8
        assert n10().batch(4, True).repeat(3).get_dataset_size() == 6
        assert n10().repeat().get_dataset_size() == 10  # MindSpore reports one pass for repeat-forever
        assert (n10().batch(3).repeat(2).get_batch_size(), n10().get_batch_size()) == (3, 1)
        assert (n10().repeat(3).get_repeat_count(), n10().repeat().get_repeat_count()) == (3, -1)

    def test_stacks_multi_dim_columns_and_keeps_dtypes(self):
        d = ds.NumpySlicesDataset({"x": np.ones((5, 2, 3), np.float32), "y": np.arange(5, dtype=np.int32)},
                                  shuffle=False).batch(2)
        assert d.output_shapes() == [[2, 2, 3], [2]]
        assert d.output_types() == [np.float32, np.int32]

    def test_ragged_rows_raise(self):
        def ragged():
            yield (np.arange(2),)
            yield (np.arange(3),)

        with pytest.raises(RuntimeError, match=r"different shapes in column 'a'.*\(2,\).*\(3,\)"):
            rows(ds.GeneratorDataset(ragged, ["a"]).batch(2))

    def test_per_batch_map(self):
        def double_and_count(a, b, info):
            return [x * 2 for x in a], [x + info.get_batch_num() for x in b]

        d = abc().batch(2, per_batch_map=double_and_count, input_columns=["a", "b"], output_columns=["a", "b"])
        assert rows(d) == [[[2, 4], [4, 5], [7, 8]], [[6], [7], [9]]]

    def test_per_batch_map_pads_ragged_rows(self):
        def ragged():
            yield (np.arange(2),)
            yield (np.arange(3),)

        def pad(a, info):
            width = max(len(x) for x in a)
            return ([np.pad(x, (0, width - len(x))) for x in a],)

        d = ds.GeneratorDataset(ragged, ["a"]).batch(2, per_batch_map=pad, input_columns=["a"])
        assert rows(d) == [[[[0, 1, 0], [0, 1, 2]]]]

    def test_per_batch_map_defaults_to_all_columns(self):
        d = abc().batch(2, per_batch_map=lambda a, b, c, info: (a, b, c))
        assert rows(d) == [[[1, 2], [4, 5], [7, 8]], [[3], [6], [9]]]

    def test_per_batch_map_new_columns_come_first(self):
        d = abc().batch(2, per_batch_map=lambda a, info: (a, a), input_columns=["a"], output_columns=["x", "y"])
        assert d.get_col_names() == ["x", "y", "b", "c"]

    def test_batch_info_epoch(self):
        seen = []

        def record(a, info):
            seen.append((info.get_batch_num(), info.get_epoch_num()))
            return (a,)

        it = n10().take(4).batch(2, per_batch_map=record, input_columns=["column_0"]).create_tuple_iterator(
            num_epochs=2, output_numpy=True)
        for _ in range(2):
            list(it)
        assert seen == [(0, 0), (1, 0), (0, 1), (1, 1)]

    @pytest.mark.parametrize("bad, exc, msg", [(0, ValueError, r"batch_size must be in \[1, "),
                                               (2.0, TypeError, "batch_size must be an int, got float"),
                                               (True, TypeError, "batch_size must be an int, got bool")])
    def test_bad_batch_size(self, bad, exc, msg):
        with pytest.raises(exc, match=f"batch: {msg}"):
            n10().batch(bad)

    def test_bad_arguments(self):
        with pytest.raises(ValueError, match="column 'nope' does not exist"):
            n10().batch(2, pad_info={"nope": (None, 0)})
        with pytest.raises(ValueError, match="need a per_batch_map"):
            n10().batch(2, input_columns=["column_0"])


class TestTakeSkipRepeat:
    def test_take_and_skip(self):
        assert firsts(n10().take(3)) == [0, 1, 2]
        assert firsts(n10().skip(7)) == [7, 8, 9]
        assert [n10().skip(12).get_dataset_size(), n10().take(20).get_dataset_size(),
                n10().take(-1).get_dataset_size(), n10().take(3).get_dataset_size()] == [0, 10, 10, 3]

    def test_repeat_forever_stops_only_when_asked(self):
        it = n10().repeat().create_tuple_iterator(output_numpy=True)
        assert [int(next(it)[0]) for _ in range(25)] == list(range(10)) * 2 + list(range(5))

    def test_repeat_forever_of_nothing_ends(self):
        assert rows(n10().skip(10).repeat()) == []

    @pytest.mark.parametrize("make, msg", [(lambda: n10().take(0), "take: count must be in"),
                                           (lambda: n10().skip(-1), "skip: count must be in"),
                                           (lambda: n10().repeat(0), "repeat: count must be in")])
    def test_bad_counts(self, make, msg):
        with pytest.raises(ValueError, match=msg):
            make()


class TestZipConcat:
    def z4(self):
        return ds.NumpySlicesDataset({"z": np.arange(4) * 10}, shuffle=False)

    def test_zip_stops_at_the_shortest(self):
        d = ds.zip((n10(), self.z4()))
        assert d.get_col_names() == ["column_0", "z"] and d.get_dataset_size() == 4
        assert rows(d)[-1] == [3, 30]
        assert n10().zip(self.z4()).get_col_names() == ["column_0", "z"]

    def test_zip_needs_unique_names(self):
        with pytest.raises(ValueError, match=r"zip: column names must be unique.*\['column_0'\]"):
            ds.zip((n10(), n10()))

    def test_concat(self):
        d = n10().take(2) + n10().skip(8)
        assert firsts(d) == [0, 1, 8, 9] and d.get_dataset_size() == 4
        assert firsts(n10().take(2).concat([n10().skip(8), n10().take(1)])) == [0, 1, 8, 9, 0]
        with pytest.raises(ValueError, match="concat: all datasets must have the same columns"):
            n10().concat(self.z4())


class TestMap:
    def test_default_is_the_first_column(self):
        d = abc().map(lambda a: a * 1.5)
        assert rows(d) == [[1.5, 4, 7], [3.0, 5, 8], [4.5, 6, 9]]
        assert [str(t) for t in d.output_types()] == ["float64", "int64", "int64"]

    def test_same_count_replaces_in_place(self):
        d = abc().map(lambda c, a: (c * 10, a), input_columns=["c", "a"], output_columns=["p", "q"])
        assert d.get_col_names() == ["q", "b", "p"]
        assert rows(d)[0] == [1, 4, 70]

    def test_other_counts_put_outputs_first(self):
        d = abc().map(lambda b: (b, b * 2), input_columns=["b"], output_columns=["x", "y"])
        assert d.get_col_names() == ["x", "y", "a", "c"]
        assert rows(d)[0] == [4, 8, 1, 7]
        assert abc().map(lambda a, c: a + c, input_columns=["a", "c"], output_columns=["s"]).get_col_names() == [
            "s", "b"]

    def test_operation_list_runs_in_order(self):
        assert firsts(abc().map([lambda a: a + 1, lambda a: a * 10], input_columns="a")) == [20, 30, 40]

    def test_errors(self):
        with pytest.raises(ValueError, match=r"map: column 'zz' does not exist.*\['a', 'b', 'c'\]"):
            abc().map(lambda a: a, input_columns=["zz"])
        with pytest.raises(TypeError, match="map: every operation must be callable"):
            abc().map([lambda a: a, 3])
        with pytest.raises(ValueError, match="map: the operation returned 2 column"):
            rows(abc().map(lambda a: (a, a)))

    def test_column_order(self):
        assert abc().map(lambda a: a, column_order=["c", "a"]).get_col_names() == ["c", "a"]


class TestColumns:
    def test_project(self):
        assert rows(abc().project(["c", "a"]))[0] == [7, 1]
        assert abc().project("b").get_col_names() == ["b"]
        with pytest.raises(ValueError, match="project: column 'q' does not exist"):
            abc().project(["q"])

    def test_rename(self):
        assert abc().rename(["a", "c"], ["q", "r"]).get_col_names() == ["q", "b", "r"]
        assert abc().rename("a", "q").get_col_names() == ["q", "b", "c"]
        with pytest.raises(ValueError, match="rename: the resulting column names"):
            abc().rename("a", "b")

    def test_filter(self):
        d = n10().filter(lambda x: x % 3 == 0)
        assert d.get_dataset_size() == 4 and firsts(d) == [0, 3, 6, 9]

    def test_apply(self):
        assert abc().apply(lambda d: d.take(1)).get_dataset_size() == 1
        with pytest.raises(TypeError, match="apply: apply_func must return a Dataset"):
            abc().apply(lambda d: 3)
