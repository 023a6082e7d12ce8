"""Image classification from a folder of JPEG files, the way MindSpore tutorials do it:
ImageFolderDataset -> RandomCropDecodeResize / flips / colour jitter (on worker processes) -> batch ->
a small CNN trained eagerly, with @jit and in GRAPH_MODE (TrainOneStepCell) -> evaluation on a held-out
folder -> export as MINDIR and ONNX -> ``ms.load`` + ``nn.GraphCell`` (and onnxruntime) predicting the
test images as the trained net does.

Written exactly as a MindSpore 2.x user writes it: replace ``import sprout as ms`` (and the other
``sprout`` imports) by ``mindspore`` and it runs unchanged. The images are generated first (no
download): three classes of 40x40 pictures - a disc, horizontal stripes, vertical stripes - in random
colours, positions and sizes with noise, saved as JPEG files in ``<workdir>/shapes/{train,test}/<class>/``.

Measured (python examples/image_folder_cnn.py: 3 x 60 training and 3 x 20 test images, 24x24 crops,
8 epochs, batch 20): test accuracy 0.933 eager and jit; --small (3 x 30 training images, 6 epochs)
reaches 0.733. Seeded augmentation draws the same values whatever the number of worker processes,
so both runs train on the same batches. Times are in docs/examples.md.
"""
import argparse
import os
import time

import numpy as np
from PIL import Image, ImageDraw

from example_utils import train_epochs
import sprout as ms                              # import mindspore as ms
import sprout.dataset as ds                      # import mindspore.dataset as ds
import sprout.dataset.transforms as transforms   # import mindspore.dataset.transforms as transforms
import sprout.dataset.vision as vision           # import mindspore.dataset.vision as vision
from sprout import nn, ops                       # from mindspore import nn, ops

CLASSES = ("disc", "horizontal", "vertical")


def draw(kind: str, rng: np.random.Generator, size: int = 40) -> np.ndarray:
    """One picture of ``kind`` in random colours, place and scale, with noise."""
    back, fore = rng.integers(0, 256, 3), rng.integers(0, 256, 3)
    while np.abs(back - fore).sum() < 150:  # keep the shape visible
        fore = rng.integers(0, 256, 3)
    img = Image.new("RGB", (size, size), tuple(int(v) for v in back))
    pen = ImageDraw.Draw(img)
    if kind == "disc":
        r = int(rng.integers(8, 16))
        cx, cy = (int(v) for v in rng.integers(r, size - r, 2))
        pen.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tuple(int(v) for v in fore))
    else:
        step, width = int(rng.integers(6, 11)), int(rng.integers(2, 4))
        for k in range(int(rng.integers(0, step)), size, step):
            box = (0, k, size, k + width) if kind == "horizontal" else (k, 0, k + width, size)
            pen.rectangle(box, fill=tuple(int(v) for v in fore))
    noisy = np.asarray(img, np.float32) + rng.normal(0, 12, (size, size, 3))
    return np.clip(noisy, 0, 255).astype(np.uint8)


def make_folder(root: str, per_class: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for kind in CLASSES:
        os.makedirs(os.path.join(root, kind), exist_ok=True)
        for i in range(per_class):
            Image.fromarray(draw(kind, rng)).save(os.path.join(root, kind, f"{i:04d}.jpg"), quality=90)


def train_pipeline(root: str, batch_size: int, workers: int) -> ds.Dataset:
    data = ds.ImageFolderDataset(root, shuffle=True)
    augment = [vision.RandomCropDecodeResize(24, scale=(0.5, 1.0)),
               vision.RandomHorizontalFlip(),
               vision.RandomColorAdjust(brightness=0.3, contrast=0.3, saturation=0.3),
               vision.Rescale(1.0 / 255.0, 0.0),
               vision.Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25]),
               vision.HWC2CHW()]
    data = data.map(augment, input_columns="image", num_parallel_workers=workers, python_multiprocessing=True)
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(batch_size, drop_remainder=True)


def test_pipeline(root: str) -> ds.Dataset:
    data = ds.ImageFolderDataset(root, shuffle=False, decode=True)
    data = data.map([vision.Resize(28), vision.CenterCrop(24), vision.Rescale(1.0 / 255.0, 0.0),
                     vision.Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25]), vision.HWC2CHW()], input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(64)


