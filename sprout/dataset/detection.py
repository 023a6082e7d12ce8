"""Readers for annotated image datasets stored as plain files: CelebA, Pascal VOC and COCO (detection)."""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ElementTree

import numpy as np

from .image_folder import decode_file, read_encoded
from .readers import check_dir
from .sources import MappableDataset


class _ImageRows(MappableDataset):
    """Base: rows of (image file, annotation arrays); images are read lazily and decoded if asked."""

    _parallel_rows = True

    def __init__(self, op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, decode,
                 cache=None, decrypt=None):
        super().__init__(op, num_samples, shuffle, sampler, num_shards, shard_id, num_parallel_workers)
        if cache is not None or decrypt is not None:
            raise NotImplementedError(f"{op}: cache and decrypt are not supported by sprout")
        self.decode = bool(decode)
        self._items: list[tuple] = []  # (image path, annotation arrays...)

    def _num_rows(self):
        return len(self._items)

    def _image(self, path):
        return decode_file(self._op, path) if self.decode else read_encoded(path)

    def _row(self, i):
        path, *rest = self._items[i]
        return (self._image(path), *[r if isinstance(r, np.ndarray) else self._image(r) for r in rest])


class CelebADataset(_ImageRows):
    """CelebA: images in ``dataset_dir`` listed by ``list_attr_celeba.txt``; ``usage`` "train"/"valid"/"test"
    picks rows by ``list_eval_partition.txt`` ("all" every row). Columns ``image`` and ``attr`` (uint32, the
    40 attributes with -1 as 0)."""

    def __init__(self, dataset_dir, num_parallel_workers=None, shuffle=None, usage="all", sampler=None, decode=False,
                 extensions=None, num_samples=None, num_shards=None, shard_id=None, cache=None, decrypt=None):
        op = "CelebADataset"
        super().__init__(op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, decode,
                         cache, decrypt)
        root = check_dir(op, dataset_dir, usage, ("train", "valid", "test", "all"))
        attr_file = os.path.join(root, "list_attr_celeba.txt")
        if not os.path.isfile(attr_file):
            raise ValueError(f"{op}: {attr_file!r} not found")
        keep = None
        if usage != "all":
            part_file = os.path.join(root, "list_eval_partition.txt")
            if not os.path.isfile(part_file):
                raise ValueError(f"{op}: usage={usage!r} needs {part_file!r}")
            wanted = {"train": "0", "valid": "1", "test": "2"}[usage]
            with open(part_file) as f:
                keep = {p[0] for p in (line.split() for line in f) if len(p) == 2 and p[1] == wanted}
        with open(attr_file) as f:
            lines = f.read().splitlines()
        if len(lines) < 2:
            raise ValueError(f"{op}: {attr_file!r} is too short (count line, names line, then rows)")
        n_attr = len(lines[1].split())
        for number, line in enumerate(lines[2:], 3):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != n_attr + 1:
                raise ValueError(f"{op}: line {number} of {attr_file!r} has {len(parts) - 1} attributes, expected "
                                 f"{n_attr}")
            name = parts[0]
            if keep is not None and name not in keep:
                continue
            if extensions is not None and not name.endswith(tuple(extensions)):
                continue
            attr = np.array([1 if v == "1" else 0 for v in parts[1:]], np.uint32)
            self._items.append((os.path.join(root, name), attr))

    def _columns(self):
        return ["image", "attr"]


