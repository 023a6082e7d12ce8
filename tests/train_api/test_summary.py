"""SummaryRecord / SummaryCollector: the event files are read back by an independent reader (tb_reader)."""
import glob
import io
import os
import struct

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor
from sprout.train import SummaryCollector, SummaryRecord

pytest.importorskip("google.protobuf", reason="the test reader parses events with the protobuf package")
from .tb_reader import read_events, scalars  # noqa: E402
from ._nets import make_data, make_model  # noqa: E402


def only_file(directory):
    files = glob.glob(os.path.join(directory, "*"))
    assert len(files) == 1, files
    return files[0]


def test_scalars_round_trip(tmp_path):
    with SummaryRecord(str(tmp_path)) as record:
        for step, loss in enumerate([2.5, 1.25, 0.625], start=1):
            record.add_value("scalar", "loss", Tensor(np.float32(loss)))
            record.add_value("scalar", "lr", Tensor(np.array([0.1], np.float32)))
            assert record.record(step)
    path = only_file(tmp_path)
    name = os.path.basename(path)
    assert name.startswith("events.out.tfevents.") and name.endswith("_MS")  # TensorBoard needs "tfevents"
    assert record.log_dir == path
    events = read_events(path)
    assert events[0].file_version == "brain.Event:2" and events[0].wall_time > 0
    assert scalars(path) == {"loss": [(1, 2.5), (2, 1.25), (3, 0.625)],
                             "lr": [(s, pytest.approx(0.1)) for s in (1, 2, 3)]}
    assert not record.record(4)  # closed: MindSpore logs an error and returns False


def test_histogram_image_tensor(tmp_path):
    from PIL import Image
    weights = np.linspace(-1.0, 1.0, 101).astype(np.float32)
    images = np.zeros((3, 1, 4, 5), np.float32)
    images[1] = 1.0
    content = np.arange(6, dtype=np.int32).reshape(2, 3)
    with SummaryRecord(str(tmp_path), file_prefix="run", file_suffix="_x") as record:
        record.add_value("histogram", "w", Tensor(weights))
        record.add_value("image", "batch", Tensor(images))
        record.add_value("tensor", "t", Tensor(content))
        record.record(7)
    path = only_file(tmp_path)
    assert os.path.basename(path).startswith("run.out.tfevents.") and path.endswith("_x")
    (event,) = read_events(path)[1:]
    assert event.step == 7
    values = {v.tag: v for v in event.summary.value}
    histo = values["w"].histo
    assert (histo.min, histo.max, histo.num) == (-1.0, 1.0, 101)
    assert histo.sum == pytest.approx(float(weights.astype(np.float64).sum()), abs=1e-9)
    assert histo.sum_squares == pytest.approx(float((weights.astype(np.float64) ** 2).sum()))
    assert sum(histo.bucket) == 101 and histo.bucket_limit[-1] == 1.0
    assert list(histo.bucket_limit) == sorted(histo.bucket_limit)
    image = values["batch"].image
    assert (image.height, image.width, image.colorspace) == (4, 15, 3)  # 3 images side by side, grey -> RGB
    png = np.asarray(Image.open(io.BytesIO(image.encoded_image_string)))
    assert png.shape == (4, 15, 3) and (png[:, 5:10] == 255).all() and (png[:, :5] == 0).all()
    tensor = values["t"].tensor
    assert tensor.dtype == 3 and [d.size for d in tensor.tensor_shape.dim] == [2, 3]  # DT_INT32
    assert np.frombuffer(tensor.tensor_content, "<i4").reshape(2, 3).tolist() == content.tolist()


