"""MindRecord round trip: an image folder -> FileWriter (2 shards, indexed) -> FileReader (every byte
checked) -> MindDataset (all shards, then one shard per "device") -> decode + augment -> the small CNN of
image_folder_cnn.py trained eagerly and with @jit -> evaluation on a MindRecord test set.

Written exactly as a MindSpore 2.x user writes it: replace ``import sprout as ms`` (and the other
``sprout`` imports) by ``mindspore`` and it runs unchanged; the files are MindSpore's format (MindSpore
2.10 reads the ones sprout writes and the other way round). The images are generated like those of
image_folder_cnn.py.

Measured (python examples/mindrecord_roundtrip.py: 3 x 60 training and 3 x 20 test images, 8 epochs):
test accuracy 0.917 eager and jit; --small (3 x 30 images, 6 epochs) reaches 0.683.
"""
import argparse
import os

import numpy as np
from image_folder_cnn import SmallCNN, evaluate, make_folder

from example_utils import train_epochs
import sprout as ms                              # import mindspore as ms
import sprout.dataset as ds                      # import mindspore.dataset as ds
import sprout.dataset.vision as vision           # import mindspore.dataset.vision as vision
from sprout import nn                            # from mindspore import nn
from sprout.mindrecord import FileReader, FileWriter  # from mindspore.mindrecord import FileReader, FileWriter

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"}, "image": {"type": "bytes"}}


def folder_to_mindrecord(folder: str, path: str, shards: int) -> int:
    """Write every image of ``folder`` (one class per sub-folder) with its label; returns the row count."""
    classes = sorted(os.listdir(folder))
    writer = FileWriter(path, shard_num=shards, overwrite=True)
    writer.set_header_size(1 << 16)  # the defaults (16 MB header, 32 MB pages) suit big datasets;
    writer.set_page_size(1 << 20)    # the files are sparse, but small slots keep them small for small data
    writer.add_schema(SCHEMA, "images of an image folder")
    writer.add_index(["file_name", "label"])
    rows = []
    for label, name in enumerate(classes):
        for file in sorted(os.listdir(os.path.join(folder, name))):
            with open(os.path.join(folder, name, file), "rb") as f:
                rows.append({"file_name": f"{name}/{file}", "label": label, "image": f.read()})
    for start in range(0, len(rows), 64):  # big datasets go in several calls
        writer.write_raw_data(rows[start:start + 64])
    writer.commit()
    return len(rows)


def check_round_trip(folder: str, first_file: str) -> int:
    reader = FileReader(first_file)  # one shard's name: every shard of the dataset is read
    count = 0
    for row in reader.get_next():
        with open(os.path.join(folder, row["file_name"]), "rb") as f:
            if f.read() != row["image"]:
                raise RuntimeError(f"{row['file_name']} changed on its way through MindRecord")
        count += 1
    reader.close()
    return count


def train_pipeline(files, batch_size=20):
    data = ds.MindDataset(files, columns_list=["image", "label"], shuffle=True)
    data = data.map([vision.RandomCropDecodeResize(24, scale=(0.5, 1.0)), vision.RandomHorizontalFlip(),
                     vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25]),
                     vision.HWC2CHW()], input_columns="image", num_parallel_workers=2, python_multiprocessing=True)
    return data.batch(batch_size, drop_remainder=True)


def test_pipeline(files):
    data = ds.MindDataset(files, columns_list=["image", "label"], shuffle=False)
    data = data.map([vision.Decode(), vision.Resize(28), vision.CenterCrop(24), vision.Rescale(1.0 / 255.0, 0.0),
                     vision.Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25]), vision.HWC2CHW()], input_columns="image")
    return data.batch(64)


def run(use_jit, epochs, train_data, test_data):
    ms.set_seed(5)
    train_data.reset()
    net = SmallCNN(3)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=3e-3)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)

    def train_step(images, labels):
        loss, grads = grad_fn(images, labels)
        optimizer(grads)
        return loss

    step = ms.jit(train_step) if use_jit else train_step
    name = "jit" if use_jit else "eager"
    times = train_epochs(step, train_data, epochs, name)
    accuracy = evaluate(net, test_data)
    print(f"[{name}] test accuracy: {accuracy:.3f}")
    return accuracy, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="fewer images and epochs (for the tests)")
    parser.add_argument("--workdir", default=".")
    args = parser.parse_args()
    per_class, epochs = (30, 6) if args.small else (60, 8)
    root = os.path.join(args.workdir, "shapes")
    make_folder(os.path.join(root, "train"), per_class, seed=1)
    make_folder(os.path.join(root, "test"), 20, seed=2)
    train_file = os.path.join(args.workdir, "shapes_train.mindrecord")
    test_file = os.path.join(args.workdir, "shapes_test.mindrecord")
    rows = folder_to_mindrecord(os.path.join(root, "train"), train_file, shards=2)
    folder_to_mindrecord(os.path.join(root, "test"), test_file, shards=1)
    shards = [train_file + "0", train_file + "1"]
    sizes = [os.path.getsize(s) for s in shards]
    print(f"wrote {rows} rows into {len(shards)} shards ({', '.join(f'{s} bytes' for s in sizes)}) + .db indexes")
    print(f"round trip: {check_round_trip(os.path.join(root, 'train'), shards[0])} rows read back, every image "
          "byte-identical")
    per_device = [ds.MindDataset(shards[0], num_shards=2, shard_id=i).get_dataset_size() for i in range(2)]
    print(f"MindDataset: {ds.MindDataset(shards[0]).get_dataset_size()} rows; num_shards=2 gives {per_device}")

    train_data, test_data = train_pipeline(shards[0]), test_pipeline(test_file)
    acc_eager, t_eager = run(False, epochs, train_data, test_data)
    acc_jit, t_jit = run(True, epochs, train_data, test_data)
    eager, jit = float(np.median(t_eager[1:])), float(np.median(t_jit[1:]))
    print(f"median epoch: eager {eager * 1000:.0f} ms, jit {jit * 1000:.0f} ms -> jit is {eager / jit:.2f}x")
    print(f"test accuracy: eager {acc_eager:.3f}, jit {acc_jit:.3f}")


if __name__ == "__main__":
    main()
