"""Run every example script at its --small size, as a user would, and check its accuracy and both modes."""
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sklearn", reason="the examples train on scikit-learn's bundled digits")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NUM = r"([0-9]+(?:\.[0-9]+)?)"


# One BLAS thread: on a small shared machine OpenBLAS's worker threads make these tiny matmuls up to
# 10-25x slower when the other cores are busy (measured; see docs/examples.md).
ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def run_example(name, *args, cwd):
    """Run ``examples/<name>`` in a fresh interpreter (cwd = a temp dir) and return its stdout."""
    proc = subprocess.run([sys.executable, str(EXAMPLES / name), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env=ENV)
    assert proc.returncode == 0, f"{name} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc.stdout


def final_accuracies(out, first, second):
    m = re.search(rf"test accuracy: {first} {NUM}, {second} {NUM}", out)
    assert m, f"no final accuracy line for {first}/{second} in:\n{out[-2000:]}"
    return float(m.group(1)), float(m.group(2))


def check_speed_line(out, first, second, ratio_word):
    m = re.search(rf"median epoch: {first} {NUM} ms, {second} {NUM} ms -> {ratio_word} is {NUM}x", out)
    assert m, f"no speed comparison printed:\n{out[-2000:]}"
    assert float(m.group(1)) > 0 and float(m.group(2)) > 0


# thresholds: measured --small accuracy (docs/examples.md) minus a margin
def test_lenet_digits_small(tmp_path):
    out = run_example("lenet_digits.py", "--small", cwd=tmp_path)  # measured 0.839 in both modes
    assert "==== PYNATIVE_MODE ====" in out and "==== GRAPH_MODE ====" in out
    acc_pynative, acc_graph = final_accuracies(out, "PYNATIVE_MODE", "GRAPH_MODE")
    assert acc_pynative >= 0.75 and acc_graph >= 0.75
    assert abs(acc_pynative - acc_graph) <= 0.03  # same seed, same numbers up to float rounding
    check_speed_line(out, "PYNATIVE_MODE", "GRAPH_MODE", "graph mode")
    assert re.search(r"epoch: 5 step: 16, loss is [0-9.]+", out)  # LossMonitor's own line
    assert "Train epoch time:" in out  # TimeMonitor
    # ModelCheckpoint wrote the last epoch of both runs, and reloading it scores the same
    for prefix in ("lenet_pynative", "lenet_graph"):
        assert (tmp_path / "ckpt_lenet_digits" / f"{prefix}-5_16.ckpt").is_file()
    reloaded = [float(a) for a in re.findall(rf"accuracy from lenet_\w+-5_16\.ckpt: {NUM}", out)]
    assert reloaded == pytest.approx([acc_pynative, acc_graph], abs=1e-6)


def test_mlp_model_small(tmp_path):
    out = run_example("mlp_model.py", "--small", cwd=tmp_path)  # measured 0.936 in both modes
    assert "==== PYNATIVE_MODE ====" in out and "==== GRAPH_MODE ====" in out
    acc_pynative, acc_graph = final_accuracies(out, "PYNATIVE_MODE", "GRAPH_MODE")
    assert acc_pynative >= 0.85 and acc_graph >= 0.85
    assert abs(acc_pynative - acc_graph) <= 0.03
    check_speed_line(out, "PYNATIVE_MODE", "GRAPH_MODE", "graph mode")
    assert "Eval result: epoch 1, metrics:" in out  # fit's per-epoch validation via LossMonitor
    assert re.search(r"\[GRAPH_MODE\] ran [1-6] epochs; validation accuracy per epoch:", out)  # History
    # the schedule multiplies the learning rate 0.1 by 0.7 once per epoch
    m = re.search(rf"\[PYNATIVE_MODE\] ran ([0-9]+) epochs.*?final learning rate: {NUM}", out, re.S)
    assert float(m.group(2)) == pytest.approx(0.1 * 0.7 ** int(m.group(1)), rel=1e-3)


def test_rnn_small(tmp_path):
    out = run_example("rnn_or_attention.py", "--small", cwd=tmp_path)  # measured 0.814 eager and jit
    assert "==== eager ====" in out and "==== jit ====" in out
    acc_eager, acc_jit = final_accuracies(out, "eager", "jit")
    assert acc_eager >= 0.7 and acc_jit >= 0.7
    assert abs(acc_eager - acc_jit) <= 0.03
    check_speed_line(out, "eager", "jit", "jit")


def test_readme_main_job_short(tmp_path):
    """The README's main job (examples/train_digits.py), cut to 2 epochs."""
    out = run_example("train_digits.py", "--epochs", "2", cwd=tmp_path)  # measured 0.961 eager and jit
    m = re.search(rf"final accuracy: eager {NUM}, jit {NUM}", out)
    assert m, out[-2000:]
    assert float(m.group(1)) >= 0.9 and float(m.group(2)) >= 0.9
    assert "-> jit is" in out


@pytest.mark.slow
@pytest.mark.parametrize("name, first, second, threshold", [
    ("lenet_digits.py", "PYNATIVE_MODE", "GRAPH_MODE", 0.96),   # measured 0.981
    ("mlp_model.py", "PYNATIVE_MODE", "GRAPH_MODE", 0.97),      # measured 0.983
    ("rnn_or_attention.py", "eager", "jit", 0.96),              # measured 0.989
])
def test_full_size_accuracy(tmp_path, name, first, second, threshold):
    """The accuracies stated in the examples' docstrings, at full size."""
    out = run_example(name, cwd=tmp_path)
    a, b = final_accuracies(out, first, second)
    assert a >= threshold and b >= threshold


# The data-pipeline examples (no scikit-learn needed; they generate their own images and sentences).
@pytest.mark.parametrize("name, small_threshold", [
    ("image_folder_cnn.py", 0.55),      # measured 0.733 (chance 0.333)
    ("mindrecord_roundtrip.py", 0.55),  # measured 0.683
    ("text_lstm.py", 0.8),              # measured 0.967
])
def test_data_pipeline_examples_small(tmp_path, name, small_threshold):
    out = run_example(name, "--small", cwd=tmp_path)
    acc_eager, acc_jit = final_accuracies(out, "eager", "jit")
    assert acc_eager >= small_threshold and acc_jit >= small_threshold
    # seeded pipelines: both runs see the same batches, so the first epoch's loss is the same
    first = re.findall(r"\[(eager|jit|graph)\] epoch 1: loss ([0-9.]+)", out)
    assert len(first) in (2, 3) and all(abs(float(f[1]) - float(first[0][1])) <= 2e-4 for f in first)
    assert re.search(rf"median epoch: eager {NUM} ms, jit {NUM} ms -> jit is {NUM}x", out)
    if name == "mindrecord_roundtrip.py":
        assert "every image byte-identical" in out and "num_shards=2 gives [45, 45]" in out
    if name == "image_folder_cnn.py":
        assert "'disc': 0, 'horizontal': 1, 'vertical': 2" in out and "images/s" in out
        # the same training in GRAPH_MODE through TrainOneStepCell (first-epoch loss checked above)
        assert len(first) == 3
        m = re.search(rf"GRAPH_MODE TrainOneStepCell: median epoch {NUM} ms, test accuracy: graph {NUM}", out)
        assert m and float(m.group(2)) >= small_threshold, out[-2000:]
        # export -> load -> GraphCell predicts as the trained (jit) net; the ONNX file too under onnxruntime
        m = re.search(rf"nn.GraphCell: max \|difference\| {NUM}(e[-+][0-9]+)?, accuracy {NUM}", out)
        assert m, out[-2000:]
        assert float(m.group(1) + (m.group(2) or "")) <= 1e-6 and float(m.group(3)) == acc_jit
        assert (tmp_path / "shapes_cnn.mindir").is_file() and (tmp_path / "shapes_cnn.onnx").is_file()
        m = re.search(rf"onnxruntime: max \|difference\| {NUM}(e[-+][0-9]+)?, accuracy {NUM}", out)
        if m is not None or "onnxruntime is not installed" not in out:
            assert m and float(m.group(1) + (m.group(2) or "")) <= 1e-4, out[-2000:]


def test_mixed_precision_small(tmp_path):
    """O2 + DynamicLossScaleManager: the poisoned batch overflows, its update is skipped, the scale halves and
    grows back; training reaches the O0 run's accuracy; SummaryCollector's loss curve reads back."""
    from train_api.tb_reader import scalars
    out = run_example("mixed_precision.py", "--small", cwd=tmp_path)  # measured 0.839 (O0) / 0.886 (O2)
    m = re.search(rf"test accuracy: O0 {NUM}, O2 {NUM}", out)
    assert m, out[-2000:]
    assert float(m.group(1)) >= 0.75 and float(m.group(2)) >= 0.75
    assert "step 5: loss nan, overflow, update skipped, weights unchanged, loss scale 4096 -> 2048" in out
    assert "overflow steps: [5]; updates skipped at all of them: True" in out
    # scale_window=20 clean steps after the overflow: the scale doubles at steps 25, 45, 65
    assert re.search(r"step 25: loss [0-9.]+, no overflow, weights updated, loss scale 2048 -> 4096", out)
    (path,) = (tmp_path / "summary_amp").iterdir()
    curve = scalars(str(path))["loss/auto"]
    assert [s for s, _ in curve] == list(range(1, 81))  # collect_freq=1: 16 steps x 5 epochs
    assert np.isnan(curve[4][1]) and all(np.isfinite(v) for s, v in curve if s != 5)
    assert curve[-1][1] < curve[0][1]