def test_bad_arguments(tmp_path):
    record = SummaryRecord(str(tmp_path))
    with pytest.raises(ValueError, match="plugin"):
        record.add_value("audio", "x", Tensor(1.0))
    with pytest.raises(TypeError, match="value"):
        record.add_value("scalar", "x", 1.0)
    with pytest.raises(ValueError, match="name"):
        record.add_value("scalar", "", Tensor(1.0))
    with pytest.raises(ValueError, match="rank"):
        record.add_value("scalar", "x", Tensor(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="image"):
        record.add_value("image", "x", Tensor(np.ones((3, 3), np.float32)))
    with pytest.raises(NotImplementedError, match="graph"):
        record.add_value("graph", "x", Tensor(1.0))
    with pytest.raises(TypeError, match="step"):
        record.record(1.5)
    with pytest.raises(ValueError, match="mode"):
        record.set_mode("predict")
    record.close()
    with pytest.raises(ValueError, match="closed"):
        record.__enter__()
    with pytest.raises(TypeError, match="max_file_size"):
        SummaryRecord(str(tmp_path), max_file_size=1.5)
    with pytest.raises(ValueError, match="pattern"):
        SummaryRecord(str(tmp_path), file_prefix="a/b")


def test_max_file_size_stops_writing(tmp_path):
    with SummaryRecord(str(tmp_path / "a"), max_file_size=120) as record:
        for step in range(20):
            record.add_value("scalar", "loss", Tensor(np.float32(step)))
            record.record(step)
    path = only_file(tmp_path / "a")
    assert os.path.getsize(path) <= 120
    steps = [s for s, _ in scalars(path)["loss"]]
    assert steps == list(range(len(steps))) and 0 < len(steps) < 20  # whole records only, then stopped
    with SummaryRecord(str(tmp_path / "b"), max_file_size=60, raise_exception=True) as record:
        record.add_value("scalar", "loss", Tensor(np.float32(1)))
        with pytest.raises(RuntimeError, match="max_file_size"):
            for step in range(5):
                record.add_value("scalar", "loss", Tensor(np.float32(1)))
                record.record(step)


def test_file_framing_is_tfrecord(tmp_path):
    """The writer's own CRC table agrees with the bitwise CRC and the known CRC-32C check value."""
    from sprout.train.summary._event_file import crc32c, frame
    from .tb_reader import crc32c_bitwise
    assert crc32c(b"123456789") == 0xE3069283 == crc32c_bitwise(b"123456789")
    record = frame(b"abc")
    assert struct.unpack("<Q", record[:8])[0] == 3 and record[12:15] == b"abc" and len(record) == 19


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_collector_records_loss_images_histograms(tmp_path, mode):
    ms.set_context(mode=mode)
    try:
        model, net, opt = make_model()
        data = make_data(batch=6, n=24)  # 4 steps per epoch
        seen = []

        class Losses(ms.train.Callback):
            def on_train_step_end(self, run_context):
                cb = run_context.original_args()
                seen.append((cb.cur_step_num, float(np.mean(cb.net_outputs.asnumpy()))))

        collector = SummaryCollector(str(tmp_path), collect_freq=3,
                                     collect_specified_data={"histogram_regular": "fc1"})
        model.train(3, data, callbacks=[collector, Losses()])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    path = only_file(tmp_path)
    recorded = scalars(path)["loss/auto"]
    expected = [(s, v) for s, v in seen if s == 1 or s % 3 == 0]  # the first step, then every collect_freq
    assert [s for s, _ in recorded] == [s for s, _ in expected] == [1, 3, 6, 9, 12]
    assert [v for _, v in recorded] == pytest.approx([v for _, v in expected], rel=1e-6)
    tags = {v.tag for e in read_events(path) for v in e.summary.value if v.HasField("histo")}
    assert tags == {"fc1.weight/auto", "fc1.bias/auto"}  # the regex picks the parameters
    # inputs are (6, 4) rows, not images: not collected (MindSpore warns and stops trying)
    assert not any(v.HasField("image") for e in read_events(path) for v in e.summary.value)


def test_collector_images_and_arguments(tmp_path):
    import sprout.dataset as ds
    from sprout import nn
    from sprout.train import Model
    x = np.random.RandomState(0).rand(8, 1, 4, 4).astype(np.float32)
    y = np.random.RandomState(1).rand(8, 2).astype(np.float32)
    net = nn.SequentialCell([nn.Flatten(), nn.Dense(16, 2)])
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    model.train(1, ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4),
                callbacks=[SummaryCollector(str(tmp_path), collect_freq=1)])
    events = read_events(only_file(tmp_path))
    images = [(e.step, v.image) for e in events for v in e.summary.value if v.tag == "input_data/auto"]
    assert [s for s, _ in images] == [1, 2] and images[0][1].width == 16 and images[0][1].height == 4
    histos = {v.tag for e in events for v in e.summary.value if v.HasField("histo")}
    assert histos == {"1.weight/auto", "1.bias/auto"}  # default: the optimizer's first five parameters
    with pytest.raises(ValueError, match="collect_freq"):
        SummaryCollector(str(tmp_path), collect_freq=0)
    with pytest.raises(ValueError, match="unsupported"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_everything": True})
    with pytest.raises(NotImplementedError, match="collect_graph"):
        SummaryCollector(str(tmp_path), collect_specified_data={"collect_graph": True})
    SummaryCollector(str(tmp_path), collect_specified_data={"collect_graph": False})  # off is what sprout does


def test_unclosed_record_is_flushed_at_exit(tmp_path):
    import subprocess
    import sys
    code = ("import sys; import numpy as np; from sprout import Tensor; from sprout.train import SummaryRecord\n"
            "r = SummaryRecord(sys.argv[1]); r.add_value('scalar', 'x', Tensor(np.float32(3))); r.record(2)\n")
    subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, timeout=120)
    assert scalars(only_file(tmp_path)) == {"x": [(2, 3.0)]}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_summary_operators_reach_the_file(tmp_path, mode):
    """ops.ScalarSummary / TensorSummary inside construct: SummaryCollector writes the value of the recorded
    step (the newest one), TensorSummary also every collect_tensor_freq steps; eval runs record nothing."""
    from sprout import nn, ops
    from sprout.train import Model

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(4, 2)
            self.scalar, self.tensor = ops.ScalarSummary(), ops.TensorSummary()

        def construct(self, x):
            out = self.fc(x)
            self.scalar("out_mean", out.mean())
            self.tensor("out", out)
            return out

    ms.set_context(mode=mode)
    try:
        net = Net()
        model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05))
        means = []

        class Means(ms.train.Callback):
            def on_train_step_begin(self, run_context):
                x = run_context.original_args().train_dataset_element[0]
                means.append(float(net.fc(x).mean().asnumpy()))  # the forward the step is about to run

        collector = SummaryCollector(str(tmp_path), collect_freq=3, collect_tensor_freq=2,
                                     collect_specified_data={"collect_input_data": False})
        model.train(1, make_data(batch=4, n=24), callbacks=[Means(), collector])  # 6 steps
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    path = only_file(tmp_path)
    got = scalars(path)["out_mean"]
    assert [s for s, _ in got] == [1, 3, 6]
    assert [v for _, v in got] == pytest.approx([means[0], means[2], means[5]], rel=1e-5, abs=1e-6)
    tensor_steps = [e.step for e in read_events(path) for v in e.summary.value if v.tag == "out"]
    assert tensor_steps == [1, 2, 3, 4, 6]  # collect steps 1, 3, 6 and tensor-only steps 2, 4
