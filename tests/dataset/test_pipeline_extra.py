"""padded_batch / pad_info, split, reset, GeneratorDataset list rows and Dataset sources, progress lines
(values as MindSpore 2.10 gives them)."""
import numpy as np
import pytest

import sprout
import sprout.dataset as ds

from .helpers import firsts, rows


def ragged():
    def gen():
        for i in range(5):
            yield np.arange(i + 1, dtype=np.int32), np.ones((i % 2 + 1, 2), np.float32) * i, np.array(i)
    return ds.GeneratorDataset(gen, ["a", "b", "c"])


def test_padded_batch_like_mindspore():
    out = list(ragged().padded_batch(2, pad_info={"a": ([4], -1), "b": ([3, None], 9)}).create_dict_iterator(
        output_numpy=True))
    assert out[0]["a"].tolist() == [[0, -1, -1, -1], [0, 1, -1, -1]] and out[0]["a"].dtype == np.int32
    assert out[0]["b"].tolist() == [[[0, 0], [9, 9], [9, 9]], [[1, 1], [1, 1], [9, 9]]]
    assert out[2]["c"].tolist() == [4] and out[2]["a"].tolist() == [[0, 1, 2, 3]]  # longer rows are cut
    everything = next(ragged().padded_batch(3, pad_info={}).create_dict_iterator(output_numpy=True))
    assert everything["a"].tolist() == [[0, 0, 0], [0, 1, 0], [0, 1, 2]]
    assert everything["b"].shape == (3, 2, 2)
    strings = ds.GeneratorDataset(lambda: iter([(np.array(["x" * (i + 1)] * (i + 1)),) for i in range(3)]), ["s"])
    assert next(strings.padded_batch(3, pad_info={"s": (None, "pad")}).create_tuple_iterator(
        output_numpy=True))[0].tolist() == [["x", "pad", "pad"], ["xx", "xx", "pad"], ["xxx", "xxx", "xxx"]]
    with pytest.raises(RuntimeError, match="cannot batch rows with different shapes in column 'b'"):
        list(ragged().padded_batch(2, pad_info={"a": ([4], -1)}).create_tuple_iterator())


def test_generator_rows_as_lists_and_dataset_sources():
    gen = ds.GeneratorDataset(lambda: iter([[i, i * 2] for i in range(3)]), ["a", "b"])
    assert rows(gen) == [[0, 0], [1, 2], [2, 4]]
    src = ds.NumpySlicesDataset({"x": np.arange(4), "y": np.arange(4) * 10}, shuffle=False)
    wrapped = ds.GeneratorDataset(src, ["p", "q"], shuffle=False)
    assert rows(wrapped) == [[0, 0], [1, 10], [2, 20], [3, 30]]
    assert src[2][1].tolist() == 20 and len(src) == 4
    piped = ds.GeneratorDataset(src.map(lambda x: x + 1, "x"), shuffle=False)
    assert piped.get_col_names() == ["x", "y"] and firsts(piped) == [1, 2, 3, 4]
    with pytest.raises(IndexError, match="row index 9 is out of range"):
        src[9]


def test_split_and_reset_and_use_sampler():
    d = ds.NumpySlicesDataset(np.arange(10), shuffle=False)
    parts = d.split([0.33, 0.33, 0.34], randomize=False)
    assert [firsts(p) for p in parts] == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    a, b = d.split([4, 6])
    assert sorted(firsts(a) + firsts(b)) == list(range(10)) and firsts(a) == firsts(a)  # fixed across epochs
    gen = ds.GeneratorDataset(lambda: iter(range(10)), ["x"])
    g1, g2 = gen.split([0.5, 0.5])
    assert sorted(firsts(g1) + firsts(g2)) == list(range(10))
    with pytest.raises(ValueError, match="percentages sum to 1.1"):
        d.split([0.5, 0.6])
    with pytest.raises(RuntimeError, match="sum of split sizes 9 is not equal to dataset size 10"):
        d.split([4, 5])
    with pytest.raises(RuntimeError, match="should not be sharded before split"):
        ds.NumpySlicesDataset(np.arange(10), num_shards=2, shard_id=0).split([3, 2])
    shuffled = ds.NumpySlicesDataset(np.arange(8))
    first, second = firsts(shuffled), firsts(shuffled)
    assert first != second
    shuffled.reset()
    assert firsts(shuffled) == first
    shuffled.use_sampler(ds.SequentialSampler(2, 3))
    assert firsts(shuffled) == [2, 3, 4]


def test_progress_lines_for_slow_first_passes(capsys, monkeypatch):
    import sprout.dataset.progress as progress
    clock = iter(range(0, 10_000, 3))
    monkeypatch.setattr(progress.time, "monotonic", lambda: float(next(clock)))
    list(ds.NumpySlicesDataset(np.arange(20), shuffle=False).create_tuple_iterator())
    err = capsys.readouterr().err
    assert "dataset: first pass over NumpySlicesDataset:" in err and "/20 rows" in err and "done" in err
    sprout.set_context(dataset_progress=False)
    try:
        list(ds.NumpySlicesDataset(np.arange(20), shuffle=False).create_tuple_iterator())
        assert capsys.readouterr().err == ""
    finally:
        sprout.set_context(dataset_progress=True)
