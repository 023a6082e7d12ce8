"""File readers for the standard array datasets: MNIST (IDX files), CIFAR-10 and CIFAR-100 (binary batches)."""
from __future__ import annotations

import os

import numpy as np

from .sources import MappableDataset

_USAGES = (None, "train", "test", "all")


def check_dir(op: str, dataset_dir, usage=None, usages=_USAGES) -> str:
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"{op}: dataset_dir must be a path, got {type(dataset_dir).__name__}")
    if not os.path.isdir(dataset_dir):
        raise ValueError(f"{op}: dataset_dir {os.fspath(dataset_dir)!r} is not a directory")
    if usage not in usages:
        names = ", ".join(repr(u) for u in usages if u is not None)
        raise ValueError(f"{op}: usage must be one of {names} (or None for all), got {usage!r}")
    return os.fspath(dataset_dir)



def _no_cache(op: str, cache) -> None:
    """A DatasetCache (MindSpore's cache server) has no counterpart in sprout: refused rather than ignored."""
    if cache is not None:
        raise NotImplementedError(f"{op}: cache (a DatasetCache) is not supported by sprout; pass cache=None")

class ArraySource(MappableDataset):
    """Base of the array readers: named columns held as equally long arrays."""

    _names = ("image", "label")

    def __init__(self, op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id):
        super().__init__(op, num_samples, shuffle, sampler, num_shards, shard_id, num_parallel_workers)
        self._arrays = ()

    def _columns(self):
        return list(self._names)

    def _num_rows(self):
        return len(self._arrays[-1])

    def _row(self, i):
        return tuple(np.array(a[i]) for a in self._arrays)

    def _class_values(self, column):
        if column not in self._names:
            raise ValueError(f"{self._op}: class column {column!r} is not one of its columns {list(self._names)}")
        return np.asarray(self._arrays[self._names.index(column)])


def _find(directory: str, names) -> str | None:
    for name in names:
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            return path
    return None


def _read_idx(op: str, path: str, magic: int, ndim: int) -> np.ndarray:
    raw = np.fromfile(path, dtype=np.uint8)
    header = 4 * (1 + ndim)
    if raw.size < header:
        raise ValueError(f"{op}: {path!r} is too short to be an IDX file")
    fields = raw[:header].view(">u4").astype(np.int64)
    if fields[0] != magic:
        raise ValueError(f"{op}: {path!r} has magic number {fields[0]}, expected {magic}")
    shape = tuple(int(d) for d in fields[1:])
    body = raw[header:]
    if body.size != int(np.prod(shape)):
        raise ValueError(f"{op}: {path!r} holds {body.size} bytes of data, its header says {shape} (truncated?)")
    return body.reshape(shape)


class MnistDataset(ArraySource):
    """MNIST from the IDX files in ``dataset_dir`` (``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
    ``t10k-images-idx3-ubyte``, ``t10k-labels-idx1-ubyte``). Columns: ``image`` (28, 28, 1) uint8 and
    ``label`` uint32. ``usage`` "train"/"test" needs that split's files; "all" (or None) reads whichever
    splits the folder holds, the test files first."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "MnistDataset"
        _no_cache(op, cache)
        super().__init__(op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        directory = check_dir(op, dataset_dir, usage)
        prefixes = {"train": ["train"], "test": ["t10k"]}.get(usage, ["t10k", "train"])
        images, labels = [], []
        for p in prefixes:
            img_path = _find(directory, [f"{p}-images-idx3-ubyte", f"{p}-images.idx3-ubyte"])
            lab_path = _find(directory, [f"{p}-labels-idx1-ubyte", f"{p}-labels.idx1-ubyte"])
            if img_path is None and lab_path is None and usage in (None, "all"):
                continue  # "all" reads the splits that are there
            if img_path is None or lab_path is None:
                missing = f"{p}-images-idx3-ubyte" if img_path is None else f"{p}-labels-idx1-ubyte"
                raise RuntimeError(f"{op}: {missing!r} not found in {directory!r} (needed for usage={usage!r})")
            img, lab = _read_idx(op, img_path, 2051, 3), _read_idx(op, lab_path, 2049, 1)
            if len(img) != len(lab):
                raise ValueError(f"{op}: {p} files hold {len(img)} images but {len(lab)} labels")
            images.append(img[..., None])
            labels.append(lab.astype(np.uint32))
        if not images:
            raise RuntimeError(f"{op}: no MNIST files (train-images-idx3-ubyte, t10k-images-idx3-ubyte, ...) in "
                               f"{directory!r}")
        self._arrays = (np.concatenate(images), np.concatenate(labels))


def _records(op: str, directory: str, names, size: int) -> np.ndarray:
    records = []
    for name in names:
        raw = np.fromfile(os.path.join(directory, name), dtype=np.uint8)
        if raw.size % size:
            raise ValueError(f"{op}: {name!r} is {raw.size} bytes, not a whole number of {size}-byte records "
                             f"(truncated? its last record starts at byte {raw.size // size * size})")
        records.append(raw.reshape(-1, size))
    return np.concatenate(records)


def _hwc(pixels: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(pixels.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))


class Cifar10Dataset(ArraySource):
    """CIFAR-10 from the binary version's files in ``dataset_dir`` (``data_batch_1.bin`` ... ``data_batch_5.bin``,
    ``test_batch.bin``). Columns: ``image`` (32, 32, 3) uint8 (HWC) and ``label`` uint32. ``usage`` "all"
    (or None) reads the training batches first, then the test batch."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "Cifar10Dataset"
        _no_cache(op, cache)
        super().__init__(op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        directory = check_dir(op, dataset_dir, usage)
        names = []
        if usage in (None, "all", "train"):
            names += sorted((f for f in os.listdir(directory) if f.startswith("data_batch_") and f.endswith(".bin")),
                            key=_batch_number)
        if usage in (None, "all", "test"):
            names += [f for f in os.listdir(directory) if f == "test_batch.bin"]
        if not names:
            raise ValueError(f"{op}: no CIFAR-10 binary files (data_batch_*.bin / test_batch.bin) for usage "
                             f"{usage!r} in {directory!r}")
        data = _records(op, directory, names, 1 + 3 * 32 * 32)
        self._arrays = (_hwc(data[:, 1:]), data[:, 0].astype(np.uint32))


def _batch_number(name: str) -> int:
    stem = name[len("data_batch_"):-len(".bin")]
    return int(stem) if stem.isdigit() else 1 << 30


class Cifar100Dataset(ArraySource):
    """CIFAR-100 from the binary version's ``train.bin`` / ``test.bin`` in ``dataset_dir``. Columns: ``image``
    (32, 32, 3) uint8, ``coarse_label`` and ``fine_label`` uint32. ``usage`` "all" (or None): train, then test."""

    _names = ("image", "coarse_label", "fine_label")

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "Cifar100Dataset"
        _no_cache(op, cache)
        super().__init__(op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        directory = check_dir(op, dataset_dir, usage)
        wanted = {"train": ["train.bin"], "test": ["test.bin"]}.get(usage, ["train.bin", "test.bin"])
        names = [n for n in wanted if os.path.isfile(os.path.join(directory, n))]
        if not names or (usage in ("train", "test") and len(names) != len(wanted)):
            raise ValueError(f"{op}: no CIFAR-100 binary files ({' / '.join(wanted)}) for usage {usage!r} in "
                             f"{directory!r}")
        data = _records(op, directory, names, 2 + 3 * 32 * 32)
        self._arrays = (_hwc(data[:, 2:]), data[:, 0].astype(np.uint32), data[:, 1].astype(np.uint32))
