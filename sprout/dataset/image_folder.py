"""ImageFolderDataset: one class per sub-folder of image files, read (and optionally decoded) row by row."""
from __future__ import annotations

import os

import numpy as np

from .progress import Progress
from .readers import check_dir
from .sources import MappableDataset


def read_encoded(path: str):
    """The bytes of ``path`` as a 1-D uint8 array that remembers the file (for error messages)."""
    from .vision.decode import encoded
    try:
        with open(path, "rb") as f:
            return encoded(f.read(), path)
    except OSError as exc:
        raise RuntimeError(f"cannot read image file {path!r}: {exc}") from exc


def decode_file(op: str, path: str) -> np.ndarray:
    from .vision.decode import decode_rgb
    return decode_rgb(op, read_encoded(path))


def _check_extensions(op, extensions):
    if extensions is None:
        return None
    if isinstance(extensions, str) or not isinstance(extensions, (list, tuple)) or not all(
            isinstance(e, str) for e in extensions):
        raise TypeError(f"{op}: extensions must be a list of str such as ['.jpg', '.png'], got {extensions!r}")
    return tuple(extensions)


class ImageFolderDataset(MappableDataset):
    """Images in ``dataset_dir/<class name>/<file>``: one class per sub-folder, labelled 0, 1, ... in sorted
    folder order (or by ``class_indexing`` {folder: label}, which also limits the folders read). Files are
    taken in sorted order, only those ending with one of ``extensions`` (case-sensitive) if given.
    Columns: ``image`` (the encoded file as 1-D uint8, or with ``decode=True`` an RGB (H, W, 3) uint8 array)
    and ``label`` int32. Decoding runs on ``num_parallel_workers`` threads."""

    _parallel_rows = True

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None,
                 extensions=None, class_indexing=None, decode=False, num_shards=None, shard_id=None, cache=None,
                 decrypt=None):
        op = "ImageFolderDataset"
        super().__init__(op, num_samples, shuffle, sampler, num_shards, shard_id, num_parallel_workers)
        if cache is not None or decrypt is not None:
            raise NotImplementedError(f"{op}: cache and decrypt are not supported by sprout")
        root = check_dir(op, dataset_dir)
        self.decode = bool(decode)
        self.extensions = _check_extensions(op, extensions)
        if class_indexing is None:
            classes = sorted(e.name for e in os.scandir(root) if e.is_dir())
            self._class_indexing = {name: i for i, name in enumerate(classes)}
        else:
            if not isinstance(class_indexing, dict) or not all(
                    isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                    for k, v in class_indexing.items()):
                raise TypeError(f"{op}: class_indexing must be a dict from folder name to int label, got "
                                f"{class_indexing!r}")
            for name in class_indexing:
                if not os.path.isdir(os.path.join(root, name)):
                    raise ValueError(f"{op}: class_indexing names folder {name!r}, which is not a directory in "
                                     f"{root!r}")
            self._class_indexing = dict(class_indexing)
            classes = sorted(class_indexing)
        self._paths, labels = self._scan(op, root, classes)
        self._labels = np.asarray(labels, np.int32)

    def _scan(self, op, root, classes):
        paths, labels = [], []
        progress = Progress(f"{op}: scanning {root}", total=len(classes), unit="folders")
        for name in classes:
            folder = os.path.join(root, name)
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if self.extensions is not None and not entry.name.endswith(self.extensions):
                    continue
                if entry.is_dir():
                    raise RuntimeError(f"{op}: {entry.path!r} is a folder inside class folder {name!r}; class "
                                       "folders must hold image files only (or pass extensions to skip it)")
                paths.append(entry.path)
                labels.append(self._class_indexing[name])
            progress.tick()
        progress.done()
        return paths, labels

    def _columns(self):
        return ["image", "label"]

    def _num_rows(self):
        return len(self._paths)

    def _row(self, i):
        path = self._paths[i]
        image = decode_file("ImageFolderDataset", path) if self.decode else read_encoded(path)
        return image, np.array(self._labels[i])

    def _class_values(self, column):
        if column != "label":
            raise ValueError(f"ImageFolderDataset: class column {column!r} is not 'label'")
        return self._labels

    def _num_classes(self):
        return len(self._class_indexing)

    def get_class_indexing(self) -> dict:
        """The folder-name-to-label mapping."""
        return dict(self._class_indexing)
