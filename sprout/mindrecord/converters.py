"""Converters from standard dataset layouts to MindRecord: Cifar10ToMR, Cifar100ToMR, MnistToMR, ImageNetToMR,
CsvToMR (MindSpore's schemas and file names; images re-encoded as JPEG with Pillow)."""
from __future__ import annotations

import csv
import gzip
import io
import os
import pickle

import numpy as np

from .writer import FileWriter

SUCCESS = 0


def _check_source(op, path, folder=True):
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{op}: expects a path, got {path!r}")
    if (folder and not os.path.isdir(path)) or (not folder and not os.path.isfile(path)):
        raise ValueError(f"{op}: {os.fspath(path)!r} is not a {'directory' if folder else 'file'}")
    return os.fspath(path)


def _check_destination(op, destination):
    if not isinstance(destination, (str, os.PathLike)) or not os.fspath(destination):
        raise ValueError(f"{op}: destination must be a file path, got {destination!r}")
    return os.fspath(destination)


def _check_partitions(op, n):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"{op}: partition_number must be a positive int, got {n!r}")
    return n


def jpeg(img: np.ndarray, quality: int = 95) -> bytes:
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(img.astype(np.uint8))).save(buf, "JPEG", quality=quality)
    return buf.getvalue()


class _SafeUnpickler(pickle.Unpickler):
    """Unpickle CIFAR's python batches: plain containers and NumPy arrays only."""

    _ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
                ("numpy", "ndarray"), ("numpy", "dtype"), ("builtins", "bytes")}

    def find_class(self, module, name):
        if (module, name) in self._ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"global '{module}.{name}' is not allowed in a CIFAR batch file")


def _load_batch(path):
    with open(path, "rb") as f:
        return _SafeUnpickler(f, encoding="bytes").load()


def _write(path, schema, desc, rows, fields, shards=1, header_size=None, page_size=None):
    writer = FileWriter(path, shards)
    if header_size:
        writer.set_header_size(header_size)
    if page_size:
        writer.set_page_size(page_size)
    writer.add_schema(schema, desc)
    if fields:
        writer.add_index(fields)
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == 256:
            writer.write_raw_data(batch)
            batch = []
    if batch:
        writer.write_raw_data(batch)
    writer.commit()


class Cifar10ToMR:
    """CIFAR-10 (python version: ``data_batch_*`` and ``test_batch`` pickles) to MindRecord files
    ``destination`` (training set) and ``destination + "_test"``; rows {"id", "data" (JPEG bytes), "label"}."""

    _schema = {"id": {"type": "int64"}, "label": {"type": "int64"}, "data": {"type": "bytes"}}

    def __init__(self, source, destination):
        self.source = _check_source(type(self).__name__, source)
        self.destination = _check_destination(type(self).__name__, destination)
        files = os.listdir(self.source)
        for prefix in ("data_batch_", "test_batch"):
            if not any(f.startswith(prefix) for f in files):
                raise ValueError(f"{type(self).__name__}: no {prefix}* file in {self.source!r}")

    _labels = {"label": b"labels"}  # row field -> key of the batch pickle

    def _rows(self, names):
        idx = 0
        for name in names:
            batch = _load_batch(os.path.join(self.source, name))
            images = np.asarray(batch[b"data"]).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
            for k, img in enumerate(images):
                yield {"id": idx, "data": jpeg(img), **{f: int(batch[key][k]) for f, key in self._labels.items()}}
                idx += 1

    def run(self, fields=None):
        if fields is not None and not isinstance(fields, list):
            raise ValueError(f"{type(self).__name__}: fields must be None or a list of index fields")
        train = sorted((f for f in os.listdir(self.source) if f.startswith("data_batch_")),
                       key=lambda f: (len(f), f))
        _write(self.destination, self._schema, "img_train", self._rows(train), fields)
        _write(self.destination + "_test", self._schema, "img_test", self._rows(["test_batch"]), fields)
        return SUCCESS

    transform = run


class Cifar100ToMR(Cifar10ToMR):
    """CIFAR-100 (python version: ``train`` and ``test`` pickles) to ``destination`` and ``destination + "_test"``;
    rows {"id", "data" (JPEG bytes), "fine_label", "coarse_label"}."""

    _schema = {"id": {"type": "int64"}, "data": {"type": "bytes"}, "fine_label": {"type": "int64"},
               "coarse_label": {"type": "int64"}}

    def __init__(self, source, destination):
        self.source = _check_source(type(self).__name__, source)
        self.destination = _check_destination(type(self).__name__, destination)
        for name in ("train", "test"):
            if not os.path.isfile(os.path.join(self.source, name)):
                raise ValueError(f"{type(self).__name__}: no {name!r} file in {self.source!r}")

    _labels = {"fine_label": b"fine_labels", "coarse_label": b"coarse_labels"}

    def run(self, fields=None):
        if fields is not None and not isinstance(fields, list):
            raise ValueError(f"{type(self).__name__}: fields must be None or a list of index fields")
        _write(self.destination, self._schema, "img_train", self._rows(["train"]), fields)
        _write(self.destination + "_test", self._schema, "img_test", self._rows(["test"]), fields)
        return SUCCESS

    transform = run


