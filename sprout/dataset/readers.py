"""File readers for standard datasets: MNIST (IDX files) and CIFAR-10 (binary batches)."""
from __future__ import annotations

import os

import numpy as np

from .sources import MappableDataset

_USAGES = (None, "train", "test", "all")


def _check_dir(op: str, dataset_dir, usage) -> str:
    if not isinstance(dataset_dir, (str, os.PathLike)):
        raise TypeError(f"{op}: dataset_dir must be a path, got {type(dataset_dir).__name__}")
    if not os.path.isdir(dataset_dir):
        raise ValueError(f"{op}: dataset_dir {os.fspath(dataset_dir)!r} is not a directory")
    if usage not in _USAGES:
        raise ValueError(f"{op}: usage must be one of 'train', 'test', 'all' (or None for all), got {usage!r}")
    return os.fspath(dataset_dir)


class _ArraySource(MappableDataset):
    """Base of the readers: ``image`` and ``label`` columns held as two arrays."""

    def __init__(self, op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id):
        super().__init__(op, num_samples, shuffle, sampler, num_shards, shard_id, num_parallel_workers)
        self._images = self._labels = None

    def _columns(self):
        return ["image", "label"]

    def _num_rows(self):
        return len(self._labels)

    def _row(self, i):
        return np.array(self._images[i]), np.array(self._labels[i])


def _find(op: str, directory: str, names) -> str:
    for name in names:
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            return path
    raise ValueError(f"{op}: {names[0]!r} not found in {directory!r}")


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
        raise ValueError(f"{op}: {path!r} holds {body.size} bytes of data, its header says {shape}")
    return body.reshape(shape)


class MnistDataset(_ArraySource):
    """MNIST from the IDX files in ``dataset_dir`` (``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``,
    ``t10k-images-idx3-ubyte``, ``t10k-labels-idx1-ubyte``). Columns: ``image`` (28, 28, 1) uint8 and
    ``label`` uint32. ``usage`` "all" (or None) reads the test files first, then the training files."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "MnistDataset"
        super().__init__(op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        directory = _check_dir(op, dataset_dir, usage)
        prefixes = {"train": ["train"], "test": ["t10k"]}.get(usage, ["t10k", "train"])
        images, labels = [], []
        for p in prefixes:
            img = _read_idx(op, _find(op, directory, [f"{p}-images-idx3-ubyte", f"{p}-images.idx3-ubyte"]), 2051, 3)
            lab = _read_idx(op, _find(op, directory, [f"{p}-labels-idx1-ubyte", f"{p}-labels.idx1-ubyte"]), 2049, 1)
            if len(img) != len(lab):
                raise ValueError(f"{op}: {p} files hold {len(img)} images but {len(lab)} labels")
            images.append(img[..., None])
            labels.append(lab.astype(np.uint32))
        self._images = np.concatenate(images)
        self._labels = np.concatenate(labels)


_CIFAR_RECORD = 1 + 3 * 32 * 32


class Cifar10Dataset(_ArraySource):
    """CIFAR-10 from the binary version's files in ``dataset_dir`` (``data_batch_1.bin`` ... ``data_batch_5.bin``,
    ``test_batch.bin``). Columns: ``image`` (32, 32, 3) uint8 (HWC) and ``label`` uint32. ``usage`` "all"
    (or None) reads the training batches first, then the test batch."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        op = "Cifar10Dataset"
        super().__init__(op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        directory = _check_dir(op, dataset_dir, usage)
        names = []
        if usage in (None, "all", "train"):
            names += sorted((f for f in os.listdir(directory) if f.startswith("data_batch_") and f.endswith(".bin")),
                            key=_batch_number)
        if usage in (None, "all", "test"):
            names += [f for f in os.listdir(directory) if f == "test_batch.bin"]
        if not names:
            raise ValueError(f"{op}: no CIFAR-10 binary files (data_batch_*.bin / test_batch.bin) for usage "
                             f"{usage!r} in {directory!r}")
        records = []
        for name in names:
            raw = np.fromfile(os.path.join(directory, name), dtype=np.uint8)
            if raw.size % _CIFAR_RECORD:
                raise ValueError(f"{op}: {name!r} is {raw.size} bytes, not a whole number of "
                                 f"{_CIFAR_RECORD}-byte records")
            records.append(raw.reshape(-1, _CIFAR_RECORD))
        data = np.concatenate(records)
        self._labels = data[:, 0].astype(np.uint32)
        self._images = np.ascontiguousarray(data[:, 1:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))


def _batch_number(name: str) -> int:
    stem = name[len("data_batch_"):-len(".bin")]
    return int(stem) if stem.isdigit() else 1 << 30