class VOCDataset(_ImageRows):
    """Pascal VOC (``dataset_dir`` = e.g. VOC2012/): the ids of ``ImageSets/<Main|Segmentation>/<usage>.txt``.
    task "Segmentation": columns ``image``, ``target`` (the SegmentationClass PNG). task "Detection": columns
    ``image``, ``bbox`` (float32 (n, 4) x, y, width, height), ``label``, ``difficult``, ``truncate`` (uint32
    (n, 1)); labels by ``class_indexing`` or the sorted object names."""

    def __init__(self, dataset_dir, task="Segmentation", usage="train", class_indexing=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None,
                 cache=None, extra_metadata=False, decrypt=None):
        op = "VOCDataset"
        super().__init__(op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, decode,
                         cache, decrypt)
        if extra_metadata:
            raise NotImplementedError(f"{op}: extra_metadata is not supported by sprout")
        root = check_dir(op, dataset_dir)
        if task not in ("Segmentation", "Detection"):
            raise ValueError(f"{op}: task must be 'Segmentation' or 'Detection', got {task!r}")
        if task == "Segmentation" and class_indexing is not None:
            raise ValueError(f"{op}: class_indexing is for task='Detection' only")
        self.task = task
        listing = os.path.join(root, "ImageSets", "Segmentation" if task == "Segmentation" else "Main", f"{usage}.txt")
        if not os.path.isfile(listing):
            raise ValueError(f"{op}: {listing!r} not found (usage={usage!r})")
        with open(listing) as f:
            ids = [line.strip() for line in f if line.strip()]
        if task == "Segmentation":
            self._items = [(os.path.join(root, "JPEGImages", f"{i}.jpg"),
                            os.path.join(root, "SegmentationClass", f"{i}.png")) for i in ids]
            return
        objects = [self._objects(op, os.path.join(root, "Annotations", f"{i}.xml")) for i in ids]
        if class_indexing is None:
            class_indexing = {n: k for k, n in enumerate(sorted({o[0] for objs in objects for o in objs}))}
        elif not isinstance(class_indexing, dict):
            raise TypeError(f"{op}: class_indexing must be a dict from class name to label, got {class_indexing!r}")
        self._class_indexing = dict(class_indexing)
        for i, objs in zip(ids, objects):
            missing = [o[0] for o in objs if o[0] not in self._class_indexing]
            if missing:
                raise ValueError(f"{op}: annotation {i}.xml names class {missing[0]!r}, which is not in class_indexing")
            col = np.array([[self._class_indexing[o[0]]] for o in objs], np.uint32).reshape(-1, 1)
            bbox = np.array([o[3] for o in objs], np.float32).reshape(-1, 4)
            self._items.append((os.path.join(root, "JPEGImages", f"{i}.jpg"), bbox, col,
                                np.array([[o[1]] for o in objs], np.uint32).reshape(-1, 1),
                                np.array([[o[2]] for o in objs], np.uint32).reshape(-1, 1)))

    @staticmethod
    def _objects(op, path):
        if not os.path.isfile(path):
            raise ValueError(f"{op}: annotation file {path!r} not found")
        try:
            root = ElementTree.parse(path).getroot()
            out = []
            for obj in root.iter("object"):
                box = obj.find("bndbox")
                x0, y0, x1, y1 = (float(box.find(k).text) for k in ("xmin", "ymin", "xmax", "ymax"))
                if not (x0 > 0 and y0 > 0 and x1 > x0 and y1 > y0):
                    raise ValueError(f"the bndbox {(x0, y0, x1, y1)} must have 0 < min < max (VOC is 1-based)")
                out.append((obj.find("name").text.strip(), int(float(obj.findtext("difficult", "0"))),
                            int(float(obj.findtext("truncated", "0"))), (x0, y0, x1 - x0, y1 - y0)))
            return out
        except (ElementTree.ParseError, AttributeError, TypeError, ValueError) as exc:
            raise ValueError(f"{op}: invalid annotation file {path!r}: {exc}") from None

    def _columns(self):
        if self.task == "Segmentation":
            return ["image", "target"]
        return ["image", "bbox", "label", "difficult", "truncate"]

    def get_class_indexing(self) -> dict:
        if self.task != "Detection":
            raise ValueError("VOCDataset: get_class_indexing is for task='Detection' only")
        return dict(self._class_indexing)


class CocoDataset(_ImageRows):
    """COCO detection: images in ``dataset_dir`` described by ``annotation_file``. Columns ``image``, ``bbox``
    (float32 (n, 4) as in the file: x, y, width, height), ``category_id`` and ``iscrowd`` (uint32 (n, 1))."""

    def __init__(self, dataset_dir, annotation_file, task="Detection", num_samples=None, num_parallel_workers=None,
                 shuffle=None, decode=False, sampler=None, num_shards=None, shard_id=None, cache=None,
                 extra_metadata=False, decrypt=None):
        op = "CocoDataset"
        super().__init__(op, num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, decode,
                         cache, decrypt)
        if task != "Detection":
            raise NotImplementedError(f"{op}: sprout reads task='Detection' only, got {task!r}")
        if extra_metadata:
            raise NotImplementedError(f"{op}: extra_metadata is not supported by sprout")
        root = check_dir(op, dataset_dir)
        try:
            with open(annotation_file) as f:
                doc = json.load(f)
            images = {im["id"]: im["file_name"] for im in doc["images"]}
            anns = {}
            for a in doc["annotations"]:
                anns.setdefault(a["image_id"], []).append(a)
            self._class_indexing = {c["name"]: [c["id"]] for c in doc.get("categories", [])}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{op}: cannot read annotation_file {annotation_file!r}: {exc}") from None
        for image_id, name in images.items():
            objs = anns.get(image_id, [])
            try:
                bbox = np.array([a["bbox"] for a in objs], np.float32).reshape(-1, 4)
            except (KeyError, ValueError) as exc:
                raise ValueError(f"{op}: annotations of image {name!r} have a bad bbox: {exc}") from None
            self._items.append((os.path.join(root, name), bbox,
                                np.array([[a["category_id"]] for a in objs], np.uint32).reshape(-1, 1),
                                np.array([[a.get("iscrowd", 0)] for a in objs], np.uint32).reshape(-1, 1)))

    def _columns(self):
        return ["image", "bbox", "category_id", "iscrowd"]

    def get_class_indexing(self) -> dict:
        return {k: list(v) for k, v in self._class_indexing.items()}