class MnistToMR:
    """MNIST's gzipped IDX files in ``source`` to ``destination_train.mindrecord`` and
    ``destination_test.mindrecord`` (``partition_number`` shards each); rows {"label", "data" (JPEG bytes)}."""

    _schema = {"label": {"type": "int64"}, "data": {"type": "bytes"}}

    def __init__(self, source, destination, partition_number=1):
        op = "MnistToMR"
        self.source = _check_source(op, source)
        self.destination = _check_destination(op, destination)
        self.partition_number = _check_partitions(op, partition_number)
        for name in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
                     "t10k-labels-idx1-ubyte.gz"):
            if not os.path.isfile(os.path.join(self.source, name)):
                raise ValueError(f"{op}: {name!r} not found in {self.source!r}")

    def _rows(self, prefix):
        with gzip.open(os.path.join(self.source, f"{prefix}-images-idx3-ubyte.gz"), "rb") as f:
            images = np.frombuffer(f.read()[16:], np.uint8).reshape(-1, 28, 28)
        with gzip.open(os.path.join(self.source, f"{prefix}-labels-idx1-ubyte.gz"), "rb") as f:
            labels = np.frombuffer(f.read()[8:], np.uint8)
        if len(images) != len(labels):
            raise ValueError(f"MnistToMR: {prefix} files hold {len(images)} images but {len(labels)} labels")
        for img, label in zip(images, labels):
            yield {"label": int(label), "data": jpeg(img)}

    def run(self):
        for prefix, split in (("train", "train"), ("t10k", "test")):
            _write(f"{self.destination}_{split}.mindrecord", self._schema, f"mnist_{split}", self._rows(prefix),
                   None, self.partition_number)
        return SUCCESS

    transform = run


class ImageNetToMR:
    """Image folders named in ``map_file`` (lines "<folder> <label>") under ``image_dir`` to ``destination``
    (``partition_number`` shards); rows {"label" int32, "image" (the file's bytes), "file_name"}; only
    ``*.JPEG`` / ``*.jpg`` files are taken."""

    _schema = {"label": {"type": "int32"}, "image": {"type": "bytes"}, "file_name": {"type": "string"}}

    def __init__(self, map_file, image_dir, destination, partition_number=1):
        op = "ImageNetToMR"
        self.map_file = _check_source(op, map_file, folder=False)
        self.image_dir = _check_source(op, image_dir)
        self.destination = _check_destination(op, destination)
        self.partition_number = _check_partitions(op, partition_number)

    def _rows(self):
        folders = []
        with open(self.map_file) as f:
            for number, line in enumerate(f, 1):
                parts = line.split()
                if not parts:
                    continue
                if len(parts) != 2 or not parts[1].lstrip("-").isdigit():
                    raise ValueError(f"ImageNetToMR: line {number} of {self.map_file!r} is not '<folder> <label>': "
                                     f"{line.strip()!r}")
                folders.append((parts[0], int(parts[1])))
        found = [(os.path.join(self.image_dir, d), label) for d, label in folders
                 if os.path.isdir(os.path.join(self.image_dir, d))]
        if not found:
            raise ValueError(f"ImageNetToMR: none of the folders of {self.map_file!r} is in {self.image_dir!r}")
        for folder, label in found:
            for item in sorted(os.listdir(folder)):
                if not item.endswith(("JPEG", "jpg")):
                    continue
                path = os.path.join(folder, item)
                with open(path, "rb") as f:
                    data = f.read()
                if data:
                    yield {"file_name": path, "label": label, "image": data}

    def run(self):
        _write(self.destination, self._schema, "imagenet_schema", self._rows(), ["label", "file_name"],
               self.partition_number, 1 << 24, 1 << 26)
        return SUCCESS

    transform = run


def _csv_kind(values):
    def fits(cast):
        try:
            for v in values:
                cast(v)
            return True
        except ValueError:
            return False
    if values and all(v in ("True", "False") for v in values):
        return "int32"
    if fits(int):
        return "int64"
    if fits(float):
        return "float64"
    return "string"


class CsvToMR:
    """A CSV file (header line of column names) to ``destination``: columns of ints become int64, numbers
    float64, True/False int32, anything else string (as pandas would type them); every column is indexed."""

    def __init__(self, source, destination, columns_list=None, partition_number=1):
        op = "CsvToMR"
        self.source = _check_source(op, source, folder=False)
        self.destination = _check_destination(op, destination)
        if columns_list is not None and (not isinstance(columns_list, list) or not all(
                isinstance(c, str) for c in columns_list)):
            raise ValueError(f"{op}: columns_list must be a list of str, got {columns_list!r}")
        self.columns_list = columns_list
        self.partition_number = _check_partitions(op, partition_number)

    def run(self):
        with open(self.source, newline="") as f:
            table = list(csv.reader(f))
        if not table:
            raise RuntimeError(f"CsvToMR: {self.source!r} is empty")
        header, body = table[0], table[1:]
        columns = self.columns_list or header
        for c in columns:
            if c not in header:
                raise RuntimeError(f"CsvToMR: column {c!r} does not exist in {self.source!r}")
            if c.isdigit():
                raise ValueError(f"CsvToMR: column name {c!r} must not be a number")
        idx = [header.index(c) for c in columns]
        kinds = {c: _csv_kind([r[i] for r in body]) for c, i in zip(columns, idx)}
        cast = {"int64": int, "float64": float, "int32": lambda v: int(v == "True"), "string": str}
        rows = ({c: cast[kinds[c]](r[i]) for c, i in zip(columns, idx)} for r in body)
        _write(self.destination, {c: {"type": k} for c, k in kinds.items()}, "csv_schema", rows, list(columns),
               self.partition_number, 1 << 24, 1 << 26)
        return SUCCESS

    transform = run
