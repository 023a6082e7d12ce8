"""`import sprout` stays light: heavy optional libraries are imported on first use, not at import."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAVY = ("scipy", "numba", "PIL", "onnx", "onnxruntime", "google.protobuf", "mpi4py", "safetensors")


def test_import_sprout_does_not_import_heavy_libraries():
    code = ("import sys; import sprout; import sprout.nn, sprout.ops, sprout.train, sprout.dataset; "
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    loaded = proc.stdout.strip()
    assert loaded == "", f"`import sprout` imported {loaded} (import them where they are first needed)"
