"""Sharding across ranks, samplers and seeded shuffling (shard layouts match MindSpore's)."""
import numpy as np
import pytest

import sprout.dataset as ds

from .helpers import firsts


def n10(**kwargs):
    return ds.NumpySlicesDataset(np.arange(10), **kwargs)


class TestShards:
    @pytest.mark.parametrize("num_shards, expected", [
        (3, [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]),
        (4, [[0, 4, 8], [1, 5, 9], [2, 6, 0], [3, 7, 1]]),
    ])
    def test_every_shard_gets_ceil_n_over_k_rows_wrapping_around(self, num_shards, expected):
        for shard_id, want in enumerate(expected):
            d = n10(shuffle=False, num_shards=num_shards, shard_id=shard_id)
            assert d.get_dataset_size() == len(want)
            assert firsts(d) == want

    def test_num_samples_caps_each_shard(self):
        assert firsts(n10(shuffle=False, num_samples=3, num_shards=2, shard_id=1)) == [1, 3, 5]
        assert firsts(n10(shuffle=False, num_samples=7, num_shards=2, shard_id=1)) == [1, 3, 5, 7, 9]

    def test_shuffled_shards_partition_one_permutation(self):
        ds.config.set_seed(7)
        shards = [firsts(n10(num_shards=2, shard_id=i)) for i in range(2)]
        assert sorted(shards[0] + shards[1]) == list(range(10))
        assert shards[0] != [0, 2, 4, 6, 8]

    def test_random_access_generator_shards(self):
        class Source:
            def __getitem__(self, i):
                return (np.array(i),)

            def __len__(self):
                return 7

        got = [firsts(ds.GeneratorDataset(Source(), ["x"], shuffle=False, num_shards=3, shard_id=s))
               for s in range(3)]
        assert got == [[0, 3, 6], [1, 4, 0], [2, 5, 1]]

    def test_argument_errors(self):
        with pytest.raises(ValueError, match="num_shards and shard_id must be given together"):
            n10(num_shards=2)
        with pytest.raises(ValueError, match=r"shard_id must be less than num_shards \(2\), got 2"):
            n10(num_shards=2, shard_id=2)


class TestSamplers:
    def test_sequential(self):
        assert firsts(n10(sampler=ds.SequentialSampler(2, 3))) == [2, 3, 4]
        assert firsts(n10(sampler=ds.SequentialSampler(8))) == [8, 9]

    def test_distributed(self):
        assert firsts(n10(sampler=ds.DistributedSampler(3, 1, shuffle=False))) == [1, 4, 7, 0]
        assert firsts(n10(sampler=ds.DistributedSampler(3, 1, shuffle=False, num_samples=2))) == [1, 4]

    def test_subsets(self):
        assert firsts(n10(sampler=ds.SubsetSampler([4, 2, 9]))) == [4, 2, 9]
        assert sorted(firsts(n10(sampler=ds.SubsetRandomSampler([1, 2, 3])))) == [1, 2, 3]
        assert firsts(n10(sampler=[5, 1, 3], shuffle=True)) == [5, 1, 3]  # a list ignores shuffle, as in MindSpore

    def test_random(self):
        d = n10(sampler=ds.RandomSampler(num_samples=4))
        got = firsts(d)
        assert d.get_dataset_size() == 4 and len(set(got)) == 4
        with_replacement = firsts(n10(sampler=ds.RandomSampler(replacement=True)))
        assert len(with_replacement) == 10 and set(with_replacement) <= set(range(10))

    def test_user_sampler(self):
        class Evens(ds.Sampler):
            def __iter__(self):
                return iter(range(0, self.dataset_size, 2))

        assert firsts(n10(sampler=Evens())) == [0, 2, 4, 6, 8]
        assert firsts(n10(sampler=Evens(num_samples=2))) == [0, 2]

    def test_sampler_conflicts(self):
        with pytest.raises(ValueError, match="sampler cannot be combined with shuffle"):
            n10(shuffle=False, sampler=ds.SequentialSampler())
        with pytest.raises(ValueError, match="SubsetSampler: index 10 is out of range"):
            firsts(n10(sampler=ds.SubsetSampler([10])))


class TestSeededShuffle:
    def test_same_seed_same_order_across_fresh_pipelines(self):
        ds.config.set_seed(1)
        a = firsts(n10())
        ds.config.set_seed(1)
        b = firsts(n10())
        ds.config.set_seed(2)
        c = firsts(n10())
        assert a == b and a != c and sorted(a) == list(range(10))

    def test_each_epoch_and_each_iterator_reshuffles(self):
        ds.config.set_seed(3)
        d = n10()
        it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
        e1, e2 = [int(r[0]) for r in it], [int(r[0]) for r in it]
        again = firsts(d)
        assert sorted(e1) == sorted(e2) == list(range(10))
        assert len({tuple(e1), tuple(e2), tuple(again)}) == 3

    def test_repeat_reshuffles_every_pass(self):
        ds.config.set_seed(4)
        got = firsts(n10().repeat(2))
        assert sorted(got[:10]) == sorted(got[10:]) == list(range(10)) and got[:10] != got[10:]

    def test_buffer_shuffle(self):
        ds.config.set_seed(5)
        d = n10(shuffle=False).shuffle(4)
        got = firsts(d)
        assert sorted(got) == list(range(10)) and got != list(range(10)) and d.get_dataset_size() == 10
        ds.config.set_seed(5)
        assert firsts(n10(shuffle=False).shuffle(4)) == got
        with pytest.raises(ValueError, match=r"shuffle: buffer_size must be in \[2, "):
            n10().shuffle(1)

    def test_buffer_shuffle_moves_rows_at_most_buffer_ahead(self):
        ds.config.set_seed(6)
        got = firsts(ds.NumpySlicesDataset(np.arange(100), shuffle=False).shuffle(3))
        assert all(pos + 3 > value for pos, value in enumerate(got))  # row v can appear from position v - 2 on

    def test_output_shapes_does_not_disturb_the_order(self):
        ds.config.set_seed(8)
        a = firsts(n10().shuffle(5))
        ds.config.set_seed(8)
        d = n10().shuffle(5)
        d.output_shapes()
        assert firsts(d) == a

    @pytest.mark.usefixtures("eight_cores")
    def test_config(self):
        ds.config._state["seed"] = None
        assert ds.config.get_seed() == 5489  # MindSpore's default
        ds.config.set_seed(11)
        assert ds.config.get_seed() == 11
        with pytest.raises(ValueError, match="config.set_seed: seed must be in"):
            ds.config.set_seed(-1)
        ds.config.set_num_parallel_workers(4)
        assert ds.config.get_num_parallel_workers() == 4
