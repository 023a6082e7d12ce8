"""`import sprout` stays light: heavy optional libraries are imported on first use, not at import."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAVY = ("scipy", "numba", "PIL", "onnx", "onnxruntime", "google.protobuf", "mpi4py", "safetensors",
         "ml_dtypes")  # ml_dtypes (bfloat16 storage): ~0.7 s to import, loaded by the first bfloat16 use


def test_import_sprout_does_not_import_heavy_libraries():
    code = ("import sys; import sprout; import sprout.nn, sprout.ops, sprout.train, sprout.dataset; "
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    loaded = proc.stdout.strip()
    assert loaded == "", f"`import sprout` imported {loaded} (import them where they are first needed)"


def test_bfloat16_use_imports_its_storage_type_on_demand():
    """ms.bfloat16 works in a process where nothing imported ml_dtypes before: its first use imports it."""
    code = ("import sys, numpy as np, sprout as ms; assert 'ml_dtypes' not in sys.modules; "
            "t = ms.Tensor(np.ones(3, np.float32)).astype(ms.bfloat16); print(t.dtype, (t + t).asnumpy().dtype, "
            "'ml_dtypes' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["BFloat16", "bfloat16", "True"]


def test_a_users_bfloat16_array_before_any_sprout_bfloat16_use():
    code = ("import ml_dtypes, numpy as np, sprout as ms; "
            "t = ms.Tensor(np.full(3, 1.5, ml_dtypes.bfloat16)); print(t.dtype, (t * 2).asnumpy().tolist())")
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split(maxsplit=1) == ["BFloat16", "[3.0, 3.0, 3.0]\n"]
