"""CelebA, VOC and COCO readers on tiny generated folders; the expected rows are what MindSpore 2.10 reads from
the same files."""
import json

import numpy as np
import pytest
from PIL import Image

import sprout.dataset as ds


def image(path, value):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(np.full((6, 8, 3), value, np.uint8)).save(path)


def rows(d):
    return [{k: v.tolist() for k, v in r.items() if k != "image"} for r in d.create_dict_iterator(output_numpy=True)]


def test_celeba(tmp_path):
    for i in range(1, 5):
        image(tmp_path / f"00000{i}.jpg", i * 20)
    (tmp_path / "list_attr_celeba.txt").write_text(
        "4\nShadow Arched Attractive\n000001.jpg -1  1  1\n000002.jpg  1 -1 -1\n000003.jpg -1 -1  1\n"
        "000004.jpg  1  1  1\n")
    (tmp_path / "list_eval_partition.txt").write_text("000001.jpg 0\n000002.jpg 0\n000003.jpg 1\n000004.jpg 2\n")
    d = ds.CelebADataset(str(tmp_path), shuffle=False)
    assert d.get_col_names() == ["image", "attr"]
    assert [r["attr"] for r in rows(d)] == [[0, 1, 1], [1, 0, 0], [0, 0, 1], [1, 1, 1]]
    valid = ds.CelebADataset(str(tmp_path), shuffle=False, usage="valid", decode=True)
    r = next(valid.create_dict_iterator(output_numpy=True))
    assert r["attr"].dtype == np.uint32 and r["image"].shape == (6, 8, 3) and abs(int(r["image"].mean()) - 60) <= 1
    assert ds.CelebADataset(str(tmp_path), usage="train").get_dataset_size() == 2


@pytest.fixture
def voc(tmp_path):
    root = tmp_path / "VOC2012"
    for n in ("2007_000001", "2007_000002"):
        image(root / "JPEGImages" / f"{n}.jpg", 50)
        (root / "SegmentationClass").mkdir(parents=True, exist_ok=True)
        Image.fromarray(np.full((6, 8), 3, np.uint8), "L").convert("P").save(root / "SegmentationClass" / f"{n}.png")
    for task in ("Segmentation", "Main"):
        (root / "ImageSets" / task).mkdir(parents=True)
        (root / "ImageSets" / task / "train.txt").write_text("2007_000001\n2007_000002\n")

    def ann(objs):
        return "<annotation>" + "".join(
            f"<object><name>{n}</name><truncated>{t}</truncated><difficult>{d}</difficult><bndbox><xmin>{b[0]}</xmin>"
            f"<ymin>{b[1]}</ymin><xmax>{b[2]}</xmax><ymax>{b[3]}</ymax></bndbox></object>" for n, t, d, b in objs) \
            + "</annotation>"
    (root / "Annotations").mkdir()
    first = ann([("dog", 0, 0, (1, 2, 5, 6)), ("cat", 1, 0, (1, 1, 3, 3))])
    (root / "Annotations" / "2007_000001.xml").write_text(first)
    (root / "Annotations" / "2007_000002.xml").write_text(ann([("person", 0, 1, (2.5, 1, 7, 5))]))
    return root


def test_voc_detection_and_segmentation(voc):
    d = ds.VOCDataset(str(voc), task="Detection", usage="train", shuffle=False)
    assert d.get_col_names() == ["image", "bbox", "label", "difficult", "truncate"]
    assert d.get_class_indexing() == {"cat": 0, "dog": 1, "person": 2}
    assert rows(d) == [
        {"bbox": [[1.0, 2.0, 4.0, 4.0], [1.0, 1.0, 2.0, 2.0]], "label": [[1], [0]], "difficult": [[0], [0]],
         "truncate": [[0], [1]]},
        {"bbox": [[2.5, 1.0, 4.5, 4.0]], "label": [[2]], "difficult": [[1]], "truncate": [[0]]}]
    custom = ds.VOCDataset(str(voc), task="Detection", shuffle=False, class_indexing={"dog": 5, "cat": 1, "person": 0})
    assert [r["label"] for r in rows(custom)] == [[[5], [1]], [[0]]]
    seg = next(ds.VOCDataset(str(voc), shuffle=False, decode=True).create_dict_iterator(output_numpy=True))
    assert seg["image"].shape == seg["target"].shape == (6, 8, 3)
    (voc / "Annotations" / "2007_000002.xml").write_text(
        "<annotation><object><name>x</name><bndbox><xmin>0</xmin><ymin>1</ymin><xmax>3</xmax><ymax>3</ymax>"
        "</bndbox></object></annotation>")
    with pytest.raises(ValueError, match="invalid annotation file .*2007_000002.xml.*VOC is 1-based"):
        ds.VOCDataset(str(voc), task="Detection")


def test_coco_detection(tmp_path):
    for n in ("a.jpg", "b.jpg"):
        image(tmp_path / "images" / n, 90)
    doc = {"images": [{"id": 1, "file_name": "a.jpg"}, {"id": 7, "file_name": "b.jpg"}],
           "annotations": [{"image_id": 1, "category_id": 18, "bbox": [1, 2, 3, 4], "iscrowd": 0},
                           {"image_id": 1, "category_id": 1, "bbox": [0.5, 0, 2, 2], "iscrowd": 1},
                           {"image_id": 7, "category_id": 18, "bbox": [2, 2, 2, 2], "iscrowd": 0}],
           "categories": [{"id": 1, "name": "person"}, {"id": 18, "name": "dog"}]}
    (tmp_path / "ann.json").write_text(json.dumps(doc))
    d = ds.CocoDataset(str(tmp_path / "images"), str(tmp_path / "ann.json"), shuffle=False)
    assert d.get_col_names() == ["image", "bbox", "category_id", "iscrowd"]
    assert d.get_class_indexing() == {"person": [1], "dog": [18]}
    assert rows(d) == [{"bbox": [[1.0, 2.0, 3.0, 4.0], [0.5, 0.0, 2.0, 2.0]], "category_id": [[18], [1]],
                        "iscrowd": [[0], [1]]},
                       {"bbox": [[2.0, 2.0, 2.0, 2.0]], "category_id": [[18]], "iscrowd": [[0]]}]
    with pytest.raises(NotImplementedError, match="task='Detection' only"):
        ds.CocoDataset(str(tmp_path / "images"), str(tmp_path / "ann.json"), task="Keypoint")
