"""num_parallel_workers: threads or forked processes, rows in order, errors and dead workers reported (never a hang)."""
import logging
import os
import threading
import time

import numpy as np
import pytest

import sprout.dataset as ds
import sprout.dataset.vision as V

from .helpers import deadline, firsts

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forked")


def numbers(n=40):
    return ds.NumpySlicesDataset({"x": np.arange(n)}, shuffle=False)


@pytest.mark.usefixtures("eight_cores")
@pytest.mark.parametrize("processes", [False, True])
def test_parallel_map_keeps_the_order(processes):
    with deadline(60):
        got = firsts(numbers().map(lambda x: x * 3, num_parallel_workers=3, python_multiprocessing=processes))
    assert got == [3 * i for i in range(40)]


def test_work_really_runs_in_other_processes_and_threads():
    pids = firsts(numbers(20).map(lambda x: np.array(os.getpid()), num_parallel_workers=2,
                                  python_multiprocessing=True))
    assert os.getpid() not in pids and len(set(pids)) >= 1
    names = []

    def record(x):
        names.append(threading.current_thread().name)
        time.sleep(0.002)
        return x
    firsts(numbers(20).map(record, num_parallel_workers=2))
    assert {n.startswith("sprout-map") for n in names} == {True}


def test_random_ops_differ_between_worker_processes():
    images = ds.NumpySlicesDataset({"x": np.ones((32, 6, 6, 3), np.uint8)}, shuffle=False)
    ds.config.set_seed(5)
    cut = images.map(V.CutOut(2), num_parallel_workers=2, python_multiprocessing=True)
    masks = [tuple(np.argwhere(r[0][:, :, 0] == 0)[0]) for r in cut.create_tuple_iterator(output_numpy=True)]
    assert len(set(masks)) > 1  # each worker reseeds its copy; they do not repeat one stream


@pytest.mark.parametrize("processes", [False, True])
def test_errors_come_back_with_the_row(processes):
    def boom(x):
        if int(x) == 7:
            raise ValueError("bad seven")
        return x
    with deadline(60), pytest.raises(ValueError, match="bad seven") as info:
        firsts(numbers().map(boom, num_parallel_workers=2, python_multiprocessing=processes))
    assert any("failed on row 7" in n for n in info.value.__notes__)


def test_a_dead_worker_process_is_an_error_not_a_hang():
    def die(x):
        if int(x) == 5:
            os._exit(3)
        return x
    with deadline(60), pytest.raises(RuntimeError, match="a worker process died"):
        firsts(numbers().map(die, num_parallel_workers=2, python_multiprocessing=True))


def test_parallel_sources_and_batch():
    class Squares:
        def __getitem__(self, i):
            return np.array(i * i), np.array([i, -i])

        def __len__(self):
            return 12
    with deadline(60):
        got = firsts(ds.GeneratorDataset(Squares(), ["a", "b"], shuffle=False, num_parallel_workers=2))
        assert got == [i * i for i in range(12)]
        batches = numbers(10).batch(4, per_batch_map=lambda xs, info: ([x + info.get_batch_num() for x in xs],),
                                    num_parallel_workers=2)
        assert [r[0] for r in batches.create_tuple_iterator(output_numpy=True)][2].tolist() == [10, 11]


def test_config_workers_debug_mode_and_prefetch(caplog, eight_cores):
    assert ds.config.get_num_parallel_workers() == min(8, os.cpu_count()) and ds.config.get_prefetch_size() == 16
    seen = set()

    def where(x):
        seen.add(threading.current_thread().name)
        return x
    ds.config.set_num_parallel_workers(2)
    firsts(numbers(20).map(where))
    assert any(n.startswith("sprout-map") for n in seen)
    seen.clear()
    ds.config.set_debug_mode(True)
    firsts(numbers(20).map(where, num_parallel_workers=4))
    assert seen == {threading.current_thread().name}
    ds.config.set_debug_mode(False)
    ds.config.set_prefetch_size(3)
    assert ds.config.get_prefetch_size() == 3
    ds.config.set_multiprocessing_timeout_interval(1)
    with caplog.at_level(logging.WARNING, logger="sprout.dataset"), deadline(60):
        firsts(numbers(2).map(lambda x: time.sleep(1.5) or x, num_parallel_workers=2))
    assert "still waiting for a result" in caplog.text
    with pytest.raises(NotImplementedError, match="shared memory is not available"):
        ds.config.set_enable_shared_mem(True)
    ds.config.set_enable_shared_mem(False)


@pytest.mark.usefixtures("eight_cores")
def test_random_augmentation_is_the_same_for_any_worker_count():
    ds.config.set_seed(11)
    images = ds.NumpySlicesDataset({"x": np.arange(24 * 8 * 8 * 3, dtype=np.uint8).reshape(24, 8, 8, 3)},
                                   shuffle=False)
    ops = [V.RandomCrop(6, padding=1), V.RandomHorizontalFlip(), V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)]
    outs = []
    for workers, processes in [(1, False), (3, False), (2, True)]:
        data = images.map(ops, num_parallel_workers=workers, python_multiprocessing=processes)
        with deadline(60):
            outs.append([r[0] for r in data.create_tuple_iterator(output_numpy=True)])
    for other in outs[1:]:
        for a, b in zip(outs[0], other):
            np.testing.assert_array_equal(a, b)
    assert len({a.tobytes() for a in outs[0]}) > 1
    again = [r[0] for r in data.create_tuple_iterator(output_numpy=True)]
    assert any(not np.array_equal(a, b) for a, b in zip(again, outs[2]))  # a new iterator draws anew


def test_worker_counts_are_capped_by_the_cpu_count(monkeypatch):
    from sprout.dataset import _checks
    monkeypatch.setattr(_checks, "cpu_count", lambda: 2)
    data = numbers(4)
    for build in (lambda: data.map(lambda x: x, num_parallel_workers=3), lambda: data.batch(2, num_parallel_workers=3),
                  lambda: ds.NumpySlicesDataset([1, 2], num_parallel_workers=3)):
        with pytest.raises(ValueError, match="num_parallel_workers exceeds the boundary between 1 and 2"):
            build()
    with pytest.raises(RuntimeError, match="set_num_parallel_workers: num exceeds the boundary between 1 and 2"):
        ds.config.set_num_parallel_workers(3)
    ds.config.set_num_parallel_workers(2)
    assert firsts(data.map(lambda x: x * 2, num_parallel_workers=2)) == firsts(data.map(lambda x: x * 2))