class SmallCNN(nn.Cell):
    def __init__(self, num_classes: int):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3)
        self.conv2 = nn.Conv2d(16, 32, 3)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(32 * 6 * 6, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc(self.flatten(x))


def evaluate(net, data) -> float:
    correct = total = 0
    for images, labels in data.create_tuple_iterator():
        pred = ops.argmax(net(images), 1).asnumpy()
        correct += int((pred == labels.asnumpy()).sum())
        total += len(pred)
    return correct / total


def run(name: str, epochs: int, train_data, test_data, num_classes: int):
    """Train a fresh net: "eager" (PyNative), "jit" (an @ms.jit train step) or "graph" (GRAPH_MODE with
    MindSpore's TrainOneStepCell idiom; the context is restored afterwards)."""
    ms.set_seed(7)        # also the dataset seed: shuffles and augmentations
    train_data.reset()    # every run sees the same shuffles and augmentations
    net = SmallCNN(num_classes)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=3e-3)
    if name == "graph":
        ms.set_context(mode=ms.GRAPH_MODE)
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
    else:
        grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)

        def train_step(images, labels):
            loss, grads = grad_fn(images, labels)
            optimizer(grads)
            return loss

        step = ms.jit(train_step) if name == "jit" else train_step
    times = train_epochs(step, train_data, epochs, name)
    accuracy = evaluate(net, test_data)
    print(f"[{name}] test accuracy: {accuracy:.3f}")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return accuracy, times, net


def deploy(net, test_data, workdir: str) -> None:
    """Export the trained net as MINDIR and ONNX, load both back and predict the test images with them."""
    images, labels = next(test_data.create_tuple_iterator())
    expected = net(images).asnumpy()
    base = os.path.join(workdir, "shapes_cnn")
    ms.export(net, images, file_name=base, file_format="MINDIR")
    ms.export(net, images, file_name=base, file_format="ONNX")

    graph = ms.load(base + ".mindir")    # the graph alone: no Python class needed to run it
    deployed = nn.GraphCell(graph)
    got = deployed(images).asnumpy()
    accuracy = float((got.argmax(1) == labels.asnumpy()).mean())
    print(f"MINDIR ({os.path.getsize(base + '.mindir')} bytes) -> ms.load -> nn.GraphCell: "
          f"max |difference| {np.abs(got - expected).max():.1e}, accuracy {accuracy:.3f}")
    try:
        import onnxruntime                # the ONNX file runs without sprout or MindSpore
    except ImportError:
        print("ONNX: onnxruntime is not installed, skipping the check")
        return
    session = onnxruntime.InferenceSession(base + ".onnx", providers=["CPUExecutionProvider"])
    onnx_out = session.run(None, {session.get_inputs()[0].name: images.asnumpy()})[0]
    accuracy = float((onnx_out.argmax(1) == labels.asnumpy()).mean())
    print(f"ONNX ({os.path.getsize(base + '.onnx')} bytes) -> onnxruntime: "
          f"max |difference| {np.abs(onnx_out - expected).max():.1e}, accuracy {accuracy:.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="fewer images and epochs (for the tests)")
    parser.add_argument("--workdir", default=".", help="where the generated image folder goes")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the augmenting map")
    args = parser.parse_args()
    per_class, epochs = (30, 6) if args.small else (60, 8)
    root = os.path.join(args.workdir, "shapes")
    make_folder(os.path.join(root, "train"), per_class, seed=1)
    make_folder(os.path.join(root, "test"), 20, seed=2)

    train_data = train_pipeline(os.path.join(root, "train"), 20, args.workers)
    test_data = test_pipeline(os.path.join(root, "test"))
    print(f"classes: {train_data.get_class_indexing()} ({train_data.num_classes()} classes), "
          f"{train_data.get_dataset_size()} batches per epoch")
    start = time.perf_counter()
    images = sum(len(b[0]) for b in train_data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    print(f"input pipeline: {images / (time.perf_counter() - start):.0f} images/s "
          f"(decode + augment on {args.workers} worker processes)")

    acc_eager, t_eager, _ = run("eager", epochs, train_data, test_data, train_data.num_classes())
    acc_jit, t_jit, net = run("jit", epochs, train_data, test_data, train_data.num_classes())
    acc_graph, t_graph, _ = run("graph", epochs, train_data, test_data, train_data.num_classes())
    eager, jit = float(np.median(t_eager[1:])), float(np.median(t_jit[1:]))
    print(f"median epoch: eager {eager * 1000:.0f} ms, jit {jit * 1000:.0f} ms -> jit is {eager / jit:.2f}x")
    print(f"test accuracy: eager {acc_eager:.3f}, jit {acc_jit:.3f}")
    print(f"GRAPH_MODE TrainOneStepCell: median epoch {np.median(t_graph[1:]) * 1000:.0f} ms, "
          f"test accuracy: graph {acc_graph:.3f}")
    deploy(net, test_data, args.workdir)


if __name__ == "__main__":
    main()
