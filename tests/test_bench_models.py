"""Smoke run of the benchmark suite's real-model workloads (M1 ResNet-18-style, M2 Transformer encoder,
M3 LSTM train steps) at tiny sizes: eager, jit O0 and jit O1 must agree on the loss and updated
parameters (the suite exits 1 on a mismatch); where PyTorch / JAX are importable (a peer venv), their versions
(torch eager, jax eager, jax.jit; --quick skips torch.compile) must agree with sprout eager too. No timing is
asserted."""
import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_model_workloads_run_and_agree_at_tiny_size():
    env = dict(os.environ, PYTHONPATH=ROOT, BENCH_MODEL_SIZE="tiny")
    cmd = [sys.executable, os.path.join(ROOT, "bench", "suite.py"), "--quick", "--only", "M1,M2,M3",
           "--no-memory", "--no-limits", "--strict"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    checked = 2 + (importlib.util.find_spec("torch") is not None) + 2 * (importlib.util.find_spec("jax") is not None)
    for w in ("M1", "M2", "M3"):
        row = next(line for line in proc.stdout.splitlines() if line.startswith(f"| {w} "))
        assert f"OK ({checked}/{checked})" in row, row
