"""The distributed examples started by the launcher with 2 workers. examples/data_parallel.py: both ranks end with the
same weights, equal to one process on the same global batches, and only rank 0 writes the shared checkpoint
directory. examples/pipeline_parallel.py (one worker per pipeline stage): every rank reports the loss, the stages'
weights add up to the one-process run's, and the network assembled from the stage checkpoints
(load_segmented_checkpoints) has the one-process test accuracy."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sklearn", reason="the example trains on scikit-learn's bundled digits")
pytestmark = pytest.mark.skipif(shutil.which("mpiexec") is None, reason="MPICH's mpiexec is not installed")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "data_parallel.py"
PIPELINE = EXAMPLE.parent / "pipeline_parallel.py"
ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
       "PYTHONPATH": str(EXAMPLE.parents[1])}


def _run(cmd, cwd):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300, env=ENV)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def test_two_workers_train_like_one_process(tmp_path):
    out = _run([sys.executable, "-m", "sprout.msrun", "--worker_num", "2", "--local_worker_num", "2", "--join",
                "True", "--log_dir", "logs", str(EXAMPLE), "--small"], tmp_path)
    sums = dict(re.findall(r"rank (\d) of 2: weight checksum ([0-9.]+)", out))
    assert sums.keys() == {"0", "1"} and sums["0"] == sums["1"], out[-2000:]
    acc = float(re.search(r"test accuracy: ([0-9.]+)", out).group(1))
    assert acc >= 0.7  # measured 0.772
    assert os.listdir(tmp_path / "ckpt") == ["mlp_dp-3_8.ckpt"]
    one = _run([sys.executable, str(EXAMPLE), "--small", "--ckpt_dir", "one"], tmp_path)
    single = float(re.search(r"rank 0 of 1: weight checksum ([0-9.]+)", one).group(1))
    assert abs(single - float(sums["0"])) <= 1e-6 * single


def test_two_pipeline_stages_train_like_one_process(tmp_path):
    out = _run([sys.executable, "-m", "sprout.msrun", "--worker_num", "2", "--local_worker_num", "2", "--join",
                "True", "--log_dir", "logs", str(PIPELINE), "--small"], tmp_path)
    sums = {int(r): float(v) for r, v in re.findall(r"rank (\d) of 2: stage weight checksum ([0-9.]+)", out)}
    assert sums.keys() == {0, 1}, out[-2000:]
    assert len(re.findall(r"epoch: 3 step: 8, loss is", out)) == 2  # pipeline_result_broadcast: on both ranks
    one = _run([sys.executable, str(PIPELINE), "--small", "--ckpt_dir", "one"], tmp_path)
    single = float(re.search(r"rank 0 of 1: stage weight checksum ([0-9.]+)", one).group(1))
    assert abs(single - (sums[0] + sums[1])) <= 1e-6 * single
    acc = re.search(r"test accuracy: ([0-9.]+)", out).group(1)
    assert acc == re.search(r"test accuracy: ([0-9.]+)", one).group(1)
    assert sorted(os.listdir(tmp_path / "ckpt")) == ["stage_0.ckpt", "stage_1.ckpt"]
